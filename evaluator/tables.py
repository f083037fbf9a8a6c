"""Lookup tables of the evaluator, built from a :class:`GameSpec` from first principles.

How a hand is scored (see ``_kernels.py``): each card has a 64-bit key whose low
32 bits are ``5**rank`` (so the sum of a hand's keys spells its rank multiset in
base 5) and whose high bits hold one 4-bit counter per suit, started at 3 so that
a fifth card of one suit sets that counter's top bit (the flush test is one AND).
Non-flush hands look their rank multiset up in a perfect hash (hash and
displace); flush hands look the rank mask of the flush suit up in a direct table.

A score is ``category << 12 | ordinal``: the category code in the high bits and
the dense order of the best five cards within the category below, so higher is
better and equal scores are exact ties.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from pathlib import Path

import numpy as np

from .spec import CATEGORIES, GameSpec, get_game

TABLES_VERSION = 1
CATEGORY_SHIFT = 12
SUIT_SHIFT = 32
FLUSH_INIT = 0x3333 << SUIT_SHIFT
FLUSH_BITS = 0x8888
HAND_SIZES = (5, 6, 7)
_MULTIPLIERS = (0x9E3779B97F4A7C15, 0xD6E8FEB86659FD93, 0xA0761D6478BD642F, 0xE7037ED1A0B428DB)

(HIGH_CARD, ONE_PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH) = range(9)


def pattern_from_counts(counts: tuple[int, ...], spec: GameSpec) -> tuple[int, tuple[int, ...]]:
    """Best non-flush five of a rank multiset: (category, the five ranks in reading order).

    Reading order puts the ranks that decide first (``(9, 9, 9, 2, 2)`` for nines
    full of twos); a straight reads from its top card down (the wheel ends in A).
    """
    by_count = sorted(range(len(counts)), key=lambda r: (counts[r], r), reverse=True)
    by_count = [r for r in by_count if counts[r]]
    desc = sorted((r for r in range(len(counts)) if counts[r]), reverse=True)

    def kickers(exclude: set[int], k: int) -> tuple[int, ...]:
        return tuple([r for r in desc if r not in exclude][:k])

    top = by_count[0]
    if counts[top] >= 4:
        return QUADS, (top,) * 4 + kickers({top}, 1)
    trips = [r for r in desc if counts[r] >= 3]
    pairs = [r for r in desc if counts[r] >= 2]
    if trips:
        t = trips[0]
        rest = [r for r in pairs if r != t]
        if rest:
            return FULL_HOUSE, (t,) * 3 + (rest[0],) * 2
    for window in spec.straights:
        if all(counts[r] for r in window):
            return STRAIGHT, window
    if trips:
        t = trips[0]
        return TRIPS, (t,) * 3 + kickers({t}, 2)
    if len(pairs) >= 2:
        p1, p2 = pairs[:2]
        return TWO_PAIR, (p1, p1, p2, p2) + kickers({p1, p2}, 1)
    if pairs:
        p = pairs[0]
        return ONE_PAIR, (p, p) + kickers({p}, 3)
    return HIGH_CARD, tuple(desc[:5])


def pattern_from_suited_ranks(ranks: set[int], spec: GameSpec) -> tuple[int, tuple[int, ...]]:
    """Best five of five or more distinct ranks of one suit (a flush or a straight flush)."""
    for window in spec.straights:
        if all(r in ranks for r in window):
            return STRAIGHT_FLUSH, window
    return FLUSH, tuple(sorted(ranks, reverse=True)[:5])


def _order_key(category: int, ranks: tuple[int, ...], spec: GameSpec) -> tuple[int, ...]:
    """Comparison key within a category: straights by window strength, others lexicographic."""
    if category in (STRAIGHT, STRAIGHT_FLUSH):
        return (-spec.straights.index(ranks),)
    return ranks


def _multisets(n_ranks: int, size: int, cap: int):
    """All rank-count vectors with the given total and every count <= cap."""
    counts = [0] * n_ranks

    def rec(r: int, left: int):
        if r == n_ranks - 1:
            if left <= cap:
                counts[r] = left
                yield tuple(counts)
            return
        for c in range(min(cap, left) + 1):
            counts[r] = c
            yield from rec(r + 1, left - c)
        counts[r] = 0

    yield from rec(0, size)


@dataclass(frozen=True)
class EvalTables:
    """Arrays the kernels use (``kernel_args``) plus the decoding table for Python."""

    card_key: np.ndarray  # uint64[n_cards]
    hash_params: np.ndarray  # uint64[4]: multiplier, bucket shift, slot shift, slot mask
    displace: np.ndarray  # uint32[n_buckets]
    values: np.ndarray  # uint16[n_slots]
    flush: np.ndarray  # uint16[2**n_ranks]
    decode: np.ndarray  # uint8[9 << 12, 5]: the five ranks of every score

    @property
    def kernel_args(self) -> tuple:
        """The tuple every kernel takes as ``tables``:
        ``(card_key, multiplier, bucket_shift, slot_shift, slot_mask, displace, values, flush)``.

        The hash parameters are scalars so kernels keep them in registers (read
        from an array, numba would reload them for every hand).
        """
        mult, bucket_shift, slot_shift, slot_mask = (np.uint64(x) for x in self.hash_params)
        return (self.card_key, mult, bucket_shift, slot_shift, slot_mask,
                self.displace, self.values, self.flush)


def _perfect_hash(keys: list[int], values: list[int]):
    """Hash-and-displace perfect hash of 32-bit keys: returns (params, displace, table)."""
    n = len(keys)
    slot_bits = max(8, int(np.ceil(np.log2(n / 0.6))))
    bucket_bits = max(4, slot_bits - 2)
    mask64 = (1 << 64) - 1
    for mult in _MULTIPLIERS:
        hashes = [(k * mult) & mask64 for k in keys]
        buckets: dict[int, list[tuple[int, int]]] = {}
        for h, v in zip(hashes, values, strict=True):
            slot0 = (h >> (64 - bucket_bits - slot_bits)) & ((1 << slot_bits) - 1)
            buckets.setdefault(h >> (64 - bucket_bits), []).append((slot0, v))
        if any(len({s for s, _ in b}) != len(b) for b in buckets.values()):
            continue
        used = bytearray(1 << slot_bits)
        table = np.zeros(1 << slot_bits, dtype=np.uint16)
        displace = np.zeros(1 << bucket_bits, dtype=np.uint32)
        for bucket, items in sorted(buckets.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            for d in range(1 << slot_bits):
                if not any(used[s ^ d] for s, _ in items):
                    break
            for s, v in items:
                used[s ^ d] = 1
                table[s ^ d] = v
            displace[bucket] = d
        params = np.array(
            [mult, 64 - bucket_bits, 64 - bucket_bits - slot_bits, (1 << slot_bits) - 1],
            dtype=np.uint64,
        )
        return params, displace, table
    raise RuntimeError("no collision-free multiplier found")  # pragma: no cover


def build_tables(spec: GameSpec) -> EvalTables:
    """Build every table of ``spec`` from its ranks and straights (about a second)."""
    if spec.n_suits != 4:
        raise ValueError("the evaluator supports decks of 4 suits")
    R = spec.n_ranks
    # Every five-card class: non-flush rank multisets and suited rank sets.
    classes: set[tuple[int, tuple[int, ...]]] = set()
    for counts in _multisets(R, 5, 4):
        classes.add(pattern_from_counts(counts, spec))
    for ranks in combinations(range(R), 5):
        classes.add(pattern_from_suited_ranks(set(ranks), spec))
    score_of: dict[tuple[int, tuple[int, ...]], int] = {}
    decode = np.zeros((len(CATEGORIES) << CATEGORY_SHIFT, 5), dtype=np.uint8)
    for cat in range(len(CATEGORIES)):
        members = sorted((c for c in classes if c[0] == cat), key=lambda c: _order_key(*c, spec))
        if len(members) >= 1 << CATEGORY_SHIFT:
            raise ValueError("too many classes in one category")
        for ordinal, cls in enumerate(members):
            score = (cat << CATEGORY_SHIFT) | ordinal
            score_of[cls] = score
            decode[score] = cls[1]

    keys, vals = [], []
    for size in HAND_SIZES:
        for counts in _multisets(R, size, 4):
            keys.append(sum(c * 5**r for r, c in enumerate(counts)))
            vals.append(score_of[pattern_from_counts(counts, spec)])
    params, displace, table = _perfect_hash(keys, vals)

    flush = np.zeros(1 << R, dtype=np.uint16)
    for mask in range(1 << R):
        ranks = {r for r in range(R) if mask >> r & 1}
        if len(ranks) >= 5:
            flush[mask] = score_of[pattern_from_suited_ranks(ranks, spec)]

    card_key = np.array(
        [5**r + (1 << (SUIT_SHIFT + 4 * s)) for r in range(R) for s in range(4)], dtype=np.uint64
    )
    return EvalTables(card_key, params, displace, table, flush, decode)


def _cache_dir() -> Path:
    base = os.environ.get("DILEMMA_CACHE_DIR") or os.environ.get("XDG_CACHE_HOME")
    return Path(base) / "dilemma-lab" if base else Path.home() / ".cache" / "dilemma-lab"


def _fingerprint(spec: GameSpec) -> str:
    text = f"{TABLES_VERSION}|{spec.ranks}|{spec.suits}|{spec.straights}"
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@cache
def get_tables(game: str | GameSpec = "dilemma") -> EvalTables:
    """The tables of a game, loaded from the disk cache or built (and cached) on first use."""
    spec = get_game(game)
    path = _cache_dir() / f"tables-{spec.name}-{_fingerprint(spec)}.npz"
    fields = EvalTables.__dataclass_fields__
    try:
        with np.load(path) as data:
            return EvalTables(**{name: data[name] for name in fields})
    except (OSError, KeyError, ValueError):
        pass
    tables = build_tables(spec)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp.npz")
        np.savez(tmp, **{name: getattr(tables, name) for name in fields})
        os.replace(tmp, path)
    except OSError:
        pass  # a read-only home still works, it just rebuilds next time
    return tables
