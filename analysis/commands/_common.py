"""Option types shared by the CLI command modules."""

from __future__ import annotations

from typing import Annotated

import typer

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
