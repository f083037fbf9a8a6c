"""Node locking three-handed against the fold-vs-check study: with both opponents locked to one of
the lab's opponent models, the hero's best response in the three-handed card-level solver equals
the study's exact best response with two opponents (river and turn): one question, two
independent implementations.

The study's game with two opponents (``analysis.studies.fold_vs_check._play``, the hero first):
the hero (seat 0) folds now or checks; then the opponents in turn (seat 1, then seat 2, the
DEALER's) bet the model's fraction of the pot when their strength reaches the model's threshold,
else check; once one has bet, each other player still in (in the order of action after the
bettor) calls at or above the model's call threshold, else folds (the hero decides); nobody
raises; on later streets the hero may fold for free or check first. The same tree here:
:mod:`analysis.solvers.card_level.tree3` with the hero (player 0) without bet sizes, the
opponents (players 1 and 2, the DEALER's seat last) one bet size and no raises, the free fold
on, and every decision of both opponents locked to the model. The pot is a multiple of $30 so
that the study's three live players share it evenly, with no dead money of a pre-flop folder
(which the solver's spots do not have); the stacks are the study's ($1,000 less a third of the
pot).
"""

from __future__ import annotations

import numpy as np
import pytest

import analysis
from analysis.solvers.card_level import CardSpot, SpotError
from analysis.solvers.card_level._layout import HD_N
from analysis.solvers.card_level.card_spot import POT, BetSize, BetTree, StreetSizes
from analysis.solvers.card_level.dilemma_terminals import DilemmaTable
from analysis.solvers.card_level.locks import lock_to_model, model_table, parse_locks
from analysis.solvers.card_level.multiway import MultiwaySolver
from analysis.solvers.card_level.tree import A_BET, A_CALL, A_CHECK, A_FOLD
from analysis.solvers.card_level.tree3 import PLAYER
from analysis.studies.fold_vs_check import evaluate_spot
from analysis.studies.fold_vs_check.models import load_model
from analysis.studies.ranges import parse_range
from evaluator import parse_cards


def _model_spot3(hand: str, board: str, model, pot: int, bank: str, level: int) -> CardSpot:
    cards = tuple(parse_cards(board, "dilemma"))
    sizes = tuple((StreetSizes(), StreetSizes((BetSize(POT, model.params[s + 1][1]),), ())) for s in range(3))
    opponent = parse_range(model.range, "dilemma")
    ranges = (parse_range(hand.replace(" ", ""), "dilemma"), opponent, opponent)
    return CardSpot.of("dilemma", cards, ranges, pot, 1000 - pot // 3, BetTree(sizes, free_fold=True),
                       DilemmaTable.parse("reference", bank=bank, level=level))


def _solver(spot: CardSpot):
    if len(spot.board) == 5:
        return MultiwaySolver(spot)
    from analysis.solvers.card_level.turn3 import TurnSolver3

    return TurnSolver3(spot, "dcfr")  # (exact: every river card)


def _locked_root(solver, choice: int) -> None:
    codes = [a[0] for a in solver.tree.actions[0]]
    root = np.zeros((len(codes), 1))
    root[codes.index(choice)] = 1.0
    solver.lock(0, root)


def _study_and_solver(hand, board, model, bank, pot):
    level = 0 if bank.startswith("3") else 1
    study = evaluate_spot(hand, board=board, model=model, pot=pot, opponents=2, exact=True, compare=False,
                          bank=tuple(int(x) for x in bank.split(",")), level=level)
    assert study.manifest["method"].startswith("exact")
    solver = _solver(_model_spot3(hand, board, load_model(model), pot, bank, level))
    lock_to_model(solver, "second", model)
    lock_to_model(solver, "third", model)
    return study, solver


