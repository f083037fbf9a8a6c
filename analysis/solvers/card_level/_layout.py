"""The card solver's kernel tuples, each entry named next to the function that packs it.

The kernels take numba tuples of arrays and read them by these constants, never by bare
numbers. Heads-up (:mod:`._kernels`):

- ``tree`` (:func:`pack_tree`, ``tree[TT_*]``): the spot's arrays, the same for every walk;
- ``iso`` (:func:`pack_iso`, ``iso[IS_*]``): which task subtrees are walked and which are
  filled by suit isomorphism (one entry of the kernels' ``subtrees``);
- ``bufs`` (one walk's per-depth buffers, ``bufs[BF_*]``) and ``pool`` (:func:`new_pool`:
  the same arrays with a leading axis of buffer sets, ``pool[BF_*][c]`` set ``c``'s).

Three-handed (:mod:`._kernels3`, :mod:`._mccfr3`, :mod:`._terminals3`):

- ``tree`` (:func:`pack_tree3`, ``tree[TH_*]``): the expanded tree's arrays (:mod:`.tree3`);
- ``hands`` (:func:`pack_hands`, ``hands[HD_*]``): the holding arrays of
  :func:`.multiway.board_hands` (a turn spot's: per river card, :func:`._mccfr3._card_hands`);
- ``chance`` (:func:`pack_chance`, ``chance[CH_*]``): a turn spot's river cards.
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
IS_PARENT, IS_WORK, IS_REF, IS_SWAP, IS_PERM, IS_NEXT = range(6)
"""``IS_PARENT`` the chance node of each task; ``IS_WORK`` the tasks to walk, in the order the
threads take them; ``IS_REF`` each task's reference task (-1: none, it is walked) and ``IS_SWAP``
the suit swap that maps it; ``IS_PERM`` the holding permutation of each swap (the array of
``tree[TT_PERM]``); ``IS_NEXT`` the task queue's counter (int64[1]: the next index of ``IS_WORK``)."""

# one walk's buffers (bufs[BF_*]; pool[BF_*][c] buffer set c's)
BF_REACH, BF_ACC, BF_VALS, BF_STRAT, BF_OPENED, BF_MINUS, BF_ACC2, BF_VALS2, BF_WORK = range(9)
N_BUFS = 9
"""Per depth ``d`` of a walk: ``BF_REACH`` the opponent's reach (real[D, H], real the
solver's precision), ``BF_ACC`` its children's values per action (real[D, A, H]), ``BF_VALS``
the node's values (real[D, H]; depth 0 the walk's result), ``BF_STRAT`` the opponent's strategy
there (real[D, A, H]; both reach and strategy rows stale below a node the opponent never
reaches, which the walk does not read), ``BF_OPENED`` the open node (int64[D]); ``BF_MINUS`` the fold terminals'
per-class, per-card sums; ``BF_ACC2``, ``BF_VALS2`` the average strategy's ``acc``/``vals``
beside the best response's in ``MODE_BR_EV`` (size 1 when the game is zero-sum);
``BF_WORK`` the sweeps' prefix sums (rows ``W_*`` of :mod:`._sweeps`)."""


def pack_tree(nodes: np.ndarray, tables, perm: np.ndarray, dtype: type = np.float64) -> tuple:
    """The kernels' ``tree`` tuple (``TT_*``) from the node table, the solver's tables
    (:class:`.solver.Tables`) and the suit swaps' holding permutations; Dilemma's payoff tables
    in the solver's precision ``dtype`` (whole chips: exact in float32 too)."""
    count, holding, score, cards = tables.showdown
    idx, src, ends = tables.sweeps
    parts: list = [None] * N_TREE
    parts[TT_NODES] = nodes
    parts[TT_HANDS], parts[TT_SAME], parts[TT_N_HANDS] = tables.hands, tables.same, tables.n_hands
    parts[TT_COUNT], parts[TT_HOLDING], parts[TT_SCORE], parts[TT_CARDS] = count, holding, score, cards
    parts[TT_HCLASS], parts[TT_FOLD_TAB], parts[TT_SHOWDOWN_TAB] = (
        tables.hclass, tables.fold_tab.astype(dtype, copy=False), tables.showdown_tab.astype(dtype, copy=False))
    parts[TT_FOLD_GROUPS], parts[TT_SHOWDOWN_GROUPS] = tables.fold_groups, tables.showdown_groups
    parts[TT_PERM] = perm
    parts[TT_IDX], parts[TT_SRC], parts[TT_ENDS] = idx, src, ends
    return tuple(parts)


def pack_iso(parent: np.ndarray, work: np.ndarray, ref: np.ndarray, swap: np.ndarray,
             perm: np.ndarray) -> tuple:
    """The kernels' ``iso`` tuple (``IS_*``; a new queue counter)."""
    parts: list = [None] * 6
    parts[IS_PARENT], parts[IS_WORK], parts[IS_REF], parts[IS_SWAP], parts[IS_PERM] = (
        parent, work, ref, swap, perm)
    parts[IS_NEXT] = np.zeros(1, dtype=np.int64)
    return tuple(parts)


