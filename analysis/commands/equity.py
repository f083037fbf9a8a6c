"""``dilemma equity`` and ``dilemma table starting-hands|kickers|streets``: equity from the shell."""

from __future__ import annotations

import json
from enum import StrEnum
from pathlib import Path

import typer

from analysis.runners import progress_bar
from evaluator.errors import LabError

from ._common import GameOpt, ProgressOpt, SchedulerOpt, ThreadsOpt, WorkersOpt, backend, out_folder


class EquityFormat(StrEnum):
    table = "table"
    json = "json"


def _pct(x: float) -> str:
    return f"{100 * x:7.3f}%"


def register(app: typer.Typer) -> None:
    @app.command("equity")
    def equity_cmd(
        players: list[str] = typer.Argument(
            ..., help='one argument per player: cards ("As Ah"), a range ("AA, A10s+, 40%(77-99), AKo:0.5, top 10%") or random'
        ),
        board: str = typer.Option(None, "--board", help="0, 3, 4 or 5 board cards, e.g. '2c 7d 9h'"),
        dead: str = typer.Option(None, "--dead", help="cards out of play"),
        vs_random: int = typer.Option(0, "--vs-random", min=0, help="add this many random players"),
        exact: bool = typer.Option(False, "--exact", help="force exact enumeration"),
        trials: int = typer.Option(None, "--trials", min=1, help="Monte Carlo with this many deals"),
        stderr: float = typer.Option(None, "--stderr", help="Monte Carlo until every standard error <= this (a fraction: 0.001 is 0.1 percentage points)"),
        seed: int = typer.Option(0, "--seed", min=0, help="generator seed (same seed, same numbers)"),
        threads: ThreadsOpt = None,
        workers: WorkersOpt = None,
        scheduler: SchedulerOpt = None,
        game: GameOpt = "dilemma",
        fmt: EquityFormat = typer.Option(EquityFormat.table, "--format"),
        categories: bool = typer.Option(False, "--categories", help="also show the winning hand categories"),
    ) -> None:
        """Equity of every player: exact when affordable, Monte Carlo otherwise."""
        from analysis.studies.equity import equity

        if sum([exact, trials is not None, stderr is not None]) > 1:
            raise LabError("choose one of --exact, --trials N and --stderr X")
        # a bar on an interactive terminal only
        with progress_bar(transient=True) as update:
            res = equity(
                *players, board=board, dead=dead, game=game, vs_random=vs_random,
                exact=True if exact else None, trials=trials, stderr=stderr, seed=seed,
                threads=threads, backend=backend(threads, workers, scheduler), progress=update,
            )
        if fmt is EquityFormat.json:
            typer.echo(json.dumps(res.to_dict(), indent=2))
            return
        how = (
            f"exact enumeration of {res.trials:,} deals" if res.exact
            else f"Monte Carlo, {res.trials:,} deals, seed {res.seed}"
        )
        typer.echo(f"{res.game}: {how}; board: {res.board or '-'}; dead: {res.dead or '-'}; {res.seconds:.3f} s")
        width = max(8, *(len(p.hand) for p in res.players))
        typer.echo(f"{'player':<7}{'hand':<{width + 2}}{'equity':>9}{'win':>9}{'tie':>9}{'stderr':>10}")
        for i, p in enumerate(res.players, start=1):
            typer.echo(
                f"{i:<7}{p.hand:<{width + 2}}{_pct(p.equity):>9}{_pct(p.win):>9}{_pct(p.tie):>9}"
                f"{_pct(p.stderr):>10}"
            )
        if categories:
            from evaluator import CATEGORIES

            typer.echo("\nwins (or shares) by the winner's hand category:")
            typer.echo(f"{'category':<17}" + "".join(f"{'p' + str(i):>10}" for i in range(1, len(res.players) + 1)))
            for c in reversed(CATEGORIES):
                typer.echo(f"{c:<17}" + "".join(f"{_pct(p.categories[c]):>10}" for p in res.players))

    table = typer.Typer(help="Starting-hand and street-probability tables (CSV, Parquet, charts).",
                        no_args_is_help=True)
    app.add_typer(table, name="table")

    @table.command("starting-hands")
    def starting_hands_cmd(
        game: GameOpt = "dilemma",
        opponents: str = typer.Option("1-9", "--opponents", help="opponent counts, e.g. 1-9 or 1,2,5"),
        out: Path = typer.Option(Path("results/starting-hands"), "--out", help="output folder", callback=out_folder),
        seed: int = typer.Option(0, "--seed", min=0),
        stderr: float = typer.Option(0.001, "--stderr", help="standard-error target of Monte Carlo cells"),
        threads: ThreadsOpt = None,
        workers: WorkersOpt = None,
        scheduler: SchedulerOpt = None,
        charts: bool = typer.Option(True, "--charts/--no-charts", help="also draw the charts"),
        progress: ProgressOpt = True,
        kickers: str = typer.Option("all", "--kickers", help="RULES §1.3: all (every kicker, the default) or top (only the highest; files named _kickers-top, no charts)"),
    ) -> None:
        """Every starting class vs 1..9 random opponents (exact vs 1): table, manifest, charts.

        Each opponent count is saved to OUT/.partial/ when done, so an interrupted
        run picks up where it stopped.
        """
        import time

        from evaluator.kickers import check_kickers

        from ..guide.writers import write_starting_hand_study

        started = time.perf_counter()
        check_kickers(kickers)
        with progress_bar(progress) as update:
            res, paths, written = write_starting_hand_study(
                game, out, opponents, seed=seed, stderr=stderr, charts=charts,
                backend=backend(threads, workers, scheduler), progress=update, kickers=kickers)
        typer.echo(f"table: {paths['csv']} and {paths['parquet']} ({len(res.frame)} rows)")
        if charts and kickers != "all":
            typer.echo("charts: drawn for the default reading of kickers only")
        elif charts:
            typer.echo(f"charts: {len(written)} files in {out}")
        typer.echo(f"done in {time.perf_counter() - started:.1f} s")

    @table.command("kickers")
    def kickers_cmd(
        game: GameOpt = "dilemma",
        out: Path = typer.Option(Path("results/kickers"), "--out", help="output folder", callback=out_folder),
        top: int = typer.Option(10, "--top", min=0, help="print the classes whose equity moves most"),
    ) -> None:
        """The exact heads-up table under both readings of kickers (RULES §1.3): how often a
        showdown splits and how far each class's equity moves (table and manifest)."""
        import time

        from analysis.core.io import provenance, write_table
        from analysis.studies.starting_hands import kickers_comparison
        from evaluator import get_game

        started = time.perf_counter()
        df, summary = kickers_comparison(game)
        name = get_game(game).name
        manifest = provenance(game=name, method="exact heads-up enumeration under kickers=all and kickers=top",
                              reference="RULES §1.3", **summary)
        paths = write_table(df, out, f"kickers_{name}", manifest)
        typer.echo(f"{name}: heads-up showdowns that split: {100 * summary['split_all']:.3f}% with every "
                   f"kicker, {100 * summary['split_top']:.3f}% with the top kicker only")
        typer.echo(f"{'hand':<6}{'combos':>7}{'equity all':>12}{'equity top':>12}{'delta':>9}"
                   f"{'tie all':>10}{'tie top':>10}")
        for r in df.head(top).itertuples(index=False):
            typer.echo(f"{r.hand:<6}{r.combos:>7}{_pct(r.equity_all):>12}{_pct(r.equity_top):>12}"
                       f"{100 * r.delta:>+8.3f}{_pct(r.tie_all):>10}{_pct(r.tie_top):>10}")
        typer.echo(f"table: {paths['csv']} and {paths['parquet']} ({len(df)} rows); "
                   f"{time.perf_counter() - started:.1f} s")

    @table.command("streets")
    def streets_cmd(
        out: Path = typer.Option(Path("results/streets"), "--out", help="output folder", callback=out_folder),
        charts: bool = typer.Option(True, "--charts/--no-charts"),
    ) -> None:
        """Exact made-hand category probabilities at flop, turn and river for both decks."""
        from ..guide.writers import write_street_study

        changes, _ = write_street_study(out, charts=charts)
        typer.echo(f"tables and chart in {out}")
        for row in changes.itertuples(index=False):
            typer.echo(f"  {row.street}: {row.weaker} vs {row.stronger}: more common is "
                       f"{row[7]} with 40 cards, {row[8]} with 52")
