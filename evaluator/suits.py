"""Suit permutations: relabellings of the four suits that leave given cards, or given per-card
data, unchanged. Pure Python and numpy.

A permutation ``p`` (a tuple, ``p[s]`` the image of suit ``s``) maps card ``4 * rank + s`` to
``4 * rank + p[s]``. Showdowns never depend on the suits' names, so any deal and its image
under ``p`` end the same; a computation may treat them as one when ``p`` also keeps
everything else it reads (the players' known cards, the board, dead cards, a deck's
per-card data) unchanged.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import permutations

import numpy as np

N_SUITS = 4


def permute_card(card: int, perm: Sequence[int]) -> int:
    """The image of card id ``card`` under the suit permutation ``perm``."""
    return (int(card) // N_SUITS) * N_SUITS + int(perm[int(card) % N_SUITS])


def suit_permutations_fixing(card_sets: Iterable[Iterable[int]]) -> list[tuple[int, ...]]:
    """Every suit permutation mapping each of ``card_sets`` onto itself (as a set), identity
    first. With no sets, all 24."""
    sets = [frozenset(int(c) for c in cards) for cards in card_sets]
    return [
        perm for perm in permutations(range(N_SUITS))
        if all(frozenset(permute_card(c, perm) for c in s) == s for s in sets)
    ]


def suit_permutations_preserving(data: np.ndarray) -> list[tuple[int, ...]]:
    """Every suit permutation under which per-card data is unchanged, identity first.

    ``data`` has one column per card id (any number of rows: colour, corners, effect,
    amount...); ``perm`` is kept when column ``permute_card(c, perm)`` equals column
    ``c`` for every card ``c``. Derived from the data alone: nothing is assumed about
    which suits a deck treats alike.
    """
    table = np.asarray(data)
    table = table.reshape(1, -1) if table.ndim == 1 else table
    n_cards = table.shape[1]
    if n_cards % N_SUITS:
        raise ValueError(f"per-card data has {n_cards} columns, not a multiple of {N_SUITS}")
    out = []
    for perm in permutations(range(N_SUITS)):
        image = [permute_card(c, perm) for c in range(n_cards)]
        if np.array_equal(table[:, image], table):
            out.append(perm)
    return out


def suit_permutation_array(perms: Sequence[Sequence[int]]) -> np.ndarray:
    """``perms`` as the int64 ``(n, 4)`` array kernels take (identity first)."""
    return np.array([tuple(p) for p in perms], dtype=np.int64).reshape(-1, N_SUITS)


def suit_orbit_weights(perms: np.ndarray) -> np.ndarray:
    """Per suit, the size of its orbit under ``perms`` if it is the orbit's smallest suit,
    else 0 (int64[4]): a sum over suits becomes a weighted sum over one suit per orbit."""
    out = np.zeros(N_SUITS, dtype=np.int64)
    for s in range(N_SUITS):
        orbit = {int(p[s]) for p in perms}
        if min(orbit) == s:
            out[s] = len(orbit)
    return out
