"""The best-response continuation of the fold-vs-check study (issue 10's proofs).

- the exact best response of small spots agrees exactly with an independent slow
  reference (plain Python, every deal, the readable referee or the settlement core);
- on the same deals the best response is worth at least every fixed policy (within noise);
- against a passive model on the river there is nothing left to decide: the best
  response equals the exact enumeration;
- the abstraction loses little against the exact best response;
- the relative (range-aware) model's script matches a slow count of its ranges;
- same seed, same numbers whatever the thread count.
"""

from __future__ import annotations

import itertools

import numba
import numpy as np
import pytest

from analysis.core.threads import numba_threads
from analysis.dilemma.settlement import Rules
from analysis.studies.fold_vs_check import GridSpec, evaluate_spot, run_grid
from analysis.studies.fold_vs_check.cells import Question, compile_spots, hero_spot, make_context
from analysis.studies.fold_vs_check.exact import abstraction_loss
from tests.reference.fold_vs_check import (
    core,
    exact_answer,
    referee,
    slow_strength,
    small_spot,
    strength,
)

FIXED = ("check_down", "check_fold", "call_down")


def test_the_references_strength_is_the_holding_by_holding_count():
    """The references' strength (every holding of a board at once, numpy) equals the plain
    count of its definition for every holding of a turn and a river board."""
    for board in ("4s 9h 3d 6c", "4s 9h 3d 6c 10s"):
        cards = small_spot("As 7d", board, 40).board
        free = [c for c in range(40) if c not in cards]
        for hole in itertools.combinations(free, 2):
            assert strength(hole, cards) == slow_strength(hole, cards), (hole, board)


def _kernel_answer(hero, board, pot, deck):
    r = evaluate_spot(hero, board=board, opponents=1, pot=pot, model="threshold", deck=deck)
    assert r.manifest["exact"] is True and "exact best response" in r.manifest["continuation"]
    others = r.others.set_index("continuation")
    return {"ev_fold": r.row["ev_fold"], "ev_check": r.row["ev_check"],
            **{f"ev_check_{p}": float(others.loc[p, "ev_check"]) for p in FIXED}}


def test_exact_river_best_response_matches_the_slow_reference():
    spot = small_spot("As 7d", "4s 9h 3d 6c 10s", 120)
    assert _kernel_answer("As 7d", "4s 9h 3d 6c 10s", 120, "reference") == exact_answer(spot, referee(spot))


@pytest.mark.slow
def test_exact_turn_best_response_matches_the_slow_reference():
    spot = small_spot("8c 8h", "4s 9h 3d 6c", 40, deck="plain")
    ref = exact_answer(spot, core(spot))
    assert _kernel_answer("8c 8h", "4s 9h 3d 6c", 40, "plain") == ref
    assert ref["ev_check"] > max(ref["ev_check_check_down"], ref["ev_check_check_fold"])


@pytest.mark.parametrize(("hand", "street", "opponents", "pot", "model", "trials", "train_deals"), [
    # 20,000 trials: every fixed policy is still 27 or more standard errors worse than the best
    # response (60,000 took 2.6 times as long)
    ("A10o", "flop", 3, 120, "threshold", 20_000, 10_000),
    ("55", "turn", 2, 300, "threshold", 20_000, 10_000),
    ("76s", "flop", 2, 40, "passive", 20_000, 10_000),
    # the range-aware model costs about 0.5 ms a trial and as much a training deal: 6,000 trials
    # and a best response trained on 4,000 deals (a weaker one: a harder test) take 4.7 CPU s
    # instead of 15; every fixed policy is still 4.5 or more standard errors worse
    ("98s", "flop", 2, 120, "tight", 6_000, 4_000),
])
def test_best_response_is_worth_at_least_every_fixed_policy(hand, street, opponents, pot, model,
                                                            trials, train_deals):
    r = evaluate_spot(hand, street=street, opponents=opponents, pot=pot, model=model,
                      trials=trials, seed=2, train_deals=train_deals)
    others = r.others.set_index("continuation")
    for policy in FIXED:
        diff, se = others.loc[policy, "minus_main"], others.loc[policy, "minus_main_se"]
        assert diff <= 3 * se, (policy, diff, se)  # the fixed policy is not better
    assert r.row["fold_free_option_value"] >= -3 * r.row["fold_free_option_value_se"]
    assert not r.plan.empty and set(r.plan["action"]) <= {"check", "call", "fold", "fold for free"}
    assert "abstraction" in r.manifest["continuation"]


def test_river_against_passive_the_best_response_is_the_exact_enumeration():
    """Heads-up (528 deals; two opponents took 7 CPU s). Against two passive opponents,
    test_fold_vs_check.py checks a river spot's exact best response against a hand count of
    checking down, and this very spot's Monte Carlo against its exact enumeration."""
    board = "4s 9h 3d 6c Ad"
    exact = evaluate_spot("2d 7c", board=board, opponents=1, pot=120)
    down = evaluate_spot("2d 7c", board=board, opponents=1, pot=120, policy="check_down")
    assert exact.manifest["exact"] and exact.row["ev_check"] == down.row["ev_check"]
    mc = evaluate_spot("2d 7c", board=board, opponents=1, pot=120, exact=False, trials=30_000, seed=4)
    assert abs(mc.row["ev_check"] - exact.row["ev_check"]) <= 4 * mc.row["ev_check_se"]
    assert abs(mc.row["gap"] - exact.row["gap"]) <= 4 * mc.row["gap_se"]


def test_the_abstraction_loses_little_against_the_exact_best_response():
    ctx = make_context("reference", Rules(), (300, 700, 500), 0)
    spot = Question(hero_spot("Ad 2c", "turn", "7s 8d 2h 10c", 1, 300), "threshold")
    r = abstraction_loss(compile_spots([spot], ctx, 0), 10_000)
    assert -1e-9 <= r["loss"] <= 0.02 * abs(r["exact_best_response"])
    assert r["abstract_best_response"] >= max(r["check_down"], r["check_fold"])


def test_a_relative_model_reads_its_own_range():
    """The range-aware model: a checked range is weaker, so the same absolute strength ranks
    higher in it; checked against a slow count of its range."""
    from tests.reference.relative_model import check_relative_script

    check_relative_script(seed=5, deals=25)


def test_best_response_grid_is_the_same_whatever_the_threads():
    spec = GridSpec(models=("passive", "threshold"), streets=("flop",), opponents=(1, 3),
                    pots=(120,), hands=("A10o", "72o"), stderr=20.0, max_trials=4000, seed=5,
                    train_deals=2000)
    frames = []
    for threads in (1, numba.config.NUMBA_NUM_THREADS):
        with numba_threads(threads):
            result = run_grid(spec)
            frames.append((result.cells, result.plans))
    assert frames[0][0].equals(frames[1][0]) and frames[0][1].equals(frames[1][1])
    assert (frames[0][0]["policy"] == "best_response").all()
    assert np.isfinite(frames[0][0]["later_fold_free"]).all()
