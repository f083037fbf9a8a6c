"""Equity charts, drawn from the starting-hand and street DataFrames only (no simulation here).

- :func:`heatmap` - the 10x10 (13x13) grid of one opponent count: pairs on the
  diagonal, suited hands above it, offsuit below, equity as colour and text.
- :func:`equity_vs_opponents` - equity of chosen hands against 1..9 opponents.
- :func:`compare_decks` - Dilemma vs Hold'em equity of analogous hands (same ranks).
- :func:`streets_chart` - category probabilities at flop, turn and river, both decks.
- :func:`write_starting_hand_charts` / :func:`write_street_charts` save them all.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from evaluator import CATEGORIES, get_game

from . import new_figure, save_figure

DEFAULT_HANDS: dict[str, tuple[str, ...]] = {
    "dilemma": ("AA", "1010", "77", "A10s", "A10o", "109s", "98s", "A2o", "32o"),
    "holdem": ("AA", "KK", "TT", "AKs", "AKo", "JTs", "98s", "A2o", "72o"),
}
"""Hands drawn by :func:`equity_vs_opponents` when none are named."""


def caption_manifest(manifest: dict[str, Any], df: pd.DataFrame, opponents: int | None = None) -> dict[str, Any]:
    """A compact manifest for one chart's caption: game, deck, exact or Monte Carlo, trials,
    seed and standard-error target of the rows drawn (``opponents`` limits them)."""
    sub = df if opponents is None else df[df["opponents"] == opponents]
    exact = bool(sub["exact"].all())
    out = {k: manifest.get(k) for k in ("game", "deck", "version", "preview")}
    out["exact"] = exact
    if opponents is not None:
        out["trials"] = int(sub["trials"].iloc[0])
    if not exact:
        out["method"] = "monte-carlo" if opponents is not None else "exact vs 1, monte-carlo vs 2+"
        out["seed"] = manifest.get("seed")
        out["stderr"] = manifest.get("stderr")  # the target every Monte Carlo cell meets
    return out


def _rank_order(df: pd.DataFrame) -> list[str]:
    """Rank labels of the table's deck, highest first."""
    spec = get_game(df["game"].iloc[0])
    return list(reversed(spec.ranks))


def heatmap(df: pd.DataFrame, opponents: int) -> Any:
    """A figure: equity of every starting class against ``opponents`` random hands, as a grid."""
    sub = df[df["opponents"] == opponents]
    if sub.empty:
        raise ValueError(f"the table has no rows for {opponents} opponents")
    game = sub["game"].iloc[0]
    ranks = _rank_order(sub)
    n = len(ranks)
    pos = {r: i for i, r in enumerate(ranks)}
    grid = np.full((n, n), np.nan)
    names = [["" for _ in range(n)] for _ in range(n)]
    for row in sub.itertuples():
        hi, lo = pos[row.high], pos[row.low]  # hi <= lo (higher rank first)
        i, j = (hi, lo) if row.kind in ("suited", "pair") else (lo, hi)
        grid[i, j] = row.equity
        names[i][j] = row.hand
    size = 0.62 * n + 2.2
    fig, ax = new_figure(size + 1.2, size)
    im = ax.imshow(grid, cmap="viridis", vmin=np.nanmin(grid), vmax=np.nanmax(grid))
    mid = (np.nanmin(grid) + np.nanmax(grid)) / 2
    for i in range(n):
        for j in range(n):
            colour = "black" if grid[i, j] > mid else "white"
            ax.text(j, i, f"{names[i][j]}\n{100 * grid[i, j]:.1f}", ha="center", va="center",
                    fontsize=6.5 if n > 10 else 7.5, color=colour)
    ax.set_xticks(range(n), ranks)
    ax.set_yticks(range(n), ranks)
    ax.set_xlabel("second card rank (above the diagonal: suited; below: offsuit)")
    ax.set_ylabel("first card rank")
    who = "1 random opponent" if opponents == 1 else f"{opponents} random opponents"
    exact = bool(sub["exact"].all())
    how = "exact" if exact else f"Monte Carlo, stderr ≤ {sub['stderr'].max():.4f}"
    ax.set_title(f"{_title(game)}: starting-hand equity vs {who} ({how})")
    cbar = fig.colorbar(im, ax=ax, shrink=0.8)
    cbar.set_label("equity (share of the pot, ties split)")
    return fig


def _title(game: str) -> str:
    return {"dilemma": "Dilemma Hold'em (40 cards)", "holdem": "Texas Hold'em (52 cards)"}.get(game, game)


def equity_vs_opponents(df: pd.DataFrame, hands: Sequence[str] | None = None) -> Any:
    """A figure: equity of each chosen hand against 1..9 random opponents, one line per hand."""
    game = df["game"].iloc[0]
    hands = list(hands or DEFAULT_HANDS.get(game, ()))
    missing = [h for h in hands if h not in set(df["hand"])]
    if missing:
        raise ValueError(f"hands not in the {game} table: {', '.join(missing)}")
    fig, ax = new_figure(8.5, 5.2)
    for hand in hands:
        g = df[df["hand"] == hand].sort_values("opponents")
        ax.errorbar(g["opponents"], g["equity"], yerr=2 * g["stderr"], marker="o", ms=3.5,
                    capsize=2, label=hand)
    ns = sorted(df["opponents"].unique())
    fair = [1 / (n + 1) for n in ns]
    ax.plot(ns, fair, color="black", ls=":", lw=1.2, label="fair share 1/(n+1)")
    ax.set_xticks(ns)
    ax.set_xlabel("number of random opponents")
    ax.set_ylabel("equity (share of the pot)")
    ax.set_title(f"{_title(game)}: equity against more opponents (error bars: ±2 stderr)")
    ax.grid(alpha=0.3)
    ax.legend(ncol=2, fontsize=8)
    return fig


