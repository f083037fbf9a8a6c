"""The card-level solver on Dilemma Hold'em: terminal values from the real settlement.

Values and best responses per holding equal the plain-Python reference, which settles
every pair of holdings at every terminal with the readable referee (reference deck
with effect cards in the hands and on the board, a bank that runs short, short
stacks, a rule option); the payoff tables equal the referee; the bare deck equals
Texas Hold'em rules on 40 cards; NashConv falls.
"""

from __future__ import annotations

import numpy as np
import pytest

from analysis.solvers.card_level import CardSolver, CardSpot, SpotError
from analysis.solvers.card_level import _kernels as K
from analysis.solvers.card_level._layout import IS_WORK
from analysis.solvers.card_level._payoffs import SD_LOSE_MINUS_TIE, SD_TIE, SD_WIN_MINUS_TIE
from analysis.solvers.card_level.dilemma_terminals import holding_classes
from analysis.solvers.card_level.tree import (
    A_CHECK,
    A_FOLD,
    COUNT,
    DECISION,
    FOLD,
    KIND,
    PLAYER,
    action_tree,
)
from tests.reference.card_solver import (
    assert_matches_reference,
    dilemma_payoff,
)

# green cards in the hands (As/Ah dividend, 2s/2h insurance), overlapping ranges
OOP = "AsAh, AsAd, 9d9c, 2s2h, 2s3c, 8d7d, 4d4c"
IP = "AhAd, 9d9c, 2h3d, 5d5c, 10d10c, 3c3d"


def _strategies(solver: CardSolver) -> dict[int, np.ndarray]:
    nodes = solver.tree.nodes
    return {int(v): solver.strategy(int(v)) for v in np.flatnonzero(nodes[:, KIND] == DECISION)}




@pytest.mark.parametrize("board, options, iterations", [
    # crash (red, river) and rebate on the board; full bank
    ("4s9h8h6c10s", {}, 5),
    # levy, subsidy, bubble on the river; bank short of the bonus; short stacks (bankruptcy)
    ("8s9s3d6c10h", {"bank": "0,0,60", "stack": 50}, 4),
    # boom, windfall on the river; the folder's green cards act (rule option)
    ("7s9h3d6cAd", {"rules": ["green_effects_for=all_dealt"], "bank": "0,150,500"}, 6),
    # rebate with the folder's insurance acting: the winner's payoff at a fold depends on the
    # folder's class (more than one group of classes at a fold)
    ("4s9h8h6c10s", {"rules": ["green_effects_for=all_dealt"]}, 5),
])
def test_river_values_equal_the_referee_pair_by_pair(board, options, iterations):
    stack = options.pop("stack", 200)
    spot = CardSpot.dilemma(board, OOP, IP, 40, stack, "100%, a", "a", **options)
    solver = CardSolver(spot)
    solver.step(iterations)
    if options.get("rules") and "8h" in board:
        assert solver.tables.fold_groups[..., -1].max() > 1
    assert_matches_reference(solver)


def test_turn_values_equal_the_referee_pair_by_pair():
    # slump on the board; every river card dealt (red cards act from the river), bank caps
    spot = CardSpot.dilemma("7h9h3d6c", "AsAd, 2s2h, 8d7d, 4d4c", "AhAd, 2h3d, 5d5c, 3c3d", 40, 120, "100%", "",
                        bank="0,40,500")
    solver = CardSolver(spot)
    solver.step(3)
    assert_matches_reference(solver)


