"""Three Card Brag hand ranking (RULES §4): one comparable integer per 3-card hand.

Categories, weakest first: high card, pair, flush, run, running flush, prial.
Prials rank 3-3-3 best, then A-A-A, K-K-K ... 2-2-2. Runs and running flushes
rank by their top card: A-K-Q highest ... 4-3-2, and 3-2-A lowest (the source;
RULES §4 marks it a [choice]); 2-A-K is not a run. The rule option
``BragRules(a23="high")`` (``a23=high``) makes 3-2-A the best run instead (pagat's
rule, which the source names as its basis). Flushes and high cards compare by the
highest card, then the next, then the last; pairs by the pair, then the odd
card. There is no suit order, so equal scores are exact ties.

A score is ``category << 12 | ordinal`` (higher is better), the same shape as
the poker scores. The kernel looks the score up in a table of 2 x 13^3 entries
indexed by (flush?, the three ranks high to low); the table is built here from
the definitions above, and ``tests/reference/brag.py`` checks it against an
independent classification of all 22,100 hands.

Cards are the 52-card deck of Texas Hold'em (card id = rank * 4 + suit, rank 0
= the 2); notation ``As 10h Td 2c`` as everywhere in the lab.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from functools import cache
from itertools import combinations
from typing import Any, Literal

import numpy as np

from . import _brag_kernels as K
from ._kernels import first_invalid_row, first_invalid_row_serial
from .cards import CardsLike, card_rows, format_cards, invalid_row_error, parse_cards
from .errors import CardError, LabError
from .spec import HOLDEM, GameSpec

__all__ = [
    "BRAG",
    "BRAG_CATEGORIES",
    "N_HANDS",
    "BragRules",
    "BragRuleError",
    "all_hands",
    "category",
    "category_code",
    "category_counts",
    "describe",
    "evaluate",
    "evaluate_batch",
    "get_brag_rules",
    "hand_class",
    "score_table",
]

BRAG = GameSpec(
    name="brag",
    ranks=HOLDEM.ranks,
    rank_aliases=(("10", "T"),),
    wheel=False,
    description="Three Card Brag: the standard 52-card deck, three cards a hand.",
    hole_cards=3,
    streets=(),
    hand_rule="brag3",
    structure="",
)
"""The Brag deck: the 52 cards of Texas Hold'em under the name ``brag`` (for messages)."""

BRAG_CATEGORIES: tuple[str, ...] = ("high_card", "pair", "flush", "run", "running_flush", "prial")
"""Brag categories in strength order (index = category code, higher is better)."""
HIGH_CARD, PAIR, FLUSH, RUN, RUNNING_FLUSH, PRIAL = range(6)
CATEGORY_SHIFT = 12
N_HANDS = 22_100
"""Number of 3-card hands of 52 cards."""
HAND_SIZE = 3

_ACE = 12
_THREE = 1
_RANKS = HOLDEM.n_ranks  # 13


class BragRuleError(LabError):
    """A Brag rule option that does not exist or has a value the rules do not allow."""


@dataclass(frozen=True)
class BragRules:
    """The ranking options of Brag, as data.

    ``a23``: ``"low"`` (the source: 3-2-A is the lowest run and running flush) or
    ``"high"`` (the common variant: A-2-3 is the best run and running flush).
    """

    a23: Literal["low", "high"] = "low"

    def __post_init__(self) -> None:
        if self.a23 not in ("low", "high"):
            raise BragRuleError(f"a23 must be 'low' (3-2-A lowest run, the source) or 'high' "
                                f"(A-2-3 best run); got {self.a23!r}")

    @property
    def name(self) -> str:
        """A short label for tables and captions: ``source`` or ``a23-high``."""
        return "source" if self.a23 == "low" else "a23-high"

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


RULE_SETS: dict[str, BragRules] = {"source": BragRules(), "a23-high": BragRules(a23="high")}
"""Named rule sets (``--rules`` on the command line)."""


