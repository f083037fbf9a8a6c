"""The three-handed terminal values by sorted bands (O(n x cards)) equal the plain pairs kernel (O(n^2)).

Every terminal of a tree, each player as the traverser, reach rows with zeros and uneven
weights: wide ranges (ties, card removal between three full ranges), class groups on
both opponents (hand effects that pay across players), Texas Hold'em ties, and a turn
spot's river-card arrays (holdings dead on the river card). The pairs kernel is itself
checked triple by triple against the plain-Python reference (test_card_solver3.py).
"""

from __future__ import annotations

import numpy as np
import pytest

from analysis.solvers.card_level import CardSpot
from analysis.solvers.card_level import _kernels3 as K3
from analysis.solvers.card_level._kernels import MODE_EV
from analysis.solvers.card_level._mccfr3 import _card_hands
from analysis.solvers.card_level._terminals3 import _class_groups_of, terminal_values
from analysis.solvers.card_level.multiway import MultiwaySolver
from analysis.solvers.card_level.tree3 import CARD, LIVE, PAY
from analysis.solvers.card_level.turn3 import TurnSolver3
from tests.solvers.test_card_solver3 import runs_by_threads

R0 = "AsAh, AsAd, 9d9c, 2s2h, 8d7d, 4d4c, 10s10d"
R1 = "AhAd, 9d9c, 2h3d, 5d5c, 10d10c, 3c3d, 8d7d"
R2 = "AdAc, 9d9c, 8d7d, 2s3c, 7c7s, 4d4c, 10h10c"


def _compare(tree_args, hands, pay, reach, n, rng) -> int:
    """Both kernels at every terminal for every traverser; the number of terminals with class groups."""
    grouped = 0
    for trav in range(3):
        r = reach * rng.random(reach.shape) * (rng.random(reach.shape) > 0.15)
        m = int(n[trav])
        for v in tree_args[2]:
            fast, slow = np.zeros(m), np.zeros(m)
            terminal_values(v, trav, tree_args, hands, pay, r, 1e-3, fast)
            K3._terminal_pairs(v, trav, (tree_args, hands, pay), r, 1e-3, slow, np.ones(m, np.bool_))
            np.testing.assert_allclose(fast, slow, rtol=1e-12, atol=1e-12 * max(1.0, np.abs(slow).max()))
            u, q = (trav + 1) % 3, (trav + 2) % 3
            tt = np.ascontiguousarray(np.transpose(pay[tree_args[0][v, PAY], trav], (0, 1 + trav, 1 + u, 1 + q)))
            if _class_groups_of(tt, 2)[2] > 1 and _class_groups_of(tt, 3)[2] > 1 and tree_args[0][v, LIVE] == 7:
                grouped += 1
    return grouped


@pytest.mark.parametrize("board, ranges, options", [
    ("4s9h3d6c2d", ("random", "random", "random"), {"bank": "40,700,500"}),
    ("8s9s3d6c10h", (R0, R1, R2), {"bank": "0,0,60", "stack": 50, "rules": ["green_effects_for=all_dealt"]}),
    ("Td9s6hTc2s", ("AsAh, KsQs, Tc9c, 6s6c, JdJh, 9h8h", "AdAc, KhQh, KdKc, 9h8h, 6d5d", "AhKh, KcQc, 6d6c, 9c8c"),
     {"game": "holdem"}),
])
def test_band_terminals_equal_the_pairs_kernel(board, ranges, options):
    stack = options.pop("stack", 200)
    spot = CardSpot.multiway(board, ranges, 60, stack, "a", "", free_fold=True, **options)
    solver = MultiwaySolver(spot)
    solver.step(2)
    rng = np.random.default_rng(7)
    K3.run(*solver._args(), (MODE_EV, 0, 0, 1), np.zeros((3, 0)))
    grouped = _compare(solver._tree_args, solver.hands, solver.pay, solver._work[1], solver.hands[0], rng)
    if ranges[0] == R0:
        assert grouped > 0  # hand effects paid across players: both opponents' classes in groups


def test_band_terminals_on_a_turn_spots_river_cards():
    spot = CardSpot.multiway("4s9h3d6c", ("AsAh, 9d9c, 2s2h, 8d7d, 5h5c", "AhAd, 9d9c, 5d5c, 8h7h", "AdAc, 8d7d, 7c7s, 5s5h"),
                         60, 200, "a", "", bank="0,40,500")
    solver = TurnSolver3(spot, "dcfr")
    rng = np.random.default_rng(3)
    reach = rng.random((solver.tree.nodes.shape[0], 3, solver.weights.shape[1]))
    tree_args = solver._tree_args[:4]
    for k in (0, 7, 20):  # a few river cards: the holdings that hold the card are dead (weight 0)
        hands = _card_hands(solver.hands, k)
        terminals = np.array([v for v in tree_args[2] if solver.tree.nodes[v, CARD] == k], dtype=np.int64)
        assert len(terminals)
        args = (tree_args[0], tree_args[1], terminals, tree_args[3])
        _compare(args, hands, solver.pay[solver._pay_index[k]], reach, solver.hands[0], rng)


def test_wide_ranges_same_numbers_on_one_and_two_threads():
    spot = CardSpot.multiway("4s9h3d6c2d", ("random", "random", "random"), 60, 200, "a", "", bank="40,700,500")
    out = runs_by_threads(spot, ((1, 10**9), (2, 0)), 3)
    assert np.array_equal(out[0][0], out[1][0]) and np.array_equal(out[0][1], out[1][1]) and out[0][2] == out[1][2]
