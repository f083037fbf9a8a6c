"""The heads-up card solver's kernel tuples, each entry named next to the function that packs it.

The kernels (:mod:`._kernels`) take numba tuples of arrays and read them by these constants,
never by bare numbers:

- ``tree`` (:func:`pack_tree`, ``tree[TT_*]``): the spot's arrays, the same for every walk;
- ``iso`` (:func:`pack_iso`, ``iso[IS_*]``): which task subtrees are walked and which are
  filled by suit isomorphism (one entry of the kernels' ``subtrees``);
- ``bufs`` (one walk's per-depth buffers, ``bufs[BF_*]``) and ``pool`` (:func:`new_pool`:
  the same arrays with a leading axis of buffer sets, ``pool[BF_*][c]`` set ``c``'s).
"""

from __future__ import annotations

import numpy as np

from ._sweeps import N_WORK
from ._sweeps import slots as sweep_slots

# the spot's arrays (tree[TT_*])
(TT_NODES, TT_HANDS, TT_SAME, TT_N_HANDS, TT_COUNT, TT_HOLDING, TT_SCORE, TT_CARDS, TT_HCLASS,
 TT_FOLD_TAB, TT_SHOWDOWN_TAB, TT_FOLD_GROUPS, TT_SHOWDOWN_GROUPS, TT_PERM, TT_IDX, TT_SRC,
 TT_ENDS) = range(17)
N_TREE = 17
"""``TT_NODES`` the expanded tree's node table (:mod:`.tree`); ``TT_HANDS``, ``TT_SAME``,
``TT_N_HANDS`` each player's holdings (int[2, H, 2] card ids), the index of the opponent's
holding with the same two cards (-1: none) and the number of holdings; ``TT_COUNT``,
``TT_HOLDING``, ``TT_SCORE``, ``TT_CARDS`` the showdown orders: per player and river board,
the holdings that do not touch the board in increasing order of strength; ``TT_HCLASS``,
``TT_FOLD_TAB``, ``TT_SHOWDOWN_TAB``, ``TT_FOLD_GROUPS``, ``TT_SHOWDOWN_GROUPS`` Dilemma's
payoff classes and tables (:mod:`.dilemma_terminals`; placeholders in Texas Hold'em);
``TT_PERM`` the suit swaps' holding permutations (``perm[k, p, h]``); ``TT_IDX``, ``TT_SRC``,
``TT_ENDS`` the sweep positions (:mod:`._sweeps`)."""

# the task isomorphism (iso[IS_*])
IS_PARENT, IS_WORK, IS_REF, IS_SWAP, IS_PERM = range(5)
"""``IS_PARENT`` the chance node of each task; ``IS_WORK`` the tasks to walk; ``IS_REF`` each
task's reference task (-1: none, it is walked) and ``IS_SWAP`` the suit swap that maps it;
``IS_PERM`` the holding permutation of each swap (the array of ``tree[TT_PERM]``)."""

# one walk's buffers (bufs[BF_*]; pool[BF_*][c] buffer set c's)
BF_REACH, BF_ACC, BF_VALS, BF_STRAT, BF_OPENED, BF_MINUS, BF_ACC2, BF_VALS2, BF_WORK = range(9)
N_BUFS = 9
"""Per depth ``d`` of a walk: ``BF_REACH`` the opponent's reach (float64[D, H]), ``BF_ACC``
its children's values per action (float64[D, A, H]), ``BF_VALS`` the node's values
(float64[D, H]; depth 0 the walk's result), ``BF_STRAT`` the opponent's strategy there
(float64[D, A, H]), ``BF_OPENED`` the open node (int64[D]); ``BF_MINUS`` the fold terminals'
per-class, per-card sums; ``BF_ACC2``, ``BF_VALS2`` the average strategy's ``acc``/``vals``
beside the best response's in ``MODE_BR_EV`` (size 1 when the game is zero-sum);
``BF_WORK`` the sweeps' prefix sums (rows ``W_*`` of :mod:`._sweeps`)."""


def pack_tree(nodes: np.ndarray, tables, perm: np.ndarray) -> tuple:
    """The kernels' ``tree`` tuple (``TT_*``) from the node table, the solver's tables
    (:class:`.solver.Tables`) and the suit swaps' holding permutations."""
    count, holding, score, cards = tables.showdown
    idx, src, ends = tables.sweeps
    parts: list = [None] * N_TREE
    parts[TT_NODES] = nodes
    parts[TT_HANDS], parts[TT_SAME], parts[TT_N_HANDS] = tables.hands, tables.same, tables.n_hands
    parts[TT_COUNT], parts[TT_HOLDING], parts[TT_SCORE], parts[TT_CARDS] = count, holding, score, cards
    parts[TT_HCLASS], parts[TT_FOLD_TAB], parts[TT_SHOWDOWN_TAB] = (
        tables.hclass, tables.fold_tab, tables.showdown_tab)
    parts[TT_FOLD_GROUPS], parts[TT_SHOWDOWN_GROUPS] = tables.fold_groups, tables.showdown_groups
    parts[TT_PERM] = perm
    parts[TT_IDX], parts[TT_SRC], parts[TT_ENDS] = idx, src, ends
    return tuple(parts)


def pack_iso(parent: np.ndarray, work: np.ndarray, ref: np.ndarray, swap: np.ndarray,
             perm: np.ndarray) -> tuple:
    """The kernels' ``iso`` tuple (``IS_*``)."""
    parts: list = [None] * 5
    parts[IS_PARENT], parts[IS_WORK], parts[IS_REF], parts[IS_SWAP], parts[IS_PERM] = (
        parent, work, ref, swap, perm)
    return tuple(parts)


def new_pool(n_sets: int, shape: tuple[int, int, int], average: tuple[int, int, int],
             n_classes: int, n_cards: int) -> tuple:
    """``n_sets`` sets of a walk's buffers (``pool[BF_*]``, zeros): ``shape`` = (depth, actions,
    holdings) of a walk, ``average`` the same for ``BF_ACC2``/``BF_VALS2``, ``n_classes`` the
    payoff classes and ``n_cards`` the deck's cards."""
    d, a, h = shape
    d2, a2, h2 = average
    parts: list = [None] * N_BUFS
    parts[BF_REACH] = np.zeros((n_sets, d, h))
    parts[BF_ACC] = np.zeros((n_sets, d, a, h))
    parts[BF_VALS] = np.zeros((n_sets, d, h))
    parts[BF_STRAT] = np.zeros((n_sets, d, a, h))
    parts[BF_OPENED] = np.zeros((n_sets, d), dtype=np.int64)
    parts[BF_MINUS] = np.zeros((n_sets, n_classes, n_cards + 1))
    parts[BF_ACC2] = np.zeros((n_sets, d2, a2, h2))
    parts[BF_VALS2] = np.zeros((n_sets, d2, h2))
    parts[BF_WORK] = np.zeros((n_sets, N_WORK, sweep_slots(h, n_cards)))
    return tuple(parts)


__all__ = ["N_BUFS", "N_TREE", "new_pool", "pack_iso", "pack_tree"]
