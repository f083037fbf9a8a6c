"""Hand ranges: ``"AA, 77+, A10s, A9o+, A5s-A8s, As10h, 40%(77-99), random"`` for any deck.

A range is a set of two-card *combos* with weights in (0, 1]. The grammar, for a
deck whose ranks are given in order by its :class:`~evaluator.GameSpec` (so the
same text means the right thing for the 40-card deck, where 10 connects to A,
and for the 52-card deck):

- items are separated by commas or whitespace;
- ``AA`` a pair; ``77+`` that pair and every higher pair; ``22-55`` pairs from
  one to the other;
- ``A10s`` / ``ATs`` suited, ``A9o`` offsuit, ``A9`` both; ``A9o+`` raises the
  kicker up to one below the top card (``A9o, A10o`` in the 40-card deck);
  ``A5s-A8s`` kickers from one to the other (same top card and suffix);
- ``As10h`` one exact combo (two cards, any notation the card parser takes);
- ``random`` (also ``any`` or ``*``) every combo of the deck;
- ``40%(77-99, A10s)`` or ``40%AKo`` a weight; nested weights multiply;
- ``AKo:0.5`` (any item, ``:`` and a weight in (0, 1]) a weight as a fraction, the
  solvers' notation;
- ``top 10%`` (also ``top10%``, or ``10%`` alone as an item) the strongest starting
  classes making up at most that share of all combos (at least one class), in the
  deck's *starting-hand order*: by exact all-in equity against one random hand,
  highest first (:func:`starting_hand_order`).

A combo named by several items is kept once, with the highest weight, so
overlapping items never duplicate a combo. Every error names the token.

The module also lists the *starting classes* of a deck (``AA``, ``A10s``,
``A10o``...: 100 for 40 cards, 169 for 52) that the starting-hand tables use.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np

from evaluator import CardError, GameSpec, LabError, get_game, parse_cards

__all__ = [
    "Range",
    "RangeError",
    "StartingClass",
    "class_of_combo",
    "combo_index",
    "combo_name",
    "parse_range",
    "starting_classes",
    "starting_hand_order",
    "top_share_classes",
]


class RangeError(LabError):
    """A range that does not parse, or names no combo the deal allows."""


_RANDOM_WORDS = {"random", "any", "*"}
_NUMBER = r"(\d+(?:\.\d*)?|\.\d+)"
_WEIGHT_RE = re.compile(_NUMBER + "%")
_TOP_RE = re.compile(r"top\s*" + _NUMBER + r"%(?=$|[,\s)])", re.IGNORECASE)
_BARE_TOP_RE = re.compile(_NUMBER + r"%(?=$|[,\s)])")
_SEPARATORS = ", \t\n\r()"
_CLASS_RE = re.compile(r"^(10|[2-9TJQKA])(10|[2-9TJQKA])([so]?)(\+?)$", re.IGNORECASE)


def combo_index(a: int, b: int) -> int:
    """Dense index of the unordered pair of card ids ``{a, b}``: ``hi*(hi-1)/2 + lo``."""
    a, b = int(a), int(b)
    hi, lo = (a, b) if a > b else (b, a)
    return hi * (hi - 1) // 2 + lo


@dataclass(frozen=True)
class StartingClass:
    """A starting-hand class such as ``AA``, ``A10s`` or ``72o`` and its combos."""

    name: str
    kind: str  # "pair", "suited" or "offsuit"
    high: int  # rank index of the higher card
    low: int  # rank index of the lower card (== high for a pair)
    combos: tuple[tuple[int, int], ...]  # (higher card id, lower card id)

    @property
    def n_combos(self) -> int:
        return len(self.combos)


def _class_name(spec: GameSpec, high: int, low: int, kind: str) -> str:
    suffix = {"pair": "", "suited": "s", "offsuit": "o"}[kind]
    return f"{spec.ranks[high]}{spec.ranks[low]}{suffix}"


def _class_combos(spec: GameSpec, high: int, low: int, kind: str) -> tuple[tuple[int, int], ...]:
    ns = spec.n_suits
    out = []
    for s1 in range(ns):
        for s2 in range(ns):
            a, b = spec.card_id(high, s1), spec.card_id(low, s2)
            if kind == "pair" and s2 <= s1:
                continue
            if kind == "suited" and s1 != s2:
                continue
            if kind == "offsuit" and s1 == s2:
                continue
            out.append((max(a, b), min(a, b)))
    return tuple(sorted(out))


@cache
def starting_classes(game: str | GameSpec = "dilemma") -> tuple[StartingClass, ...]:
    """Every starting class of a deck, strongest-looking first: pairs high to low, then
    for each top card high to low its suited and offsuit hands by kicker, high to low.

    100 classes for the 40-card deck (10 pairs, 45 suited, 45 offsuit), 169 for 52.
    """
    spec = get_game(game)
    out = []
    for high in range(spec.n_ranks - 1, -1, -1):
        out.append(StartingClass(
            _class_name(spec, high, high, "pair"), "pair", high, high,
            _class_combos(spec, high, high, "pair"),
        ))
    for high in range(spec.n_ranks - 1, 0, -1):
        for low in range(high - 1, -1, -1):
            for kind in ("suited", "offsuit"):
                out.append(StartingClass(
                    _class_name(spec, high, low, kind), kind, high, low,
                    _class_combos(spec, high, low, kind),
                ))
    return tuple(out)


def class_of_combo(game: str | GameSpec = "dilemma") -> np.ndarray:
    """Array ``[combo_index] -> starting class index`` (int32) for every combo of the deck."""
    return _class_of_combo(get_game(game)).copy()


@cache
def _class_of_combo(spec: GameSpec) -> np.ndarray:
    n = spec.n_cards
    out = np.full(n * (n - 1) // 2, -1, dtype=np.int32)
    for i, cls in enumerate(starting_classes(spec)):
        for a, b in cls.combos:
            out[combo_index(a, b)] = i
    return out


def starting_hand_order(game: str | GameSpec = "dilemma") -> tuple[StartingClass, ...]:
    """The deck's starting classes strongest first, by exact all-in equity against one random
    hand (ties by :func:`starting_classes` order): the order ``top N%`` ranges take."""
    return _starting_hand_order(get_game(game))


@cache
def _starting_hand_order(spec: GameSpec) -> tuple[StartingClass, ...]:
    equity = _headsup_equity(spec)
    classes = starting_classes(spec)
    order = sorted(range(len(classes)), key=lambda i: (-equity[i], i))
    return tuple(classes[i] for i in order)


def _headsup_equity(spec: GameSpec) -> np.ndarray:
    """Every class's exact equity against one random hand, from the disk cache beside the
    evaluator's tables, or enumerated once (a few seconds; about 13 s for 52 cards) and cached."""
    from evaluator.tables import cache_dir, fingerprint

    path = cache_dir() / f"headsup-equity-{spec.name}-{fingerprint(spec)}.npy"
    try:
        equity = np.load(path)
        if equity.shape == (len(starting_classes(spec)),):
            return equity
    except (OSError, ValueError):
        pass
    from .starting_hands import headsup_exact

    equity = headsup_exact(spec)["equity"].to_numpy(np.float64)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp.npy")
        np.save(tmp, equity)
        os.replace(tmp, path)
    except OSError:
        pass  # a read-only home still works, it just enumerates again next time
    return equity


