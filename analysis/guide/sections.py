"""The text of each guide section, read from the study's own result tables.

One function per study, named after it: ``f(folder, index) -> list[Block]``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd


def _block(kind: str, text: str = "", frame: pd.DataFrame | None = None):
    from .page import Block

    return Block(kind, text, frame)


def _csv(folder: Path, name: str) -> pd.DataFrame | None:
    path = folder / f"{name}.csv"
    return pd.read_csv(path) if path.exists() else None


def economy(folder: Path, info: dict[str, Any]) -> list:
    """Mean bonus and penalty by street; how often effects act."""
    summary = _csv(folder, "economy_summary")
    if summary is None:
        return []
    s = summary.set_index("street")
    out = [_block("p", (
        "Every revealed board card pays its plus corner to the winner and charges its minus "
        "corner to the losers of the last betting round (RULES §1.4). Exact over every board: "
        + "; ".join(f"on the {st} the bonus averages ${r.mean_bonus:.1f} and the penalty ${r.mean_penalty:.1f}"
                    for st, r in s.iterrows())
        + ". So a player who stays in one street longer is exposed to a larger penalty; "
        f"a blue effect is active on {s['p_blue_active'].iloc[-1]:.0%} of river boards and a red "
        f"one on {s['p_red_active'].iloc[-1]:.0%}."))]
    cols = [c for c in ("street", "mean_bonus", "sd_bonus", "mean_penalty", "sd_penalty",
                        "p_blue_active", "p_red_active", "mean_net_winner_heads_up",
                        "mean_net_loser_heads_up") if c in summary.columns]
    out.append(_block("table", frame=summary[cols]))
    return out


def fold_vs_check(folder: Path, info: dict[str, Any]) -> list:
    """When folding for free is right: break-even strengths and the share of hands that should check."""
    be = _csv(folder, "fold_vs_check_break_even")
    cells = _csv(folder, "fold_vs_check")
    if be is None or cells is None:
        return []
    out = [_block("p", (
        "When nobody has bet, a Texas Hold'em player checks for free. In Dilemma Hold'em, staying "
        "in makes you a participant of the next betting round and exposes you to a larger board's "
        "penalty (and to red effects); folding escapes it only if the hand goes on without you — "
        "heads-up, folding ends the hand and you pay the current board's penalty anyway. Each "
        "cell below plays both choices on the same deals and settles them with the full rules. "
        "*Strength* is the share of two-card holdings your cards beat on the board so far."))]
    for model, sub in be.groupby("model", sort=False):
        heads_up = sub[sub["opponents"] == sub["opponents"].min()]
        multi = sub[sub["opponents"] == sub["opponents"].max()]
        fold_all = sub[sub["share_check"] < 0.5]
        text = (f"**{model} opponents.** With {int(heads_up['opponents'].iloc[0])} opponent, checking "
                f"is better for {heads_up['share_check'].mean():.0%} of hands on average; with "
                f"{int(multi['opponents'].iloc[0])} opponents for {multi['share_check'].mean():.0%}. ")
        if len(fold_all):
            worst = fold_all.sort_values("share_check").iloc[0]
            text += (f"Folding for free is right for most hands in {len(fold_all)} of {len(sub)} spots; "
                     f"the clearest is the {worst['street']} with {int(worst['opponents'])} opponents "
                     f"and a ${int(worst['pot'])} pot, where only {worst['share_check']:.0%} of hands "
                     f"should check (check with strength ≥ {worst['break_even_strength']:.2f}).")
        else:
            text += "Checking is better for most hands in every spot of the grid."
        out.append(_block("p", text))
        pivot = sub.pivot_table(index=["street", "pot"], columns="opponents",
                                values="break_even_strength").reset_index()
        pivot.columns = [str(c) if not isinstance(c, int | float) else f"{int(c)} opp"
                         for c in pivot.columns]
        out.append(_block("p", f"Break-even strength ({model}): check when your hand beats at "
                               "least this share of holdings; 0 means always check, 1 always fold."))
        out.append(_block("table", frame=pivot))
    return out
