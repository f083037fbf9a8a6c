"""Numba kernels of the Brag studies: multiway showdowns and the blind-play betting model.

Hands are scored with ``evaluator._brag_kernels.score3`` on the rules' score
table. Each (cell, stream) draws from its own generator stream
(``analysis.core.rng``), so results do not depend on threads or task sizes.

Grouped inputs (named columns next to their packers in ``multiway.py`` and
``blind.py``):

- ``hands = (offsets, cards)``: the hands a cell's hero is drawn from, uniformly:
  ``cards[offsets[c]:offsets[c + 1]]`` (uint8 rows of three card ids).
- ``model``: float64 row per cell of the blind-play study (``M_*`` in ``blind.py``).
"""

from __future__ import annotations

import numpy as np
from numba import prange

from analysis.core.rng import bounded, deal, seed_state
from evaluator._brag_kernels import score3
from evaluator.jit import kernel

N_CARDS = 52


@kernel(inline=True)
def _draw_hero(state, offsets, cards, cell, avail):
    """A uniform hand of the cell's list; ``avail[:49]`` becomes the other cards. Returns the
    row index of the hand in ``cards``."""
    lo = offsets[cell]
    row = lo + bounded(state, offsets[cell + 1] - lo)
    a = cards[row, 0]
    b = cards[row, 1]
    c = cards[row, 2]
    k = 0
    for card in range(N_CARDS):
        if card != a and card != b and card != c:
            avail[k] = card
            k += 1
    return row


@kernel(parallel=True)
def multiway_streams(keys, cells, streams, trials, hands, opponents, table, stats):
    """Showdowns of a cell's hero hand against ``opponents[-1]`` random hands, read off for
    every requested opponent count (the first ``n`` opponents are ``n`` random hands).

    ``stats[i]`` gets, per requested count ``j``: wins, ties (no better hand, at least one
    equal), the pot share (1 for a win, ``1/(k+1)`` tied with ``k``) and its square, in
    columns ``4j .. 4j+3``; the last column counts trials.
    """
    offsets, cards = hands
    n_req = opponents.shape[0]
    most = opponents[n_req - 1]
    for i in prange(cells.shape[0]):
        cell = cells[i]
        state = np.empty(4, np.uint64)
        seed_state(state, keys[cell], streams[i])
        avail = np.empty(N_CARDS, np.uint8)
        for _ in range(trials[i]):
            row = _draw_hero(state, offsets, cards, cell, avail)
            hero = score3(cards[row, 0], cards[row, 1], cards[row, 2], table)
            deal(state, avail, N_CARDS - 3, 3 * most)
            best = -1
            n_best = 0
            j = 0
            for o in range(most):
                sc = score3(avail[3 * o], avail[3 * o + 1], avail[3 * o + 2], table)
                if sc > best:
                    best = sc
                    n_best = 1
                elif sc == best:
                    n_best += 1
                if o + 1 == opponents[j]:
                    col = 4 * j
                    if hero > best:
                        stats[i, col] += 1.0
                        stats[i, col + 2] += 1.0
                        stats[i, col + 3] += 1.0
                    elif hero == best:
                        share = 1.0 / (n_best + 1)
                        stats[i, col + 1] += 1.0
                        stats[i, col + 2] += share
                        stats[i, col + 3] += share * share
                    j += 1
            stats[i, 4 * n_req] += 1.0
