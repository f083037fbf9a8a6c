"""The answers read from solved spots, against plain references: the best single cut, river
equity against a range, the equilibrium's value against a model, and the strength translation."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from analysis.solvers.card_level import CardSpot, solve_spot
from analysis.studies.spot_questions import (
    best_cut,
    equilibrium_against,
    facing_bet,
    river_equity,
    strength_translated,
)
from evaluator import evaluate

BOARD = "4s 9h 3d 6c 2d"


@pytest.fixture(scope="module")
def solution():
    spot = CardSpot.from_options(game="dilemma", deck="reference", board=BOARD, oop="AA,1010,99,88,A5,87,A10",
                             ip="random", pot=40, stack=980, bets="100%, a", raises="a")
    return solve_spot(spot, target_pct=1.0, max_iterations=400)


def test_best_cut_equals_brute_force():
    rng = np.random.default_rng(3)
    for _ in range(50):
        n = int(rng.integers(1, 30))
        scale = np.round(rng.random(n), 1)  # ties on the scale
        prefers = rng.random(n) < scale  # preference grows with the scale, noisily
        weight = rng.random(n)
        cut, acc = best_cut(scale, prefers, weight)
        best = max(((weight * ((scale >= t) == prefers)).sum() / weight.sum())
                   for t in [*np.unique(scale), np.inf])
        assert acc == pytest.approx(best)
        assert (weight * ((scale >= cut) == prefers)).sum() / weight.sum() == pytest.approx(best)


def test_river_equity_equals_a_pairwise_reference(solution):
    line = ("bet 40",)
    v = solution.node(line)
    got = river_equity(solution, v, 1)
    board = [int(c) for c in solution.spot.board]
    reach = solution.reach(v, 0)
    t = solution.solver.tables
    for i in range(0, int(t.n_hands[1]), 37):
        mine = [int(c) for c in t.hands[1, i]]
        if set(mine) & set(board):
            continue
        num = den = 0.0
        for j in range(int(t.n_hands[0])):
            theirs = [int(c) for c in t.hands[0, j]]
            if set(theirs) & set(mine) or reach[j] == 0:
                continue
            a, b = evaluate(mine + board), evaluate(theirs + board)
            num += reach[j] * ((a > b) + 0.5 * (a == b))
            den += reach[j]
        assert got[i] == pytest.approx(num / den) if den else np.isnan(got[i])


def test_facing_bet_rows_are_consistent(solution):
    rows = facing_bet(solution)
    assert rows and {r["line"] for r in rows} >= {"bet 40", "check / bet 40"}
    for r in rows:
        assert 0 <= r["calls"] <= 1 and 0 <= r["prefers_call"] <= 1 and 0 < r["reached"] <= 1
        assert r["pot_odds"] == pytest.approx(r["to_call"] / (r["pot"] + r["to_call"]))
        assert 0.5 <= r["threshold_accuracy"] <= 1


def test_equilibrium_against_a_model_keeps_the_locked_best_response_value(solution):
    br = solve_spot(solution.spot, target_pct=0.3, max_iterations=400, locks={"ip": "threshold"})
    assert equilibrium_against(solution.spot, br, "oop", "threshold") == pytest.approx(br.ev()["oop"], abs=1e-9)
    # and the best response is worth at least what the equilibrium keeps against the same model
    assert br.ev()["oop"] >= equilibrium_against(solution.spot, solution, "oop", "threshold") - 1e-6


def test_strength_translated_shares_sum_to_one():
    table = strength_translated("reference", seed=5, boards=2)
    sums = table.groupby(["street", "by", "strength"])["share"].sum()
    assert np.allclose(sums, 1.0)
    assert set(table["street"]) == {"flop", "turn", "river"}
    river = table[(table.street == "river") & (table.by == "made_hand")]
    top = river[river.strength == river.strength.max()]
    assert "high card" not in set(top[top.share > 0.5]["group"])  # the top tenth is made hands
    assert list(itertools.islice(table.columns, 3)) == ["street", "by", "strength"]
