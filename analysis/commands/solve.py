"""``dilemma solve``: run a solver on a known game, a JSON game description, or the abstracted
Dilemma Hold'em hand (``dilemma solve dilemma --players 2 --street flop --buckets 10 ...``).

The command parses options, calls :func:`analysis.solvers.solve` or
:func:`analysis.solvers.dilemma.solve_dilemma` and writes files; bad input raises a
:class:`~analysis.solvers.errors.SolverError`, which the ``dilemma`` entry point
prints as one ``error:`` line (exit code 2).
"""

from __future__ import annotations

import json
from pathlib import Path

import typer

from analysis.runners import progress_bar
from analysis.solvers.errors import SolverError

from ._common import BankOpt, DeckOpt, LevelOpt, RuleOpt, out_folder, table_state

KNOWN_GAMES = ("kuhn", "kuhn3", "leduc", "leduc-iso", "dilemma")
_DILEMMA_ONLY = ("players", "street", "buckets", "sizes", "raise_cap", "deck", "deals",
                 "deals_per_board", "free_fold", "preflop_in", "rule", "bank", "level")


def load_game(name: str):  # -> GameTree (import kept lazy)
    """A known game by name (kuhn, kuhn3, leduc, leduc-iso) or a nested-JSON game file."""
    from analysis.solvers.games import kuhn, leduc
    from analysis.solvers.tree import tree_from_dict

    key = name.strip().lower()
    if key == "kuhn":
        return kuhn(2)
    if key == "kuhn3":
        return kuhn(3)
    if key == "leduc":
        return leduc()
    if key == "leduc-iso":
        return leduc(suit_isomorphic=True)
    path = Path(name)
    if not path.is_file():
        raise SolverError(f"unknown game '{name}': use {', '.join(KNOWN_GAMES)} or a JSON file")
    try:
        spec = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise SolverError(f"cannot read game file {path}: {exc}") from None
    return tree_from_dict(spec)


def solve_dilemma_cmd(options: dict, method: str, iterations: int, target: float | None,
                      check_every: int | None, seed: int, state: Path | None, out: Path | None,
                      alternating: bool, echo=typer.echo) -> None:
    """The ``dilemma`` game of ``dilemma solve``: build, solve, print, write."""
    from analysis.solvers.dilemma import DilemmaSpec, build_game, solve_dilemma, write_answers
    from analysis.solvers.dilemma.answers import free_fold_summary, free_fold_table, reach_of
    from analysis.solvers.dilemma.solver import check_run

    options = dict(options)
    rule, bank, level = options.pop("rule", None), options.pop("bank", None), options.pop("level", None)
    if rule:
        from analysis.dilemma.settlement.rules import parse_pairs

        options["rules"] = tuple(parse_pairs(rule).items())
    if bank is not None or level is not None:
        from analysis.dilemma.settlement import Rules

        options["bank"], lvl = table_state(bank or "300,700,500", level)
        options["big_blind"] = Rules.parse(rule or None).blinds[lvl][1]
    spec = DilemmaSpec(**{k: v for k, v in options.items() if v is not None}, seed=seed)
    check_run(spec, method, target)  # bad options fail before the deals are drawn
    echo(spec.describe())
    with progress_bar() as bar:
        game = build_game(spec, state_dir=out, progress=bar)
        c = game.tree.counts()
        echo(f"tree: {c['public_nodes']:,} public nodes, {c['infosets']:,} information sets, "
             f"{c['infoset_actions']:,} infoset-actions; {game.deals.n_deals:,} deals")
        label = f"{method} iterations"

        def check(i: int, n: int, nash_conv: float, change: float) -> None:
            bar(i, n, label)
            if spec.players == 2:
                echo(f"  {i:>9,} / {n:,}  NashConv {nash_conv:.4g} chips "
                     f"({100 * nash_conv / spec.pot:.3g}% of the ${spec.pot} pot)", err=True)
            else:
                echo(f"  {i:>9,} / {n:,}  average strategy change per 1,000 iterations "
                     f"{change:.3g}", err=True)

        r = solve_dilemma(game, method, iterations, target=target, check_every=check_every,
                          seed=seed, state=state, check=check, alternating=alternating)
    speed = r.iterations / r.seconds if r.seconds > 0 else float("nan")
    echo(f"{r.settings.method} x {r.iterations:,} iterations in {r.seconds:.1f} s ({speed:,.1f} it/s)")
    reach = reach_of(r)
    echo("values (chips, net of what each put in): "
         + ", ".join(f"P{p} {v:+.3f}" for p, v in enumerate(reach.values)))
    if spec.players == 2:
        echo(f"NashConv {r.nash_conv:.4g} chips ({100 * r.nash_conv_pot:.3g}% of the pot); "
             "not zero-sum (the bank pays and takes), so NashConv is the exploitability measure")
    else:
        last = r.history["avg_change_per_1000"].dropna()
        echo("three-handed: no exact best response; average strategy change per 1,000 "
             f"iterations {last.iloc[-1] if len(last) else float('nan'):.3g}")
    summary = free_fold_summary(free_fold_table(r, reach))
    echo("fold when nobody has bet (reach-weighted): "
         + ", ".join(f"{row.street} {100 * row.fold_free:.2f}%" for row in summary.itertuples()))
    if out is not None:
        write_answers(r, out, f"dilemma_{spec.players}p_{spec.street}")
        echo(f"tables in {out}/")


