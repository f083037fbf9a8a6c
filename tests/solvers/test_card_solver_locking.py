"""Node locking against the fold-vs-check study: with the opponent locked to one of the lab's
opponent models, the hero's best response in the card-level solver equals the study's exact
best response (river and turn, one opponent): one question, two independent implementations.

The study's game (``analysis.studies.fold_vs_check._play``): the hero acts first and never
bets; at its decision it folds now or checks; the opponent then bets the model's fraction of
the pot (at least the big blind, in $10 steps) when its strength (the share of unseen holdings
it beats on the board so far) reaches the model's threshold, else checks; facing a bet the
hero folds or calls; on later streets the hero may fold for free or check first. The same
tree here: the hero has no bet sizes, the opponent one bet size and no raises, the free fold
on, and the opponent's every decision locked to the model. With the hero last (issue 19) the
opponent is oop, locked at the root too, and the study's spot is the branch where it checked.
"""

from __future__ import annotations

import numpy as np
import pytest

import analysis
from analysis.solvers.card_level import CardSolver, CardSpot
from analysis.solvers.card_level.card_spot import POT, BetSize, BetTree, StreetSizes
from analysis.solvers.card_level.dilemma_terminals import DilemmaTable
from analysis.solvers.card_level.locks import lock_to_model, parse_locks
from analysis.solvers.card_level.tree import A_BET, A_CHECK, A_FOLD
from analysis.studies.fold_vs_check import evaluate_spot
from analysis.studies.fold_vs_check.models import load_model
from analysis.studies.ranges import parse_range
from evaluator import parse_cards


def _model_spot(hand: str, board: str, model, pot: int, bank: str) -> CardSpot:
    cards = tuple(parse_cards(board, "dilemma"))
    sizes = tuple((StreetSizes(), StreetSizes((BetSize(POT, model.params[s + 1][1]),), ())) for s in range(3))
    ranges = (parse_range(hand.replace(" ", ""), "dilemma"), parse_range(model.range, "dilemma"))
    return CardSpot.of("dilemma", cards, ranges, pot, 1000 - pot // 2, BetTree(sizes, free_fold=True),
                DilemmaTable.parse("reference", bank=bank))


@pytest.mark.parametrize("hand, board, model, bank, pot", [
    ("7d 8d", "4s 9h 3d 6c 10s", "threshold", "300,700,500", 40),
    ("2s 5c", "4s 9h 3d 6c 10s", "aggressive", "300,700,500", 40),
    ("As 3c", "8h 9s 3d 6c 7h", "threshold", "0,60,500", 60),  # the bank runs short
    ("10d 9d", "4s 9h 3d 6c", "threshold", "300,700,500", 40),
    ("5d 5c", "7s 9h 2d Ac", "aggressive", "0,40,500", 100),
])
def test_locked_to_a_model_the_best_response_equals_the_fold_vs_check_study(hand, board, model, bank, pot):
    study = evaluate_spot(hand, board=board, model=model, pot=pot, exact=True, compare=False,
                          bank=tuple(int(x) for x in bank.split(",")), level=0 if bank.startswith("3") else 1)
    assert study.manifest["method"].startswith("exact")
    solver = CardSolver(_model_spot(hand, board, load_model(model), pot, bank), isomorphism=False)
    lock_to_model(solver, "ip", model)
    actions = [a[0] for a in solver.tree.actions[0]]
    for choice, key in ((A_FOLD, "ev_fold"), (A_CHECK, "ev_check")):
        root = np.zeros((len(actions), 1))
        root[actions.index(choice)] = 1.0
        solver.lock(0, root)
        assert solver.best_response_values()[0] == pytest.approx(study.row[key], abs=1e-9)


def test_a_hand_written_strength_table_equals_the_library_lock():
    """The library's model tables against strengths computed one holding at a time."""
    from evaluator.strength import strength

    solver = CardSolver(_model_spot("7d 8d", "4s 9h 3d 6c", load_model("threshold"), 40, "300,700,500"),
                        isomorphism=False)
    model = lock_to_model(solver, "ip", "threshold")
    nodes = solver.tree.nodes
    combos = solver.spot.holdings(1)[0]
    checked = 0
    for v in solver.locked[:6]:
        board = list(solver.spot.board) + [int(c) for c in nodes[v, [8, 9]] if c >= 0]
        bet = model.params[len(board) - 2][0]
        table = solver.strategy(v)
        codes = [a[0] for a in solver.tree.actions[int(np.searchsorted(solver.tree.decision_nodes, v))]]
        for h, c in enumerate(combos[:40]):
            if set(map(int, c)) & set(board):
                continue
            st = strength(list(map(int, c)), board)
            assert table[codes.index(A_BET), h] == float(st >= bet)
            assert table[codes.index(A_CHECK), h] == float(st < bet)
            checked += 1
    assert checked > 100


