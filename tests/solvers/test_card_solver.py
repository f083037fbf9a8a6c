"""The card-level solver against the plain-Python pairwise reference: tree rules, values and best
responses per holding (river and turn, overlapping ranges), DCFR discounts, convergence, and
the same numbers on 1 and 2 threads."""

from __future__ import annotations

import numba
import numpy as np
import pytest

from analysis.solvers.card_level import BetTree, CardSolver, CardSpot, SpotError
from analysis.solvers.card_level import _kernels as K
from analysis.solvers.card_level._layout import IS_WORK
from analysis.solvers.card_level.tree import (
    A_ALLIN,
    A_BET,
    A_CALL,
    A_CHECK,
    A_FOLD,
    A_RAISE,
    COUNT,
    DECISION,
    END,
    ISO,
    KIND,
    PLAYER,
    SLOT,
    action_tree,
)
from tests.reference.card_solver import (
    assert_matches_reference,
    counterfactual_values,
    dcfr_coefficients,
)

# small ranges that share holdings (AKs is in both) so card removal matters
OOP, IP = "AA, KK, T9s, 76s, AKs", "QQ, JJ, AKs, 98s"


def _strategies(solver: CardSolver) -> dict[int, np.ndarray]:
    nodes = solver.tree.nodes
    return {int(v): solver.strategy(int(v)) for v in np.flatnonzero(nodes[:, KIND] == DECISION)}


def test_tree_follows_postflop_solver_rules():
    spot = CardSpot.holdem("Td9d6hQc2s", OOP, IP, 200, 900)
    root = action_tree(spot)
    assert root.actions == [(A_CHECK, 0), (A_BET, 100), (A_ALLIN, 900)]
    # facing 100: pot after the call 400, a pot raise to 100 + 400
    assert root.children[1].actions == [(A_FOLD, 0), (A_CALL, 0), (A_RAISE, 500)]
    # facing the raise to 500: a pot raise (500 + 1200) is clamped to the stack, i.e. all-in
    assert root.children[1].children[2].actions == [(A_FOLD, 0), (A_CALL, 0), (A_ALLIN, 900)]
    # an all-in can only be called or folded
    assert root.children[2].actions == [(A_FOLD, 0), (A_CALL, 0)]


def test_raise_cap_and_thresholds():
    capped = CardSpot.of("holdem", CardSpot.holdem("Td9d6hQc2s", OOP, IP, 200, 900).board,
                     CardSpot.holdem("Td9d6hQc2s", OOP, IP, 200, 900).ranges, 200, 900,
                     BetTree.uniform("50%", "100%", raise_cap=1))
    root = action_tree(capped)
    assert root.children[1].actions == [(A_FOLD, 0), (A_CALL, 0)]
    forced = CardSpot.holdem("Td9d6hQc2s", OOP, IP, 200, 900, "50%", "100%", force_allin_threshold=5.0)
    assert action_tree(forced).actions == [(A_CHECK, 0), (A_ALLIN, 900)]
    added = CardSpot.holdem("Td9d6hQc2s", OOP, IP, 200, 150, "50%", "", add_allin_threshold=1.0)
    assert action_tree(added).actions == [(A_CHECK, 0), (A_BET, 100), (A_ALLIN, 150)]


@pytest.mark.parametrize("board, method, iterations", [
    ("Td9d6hQc2s", "dcfr", 0), ("Td9d6hQc2s", "dcfr", 7), ("Td9d6hQc2s", "cfr+", 5),
    ("Td9d6hQc", "dcfr", 3), ("Td9d6hQc", "cfr+", 2),
])
def test_values_and_best_responses_equal_the_pairwise_reference(board, method, iterations):
    solver = CardSolver(CardSpot.holdem(board, OOP, IP, 200, 900), method)
    solver.step(iterations) if iterations else None
    assert_matches_reference(solver)
    ev = solver.expected_values()
    assert ev.sum() == pytest.approx(200.0)


def test_lines_the_opponent_never_takes_are_worth_zero_and_match_the_reference():
    """The walk skips the terminals below a node the opponent reaches with none of its holdings
    (the turn's river-card tasks too): locked to check at the root, the small blind never bets,
    so the big blind's values there are 0, and every value still equals the pairwise reference."""
    solver = CardSolver(CardSpot.holdem("Td9d6hQc", OOP, IP, 200, 900), isomorphism=False)
    n0 = int(solver.tables.n_hands[0])
    solver.lock(0, np.vstack([np.ones(n0), np.zeros((2, n0))]))  # check, bet 100, all-in: always check
    solver.step(4)
    assert_matches_reference(solver, locked=frozenset(solver.locked))
    nodes = solver.tree.nodes
    bet = int(nodes[1, END])  # the root's second child (preorder): the big blind facing the bet
    assert nodes[bet, KIND] == DECISION and nodes[bet, PLAYER] == 1
    assert not solver.strategy(0)[1:].any()  # the lock holds: nobody reaches the bet


