"""Shared pieces of the equity kernels: constants, scoring a hand from a key sum, tallying
one deal's winners into the sufficient statistics (see :mod:`._exact_kernels`).
"""

from __future__ import annotations

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from evaluator.jit import kernel
from evaluator.kernels import hash_score
from evaluator.tables import CATEGORY_SHIFT, FLUSH_BITS, FLUSH_INIT, SUIT_SHIFT

EMPTY_ACC = np.uint64(FLUSH_INIT)
_ONE = np.uint64(1)
_FLUSH = np.uint64(FLUSH_BITS)
_SUIT_SHIFT = np.uint64(SUIT_SHIFT)
_TWO = np.uint64(2)
N_CATEGORIES = 9
N_BLOCKS = 256
"""Accumulator rows of the exact kernels (work units are dealt to them round-robin)."""
SHARE_LCM = 2520
"""Least common multiple of 1..10: a pot share 1/k (k <= 10 players) times this is an integer."""


@kernel(inline=True)
def _score_row(acc, cards, row, n, tables):
    """:func:`evaluator._kernels.score_acc` of row ``row`` of a 2-D card buffer (no view is made)."""
    if (acc >> _SUIT_SHIFT) & _FLUSH:
        suit = np.int64(trailing_zeros((acc >> _SUIT_SHIFT) & _FLUSH) >> _TWO)
        mask = np.int64(0)
        for i in range(n):
            c = np.int64(cards[row, i])
            if (c & 3) == suit:
                mask |= np.int64(1) << (c >> 2)
        return np.int32(tables[-1][mask])
    return hash_score(acc, tables)


@kernel(inline=True)
def score_hole(acc, board, a, b, tables):
    """Score of five board cards ``board[:5]`` plus hole cards ``a``, ``b`` (accumulator ``acc``)."""
    if (acc >> _SUIT_SHIFT) & _FLUSH:
        suit = trailing_zeros((acc >> _SUIT_SHIFT) & _FLUSH) >> 2
        mask = 0
        for i in range(5):
            c = board[i]
            if (c & 3) == suit:
                mask |= 1 << (c >> 2)
        if (a & 3) == suit:
            mask |= 1 << (a >> 2)
        if (b & 3) == suit:
            mask |= 1 << (b >> 2)
        return np.int32(tables[-1][mask])
    return hash_score(acc, tables)


_LANE = np.uint64(0x1111111111111111)
"""Bit ``4 * rank`` of every rank: a card mask's cards of suit ``s`` are ``(mask >> s) & _LANE``."""


@kernel(inline=True)
def permute_mask(mask, perm):
    """The image of a card mask under the suit permutation ``perm`` (``perm[s]``: image of ``s``)."""
    out = np.uint64(0)
    for s in range(4):
        out |= ((mask >> np.uint64(s)) & _LANE) << np.uint64(perm[s])
    return out


@kernel(inline=True)
def orbit_weight(mask, perms):
    """Size of the orbit of card mask ``mask`` under the group ``perms`` ((G, 4), identity
    first) when ``mask`` is the smallest mask of its orbit, else 0: summing a statistic of
    the canonical masks times this weight sums it over every mask."""
    stab = 1
    for q in range(1, perms.shape[0]):
        image = permute_mask(mask, perms[q])
        if image < mask:
            return 0
        if image == mask:
            stab += 1
    return perms.shape[0] // stab


@kernel(inline=True)
def _tally(sc, n_players, wins, cats, row, weight):
    """Add one deal with scores ``sc[:n_players]`` to ``wins[row]`` and ``cats[row]``."""
    best = sc[0]
    for p in range(1, n_players):
        if sc[p] > best:
            best = sc[p]
    cnt = 0
    for p in range(n_players):
        if sc[p] == best:
            cnt += 1
    cat = best >> CATEGORY_SHIFT
    for p in range(n_players):
        if sc[p] == best:
            wins[row, p, cnt] += weight
            cats[row, p, cat] += weight
