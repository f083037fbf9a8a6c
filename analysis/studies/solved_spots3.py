"""Three-handed solved spots read as the guide's tables: the free fold and facing a bet, seat by seat.

A three-handed river solution (:class:`~analysis.solvers.card_level.multiway.MultiwaySolution`) has
every decision on the river; each row says which seat acts (``first``, ``second``, ``third``
in the order of action), how many other players are still in (``others_in``) and what the
penalty question costs there:

- ``fold_cost``: what folding costs the holdings that reach the decision (minus the EV of
  folding, $ against the stack at the start of the river, weighted by how likely each holding
  is there): the chips already put in on the river plus the penalty share the folder still pays
  (RULES §1.4: a river folder pays unless the hand reaches a showdown that someone else loses);
- ``weakest_call_cost`` (facing a bet): minus the EV of calling of the weakest tenth of the range
  reaching the decision (by strength, the share of all holdings beaten): the call plus the
  loser's penalty share, less what those holdings still win (against bluffs, or when the others
  fold later). Calling and losing is worse than folding by about ``weakest_call_cost - fold_cost``.

The same columns are computed for heads-up rows (:func:`penalty_costs`), so the guide sets the
two side by side.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from analysis.solvers.card_level.multiway import SEATS, MultiwaySolution
from analysis.solvers.card_level.solution import fold_or_check_frame, fold_or_check_shares
from analysis.solvers.card_level.tree3 import PLAYER
from evaluator.strength import holding_strengths

from .spot_questions import CLEAR_PCT, best_cut, call_shares

WEAKEST = 0.1
"""``weakest_call_cost`` reads the weakest tenth of the range reaching a decision."""


def street_state(line: Sequence[str], pot: int, players: int = 3) -> tuple[int, list[int], list[bool]]:
    """Who acts after ``line`` (a river line of action labels, players acting in turn from 0 and
    skipping those who folded), each player's chips put in on the street, and who has folded."""
    put, folded = [0] * players, [False] * players
    actor = 0
    for label in line:
        word = str(label).lower().split()
        if word[0] == "fold":
            folded[actor] = True
        elif word[0] == "call":
            put[actor] = max(put)
        elif word[0] in ("bet", "allin", "raise"):
            put[actor] = int(word[-1])
        actor = (actor + 1) % players
        while folded[actor]:
            actor = (actor + 1) % players
    return actor, put, folded


def weakest_mean(values: np.ndarray, scale: np.ndarray, weight: np.ndarray, share: float = WEAKEST) -> float:
    """The weighted mean of ``values`` over the lowest ``share`` of the weight ordered by ``scale``
    (NaN values and zero weights left out)."""
    ok = np.isfinite(values) & np.isfinite(scale) & (weight > 0)
    if not ok.any():
        return float("nan")
    order = np.argsort(scale[ok], kind="stable")
    v, w = values[ok][order], weight[ok][order]
    below = np.cumsum(w) - w < share * w.sum()  # holdings that start inside the weakest share
    return float((v[below] * w[below]).sum() / w[below].sum())


def penalty_costs(labels: list[str], ev: np.ndarray, weight: np.ndarray, strength: np.ndarray) -> dict[str, float]:
    """``fold_cost`` and, where calling is an action, ``weakest_call_cost`` (see the module doc)."""
    out = {}
    w = np.where(np.isnan(ev).any(axis=0), 0.0, weight)
    if "fold" in labels and w.sum() > 0:
        out["fold_cost"] = float(-(w * np.nan_to_num(ev[labels.index("fold")])).sum() / w.sum())
    if "call" in labels:
        out["weakest_call_cost"] = -weakest_mean(ev[labels.index("call")], strength, w)
    return out


def _decision(sol: MultiwaySolution, line: tuple[str, ...]):
    solver = sol.solver
    v = solver.node(line)
    actor = int(solver.tree.nodes[v, PLAYER])
    n = int(solver.hands[0][actor])
    labels, ev = sol.action_values(line)
    strength = holding_strengths(sol.spot.holdings(actor)[0], list(sol.spot.board), sol.spot.spec)
    return v, actor, n, [str(x).lower() for x in labels], ev, solver.holding_weights(v), strength


def fold_or_check_rows(sol: MultiwaySolution) -> list[dict]:
    """One row per decision offering fold and check: the seat, the others still in, the shares of
    the answers (folds for free, checks, indifferent) weighted by how likely each holding is there,
    the regrets and the penalty costs."""
    rows = []
    for line in sol.lines():
        v, actor, n, labels, ev, weight, strength = _decision(sol, line)
        if not {"fold", "check"} <= set(labels) or not weight.sum() > 0:
            continue
        frame = fold_or_check_frame(" / ".join(line) or "(root)", SEATS[actor], sol.holding_names(actor), weight,
                                    labels, sol.solver.strategy(v), ev, sol.tolerance)
        _, _, folded = street_state(line, sol.spot.pot)
        for key, row in fold_or_check_shares(frame).items():
            rows.append({"line": key, "player": row.pop("player"), "others_in": 2 - sum(folded),
                         "reached": float(weight.sum()),
                         **{a.replace(" ", "_"): x for a, x in row.items()},
                         **penalty_costs(labels, ev, weight, strength)})
    return rows


def facing_bet_rows(sol: MultiwaySolution) -> list[dict]:
    """One row per decision facing a bet, as :func:`.spot_questions.facing_bet` heads-up (scale:
    strength, the share of all holdings beaten), with the seat, the others still in and the
    penalty costs."""
    rows = []
    for line in sol.lines():
        if not line:
            continue
        v, actor, n, labels, ev, weight, strength = _decision(sol, line)
        if not {"call", "fold"} <= set(labels):
            continue
        call, fold = ev[labels.index("call")], ev[labels.index("fold")]
        weight = np.where(np.isnan(call) | np.isnan(fold), 0.0, weight)
        total = weight.sum()
        if not total > 0:
            continue  # nobody reaches the decision at equilibrium
        _, put, folded = street_state(line, sol.spot.pot)
        to_call, pot = max(put) - put[actor], sol.spot.pot + sum(put)
        gain = np.nan_to_num(call - fold)
        margin = CLEAR_PCT / 100 * sol.spot.pot
        prefers, near = gain > margin, np.abs(gain) <= margin
        freq = sol.solver.strategy(v)[labels.index("call"), :n]
        cut, accuracy = best_cut(strength, prefers, np.where(near, 0.0, weight))
        rows.append({"line": " / ".join(line), "player": SEATS[actor], "others_in": 2 - sum(folded),
                     "to_call": to_call, "pot": pot, "pot_odds": to_call / (pot + to_call), "reached": float(total),
                     "scale": "strength", "threshold": cut, "threshold_accuracy": accuracy,
                     **call_shares(weight, total, freq, prefers, near, gain, fold),
                     **penalty_costs(labels, ev, weight, strength)})
    return rows
