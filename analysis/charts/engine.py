"""Charts of whole-game simulations and tournaments, drawn from their DataFrames only."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from . import new_figure, plt, save_figure


def plot_sample_game(sample: pd.DataFrame, out_dir: str | Path, manifest: dict[str, Any]) -> dict[str, Path]:
    """Chips of every seat and the bank after each hand of one game."""
    fig, ax = new_figure(9, 5)
    seats = [c for c in sample.columns if c.startswith("P")]
    strategies = manifest.get("strategies") or []
    for k, c in enumerate(seats):
        label = f"{c} ({strategies[k]})" if k < len(strategies) else c
        ax.plot(sample["hand"], sample[c], linewidth=1.3, label=label)
    if "bank1" in sample:
        bank = sample["bank1"] + sample["bank2"] + sample["bank3"]
        ax.plot(sample["hand"], bank, color="black", linestyle="--", linewidth=1.5, label="bank (all tiers)")
    ax.set_title("One game, hand by hand: chips of each seat and the bank")
    ax.set_xlabel("hand")
    ax.set_ylabel("chips ($)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, ncol=2)
    return save_figure(fig, out_dir, "game_sample_trajectory", manifest)


def plot_game_length(games: pd.DataFrame, out_dir: str | Path, manifest: dict[str, Any]) -> dict[str, Path]:
    """Distribution of the number of hands per game, with the end reasons."""
    fig, ax = new_figure()
    top = int(games["hands"].max())
    bins = np.linspace(0, max(top, 1) + 1, min(40, max(top, 1) + 1))
    for reason, g in games.groupby("reason"):
        ax.hist(g["hands"], bins=bins, alpha=0.6, label=f"ended: {reason} ({len(g)} games)")
    ax.axvline(games["hands"].mean(), color="black", linestyle=":",
               label=f"mean {games['hands'].mean():.0f} hands")
    ax.set_title("How long a game lasts")
    ax.set_xlabel("hands played")
    ax.set_ylabel("games")
    ax.grid(alpha=0.3)
    ax.legend()
    return save_figure(fig, out_dir, "game_length", manifest)


def plot_strategy_results(summary: pd.DataFrame, out_dir: str | Path, manifest: dict[str, Any],
                          name: str = "game_win_rate") -> dict[str, Path]:
    """Win rate (share of games won) and mean final chips by strategy (and seat), 95% intervals."""
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(11, 5), layout="constrained")
    rate = "win_rate" if "win_rate" in summary else "win_share"
    chips = [c for c in summary.columns if c.startswith("mean_") and not c.endswith("_se")][0]
    labels = [f"{r.strategy} (seat {r.seat})" if "seat" in summary else r.strategy
              for r in summary.itertuples()]
    y = np.arange(len(summary))
    a1.barh(y, summary[rate], xerr=1.96 * summary[f"{rate}_se"].fillna(0), color="#4c72b0", capsize=3)
    a1.set_yticks(y, labels, fontsize=8)
    a1.set_xlabel("share of games won (95% interval)")
    a1.axvline(1 / max(manifest.get("players", len(summary)) or 1, 1), color="grey", linestyle=":")
    a2.barh(y, summary[chips], xerr=1.96 * summary[f"{chips}_se"].fillna(0), color="#55a868", capsize=3)
    a2.set_yticks(y, [])
    a2.set_xlabel(chips.replace("mean_", "mean ").replace("_", " ") + " at the end ($, 95% interval)")
    for a in (a1, a2):
        a.grid(alpha=0.3, axis="x")
    fig.suptitle("Which way of playing wins whole games")
    return save_figure(fig, out_dir, name, manifest)


def game_charts(result: Any, out_dir: str | Path) -> list[Path]:
    """Every chart of a simulation or tournament result (``analysis.engine.games.GameResult``)."""
    manifest = {**result.manifest, "players": len(result.manifest.get("strategies", []))}
    paths = [plot_sample_game(result.sample, out_dir, manifest)["png"],
             plot_game_length(result.games, out_dir, manifest)["png"],
             plot_strategy_results(result.summary, out_dir, manifest)["png"]]
    return paths
