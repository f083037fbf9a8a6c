"""Charts of the pre-flop study: the heads-up and three-handed charts as 10 x 10 grids of action shares."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from . import plt, save_figure

RANKS = ("A", "10", "9", "8", "7", "6", "5", "4", "3", "2")
PANELS = (("fold", "fold", "Reds"), ("call", "call or check", "Blues"), ("raise", "raise or all-in", "Greens"))


def class_grid(shares: pd.Series) -> np.ndarray:
    """A 10 x 10 array of a per-class value: pairs on the diagonal, suited above it, offsuit below."""
    out = np.full((10, 10), np.nan)
    for i, hi in enumerate(RANKS):
        for j, lo in enumerate(RANKS):
            name = hi + lo if i == j else (f"{hi}{lo}s" if j > i else f"{lo}{hi}o")
            out[i, j] = shares.get(name, np.nan)
    return out


def chart_figure(kinds: pd.DataFrame, title: str) -> Any:
    """Three grids side by side: the share of fold, of call or check, of raise or all-in per class."""
    fig, axes = plt.subplots(1, 3, figsize=(13, 4.6), layout="constrained")
    merged = {"fold": kinds.get("fold", 0.0),
              "call": kinds.get("call", 0.0) + kinds.get("check", 0.0),
              "raise": kinds.get("raise", 0.0) + kinds.get("allin", 0.0)}
    for ax, (key, label, cmap) in zip(axes, PANELS, strict=True):
        grid = class_grid(pd.Series(merged[key]) if not isinstance(merged[key], pd.Series) else merged[key])
        im = ax.imshow(100 * grid, cmap=cmap, vmin=0, vmax=100)
        ax.set_xticks(range(10), RANKS)
        ax.set_yticks(range(10), RANKS)
        ax.set_title(f"{label} (% of the class)")
        ax.set_xlabel("second card (suited above the diagonal, offsuit below)")
        for i in range(10):
            for j in range(10):
                if np.isfinite(grid[i, j]):
                    ax.text(j, i, f"{100 * grid[i, j]:.0f}", ha="center", va="center", fontsize=6.5,
                            color="white" if grid[i, j] > 0.6 else "black")
        fig.colorbar(im, ax=ax, shrink=0.8)
    axes[0].set_ylabel("first card")
    fig.suptitle(title)
    return fig


def preflop_charts(kinds_by_node: dict[str, pd.DataFrame], out: str | Path, manifest: dict[str, Any]) -> list[Path]:
    """One chart per decision named in ``kinds_by_node`` (file stem -> per-class action shares)."""
    titles = {"preflop_chart_small_blind": "Heads-up pre-flop chart: the small blind's first action (start state, "
                                           "plain suits)",
              "preflop_chart_vs_open": "Heads-up pre-flop chart: the big blind facing an open (start state, plain suits)",
              "consistent_chart_small_blind": "Heads-up pre-flop chart with each line's flops solved with the chart's "
                                              "ranges: the small blind's first action (start state, plain suits)",
              "consistent_chart_vs_open": "Heads-up pre-flop chart with each line's flops solved with the chart's "
                                          "ranges: the big blind facing an open (start state, plain suits)",
              "preflop3_chart_button": "Three-handed pre-flop chart: the button first in (start state, per class)",
              "preflop3_chart_sb_first": "Three-handed pre-flop chart: the small blind when the button folds (start "
                                         "state, per class)",
              "preflop3_chart_sb_vs_open": "Three-handed pre-flop chart: the small blind facing the button's open to 60 "
                                           "(start state, per class)",
              "preflop3_chart_bb_vs_open": "Three-handed pre-flop chart: the big blind facing the button's open, the "
                                           "small blind folded (start state, per class)",
              "preflop_chart_played_small_blind": "Heads-up pre-flop chart with postflop play from solved flops: the "
                                                  "small blind's first action (start state, plain suits)",
              "preflop_chart_played_vs_open": "Heads-up pre-flop chart with postflop play from solved flops: the big "
                                              "blind facing an open (start state, plain suits)",
              "preflop3_chart_played_button": "Three-handed pre-flop chart with postflop play where two see the flop: "
                                              "the button first in (start state, per class)",
              "preflop3_chart_played_sb_vs_open": "Three-handed pre-flop chart with postflop play where two see the "
                                                  "flop: the small blind facing the button's open (start state, per "
                                                  "class)"}
    paths = []
    for stem, kinds in kinds_by_node.items():
        paths.append(save_figure(chart_figure(kinds, titles.get(stem, stem)), out, stem, manifest)["png"])
    return paths