def analogous_name(hand: str) -> str:
    """The Hold'em name of a Dilemma class (same ranks; the rank 10 is written T)."""
    return hand.replace("10", "T")


def compare_decks(dilemma: pd.DataFrame, holdem: pd.DataFrame, opponents: Sequence[int] | None = None) -> Any:
    """A figure: Dilemma vs Hold'em equity of analogous hands (same ranks), one panel per
    opponent count; points above the diagonal are stronger with 40 cards."""
    common = sorted(set(dilemma["opponents"]) & set(holdem["opponents"]))
    if not common:
        raise ValueError("the two tables have no opponent count in common")
    chosen = list(opponents) if opponents else sorted({common[0], common[len(common) // 2], common[-1]})
    fig, axes = _subplots(len(chosen), width=4.6, height=4.8)
    for ax, n in zip(axes, chosen, strict=True):
        d = dilemma[dilemma["opponents"] == n].copy()
        d["key"] = d["hand"].map(analogous_name)
        h = holdem[holdem["opponents"] == n].set_index("hand")
        d = d[d["key"].isin(h.index)]
        x = h.loc[d["key"], "equity"].to_numpy()
        y = d["equity"].to_numpy()
        colours = {"pair": "tab:red", "suited": "tab:blue", "offsuit": "tab:gray"}
        for kind, c in colours.items():
            m = (d["kind"] == kind).to_numpy()
            ax.scatter(x[m], y[m], s=14, color=c, alpha=0.8, label=kind)
        lo, hi = min(x.min(), y.min()), max(x.max(), y.max())
        ax.plot([lo, hi], [lo, hi], color="0.4", lw=1, ls="--")
        diff = y - x
        for idx in list(np.argsort(diff)[:3]) + list(np.argsort(diff)[-3:]):
            ax.annotate(d["hand"].iloc[idx], (x[idx], y[idx]), fontsize=7, xytext=(3, 3),
                        textcoords="offset points")
        ax.set_title(f"vs {n} opponent{'s' if n > 1 else ''}")
        ax.set_xlabel("Texas Hold'em equity (52 cards)")
        ax.set_ylabel("Dilemma Hold'em equity (40 cards)")
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize=8)
    fig.suptitle("The same starting hands with 40 and 52 cards (above the line: better with 40 cards)")
    return fig


def _subplots(n: int, width: float, height: float):
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, n, figsize=(width * n, height), layout="constrained", squeeze=False)
    return fig, list(axes[0])


def streets_chart(df: pd.DataFrame) -> Any:
    """A figure: probability of each made-hand category at flop, turn and river, both decks
    side by side (log scale)."""
    streets = list(dict.fromkeys(df["street"]))
    games = list(dict.fromkeys(df["game"]))
    fig, axes = _subplots(len(streets), width=5.0, height=4.6)
    xs = np.arange(len(CATEGORIES))
    width = 0.8 / len(games)
    for ax, street in zip(axes, streets, strict=True):
        for gi, game in enumerate(games):
            g = df[(df["street"] == street) & (df["game"] == game)].set_index("category").loc[list(CATEGORIES)]
            ax.bar(xs + (gi - (len(games) - 1) / 2) * width, g["probability"], width, label=_title(game))
        ax.set_yscale("log")
        ax.set_xticks(xs, [c.replace("_", " ") for c in CATEGORIES], rotation=60, ha="right", fontsize=8)
        cards = int(df[df["street"] == street]["cards"].iloc[0])
        ax.set_title(f"{street} (best of {cards} cards)")
        ax.set_ylabel("probability (log scale)")
        ax.grid(axis="y", alpha=0.3)
    axes[0].legend(fontsize=8)
    fig.suptitle("Made-hand categories by street: 40-card vs 52-card deck (exact)")
    return fig


def write_starting_hand_charts(
    df: pd.DataFrame, out_dir: str | Path, manifest: dict[str, Any],
    other: pd.DataFrame | None = None, hands: Sequence[str] | None = None,
) -> list[Path]:
    """Save every starting-hand chart of one table (and the deck comparison when ``other``,
    the other deck's table, is given). Returns the written paths."""
    game = df["game"].iloc[0]
    paths: list[Path] = []
    for n in sorted(df["opponents"].unique()):
        fig = heatmap(df, int(n))
        cap = caption_manifest(manifest, df, int(n))
        paths += save_figure(fig, out_dir, f"{game}_heatmap_{int(n)}opp", cap).values()
    if df["opponents"].nunique() > 1:
        fig = equity_vs_opponents(df, hands)
        cap = caption_manifest(manifest, df)
        paths += save_figure(fig, out_dir, f"{game}_equity_vs_opponents", cap).values()
    if other is not None:
        d, h = (df, other) if game == "dilemma" else (other, df)
        fig = compare_decks(d, h)
        cap = {**caption_manifest(manifest, df), "game": "dilemma+holdem", "deck": "40 and 52 cards"}
        paths += save_figure(fig, out_dir, "dilemma_vs_holdem", cap).values()
    return paths


def write_street_charts(df: pd.DataFrame, out_dir: str | Path, manifest: dict[str, Any]) -> list[Path]:
    """Save the street-probability chart."""
    return list(save_figure(streets_chart(df), out_dir, "street_probabilities", manifest).values())
