"""Charts of the "At equilibrium" study, drawn from its DataFrames only."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.ticker import FuncFormatter, MaxNLocator, NullFormatter

from . import new_figure, save_figure

STREET_ORDER = ("flop", "turn", "river")
STREET_COLOURS = {"flop": "#4c72b0", "turn": "#dd8452", "river": "#55a868"}


def _panel(ax: Any, sub: pd.DataFrame, title: str) -> None:
    """Fold-for-free frequency by bucket, one line per street (reach-weighted over positions)."""
    for street in STREET_ORDER:
        part = sub[sub["street"] == street]
        if part.empty:
            continue
        g = part.groupby("bucket").apply(
            lambda x: float((x["fold_free"] * x["reach"]).sum() / x["reach"].sum())
            if x["reach"].sum() > 0 else float(x["fold_free"].mean()), include_groups=False)
        ax.plot(g.index, 100 * g.to_numpy(), marker="o", markersize=3, color=STREET_COLOURS[street],
                label=street)
    ax.set_title(title, fontsize=10)
    ax.set_xlabel("strength bucket (0 = weakest)")
    ax.set_ylabel("folds when nobody has bet (%)")
    ax.set_ylim(-3, 103)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)


def plot_free_fold_by_bucket(free: pd.DataFrame, out_dir: str | Path,
                             manifest: dict[str, Any]) -> dict[str, Path]:
    """One panel per variant with the fold-for-free action: frequency by bucket and street."""
    shown = free[free["free_fold_allowed"]]
    labels = list(dict.fromkeys(shown["label"]))
    cols = min(2, len(labels))
    rows = -(-len(labels) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(5.2 * cols, 3.6 * rows), layout="constrained",
                             squeeze=False)
    for ax, label in zip(axes.ravel(), labels, strict=False):
        _panel(ax, shown[shown["label"] == label], label)
    for ax in axes.ravel()[len(labels):]:
        ax.set_visible(False)
    fig.suptitle("At equilibrium: how often a player folds for free, by hand strength and street")
    return save_figure(fig, out_dir, "equilibrium_free_fold_by_bucket", manifest)


def plot_free_fold_by_position(free: pd.DataFrame, out_dir: str | Path,
                               manifest: dict[str, Any]) -> dict[str, Path]:
    """Reach-weighted fold-for-free frequency per street, position and players still in."""
    shown = free[free["free_fold_allowed"] & (free["deck"] != "bare")]
    fig, ax = new_figure(9, 4.8)
    keys = ["game_players", "players", "position"]
    groups = list(shown.groupby(keys))
    width = 0.8 / max(len(groups), 1)
    x = np.arange(len(STREET_ORDER))
    for k, ((gp, live, pos), sub) in enumerate(groups):
        vals = []
        for street in STREET_ORDER:
            part = sub[sub["street"] == street]
            r = part["reach"].sum()
            vals.append(100 * float((part["fold_free"] * part["reach"]).sum() / r) if r > 0 else np.nan)
        ax.bar(x + (k - (len(groups) - 1) / 2) * width, vals, width,
               label=f"{gp}-handed game, {live} in, position {pos}")
    ax.set_xticks(x, STREET_ORDER)
    ax.set_ylabel("folds when nobody has bet (% of such decisions)")
    ax.set_title("Folding for free by position and players still in (reach-weighted)")
    ax.legend(fontsize=7, ncol=2)
    ax.grid(alpha=0.3, axis="y")
    return save_figure(fig, out_dir, "equilibrium_free_fold_by_position", manifest)


def plot_convergence(history: pd.DataFrame, out_dir: str | Path,
                     manifest: dict[str, Any]) -> dict[str, Path]:
    """Heads-up NashConv (% of the pot) and three-handed average-strategy change, by iteration."""
    fig, (a, b) = plt.subplots(1, 2, figsize=(10, 4.2), layout="constrained")
    for label, sub in history.groupby("label", sort=False):
        if (sub["game_players"] == 2).all():
            a.plot(sub["iteration"], 100 * sub["nash_conv_pot"], marker=".", label=label)
        else:
            s = sub.dropna(subset=["avg_change_per_1000"])
            b.plot(s["iteration"], s["avg_change_per_1000"], marker=".", label=label)
    a.set_yscale("log")
    a.axhline(0.5, color="0.4", linestyle="--", linewidth=1, label="0.5% of the pot")
    a.set_title("Heads-up: NashConv (exact)")
    a.set_xlabel("DCFR iterations")
    a.set_ylabel("NashConv (% of the starting pot)")
    b.set_yscale("log")
    b.set_title("Three-handed: average-strategy change")
    b.set_xlabel("MCCFR iterations (thousands)")
    b.set_ylabel("mean |change| per 1,000 iterations")
    b.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x / 1000:g}"))
    for ax in (a, b):  # plain numbers: "$" is never math in this lab, so no mathtext labels
        ax.yaxis.set_major_formatter(FuncFormatter(lambda y, _: f"{y:g}"))
        ax.yaxis.set_minor_formatter(NullFormatter())
        ax.grid(alpha=0.3)
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=8)
    return save_figure(fig, out_dir, "equilibrium_convergence", manifest)


def plot_option_value(option: pd.DataFrame, out_dir: str | Path,
                      manifest: dict[str, Any]) -> dict[str, Path]:
    """Each seat's game value with and without the fold-for-free action."""
    fig, ax = new_figure(8, 4.5)
    labels = [f"{r.game_players}p {r.deck}: {r.position}" for r in option.itertuples()]
    y = np.arange(len(option))
    ax.barh(y - 0.2, option["value_with"], 0.4, label="fold for free allowed")
    ax.barh(y + 0.2, option["value_without"], 0.4, label="not allowed (Texas Hold'em actions)")
    ax.set_yticks(y, labels, fontsize=8)
    ax.set_xlabel("expected chips per hand, net of what the seat put in ($)")
    ax.set_title("The value of the fold-for-free option at equilibrium")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3, axis="x")
    return save_figure(fig, out_dir, "equilibrium_option_value", manifest)


def equilibrium_charts(frames: dict[str, pd.DataFrame], out_dir: str | Path,
                       manifest: dict[str, Any]) -> list[Path]:
    """Every chart of the study; returns the PNG paths."""
    written = [plot_free_fold_by_bucket(frames["equilibrium_free_fold"], out_dir, manifest),
               plot_free_fold_by_position(frames["equilibrium_free_fold"], out_dir, manifest),
               plot_convergence(frames["equilibrium_history"], out_dir, manifest)]
    if len(frames["equilibrium_option_value"]):
        written.append(plot_option_value(frames["equilibrium_option_value"], out_dir, manifest))
    return [w["png"] for w in written]
