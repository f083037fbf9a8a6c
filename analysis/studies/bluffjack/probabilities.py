"""Exact Bluffjack odds: busting on the next card, and the final total of a stand-on-N player.

The deck left is the 52 cards minus your hand and the cards you can see. Only
points matter for totals, so the deck is ten counts (aces, 2, ..., 9, and the 16
cards worth 10). A player who *stands on N* hits until its best total is at least
``N`` (or it is bust, or, under a Charlie rule, it holds a Charlie). Its final
outcome distribution is found by recursion over the counts left, each draw
weighed by its count: every ordering of the deck is covered, nothing sampled
(``tests/reference/bluffjack.py`` checks it against a recursion over the 52 card
identities themselves). States are memoised on the counts left, shared by every
starting hand of a table.

Outcomes: a final total ``4``-``21`` (not a Charlie), ``charlie`` (a Charlie below 21:
a Charlie of 21 counts as 21, which beats it), ``bust``.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations_with_replacement

import numpy as np
import pandas as pd

from evaluator.blackjack import BLUFFJACK, BluffjackRules, card_points, get_bluffjack_rules
from evaluator.cards import CardsLike, format_cards, parse_cards
from evaluator.errors import CardError, LabError

__all__ = ["OUTCOMES", "OddsError", "bust_next", "final_distribution", "final_total_table",
           "start_label"]

N_POINTS = 10
FULL = (4, 4, 4, 4, 4, 4, 4, 4, 4, 16)
"""Cards of each point value 1 (ace) .. 10 in a full deck."""
BUST = 22
CHARLIE = 23
OUTCOMES = tuple(str(t) for t in range(22)) + ("bust", "charlie")
"""Index -> outcome name of a distribution vector."""


class OddsError(LabError):
    """A hand, seen cards or stand-on total the odds cannot be computed for."""


def _counts(cards: Iterable[int]) -> list[int]:
    counts = list(FULL)
    for c in cards:
        counts[card_points(c) - 1] -= 1
    return counts


def _best(hard: int, aces: bool) -> int:
    return hard + 10 if aces and hard + 10 <= 21 else hard


def _stops(hard: int, aces: bool, cards: int, stand_on: int, rules: BluffjackRules) -> int | None:
    """The outcome index if a stand-on-``stand_on`` player stops here, else None (it hits)."""
    if hard > 21:
        return BUST
    total = _best(hard, aces)
    if rules.charlie and total < 21 and (cards == rules.charlie if rules.charlie_exact
                                         else cards >= rules.charlie):
        return CHARLIE
    return total if total >= stand_on else None


class _Odds:
    """Memoised outcome distributions of a stand-on-N player for one rule set."""

    def __init__(self, stand_on: int, rules: BluffjackRules) -> None:
        self.stand_on = stand_on
        self.rules = rules
        self.memo: dict[tuple, np.ndarray] = {}

    def __call__(self, counts: tuple[int, ...], hard: int, aces: bool, cards: int) -> np.ndarray:
        key = (counts, hard, aces, cards)
        got = self.memo.get(key)
        if got is not None:
            return got
        out = np.zeros(len(OUTCOMES))
        stop = _stops(hard, aces, cards, self.stand_on, self.rules)
        left = sum(counts)
        if stop is not None:
            out[stop] = 1.0
        elif left == 0:
            out[_best(hard, aces)] = 1.0  # no card left to hit: it stands where it is
        else:
            for v in range(N_POINTS):
                if counts[v]:
                    nxt = counts[:v] + (counts[v] - 1,) + counts[v + 1:]
                    out += counts[v] / left * self(nxt, hard + v + 1, aces or v == 0, cards + 1)
        self.memo[key] = out
        return out


def _hand_and_seen(hand: CardsLike, seen: CardsLike) -> tuple[list[int], list[int]]:
    ids = parse_cards(hand, BLUFFJACK)
    others = parse_cards(seen, BLUFFJACK) if seen else []
    if not ids:
        raise OddsError("no cards in the hand")
    both = set(ids) & set(others)
    if both:
        raise CardError(f"card {format_cards(sorted(both)[:1], BLUFFJACK)} is both in the hand and seen")
    return ids, others


def _check_stand_on(stand_on: int) -> int:
    if isinstance(stand_on, bool) or not isinstance(stand_on, int | np.integer) or not 2 <= stand_on <= 21:
        raise OddsError(f"stand-on total must be a whole number 2-21; got {stand_on!r}")
    return int(stand_on)


def bust_next(hand: CardsLike, seen: CardsLike = ()) -> float:
    """The chance that one more card busts ``hand``, the hand and ``seen`` cards removed."""
    ids, others = _hand_and_seen(hand, seen)
    counts = _counts(ids + others)
    hard = sum(card_points(c) for c in ids)
    left = sum(counts)
    if left == 0:
        raise OddsError("no card is left in the deck")
    return sum(counts[v] for v in range(N_POINTS) if hard + v + 1 > 21) / left


def final_distribution(hand: CardsLike, seen: CardsLike = (), stand_on: int = 17,
                       rules: BluffjackRules | str | None = None) -> dict[str, float]:
    """Exact chance of each final outcome of a player who stands on ``stand_on`` from ``hand``
    (only outcomes with a positive chance are listed)."""
    ids, others = _hand_and_seen(hand, seen)
    odds = _Odds(_check_stand_on(stand_on), get_bluffjack_rules(rules))
    dist = odds(tuple(_counts(ids + others)), sum(card_points(c) for c in ids),
                any(c // 4 == 12 for c in ids), len(ids))
    return {OUTCOMES[i]: float(p) for i, p in enumerate(dist) if p > 0}


def start_label(hard: int, aces: bool) -> str:
    """``"hard 16"`` or ``"soft 17"``."""
    best = _best(hard, aces)
    return f"{'soft' if best != hard else 'hard'} {best}"


def final_total_table(stand_on: Iterable[int] = range(12, 22),
                      rules: BluffjackRules | str | None = None) -> pd.DataFrame:
    """Every two-card start (hard 4-20, soft 12-21) against every stand-on total: the exact
    chance of busting on the next card and of each final outcome, averaged over the two-card
    hands of that start (only those two cards removed from the deck).

    Long format: ``start, hard, soft, total, hands, stand_on, p_bust_next, outcome,
    probability`` (one row per outcome with a positive chance)."""
    rules = get_bluffjack_rules(rules)
    starts: dict[str, dict] = {}
    for a, b in combinations_with_replacement(range(N_POINTS), 2):
        weight = FULL[a] * (FULL[a] - 1) // 2 if a == b else FULL[a] * FULL[b]
        hard, aces = a + b + 2, a == 0 or b == 0
        counts = list(FULL)
        counts[a] -= 1
        counts[b] -= 1
        label = start_label(hard, aces)
        entry = starts.setdefault(label, {"hard": hard, "aces": aces, "parts": []})
        entry["parts"].append((weight, tuple(counts), hard, aces))
    rows = []
    for n in stand_on:
        odds = _Odds(_check_stand_on(n), rules)
        for label, entry in starts.items():
            total_w = sum(w for w, *_ in entry["parts"])
            dist = sum(w * odds(c, h, ac, 2) for w, c, h, ac in entry["parts"]) / total_w
            bust = sum(w * sum(c[v] for v in range(N_POINTS) if h + v + 1 > 21) / 50
                       for w, c, h, _ in entry["parts"]) / total_w
            soft, total = label.split()
            for i, p in enumerate(dist):
                if p > 0:
                    rows.append({"start": label, "soft": soft == "soft", "total": int(total),
                                 "hands": total_w, "stand_on": int(n), "p_bust_next": bust,
                                 "outcome": OUTCOMES[i], "probability": float(p)})
    df = pd.DataFrame(rows)
    return df.sort_values(["stand_on", "soft", "total"], kind="stable", ignore_index=True)
