"""``dilemma economy``: the exact board economics of a deck (bonus, penalty, effects)."""

from __future__ import annotations

import time
from pathlib import Path

import typer

from ._common import DeckOpt, out_folder


def register(app: typer.Typer) -> None:
    @app.command("economy")
    def economy_cmd(
        deck: DeckOpt = "reference",
        out: Path = typer.Option(None, "--out", callback=out_folder,
                                 help="folder for tables and charts (default: none, the summary "
                                      "is printed and no file is written)"),
        losers: int = typer.Option(
            3, "--losers", min=1, max=9, help="net transfers for 1..N losers"
        ),
        charts: bool = typer.Option(True, "--charts/--no-charts", help="draw the charts"),
    ) -> None:
        """Exact distribution over all flop, turn and river boards of bonus, penalty and effects."""
        from analysis.dilemma.economy import board_economy

        from ..guide.writers import write_economy_study

        start = time.perf_counter()
        if out is None:
            result = board_economy(deck, max_losers=losers)
        else:
            result, _ = write_economy_study(out, deck, max_losers=losers, charts=charts)
        elapsed = time.perf_counter() - start
        summary = result.to_frame()
        typer.echo(
            f"deck {result.deck.label}: exact over "
            + ", ".join(f"{r.street} {r.arrangements:,}" for r in summary.itertuples())
            + f" boards (with streets) in {elapsed:.2f} s"
        )
        for r in summary.itertuples():
            typer.echo(
                f"{r.street:<6} bonus {r.mean_bonus:6.2f} (sd {r.sd_bonus:5.2f})  "
                f"penalty {r.mean_penalty:6.2f} (sd {r.sd_penalty:5.2f})  "
                f"blue {r.p_blue_active:6.2%}  red {r.p_red_active:6.2%}  "
                f"net heads-up: winner {r.mean_net_winner_heads_up:+.2f}, loser {r.mean_net_loser_heads_up:+.2f}"
            )
        typer.echo(f"tables and charts in {out}/" if out is not None else
                   "no file written (--out FOLDER writes the tables and charts)")
