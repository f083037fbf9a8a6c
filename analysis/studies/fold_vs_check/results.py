"""Tables from the fold-vs-check statistics: per-spot results, bins, break-even lines."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from analysis.dilemma.decks import Deck
from analysis.dilemma.effects import (
    FLOP,
    KINDS,
    OP_BUBBLE,
    OP_CRASH,
    OP_NONE,
    OP_REBATE,
    OP_SLUMP,
    RIVER,
    TURN,
    board_effect_active,
)

from .cells import BEST_RESPONSE, FIXED_POLICIES, Cells
from .layout import (
    BOARD_CLASS_BASE,
    BOARD_CLASSES,
    CE_MODEL,
    CE_POLICY,
    CMP_BASE,
    DEC_BASE,
    MAX_OPP,
    N_LEVELS,
    N_STRENGTH_BINS,
    S_BOARD_PENALTY,
    S_CHECK,
    S_CHECK2,
    S_CHECK_BONUS,
    S_CHECK_EFFECT,
    S_CHECK_PENALTY,
    S_CHECK_POT,
    S_CHECK_SHOWDOWN,
    S_EQUITY,
    S_FOLD,
    S_FOLD2,
    S_FOLD_BONUS,
    S_FOLD_EFFECT,
    S_FOLD_PAYS,
    S_FOLD_PENALTY,
    S_FOLD_POT,
    S_GAP,
    S_GAP2,
    S_N,
    S_STRENGTH,
)

SPOT_KEYS = ("model", "policy", "street", "opponents", "position", "pot")
"""What names a spot of the grid (the hand apart): the keys of its break-even tables and curves.
``position`` is ``first``, ``last`` or ``after k`` (:func:`.cells.position_name`)."""


def spot_keys(frame: pd.DataFrame) -> list[str]:
    """:data:`SPOT_KEYS` present in ``frame`` (tables written before positions have none)."""
    return [k for k in SPOT_KEYS if k in frame.columns]


def summaries(compiled: Cells, totals: np.ndarray) -> pd.DataFrame:
    """Per-cell results (one row per spot) from the statistics totals. The money columns
    ``{fold,check}_{pot,bonus,penalty,effects}`` are each the signed mean change of the hero's
    chips (a penalty paid is negative), so they add up to ``ev_fold`` and ``ev_check``."""
    n = np.maximum(totals[:, S_N], 1)

    def mean(col: int) -> np.ndarray:
        return totals[:, col] / n

    def se(col: int, col2: int) -> np.ndarray:
        m = mean(col)
        var = (totals[:, col2] - n * m**2) / np.maximum(n - 1, 1)
        return np.sqrt(np.maximum(var, 0) / n)

    gap, gap_se = mean(S_GAP), se(S_GAP, S_GAP2)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(gap_se > 0, gap / gap_se, np.sign(gap) * np.inf)
    p_check = 0.5 * (1 + np.vectorize(math.erf)(np.clip(z, -40, 40) / math.sqrt(2)))
    decision = np.where(z > 2, "check", np.where(z < -2, "fold", "close"))
    spots = compiled.spots
    return pd.DataFrame({
        "hand": compiled.class_names,
        "kind": compiled.kinds,
        "combos": compiled.combos,
        "street": [s.street for s in spots],
        "board": [s.board or "random" for s in spots],
        "opponents": [s.opponents for s in spots],
        "position": [s.position_name for s in spots],
        "pot": [s.pot for s in spots],
        "stack": [s.behind for s in spots],
        "model": [compiled.ctx.models[int(c[CE_MODEL])].name for c in compiled.cells],
        "policy": [compiled.ctx.policies[int(c[CE_POLICY])].name if c[CE_POLICY] >= 0
                   else BEST_RESPONSE for c in compiled.cells],
        "trials": totals[:, S_N].astype(np.int64),
        "ev_fold": mean(S_FOLD),
        "ev_fold_se": se(S_FOLD, S_FOLD2),
        "ev_check": mean(S_CHECK),
        "ev_check_se": se(S_CHECK, S_CHECK2),
        "gap": gap,
        "gap_se": gap_se,
        "z": z,
        "p_check_better": p_check,
        "decision": decision,
        "check_pot": mean(S_CHECK_POT),
        "check_bonus": mean(S_CHECK_BONUS),
        # money: the signed change of the hero's chips, so pot + bonus + penalty + effects = ev
        # (the kernels tally the penalty paid as a positive cost)
        "check_penalty": 0.0 - mean(S_CHECK_PENALTY),  # 0.0 -: no -0.0
        "check_effects": mean(S_CHECK_EFFECT),
        "fold_pot": mean(S_FOLD_POT),
        "fold_bonus": mean(S_FOLD_BONUS),
        "fold_penalty": 0.0 - mean(S_FOLD_PENALTY),
        "fold_effects": mean(S_FOLD_EFFECT),
        "fold_pays_share": mean(S_FOLD_PAYS),
        "check_showdown_share": mean(S_CHECK_SHOWDOWN),
        "equity": mean(S_EQUITY),
        "strength": mean(S_STRENGTH),
        "board_penalty": mean(S_BOARD_PENALTY),
        # the continuation's later decisions: how often the hero folds for free / to a bet
        "later_fold_free": sum(totals[:, DEC_BASE + 2 * lv + 1] for lv in (0, 2, 4)) / n,
        "later_fold_to_bet": sum(totals[:, DEC_BASE + 2 * lv + 1] for lv in (1, 3, 5)) / n,
    })


def comparisons(compiled: Cells, totals: np.ndarray) -> pd.DataFrame:
    """The other continuations played on the same deals: per cell and continuation, the value
    of checking, its standard error, and the difference from the main continuation."""
    n = np.maximum(totals[:, S_N], 1)
    names = [*FIXED_POLICIES, "best_response_no_free_fold"]
    rows = []
    for slot, name in enumerate(names):
        base = CMP_BASE + 4 * slot
        if not totals[:, base + 1].any() and not totals[:, base + 3].any():
            continue
        for c in range(len(totals)):
            mean = totals[c, base] / n[c]
            var = max(totals[c, base + 1] - n[c] * mean**2, 0.0) / max(n[c] - 1, 1)
            d = totals[c, base + 2] / n[c]
            dvar = max(totals[c, base + 3] - n[c] * d**2, 0.0) / max(n[c] - 1, 1)
            rows.append({"cell": c, "continuation": name, "ev_check": mean,
                         "ev_check_se": math.sqrt(var / n[c]), "minus_main": d,
                         "minus_main_se": math.sqrt(dvar / n[c])})
    return pd.DataFrame(rows, columns=["cell", "continuation", "ev_check", "ev_check_se",
                                       "minus_main", "minus_main_se"])


def plan_table(plan: np.ndarray, reach: np.ndarray, buckets: int, opponents: int) -> pd.DataFrame:
    """A best response as a small table: per later street, nobody-bet or facing a bet, and
    opponents still in, the strength ranges (buckets) where it checks or calls vs folds, with
    the share of deals that reach them (``reach``: per information set)."""
    rows = []
    for lv in range(N_LEVELS):
        street = ("flop", "turn", "river")[lv // 2]
        facing = "bet" if lv % 2 else "none"
        for opp in range(1, opponents + 1):
            base = (lv * MAX_OPP + opp - 1) * buckets
            acts = plan[base:base + buckets]
            seen = reach[base:base + buckets]
            if not (seen > 0).any():
                continue
            b = 0
            while b < buckets:
                if seen[b] <= 0:
                    b += 1
                    continue
                go = acts[b] > 0.5
                e = b
                share = 0.0
                while e < buckets and (seen[e] <= 0 or (acts[e] > 0.5) == go):
                    share += seen[e]
                    e += 1
                action = ("check" if facing == "none" else "call") if go else (
                    "fold for free" if facing == "none" else "fold")
                rows.append({"street": street, "facing": facing, "opponents_in": opp,
                             "strength_from": b / buckets, "strength_to": e / buckets,
                             "action": action, "reach": share})
                b = e
    return pd.DataFrame(rows, columns=["street", "facing", "opponents_in", "strength_from",
                                       "strength_to", "action", "reach"])


def bins_frame(compiled: Cells, totals: np.ndarray, base: int, n_bins: int) -> pd.DataFrame:
    """Per cell and bin: trials, sum and sum of squares of the gap."""
    rows = []
    for c in range(len(compiled.spots)):
        for b in range(n_bins):
            cnt = totals[c, base + 3 * b]
            if cnt:
                rows.append((c, b, cnt, totals[c, base + 3 * b + 1], totals[c, base + 3 * b + 2]))
    return pd.DataFrame(rows, columns=["cell", "bin", "n", "sum", "sumsq"])


def weighted_bins(cells: pd.DataFrame, bins: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """Mean gap per bin over the classes, each weighted by its combos (a random hand)."""
    df = bins.merge(cells[["combos", "trials", *keys]], left_on="cell", right_index=True)
    w = df["combos"] / df["trials"]
    # Each cell's bin sum has variance n * (its within-bin variance); weights add them up.
    within = np.maximum(df["sumsq"] - df["sum"] ** 2 / df["n"], 0)
    df = df.assign(wn=w * df["n"], ws=w * df["sum"], wvar=w * w * within)
    g = df.groupby([*keys, "bin"], as_index=False)[["n", "wn", "ws", "wvar"]].sum()
    g["gap"] = g["ws"] / g["wn"]
    g["gap_se"] = np.sqrt(g["wvar"]) / g["wn"]
    return g.drop(columns=["wn", "ws", "wvar"]).rename(columns={"n": "trials"})


def board_class_curve(compiled: Cells, totals: np.ndarray, cells: pd.DataFrame,
                      keys: list[str]) -> pd.DataFrame:
    """The strength curve split by what the player sees on the board at the decision: per
    key, board class (``layout.BOARD_CLASSES``) and strength bin, the mean gap over random
    hands (combo-weighted) with its standard error and trials."""
    frames = []
    for index, name in enumerate(BOARD_CLASSES):
        base = BOARD_CLASS_BASE + 3 * N_STRENGTH_BINS * index
        bins = bins_frame(compiled, totals, base, N_STRENGTH_BINS)
        if bins.empty:
            continue
        curve = weighted_bins(cells, bins, keys)
        curve.insert(len(keys), "board_class", name)
        curve.insert(len(keys) + 1, "strength_lo", curve.pop("bin") / N_STRENGTH_BINS)
        curve.insert(len(keys) + 2, "strength_hi", curve["strength_lo"] + 1 / N_STRENGTH_BINS)
        frames.append(curve)
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def classify_board(cards: list[int], deck: Deck) -> str:
    """The board class (``layout.BOARD_CLASSES``) of a board's cards in deal order (flop,
    turn, river): the readable statement of the kernels' ``board_class``."""
    named = {KINDS[OP_CRASH].name: 1, KINDS[OP_SLUMP].name: 2, KINDS[OP_REBATE].name: 3,
             KINDS[OP_BUBBLE].name: 4}
    best = None
    for position, card in enumerate(cards):
        op = int(deck.opcode[card])
        street = FLOP if position < 3 else (TURN if position == 3 else RIVER)
        if op == OP_NONE or not board_effect_active(int(deck.colour[card]), street):
            continue
        rank = named.get(KINDS[op].name, 5)
        best = rank if best is None else min(best, rank)
    return BOARD_CLASSES[best or 0]


