"""Exact heads-up Bluffjack between two threshold players, by enumeration of the deck.

When each player's decisions depend only on its own cards, the next card dealt is
uniform over the unseen ones whoever takes it, so the pair of final hands has the
same law as if the hero drew its whole hand first and the opponent then drew its
own from what is left. The seats (and the hit/stand interleaving) do not matter.
So the exact pot share is a sum over the hero's final hands (point multisets,
found by recursion over the deck's counts) of the opponent's exact outcome
distribution from the cards left. Pure Python, merging equal hands card by card.
The ``order21`` option needs suits and ranks of the tens and is not supported
here (the simulation covers it).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace
from functools import lru_cache

import numpy as np

from evaluator.blackjack import BluffjackRules, get_bluffjack_rules

from .probabilities import FULL, N_POINTS, OddsError

__all__ = ["headsup_threshold_equity"]


def _best(hard: int, aces: bool) -> int:
    return hard + 10 if aces and hard + 10 <= 21 else hard


def _strength(hard: int, aces: bool, cards: int, rules: BluffjackRules) -> int:
    """The showdown strength (as in the kernels, without ``order21``)."""
    if hard > 21:
        return 0
    total = _best(hard, aces)
    if total == 21:
        return 1000
    if rules.charlie and (cards == rules.charlie if rules.charlie_exact else cards >= rules.charlie):
        return 100 + (32 * cards if rules.charlie_rank == "cards" else 0) + total
    return total


def _stops(hard: int, aces: bool, cards: int, stand_on: int, rules: BluffjackRules) -> bool:
    if cards < 2:
        return False  # the two cards of the deal
    if hard > 21 or _best(hard, aces) >= stand_on:
        return True
    return bool(rules.charlie) and (cards == rules.charlie if rules.charlie_exact
                                    else cards >= rules.charlie)


def _finals(counts: tuple[int, ...], stand_on: int, rules: BluffjackRules) -> dict:
    """Final hands of a stand-on player dealt from ``counts``: ``{(counts left, hard, aces,
    cards): probability}``, card by card with the hands of equal cards merged (a hand is a
    multiset of points, so orderings that reach it are added up, never walked twice)."""
    out: dict[tuple, float] = defaultdict(float)
    level: dict[tuple, float] = {(counts, 0, False, 0): 1.0}
    while level:
        nxt: dict[tuple, float] = defaultdict(float)
        for (c, hard, aces, cards), p in level.items():
            if _stops(hard, aces, cards, stand_on, rules):
                out[(c, hard, aces, cards)] += p
                continue
            left = sum(c)
            for v in range(N_POINTS):
                if c[v]:
                    nxt[(c[:v] + (c[v] - 1,) + c[v + 1:], hard + v + 1, aces or v == 0,
                         cards + 1)] += p * c[v] / left
        level = nxt
    return out


def _strength_distribution(counts: tuple[int, ...], stand_on: int, rules: BluffjackRules,
                           memo: dict) -> dict[int, float]:
    """Distribution of a fresh stand-on player's final strength dealt from ``counts``."""
    got = memo.get(counts)
    if got is None:
        got = defaultdict(float)
        for (_, hard, aces, cards), p in _finals(counts, stand_on, rules).items():
            got[_strength(hard, aces, cards, rules)] += p
        memo[counts] = got
    return got


def headsup_threshold_equity(hero_stand_on: int, opp_stand_on: int,
                             rules: BluffjackRules | str | None = None) -> dict[str, float]:
    """Exact ``equity`` (pot share), ``win`` (outright), ``tie`` and ``all_bust`` of a hero
    standing on ``hero_stand_on`` against one opponent standing on ``opp_stand_on``."""
    rules = get_bluffjack_rules(rules)
    if rules.order21:
        raise OddsError("the exact heads-up value does not support order21 (it needs suits)")
    for n in (hero_stand_on, opp_stand_on):
        if not 2 <= int(n) <= 21:
            raise OddsError(f"stand-on totals must be 2-21; got {n}")
    # the house rule only decides who gets an all-bust pot, not who wins: one enumeration serves both
    win, tie, bust = _outcomes(int(hero_stand_on), int(opp_stand_on), replace(rules, house=True))
    equity = win + tie / 2 + (0.0 if rules.house else bust / 2)
    return {"equity": equity, "win": win, "tie": tie, "all_bust": bust}


@lru_cache(maxsize=32)
def _outcomes(hero_stand_on: int, opp_stand_on: int, rules: BluffjackRules) -> tuple[float, float, float]:
    """``(win, tie, all_bust)`` by enumeration; cached, since high stand-on totals take seconds
    (16 against 17: about 13 s, 2,086 hero hands each leaving another deck to the opponent)."""
    win = tie = bust = 0.0
    memo: dict = {}
    hero = _finals(FULL, hero_stand_on, rules)
    by_counts: dict = defaultdict(lambda: defaultdict(float))
    for (left, hard, aces, cards), p in hero.items():
        by_counts[left][_strength(hard, aces, cards, rules)] += p
    for left, strengths in by_counts.items():
        opp = _strength_distribution(left, opp_stand_on, rules, memo)
        opp_s = np.array(list(opp.keys()))
        opp_p = np.array(list(opp.values()))
        for s, p in strengths.items():
            if s == 0:
                bust += p * opp_p[opp_s == 0].sum()
                continue
            win += p * opp_p[opp_s < s].sum()
            tie += p * opp_p[opp_s == s].sum()
    return win, tie, bust
