"""Charts of the fold-vs-check study, drawn from the result tables only."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.colors import TwoSlopeNorm

from evaluator import get_game

from . import save_figure

STREET_ORDER = ("flop", "turn", "river")


def class_matrix(df: pd.DataFrame, game: str, value: str) -> tuple[np.ndarray, list[str]]:
    """A ranks × ranks matrix of ``value`` per starting class: pairs on the diagonal,
    suited above it, offsuit below; strongest rank first."""
    spec = get_game(game)
    ranks = list(reversed(spec.ranks))
    pos = {r: i for i, r in enumerate(ranks)}
    mat = np.full((len(ranks), len(ranks)), np.nan)
    for hand, kind, v in zip(df["hand"], df["kind"], df[value], strict=True):
        body = hand[:-1] if kind in ("suited", "offsuit") else hand
        hi = next(r for r in sorted(ranks, key=len, reverse=True) if body.startswith(r))
        lo = body[len(hi):]
        i, j = pos[hi], pos[lo]
        if kind == "offsuit":
            i, j = j, i
        mat[i, j] = v
    return mat, ranks


def first_to_act(frame: pd.DataFrame) -> pd.DataFrame:
    """The rows of the hero first to act (all rows of a table written before positions)."""
    return frame[frame["position"] == "first"] if "position" in frame.columns else frame


def gap_heatmaps(cells: pd.DataFrame, out: str | Path, manifest: dict[str, Any], game: str) -> list[Path]:
    """One figure per model and pot: the 10×10 classes coloured by EV(check) − EV(fold),
    a panel per street (rows) and opponent count (columns); the hero first to act."""
    paths: list[Path] = []
    cells = first_to_act(cells)
    for (model, pot), sub in cells.groupby(["model", "pot"]):
        streets = [s for s in STREET_ORDER if s in set(sub["street"])]
        opps = sorted(sub["opponents"].unique())
        lim = max(1.0, float(np.nanpercentile(np.abs(sub["gap"]), 98)))
        norm = TwoSlopeNorm(vmin=-lim, vcenter=0.0, vmax=lim)
        fig, axes = plt.subplots(len(streets), len(opps), figsize=(2.3 * len(opps) + 1.2, 2.3 * len(streets) + 0.9),
                                 squeeze=False, layout="constrained")
        image = None
        for r, street in enumerate(streets):
            for c, opp in enumerate(opps):
                ax = axes[r, c]
                part = sub[(sub["street"] == street) & (sub["opponents"] == opp)]
                mat, ranks = class_matrix(part, game, "gap")
                image = ax.imshow(mat, cmap="RdBu", norm=norm)
                ax.set_xticks(range(len(ranks)), ranks, fontsize=6)
                ax.set_yticks(range(len(ranks)), ranks, fontsize=6)
                if r == 0:
                    ax.set_title(f"{opp} opponent{'s' if opp > 1 else ''}", fontsize=9)
                if c == 0:
                    ax.set_ylabel(f"{street}\nhigh card", fontsize=9)
        fig.suptitle(f"Check minus fold, $ per hand ({model} opponents, pot ${pot}); "
                     "blue: check, red: fold (suited above the diagonal)", fontsize=10)
        fig.colorbar(image, ax=axes, shrink=0.6, label="EV(check) − EV(fold), $")
        paths.extend(save_figure(fig, out, f"fold_vs_check_heatmap_{model}_pot{pot}", manifest).values())
    return paths


def break_even_chart(be: pd.DataFrame, out: str | Path, manifest: dict[str, Any]) -> list[Path]:
    """Break-even hand strength vs opponents: check when your strength is above the line (solid:
    the hero first to act; dashed: last, after the others checked)."""
    paths: list[Path] = []
    if "position" not in be.columns:
        be = be.assign(position="first")
    for model, sub in be.groupby("model"):
        pots = sorted(sub["pot"].unique())
        fig, axes = plt.subplots(1, len(pots), figsize=(3.6 * len(pots), 3.8), sharey=True,
                                 squeeze=False, layout="constrained")
        for ax, pot in zip(axes[0], pots, strict=True):
            for k, street in enumerate(STREET_ORDER):
                for place, style in (("first", "-"), ("last", "--")):
                    line = sub[(sub["pot"] == pot) & (sub["street"] == street)
                               & (sub["position"] == place)].sort_values("opponents")
                    if len(line):
                        ax.plot(line["opponents"], line["break_even_strength"], marker="o",
                                ls=style, color=f"C{k}",
                                label=street if place == "first" else f"{street}, acting last")
            ax.set_title(f"pot ${pot}", fontsize=10)
            ax.set_xlabel("opponents still in")
            ax.set_ylim(-0.02, 1.02)
            ax.grid(alpha=0.3)
        axes[0, 0].set_ylabel("break-even strength (share of holdings beaten)")
        axes[0, -1].legend(title="decision street", fontsize=8)
        fig.suptitle(f"Check when your hand beats more holdings than the line ({model} opponents; "
                     "dashed: acting last)",
                     fontsize=10)
        paths.extend(save_figure(fig, out, f"fold_vs_check_break_even_{model}", manifest).values())
    return paths


def penalty_chart(penalty: pd.DataFrame, out: str | Path, manifest: dict[str, Any]) -> list[Path]:
    """EV gap vs the board penalty relative to the pot, per street (random hands)."""
    paths: list[Path] = []
    penalty = first_to_act(penalty)
    for model, sub in penalty.groupby("model"):
        opps = sorted(sub["opponents"].unique())
        fig, axes = plt.subplots(1, len(opps), figsize=(3.0 * len(opps), 3.6), sharey=True,
                                 squeeze=False, layout="constrained")
        for ax, opp in zip(axes[0], opps, strict=True):
            part = sub[(sub["opponents"] == opp) & (sub["trials"] >= 200)]
            for street in STREET_ORDER:
                line = part[part["street"] == street].sort_values("penalty_over_pot")
                if len(line):
                    ax.plot(line["penalty_over_pot"], line["gap"], ".", ms=4, label=street)
            ax.axhline(0, color="0.4", lw=0.8)
            ax.set_title(f"{opp} opponent{'s' if opp > 1 else ''}", fontsize=10)
            ax.set_xlabel("board penalty at the decision / pot")
            ax.set_xscale("symlog", linthresh=0.1)
            ax.grid(alpha=0.3)
        axes[0, 0].set_ylabel("EV(check) − EV(fold), $ (random hand)")
        axes[0, -1].legend(title="decision street", fontsize=8)
        fig.suptitle(f"Penalty vs fold: the gap as the board penalty grows against the pot ({model})",
                     fontsize=10)
        paths.extend(save_figure(fig, out, f"fold_vs_check_penalty_{model}", manifest).values())
    return paths


def study_charts(result: Any, out: str | Path) -> list[Path]:
    """Every chart of a :class:`~analysis.fold_vs_check.GridResult`."""
    manifest = result.manifest
    game = manifest["game"]
    return (gap_heatmaps(result.cells, out, manifest, game)
            + break_even_chart(result.break_even, out, manifest)
            + penalty_chart(result.penalty_view, out, manifest))