def get_brag_rules(rules: BragRules | str | dict[str, Any] | None = None) -> BragRules:
    """Rules from ``None`` (the source), a name (``source``, ``a23-high``), options
    (``a23=high``), a dict or rules."""
    if rules is None:
        return BragRules()
    if isinstance(rules, BragRules):
        return rules
    if isinstance(rules, str) and "=" in rules:
        options = {}
        for part in rules.split(","):
            key, _, value = part.partition("=")
            if not key.strip() or not value.strip():
                raise BragRuleError(f"Brag rule option {part.strip()!r}: write name=value, e.g. a23=high")
            options[key.strip().lower()] = value.strip().lower()
        return get_brag_rules(options)
    if isinstance(rules, str):
        try:
            return RULE_SETS[rules.strip().lower()]
        except KeyError:
            raise BragRuleError(f"unknown Brag rules {rules!r}: choose one of "
                                f"{', '.join(RULE_SETS)} (or options: a23=high)") from None
    if isinstance(rules, dict):
        known = {f.name for f in fields(BragRules)}
        unknown = sorted(set(rules) - known)
        if unknown:
            raise BragRuleError(f"unknown Brag rule option {unknown[0]!r}: the options are "
                                f"{', '.join(sorted(known))}")
        return BragRules(**rules)
    raise BragRuleError(f"Brag rules must be a name, a dict or BragRules; got {type(rules).__name__}")


# ----------------------------------------------------------------------------- the definition


def _run_top(hi: int, mid: int, lo: int) -> int | None:
    """Top rank of a run of three distinct ranks given high to low; the run 3-2-A gives -1."""
    if hi - mid == 1 and mid - lo == 1:
        return hi
    if (hi, mid, lo) == (_ACE, _THREE, 0):
        return -1
    return None


def score_from_ranks(hi: int, mid: int, lo: int, flush: bool, rules: BragRules) -> int:
    """The score of a hand with ranks ``hi >= mid >= lo`` (rank 0 = the 2) and a flush flag."""
    if hi == lo:
        return PRIAL << CATEGORY_SHIFT | (_RANKS if hi == _THREE else hi)
    if hi == mid or mid == lo:
        pair, odd = (hi, lo) if hi == mid else (lo, hi)
        return PAIR << CATEGORY_SHIFT | (pair * _RANKS + odd)
    top = _run_top(hi, mid, lo)
    if top is not None:
        ordinal = (_RANKS if rules.a23 == "high" else 0) if top == -1 else top
        return (RUNNING_FLUSH if flush else RUN) << CATEGORY_SHIFT | ordinal
    kicker = (hi * _RANKS + mid) * _RANKS + lo
    return (FLUSH if flush else HIGH_CARD) << CATEGORY_SHIFT | kicker


@cache
def score_table(rules: BragRules = BragRules()) -> np.ndarray:
    """int32[2 * 13^3]: the score at ``flush * 2197 + (hi * 13 + mid) * 13 + lo`` (kernels' table).

    Entries whose ranks are not high to low, or flushes with a repeated rank, are -1."""
    rules = get_brag_rules(rules)
    table = np.full(2 * _RANKS**3, -1, dtype=np.int32)
    for hi in range(_RANKS):
        for mid in range(hi + 1):
            for lo in range(mid + 1):
                idx = (hi * _RANKS + mid) * _RANKS + lo
                table[idx] = score_from_ranks(hi, mid, lo, False, rules)
                if hi != mid and mid != lo:
                    table[_RANKS**3 + idx] = score_from_ranks(hi, mid, lo, True, rules)
    table.setflags(write=False)
    return table


# ----------------------------------------------------------------------------- public API


def _hand(cards: CardsLike) -> np.ndarray:
    ids = parse_cards(cards, BRAG)
    if len(ids) != HAND_SIZE:
        raise CardError(f"a Brag hand has 3 cards; got {len(ids)} ({format_cards(ids, BRAG) or 'none'})")
    return np.array(ids, dtype=np.uint8)


