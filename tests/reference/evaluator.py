"""Slow, obviously correct references that the fast code is checked against.

``ref_eval5`` classifies exactly five cards by the textbook definitions (RULES
§1.3): no tables, no hashing. ``ref_best`` is the best of every five-card subset.
Values are tuples ``(category, tiebreak...)`` that compare correctly with ``<``.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from evaluator.spec import GameSpec, get_game

HIGH_CARD, ONE_PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)


def _straight_top(ranks: list[int], ace: int, wheel: bool) -> int | None:
    """Top rank index of five distinct consecutive ranks (the wheel's top is the 5), else None."""
    distinct = sorted(set(ranks))
    if len(distinct) != 5:
        return None
    if distinct[4] - distinct[0] == 4:
        return distinct[4]
    if wheel and distinct == [0, 1, 2, 3, ace]:
        return 3
    return None


def ref_eval5(cards: list[int], game: str | GameSpec = "dilemma") -> tuple[int, ...]:
    """(category, tiebreak ranks...) of exactly five card ids; larger tuples are better hands."""
    spec = get_game(game)
    assert len(cards) == 5 and len(set(cards)) == 5
    ranks = [c // spec.n_suits for c in cards]
    suits = [c % spec.n_suits for c in cards]
    flush = len(set(suits)) == 1
    top = _straight_top(ranks, spec.n_ranks - 1, spec.wheel)
    # Ranks grouped by multiplicity, then by rank: (9,9,9,2,2) -> [(3,9),(2,2)].
    groups = sorted(((n, r) for r, n in Counter(ranks).items()), reverse=True)
    shape = [n for n, _ in groups]
    order = tuple(r for _, r in groups)
    if top is not None and flush:
        return (STRAIGHT_FLUSH, top)
    if shape == [4, 1]:
        return (QUADS, *order)
    if shape == [3, 2]:
        return (FULL_HOUSE, *order)
    if flush:
        return (FLUSH, *order)
    if top is not None:
        return (STRAIGHT, top)
    if shape == [3, 1, 1]:
        return (TRIPS, *order)
    if shape == [2, 2, 1]:
        return (TWO_PAIR, *order)
    if shape == [2, 1, 1, 1]:
        return (ONE_PAIR, *order)
    return (HIGH_CARD, *order)


def ref_best(cards: list[int], game: str | GameSpec = "dilemma") -> tuple[int, ...]:
    """Value of the best five of 5 to 7 cards (same tuples as :func:`ref_eval5`)."""
    return max(ref_eval5(list(five), game) for five in combinations(cards, 5))