def test_payoff_tables_equal_the_referee():
    spot = CardSpot.dilemma("8h9s3d6c10h", OOP, IP, 60, 100, "100%, a", "a", bank="0,30,500")
    solver = CardSolver(spot)
    t, tree = solver.tables, solver.tree
    combos = [spot.holdings(p)[0] for p in range(2)]
    classes, _, signatures = holding_classes(spot.table.deck, combos)
    assert len(signatures) == t.n_classes >= 4  # none, dividend, two dividends, insurance...
    for f, (d0, d1, amount, folder) in enumerate(tree.fold_keys):
        assert d0 < 0 and d1 < 0  # a river spot
        for i, a in enumerate(combos[0]):
            for j, b in enumerate(combos[1]):
                if set(map(int, a)) & set(map(int, b)):
                    continue
                pays = dilemma_payoff(spot, FOLD, int(folder), int(amount), spot.board, (a, b))
                assert t.fold_tab[f, 0, classes[0][i], classes[1][j]] == pays[0]
                assert t.fold_tab[f, 1, classes[1][j], classes[0][i]] == pays[1]
    from analysis.solvers.card_level.tree import SHOWDOWN
    from evaluator import evaluate

    for s, (_, _, amount) in enumerate(tree.showdown_keys):
        for i, a in enumerate(combos[0]):
            for j, b in enumerate(combos[1]):
                if set(map(int, a)) & set(map(int, b)):
                    continue
                pays = dilemma_payoff(spot, SHOWDOWN, -1, int(amount), spot.board, (a, b))
                sa = evaluate([*map(int, a), *spot.board], "dilemma")
                sb = evaluate([*map(int, b), *spot.board], "dilemma")
                ka, kb = classes[0][i], classes[1][j]
                row0 = t.showdown_tab[s, 0, :, ka, kb]
                row1 = t.showdown_tab[s, 1, :, kb, ka]
                extra0 = row0[SD_WIN_MINUS_TIE] if sa > sb else row0[SD_LOSE_MINUS_TIE] if sa < sb else 0.0
                extra1 = row1[SD_WIN_MINUS_TIE] if sb > sa else row1[SD_LOSE_MINUS_TIE] if sb < sa else 0.0
                assert row0[SD_TIE] + extra0 == pays[0]
                assert row1[SD_TIE] + extra1 == pays[1]


def test_free_fold_is_a_tree_option():
    spot = CardSpot.dilemma("4s9h3d6c10s", OOP, IP, 40, 200, "100%", "")
    root = action_tree(spot)
    assert root.actions[:2] == [(A_FOLD, 0), (A_CHECK, 0)]
    assert root.children[2].actions[:1] == [(A_FOLD, 0)]  # facing a bet: fold as usual
    assert root.children[1].actions[:2] == [(A_FOLD, 0), (A_CHECK, 0)]  # after a check
    no_free = CardSpot.dilemma("4s9h3d6c10s", OOP, IP, 40, 200, "100%", "", free_fold=False)
    assert action_tree(no_free).actions[0] == (A_CHECK, 0)


def test_amounts_are_ten_dollar_units_and_the_smallest_bet_is_the_big_blind():
    spot = CardSpot.dilemma("4s9h3d6c10s", OOP, IP, 40, 980, "33%, 75%", "2.5x")
    root = action_tree(spot)
    assert [a for a in root.actions if a[0] > A_CHECK] == [(4, 20), (4, 30)]  # 13.2 -> min bet 20; 30
    level2 = CardSpot.dilemma("4s9h3d6c10s", OOP, IP, 40, 980, "33%", "", bank="0,0,500")
    assert [a for a in action_tree(level2).actions if a[0] > A_CHECK] == [(4, 60)]  # big blind 60
    with pytest.raises(SpotError, match="multiple of 20"):
        CardSpot.dilemma("4s9h3d6c10s", OOP, IP, 50, 980)


def test_bare_deck_equals_texas_rules_on_forty_cards():
    """Dilemma on the bare deck (no corners, no effects) pays exactly the pot: the same tree
    (no free fold; amounts already $10 units) gives the same values as Texas Hold'em rules."""
    board, oop, ip = "10d9d6hAc2s", "AA, 99, 108s, 76s", "A10s, 88, 65s, 2h2d"
    dilemma = CardSolver(CardSpot.dilemma(board, oop, ip, 60, 200, "100%", "", deck="bare", free_fold=False))
    texas = CardSolver(CardSpot.holdem(board, oop, ip, 60, 200, "100%", "", deck="dilemma"))
    assert dilemma.tree.actions == texas.tree.actions
    for solver in (dilemma, texas):
        solver.step(20)
    for mode in (K.MODE_EV, K.MODE_BR):
        np.testing.assert_allclose(dilemma.root_values(mode), texas.root_values(mode), rtol=0, atol=1e-9)
    np.testing.assert_allclose(dilemma.expected_values(), texas.expected_values(), atol=1e-9)
    assert dilemma.nash_conv == pytest.approx(2 * texas.exploitability, abs=1e-9)


