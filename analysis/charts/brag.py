"""Charts of the Three Card Brag studies, drawn from their DataFrames only."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from . import new_figure, save_figure

SHOWN_HANDS = ("333", "AAA", "AKQs", "AKQ", "432", "AKJs", "AAK", "772", "22A", "AKJ", "KQ9", "QJ8")
"""Classes drawn in the equity-against-opponents chart: one or two of each category."""


def plot_categories(categories: pd.DataFrame, out_dir: str | Path,
                    manifest: dict[str, Any]) -> dict[str, Path]:
    """Exact probability of each category (log scale), with the number of hands."""
    fig, ax = new_figure(8, 4.5)
    df = categories.iloc[::-1]
    bars = ax.barh(df["category"].str.replace("_", " "), df["probability"], color="#4c72b0")
    for bar, hands, p in zip(bars, df["hands"], df["probability"], strict=True):
        ax.text(bar.get_width() * 1.1, bar.get_y() + bar.get_height() / 2,
                f"{hands:,} hands ({p:.2%}, 1 in {1 / p:,.1f})", va="center", fontsize=8)
    ax.set_xscale("log")
    ax.set_xlim(1e-3, 5)
    ax.set_xlabel("probability of a three-card hand (log scale)")
    ax.set_title(f"Three Card Brag: how often each category is dealt (all 22,100 hands, rules "
                 f"{manifest.get('rules', '?')})")
    ax.grid(alpha=0.3, axis="x")
    return save_figure(fig, out_dir, "brag_categories", manifest)


def plot_equity_vs_opponents(multiway: pd.DataFrame, out_dir: str | Path,
                             manifest: dict[str, Any]) -> dict[str, Path]:
    """Pot share of representative classes against 1-16 random hands, with standard errors."""
    fig, ax = new_figure(9, 5.5)
    hands = [h for h in SHOWN_HANDS if h in set(multiway["hand"])]
    colours = matplotlib_colours(len(hands))
    for hand, colour in zip(hands, colours, strict=True):
        part = multiway[multiway["hand"] == hand].sort_values("opponents")
        ax.errorbar(part["opponents"], part["equity"], yerr=2 * part["stderr"], marker="o",
                    markersize=3, linewidth=1.2, capsize=2, color=colour,
                    label=f"{hand} ({part['category'].iloc[0].replace('_', ' ')})")
    ax.set_xlabel("random opponents")
    ax.set_ylabel("share of the pot at showdown (±2 SE)")
    ax.set_ylim(-0.02, 1.02)
    ax.set_title("Three Card Brag: pot share against more and more random hands")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7, ncol=2)
    return save_figure(fig, out_dir, "brag_equity_vs_opponents", manifest)


def plot_thresholds(thresholds: pd.DataFrame, classes: pd.DataFrame, out_dir: str | Path,
                    manifest: dict[str, Any]) -> dict[str, Path]:
    """The weakest class ahead of N opponents with probability p, as its percentile."""
    fig, ax = new_figure(8.5, 5)
    pct = classes.set_index("rank")["percentile"]
    for p, part in thresholds.dropna(subset=["rank"]).groupby("p"):
        part = part.sort_values("opponents")
        y = pct.reindex(part["rank"].astype(int)).to_numpy()
        ax.plot(part["opponents"], y, marker="o", markersize=3, label=f"ahead with p >= {p:.0%}")
        for x, yy, hand in zip(part["opponents"], y, part["hand"], strict=True):
            if x in (1, 4, 8, 16) or x == part["opponents"].max():
                ax.annotate(hand, (x, yy), textcoords="offset points", xytext=(3, 3), fontsize=7)
    ax.set_xlabel("random opponents")
    ax.set_ylabel("percentile of the weakest such hand (% of all hands at or below it)")
    ax.set_title("Three Card Brag: the weakest hand that beats N opponents with probability p")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    return save_figure(fig, out_dir, "brag_thresholds", manifest)


def plot_blind(frame: pd.DataFrame, out_dir: str | Path, manifest: dict[str, Any],
               field: str | None = None) -> dict[str, Path]:
    """Blind minus open (expected money in antes, ±2 SE) by opponents, one line per stake."""
    fig, ax = new_figure(8.5, 5)
    sub = frame[frame["strategy"] == "blind"]
    if field is not None and "field" in sub.columns:
        sub = sub[sub["field"] == field]
    for stake, part in sub.groupby("stake"):
        part = part.sort_values("opponents")
        ax.errorbar(part["opponents"], part["diff_vs_open"], yerr=2 * part["diff_stderr"],
                    marker="o", markersize=3, capsize=2, label=f"stake {stake:g} antes")
    ax.axhline(0, color="0.3", linewidth=0.8)
    ax.set_xlabel("opponents (who look and play a threshold)")
    ax.set_ylabel("blind minus open: expected money (antes, ±2 SE)")
    where = f", {field} field" if field else ""
    ax.set_title(f"Three Card Brag: the value of staying blind{where} (above 0: blind is better)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    name = "brag_blind" + (f"_{field}" if field else "")
    return save_figure(fig, out_dir, name, manifest)


def matplotlib_colours(n: int) -> list[Any]:
    """``n`` distinct colours from a qualitative map."""
    import matplotlib.pyplot as plt

    cmap = plt.get_cmap("tab20")
    return [cmap(i % 20) for i in np.arange(n)]


def brag_charts(frames: dict[str, pd.DataFrame], out_dir: str | Path,
                manifest: dict[str, Any]) -> list[Path]:
    """Every chart of the hand tables."""
    written = [plot_categories(frames["brag_categories"], out_dir, manifest)["png"]]
    if frames["brag_multiway"]["opponents"].nunique() > 1:
        written.append(plot_equity_vs_opponents(frames["brag_multiway"], out_dir, manifest)["png"])
    written.append(plot_thresholds(frames["brag_thresholds"], frames["brag_classes"], out_dir,
                                   manifest)["png"])
    return written
