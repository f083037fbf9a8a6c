"""Numba kernels of the Brag evaluator: a 3-card hand is three rank compares and one look-up.

``table`` is always ``evaluator.brag.score_table(rules)``: int32 scores at
``flush * 2197 + (hi * 13 + mid) * 13 + lo`` with the ranks sorted high to low
(card id = rank * 4 + suit). The table is 17.6 KB, so it stays in L1.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from .jit import kernel

_FLUSH_OFFSET = 2197
_CHUNK = 16384
"""Rows per parallel work item of :func:`score_batch`."""


@kernel(inline=True)
def table_index(a, b, c):
    """The score-table index of cards ``a, b, c`` (any order)."""
    ra = np.int64(a) >> 2
    rb = np.int64(b) >> 2
    rc = np.int64(c) >> 2
    if ra < rb:
        ra, rb = rb, ra
    if rb < rc:
        rb, rc = rc, rb
        if ra < rb:
            ra, rb = rb, ra
    flush = ((np.int64(a) ^ np.int64(b)) & 3) == 0 and ((np.int64(a) ^ np.int64(c)) & 3) == 0
    return (_FLUSH_OFFSET if flush else 0) + (ra * 13 + rb) * 13 + rc


@kernel(inline=True)
def score3(a, b, c, table):
    """The Brag score of cards ``a, b, c`` (higher is better)."""
    return table[table_index(a, b, c)]


@kernel
def score_batch_serial(hands, table, out):
    """``out[i]`` = score of row ``i`` of an ``(n, 3)`` array of card ids (any integer dtype,
    validated), on one thread."""
    for i in range(hands.shape[0]):
        out[i] = score3(hands[i, 0], hands[i, 1], hands[i, 2], table)


@kernel(parallel=True)
def score_batch(hands, table, out):
    """:func:`score_batch_serial` on all numba threads (chunks of rows)."""
    n = hands.shape[0]
    n_chunks = (n + _CHUNK - 1) // _CHUNK
    for k in prange(n_chunks):
        for i in range(k * _CHUNK, min(n, (k + 1) * _CHUNK)):
            out[i] = score3(hands[i, 0], hands[i, 1], hands[i, 2], table)
