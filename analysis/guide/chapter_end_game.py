"""The guide's end-game chapter: game states, pot and stack, effect cards, from the end_game tables.

Every number is read from ``end_answers`` and ``end_spots`` (:mod:`analysis.studies.end_game`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .blocks import Block, ms, study_table


def trend(values: pd.Series, up: str, down: str, mixed: str = "changes without one direction") -> str:
    """``up`` if the values rise at every step, ``down`` if they fall at every step, else ``mixed``."""
    d = np.diff(np.asarray(values, dtype=float))
    return up if (d > 0).all() else down if (d < 0).all() else mixed


def never(share: float) -> str:
    """How the text says a free-fold share that is at most ``share`` of the range."""
    return "never the answer" if share < 0.01 else "rarely the answer" if share < 0.05 else "sometimes the answer"


def _columns(rows: pd.DataFrame) -> dict[str, list[str]]:
    """The answer columns every table of the chapter shows."""
    def col(name: str, scale: float = 1.0, digits: int = 1) -> list[str]:
        return [ms(v, e, scale, digits) for v, e in zip(rows[name], rows[f"{name}_se"], strict=True)]

    return {"boards": list(rows["boards"]),
            "bets %": col("root_bets", 100),
            "folds for free %": col("folds_for_free", 100),
            "regret of folding $": col("regret_fold"),
            "cost of folding $": col("fold_cost"),
            "2nd after a check: regret of folding $": col("ip_regret_fold"),
            "facing the first bet: pot odds %": col("call_pot_odds", 100),
            "calls %": col("call_calls", 100),
            "prefers calling to folding %": col("call_prefers_call", 100),
            "call threshold (equity %)": col("call_threshold", 100),
            "first player's value $": col("ev_oop")}


def end_game(folder: Path, info: dict[str, Any]) -> list[Block]:
    """How the blind level, a short bank, the pot, the stacks and the active effect card move the
    river's free-fold, check and call answers heads-up."""
    ans, spots = study_table(folder, "end_answers"), study_table(folder, "end_spots")
    if ans is None or spots is None or not len(ans):
        return []
    m = info.get("manifest", {})
    plan = m.get("plan", {})
    out = [Block("p", (
        f"Heads-up river spots solved card by card (the solved-spots chapter's method and bet tree: {m.get('family', '')}) "
        f"with the real settlement of the {m.get('deck', '')} deck, each to an exploitability of at most "
        f"{spots['exploitability_pct_pot'].max():.2f}% of the pot (the mean of the two players' exact best-response "
        f"gains; median {spots['iterations'].median():.0f} DCFR iterations). Boards are drawn uniformly (seed "
        f"{m.get('seed', 0)}): {plan.get('state_boards')} boards in each game state, "
        f"{plan.get('sweep_boards')} boards for each pot and stack, {plan.get('class_boards')} boards of each "
        "active-effect class. Every figure is a mean over the boards ± one standard error across them; "
        "'regret' is what an answer costs against the holding's best action, $ a hand, weighted by how likely "
        "each holding is at the decision; 'cost of folding' is the penalty a folder pays (minus the value of "
        "folding); the call threshold is the equity against the bettor's range at which calling starts to beat "
        "folding (one cut that best separates the holdings that prefer each).")),
        Block("p", (
            "**What a hand can see of the game state.** A one-hand spot sees the blind level through the pot "
            "(each player here is in one big blind: $40 at 10/20, $80 at 20/40, $120 at 30/60, taken from the "
            "same $1,000, so the stacks behind are relatively shorter) and the bank through its caps: every "
            "payment by the bank is capped at what it holds after the penalties went in, so a short bank 3 pays "
            "the bonus short. The game's end after the hand changes nothing else here: the solver values each "
            "player's chips after the settlement, and a game that ends ranks the players by chips; play aimed at "
            "finishing first rather than at chips is another objective, not modelled. "
            + " ".join(f"Not solved: `{k}`, because {v}." for k, v in m.get("dropped_states", {}).items())))]
    states = ans[ans["sample"] == "states"].reset_index(drop=True)
    if len(states):
        described = m.get("states", {})
        frame = pd.DataFrame({"state": states["state"], "pot $": states["pot"], "stack $": states["stack"],
                              **_columns(states)})
        out.append(Block("p", "**Game states.** The first player's river decision (bet, check or fold for free), "
                              "the second player's after a check, and the second player facing a pot-sized bet:"))
        out.append(Block("table", frame=frame))
        out.append(Block("note", "; ".join(f"`{k}`: {v}" for k, v in described.items()) + "."))
        out += _agreement_text(study_table(folder, "end_second_sample"), plan.get("second_sample_seed"))
        out += _state_text(states, study_table(folder, "end_state_changes"))
    sweep = ans[ans["sample"] == "sweep"].reset_index(drop=True)
    if len(sweep):
        chips = sweep["stack"] + sweep["pot"] // 2
        frame = pd.DataFrame({"pot $": sweep["pot"], "stack $": sweep["stack"],
                              "chips before the hand $": chips, **_columns(sweep)})
        out.append(Block("p", "**Pot and stack** (start state, the same boards in every row; each player in 1, 3 "
                              "or 6 big blinds before the river, from $1,000 or from a short $200):"))
        out.append(Block("table", frame=frame))
        out += _sweep_text(sweep)
    eff = ans[ans["sample"] == "effects"].reset_index(drop=True)
    if len(eff):
        frame = pd.DataFrame({"active effect": eff["effect"], **_columns(eff)})
        out.append(Block("p", (
            "**Effect cards** (start state, boards sampled per class: uniform boards kept until each class has "
            f"{plan.get('class_boards')}; the class is the active effect card that decides it, first of crash, slump, "
            "rebate, bubble, then any other active effect; a red card acts only as the turn or the river):")))
        out.append(Block("table", frame=frame))
        out += _effect_text(eff)
    return out