def test_nash_conv_falls_on_a_dilemma_river_spot():
    solver = CardSolver(CardSpot.dilemma("4s9h8h6c10s", OOP, IP, 40, 200, "100%, a", "a"))
    start = solver.exploitability
    solver.run(target_pct=0.1, max_iterations=3000)
    assert start > 10.0
    assert solver.exploitability_measure == "mean best-response gain (NashConv / 2)"
    assert solver.exploitability <= 0.001 * 40
    gains = solver.best_response_values() - solver.expected_values()
    assert solver.nash_conv == pytest.approx(gains.sum(), abs=1e-12)
    assert solver.exploitability == pytest.approx(gains.sum() / 2, abs=1e-12)


def test_fold_or_check_answers():
    """Bare deck: checking never costs anything, so no holding folds for free (ties at most).
    Reference deck on the turn, no bets (check or fold only): a hand drawing dead against quads
    folds for free (checking takes it to the river, which adds penalty and may add a red effect)."""
    from analysis.solvers.card_level import SpotSolution

    bare = CardSolver(CardSpot.dilemma("10d9d6hAc", "AA, 99, 54s, 3c2d", "A10s, 88, 65s", 60, 200, "100%", "",
                                   deck="bare"))
    bare.run(target_pct=0.1, max_iterations=2000)
    answers = SpotSolution(bare).fold_or_check()
    assert "folds for free" not in set(answers["answer"])
    assert (answers["fold_minus_check"].dropna() <= SpotSolution(bare).tolerance).all()
    ref = CardSolver(CardSpot.dilemma("4c4d4h9s", "3c2c, 10d10c", "4s9d", 40, 200, "", ""))
    ref.run(target_pct=0.1, max_iterations=2000)
    solution = SpotSolution(ref)
    root = solution.fold_or_check([()]).set_index("holding")
    assert root.loc["3c2c", "answer"] == "folds for free"
    assert root.loc["3c2c", "regret_fold"] == pytest.approx(0.0, abs=solution.tolerance)
    assert root.loc["3c2c", "regret_check"] > solution.tolerance


def test_node_locking():
    """A locked node keeps its strategy; values and best responses (which keep the locks) equal
    the reference; with one player locked everywhere the other's CFR converges to its best
    response (its gain falls to a small fraction of the pot)."""
    spot = CardSpot.dilemma("4s9h8h6c10s", OOP, IP, 40, 200, "100%, a", "a")
    solver = CardSolver(spot, isomorphism=False)
    nodes = solver.tree.nodes

    def passive(v: int) -> np.ndarray:  # check when nobody has bet, else call
        labels = [a[0] for a in solver.tree.actions[int(np.searchsorted(solver.tree.decision_nodes, v))]]
        table = np.zeros((len(labels), int(solver.tables.n_hands[int(nodes[v, 1])])))
        table[labels.index(A_CHECK) if A_CHECK in labels else labels.index(3)] = 1.0
        return table

    solver.lock_everywhere(1, passive)
    assert solver.locked and all(nodes[v, 1] == 1 for v in solver.locked)
    solver.step(7)
    for v in solver.locked:
        np.testing.assert_array_equal(solver.strategy(v), passive(v))
    assert_matches_reference(solver, locked=frozenset(solver.locked))
    solver.run(target_pct=0.05, max_iterations=3000)
    br, ev = solver.best_response_values(), solver.expected_values()
    assert br[1] == pytest.approx(ev[1], abs=1e-9)  # the locked player keeps its strategy
    assert br[0] - ev[0] <= 0.0005 * 40
    symmetric = CardSolver(CardSpot.dilemma("4s4h3s3h", "AA", "99", 40, 200, "100%", "", deck="bare"))
    with pytest.raises(SpotError, match="isomorphism=False"):
        symmetric.lock(0, np.full((3, 6), 1 / 3))


