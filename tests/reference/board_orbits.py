"""Five-card boards up to suit permutation (the previous heads-up method's orbits): the
grouped heads-up enumeration is checked against a sweep of every orbit weighted by its size."""

from __future__ import annotations

import numpy as np
from numba import njit, prange

_ONE = np.uint64(1)


@njit(cache=True)
def _image_mask(cards, k, perm):
    m = np.uint64(0)
    for i in range(k):
        c = cards[i]
        m |= _ONE << np.uint64((c >> 2) * 4 + perm[c & 3])
    return m


@njit(cache=True)
def _board_orbit(cards, perms):
    """0 if ``cards`` (5 ids) is not the smallest mask of its suit orbit, else the orbit size."""
    own = np.uint64(0)
    for i in range(5):
        own |= _ONE << np.uint64(cards[i])
    stab = 0
    for q in range(perms.shape[0]):
        im = _image_mask(cards, 5, perms[q])
        if im < own:
            return 0
        if im == own:
            stab += 1
    return perms.shape[0] // stab


@njit(parallel=True, cache=True)
def _canonical_pass(n_cards, perms, counts, offsets, boards, mult, fill):
    for a in prange(n_cards - 4):
        cards = np.empty(5, np.int64)
        row = offsets[a]
        cards[0] = a
        for b in range(a + 1, n_cards):
            cards[1] = b
            for c in range(b + 1, n_cards):
                cards[2] = c
                for d in range(c + 1, n_cards):
                    cards[3] = d
                    for e in range(d + 1, n_cards):
                        cards[4] = e
                        size = _board_orbit(cards, perms)
                        if size:
                            if fill:
                                for i in range(5):
                                    boards[row, i] = cards[i]
                                mult[row] = size
                                row += 1
                            else:
                                counts[a] += 1


@njit(cache=True)
def canonical_boards(n_cards, perms):
    """Five-card boards up to suit permutation: one representative per orbit and its size.

    A board is kept when its card mask is the smallest among its images under the
    suit permutations ``perms`` (24, 4); its multiplicity is 24 / |stabiliser|.
    Any statistic summed over all hole cards of a suit-symmetric class (like a
    starting-hand class) is the same on every board of an orbit.
    """
    n_first = n_cards - 4
    counts = np.zeros(n_first, np.int64)
    offsets = np.zeros(n_first + 1, np.int64)
    boards = np.empty((0, 5), np.uint8)
    mult = np.empty(0, np.int64)
    _canonical_pass(n_cards, perms, counts, offsets, boards, mult, False)
    for i in range(n_first):
        offsets[i + 1] = offsets[i] + counts[i]
    boards = np.empty((offsets[n_first], 5), np.uint8)
    mult = np.empty(offsets[n_first], np.int64)
    _canonical_pass(n_cards, perms, counts, offsets, boards, mult, True)
    return boards, mult