def register(app: typer.Typer) -> None:
    """Add the ``solve`` command to a typer app."""

    @app.command("solve")
    def solve_cmd(
        game: str = typer.Argument(..., help="dilemma, kuhn, kuhn3, leduc, leduc-iso, or a JSON game file"),
        method: str = typer.Option("cfr+", "--method", "-m", help="cfr, cfr+, dcfr or mccfr"),
        iterations: int = typer.Option(1000, "--iterations", "-n", min=1, help="total iterations"),
        target: float = typer.Option(None, "--target", help="stop at this exploitability (dilemma: NashConv in chips)"),
        check_every: int = typer.Option(None, "--check-every", help="iterations between checks"),
        seed: int = typer.Option(0, "--seed", help="seed of MCCFR and of the dilemma deal sample"),
        state: Path = typer.Option(None, "--state", help=".npz file to resume from and save to"),
        out: Path = typer.Option(None, "--out", help="folder for the strategy and history tables", callback=out_folder),
        alternating: bool = typer.Option(True, "--alternating/--simultaneous"),
        progress: bool = typer.Option(False, "--progress", help="print every check on stderr"),
        players: int = typer.Option(None, "--players", help="dilemma: 2 or 3"),
        street: str = typer.Option(None, "--street", help="dilemma: first street (flop, turn, river)"),
        buckets: int = typer.Option(None, "--buckets", help="dilemma: strength buckets per street"),
        sizes: str = typer.Option(None, "--sizes", help="dilemma: bet sizes, pot fractions and allin, e.g. 0.5,1,allin"),
        raise_cap: int = typer.Option(None, "--raise-cap", help="dilemma: bets + raises per round"),
        deck: DeckOpt = None,
        deals: int = typer.Option(None, "--deals", help="dilemma: sampled deals standing for chance"),
        deals_per_board: int = typer.Option(None, "--deals-per-board", help="dilemma: holdings per board"),
        free_fold: bool = typer.Option(None, "--free-fold/--no-free-fold", help="dilemma: allow folding when nobody has bet"),
        preflop_in: int = typer.Option(None, "--preflop-in", help="dilemma: chips each player put in before the first street"),
        rule: RuleOpt = [],  # noqa: B006 - typer reads the default, never mutates it
        bank: BankOpt = None,
        level: LevelOpt = None,
    ) -> None:
        """Solve a game; print its value, exploitability and NashConv; optionally write tables."""
        from analysis.solvers.solver import solve

        dilemma_options = {"players": players, "street": street, "buckets": buckets, "sizes": sizes,
                           "raise_cap": raise_cap, "deck": deck, "deals": deals,
                           "deals_per_board": deals_per_board, "free_fold": free_fold,
                           "preflop_in": preflop_in, "rule": rule or None, "bank": bank,
                           "level": level}
        if game.strip().lower() == "dilemma":
            solve_dilemma_cmd(dilemma_options, method, iterations, target, check_every, seed, state,
                              out, alternating)
            return
        given = [k for k in _DILEMMA_ONLY if dilemma_options[k] is not None]
        if given:
            raise SolverError(f"--{given[0].replace('_', '-')} is an option of the dilemma game, "
                              f"not of '{game}'")
        tree = load_game(game)

        def show(i: int, n: int, e: float) -> None:
            typer.echo(f"  {i:>10,} / {n:,}  exploitability {e:.6g}", err=True)

        r = solve(tree, method, iterations, target_exploitability=target, check_every=check_every,
                  seed=seed, state=state, alternating=alternating, progress=show if progress else None)
        c = tree.counts()
        speed = r.iterations / r.seconds if r.seconds > 0 else float("nan")
        typer.echo(f"{tree.name}: {c['nodes']:,} nodes, {c['infosets']:,} infosets; "
                   f"{r.settings.method} x {r.iterations:,} iterations in {r.seconds:.2f} s "
                   f"({speed:,.0f} it/s)")
        typer.echo("game value: " + ", ".join(f"player {p} {v:+.6f}" for p, v in enumerate(r.game_value)))
        typer.echo(f"exploitability (NashConv / players) {r.exploitability:.6g}; "
                   f"NashConv {r.nash_conv:.6g}")
        if out is not None:
            r.write(out, f"{tree.name}_{r.settings.method}")
            typer.echo(f"tables in {out}/")
