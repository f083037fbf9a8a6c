"""RULES §1.3 ``kickers=top`` inside kernels that hold the cards but not the score map.

:func:`top_kicker_key` gives a hand the key a showdown compares when only the highest card
outside the made hand counts: ``category << 12`` plus the made rank and the top kicker for
one pair and three of a kind, plus the top card for high card; the score itself for every
other category. The keys order hands exactly as :func:`evaluator.kickers.kicker_map`
orders their scores (tested on every 5-, 6- and 7-card hand of both decks), and a key
maps to itself (calling it again on a key is harmless).
"""

from __future__ import annotations

import numpy as np

from .jit import kernel
from .tables import CATEGORY_SHIFT, HIGH_CARD, ONE_PAIR, TRIPS

_RANK_BITS = 4
"""Bits of the top kicker in a key (ranks are below 16)."""


@kernel(inline=True)
def _top_rank(mask):
    """The highest rank whose bit is set in ``mask`` (non-zero)."""
    r = 0
    while mask >> (r + 1):
        r += 1
    return r


@kernel(inline=True)
def top_kicker_key(score, cards, n):
    """The ``kickers=top`` showdown key of the ``n`` cards ``cards[:n]`` scored ``score``.

    Reads the ranks (``card >> 2``) only for one pair, three of a kind and high card;
    other scores are returned as they are.
    """
    cat = np.int64(score) >> CATEGORY_SHIFT
    if cat != HIGH_CARD and cat != ONE_PAIR and cat != TRIPS:
        return np.int64(score)
    once = np.int64(0)
    twice = np.int64(0)
    thrice = np.int64(0)
    for i in range(n):
        bit = np.int64(1) << (np.int64(cards[i]) >> 2)
        thrice |= twice & bit
        twice |= once & bit
        once |= bit
    if cat == HIGH_CARD:
        return (cat << CATEGORY_SHIFT) | _top_rank(once)
    made = _top_rank(thrice if cat == TRIPS else twice)
    kicker = _top_rank(once & ~(np.int64(1) << made))
    return (cat << CATEGORY_SHIFT) | (made << _RANK_BITS) | kicker
