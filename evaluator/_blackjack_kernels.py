"""Numba kernels of Bluffjack counting: card points, best totals, showdown strengths.

A hand in a kernel is ``(hard, aces, cards)``: the hard total (aces as 1), whether
it holds an ace, and its card count; two-card 21s also need their two card ids
(for the ``order21`` option). ``rules`` is ``BluffjackRules.kernel_args``:
int64 ``[charlie, by_cards, exact, order21, house]`` (columns ``R_*``).
"""

from __future__ import annotations

from .jit import kernel

R_CHARLIE = 0
R_BY_CARDS = 1
R_EXACT = 2
R_ORDER21 = 3
R_HOUSE = 4

ACE_RANK = 12
CHARLIE_BASE = 100
CARDS_WEIGHT = 32
TWENTY_ONE = 1000


@kernel(inline=True)
def card_points(card):
    """Hard points of a card id (rank * 4 + suit): 2-10 face value, J/Q/K 10, A 1."""
    rank = card >> 2
    if rank == ACE_RANK:
        return 1
    if rank >= 8:
        return 10
    return rank + 2


@kernel(inline=True)
def best_total(hard, aces):
    """The best total: hard + 10 when an ace can count 11 without passing 21."""
    if aces and hard + 10 <= 21:
        return hard + 10
    return hard


@kernel(inline=True)
def natural_rank(c0, c1):
    """Order of a two-card 21 under ``order21``: A+K suited 8, A+K 7, ... A+10 suited 2, A+10 1."""
    ten = min(c0 >> 2, c1 >> 2)  # a two-card 21 is an ace (rank 12) and a 10, J, Q or K (8-11)
    suited = 1 if (c0 & 3) == (c1 & 3) else 0
    return 2 * (ten - 8) + 1 + suited


@kernel(inline=True)
def strength(hard, aces, cards, c0, c1, rules):
    """Showdown strength (higher is better, equal splits) of a final hand; ``c0, c1`` are its
    first two cards (read only for a two-card 21 with ``order21``)."""
    if hard > 21:
        return 0
    total = best_total(hard, aces)
    if total == 21:
        if rules[R_ORDER21] != 0 and cards == 2:
            return TWENTY_ONE + natural_rank(c0, c1)
        return TWENTY_ONE
    charlie = rules[R_CHARLIE]
    if charlie > 0:
        is_charlie = cards == charlie if rules[R_EXACT] != 0 else cards >= charlie
        if is_charlie:
            if rules[R_BY_CARDS] != 0:
                return CHARLIE_BASE + CARDS_WEIGHT * cards + total
            return CHARLIE_BASE + total
    return total


@kernel(inline=True)
def is_charlie(hard, aces, cards, rules):
    """Whether a hand that is not bust is a Charlie (a threshold player stands on one)."""
    charlie = rules[R_CHARLIE]
    if charlie == 0 or hard > 21:
        return False
    return cards == charlie if rules[R_EXACT] != 0 else cards >= charlie


@kernel
def strength_of_cards(cards, n, rules):
    """Strength of the first ``n`` card ids of an int64 array."""
    hard = 0
    aces = False
    for i in range(n):
        hard += card_points(cards[i])
        aces = aces or (cards[i] >> 2) == ACE_RANK
    c1 = cards[1] if n > 1 else cards[0]
    return strength(hard, aces, n, cards[0], c1, rules)
