"""``dilemma brag ...``: Three Card Brag hands, equity, tables and the blind-play study."""

from __future__ import annotations

import json
import time
from pathlib import Path

import typer

from analysis.runners import progress_bar
from evaluator.errors import LabError

from ._common import ProgressOpt, SchedulerOpt, ThreadsOpt, WorkersOpt, backend, out_folder
from ._lists import float_list, int_list, word_list

RulesOpt = typer.Option("source", "--rules",
                        help="source (A-K-Q the best run, 3-2-A the lowest; RULES §4 [choice]) or "
                             "a23-high, also written a23=high (3-2-A the best run, pagat's)")


def _format(value: str) -> str:
    if value not in ("table", "json"):
        raise LabError(f"--format must be table or json; got {value!r}")
    return value


def register(app: typer.Typer) -> None:
    brag = typer.Typer(help="Three Card Brag (RULES §4): hands, equity, tables, blind play.",
                       no_args_is_help=True)
    app.add_typer(brag, name="brag")

    @brag.command("eval")
    def eval_cmd(cards: list[str] = typer.Argument(..., help='three cards, e.g. "As Ks Qs"'),
                 rules: str = RulesOpt) -> None:
        """Category, score (higher is better), class and percentile of one hand."""
        from analysis.studies.brag.equity import hand_index
        from analysis.studies.brag.headsup import OPPONENT_HANDS, headsup_counts
        from evaluator.brag import category, describe, evaluate, get_brag_rules, hand_class

        text = " ".join(cards)
        r = get_brag_rules(rules)
        score = evaluate(text, r)
        counts = headsup_counts(r)
        row = hand_index(text)
        typer.echo(f"category: {category(score)}")
        typer.echo(f"score:    {score}")
        typer.echo(f"class:    {hand_class(text)}")
        typer.echo(f"reads:    {describe(text, r)}")
        typer.echo(f"beats {counts.win[row] / OPPONENT_HANDS:.2%} and ties "
                   f"{counts.tie[row] / OPPONENT_HANDS:.2%} of the hands an opponent can hold")

    @brag.command("equity")
    def equity_cmd(
        cards: str = typer.Argument(..., help='your three cards, e.g. "As Ks Qs"'),
        opponents: str = typer.Option("1", "--opponents", help="random opponents, 1-16 (exact for 1)"),
        rules: str = RulesOpt,
        trials: int = typer.Option(None, "--trials", help="Monte Carlo with this many deals"),
        stderr: float = typer.Option(None, "--stderr", help="Monte Carlo until the standard error <= this"),
        seed: int = typer.Option(0, "--seed", help="generator seed (same seed, same numbers)"),
        threads: ThreadsOpt = None,
        workers: WorkersOpt = None,
        scheduler: SchedulerOpt = None,
        fmt: str = typer.Option("table", "--format", help="table or json"),
    ) -> None:
        """Share of the pot of a hand against N random hands: exact heads-up, Monte Carlo beyond."""
        from analysis.studies.brag.equity import hand_equity

        fmt = _format(fmt)
        counts = int_list(opponents, "--opponents")
        if len(counts) != 1:
            raise LabError(f"--opponents: give one opponent count; got {opponents!r}")
        if seed < 0:
            raise LabError(f"--seed must be a non-negative whole number; got {seed}")
        with progress_bar(transient=True) as update:
            res = hand_equity(cards, counts[0], rules, seed=seed, stderr=stderr, trials=trials,
                              backend=backend(threads, workers, scheduler), progress=update)
        if fmt == "json":
            typer.echo(json.dumps(res.to_dict(), indent=2))
            return
        how = (f"exact: all {res.trials:,} opponent hands" if res.method == "exact"
               else f"Monte Carlo: {res.trials:,} deals, seed {res.seed}, standard error {res.stderr:.5f}")
        typer.echo(f"brag ({res.rules} rules): {res.reads} vs {res.opponents} random "
                   f"hand{'s' if res.opponents > 1 else ''}; {how}; {res.seconds:.3f} s")
        typer.echo(f"equity {res.equity:8.4%}   win {res.win:8.4%}   tie {res.tie:8.4%}")

    @brag.command("table")
    def table_cmd(
        opponents: str = typer.Option("1-16", "--opponents", help="opponent counts, e.g. 1-16 or 1,2,5"),
        rules: str = RulesOpt,
        out: Path = typer.Option(Path("results/brag"), "--out", help="output folder", callback=out_folder),
        seed: int = typer.Option(0, "--seed"),
        stderr: float = typer.Option(0.002, "--stderr", help="standard-error target of Monte Carlo cells"),
        trials: int = typer.Option(None, "--trials", help="a fixed number of deals per class instead"),
        threads: ThreadsOpt = None,
        workers: WorkersOpt = None,
        scheduler: SchedulerOpt = None,
        charts: bool = typer.Option(True, "--charts/--no-charts"),
        progress: ProgressOpt = True,
    ) -> None:
        """Category odds, every class heads-up (exact) and against 2-16 hands (Monte Carlo),
        percentiles, the weakest hand ahead of N opponents: CSV + Parquet + manifest + charts."""
        from ..guide.writers import write_brag_study

        started = time.perf_counter()
        counts = int_list(opponents, "--opponents")
        with progress_bar(progress) as update:
            res = write_brag_study(out, counts, rules, seed=seed, stderr=stderr, trials=trials,
                                   charts=charts, backend=backend(threads, workers, scheduler),
                                   progress=update)
        for name, df in res.frames.items():
            typer.echo(f"{name}: {len(df):,} rows -> {out / name}.csv / .parquet")
        th = res.frames["brag_thresholds"]
        half = th[th["p"] == 0.5]
        typer.echo("weakest hand ahead with probability 1/2: " + ", ".join(
            f"{int(r.opponents)} opp {r.hand}" for r in half.itertuples() if r.hand))
        typer.echo(f"done in {time.perf_counter() - started:.1f} s")

    @brag.command("blind")
    def blind_cmd(
        opponents: str = typer.Option("1-7", "--opponents", help="opponent counts, e.g. 1-7"),
        stakes: str = typer.Option("0.5,1,2,4", "--stakes", help="stake sizes in antes"),
        thresholds: str = typer.Option("0.5,0.75,0.9", "--thresholds",
                                       help="share of hands an opponent's hand must beat to stay, "
                                            "per betting round"),
        strategies: str = typer.Option("open,blind_1,blind", "--strategies",
                                       help="hero strategies: open first, then blind_K or blind"),
        open_sees_blind: bool = typer.Option(True, "--open-sees-blind/--open-cannot-see-blind",
                                             help="RULES §4: either of the last two may see; or the "
                                                  "common rule that an open player cannot see a blind one"),
        rules: str = RulesOpt,
        out: Path = typer.Option(Path("results/brag-blind"), "--out", help="output folder", callback=out_folder),
        seed: int = typer.Option(0, "--seed"),
        stderr: float = typer.Option(0.01, "--stderr", help="standard-error target (antes)"),
        trials: int = typer.Option(None, "--trials", help="a fixed number of deals per cell instead"),
        threads: ThreadsOpt = None,
        workers: WorkersOpt = None,
        scheduler: SchedulerOpt = None,
        charts: bool = typer.Option(True, "--charts/--no-charts"),
        progress: ProgressOpt = True,
    ) -> None:
        """Is staying blind worth it? Expected money (antes) of blind and open play against
        opponents who look and play a threshold, by opponents and stake."""
        from analysis.studies.brag.blind import BlindSpec

        from ..guide.writers import write_brag_blind_study

        spec = BlindSpec(opponents=int_list(opponents, "--opponents"),
                         stakes=float_list(stakes, "--stakes"),
                         thresholds=float_list(thresholds, "--thresholds"),
                         strategies=word_list(strategies, "--strategies"),
                         open_sees_blind=open_sees_blind, rules=rules, seed=seed, stderr=stderr,
                         trials=trials)
        with progress_bar(progress) as update:
            _, summary, manifest = write_brag_blind_study(
                out, {"custom": spec}, charts=charts, backend=backend(threads, workers, scheduler),
                progress=update)
        typer.echo(f"opponents continue with at least: {', '.join(manifest['threshold_hands']['custom'])}")
        typer.echo(f"{'opp':>4}{'stake':>7}  {'best':<9}{'EV':>9}  {'blind-open':>11}{'±2SE':>8}  verdict")
        for r in summary.itertuples():
            typer.echo(f"{r.opponents:>4}{r.stake:>7g}  {r.best:<9}{r.best_ev:>9.3f}  "
                       f"{r.blind_minus_open:>11.3f}{2 * r.diff_stderr:>8.3f}  {r.verdict or '-'}")
        typer.echo(f"tables and charts in {out}/")