def top_share_classes(share: float, game: str | GameSpec = "dilemma") -> tuple[StartingClass, ...]:
    """The strongest classes (:func:`starting_hand_order`) whose combos make up at most
    ``share`` (in (0, 1]) of all the deck's combos; at least the strongest class."""
    spec = get_game(game)
    if not 0.0 < share <= 1.0:
        raise RangeError(f"a top share is more than 0% and at most 100%; got {share:.4%}")
    total = spec.n_cards * (spec.n_cards - 1) // 2
    out: list[StartingClass] = []
    count = 0
    for cls in starting_hand_order(spec):
        if out and count + cls.n_combos > share * total + 1e-9:
            break
        out.append(cls)
        count += cls.n_combos
    return tuple(out)


def combo_name(combo: Sequence[int], game: str | GameSpec = "dilemma") -> str:
    """A combo as text, higher card first: ``"As10h"``."""
    spec = get_game(game)
    a, b = sorted((int(c) for c in combo), reverse=True)
    return spec.card_name(a) + spec.card_name(b)


class Range:
    """A weighted set of two-card combos of one deck (immutable).

    ``combos`` is an ``(n, 2)`` uint8 array (higher card id first, rows sorted by
    :func:`combo_index`), ``weights`` a float64 array in (0, 1]. Build one with
    :func:`parse_range` or :meth:`Range.from_combos`.
    """

    __slots__ = ("_combos", "_weights", "game", "text")

    def __init__(
        self, game: GameSpec, combos: np.ndarray, weights: np.ndarray, text: str = ""
    ) -> None:
        self.game = game
        self._combos = np.ascontiguousarray(combos, dtype=np.uint8).reshape(-1, 2)
        self._combos.flags.writeable = False
        self._weights = np.ascontiguousarray(weights, dtype=np.float64)
        self._weights.flags.writeable = False
        self.text = text

    @classmethod
    def from_combos(
        cls,
        combos: Iterable[Sequence[int]],
        game: str | GameSpec = "dilemma",
        weights: Iterable[float] | None = None,
        text: str = "",
    ) -> Range:
        """A range from card-id pairs (and optional weights); duplicates keep the highest weight."""
        spec = get_game(game)
        pairs = [tuple(int(c) for c in combo) for combo in combos]
        ws = [1.0] * len(pairs) if weights is None else [float(w) for w in weights]
        if len(ws) != len(pairs):
            raise RangeError("one weight per combo is needed")
        best: dict[int, tuple[int, int, float]] = {}
        for (a, b), w in zip(pairs, ws, strict=True):
            if a == b or not (0 <= a < spec.n_cards and 0 <= b < spec.n_cards):
                raise RangeError(f"({a}, {b}) is not a combo of the {spec.summary}")
            if not 0.0 < w <= 1.0:
                raise RangeError(f"weight {w} of a combo is not in (0, 1]")
            key = combo_index(a, b)
            if key not in best or best[key][2] < w:
                best[key] = (max(a, b), min(a, b), w)
        keys = sorted(best)
        arr = np.array([best[k][:2] for k in keys], dtype=np.uint8).reshape(-1, 2)
        return cls(spec, arr, np.array([best[k][2] for k in keys], dtype=np.float64), text)

    @property
    def combos(self) -> np.ndarray:
        """``(n, 2)`` uint8 card ids, higher card first (read-only)."""
        return self._combos

    @property
    def weights(self) -> np.ndarray:
        """float64 weights in (0, 1], one per combo (read-only)."""
        return self._weights

    def __len__(self) -> int:
        return len(self._combos)

    def __iter__(self):
        return iter(zip(map(tuple, self._combos.tolist()), self._weights.tolist(), strict=True))

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Range)
            and self.game == other.game
            and np.array_equal(self._combos, other._combos)
            and np.array_equal(self._weights, other._weights)
        )

    def __hash__(self) -> int:
        return hash((self.game.name, self._combos.tobytes(), self._weights.tobytes()))

    def __repr__(self) -> str:
        return f"Range({self.label!r}, {len(self)} combos, {self.game.name})"

    @property
    def label(self) -> str:
        """The text the range was parsed from, or a compact text of its combos."""
        return self.text or self.to_text()

    @property
    def is_single(self) -> bool:
        """True when the range is one combo at full weight (a known hand)."""
        return len(self) == 1 and self._weights[0] == 1.0

    @property
    def is_uniform(self) -> bool:
        """True when every combo has the same weight."""
        return bool(len(self) == 0 or np.all(self._weights == self._weights[0]))

    def without(self, dead: Iterable[int]) -> Range:
        """The range without the combos that use a card of ``dead`` (board, dead cards...)."""
        mask = 0
        for c in dead:
            mask |= 1 << int(c)
        if not mask:
            return self
        bits = (np.uint64(1) << self._combos.astype(np.uint64))
        keep = ((bits[:, 0] | bits[:, 1]) & np.uint64(mask)) == 0
        return Range(self.game, self._combos[keep], self._weights[keep], self.text)

    def to_text(self) -> str:
        """A compact range text that parses back to this range (classes where complete)."""
        spec = self.game
        weight_of = {combo_index(a, b): w for (a, b), w in self}
        groups: dict[float, list[str]] = {}
        done: set[int] = set()
        for cls in starting_classes(spec):
            keys = [combo_index(a, b) for a, b in cls.combos]
            ws = {weight_of.get(k) for k in keys}
            if len(ws) == 1 and None not in ws:
                groups.setdefault(ws.pop(), []).append(cls.name)
                done.update(keys)
        for key in sorted(weight_of):
            if key not in done:
                a, b = next((a, b) for (a, b), _ in self if combo_index(a, b) == key)
                groups.setdefault(weight_of[key], []).append(combo_name((a, b), spec))
        parts = []
        for w in sorted(groups, reverse=True):
            body = ", ".join(groups[w])
            parts.append(body if w == 1.0 else f"{_format_pct(w)}%({body})")
        return ", ".join(parts)