def test_locks_are_refused_with_one_clear_error():
    from analysis.solvers.card_level import SpotError

    solver = CardSolver(_model_spot("7d 8d", "4s 9h 3d 6c 10s", load_model("threshold"), 40, "300,700,500"),
                        isomorphism=False)
    with pytest.raises(SpotError, match="oop or ip"):
        lock_to_model(solver, "hero", "threshold")
    with pytest.raises(SpotError, match="PLAYER=MODEL"):
        parse_locks("ip:threshold")
    assert parse_locks("oop=passive, ip=threshold") == {"oop": "passive", "ip": "threshold"}
    solution = analysis.solve_spot(solver.spot, locks={"ip": "threshold"}, max_iterations=5)
    ip_nodes = [int(v) for v in solver.tree.decision_nodes if solver.tree.nodes[v, 1] == 1]
    assert solution.solver.locked == ip_nodes and ip_nodes  # every decision of ip, by the model's name


def _child(solver: CardSolver, node: int, action: int) -> int:
    """The child of decision ``node`` reached by ``action`` (children follow each other in the
    node table: the next one starts at the previous one's END)."""
    from analysis.solvers.card_level.tree import END, FIRST

    nodes = solver.tree.nodes
    codes = [a[0] for a in solver.tree.actions[int(np.searchsorted(solver.tree.decision_nodes, node))]]
    child = int(nodes[node, FIRST])
    for _ in range(codes.index(action)):
        child = int(nodes[child, END])
    return child


@pytest.mark.parametrize("hand, board, model, pot", [
    ("10d 9d", "4s 9h 3d 6c", "threshold", 40),
    ("5d 5c", "7s 9h 2d Ac", "aggressive", 100),
])
def test_acting_last_the_best_response_equals_the_study_after_the_opponents_check(hand, board, model, pot):
    """The hero last (ip), the opponent first (oop) locked to the model, which checks at the
    root with the holdings below its bet threshold and bets the rest. Locking the hero's node
    after that check to fold, then to check, changes the hero's value only on the check
    branch: by P(check) x (the study's EV(check) - EV(fold)) of the spot with the hero last,
    whose deals are those where the opponent checks."""
    from evaluator.strength import holding_strengths

    study = evaluate_spot(hand, board=board, model=model, pot=pot, exact=True, compare=False,
                          position="last")
    assert study.manifest["method"].startswith("exact") and study.manifest["position"] == "last"
    loaded = load_model(model)
    sizes = tuple((StreetSizes((BetSize(POT, loaded.params[s + 1][1]),), ()), StreetSizes())
                  for s in range(3))
    cards = tuple(parse_cards(board, "dilemma"))
    ranges = (parse_range(loaded.range, "dilemma"), parse_range(hand.replace(" ", ""), "dilemma"))
    spot = CardSpot.of("dilemma", cards, ranges, pot, 1000 - pot // 2, BetTree(sizes, free_fold=True),
                       DilemmaTable.parse("reference", bank="300,700,500"))
    solver = CardSolver(spot, isomorphism=False)
    lock_to_model(solver, "oop", model)
    after_check = _child(solver, 0, A_CHECK)
    assert solver.tree.nodes[after_check, 1] == 1  # the hero's decision
    values = {}
    for choice in (A_FOLD, A_CHECK):
        codes = [a[0] for a in solver.tree.actions[int(np.searchsorted(solver.tree.decision_nodes,
                                                                       after_check))]]
        lock = np.zeros((len(codes), 1))
        lock[codes.index(choice)] = 1.0
        solver.lock(after_check, lock)
        values[choice] = solver.best_response_values()[1]
    hero = set(parse_cards(hand, "dilemma"))
    combos = [c for c in spot.holdings(0)[0] if not set(map(int, c)) & (hero | set(cards))]
    strengths = holding_strengths(np.array(combos), list(cards))
    p_check = float(np.mean(strengths < loaded.params[len(cards) - 2][0]))
    assert 0.2 < p_check < 1.0
    assert values[A_CHECK] - values[A_FOLD] == pytest.approx(
        p_check * (study.row["ev_check"] - study.row["ev_fold"]), abs=1e-9)
