"""Exact heads-up Brag: every hand against every opponent hand it can meet, by counting.

For a hand ``h`` of score ``s`` the opponent hands sharing no card with it that
score below ``s`` are, by inclusion-exclusion over the three cards of ``h``::

    below(all) - sum_c below(hands holding c) + sum_{c<d} below(hands holding c and d)

(the hand itself is the only one holding all three cards and never scores below
itself). Each term is one binary search in a sorted list of ``(key, score)``: all
hands, the 1,225 hands holding each card, the 50 holding each pair of cards. So
the whole 22,100 x 18,424 table costs 7 x 2 vectorised searches per hand instead
of 407 million comparisons; ``tests/reference`` checks it against the plain
double loop.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from evaluator.brag import BragRules, all_hands, get_brag_rules

from .classes import brag_classes

__all__ = ["OPPONENT_HANDS", "HeadsUp", "class_headsup", "disjoint_below", "headsup_counts"]

OPPONENT_HANDS = 18_424
"""Opponent hands a hand can meet: C(49, 3)."""
_KEY = 1 << 15
"""Scores are below 2**15, so ``group * _KEY + score`` sorts by group, then score."""


@dataclass(frozen=True)
class HeadsUp:
    """Per hand of :func:`evaluator.brag.all_hands`: opponent hands it beats, ties and loses to."""

    win: np.ndarray
    tie: np.ndarray
    loss: np.ndarray


def _below(groups: np.ndarray, scores: np.ndarray, query_groups: np.ndarray,
           query_scores: np.ndarray, side: str) -> np.ndarray:
    """Entries of group ``query_groups`` scoring below (``left``) or at most (``right``) a score."""
    keys = np.sort(groups.astype(np.int64) * _KEY + scores)
    start = np.searchsorted(keys, query_groups.astype(np.int64) * _KEY, side="left")
    end = np.searchsorted(keys, query_groups.astype(np.int64) * _KEY + query_scores, side=side)
    return end - start


def disjoint_below(hands: np.ndarray, scores: np.ndarray, query: np.ndarray | None = None,
                   side: str = "left") -> np.ndarray:
    """Per hand: the hands sharing no card with it that score below ``query`` (``side="left"``)
    or at most ``query`` (``"right"``); ``query`` defaults to each hand's own score."""
    n = len(hands)
    query = scores if query is None else np.asarray(query, np.int64)
    cards = hands.astype(np.int64)
    total = _below(np.zeros(n, np.int64), scores, np.zeros(n, np.int64), query, side)
    single_groups = cards.ravel()  # every hand once per card it holds
    single_scores = np.repeat(scores, 3)
    singles = sum(_below(single_groups, single_scores, cards[:, i], query, side) for i in range(3))
    pair_ids = [(0, 1), (0, 2), (1, 2)]
    pair_groups = np.concatenate([cards[:, a] * 52 + cards[:, b] for a, b in pair_ids])
    pair_scores = np.tile(scores, 3)
    pairs = sum(_below(pair_groups, pair_scores, cards[:, a] * 52 + cards[:, b], query, side)
                for a, b in pair_ids)
    itself = (scores < query) if side == "left" else (scores <= query)  # the hand holding all three
    return total - singles + pairs - itself.astype(np.int64)


@cache
def headsup_counts(rules: BragRules | str | None = None) -> HeadsUp:
    """Exact win / tie / loss counts of every hand against all 18,424 opponent hands (cached)."""
    rules = get_brag_rules(rules)
    hands = all_hands()
    scores = brag_classes(rules).hand_scores.astype(np.int64)
    below = disjoint_below(hands, scores, side="left")
    at_most = disjoint_below(hands, scores, side="right")
    out = HeadsUp(below, at_most - below, OPPONENT_HANDS - at_most)
    for arr in (out.win, out.tie, out.loss):
        arr.setflags(write=False)
    return out


def class_headsup(rules: BragRules | str | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Exact win, tie and loss probabilities of each class against one random hand (the
    average over the class's hands: the chance for a hand of the class dealt at random)."""
    classes = brag_classes(rules)
    counts = headsup_counts(classes.rules)
    denom = classes.combos * float(OPPONENT_HANDS)
    per_class = [np.bincount(classes.hand_class, weights=c, minlength=len(classes)) / denom
                 for c in (counts.win, counts.tie, counts.loss)]
    return per_class[0], per_class[1], per_class[2]