SPOTS = [
    ("7d 8d", "4s 9h 3d 6c 10s", "threshold", "300,700,500", 90),
    ("2s 5c", "4s 9h 3d 6c 10s", "aggressive", "300,700,500", 90),
    ("As 3c", "8h 9s 3d 6c 7h", "threshold", "0,60,500", 60),  # the bank runs short
    # the turn: the study's exact enumeration over two random opponents takes 2-5 minutes (211 s in a
    # CI rehearsal, a quarter of the suite's time): pytest --run-long
    pytest.param("10d 9d", "4s 9h 3d 6c", "threshold", "300,700,500", 90, marks=pytest.mark.long),
]


@pytest.mark.parametrize("hand, board, model, bank, pot", SPOTS)
def test_both_opponents_locked_the_best_response_equals_the_study_with_two_opponents(hand, board, model, bank, pot):
    study, solver = _study_and_solver(hand, board, model, bank, pot)
    for choice, key in ((A_FOLD, "ev_fold"), (A_CHECK, "ev_check")):
        _locked_root(solver, choice)
        assert solver.best_response_values()[0] == pytest.approx(study.row[key], abs=1e-9)


def test_the_locked_tables_play_the_model_at_every_opponent_decision():
    """Each opponent decision's table: bet or check at the root's bet threshold, call or fold at
    the call threshold, by the strength on the board (a hand-written check of the library's)."""
    from evaluator.strength import strength

    model = load_model("threshold")
    spot = _model_spot3("7d 8d", "4s 9h 3d 6c 10s", model, 90, "300,700,500", 0)
    solver = MultiwaySolver(spot)
    lock_to_model(solver, "second", "threshold")
    lock_to_model(solver, "third", "threshold")
    nodes, board = solver.tree.nodes, list(spot.board)
    bet, _, call = model.params[3]
    assert solver.locked == [int(v) for v in solver.tree.decisions if nodes[v, PLAYER] != 0]
    checked = 0
    for v in solver.locked:
        p = int(nodes[v, PLAYER])
        codes = [a[0] for a in solver.tree.actions[v]]
        table = solver.strategy(v)
        for h, c in enumerate(spot.holdings(p)[0][:60]):
            if set(map(int, c)) & set(board):
                continue
            st = strength(list(map(int, c)), board)
            if A_CALL in codes:
                assert table[codes.index(A_CALL), h] == float(st >= call)
            else:
                assert table[codes.index(A_BET), h] == float(st >= bet)
                assert table[codes.index(A_CHECK), h] == float(st < bet)
            checked += 1
    assert checked > 300


def test_locks_are_refused_with_one_clear_error():
    solver = MultiwaySolver(_model_spot3("7d 8d", "4s 9h 3d 6c 10s", load_model("threshold"), 90,
                                         "300,700,500", 0))
    with pytest.raises(SpotError, match="first, second or third"):
        lock_to_model(solver, "ip", "threshold")
    with pytest.raises(SpotError, match="first, second or third"):
        lock_to_model(solver, 3, "threshold")
    with pytest.raises(SpotError, match="not a decision"):
        solver.lock(int(solver.tree.terminals[0]), np.ones((1, 1)))
    with pytest.raises(SpotError, match="not a decision"):
        solver.lock(10**6, np.ones((1, 1)))
    n1 = int(solver.hands[HD_N][1])
    with pytest.raises(SpotError, match="actions x .* holdings"):  # the wrong shape
        solver.lock(1, np.full((2, n1 + 1), 0.5))
    with pytest.raises(SpotError, match="summing to 1"):
        solver.lock(1, np.zeros((len(solver.tree.actions[1]), n1)))
    with pytest.raises(SpotError, match="non-negative"):
        bad = np.zeros((len(solver.tree.actions[1]), n1))
        bad[0], bad[1] = 2.0, -1.0
        solver.lock(1, bad)
    assert solver.locked == []
    with pytest.raises(SpotError, match="PLAYER=MODEL, PLAYER first, second or third"):
        parse_locks("ip=threshold", 3)
    with pytest.raises(SpotError, match="PLAYER=MODEL, PLAYER oop or ip"):
        parse_locks("second=threshold", 2)
    assert parse_locks(["second=threshold", "third=abc"], 3) == {"second": "threshold", "third": "abc"}
    assert parse_locks("second=threshold; third=abc", 3) == {"second": "threshold", "third": "abc"}


