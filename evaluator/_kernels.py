"""Numba kernels of the hand evaluator. Plain arrays and scalars only.

``tables`` is always the tuple ``EvalTables.kernel_args``:
``(card_key, multiplier, bucket_shift, slot_shift, slot_mask, displace, values, flush)``
(see ``tables.py``). A hand's *accumulator* is ``FLUSH_INIT + sum(card_key[c])``;
kernels that build hands card by card keep partial accumulators and finish with
:func:`score_acc`.

Speed notes (measured, numba 0.68): the rare flush path lives in its own
function; with the flush loop in the same body as the hash look-up, or with the
per-hand work behind a function that contains a loop, numba's code for the
common path is 2.5-5 times slower. So the batch loops are written out in full.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange
from numba.cpython.unsafe.numbers import trailing_zeros

from .tables import CATEGORY_SHIFT, FLUSH_BITS, FLUSH_INIT, SUIT_SHIFT

_INIT = np.uint64(FLUSH_INIT)
_FLUSH = np.uint64(FLUSH_BITS)
_SUIT_SHIFT = np.uint64(SUIT_SHIFT)
_LOW32 = np.uint64(0xFFFFFFFF)
_ONE = np.uint64(1)
_N_CATEGORIES = 9
_CHUNK = 4096


@njit(cache=True)
def is_flush(acc):
    """Whether an accumulator holds five or more cards of one suit."""
    return (acc >> _SUIT_SHIFT) & _FLUSH != 0


@njit(cache=True)
def _flush_suit(acc):
    return trailing_zeros((acc >> _SUIT_SHIFT) & _FLUSH) >> 2


@njit(cache=True)
def hash_score(acc, tables):
    """Score of a hand with no flush, from its accumulator alone."""
    h = (acc & _LOW32) * tables[1]
    slot = ((h >> tables[3]) & tables[4]) ^ tables[5][h >> tables[2]]
    return np.int32(tables[6][slot])


@njit(cache=True)
def flush_score(acc, cards, n, tables):
    """Score of a flush hand: the rank mask of its flush suit in ``cards[:n]``, looked up."""
    suit = _flush_suit(acc)
    mask = 0
    for i in range(n):
        c = cards[i]
        if (c & 3) == suit:
            mask |= 1 << (c >> 2)
    return np.int32(tables[7][mask])


@njit(cache=True)
def _row_flush_score(acc, hands, row, n, tables):
    suit = _flush_suit(acc)
    mask = 0
    for i in range(n):
        c = hands[row, i]
        if (c & 3) == suit:
            mask |= 1 << (c >> 2)
    return np.int32(tables[7][mask])


@njit(cache=True)
def score_acc(acc, cards, n, tables):
    """Score of the ``n`` cards ``cards[:n]`` whose accumulator is ``acc``.

    ``cards`` is read only when the hand holds a flush.
    """
    if is_flush(acc):
        return flush_score(acc, cards, n, tables)
    return hash_score(acc, tables)


@njit(cache=True)
def accumulate(cards, n, tables):
    """Accumulator of ``cards[:n]``."""
    key = tables[0]
    acc = _INIT
    for i in range(n):
        acc += key[cards[i]]
    return acc


@njit(cache=True)
def score_cards(cards, n, tables):
    """Score of the ``n`` (5 to 7) card ids in ``cards[:n]``."""
    return score_acc(accumulate(cards, n, tables), cards, n, tables)


@njit(cache=True)
def score_mask(mask, tables):
    """Score of the cards of a 64-bit mask (5 to 7 bits set)."""
    key = tables[0]
    acc = _INIT
    m = np.uint64(mask)
    while m:
        acc += key[trailing_zeros(m)]
        m &= m - _ONE
    if is_flush(acc):
        suit = _flush_suit(acc)
        ranks = 0
        m = np.uint64(mask) >> np.uint64(suit)
        r = 0
        while m:
            if m & _ONE:
                ranks |= 1 << r
            m >>= np.uint64(4)
            r += 1
        return np.int32(tables[7][ranks])
    return hash_score(acc, tables)


@njit(cache=True)
def score_batch_serial(hands, tables, out):
    """Scores of the rows of ``hands`` (m x k card ids) into ``out``, one thread."""
    k = hands.shape[1]
    key = tables[0]
    for i in range(hands.shape[0]):
        acc = _INIT
        for j in range(k):
            acc += key[hands[i, j]]
        if is_flush(acc):
            out[i] = _row_flush_score(acc, hands, i, k, tables)
        else:
            out[i] = hash_score(acc, tables)


@njit(cache=True, parallel=True)
def score_batch(hands, tables, out):
    """Scores of the rows of ``hands`` (m x k card ids) into ``out``, all threads."""
    n = hands.shape[0]
    for c in prange((n + _CHUNK - 1) // _CHUNK):
        lo = c * _CHUNK
        score_batch_serial(hands[lo : lo + _CHUNK], tables, out[lo : lo + _CHUNK])


@njit(cache=True, parallel=True)
def score_masks(masks, tables, out):
    """Scores of an array of 64-bit hand masks into ``out``."""
    for i in prange(masks.shape[0]):
        out[i] = score_mask(masks[i], tables)


@njit(cache=True, parallel=True)
def category_counts(n_cards, k, tables):
    """Number of ``k``-card hands (5-7) of each category over all hands of a deck.

    Enumerates every combination; partial accumulators are reused so each hand
    costs one addition and one lookup. Parallel over the lowest card.
    """
    key = tables[0]
    per_first = np.zeros((n_cards, _N_CATEGORIES), dtype=np.int64)
    for first in prange(n_cards - k + 1):
        counts = per_first[first]
        idx = np.empty(k, dtype=np.int64)
        part = np.empty(k, dtype=np.uint64)  # part[j] = accumulator of idx[:j+1]
        idx[0] = first
        part[0] = _INIT + key[first]
        for j in range(1, k - 1):
            idx[j] = first + j
            part[j] = part[j - 1] + key[idx[j]]
        while True:
            base = part[k - 2]
            for last in range(idx[k - 2] + 1, n_cards):
                idx[k - 1] = last
                s = score_acc(base + key[last], idx, k, tables)
                counts[s >> CATEGORY_SHIFT] += 1
            j = k - 2
            while j >= 1 and idx[j] == n_cards - k + j:
                j -= 1
            if j < 1:
                break
            idx[j] += 1
            part[j] = part[j - 1] + key[idx[j]]
            for t in range(j + 1, k - 1):
                idx[t] = idx[t - 1] + 1
                part[t] = part[t - 1] + key[idx[t]]
    return per_first.sum(axis=0)


@njit(cache=True, parallel=True)
def first_invalid_row(hands, n_cards):
    """Index of the first row with a card id out of ``0..n_cards-1`` or a repeated card, else -1."""
    n, k = hands.shape
    n_chunks = (n + _CHUNK - 1) // _CHUNK
    bad = np.full(n_chunks, -1, dtype=np.int64)
    for c in prange(n_chunks):
        for i in range(c * _CHUNK, min(n, (c + 1) * _CHUNK)):
            mask = np.uint64(0)
            ok = True
            for j in range(k):
                card = np.int64(hands[i, j])
                if card < 0 or card >= n_cards:
                    ok = False
                    break
                bit = _ONE << np.uint64(card)
                if mask & bit:
                    ok = False
                    break
                mask |= bit
            if not ok:
                bad[c] = i
                break
    for c in range(n_chunks):
        if bad[c] >= 0:
            return bad[c]
    return -1
