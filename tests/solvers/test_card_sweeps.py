"""The showdown terminals read from prefix sums (``_sweeps``) against a plain pairwise sum: wide
ranges with ties and card removal, opponent reach with zeros, both players, several river boards;
Texas Hold'em's (win less loss) and Dilemma Hold'em's (a payoff per pair of classes and outcome)."""

from __future__ import annotations

import numpy as np

from analysis.solvers.card_level import CardSolver, CardSpot
from analysis.solvers.card_level import _kernels as K
from analysis.solvers.card_level._layout import BF_MINUS, BF_WORK
from analysis.solvers.card_level._payoffs import SD_LOSE_MINUS_TIE, SD_TIE, SD_WIN_MINUS_TIE
from analysis.solvers.card_level.tree import AMOUNT, BOARD, KIND, PAY, SHOWDOWN


def _pairwise(solver: CardSolver, v: int, trav: int, reach: np.ndarray) -> np.ndarray:
    """Each holding's value at showdown ``v``: the pay times the opponent reach it beats less the
    reach it loses to, over the holdings that share no card with it (the board's blocked: 0)."""
    t = solver.tables
    b = int(solver.tree.nodes[v, BOARD])
    pay = (solver.spot.pot / 2.0 + solver.tree.nodes[v, AMOUNT]) / t.pairs
    out = np.zeros(t.hands.shape[1])
    for h in range(t.n_hands[trav]):
        mine = t.strength[trav, b, h]
        if mine < 0:
            continue
        x = 0.0
        for o in range(t.n_hands[1 - trav]):
            theirs = t.strength[1 - trav, b, o]
            if theirs < 0 or set(t.hands[trav, h]) & set(t.hands[1 - trav, o]):
                continue
            x += reach[o] * np.sign(mine - theirs)
        out[h] = pay * x
    return out


def test_showdowns_equal_the_pairwise_sum():
    spot = CardSpot.holdem("Td9d6hQc", "22+,A2s+,K9s+,QTs+,JTs,ATo+,KJo+", "TT-22,A5s+,K8s+,T9s,98s,87s,AJo+", 200, 900,
                           "a", "")
    solver = CardSolver(spot)
    work = solver._pool[BF_WORK][0]
    for v, trav, reach in _showdown_cases(solver, boards=6, zeros=0.3, seed=7):
        out = np.full_like(reach, np.nan)
        K.showdown_value(solver.tree.nodes, v, K.terminal_tables(solver._tree_args)[2], trav, reach, solver._coefs,
                         work, out)
        np.testing.assert_allclose(out, _pairwise(solver, v, trav, reach), rtol=1e-12, atol=1e-15)


def _showdown_cases(solver: CardSolver, boards: int, zeros: float, seed: int) -> list[tuple[int, int, np.ndarray]]:
    """(showdown node, traverser, opponent reach) on the first ``boards`` river boards of the tree, both
    traversers, the reach random with a share ``zeros`` of it 0."""
    nodes = solver.tree.nodes
    rng = np.random.default_rng(seed)
    seen, cases = set(), []
    for v in np.flatnonzero(nodes[:, KIND] == SHOWDOWN):
        b = int(nodes[v, BOARD])
        if b in seen or len(seen) >= boards:
            continue
        seen.add(b)
        for trav in range(2):
            reach = rng.random(solver.tables.hands.shape[1])
            reach[rng.random(reach.shape[0]) < zeros] = 0.0
            cases.append((int(v), trav, reach))
    assert len(seen) == boards
    return cases


def _dilemma_pairwise(solver: CardSolver, v: int, trav: int, reach: np.ndarray) -> np.ndarray:
    """Each holding's value at Dilemma showdown ``v``: over the compatible opponent holdings, the
    reach times the settled payoff of the pair of classes for the outcome (win, tie, loss)."""
    t = solver.tables
    b, sid = int(solver.tree.nodes[v, BOARD]), int(solver.tree.nodes[v, PAY])
    tab = t.showdown_tab[sid, trav]
    out = np.zeros(t.hands.shape[1])
    for h in range(t.n_hands[trav]):
        mine = t.strength[trav, b, h]
        if mine < 0:
            continue
        a = t.hclass[trav, h]
        x = 0.0
        for o in range(t.n_hands[1 - trav]):
            theirs = t.strength[1 - trav, b, o]
            if theirs < 0 or set(t.hands[trav, h]) & set(t.hands[1 - trav, o]):
                continue
            c = t.hclass[1 - trav, o]
            pay = tab[SD_TIE, a, c]
            if mine > theirs:
                pay += tab[SD_WIN_MINUS_TIE, a, c]
            elif mine < theirs:
                pay += tab[SD_LOSE_MINUS_TIE, a, c]
            x += reach[o] * pay
        out[h] = x / t.pairs
    return out


def test_dilemma_showdowns_equal_the_pairwise_sum():
    """The reach above a holding is read as the compatible total less the reach at or below it
    (one direction of prefix sums): the identical holding and ties must cancel there."""
    spot = CardSpot.dilemma("4s9h3d6c", "random", "random", 40, 980, "100%, a", "a", deck="reference")
    solver = CardSolver(spot)
    tables = K.terminal_tables(solver._tree_args)
    scratch = (solver._pool[BF_MINUS][0], solver._pool[BF_WORK][0])
    for v, trav, reach in _showdown_cases(solver, boards=4, zeros=0.7, seed=3):
        out = np.full_like(reach, np.nan)
        K.dilemma_showdown_value(solver.tree.nodes, v, tables, trav, reach, solver._coefs, scratch, out)
        np.testing.assert_allclose(out, _dilemma_pairwise(solver, v, trav, reach), rtol=1e-12, atol=1e-15)


def _plain_card_sums(hands: np.ndarray, reach: np.ndarray, n_cards: int) -> tuple[float, np.ndarray]:
    """The fold terminals' sums, holding by holding in order: the total and each card's reach."""
    total, minus = 0.0, np.zeros(n_cards)
    for (c1, c2), r in zip(hands, reach, strict=True):
        if r != 0.0:
            total += r
            minus[c1] += r
            minus[c2] += r
    return total, minus


def test_fold_card_sums_equal_the_plain_sums_bit_for_bit():
    """``_card_sums`` adds a run of holdings with one first card in a register: the same numbers
    as adding holding by holding, whether the holdings come sorted by their first card or not."""
    rng = np.random.default_rng(11)
    pairs = np.array([(a, b) for a in range(40) for b in range(a)], dtype=np.int64)  # (high, low), sorted
    for order in ("sorted", "shuffled"):
        hands = pairs if order == "sorted" else pairs[rng.permutation(len(pairs))]
        reach = rng.random(len(hands))
        reach[rng.random(len(hands)) < 0.4] = 0.0
        minus = np.full(41, np.nan)
        total = K._card_sums(len(hands), hands, reach, minus[:40])
        want_total, want = _plain_card_sums(hands, reach, 40)
        assert total == want_total
        np.testing.assert_array_equal(minus[:40], want)
        assert np.isnan(minus[40])  # nothing past the cards is touched
