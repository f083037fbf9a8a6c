"""The ``dilemma`` command line. Commands live in ``analysis/commands/``; each module
there has ``register(app)``. The CLI only parses options, calls the API, writes files."""

from __future__ import annotations

import sys

import typer

from analysis.runners.interrupt import Interrupted
from evaluator.errors import LabError

from .commands import register_all

app = typer.Typer(
    name="dilemma",
    help="Strategy lab for Dilemma Hold'em, with Texas Hold'em as the baseline.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
register_all(app)


def main() -> None:
    """Entry point: bad input is one line on stderr and exit code 2, never a traceback."""
    try:
        app()
    except LabError as exc:
        typer.echo(f"error: {exc}", err=True)
        sys.exit(2)
    except Interrupted as exc:
        typer.echo(f"interrupted: {exc}", err=True)
        sys.exit(130)
    except KeyboardInterrupt:
        typer.echo("interrupted: finished work was kept", err=True)
        sys.exit(130)


if __name__ == "__main__":
    main()
