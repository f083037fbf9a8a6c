"""The 741 Brag hand classes: ranks high to low plus "s" when suited; one score each.

A class is what a player sees of a hand without the suit letters: ``"AKQs"`` (a
running flush), ``"AKQ"`` (a run), ``"QQ5"``, ``"333"``. All hands of a class
have the same score (the flag "s" is all three of one suit), and each score
belongs to one class, so classes are ordered exactly like scores. Class 0 is the
weakest (``"532"``), the last one the prial of threes.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from evaluator.brag import (
    BRAG,
    BRAG_CATEGORIES,
    BragRules,
    all_hands,
    evaluate_batch,
    get_brag_rules,
)

__all__ = ["BragClasses", "brag_classes", "class_index"]


@dataclass(frozen=True)
class BragClasses:
    """Every class under a rule set, weakest first, and the hands of each."""

    rules: BragRules
    names: tuple[str, ...]
    scores: np.ndarray
    """int32 score of each class (ascending)."""
    categories: tuple[str, ...]
    combos: np.ndarray
    """Hands in each class (4 for a prial or a suited class, 24 for a pair, 60 offsuit)."""
    hand_scores: np.ndarray
    """int32 score of every hand of :func:`evaluator.brag.all_hands`."""
    hand_class: np.ndarray
    """Class index of every hand."""
    offsets: np.ndarray
    """The hands of class ``k`` are ``members[offsets[k]:offsets[k + 1]]`` (hand indices)."""
    members: np.ndarray

    def __len__(self) -> int:
        return len(self.names)

    def index(self, name: str) -> int:
        """Index of a class name (``"AKQs"``); raises KeyError if there is none."""
        return self.names.index(name)

    def member_cards(self) -> np.ndarray:
        """uint8 ``(22100, 3)``: the cards of every hand, in ``members`` order (class by class)."""
        return np.ascontiguousarray(all_hands()[self.members])


def _class_name(hand: np.ndarray) -> str:
    cards = sorted((int(c) for c in hand), reverse=True)
    suited = len({c % 4 for c in cards}) == 1
    return "".join(BRAG.ranks[c // 4] for c in cards) + ("s" if suited else "")


@cache
def brag_classes(rules: BragRules | str | None = None) -> BragClasses:
    """The classes under ``rules`` (cached), weakest first."""
    rules = get_brag_rules(rules)
    hands = all_hands()
    scores = evaluate_batch(hands, rules)
    distinct, hand_class = np.unique(scores, return_inverse=True)
    first = np.zeros(len(distinct), dtype=np.int64)
    first[hand_class[::-1]] = np.arange(len(hands))[::-1]  # first hand of each class
    names = tuple(_class_name(hands[i]) for i in first)
    order = np.argsort(hand_class, kind="stable")
    combos = np.bincount(hand_class, minlength=len(distinct))
    offsets = np.concatenate([[0], np.cumsum(combos)]).astype(np.int64)
    cats = tuple(BRAG_CATEGORIES[int(s) >> 12] for s in distinct)
    for arr in (distinct, hand_class, order, combos, offsets):
        arr.setflags(write=False)
    return BragClasses(rules, names, distinct.astype(np.int32), cats, combos.astype(np.int64),
                       scores, hand_class.astype(np.int64), offsets, order.astype(np.int64))


def class_index(name: str, rules: BragRules | str | None = None) -> int:
    """The index of a class name such as ``"AKQs"`` or ``"T77"`` (ranks high to low)."""
    classes = brag_classes(rules)
    try:
        return classes.index(name)
    except ValueError:
        from evaluator.errors import CardError

        raise CardError(f"{name!r} is not a Brag hand class: write the ranks high to low "
                        "(e.g. AKQ, AKQs, T77, 333)") from None
