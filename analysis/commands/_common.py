"""Option types shared by the CLI command modules, and the runner options of long commands."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import click
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

RuleOpt = Annotated[
    list[str],
    typer.Option("--rule", metavar="NAME=VALUE", help="settlement rule option NAME=VALUE, repeatable, e.g. "
                 "winners=any_pot or blinds=10/20,20/40,30/60 (default: the [choice]s of "
                 "RULES.md; docs/settlement.md)"),
]
BankOpt = Annotated[
    str | None,
    typer.Option("--bank", metavar="B1,B2,B3", help="the bank's three stacks, bank 1,2,3 (RULES §1.5)"),
]
LevelOpt = Annotated[
    int | None,
    typer.Option("--level", help="blind level 0, 1 or 2 (default: the lowest the bank allows: "
                 "1 once bank 1 is empty, 2 once bank 2 is)"),
]
DEFAULT_BANK_TEXT = "300,700,500"


def table_state(bank: str | None, level: int | None) -> tuple[tuple[int, int, int], int]:
    """``--bank`` and ``--level`` checked: the bank's stacks and the blind level."""
    from analysis.dilemma.settlement import SettlementError
    from analysis.dilemma.settlement.state import lowest_level, parse_bank

    stacks = parse_bank(bank or DEFAULT_BANK_TEXT)
    lowest = lowest_level(stacks)
    if level is None:
        return stacks, lowest
    if level not in (0, 1, 2):
        raise SettlementError(f"--level: 0, 1 or 2; got {level}")
    if level < lowest:
        raise SettlementError(f"blind level {level} cannot go with bank "
                              f"{'/'.join(map(str, stacks))}: blinds rose to level {lowest} when "
                              "the bank first emptied and never go down (RULES §1.5)")
    return stacks, level


ProgressOpt = Annotated[
    bool, typer.Option("--progress/--no-progress", help="progress bar (drawn on a terminal only)")
]


def backend(threads: int | None, workers: int | None, scheduler: str | None) -> Backend:
    """The runner backend the options ask for (local unless --workers or --scheduler), kept
    open until the command ends (a Dask cluster starts once for all of a command's runs)."""
    from analysis.runners import make_backend

    chosen = make_backend(threads=threads, workers=workers, scheduler=scheduler)
    ctx = click.get_current_context(silent=True)
    return ctx.with_resource(chosen) if ctx is not None else chosen


def _nearest_existing(path: Path) -> Path:
    path = path.absolute()
    while not path.exists() and path != path.parent:
        path = path.parent
    return path


def out_folder(value: Path | None) -> Path | None:
    """``--out FOLDER`` checked before any work: not an existing file, under a folder."""
    if value is None:
        return value
    if value.exists() and not value.is_dir():
        raise typer.BadParameter(f"{value} exists and is not a folder")
    base = _nearest_existing(value)
    if not base.is_dir():
        raise typer.BadParameter(f"cannot create {value}: {base} is a file, not a folder")
    try:  # created now, so a folder that cannot be made fails before any work
        value.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise typer.BadParameter(f"cannot create {value}: {exc.strerror or exc}") from None
    from analysis.core.atomic import remove_stale_temporaries

    remove_stale_temporaries(value)  # left by a run killed outright
    return value


def out_file(value: Path | None) -> Path | None:
    """``--out FILE`` checked before any work: not a folder, its folder can be created."""
    if value is None:
        return value
    if value.is_dir():
        raise typer.BadParameter(f"{value} is a folder; give a file name")
    out_folder(value.parent if str(value.parent) else Path("."))
    return value
