"""``dilemma deck``: show or check a deck (shipped or typed in by a user with the cards)."""

from __future__ import annotations

import typer

from analysis.dilemma.decks import load_deck

from ._common import DeckOpt


def corner_grid(d) -> str:  # d: Deck
    """Every card's corner values, one line per rank: ``As +20/-10``."""
    spec = d.spec
    lines = ["corner values (+bonus/-penalty), one line per rank:"]
    for rank in range(spec.n_ranks - 1, -1, -1):
        cells = []
        for suit in range(spec.n_suits):
            c = spec.card_id(rank, suit)
            cells.append(f"{d.card_name(c):<4}+{int(d.plus[c]):<3}/-{int(d.minus[c]):<3}")
        lines.append(("  " + "  ".join(cells)).rstrip())
    return "\n".join(lines)


def register(app: typer.Typer) -> None:
    @app.command("deck")
    def deck_cmd(
        deck: DeckOpt = "reference",
        toml: bool = typer.Option(
            False, "--toml", help="print a template for your own deck (TOML, named 'mine', "
                                  "every card's line to edit)"
        ),
    ) -> None:
        """Validate a deck and list its corner values and effect cards (or print it as TOML)."""
        d = load_deck(deck)
        if toml:
            typer.echo(d.to_toml(template=True), nl=False)
            return
        typer.echo(f"deck {d.name} ({d.game}, {d.n_cards} cards), fingerprint {d.fingerprint}")
        typer.echo(f"source: {d.source}")
        if d.description:
            typer.echo(d.description)
        if d.assumed:
            typer.echo("ASSUMED values: not the printed cards (RULES 1.1, 1.7)")
        n_effects = len(d.effect_cards())
        typer.echo(
            f"corners: plus total {int(d.plus.sum())}, minus total {int(d.minus.sum())}; "
            f"{n_effects} effect card{'' if n_effects == 1 else 's'}"
        )
        typer.echo(corner_grid(d))
        if n_effects:
            typer.echo("effect cards:")
        for c in d.effect_cards():
            typer.echo(
                f"  {d.card_name(c):<4} {d.colour_name(c):<6} +{int(d.plus[c]):<3} -{int(d.minus[c]):<3} {d.effect_text(c)}"
            )