NAMES = {"regret_fold": "the regret of folding", "root_bets": "the betting share", "call_calls": "the calls",
         "call_threshold": "the call threshold", "ev_oop": "the first player's value"}
"""Readable names of the values compared between the two board samples."""


def _agreement_text(table: pd.DataFrame | None, seed: Any) -> list[Block]:
    """How well a second, independent board sample reproduces the game-state means."""
    if table is None or not len(table) or not np.isfinite(table["z"]).any():
        return []
    z = table["z"].abs().dropna()
    worst = table.loc[z.idxmax()]
    return [Block("p", (
        f"A second, independent sample of {int(table['boards_second'].iloc[0])} boards (seed {seed}) solved in the "
        f"same states reproduces these means: {int((z <= 2).sum())} of {len(z)} state means (regret of folding, "
        "betting share, calls, call threshold, first player's value) lie within two combined standard errors of "
        f"the first sample's; the largest gap is {z.max():.1f} standard errors ({NAMES.get(worst['value'], worst['value'])} in "
        f"`{worst['state']}`: {worst['mean']:.3g} against {worst['mean_second']:.3g}). The table `end_second_sample` "
        "holds every comparison."))]


def _change(r: pd.Series, col: str, scale: float = 1.0, unit: str = "$") -> str:
    sign = "+" if r[col] >= 0 else "-"
    v, e = abs(scale * r[col]), scale * r[f"{col}_se"]
    if unit == "$":
        return f"{sign}${v:.1f} ± {e:.1f}" if np.isfinite(e) else f"{sign}${v:.1f}"
    return f"{sign}{v:.1f} ± {e:.1f} points" if np.isfinite(e) else f"{sign}{v:.1f} points"


def _state_text(states: pd.DataFrame, changes: pd.DataFrame | None) -> list[Block]:
    most = float(states["folds_for_free"].max())
    out = [Block("p", (
        f"Folding for free on the river is {never(most)} heads-up, in any state (at most {100 * most:.1f}% of "
        "the range): a free folder is a loser of the last round and pays the penalty, and checking pays the same "
        "only when it loses. What the state moves is the price of that mistake, the betting and the calls.")),
    ]
    if changes is None or not len(changes):
        return out
    frame = pd.DataFrame({
        "state": changes["state"], "against": changes["base"], "boards": changes["boards"],
        "boards whose solution differs": changes["boards_differ"],
        "first player's value": [_change(r, "ev_oop") for _, r in changes.iterrows()],
        "regret of a free fold": [_change(r, "regret_fold") for _, r in changes.iterrows()],
        "bets": [_change(r, "root_bets", 100, "pt") for _, r in changes.iterrows()],
        "calls": [_change(r, "call_calls", 100, "pt") for _, r in changes.iterrows()],
        "call threshold": [_change(r, "call_threshold", 100, "pt") for _, r in changes.iterrows()]})
    out.append(Block("p", "What each state changes, board by board on the same boards (mean change ± one "
                          "standard error of the paired differences; shares in percentage points):"))
    out.append(Block("table", frame=frame))
    c = changes.set_index("state")
    if "level3" in c.index:
        r = c.loc["level3"]
        out.append(Block("p", (
            f"**Higher blinds** (`level3` against `start`: the pot of one big blind each triples): a free fold's regret "
            f"changes by {_change(r, 'regret_fold')} (a fold gives away the pot and pays the same penalty), the first "
            f"player's betting share by {_change(r, 'root_bets', 100, 'pt')}, the second player's calls of a pot bet "
            f"by {_change(r, 'call_calls', 100, 'pt')} and its equity threshold by "
            f"{_change(r, 'call_threshold', 100, 'pt')}: the penalty a winning caller escapes weighs less against a "
            "bigger pot, so the call moves towards the pot odds alone, as in Texas Hold'em.")))
    for name, left in (("bank3-100", 100), ("bank3-low", 40)):
        if name in c.index:
            r = c.loc[name]
            out.append(Block("p", (
                f"**The bank's last ${left}** (`{name}` against `level3`, the same blinds with bank 3 full): the "
                f"solution differs on {int(r.boards_differ)} of {int(r.boards)} boards (effect classes "
                f"{r.differ_effects}; the penalty goes into the bank before the bonus is paid, so the bonus falls "
                f"short only where it exceeds what is left plus that penalty, or on a split pot); the first player's "
                f"value changes by {_change(r, 'ev_oop')}, a free fold's regret by {_change(r, 'regret_fold')}, the "
                f"betting share by {_change(r, 'root_bets', 100, 'pt')}, the calls by "
                f"{_change(r, 'call_calls', 100, 'pt')} and the call threshold by "
                f"{_change(r, 'call_threshold', 100, 'pt')}. A change within two standard errors is not told apart "
                f"from none at this sample. For scale, the blinds alone (`level3` against `start`) change the "
                f"first player's value by {_change(c.loc['level3'], 'ev_oop') if 'level3' in c.index else 'n/a'}.")))
    return out


