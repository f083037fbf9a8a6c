"""Option types shared by the CLI command modules, and the runner options of long commands."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from analysis.runners import Backend

GameOpt = Annotated[
    str, typer.Option("--game", "-g", help="dilemma (40 cards) or holdem (52 cards)")
]

DeckOpt = Annotated[
    str,
    typer.Option(
        "--deck",
        help="deck: reference, plain, bare, holdem, or the path of a deck TOML file",
    ),
]

ThreadsOpt = Annotated[
    int | None,
    typer.Option("--threads", min=1, help="numba threads of a local run (results do not change)"),
]
WorkersOpt = Annotated[
    int | None,
    typer.Option("--workers", min=1,
                 help="run on a Dask LocalCluster of this many worker processes (same results)"),
]
SchedulerOpt = Annotated[
    str | None,
    typer.Option("--scheduler", help="run on the Dask cluster at this address, e.g. tcp://host:8786"),
]


def backend(threads: int | None, workers: int | None, scheduler: str | None) -> Backend:
    """The runner backend the options ask for (local unless --workers or --scheduler)."""
    from analysis.runners import make_backend

    return make_backend(threads=threads, workers=workers, scheduler=scheduler)
