"""Column layout of the flat game-tree arrays that every solver kernel reads.

A tree of ``N`` nodes is stored in breadth-first order (a parent's id is smaller
than its children's, and the children of a node are consecutive ids), so a
forward sweep ``0..N-1`` visits parents first and a backward sweep children first.

``nodes``: int32[N, 5], one row per node:

=========== ================================================================
column      meaning
=========== ================================================================
``KIND``    ``TERMINAL``, ``CHANCE`` or ``DECISION``
``PLAYER``  the acting player of a decision node, -1 otherwise
``FIRST``   id of the first child (children are ``FIRST .. FIRST+COUNT-1``)
``COUNT``   number of children (0 for a terminal)
``INDEX``   infoset id of a decision node, row of ``utility`` for a terminal,
            -1 for a chance node
=========== ================================================================

``prob``: float64[N], the chance probability of the edge into each node (1.0 when
the parent is not a chance node); ``cum``: float64[N], running sums of ``prob``
over each chance node's children (for sampling). ``utility``: float64[T, P], the
payoff of every player at each terminal (any vector: not zero-sum in general).

``infos``: int32[M, 3], one row per information set: ``I_PLAYER``,
``I_COUNT`` (number of actions) and ``I_OFFSET`` (start of its actions in the
flat per-action arrays of length ``A = sum(I_COUNT)``: regrets, strategy sums,
strategies). Infoset ids follow the order of their first node, so with perfect
recall an infoset's own-player predecessors always have smaller ids (the best
response relies on this; the builder checks it).

Kernels take the tree as one tuple ``(nodes, prob, cum, utility, infos)``
(``GameTree.kernel_args``); the number of players is ``utility.shape[1]``.
"""

from __future__ import annotations

import numpy as np

TERMINAL = 0
CHANCE = 1
DECISION = 2

KIND = 0
PLAYER = 1
FIRST = 2
COUNT = 3
INDEX = 4
N_NODE_COLS = 5

I_PLAYER = 0
I_COUNT = 1
I_OFFSET = 2
N_INFO_COLS = 3

# entries of the int64 option vector of the full-width kernel
O_METHOD = 0
O_ALTERNATING = 1
N_OPTS = 2

# method codes of the full-width kernel (SolverSettings.method)
SM_CFR = 0
SM_CFR_PLUS = 1
SM_DCFR = 2
METHOD_CODES = {"cfr": SM_CFR, "cfr+": SM_CFR_PLUS, "dcfr": SM_DCFR}
"""The kernel code of each full-width method's canonical name."""

# entries of the float coefficient vector passed to the full-width kernel
C_ALPHA = 0
C_BETA = 1
C_GAMMA = 2
N_COEFS = 3

# the node table of the shared MCCFR walk (analysis.solvers._mccfr_kernels), int32[N, N_WALK_COLS]:
# every tree that runs the walk lays its nodes out this way once (GameTree.walk_args,
# PublicTree.walk_args)
WN_KIND = 0
"""``TERMINAL``, ``CHANCE`` (one child drawn from ``cum``), ``DECISION`` or ``PASS``."""
WN_PLAYER = 1
WN_FIRST = 2
WN_COUNT = 3
WN_KEY = 4
"""Decision: the street whose private state keys its information set (0 in a game tree);
terminal: its payoff group (a row of the deal's group payoffs)."""
WN_INDEX = 5
"""Decision: the first row of its block of information sets (one per private state, ``WN_COUNT``
actions each); terminal: its terminal number; -1 otherwise."""
N_WALK_COLS = 6
PASS = 3
"""A walk node kind: a node with one child that draws nothing (the abstracted hand's street deal:
the deal is drawn once per iteration, so the walk just moves on)."""


def walk_nodes(kind: np.ndarray, player: np.ndarray, first: np.ndarray, count: np.ndarray,
               key: np.ndarray | int, index: np.ndarray) -> np.ndarray:
    """A tree's nodes as the shared MCCFR walk reads them: int32[N, N_WALK_COLS] (small: the walk
    is bound by memory), read-only (every stack passes the same array types, so the walk compiles
    once)."""
    out = np.zeros((len(kind), N_WALK_COLS), np.int32)
    for col, values in ((WN_KIND, kind), (WN_PLAYER, player), (WN_FIRST, first), (WN_COUNT, count),
                        (WN_KEY, key), (WN_INDEX, index)):
        values = np.broadcast_to(np.asarray(values, np.int64), (len(kind),))
        if values.size and (values.max() > np.iinfo(np.int32).max or values.min() < -1):
            raise ValueError("walk_nodes: a value does not fit the walk's int32 node table")
        out[:, col] = values
    out.flags.writeable = False
    return out