def _pct(r: pd.Series, col: str) -> str:
    return ms(r[col], r[f"{col}_se"], 100)


def _sweep_text(sweep: pd.DataFrame) -> list[Block]:
    sweep = sweep.assign(chips=sweep["stack"] + sweep["pot"] // 2)
    deep = sweep[sweep.chips == sweep.chips.max()].sort_values("pot")
    short = sweep[sweep.chips == sweep.chips.min()].sort_values("pot")
    if len(deep) < 2 or len(short) < 2:
        return []
    lo, hi = deep.iloc[0], deep.iloc[-1]
    slo, shi = short.iloc[0], short.iloc[-1]
    pots = ", ".join(f"${p:.0f}" for p in deep["pot"])
    return [Block("p", (
        f"Folding for free is {never(float(sweep['folds_for_free'].max()))} at any pot and depth (at most "
        f"{100 * sweep['folds_for_free'].max():.1f}% of the range), and its regret "
        f"{trend(deep['regret_fold'], 'grows', 'shrinks')} with the pot: ${lo.regret_fold:.1f} at a ${lo.pot:.0f} pot "
        f"to ${hi.regret_fold:.1f} at ${hi.pot:.0f} with deep stacks, ${slo.regret_fold:.1f} to "
        f"${shi.regret_fold:.1f} with short ones, while the penalty it pays is ${lo.fold_cost:.1f} and "
        f"${hi.fold_cost:.1f} (deep). Facing a pot bet (pot odds 33%), a caller who wins escapes the penalty that "
        f"folding or losing pays, so the equity a call needs is below the pot odds, and "
        f"{trend(deep['call_threshold'], 'rises', 'falls')} with the pot ({pots}, deep): "
        + ", ".join(f"{_pct(r, 'call_threshold')}%" for _, r in deep.iterrows())
        + f". The first player's betting share {trend(deep['root_bets'], 'grows', 'shrinks')} with the pot deep ("
        + ", ".join(f"{_pct(r, 'root_bets')}%" for _, r in deep.iterrows())
        + f") and {trend(short['root_bets'], 'grows', 'shrinks')} with short stacks ("
        + ", ".join(f"{_pct(r, 'root_bets')}%" for _, r in short.iterrows())
        + f"; at ${shi.pot:.0f} with ${shi.stack:.0f} behind the only bet is all-in, pot odds "
        f"{100 * shi.call_pot_odds:.0f}%). Short-stacked facing a pot bet, holdings that prefer calling to folding "
        "may raise all-in instead: the calls column counts calls only."))]


def _effect_text(eff: pd.DataFrame) -> list[Block]:
    e = eff.set_index("effect")
    if "none" not in e.index:
        return []
    base = e.loc["none"]
    parts = []
    for cls, why in (("slump", "the penalty doubled"), ("rebate", "the penalty paid to the winner"),
                     ("crash", "every participant of the last round, winners included, pays the card's "
                               "amount to the bank")):
        if cls in e.index:
            r = e.loc[cls]
            parts.append(f"`{cls}` ({why}): a free fold costs ${r.fold_cost:.1f} and its regret is "
                         f"${ms(r.regret_fold, r.regret_fold_se)}, the call threshold {_pct(r, 'call_threshold')}%")
    return [Block("p", (
        f"On the river, with any active effect, folding for free is {never(float(eff['folds_for_free'].max()))} "
        "heads-up (at most "
        f"{100 * eff['folds_for_free'].max():.1f}% of the range in any class). Without an active effect a free "
        f"fold costs ${base.fold_cost:.1f} (the penalty), its regret is ${ms(base.regret_fold, base.regret_fold_se)} "
        f"and a pot bet is called from an equity of {_pct(base, 'call_threshold')}%; " + "; ".join(parts) + ". "
        "A river folder and a river showdown loser pay the same penalty, so a card that raises the penalty should "
        "raise what a free fold throws away and lower the equity a call needs (winning the call is what escapes "
        "it). Each class has its own boards: compare two classes by their standard errors (a difference under two "
        "combined standard errors is not told apart from none at this sample). These are river answers: "
        "on the flop or the turn the question is whether to stay in for the next card, which the fold-vs-check "
        "grid and the solved turn spots answer."))]