MIN_CLASS_TRIALS = 2_000
"""A board class needs this many deals in a spot before a break-even is stated for it."""


def break_even_by_board(curve: pd.DataFrame) -> pd.DataFrame:
    """Per model, street, opponents, position, pot and board class: the strength at which the mean gap
    on such boards crosses zero (``break_even_strength``: check at or above it), the share of
    the spot's deals whose board is of that class, and the deals behind it (a class with
    fewer than ``MIN_CLASS_TRIALS`` gets NaN: too few to say)."""
    keys = spot_keys(curve) if not curve.empty else list(SPOT_KEYS)
    if curve.empty:
        return pd.DataFrame(columns=[*keys, "board_class", "share_of_deals", "trials",
                                     "break_even_strength", "mean_gap"])
    spot_trials = curve.groupby(keys)["trials"].sum()
    rows = []
    for key, group in curve.groupby([*keys, "board_class"], sort=False):
        g = group.sort_values("strength_lo")
        trials = int(g["trials"].sum())
        enough = trials >= MIN_CLASS_TRIALS
        mid = ((g["strength_lo"] + g["strength_hi"]) / 2).to_numpy()
        rows.append({
            **dict(zip([*keys, "board_class"], key, strict=True)),
            "share_of_deals": trials / float(spot_trials.loc[key[:-1]]),
            "trials": trials,
            "break_even_strength": crossing(mid, g["gap"].to_numpy()) if enough else np.nan,
            "mean_gap": float((g["gap"] * g["trials"]).sum() / trials) if trials else np.nan,
        })
    return pd.DataFrame(rows)


