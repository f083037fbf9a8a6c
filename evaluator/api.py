"""Validating Python wrappers around the evaluator kernels.

Scores are plain ints: ``category << 12 | ordinal``; higher is better, equal is a tie.
"""

from __future__ import annotations

import numpy as np

from . import _kernels as K
from . import _simd7
from .cards import CardsLike, card_rows, format_cards, invalid_row_error, parse_cards
from .errors import CardError
from .spec import CATEGORIES, GameSpec, get_game
from .tables import CATEGORY_SHIFT, FLUSH, STRAIGHT_FLUSH, get_tables

HAND_SIZES = (5, 6, 7)


def _hand(cards: CardsLike, game: str | GameSpec) -> np.ndarray:
    spec = get_game(game)
    ids = parse_cards(cards, spec)
    if len(ids) not in HAND_SIZES:
        raise CardError(
            f"a hand has 5, 6 or 7 cards; got {len(ids)} ({format_cards(ids, spec) or 'none'})"
        )
    return np.array(ids, dtype=np.uint8)


def evaluate(cards: CardsLike, game: str | GameSpec = "dilemma") -> int:
    """Score of a 5-7 card hand, e.g. ``evaluate("As 10s 9s 8s 7s")``; higher is better."""
    hand = _hand(cards, game)
    return int(K.score_cards(hand, len(hand), get_tables(game).kernel_args))


def evaluate_batch(
    hands: np.ndarray, game: str | GameSpec = "dilemma", *, threads: bool = True
) -> np.ndarray:
    """Scores (int32) of the rows of an ``(n, k)`` array of card ids, k in 5..7.

    Any integer dtype is taken: uint8 and int64 as they are, others widened to int64 in
    one pass (the kernels are compiled for those two dtypes). Rows are validated (ids in the deck, no card twice in a row) in the
    scoring pass itself; it runs in parallel over all numba threads unless
    ``threads=False``. 7-card rows run the AVX-512 kernel where the CPU has it (``_simd7``).
    """
    spec = get_game(game)
    arr = card_rows(hands, HAND_SIZES, "hands must be an (n, 5|6|7) array of card ids")
    out = np.empty(arr.shape[0], dtype=np.int32)
    if not arr.size:
        return out
    tables = get_tables(spec)
    if arr.shape[1] == _simd7.CARDS and tables.simd7 is not None and _simd7.available():
        simd = _simd7.score7 if threads else _simd7.score7_serial
        bad = simd(arr, tables.simd7, tables.kernel_args, spec.n_cards, out)
    else:
        kernel = K.score_checked if threads else K.score_checked_serial
        bad = kernel(arr, tables.kernel_args, spec.n_cards, out)
    if bad >= 0:
        raise invalid_row_error(arr, bad, spec)
    return out


def category_code(score: int) -> int:
    """The category index (0 = high_card ... 8 = straight_flush) of a score."""
    return int(score) >> CATEGORY_SHIFT


def category(score: int) -> str:
    """The category name of a score, e.g. ``"full_house"``."""
    code = category_code(score)
    if not 0 <= code < len(CATEGORIES):
        raise CardError(f"{score} is not a hand score")
    return CATEGORIES[code]


def _five_ranks(score: int, game: str | GameSpec) -> tuple[int, ...]:
    return tuple(int(r) for r in get_tables(game).decode[int(score)])


def best_five(cards: CardsLike, game: str | GameSpec = "dilemma") -> list[int]:
    """The five card ids that make the hand, in reading order (``["As", "Ah", "Ad", "9c", "9s"]``)."""
    spec = get_game(game)
    hand = [int(c) for c in _hand(cards, spec)]
    score = int(K.score_cards(np.array(hand, np.uint8), len(hand), get_tables(spec).kernel_args))
    ranks = _five_ranks(score, spec)
    pool = sorted(hand, reverse=True)  # highest suit index first among equal ranks
    if category_code(score) in (FLUSH, STRAIGHT_FLUSH):
        suits = [c % spec.n_suits for c in hand]
        flush_suit = max(set(suits), key=suits.count)
        pool = [c for c in pool if c % spec.n_suits == flush_suit]
    chosen: list[int] = []
    for r in ranks:
        card = next(c for c in pool if c // spec.n_suits == r and c not in chosen)
        chosen.append(card)
    return chosen


_READING = {
    "high_card": "{0} high",
    "one_pair": "pair of {0}s",
    "two_pair": "{0}s and {2}s",
    "three_of_a_kind": "three {0}s",
    "straight": "{0} high",
    "flush": "{0} high",
    "full_house": "{0}s full of {3}s",
    "four_of_a_kind": "four {0}s",
    "straight_flush": "{0} high",
}


def describe(cards: CardsLike, game: str | GameSpec = "dilemma") -> str:
    """A one-line reading of a hand: ``"full_house, As full of 9s (Ad Ah As 9c 9s)"``."""
    spec = get_game(game)
    score = evaluate(cards, spec)
    names = [spec.ranks[r] for r in _five_ranks(score, spec)]
    five = format_cards(best_five(cards, spec), spec)
    return f"{category(score)}, {_READING[category(score)].format(*names)} ({five})"


def category_counts(game: str | GameSpec = "dilemma", n_cards: int = 7) -> dict[str, int]:
    """Exact number of hands of each category over all ``n_cards``-card hands, enumerated."""
    spec = get_game(game)
    if n_cards not in HAND_SIZES:
        raise CardError(f"hand size must be 5, 6 or 7; got {n_cards}")
    counts = K.category_counts(spec.n_cards, n_cards, get_tables(spec).kernel_args)
    return {name: int(c) for name, c in zip(CATEGORIES, counts, strict=True)}