def test_same_numbers_on_one_and_two_threads():
    import numba

    before = numba.get_num_threads()
    results = []
    try:
        for threads in (1, 2):
            numba.set_num_threads(threads)
            solver = CardSolver(CardSpot.dilemma("7h9h3d6c", "AsAd, 2s2h, 8d7d, 4d4c", "AhAd, 2h3d, 5d5c, 3c3d",
                                             40, 120, "100%", "", bank="0,40,500"))
            solver.step(6)
            results.append((solver.regrets, solver.sums, solver.root_values(K.MODE_BR)))
    finally:
        numba.set_num_threads(before)
    (r1, s1, b1), (r2, s2, b2) = results
    for a, b in zip(r1 + s1, r2 + s2, strict=True):
        assert np.array_equal(a, b)
    assert np.array_equal(b1, b2)


def test_bare_deck_flop_isomorphism_keeps_the_values():
    """The bare deck keeps suit swaps: below a turn card the swap fixes, river cards mirror
    (``ISO``) and the values equal the solve without isomorphism (before rounding noise at zero
    regrets flips regret matching, as in the Texas flop test)."""
    from analysis.solvers.card_level.tree import ISO

    spot = CardSpot.dilemma("10d9d6h", "AA, 88, 109s, 76s, A5s", "55, 44, A5s, 98s, 87s", 40, 60, "100%", "",
                        deck="bare")
    full, iso = CardSolver(spot, isomorphism=False), CardSolver(spot)
    assert (iso.tree.nodes[:, ISO] < 0).sum() > 0 and (full.tree.nodes[:, ISO] == 0).all()
    assert iso.tree.storage[0] < full.tree.storage[0]
    for solver in (full, iso):
        solver.step(2)
    for mode in (K.MODE_EV, K.MODE_BR):
        np.testing.assert_allclose(full.root_values(mode), iso.root_values(mode), rtol=0, atol=1e-12)


@pytest.mark.parametrize("deck", ["reference", "bare"])
def test_check_walk_equals_the_best_response_and_average_walks(deck):
    """The exploitability check's single walk per player (best response and average-strategy
    values together) gives the rows of the two separate walks bit for bit: with tasks, suit
    isomorphism (bare deck: spades and hearts swap) and a locked node."""
    if deck == "bare":
        spot = CardSpot.dilemma("4s4h3s3h", "AA, 99, 65s", "99, 88, 76s", 40, 200, "100%, a", "a", deck="bare")
        solver = CardSolver(spot)
        assert len(solver._iso[IS_WORK]) < len(solver.tree.tasks)  # some tasks are mirrored
    else:
        spot = CardSpot.dilemma("7h9h3d6c", "AsAd, 2s2h, 8d7d, 4d4c", "AhAd, 2h3d, 5d5c, 3c3d", 40, 200,
                            "100%, a", "a")
        solver = CardSolver(spot, isomorphism=False)
        v = int(solver.tree.decision_nodes[1])
        k = int(solver.tree.nodes[v, COUNT])
        n = int(solver.tables.n_hands[int(solver.tree.nodes[v, PLAYER])])
        solver.lock(v, np.full((k, n), 1.0 / k))
    assert not spot.zero_sum and len(solver.tree.tasks) > 0
    solver.step(7)
    best, average = solver.check_values()
    br, ev = solver.root_values(K.MODE_BR), solver.root_values(K.MODE_EV)
    for p in range(2):  # (entries beyond a player's holdings are scratch)
        n = int(solver.tables.n_hands[p])
        assert np.array_equal(best[p, :n], br[p, :n])
        assert np.array_equal(average[p, :n], ev[p, :n])
    gains = solver.best_response_values() - solver.expected_values()
    assert solver.exploitability == float(gains.sum() / 2.0)
    assert solver.exploitability > 0.0