def _regret_matching(regrets: np.ndarray) -> np.ndarray:
    """float32[k, n] regrets to float64 frequencies as :func:`K.strategy_into` forms them (the
    total summed in action order; 1/k where no regret is positive)."""
    x = np.maximum(regrets.astype(np.float64), 0.0)
    total = np.zeros(regrets.shape[1])
    for a in range(regrets.shape[0]):
        total += x[a]
    return np.where(total > 0.0, x / np.where(total > 0.0, total, 1.0), 1.0 / regrets.shape[0])


def test_the_traversers_updates_run_below_a_line_the_opponent_never_takes():
    """Below the small blind's bet, locked away after 5 free iterations, the big blind's gains are 0,
    yet its updates run: regrets only decay (alpha, beta) and sums take gamma plus regret matching."""
    solver = CardSolver(CardSpot.holdem("Td9d6hQc", OOP, IP, 200, 900), isomorphism=False)
    solver.step(5)
    n0, n1 = int(solver.tables.n_hands[0]), int(solver.tables.n_hands[1])
    solver.lock(0, np.vstack([np.ones(n0), np.zeros((2, n0))]))
    nodes = solver.tree.nodes
    bet = int(nodes[1, END])
    rows = [(int(nodes[v, SLOT]), int(nodes[v, COUNT])) for v in range(bet, int(nodes[bet, END]))
            if nodes[v, KIND] == DECISION and nodes[v, PLAYER] == 1]
    assert len(rows) > 10
    coefs = np.zeros(K.N_COEFS)
    for t in range(5, 9):
        before = [(solver.regrets[1][s : s + k * n1].reshape(k, n1).copy(),
                   solver.sums[1][s : s + k * n1].reshape(k, n1).copy()) for s, k in rows]
        assert any((r != 0).any() for r, _ in before)
        solver.step(1)
        K.dcfr_coefs(t, coefs)
        alpha, beta, gamma = coefs[K.C_ALPHA], coefs[K.C_BETA], coefs[K.C_GAMMA]
        for (s, k), (r, c) in zip(rows, before, strict=True):
            r64 = r.astype(np.float64)
            want_r = (r64 * np.where(r64 >= 0.0, alpha, beta) + 0.0).astype(np.float32)
            want_c = (c.astype(np.float64) * gamma + _regret_matching(r)).astype(np.float32)
            assert np.array_equal(solver.regrets[1][s : s + k * n1].reshape(k, n1), want_r)
            assert np.array_equal(solver.sums[1][s : s + k * n1].reshape(k, n1), want_c)


@pytest.mark.parametrize("isomorphism", [False, True])
def test_a_river_card_that_blocks_every_opponent_holding_is_worth_zero(isomorphism):
    """The big blind holds only Ah-x: on the Ah river (a task of the turn spot) the small blind's
    walk starts from an all-zero reach row; every value still equals the pairwise reference."""
    solver = CardSolver(CardSpot.holdem("Td9d6hQc", "AA, KK, T9s, 76s", "AhKh, AhJh", 200, 900),
                        isomorphism=isomorphism)
    solver.step(3)
    assert_matches_reference(solver)


def test_dcfr_discounts_are_postflop_solvers():
    coefs = np.zeros(K.N_COEFS)
    for t in range(300):
        K.dcfr_coefs(t, coefs)
        assert (coefs[K.C_ALPHA], coefs[K.C_BETA], coefs[K.C_GAMMA]) == pytest.approx(dcfr_coefficients(t))
    K.dcfr_coefs(16, coefs)
    assert coefs[K.C_GAMMA] == 0.0  # the average restarts at powers of 4


@pytest.mark.parametrize("method", ["dcfr", "cfr+"])
def test_exploitability_falls_to_a_small_fraction_of_the_pot(method):
    solver = CardSolver(CardSpot.holdem("Td9d6hQc2s", OOP, IP, 200, 900), method)
    start = solver.exploitability
    solver.run(target_pct=0.05, max_iterations=2000)
    assert start > 5.0
    assert solver.exploitability_pct <= 0.05
    assert solver.history[-1][0] == solver.iterations


def test_same_numbers_on_one_and_two_threads():
    before = numba.get_num_threads()
    results = []
    try:
        for threads in (1, 2):
            numba.set_num_threads(threads)
            solver = CardSolver(CardSpot.holdem("Td9d6hQc", OOP, IP, 200, 900))
            solver.step(6)
            results.append((solver.regrets, solver.sums, solver.root_values(K.MODE_BR)))
    finally:
        numba.set_num_threads(before)
    (r1, s1, b1), (r2, s2, b2) = results
    for a, b in zip(r1 + s1, r2 + s2, strict=True):
        assert np.array_equal(a, b)
    assert np.array_equal(b1, b2)