BREAK_EVEN_COLUMNS = {
    "break_even_strength": "per spot, over every board the street can bring: the hero's "
                           "strength on the board at which the mean gap (over random hands) "
                           "crosses zero; check at or above it",
    "break_even_equity": "per spot, per starting class averaged over boards: the class's "
                         "showdown equity at which the classes' mean gaps cross zero (0 when "
                         "every class's mean gap favours checking)",
    "share_check": "per spot: the share of starting classes (by combos) whose mean gap over "
                   "boards favours checking",
    "mean_gap": "per spot: the mean gap over random hands and boards ($)",
}
"""What each number of ``fold_vs_check_break_even`` is, and at which level it holds (written
into the table's manifest)."""


def break_even_table(cells: pd.DataFrame, strength_curve: pd.DataFrame) -> pd.DataFrame:
    """Where checking stops being worth it, per model, street, opponents, position and pot.

    ``break_even_strength``: the hand strength on the board at which the mean gap
    (over random hands) crosses zero; ``break_even_equity``: the showdown equity
    at which the classes' gaps cross zero; ``share_check``: the share of classes
    (by combos) for which checking is better.
    """
    keys = spot_keys(cells)
    rows = []
    for key, group in cells.groupby(keys, sort=False):
        g = group.sort_values("equity")
        curve = strength_curve.merge(pd.DataFrame([dict(zip(keys, key, strict=True))]), on=keys)
        rows.append({
            **dict(zip(keys, key, strict=True)),
            "break_even_strength": crossing(
                ((curve["strength_lo"] + curve["strength_hi"]) / 2).to_numpy(), curve["gap"].to_numpy()),
            "break_even_equity": crossing(g["equity"].to_numpy(), g["gap"].to_numpy()),
            "share_check": float((g["combos"] * (g["gap"] > 0)).sum() / g["combos"].sum()),
            "mean_gap": float((g["combos"] * g["gap"]).sum() / g["combos"].sum()),
        })
    return pd.DataFrame(rows)


def crossing(x: np.ndarray, y: np.ndarray) -> float:
    """The x where y (by increasing x) last turns from negative to non-negative, interpolated.

    0 when y is never negative (always check), 1 when never non-negative (always fold).
    """
    if len(x) == 0:
        return float("nan")
    order = np.argsort(x, kind="stable")
    x, y = x[order], y[order]
    if np.all(y >= 0):
        return 0.0
    if np.all(y < 0):
        return 1.0
    last_neg = int(np.nonzero(y < 0)[0][-1])
    if last_neg == len(y) - 1:
        return 1.0
    x0, x1, y0, y1 = x[last_neg], x[last_neg + 1], y[last_neg], y[last_neg + 1]
    return float(x0 + (x1 - x0) * (-y0) / (y1 - y0)) if y1 != y0 else float(x0)