def new_pool(n_sets: int, shape: tuple[int, int, int], average: tuple[int, int, int],
             n_classes: int, n_cards: int, dtype: type = np.float64) -> tuple:
    """``n_sets`` sets of a walk's buffers (``pool[BF_*]``, zeros): ``shape`` = (depth, actions,
    holdings) of a walk, ``average`` the same for ``BF_ACC2``/``BF_VALS2``, ``n_classes`` the
    payoff classes and ``n_cards`` the deck's cards; the rows in the solver's precision ``dtype``."""
    d, a, h = shape
    d2, a2, h2 = average
    parts: list = [None] * N_BUFS
    parts[BF_REACH] = np.zeros((n_sets, d, h), dtype)
    parts[BF_ACC] = np.zeros((n_sets, d, a, h), dtype)
    parts[BF_VALS] = np.zeros((n_sets, d, h), dtype)
    parts[BF_STRAT] = np.zeros((n_sets, d, a, h), dtype)
    parts[BF_OPENED] = np.zeros((n_sets, d + 8), dtype=np.int64)  # (+ a cache line: no false sharing between sets)
    parts[BF_MINUS] = np.zeros((n_sets, n_classes, n_cards + 1), dtype)
    parts[BF_ACC2] = np.zeros((n_sets, d2, a2, h2), dtype)
    parts[BF_VALS2] = np.zeros((n_sets, d2, h2), dtype)
    parts[BF_WORK] = np.zeros((n_sets, N_WORK, sweep_slots(h, n_cards)), dtype)
    return tuple(parts)



# the three-handed tree (tree[TH_*])
TH_NODES, TH_CHILDREN, TH_TERMINALS, TH_DECISIONS, TH_INNER = range(5)
"""``TH_NODES``, ``TH_CHILDREN``, ``TH_TERMINALS``, ``TH_DECISIONS`` the tables of
:class:`.tree3.ExpandedTree3`; ``TH_INNER`` (turn spots only) the chance and decision nodes."""


def pack_tree3(tree, inner: np.ndarray | None = None) -> tuple:
    """The three-handed kernels' ``tree`` tuple (``TH_*``) of an expanded tree; with ``inner``
    (a turn spot's walk), its chance and decision nodes as a fifth entry."""
    parts: list = [None] * (4 if inner is None else 5)
    parts[TH_NODES], parts[TH_CHILDREN] = tree.nodes, tree.children
    parts[TH_TERMINALS], parts[TH_DECISIONS] = tree.terminals, tree.decisions
    if inner is not None:
        parts[TH_INNER] = inner
    return tuple(parts)


# the three-handed holding arrays (hands[HD_*])
(HD_N, HD_CARDS, HD_CLASS, HD_SCORE, HD_ORDER, HD_POS, HD_LO, HD_HI, HD_CARDN, HD_CARDPOS,
 HD_BEFORE, HD_PAIRIDX) = range(12)
N_HANDS = 12
"""``HD_N`` each player's count of holdings; ``HD_CARDS`` their cards, ``HD_CLASS`` classes and
``HD_SCORE`` strengths; ``HD_ORDER`` the holdings by strength and ``HD_POS`` each one's
position; ``HD_LO``, ``HD_HI`` the strength band edges in each other player's order;
``HD_CARDN``, ``HD_CARDPOS``, ``HD_BEFORE`` per card the holdings holding it, their positions
and how many come before a position; ``HD_PAIRIDX`` the holding index of each pair of cards."""


def pack_hands(n, cards, cls, score, order, pos, lo, hi, cardn, cardpos, before, pairidx) -> tuple:
    """The three-handed kernels' ``hands`` tuple (``HD_*``)."""
    parts: list = [None] * N_HANDS
    parts[HD_N], parts[HD_CARDS], parts[HD_CLASS], parts[HD_SCORE] = n, cards, cls, score
    parts[HD_ORDER], parts[HD_POS], parts[HD_LO], parts[HD_HI] = order, pos, lo, hi
    parts[HD_CARDN], parts[HD_CARDPOS], parts[HD_BEFORE], parts[HD_PAIRIDX] = cardn, cardpos, before, pairidx
    return tuple(parts)


# a turn spot's river cards (chance[CH_*])
CH_ALIVE, CH_FACTORS, CH_KEEP, CH_PIDX = range(4)
"""``CH_ALIVE`` float64[C, 3, H]: per river card, 0 where a holding holds it; ``CH_FACTORS``
the sampling factors (``SF_*`` of :mod:`._mccfr3`); ``CH_KEEP`` bool[3, H]: the traverser's
holdings whose values the terminals compute; ``CH_PIDX`` each river card's payoff table in
``pay`` (see :func:`._mccfr3.walk`)."""


def pack_chance(alive: np.ndarray, factors: np.ndarray, keep: np.ndarray, pidx: np.ndarray) -> tuple:
    """The turn kernels' ``chance`` tuple (``CH_*``)."""
    parts: list = [None] * 4
    parts[CH_ALIVE], parts[CH_FACTORS], parts[CH_KEEP], parts[CH_PIDX] = alive, factors, keep, pidx
    return tuple(parts)


__all__ = ["N_BUFS", "N_HANDS", "N_TREE", "new_pool", "pack_chance", "pack_hands", "pack_iso", "pack_tree",
           "pack_tree3"]
