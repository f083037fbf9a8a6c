"""``dilemma eval`` and ``dilemma categories``: the evaluator from the shell."""

from __future__ import annotations

import json
from enum import StrEnum

import typer

import evaluator as ev

from ._common import GameOpt


class CountFormat(StrEnum):
    table = "table"
    json = "json"
    csv = "csv"


STRENGTH_BUCKETS = 20
"""The buckets of the fold-vs-check best response (``study spot --buckets`` default)."""


def strength_text(text: str, spec: ev.GameSpec) -> str:
    """The first two cards' strength on the rest as the board: the number the strategy
    advice is keyed on."""
    from evaluator.strength import strength

    cards = ev.parse_cards(text, spec)
    hole, board = cards[:2], cards[2:]
    value = strength(hole, board, spec)
    bucket = min(int(value * STRENGTH_BUCKETS), STRENGTH_BUCKETS - 1)
    return (f"strength:  {value:.3f} for {ev.format_cards(hole, spec)} on the board "
            f"{ev.format_cards(board, spec)} (the first two cards as the hand): the share of the "
            f"holdings it cannot see that it beats, ties half; bucket {bucket} of "
            f"{STRENGTH_BUCKETS} (0 = 0.00-0.05)")


def register(app: typer.Typer) -> None:
    @app.command("eval")
    def eval_cmd(
        cards: list[str] = typer.Argument(..., help="5 to 7 cards, e.g. As 10h 9c 8d 7s"),
        game: GameOpt = "dilemma",
    ) -> None:
        """Evaluate one hand: category, score (higher is better), the best five cards, and the
        strength of the first two cards on the rest as the board."""
        spec = ev.get_game(game)
        text = " ".join(cards)
        score = ev.evaluate(text, spec)
        typer.echo(f"category:  {ev.category(score)}")
        typer.echo(f"score:     {score}")
        typer.echo(f"best five: {ev.format_cards(ev.best_five(text, spec), spec)}")
        typer.echo(f"reads:     {ev.describe(text, spec)}")
        typer.echo(strength_text(text, spec))

    @app.command("categories")
    def categories_cmd(
        game: GameOpt = "dilemma",
        cards: int = typer.Option(7, "--cards", min=5, max=7, help="hand size: 5, 6 or 7"),
        fmt: CountFormat = typer.Option(CountFormat.table, "--format"),
    ) -> None:
        """Exact number of hands of each category over all hands of a size (enumerated)."""
        spec = ev.get_game(game)
        counts = ev.category_counts(spec, cards)
        total = sum(counts.values())
        if fmt is CountFormat.json:
            typer.echo(json.dumps(counts))
        elif fmt is CountFormat.csv:
            typer.echo("category,hands,probability")
            for name in ev.CATEGORIES:
                typer.echo(f"{name},{counts[name]},{counts[name] / total:.10f}")
        else:
            typer.echo(f"{spec.summary}, all {total:,} {cards}-card hands")
            for name in reversed(ev.CATEGORIES):
                typer.echo(f"{name:<16}{counts[name]:>14,}  {counts[name] / total:10.6%}")
