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


def register(app: typer.Typer) -> None:
    @app.command("eval")
    def eval_cmd(
        cards: list[str] = typer.Argument(..., help="5 to 7 cards, e.g. As 10h 9c 8d 7s"),
        game: GameOpt = "dilemma",
    ) -> None:
        """Evaluate one hand: category, score (higher is better) and the best five cards."""
        spec = ev.get_game(game)
        text = " ".join(cards)
        score = ev.evaluate(text, spec)
        typer.echo(f"category:  {ev.category(score)}")
        typer.echo(f"score:     {score}")
        typer.echo(f"best five: {ev.format_cards(ev.best_five(text, spec), spec)}")
        typer.echo(f"reads:     {ev.describe(text, spec)}")

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
