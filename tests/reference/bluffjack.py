"""Slow, obviously correct Bluffjack counting and odds, written from RULES §3 (no tables).

Card ids are rank * 4 + suit (rank 0 the 2, 8 the 10, 9-11 J Q K, 12 the ace).
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

ACE = 12


def ref_values(card: int) -> tuple[int, ...]:
    """The values a card can count: an ace 1 or 11, a picture 10, others their face."""
    rank = card // 4
    if rank == ACE:
        return (1, 11)
    return (10,) if rank >= 8 else (rank + 2,)


def ref_total(cards: list[int]) -> tuple[int, bool]:
    """(best total, soft?): the highest sum not over 21 over every way of counting the aces,
    else the lowest sum (bust); soft when that best sum counts an ace as 11."""
    sums = sorted({sum(choice) for choice in product(*(ref_values(c) for c in cards))})
    ok = [s for s in sums if s <= 21]
    best = ok[-1] if ok else sums[0]
    hard = sum(1 if c // 4 == ACE else ref_values(c)[0] for c in cards)
    return best, best != hard


def ref_strength(cards: list[int], charlie: int = 0, by_cards: bool = False, exact: bool = True,
                 order21: bool = False) -> tuple[int, ...]:
    """A tuple ordering final hands as the rules do (larger is stronger, equal splits)."""
    total, _ = ref_total(cards)
    if total > 21:
        return (0,)
    if total == 21:
        if order21 and len(cards) == 2:
            other = min(c // 4 for c in cards)  # 10, J, Q or K beside the ace
            return (3, 1, other, cards[0] % 4 == cards[1] % 4)
        return (3, 0)
    if charlie and (len(cards) == charlie if exact else len(cards) >= charlie):
        return (2, len(cards) if by_cards else 0, total)
    return (1, total)


def ref_final_distribution(hand: list[int], seen: list[int], stand_on: int, charlie: int = 0,
                           exact: bool = True) -> dict[str, Fraction]:
    """Exact outcome chances of a stand-on-N player, by recursion over the identities of the
    cards left (every card drawn with chance 1/cards left), in exact fractions."""
    left = [c for c in range(52) if c not in hand and c not in seen]

    def outcome(cards: list[int]) -> str | None:
        total, _ = ref_total(cards)
        if total > 21:
            return "bust"
        if charlie and total < 21 and (len(cards) == charlie if exact else len(cards) >= charlie):
            return "charlie"
        return str(total) if total >= stand_on else None

    out: dict[str, Fraction] = {}

    def walk(cards: list[int], deck: list[int], p: Fraction) -> None:
        stop = outcome(cards)
        if stop is not None:
            out[stop] = out.get(stop, Fraction(0)) + p
            return
        for i, card in enumerate(deck):
            walk(cards + [card], deck[:i] + deck[i + 1:], p / len(deck))

    walk(list(hand), left, Fraction(1))
    return out


def ref_points(card: int) -> int:
    """Hard points: an ace 1."""
    return 1 if card // 4 == ACE else ref_values(card)[0]


def ref_play(deck: list[int], players: int, hero: int, policy, opp_stand_on: int,
             charlie: int = 0, exact: bool = True, by_cards: bool = False, order21: bool = False,
             house: bool = True) -> float:
    """The hero's pot share in one hand dealt from ``deck`` (top first): hole cards round
    the table, then up cards; turns go round from seat 0, one hit or a stand each; a player
    who stood never hits again. ``policy(total, soft, stood_live, waiting_live)`` gives the
    hero's action (True = hit) from what it sees: opponents that stood or are still hitting,
    not counting those whose visible cards alone pass 20 (surely bust)."""
    hands = [[deck[p], deck[players + p]] for p in range(players)]
    top = 2 * players
    stood = [False] * players

    def is_charlie(cards: list[int]) -> bool:
        return bool(charlie) and ref_total(cards)[0] <= 21 and (
            len(cards) == charlie if exact else len(cards) >= charlie)

    seat = 0
    while not all(stood):
        if not stood[seat]:
            cards = hands[seat]
            total, soft = ref_total(cards)
            if seat == hero:
                if total >= 21 or is_charlie(cards):
                    hit = False
                else:
                    live = [p for p in range(players) if p != hero
                            and sum(ref_points(c) for c in hands[p][1:]) <= 20]
                    hit = policy(total, soft, sum(stood[p] for p in live),
                                 sum(not stood[p] for p in live))
            else:
                hit = not (total >= opp_stand_on or is_charlie(cards))
            if hit:
                cards.append(deck[top])
                top += 1
            else:
                stood[seat] = True
        seat = (seat + 1) % players
    keys = [ref_strength(h, charlie, by_cards, exact, order21) for h in hands]
    best = max(keys)
    if best == (0,):
        return 0.0 if house else 1.0 / players
    if keys[hero] != best:
        return 0.0
    return 1.0 / keys.count(best)