@pytest.mark.parametrize("args, match", [
    (("Td9d6h2", OOP, IP, 200, 900), "malformed card"),
    (("Td9d6hQc2s", OOP, IP, 200, 900, "50x"), "multiple of the last bet"),
    (("Td9d6hQc2s", OOP, IP, 0, 900), "pot must be positive"),
    (("Td9d6hQc2s", "TdTh", IP, 200, 900), "no holding left"),
    (("Td9d", OOP, IP, 200, 900), "3, 4 or 5 cards"),
])
def test_bad_spots_are_one_error(args, match):
    with pytest.raises(SpotError, match=match):
        CardSpot.holdem(*args)


@pytest.mark.parametrize("board", ["10d9d6hAc2s", "10d9d6hAc"])
def test_the_forty_card_deck_equals_the_pairwise_reference(board):
    spot = CardSpot.holdem(board, "AA, 99, 108s, 76s", "A10s, 88, 65s, 2h2d", 60, 200, "100%", "", deck="dilemma")
    solver = CardSolver(spot)
    solver.step(4)
    strategies = _strategies(solver)
    values = solver.root_values(K.MODE_BR)
    for p in range(2):
        ref = counterfactual_values(solver, strategies, p, best_response=True)
        np.testing.assert_allclose(values[p, : solver.tables.n_hands[p]], ref, rtol=0, atol=1e-9)


def test_suit_isomorphism_skips_mirror_turn_cards_and_keeps_the_values():
    # small ranges (16 and 13 holdings): the claim is about the tree and the values, and each
    # iteration of this flop spot costs in proportion to the holdings
    spot = CardSpot.holdem("Td9d6h", "AA, T9s, 76s, AKs", "QQ, AKs, 98s", 200, 300, "100%", "")  # 300 behind: 40% fewer nodes
    full, iso = CardSolver(spot, isomorphism=False), CardSolver(spot)
    assert len(iso._iso[IS_WORK]) < len(full._iso[IS_WORK]) == len(full.tree.tasks)  # spades and clubs mirror
    # below a heart or diamond turn card, the club river cards mirror the spades (ISO)
    assert (full.tree.nodes[:, ISO] == 0).all() and (iso.tree.nodes[:, ISO] < 0).sum() > 0
    assert iso.tree.storage[0] < full.tree.storage[0]
    for solver in (full, iso):
        # two iterations (non-uniform strategies): later, rounding noise at zero regrets flips
        # regret matching between pure and uniform and sends the two apart (3 with DCFR)
        solver.step(2)
    for mode in (K.MODE_EV, K.MODE_BR):
        np.testing.assert_allclose(full.root_values(mode), iso.root_values(mode), rtol=0, atol=1e-12)
    for solver in (full, iso):
        solver.run(target_pct=0.5, max_iterations=400)
    np.testing.assert_allclose(full.expected_values(), iso.expected_values(), atol=0.001 * 200)


def test_walked_nodes_are_the_nodes_a_walk_visits():
    """The count against a preorder walk that skips as the kernel does: mirrored tasks, and below a task's
    root every dealt card that a lower card stands in for (``ISO < 0``)."""
    spot = CardSpot.holdem("Td9d6h", "AA, T9s, 76s, AKs", "QQ, AKs, 98s", 200, 300, "100%", "")
    full, iso = CardSolver(spot, isomorphism=False), CardSolver(spot)
    assert full.walked_nodes == len(full.tree.nodes)
    nodes, walked = iso.tree.nodes, set(int(t) for t in iso._iso[IS_WORK])
    roots = {int(r): t for t, r in enumerate(iso.tree.tasks)}
    visited, decisions, v, task_root = 0, 0, 0, -1
    while v < len(nodes):
        if v in roots:
            task_root = v
            if roots[v] not in walked:
                v = nodes[v, END]
                continue
        elif task_root >= 0 and v < nodes[task_root, END] and nodes[v, ISO] < 0:
            v = nodes[v, END]
            continue
        visited += 1
        decisions += nodes[v, KIND] == DECISION
        v += 1
    assert iso.walked_nodes == visited < len(nodes)
    # independently: regret storage is laid out for the decisions a walk visits, and only for them
    assert decisions == ((nodes[:, KIND] == DECISION) & (nodes[:, SLOT] >= 0)).sum()
    inside = np.zeros(len(nodes), bool)
    for r in iso.tree.tasks:
        inside[r : nodes[r, END]] = True
    assert (nodes[~inside, ISO] == 0).all()  # no mirrored card above the tasks
