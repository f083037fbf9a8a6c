"""Charts of the board economics study, drawn from its DataFrames only."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from . import new_figure, save_figure

STREET_ORDER = ("flop", "turn", "river")
STREET_COLOURS = {"flop": "#4c72b0", "turn": "#dd8452", "river": "#55a868"}


def _deck_name(manifest: dict[str, Any]) -> str:
    return str(manifest.get("deck", "?")).split("@")[0]


def plot_distribution(
    dist: pd.DataFrame,
    quantity: str,
    out_dir: str | Path,
    manifest: dict[str, Any],
    losers: int = 0,
) -> dict[str, Path]:
    """Exact distribution of one quantity (``bonus``, ``penalty``, ...) by street, as step lines."""
    fig, ax = new_figure()
    sel = dist[(dist["quantity"] == quantity) & (dist["losers"] == losers)]
    for street in STREET_ORDER:
        part = sel[sel["street"] == street].sort_values("value")
        if part.empty:
            continue
        mean = float((part["value"] * part["probability"]).sum())
        ax.plot(
            part["value"],
            part["probability"],
            marker="o",
            markersize=3,
            linewidth=1.2,
            color=STREET_COLOURS[street],
            label=f"{street} (mean ${mean:.1f})",
        )
    label = quantity.replace("_", " ")
    who = f", {losers} loser{'s' if losers > 1 else ''}" if losers else ""
    ax.set_title(f"The {label} over all boards, by street{who} (deck {_deck_name(manifest)})")
    ax.set_xlabel(f"{label} ($)")
    ax.set_ylabel("probability over boards")
    ax.grid(alpha=0.3)
    ax.legend()
    return save_figure(
        fig, out_dir, f"economy_{quantity}" + (f"_{losers}" if losers else ""), manifest
    )


def plot_net_transfers(
    transfers: pd.DataFrame, out_dir: str | Path, manifest: dict[str, Any]
) -> dict[str, Path]:
    """Expected net transfer (pot excluded) to the winner and to each loser, by street and losers."""
    fig, ax = new_figure()
    losers = sorted(transfers["losers"].unique())
    x = np.arange(len(STREET_ORDER))
    width = 0.8 / (2 * len(losers))
    for k, m in enumerate(losers):
        part = transfers[transfers["losers"] == m].set_index("street").reindex(list(STREET_ORDER))
        shade = 0.35 + 0.65 * (k + 1) / len(losers)
        ax.bar(
            x - 0.4 + width * (2 * k + 0.5),
            part["mean_net_winner"],
            width,
            color=(0.2, 0.5 * shade, 0.2),
            label=f"winner, {m} loser{'s' if m > 1 else ''}",
        )
        ax.bar(
            x - 0.4 + width * (2 * k + 1.5),
            part["mean_net_loser"],
            width,
            color=(0.8 * shade, 0.2, 0.2),
            label=f"each loser, {m} loser{'s' if m > 1 else ''}",
        )
    ax.axhline(0, color="0.3", linewidth=0.8)
    ax.set_xticks(x, list(STREET_ORDER))
    ax.set_xlabel("street the hand ended on")
    ax.set_ylabel("expected net transfer, pot excluded ($)")
    ax.set_title(f"Expected net transfer per player, pot excluded (deck {_deck_name(manifest)})")
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize=7, ncol=2)
    return save_figure(fig, out_dir, "economy_net_transfers", manifest)


def plot_effect_activity(
    effects: pd.DataFrame, summary: pd.DataFrame, out_dir: str | Path, manifest: dict[str, Any]
) -> dict[str, Path]:
    """Probability that each board effect card is active, and of any blue / red activity, by street."""
    fig, ax = new_figure(9.0, 5.0)
    board = effects[effects["colour"].isin(["blue", "red"])]
    labels = list(
        dict.fromkeys(f"{c} {e}" for c, e in zip(board["card"], board["effect"], strict=True))
    )
    labels += ["any blue", "any red"]
    x = np.arange(len(labels))
    width = 0.8 / len(STREET_ORDER)
    for k, street in enumerate(STREET_ORDER):
        part = board[board["street"] == street]
        values = list(part["p_active"])
        row = summary[summary["street"] == street]
        values += (
            [float(row["p_blue_active"].iloc[0]), float(row["p_red_active"].iloc[0])]
            if len(row)
            else [0, 0]
        )
        ax.bar(
            x - 0.4 + width * (k + 0.5), values, width, color=STREET_COLOURS[street], label=street
        )
    ax.set_xticks(x, labels, rotation=30, ha="right", fontsize=8)
    ax.set_ylabel("probability the effect is active")
    ax.set_xlabel("effect card (blue acts on the board; red only when dealt on the turn or river)")
    ax.set_title(f"Board effect activity by street (deck {_deck_name(manifest)})")
    ax.grid(axis="y", alpha=0.3)
    ax.legend(title="hand ends on")
    return save_figure(fig, out_dir, "economy_effect_activity", manifest)


def economy_charts(
    frames: dict[str, pd.DataFrame], out_dir: str | Path, manifest: dict[str, Any]
) -> list[Path]:
    """Every chart of the economy study; returns the files written."""
    written: list[Path] = []
    dist = frames["economy_distribution"]
    for quantity in ("bonus", "penalty"):
        written += plot_distribution(dist, quantity, out_dir, manifest).values()
    written += plot_net_transfers(frames["economy_transfers"], out_dir, manifest).values()
    if not frames["economy_effects"].empty:
        written += plot_effect_activity(
            frames["economy_effects"], frames["economy_summary"], out_dir, manifest
        ).values()
    return written