def test_a_locked_solve_best_responds_and_counts_only_the_free_players_gains():
    """Both opponents locked: CFR for the hero alone converges to its exact best response (the
    study's better choice), its gain the whole NashConv. One opponent locked: its best response
    keeps the lock (no gain), NashConv is the two free players' gains."""
    study, solver = _study_and_solver("7d 8d", "4s 9h 3d 6c 10s", "threshold", "300,700,500", 90)
    best = max(study.row["ev_fold"], study.row["ev_check"])
    solver.run(target_pct=0.01, max_iterations=400)
    ev, br = solver.expected_values(), solver.best_response_values()
    assert br[0] == pytest.approx(best, abs=1e-9)  # the hero's exact best response, free everywhere
    assert br[1:] == pytest.approx(ev[1:], abs=1e-9)  # the locked players gain nothing
    assert solver.nash_conv == pytest.approx(br[0] - ev[0], abs=1e-9)
    assert -1e-9 <= best - ev[0] <= solver.nash_conv + 1e-9 and solver.nash_conv <= 0.01 * 90 / 100
    spot = _model_spot3("7d 8d, 5s 5c, Ah 9d", "4s 9h 3d 6c 10s", load_model("threshold"), 90,
                        "300,700,500", 0)
    s = analysis.solve_spot(spot, locks={"third": "threshold"}, max_iterations=10, target_pct=0.0).solver
    assert s.locked == [int(v) for v in s.tree.decisions if s.tree.nodes[v, PLAYER] == 2]
    ev, br = s.expected_values(), s.best_response_values()
    assert br[2] == pytest.approx(ev[2], abs=1e-9)
    assert s.nash_conv == pytest.approx((br - ev)[:2].sum(), abs=1e-9) and s.nash_conv > 0.0


def test_an_unlocked_solve_is_unchanged_by_a_lock_elsewhere_in_another_solver():
    """The kernels' unlocked path: a solver with a lock and one without run the same code; the
    unlocked one's numbers match a fresh solve bit for bit (the lock column is per tree)."""
    spot = _model_spot3("7d 8d, 5s 5c, Ah 9d", "4s 9h 3d 6c 10s", load_model("threshold"), 90,
                        "300,700,500", 0)
    a, b, c = MultiwaySolver(spot), MultiwaySolver(spot), MultiwaySolver(spot)
    lock_to_model(c, "second", "threshold")
    for s in (a, c, b):
        s.step(20)
    assert a.nash_conv == b.nash_conv and (a.expected_values() == b.expected_values()).all()
    assert all((x == y).all() for x, y in zip(a.sums, b.sums, strict=True))
    assert c.nash_conv != a.nash_conv
    table = model_table(c, c.locked[0], load_model("threshold"))
    assert np.allclose(c.strategy(c.locked[0]), table)  # still the lock after 20 iterations


def test_a_locked_solution_file_reloads_locked(tmp_path):
    from analysis.solvers.card_level import load_solution

    spot = _model_spot3("7d 8d, 5s 5c", "4s 9h 3d 6c 10s", load_model("threshold"), 90, "300,700,500", 0)
    solution = analysis.solve_spot(spot, locks={"second": "threshold", "third": "abc"}, max_iterations=20,
                                   target_pct=0.0)
    path = solution.save(tmp_path / "locked.npz")
    back = load_solution(path)
    assert back.solver.locked == solution.solver.locked and back.solver.locked
    assert back.locks == solution.locks == {"second": "threshold", "third": "abc"}
    assert back.exploitability == solution.exploitability
    back.solver.step(5)
    solution.solver.step(5)
    assert back.exploitability == solution.exploitability
    for v in back.solver.locked:
        assert (back.solver.strategy(v) == solution.solver.strategy(v)).all()