def _format_pct(w: float) -> str:
    text = f"{w * 100:.10f}".rstrip("0").rstrip(".")
    return text or "0"


# -- parser -------------------------------------------------------------------------------


class _Parser:
    """Recursive descent over the range text; collects (combo, weight) pairs."""

    def __init__(self, text: str, spec: GameSpec) -> None:
        self.text = text
        self.spec = spec
        self.pos = 0
        self.out: list[tuple[int, int, float]] = []

    def error(self, token: str, why: str) -> RangeError:
        return RangeError(f"range token {token!r}: {why} ({self.spec.summary})")

    def skip_separators(self) -> None:
        while self.pos < len(self.text) and (self.text[self.pos] in ", \t\n\r"):
            self.pos += 1

    def parse_list(self, weight: float, closing: str | None) -> None:
        while True:
            self.skip_separators()
            if self.pos >= len(self.text):
                if closing:
                    raise self.error(self.text, f"missing {closing!r}")
                return
            if closing and self.text[self.pos] == closing:
                self.pos += 1
                return
            self.parse_item(weight)

    def parse_item(self, weight: float) -> None:
        top = _TOP_RE.match(self.text, self.pos) or _BARE_TOP_RE.match(self.text, self.pos)
        if top:
            pct = float(top.group(1))
            if not 0.0 < pct <= 100.0:
                raise self.error(top.group(0), "a top share must be more than 0% and at most 100%")
            self.pos = top.end()
            for cls in top_share_classes(pct / 100.0, self.spec):
                self.out.extend((a, b, weight) for a, b in cls.combos)
            return
        m = _WEIGHT_RE.match(self.text, self.pos)
        if m:
            pct = float(m.group(1))
            if not 0.0 < pct <= 100.0:
                raise self.error(m.group(0), "a weight must be more than 0% and at most 100%")
            self.pos = m.end()
            w = weight * pct / 100.0
            if self.pos < len(self.text) and self.text[self.pos] == "(":
                self.pos += 1
                start = len(self.out)
                self.parse_list(w, ")")
                if len(self.out) == start:
                    raise self.error(m.group(0) + "()", "an empty weighted group")
            else:
                self.parse_item(w)
            return
        start = self.pos
        while self.pos < len(self.text) and self.text[self.pos] not in _SEPARATORS:
            self.pos += 1
        token = self.text[start : self.pos]
        if not token:
            raise self.error(self.text[start : start + 1], "unexpected character")
        token, weight = self.split_weight(token, weight)
        for a, b in self.expand(token):
            self.out.append((a, b, weight))

    def split_weight(self, token: str, weight: float) -> tuple[str, float]:
        """``AKo:0.5`` to ``("AKo", weight * 0.5)``; a token without ``:`` unchanged."""
        if ":" not in token:
            return token, weight
        body, _, text = token.rpartition(":")
        if not body:
            raise self.error(token, "a weight follows a hand, like AKo:0.5")
        try:
            w = float(text)
        except ValueError:
            raise self.error(token, f"weight {text!r} is not a number (like AKo:0.5)") from None
        if not 0.0 < w <= 1.0:
            raise self.error(token, "a weight after ':' must be more than 0 and at most 1")
        return body, weight * w

    def expand(self, token: str) -> list[tuple[int, int]]:
        """The combos one token names."""
        spec = self.spec
        if token.lower() in _RANDOM_WORDS:
            n = spec.n_cards
            return [(a, b) for a in range(n) for b in range(a)]
        if "-" in token:
            left, _, right = token.partition("-")
            return self.expand_span(token, left, right)
        m = _CLASS_RE.match(token)
        if m:
            high, low, suffix, plus = self.class_parts(token, m)
            if plus:
                return self.expand_plus(token, high, low, suffix)
            return self.class_combos(token, high, low, suffix)
        try:
            cards = parse_cards(token, spec)
        except CardError as exc:
            raise RangeError(
                f"range token {token!r}: not a hand class, a combo or 'random' ({exc})"
            ) from None
        if len(cards) != 2:
            raise self.error(token, f"a combo is two cards; got {len(cards)}")
        return [(max(cards), min(cards))]

    def rank(self, token: str, text: str) -> int:
        r = self.spec.rank_index(text)
        if r is None:
            raise self.error(token, f"rank {text!r} is not in the deck")
        return r

    def class_parts(self, token: str, m: re.Match) -> tuple[int, int, str, bool]:
        r1, r2 = self.rank(token, m.group(1)), self.rank(token, m.group(2))
        suffix = m.group(3).lower()
        high, low = max(r1, r2), min(r1, r2)
        if high == low and suffix:
            raise self.error(token, "a pair cannot be suited or offsuit")
        return high, low, suffix, bool(m.group(4))

    def class_combos(self, token: str, high: int, low: int, suffix: str) -> list[tuple[int, int]]:
        spec = self.spec
        if high == low:
            return list(_class_combos(spec, high, low, "pair"))
        kinds = {"s": ["suited"], "o": ["offsuit"], "": ["suited", "offsuit"]}[suffix]
        return [c for kind in kinds for c in _class_combos(spec, high, low, kind)]

    def expand_plus(self, token: str, high: int, low: int, suffix: str) -> list[tuple[int, int]]:
        if high == low:
            return [c for r in range(high, self.spec.n_ranks) for c in self.class_combos(token, r, r, "")]
        return [c for k in range(low, high) for c in self.class_combos(token, high, k, suffix)]

    def expand_span(self, token: str, left: str, right: str) -> list[tuple[int, int]]:
        ml, mr = _CLASS_RE.match(left), _CLASS_RE.match(right)
        if not (ml and mr) or ml.group(4) or mr.group(4):
            raise self.error(token, "a span is two hand classes joined by '-', like 22-55 or A5s-A8s")
        h1, l1, s1, _ = self.class_parts(token, ml)
        h2, l2, s2, _ = self.class_parts(token, mr)
        if h1 == l1 and h2 == l2:
            lo, hi = sorted((h1, h2))
            return [c for r in range(lo, hi + 1) for c in self.class_combos(token, r, r, "")]
        if h1 == l1 or h2 == l2 or h1 != h2 or s1 != s2:
            raise self.error(
                token, "both ends of a span must be pairs, or share the top card and the suffix"
            )
        lo, hi = sorted((l1, l2))
        return [c for k in range(lo, hi + 1) for c in self.class_combos(token, h1, k, s1)]


def parse_range(text: str | Range, game: str | GameSpec = "dilemma") -> Range:
    """Parse a range text for a deck (its rank order gives the meaning of ``+`` and ``-``).

    >>> len(parse_range("AA, A10s", "dilemma"))
    10
    >>> len(parse_range("77+, 40%(77-99)", "dilemma"))  # overlapping items, one combo each
    24
    """
    spec = get_game(game)
    if isinstance(text, Range):
        if text.game != spec:
            raise RangeError(f"range {text.label!r} is for the {text.game.summary}, not the {spec.summary}")
        return text
    parser = _Parser(str(text), spec)
    parser.parse_list(1.0, None)
    if not parser.out:
        raise RangeError(f"range {str(text)!r} is empty ({spec.summary})")
    return Range.from_combos(
        [(a, b) for a, b, _ in parser.out], spec, [w for _, _, w in parser.out], text=str(text).strip()
    )
