"""Bluffjack hands (RULES §3): blackjack totals and one comparable strength per final hand.

Counting: 2-10 at face value, J/Q/K 10, an ace 1 or 11. A hand's *hard* total
counts every ace as 1; it is *soft* when one ace can count 11 without passing 21
(the total is then hard + 10). Over 21 is bust.

At showdown the highest total not over 21 wins; the rule options of the source
are data (:class:`BluffjackRules`):

- ``charlie``: a hand of ``charlie`` cards (5, 7 or 10 in the source) that is not
  bust beats every total but 21. Variant ``charlie_rank="total"`` (the source's
  first): exactly that many cards, and between Charlies the higher total wins;
  ``charlie_rank="cards"`` (the second): at least that many cards, and more cards
  win (then the higher total). ``charlie_exact`` overrides "exactly"/"at least".
- ``order21``: 21s are ranked: A+K suited > A+K > A+Q suited > A+Q > A+J suited >
  A+J > A+10 suited > A+10 > 21 with three or more cards.
- ``house``: an all-bust showdown pot goes to the house (removed); ``False``: it is
  set aside for the last survivor of the game.

A strength is an int, higher is better, equal is a split: bust 0, a plain total
its value (4-20), a Charlie ``100 + 32 * cards (variant "cards") + total``, a 21
``1000`` (+1..8 for the ranked two-card 21s with ``order21``).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, Literal

import numpy as np

from . import _blackjack_kernels as K
from .cards import CardsLike, format_cards, parse_cards
from .errors import LabError
from .spec import HOLDEM, GameSpec

__all__ = [
    "BLUFFJACK",
    "RULE_SETS",
    "BluffjackRuleError",
    "BluffjackRules",
    "Total",
    "card_points",
    "describe_hand",
    "get_bluffjack_rules",
    "hand_strength",
    "hand_total",
]

BLUFFJACK = GameSpec(
    name="bluffjack",
    ranks=HOLDEM.ranks,
    rank_aliases=(("10", "T"),),
    wheel=False,
    description="Bluffjack: the standard 52-card deck, blackjack counting.",
    streets=(),
    hand_rule="blackjack",
    structure="",
)
"""The Bluffjack deck: the 52 cards (card id = rank * 4 + suit) under its own name."""

MAX_CHARLIE = 11
"""The most cards a hand can hold without passing 21 (A A A A 2 2 2 2 3 3 3)."""


class BluffjackRuleError(LabError):
    """A Bluffjack rule option that does not exist or has a value the rules do not allow."""


@dataclass(frozen=True)
class BluffjackRules:
    """The showdown options of the source (all off: the base rules)."""

    charlie: int = 0
    """0 (off) or the Charlie card count (the source: 5, 7 or 10)."""
    charlie_rank: Literal["total", "cards"] = "total"
    charlie_exact: bool | None = None
    """Exactly ``charlie`` cards (``True``) or at least (``False``); default: exactly for the
    ``total`` variant (the source: ピッタリ, "exactly"), at least for ``cards`` (最低, "minimum")."""
    order21: bool = False
    house: bool = True

    def __post_init__(self) -> None:
        if isinstance(self.charlie, bool) or not isinstance(self.charlie, int | np.integer) \
                or not (self.charlie == 0 or 3 <= self.charlie <= MAX_CHARLIE):
            raise BluffjackRuleError(f"charlie must be 0 (off) or a card count 3-{MAX_CHARLIE} "
                                     f"(the source: 5, 7 or 10); got {self.charlie!r}")
        if self.charlie_rank not in ("total", "cards"):
            raise BluffjackRuleError(f"charlie_rank must be 'total' (higher total wins between "
                                     f"Charlies) or 'cards' (more cards win); got {self.charlie_rank!r}")
        for name in ("order21", "house"):
            if not isinstance(getattr(self, name), bool):
                raise BluffjackRuleError(f"{name} must be true or false; got {getattr(self, name)!r}")
        if self.charlie_exact is None:
            object.__setattr__(self, "charlie_exact", self.charlie_rank == "total")
        elif not isinstance(self.charlie_exact, bool):
            raise BluffjackRuleError(f"charlie_exact must be true or false; got {self.charlie_exact!r}")

    @property
    def name(self) -> str:
        """A short label: ``source`` or the options that differ, e.g. ``charlie5+order21``."""
        parts = []
        if self.charlie:
            parts.append(f"charlie{self.charlie}" + ("-cards" if self.charlie_rank == "cards" else ""))
            if self.charlie_exact != (self.charlie_rank == "total"):
                parts.append("exact" if self.charlie_exact else "at-least")
        if self.order21:
            parts.append("order21")
        if not self.house:
            parts.append("no-house")
        return "+".join(parts) or "source"

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def kernel_args(self) -> np.ndarray:
        """int64 ``[charlie, by_cards, exact, order21, house]`` (columns ``R_*`` of the kernels)."""
        return np.array([self.charlie, self.charlie_rank == "cards", bool(self.charlie_exact),
                         self.order21, self.house], dtype=np.int64)


RULE_SETS: dict[str, BluffjackRules] = {
    "source": BluffjackRules(),
    "charlie5": BluffjackRules(charlie=5),
    "charlie7": BluffjackRules(charlie=7),
    "charlie10": BluffjackRules(charlie=10),
    "charlie5-cards": BluffjackRules(charlie=5, charlie_rank="cards"),
    "order21": BluffjackRules(order21=True),
    "no-house": BluffjackRules(house=False),
}
"""Named rule sets: the base rules and each option of the source alone."""

_BOOLS = {"true": True, "yes": True, "1": True, "on": True, "false": False, "no": False, "0": False,
          "off": False}


def _parse_options(text: str) -> dict[str, Any]:
    """``"charlie=5,order21=true"`` to a dict (values converted by the field's type)."""
    known = {f.name for f in fields(BluffjackRules)}
    out: dict[str, Any] = {}
    for part in text.split(","):
        key, sep, value = (x.strip() for x in part.partition("="))
        if not key:
            continue
        if key not in known:
            raise BluffjackRuleError(f"unknown Bluffjack rule option {key!r}: the options are "
                                     f"{', '.join(sorted(known))} (or a rule set: {', '.join(RULE_SETS)})")
        if not sep:
            raise BluffjackRuleError(f"rule option {key!r} needs a value, e.g. {key}=...")
        if key == "charlie":
            try:
                out[key] = int(value)
            except ValueError:
                raise BluffjackRuleError(f"charlie must be a card count; got {value!r}") from None
        elif key == "charlie_rank":
            out[key] = value
        else:
            if value.lower() not in _BOOLS:
                raise BluffjackRuleError(f"{key} must be true or false; got {value!r}")
            out[key] = _BOOLS[value.lower()]
    return out


def get_bluffjack_rules(rules: BluffjackRules | str | dict[str, Any] | None = None) -> BluffjackRules:
    """Rules from ``None`` (the base rules), a rule-set name (``charlie5``), options text
    (``"charlie=7,order21=true"``), a dict, or rules."""
    if rules is None:
        return BluffjackRules()
    if isinstance(rules, BluffjackRules):
        return rules
    if isinstance(rules, str):
        name = rules.strip().lower()
        if name in RULE_SETS:
            return RULE_SETS[name]
        if "=" not in name:
            raise BluffjackRuleError(f"unknown Bluffjack rules {rules!r}: choose one of "
                                     f"{', '.join(RULE_SETS)} or give options such as charlie=5,order21=true")
        return BluffjackRules(**_parse_options(rules))
    if isinstance(rules, dict):
        known = {f.name for f in fields(BluffjackRules)}
        unknown = sorted(set(rules) - known)
        if unknown:
            raise BluffjackRuleError(f"unknown Bluffjack rule option {unknown[0]!r}: the options are "
                                     f"{', '.join(sorted(known))}")
        return BluffjackRules(**rules)
    raise BluffjackRuleError(f"Bluffjack rules must be a name, a dict or BluffjackRules; got "
                             f"{type(rules).__name__}")


@dataclass(frozen=True)
class Total:
    """A hand's count: best total, hard total, whether it is soft, cards, bust."""

    total: int
    hard: int
    soft: bool
    cards: int

    @property
    def bust(self) -> bool:
        return self.hard > 21

    def __str__(self) -> str:
        if self.bust:
            return f"bust ({self.hard})"
        return f"{'soft' if self.soft else 'hard'} {self.total}"


def card_points(card: int) -> int:
    """Hard points of a card id: 2-10 face value, J/Q/K 10, A 1."""
    return int(K.card_points(np.int64(card)))


def _ids(cards: CardsLike) -> list[int]:
    return parse_cards(cards, BLUFFJACK)


def hand_total(cards: CardsLike) -> Total:
    """The count of a hand, e.g. ``hand_total("As 6d")`` is soft 17."""
    ids = _ids(cards)
    hard = sum(card_points(c) for c in ids)
    aces = any(c // 4 == 12 for c in ids)
    best = int(K.best_total(np.int64(hard), aces))
    return Total(best, hard, best != hard, len(ids))


def hand_strength(cards: CardsLike, rules: BluffjackRules | str | None = None) -> int:
    """The showdown strength of a final hand under ``rules`` (higher is better, equal splits)."""
    ids = np.array(_ids(cards), dtype=np.int64)
    rules = get_bluffjack_rules(rules)
    if len(ids) == 0:
        raise BluffjackRuleError("a Bluffjack hand needs at least one card")
    return int(K.strength_of_cards(ids, len(ids), rules.kernel_args))


def describe_hand(cards: CardsLike, rules: BluffjackRules | str | None = None) -> str:
    """One line: ``"soft 17 (As 6d)"``, ``"21, A+K suited (As Ks)"``, ``"charlie 5, 19 (...)"``."""
    ids = _ids(cards)
    rules = get_bluffjack_rules(rules)
    t = hand_total(ids)
    s = hand_strength(ids, rules)
    shown = format_cards(ids, BLUFFJACK)
    if t.bust:
        return f"bust, {t.hard} ({shown})"
    if t.total == 21:
        if rules.order21 and len(ids) == 2:
            ten = BLUFFJACK.ranks[min(ids) // 4]
            suited = "suited" if ids[0] % 4 == ids[1] % 4 else "offsuit"
            return f"21, A+{ten} {suited} ({shown})"
        return f"21 ({shown})"
    if s >= K.CHARLIE_BASE:
        return f"charlie {len(ids)}, {t} ({shown})"
    return f"{t} ({shown})"