def evaluate(cards: CardsLike, rules: BragRules | str | None = None) -> int:
    """Score of a 3-card Brag hand, e.g. ``evaluate("3s 3h 3d")``; higher is better, equal ties."""
    hand = _hand(cards)
    return int(K.score3(hand[0], hand[1], hand[2], score_table(get_brag_rules(rules))))


def evaluate_batch(hands: np.ndarray, rules: BragRules | str | None = None, *,
                   threads: bool = True) -> np.ndarray:
    """Scores (int32) of the rows of an ``(n, 3)`` array of card ids of any integer dtype
    (uint8 and int64 as they are, others widened to int64), validated (ids in the deck, no card twice in a row); parallel over all
    numba threads unless ``threads=False``."""
    arr = card_rows(hands, (HAND_SIZE,), "Brag hands must be an (n, 3) array of card ids")
    check = first_invalid_row if threads else first_invalid_row_serial
    bad = check(arr, BRAG.n_cards) if arr.size else -1
    if bad >= 0:
        raise invalid_row_error(arr, bad, BRAG)
    out = np.empty(arr.shape[0], dtype=np.int32)
    kernel = K.score_batch if threads else K.score_batch_serial
    kernel(arr, score_table(get_brag_rules(rules)), out)
    return out


def category_code(score: int) -> int:
    """The category index (0 = high_card ... 5 = prial) of a score."""
    return int(score) >> CATEGORY_SHIFT


def category(score: int) -> str:
    """The category name of a score, e.g. ``"running_flush"``."""
    code = category_code(score)
    if not 0 <= code < len(BRAG_CATEGORIES) or int(score) < 0:
        raise CardError(f"{score} is not a Brag score")
    return BRAG_CATEGORIES[code]


@cache
def all_hands() -> np.ndarray:
    """All 22,100 hands as a read-only ``(22100, 3)`` uint8 array, rows ascending (lexicographic)."""
    hands = np.array(list(combinations(range(BRAG.n_cards), HAND_SIZE)), dtype=np.uint8)
    hands.setflags(write=False)
    return hands


def category_counts(rules: BragRules | str | None = None) -> dict[str, int]:
    """Exact number of hands of each category over all 22,100 hands."""
    codes = evaluate_batch(all_hands(), rules) >> CATEGORY_SHIFT
    counts = np.bincount(codes, minlength=len(BRAG_CATEGORIES))
    return {name: int(c) for name, c in zip(BRAG_CATEGORIES, counts, strict=True)}


def hand_class(cards: CardsLike) -> str:
    """The class of a hand: its ranks high to low plus ``s`` when all three share a suit
    (``"AKQs"``, ``"AKQ"``, ``"QQ5"``, ``"333"``); hands of a class have the same score."""
    hand = sorted((int(c) for c in _hand(cards)), reverse=True)
    ranks = "".join(BRAG.ranks[c // 4] for c in hand)
    suited = len({c % 4 for c in hand}) == 1
    return ranks + ("s" if suited else "")


def describe(cards: CardsLike, rules: BragRules | str | None = None) -> str:
    """A one-line reading: ``"run, A-K-Q (As Kd Qh)"``, ``"pair of 7s, K kicker (...)"``."""
    hand = [int(c) for c in _hand(cards)]
    score = evaluate(hand, rules)
    cat = category(score)
    ranks = sorted((c // 4 for c in hand), reverse=True)
    names = [BRAG.ranks[r] for r in ranks]
    if cat in ("run", "running_flush") and ranks == [_ACE, _THREE, 0]:
        names = ["3", "2", "A"]
    if cat == "prial":
        text = f"three {names[0]}s"
    elif cat == "pair":
        pair = ranks[1]
        odd = ranks[0] if ranks[0] != pair else ranks[2]
        text = f"pair of {BRAG.ranks[pair]}s, {BRAG.ranks[odd]} kicker"
    else:
        text = "-".join(names)
    return f"{cat}, {text} ({format_cards(sorted(hand, reverse=True), BRAG)})"
