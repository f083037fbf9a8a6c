"""``dilemma solve``: run a solver on a known game or a JSON game description, from the shell.

The command parses options, calls :func:`analysis.solvers.solve` and writes files;
bad input raises :class:`~analysis.solvers.errors.SolverError`, which the
``dilemma`` entry point prints as one ``error:`` line (exit code 2).
"""

from __future__ import annotations

import json
from pathlib import Path

import typer

from analysis.solvers.errors import SolverError

KNOWN_GAMES = ("kuhn", "kuhn3", "leduc", "leduc-iso")


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


def register(app: typer.Typer) -> None:
    """Add the ``solve`` command to a typer app."""

    @app.command("solve")
    def solve_cmd(
        game: str = typer.Argument(..., help="kuhn, kuhn3, leduc, leduc-iso, or a JSON game file"),
        method: str = typer.Option("cfr+", "--method", "-m", help="cfr, cfr+, dcfr or mccfr"),
        iterations: int = typer.Option(1000, "--iterations", "-n", help="total iterations"),
        target: float = typer.Option(None, "--target", help="stop at this exploitability"),
        check_every: int = typer.Option(None, "--check-every", help="iterations between checks"),
        seed: int = typer.Option(0, "--seed", help="MCCFR's generator seed"),
        state: Path = typer.Option(None, "--state", help=".npz file to resume from and save to"),
        out: Path = typer.Option(None, "--out", help="folder for the strategy and history tables"),
        alternating: bool = typer.Option(True, "--alternating/--simultaneous"),
        progress: bool = typer.Option(False, "--progress", help="print every check on stderr"),
    ) -> None:
        """Solve a game; print its value, exploitability and NashConv; optionally write tables."""
        from analysis.solvers.solver import solve

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
