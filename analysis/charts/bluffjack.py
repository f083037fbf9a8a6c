"""Charts of the Bluffjack studies, drawn from their DataFrames only."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from . import new_figure, save_figure

OUTCOME_COLOURS = {"17": "#c6dbef", "18": "#9ecae1", "19": "#6baed6", "20": "#3182bd", "21": "#08519c",
                   "charlie": "#756bb1", "bust": "#de2d26"}


def _start_order(starts: pd.Series) -> list[str]:
    return sorted(starts.unique(), key=lambda s: (s.startswith("soft"), int(s.split()[1])))


def plot_final_totals(table: pd.DataFrame, out_dir: str | Path, manifest: dict[str, Any],
                      stand_on: int = 17) -> dict[str, Path]:
    """Exact final outcome of a stand-on-N player from every two-card start (stacked bars)."""
    sub = table[table["stand_on"] == stand_on]
    wide = sub.pivot_table(index="start", columns="outcome", values="probability", fill_value=0.0)
    wide = wide.reindex(_start_order(sub["start"]))
    fig, ax = new_figure(10, 5)
    bottom = np.zeros(len(wide))
    cols = [c for c in wide.columns if c not in OUTCOME_COLOURS] + \
        [c for c in OUTCOME_COLOURS if c in wide.columns]
    for col in cols:
        colour = OUTCOME_COLOURS.get(col, "#d9d9d9")
        label = f"final {col}" if col.isdigit() else col
        if col.isdigit() and int(col) < stand_on:
            label = None
        ax.bar(wide.index, wide[col], bottom=bottom, color=colour, label=label, width=0.8)
        bottom += wide[col].to_numpy()
    ax.set_ylabel("probability (exact)")
    ax.set_xlabel("two-card start")
    ax.tick_params(axis="x", rotation=70, labelsize=7)
    ax.set_title(f"Bluffjack: where a player who stands on {stand_on} ends, from each start")
    ax.legend(fontsize=7, ncol=4, loc="upper left")
    ax.set_ylim(0, 1.15)
    return save_figure(fig, out_dir, f"bluffjack_final_totals_{stand_on}", manifest)


def plot_bust_next(table: pd.DataFrame, out_dir: str | Path, manifest: dict[str, Any]) -> dict[str, Path]:
    """Exact chance that one more card busts, by hard total (two-card starts)."""
    sub = table[(table["stand_on"] == table["stand_on"].min()) & ~table["soft"]]
    sub = sub.drop_duplicates("start").sort_values("total")
    fig, ax = new_figure(8, 4.5)
    ax.plot(sub["total"], sub["p_bust_next"], marker="o")
    for t, p in zip(sub["total"], sub["p_bust_next"], strict=True):
        if t >= 12:
            ax.annotate(f"{p:.0%}", (t, p), textcoords="offset points", xytext=(-8, 6), fontsize=7)
    ax.set_xlabel("hard total of the two cards")
    ax.set_ylabel("chance the next card busts (exact)")
    ax.set_title("Bluffjack: the chance of busting on the next card (soft hands never bust)")
    ax.grid(alpha=0.3)
    return save_figure(fig, out_dir, "bluffjack_bust_next", manifest)


def plot_stand_on_curves(table: pd.DataFrame, out_dir: str | Path, manifest: dict[str, Any],
                         rules: str = "source") -> dict[str, Path]:
    """Pot share of "stand on N" by N, one line per opponent count (first seat, base rules)."""
    sub = table[(table["rules"] == rules) & (table["position"] == 0)]
    fig, ax = new_figure(8.5, 5)
    for n, part in sub.groupby("opponents"):
        part = part.sort_values("stand_on")
        line = ax.errorbar(part["stand_on"], part["equity"], yerr=2 * part["stderr"], marker="o",
                           markersize=3, capsize=2, label=f"{n} opponent{'s' if n > 1 else ''}")
        top = part.loc[part["equity"].idxmax()]
        ax.plot([top["stand_on"]], [top["equity"]], marker="*", markersize=11,
                color=line[0].get_color())
    ax.set_xlabel("the hero stands on N (hits below)")
    ax.set_ylabel("share of the pot (±2 SE)")
    ax.set_title(f"Bluffjack: stand on N against opponents who stand on "
                 f"{int(sub['opp_threshold'].iloc[0])} (star: best N)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7, ncol=3)
    return save_figure(fig, out_dir, "bluffjack_stand_on", manifest)


def plot_best_response_gain(best: pd.DataFrame, out_dir: str | Path,
                            manifest: dict[str, Any]) -> dict[str, Path]:
    """Gain of the best response over the best "stand on N", by opponents and seat (points)."""
    sub = best.dropna(subset=["gain"])
    grid = sub.pivot_table(index="opponents", columns="position", values="gain") * 100
    fig, ax = new_figure(8.5, 5)
    im = ax.imshow(grid.to_numpy(), origin="lower", cmap="Greens", aspect="auto",
                   vmin=min(0.0, float(np.nanmin(grid.to_numpy()))))
    top = float(np.nanmax(grid.to_numpy())) if np.isfinite(grid.to_numpy()).any() else 0.0
    for (i, j), v in np.ndenumerate(grid.to_numpy()):
        if np.isfinite(v):
            ax.text(j, i, f"{v:.1f}", ha="center", va="center", fontsize=7,
                    color="white" if top > 0 and v > 0.6 * top else "black")
    ax.set_xticks(range(grid.shape[1]), [str(c) for c in grid.columns])
    ax.set_yticks(range(grid.shape[0]), [str(r) for r in grid.index])
    ax.set_xlabel("hero's seat (0 = dealer's left, acts first; the dealer acts last)")
    ax.set_ylabel("opponents")
    ax.set_title("Bluffjack: what watching the table is worth (percentage points of the pot)")
    fig.colorbar(im, ax=ax, label="best response minus best stand-on-N (pp)")
    return save_figure(fig, out_dir, "bluffjack_best_response_gain", manifest)


def plot_rule_effects(effects: pd.DataFrame, out_dir: str | Path,
                      manifest: dict[str, Any]) -> dict[str, Path]:
    """Change of the pot share from the base rules at their best stand-on-N (paired on the same
    deals), per rule option."""
    base = effects["rules"].iloc[0]
    sub = effects[effects["rules"] != base]
    fig, ax = new_figure(8.5, 5)
    for rules, part in sub.groupby("rules", sort=False):
        part = part.sort_values("opponents")
        ax.errorbar(part["opponents"], 100 * part["change_at_base_stand_on"],
                    yerr=200 * part["change_at_base_stand_on_stderr"], marker="o", markersize=3,
                    capsize=2, label=rules)
    ax.axhline(0, color="0.3", linewidth=0.8)
    ax.set_xlabel("opponents")
    ax.set_ylabel("change of the pot share (percentage points, ±2 SE, paired)")
    ax.set_title(f"Bluffjack: what each rule option is worth to a stand-on-N player (vs {base})")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    return save_figure(fig, out_dir, "bluffjack_rule_effects", manifest)


def odds_charts(table: pd.DataFrame, out_dir: str | Path, manifest: dict[str, Any]) -> list[Path]:
    """The exact odds charts."""
    written = [plot_bust_next(table, out_dir, manifest)["png"]]
    if 17 in set(table["stand_on"]):
        written.append(plot_final_totals(table, out_dir, manifest, 17)["png"])
    return written


def hit_stand_charts(frames: dict[str, pd.DataFrame], out_dir: str | Path,
                     manifest: dict[str, Any]) -> list[Path]:
    """The hit-or-stand charts."""
    written = [plot_stand_on_curves(frames["bluffjack_stand_on"], out_dir, manifest)["png"]]
    best = frames["bluffjack_best"]
    if "gain" in best.columns and best["gain"].notna().any():
        written.append(plot_best_response_gain(best, out_dir, manifest)["png"])
    effects = frames.get("bluffjack_rule_effects")
    if effects is not None and effects["rules"].nunique() > 1:
        written.append(plot_rule_effects(effects, out_dir, manifest)["png"])
    return written


def plot_equilibrium_hit(hit: pd.DataFrame, out_dir: str | Path, manifest: dict[str, Any]) -> dict[str, Path]:
    """Equilibrium hit frequency by own total, with the betting and without (every hand shows down)."""
    fig, ax = new_figure(8, 4.5)
    for seat, style in (("A", "-"), ("B", "--")):
        sub = hit[hit["seat"] == seat].sort_values("total")
        ax.plot(sub["total"], sub["hit_betting"], style, marker="o", color="#3182bd",
                label=f"seat {seat}, with the betting")
        if "hit_no_betting" in sub:
            ax.plot(sub["total"], sub["hit_no_betting"], style, marker="s", color="#de2d26",
                    label=f"seat {seat}, no betting (every hand shows down)")
    ax.set_xlabel("own total, face-down card included (first hit decision)")
    ax.set_ylabel("chance to hit at equilibrium")
    ax.set_title("Bluffjack heads-up: when to hit, with and without the betting")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
    return save_figure(fig, out_dir, "bluffjack_eq_hit", manifest)


def plot_equilibrium_hidden(hidden: pd.DataFrame, out_dir: str | Path, manifest: dict[str, Any]) -> dict[str, Path]:
    """Expected result by the face-down card, each seat, with and without the betting."""
    fig, ax = new_figure(8, 4.5)
    x = np.arange(len(hidden))
    cols = [c for c in ("seat_A", "seat_B", "seat_A_no_betting", "seat_B_no_betting") if c in hidden]
    width = 0.8 / len(cols)
    for k, col in enumerate(cols):
        ax.bar(x + (k - (len(cols) - 1) / 2) * width, hidden[col], width, label=col.replace("_", " "))
    ax.set_xticks(x, hidden["hidden"])
    ax.axhline(0, color="black", lw=0.6)
    ax.set_xlabel("face-down card")
    ax.set_ylabel("chips a hand at equilibrium (ante 1, bets 2)")
    ax.set_title("Bluffjack heads-up: what the face-down card is worth")
    ax.legend(fontsize=7)
    return save_figure(fig, out_dir, "bluffjack_eq_hidden", manifest)


def equilibrium_charts(frames: dict[str, pd.DataFrame], out_dir: str | Path, manifest: dict[str, Any]) -> list[Path]:
    """The equilibrium charts (PNG paths)."""
    return [plot_equilibrium_hit(frames["bluffjack_eq_hit"], out_dir, manifest)["png"],
            plot_equilibrium_hidden(frames["bluffjack_eq_hidden"], out_dir, manifest)["png"]]
