"""Player questions answered from solved spots: facing a bet, the equilibrium beside best
responses to opponent models, and what a strength means in made hands and draws.

- :func:`facing_bet`: at every decision of the first street where a player faces a bet, how
  often the decision comes up, how much of the range calls at equilibrium and which holdings
  *prefer* calling (EV of calling above EV of folding by more than :data:`CLEAR_PCT` % of the
  pot), against the threshold the pot odds alone give. On the river the holdings are ranked by their equity against the bettor's
  range at that decision (the reach of the average strategy: what a player reads from the
  betting); earlier, by strength (the share of all holdings beaten). The *threshold* is the one
  cut on that scale that best separates the holdings that prefer calling from those that
  prefer folding (weighted by how likely each holding is there), and its *accuracy* says how
  well one cut describes the answer.
- :func:`versus_models`: the same spot with one player locked to an opponent model (node
  locking, every decision of that player) so the other plays a best response: how the answer
  to "fold for free or check?" moves when the opponent plays a known style instead of an
  equilibrium.
- :func:`strength_translated`: on a seeded sample of boards per street, which made hands and
  draws make up each tenth of the strength scale.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from analysis.dilemma.decks import load_deck
from analysis.solvers.card_level import CardSpot, SpotSolution, load_solution, solve_spot
from analysis.solvers.card_level.locks import PLAYERS, lock_to_model
from analysis.solvers.card_level.solution import fold_or_check_shares
from analysis.solvers.card_level.solver import CardSolver
from analysis.solvers.card_level.tree import AMOUNT, PLAYER
from evaluator import evaluate_batch
from evaluator.strength import holding_strengths

from .made_hands import DRAWS, MADE_HANDS, draw, made_hand

BR_MODELS: tuple[str, ...] = ("passive", "aggressive", "callers", "threshold")
"""The opponent models the equilibrium is set beside (every absolute-threshold model shipped;
``tight`` narrows its thresholds to its own range, which a card-level lock cannot express)."""

CLEAR_PCT = 1.0
"""A holding *prefers* calling (or folding) when the two differ by more than this % of the pot;
closer, it is *near indifferent*: at decisions the average strategy rarely reaches such small
differences are not settled by a solve to 0.3% of the pot, and a solver mixes them freely."""

STRENGTH_BINS = 10
"""The strength scale is read in tenths."""


def river_equity(sol: SpotSolution, v: int, actor: int) -> np.ndarray:
    """Each of the actor's holdings' showdown equity (wins, half the ties) against the opponent's
    holdings weighted by their reach at ``v`` on a five-card board; NaN where it meets none."""
    board = sol.board_at(v)
    t = sol.solver.tables
    n, m = int(t.n_hands[actor]), int(t.n_hands[1 - actor])
    mine, theirs = t.hands[actor, :n].astype(np.int64), t.hands[1 - actor, :m].astype(np.int64)
    rows = lambda h: np.column_stack([h, np.tile(board, (len(h), 1))]).astype(np.uint8)  # noqa: E731
    a, b = evaluate_batch(rows(mine), sol.spot.spec), evaluate_batch(rows(theirs), sol.spot.spec)
    compat = ~((mine[:, None, :, None] == theirs[None, :, None, :]).any(axis=(2, 3)))
    reach = sol.reach(v, 1 - actor)[:m] * compat
    score = (a[:, None] > b[None, :]) + 0.5 * (a[:, None] == b[None, :])
    total = reach.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(total > 0, (reach * score).sum(axis=1) / total, np.nan)


def call_shares(weight: np.ndarray, total: float, freq: np.ndarray, prefers: np.ndarray, near: np.ndarray,
                gain: np.ndarray, fold: np.ndarray) -> dict[str, float]:
    """A facing-a-bet row's range shares (``weight`` over holdings, ``total`` its sum): how much
    calls, prefers calling, is near indifferent, the mean gain of calling and value of folding."""
    return {"calls": float((weight * freq).sum() / total),
            "prefers_call": float((weight * prefers).sum() / total),
            "near_indifferent": float((weight * near).sum() / total),
            "call_gain": float((weight * gain).sum() / total),
            "ev_fold": float((weight * np.nan_to_num(fold)).sum() / total)}


def best_cut(scale: np.ndarray, prefers: np.ndarray, weight: np.ndarray) -> tuple[float, float]:
    """The cut ``t`` on ``scale`` that best separates ``prefers`` (True at and above ``t``) from the
    rest, weighted; returns (t, accuracy: the weighted share the cut classifies right)."""
    ok = np.isfinite(scale) & (weight > 0)
    s, y, w = scale[ok], prefers[ok], weight[ok]
    if not w.sum():
        return float("nan"), float("nan")
    order = np.argsort(s, kind="stable")
    s, y, w = s[order], y[order], w[order]
    # errors if the cut sits before position k: the preferring holdings below it, the others at or above
    below_yes = np.concatenate([[0.0], np.cumsum(w * y)])
    above_no = np.concatenate([[0.0], np.cumsum((w * ~y)[::-1])])[::-1]
    starts = np.concatenate([[0], np.flatnonzero(np.diff(s) > 0) + 1, [len(s)]])  # cuts between distinct values
    errors = below_yes[starts] + above_no[starts]
    k = int(starts[int(np.argmin(errors))])
    cut = float(s[k]) if k < len(s) else float("inf")
    return cut, float(1.0 - errors.min() / w.sum())


def facing_bet(sol: SpotSolution) -> list[dict]:
    """One row per first-street decision that faces a bet (see the module doc), with the penalty
    costs of :func:`.solved_spots3.penalty_costs` (on strength)."""
    from .solved_spots3 import penalty_costs

    rows = []
    nodes = sol.solver.tree.nodes
    for line in sol.first_street_lines():
        labels = [str(x).lower() for x in sol.strategy(line).columns]
        if not {"call", "fold"} <= set(labels) or not line:
            continue
        v = sol.node(line)
        actor = int(nodes[v, PLAYER])
        n = int(sol.solver.tables.n_hands[actor])
        bet = int(str(line[-1]).split()[-1])
        matched = int(nodes[v, AMOUNT])
        to_call, pot = bet - matched, sol.spot.pot + matched + bet
        _, ev = sol.action_values(line)
        call, fold = ev[labels.index("call")], ev[labels.index("fold")]
        weight = np.where(np.isnan(call) | np.isnan(fold), 0.0, sol.holding_weights(v))
        gain = np.nan_to_num(call - fold)
        margin = CLEAR_PCT / 100 * sol.spot.pot
        prefers, near = gain > margin, np.abs(gain) <= margin
        freq = sol.solver.strategy(v)[labels.index("call"), :n]
        river = len(sol.board_at(v)) == 5
        scale = river_equity(sol, v, actor) if river else holding_strengths(
            sol.spot.holdings(actor)[0], sol.board_at(v), sol.spot.spec)
        cut, accuracy = best_cut(scale, prefers, np.where(near, 0.0, weight))  # fitted on clear preferences
        total = weight.sum()
        if not total > 0:
            continue  # nobody reaches the decision at equilibrium
        strength = scale if not river else holding_strengths(sol.spot.holdings(actor)[0], sol.board_at(v),
                                                             sol.spot.spec)
        rows.append({"line": " / ".join(line), "player": "oop" if actor == 0 else "ip", "others_in": 1,
                     "to_call": to_call,
                     "pot": pot, "pot_odds": to_call / (pot + to_call),
                     "reached": float(total / sol.solver.tables.pairs),
                     "scale": "equity v the bettor's range" if river else "strength",
                     "threshold": cut, "threshold_accuracy": accuracy,
                     **call_shares(weight, total, freq, prefers, near, gain, fold),
                     **penalty_costs(labels, ev, weight, strength)})
    return rows


def _answers(sol: SpotSolution, opponent: str, skip: str = "", **extra: float) -> list[dict]:
    """The free-fold answer's shares, regrets and the player's value at each first-street decision
    offering both fold and check (``skip``: a locked player's decisions)."""
    return [{"line": line, "player": row["player"], "opponent": opponent,
             "folds_for_free": row["folds for free"], "indifferent": row["indifferent"],
             "regret_check": row["regret_check"], "regret_fold": row["regret_fold"],
             "ev": sol.ev()[row["player"]], "exploitability_pct_pot": sol.exploitability_pct, **extra}
            for line, row in fold_or_check_shares(sol.fold_or_check()).items() if row["player"] != skip]


def versus_models(spot: CardSpot, equilibrium: SpotSolution, models: Sequence[str] = BR_MODELS, *,
                  target_pct: float = 0.3, max_iterations: int = 3000) -> list[dict]:
    """The free-fold answers of ``spot`` at equilibrium and, per model, of the player who best
    responds when the other is locked to the model at every decision (both seats in turn)."""
    rows = _answers(equilibrium, "equilibrium")
    for model in models:
        for locked, player in (("ip", "oop"), ("oop", "ip")):
            sol = solve_spot(spot, target_pct=target_pct, max_iterations=max_iterations, locks={locked: model})
            rows += _answers(sol, model, skip=locked,
                             equilibrium_ev=equilibrium_against(spot, equilibrium, player, model))
    return rows


def equilibrium_against(spot: CardSpot, equilibrium: SpotSolution, player: str, model: str) -> float:
    """``player``'s value when it keeps its equilibrium strategy and the other plays ``model`` (both
    locked at every decision); NaN where the equilibrium's tree is not the locked one (suit isomorphism)."""
    solver = CardSolver(spot, "dcfr", isomorphism=False)
    if solver.tree.nodes.shape != equilibrium.solver.tree.nodes.shape:
        return float("nan")
    seat = PLAYERS[player]
    lock_to_model(solver, 1 - seat, model)
    solver.lock_everywhere(seat, equilibrium.solver.strategy)
    return float(solver.expected_values()[seat])


def strength_translated(deck: str, seed: int, boards: int = 60) -> pd.DataFrame:
    """Per street and tenth of the strength scale, the share of holdings of each made hand and
    draw, over ``boards`` boards per street drawn uniformly (seeded) and every holding on each."""
    d = load_deck(deck)
    spec = d.spec
    rng = np.random.default_rng([seed, 0x57E6])
    pairs = np.array([(a, b) for a in range(spec.n_cards) for b in range(a + 1, spec.n_cards)], np.int64)
    rows = []
    for street, size in (("flop", 3), ("turn", 4), ("river", 5)):
        for _ in range(boards):
            board = [int(c) for c in rng.choice(spec.n_cards, size, replace=False)]
            free = pairs[~np.isin(pairs, board).any(axis=1)]
            strength = holding_strengths(free, board, spec)
            bins = np.minimum((strength * STRENGTH_BINS).astype(int), STRENGTH_BINS - 1)
            for hole, b in zip(free, bins, strict=True):
                rows.append((street, int(b), made_hand(hole, board, spec),
                             draw(hole, board, spec) if size < 5 else "none"))
    frame = pd.DataFrame(rows, columns=["street", "bin", "made_hand", "draw"])
    out = []
    for kind, order in (("made_hand", MADE_HANDS), ("draw", DRAWS)):
        counts = frame.groupby(["street", "bin", kind]).size().rename("holdings").reset_index()
        counts["share"] = counts["holdings"] / counts.groupby(["street", "bin"])["holdings"].transform("sum")
        counts = counts.rename(columns={kind: "group"}).assign(by=kind)
        counts["order"] = counts["group"].map(order.index)
        out.append(counts)
    result = pd.concat(out, ignore_index=True).sort_values(["by", "street", "bin", "order"], kind="stable")
    result["strength"] = [f"{b / STRENGTH_BINS:.1f}-{(b + 1) / STRENGTH_BINS:.1f}" for b in result["bin"]]
    return result[["street", "by", "strength", "group", "holdings", "share"]].reset_index(drop=True)


def question_rows(sol: SpotSolution, family: Any, state: Any, models: Sequence[str] = BR_MODELS,
                  target_pct: float = 0.3) -> dict[str, list[dict]]:
    """One solution's rows of ``spots_facing_bet`` and ``spots_versus_models`` (see
    :func:`question_tables`), keyed by family, state and board."""
    from .solved_spots3 import facing_bet_rows

    key = {"family": family.name, "state": state.name, "board": sol.spot.describe()["board"]}
    if family.players == 3:  # node locking against the models is heads-up only
        return {"spots_facing_bet": [{**key, **row} for row in facing_bet_rows(sol)], "spots_versus_models": []}
    versus = versus_models(sol.spot, sol, models, target_pct=target_pct) if family.versus_models else []
    return {"spots_facing_bet": [{**key, **row} for row in facing_bet(sol)],
            "spots_versus_models": [{**key, **row} for row in versus]}


def question_tables(paths: Sequence[Path], deck: str, seed: int, boards: int = 60,
                    models: Sequence[str] = BR_MODELS, target_pct: float = 0.3) -> dict[str, pd.DataFrame]:
    """``spots_facing_bet`` and ``spots_versus_models`` (one block of rows per solution file, keyed
    by family, state and board; ``models`` locked in turn, each best response solved to ``target_pct``,
    for the families that ask for it: :attr:`.solved_spots.Family.versus_models`)
    and ``strength_translated`` (``boards`` boards a street)."""
    from .solved_spots import family_state

    parts = [question_rows(load_solution(path), *family_state(path), models, target_pct) for path in paths]
    return {name: pd.DataFrame([row for part in parts for row in part[name]])
            for name in ("spots_facing_bet", "spots_versus_models")} | {
        "strength_translated": strength_translated(deck, seed, boards)}
