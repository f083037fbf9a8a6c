"""Lookup tables of the evaluator, built from a :class:`GameSpec` from first principles.

How a hand is scored (see ``_kernels.py``): each card has a 64-bit key whose low
32 bits are ``5**rank`` (so the sum of a hand's keys spells its rank multiset in
base 5) and whose high bits hold one 4-bit counter per suit, started at 3 so that
a fifth card of one suit sets that counter's top bit (the flush test is one AND).
Non-flush hands look their rank multiset up in a perfect hash (hash and
displace); flush hands look the rank mask of the flush suit up in a direct table.

Batches of 7-card hands use a second, smaller perfect hash over the 7-card rank
multisets only (49,205 for 52 cards: 128 KiB of values instead of 256 KiB). Its
multiplier has the form ``m << 32``, so ``(multiset * (m << 32)) mod 2**64 ==
((multiset * m) mod 2**32) << 32``: with *pre-multiplied* card keys
``((5**rank * m) mod 2**32) << 32`` the hash of a hand is the plain sum of its
keys, no multiplication per hand. The batch kernels derive those keys from
``card_key`` and ``m`` and put the suit counters in bits 16-31, below the hash
bits the look-up reads (32 and up). Its displacements and values are stored
after the general table's, in the same arrays (fewer arrays in ``kernel_args``:
each one costs kernels that pass the tuple to a function ~6 ns a call).

A score is ``category << 12 | ordinal``: the category code in the high bits and
the dense order of the best five cards within the category below, so higher is
better and equal scores are exact ties.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from functools import cache, cached_property
from itertools import combinations
from pathlib import Path

import numpy as np

from .spec import CATEGORIES, GameSpec, get_game

TABLES_VERSION = 3  # 3: uint8 displacements, the 7-card table after the general one
CATEGORY_SHIFT = 12
SUIT_SHIFT = 32
FLUSH_INIT = 0x3333 << SUIT_SHIFT
FLUSH_BITS = 0x8888
SEVEN_SUIT_SHIFT = 16
"""Bit of the first suit counter in the 7-card table's (pre-multiplied) keys."""
SEVEN_FLUSH_INIT = 0x3333 << SEVEN_SUIT_SHIFT
HAND_SIZES = (5, 6, 7)
MAX_RANKS = 13
"""Most ranks a deck may have: a 7-card base-5 rank multiset must fit in 32 bits."""
MAX_SLOT_BITS = 19
"""Largest perfect-hash table (log2): batch kernels keep flush flags in bits 19-31
of a slot word (see ``_kernels.py``)."""
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
    hash_params: np.ndarray  # uint64[2, 4]: multiplier, bucket shift, slot shift, slot mask
    # of the general table (row 0) and of the 7-card table (row 1)
    displace: np.ndarray  # uint8[n_buckets + n_buckets7] (wider if a displacement needs it)
    values: np.ndarray  # uint16[n_slots + n_slots7]
    flush: np.ndarray  # uint16[2**n_ranks]
    decode: np.ndarray  # uint8[9 << 12, 5]: the five ranks of every score

    @cached_property
    def kernel_args(self) -> tuple:
        """The tuple every kernel takes as ``tables``:
        ``(card_key, multiplier, bucket_shift, slot_shift, slot_mask, displace, values,
        seven_multiplier, seven_bucket_shift, seven_slot_shift, seven_slot_mask,
        seven_displace_at, seven_values_at, flush)``.

        The hash parameters are scalars so kernels keep them in registers (read
        from an array, numba would reload them for every hand). ``seven_*`` are
        the 7-card table's: ``m`` (its multiplier is ``m << 32``) and where its
        displacements and values start in ``displace`` and ``values``. The tuple
        is flat (numba's parallel loops reject nested tuples of arrays) and
        ``flush`` stays last: other packages' kernels read it as ``tables[-1]``.
        """
        (mult, bucket_shift, slot_shift, slot_mask), (mult7, bucket7, slot7, mask7) = (
            [np.uint64(x) for x in row] for row in self.hash_params
        )
        displace_at = np.uint64(1 << (64 - int(bucket_shift)))  # general buckets come first
        values_at = slot_mask + np.uint64(1)
        return (self.card_key, mult, bucket_shift, slot_shift, slot_mask, self.displace,
                self.values, mult7 >> np.uint64(32), bucket7, slot7, mask7, displace_at,
                values_at, self.flush)

    @cached_property
    def simd7(self) -> tuple | None:
        """The 7-card table as the vector kernel reads it (``_simd7.py``), or None when it
        cannot (a displacement wider than a byte, fewer than 256 slots, more than 16 ranks):
        ``(key_table, suit_table, displace, values, shifts)``.

        ``key_table[r]`` is ``(5**r * m) mod 2**32`` (int32[16], the hash of a hand is the sum
        of its cards' keys mod 2**32); ``suit_table[i]`` the suit-counter nibble
        ``1 << 4 * (i % 4)`` (int32[16]); ``displace`` and ``values`` the 7-card
        displacements (uint8) and scores (uint16) padded so a 4-byte read at any entry stays
        inside; ``shifts`` the bucket shift, slot shift and slot mask of the key sum (uint32).
        """
        mult, bucket, slot, mask = (int(x) for x in self.hash_params[1])
        m, bucket, slot = mult >> 32, bucket - 32, slot - 32  # shifts of the key sum's 32 bits
        n_ranks = len(self.card_key) // 4
        n_buckets = 1 << (32 - bucket)
        displace = self.displace[len(self.displace) - n_buckets :]
        values = self.values[len(self.values) - (mask + 1) :]
        if displace.dtype != np.uint8 or mask < 255 or n_ranks > 16 or slot < 0:
            return None
        keys = np.zeros(16, dtype=np.uint32)
        keys[:n_ranks] = [(5**r * m) % 2**32 for r in range(n_ranks)]
        suits = np.array([1 << 4 * (i % 4) for i in range(16)], dtype=np.int32)
        return (keys.view(np.int32), suits, np.concatenate([displace, np.zeros(3, np.uint8)]),
                np.concatenate([values, np.zeros(1, np.uint16)]),
                np.array([bucket, slot, mask], dtype=np.uint32))


def _smallest_uint(max_value: int) -> type:
    return next(t for t in (np.uint8, np.uint16, np.uint32) if max_value <= np.iinfo(t).max)


def _perfect_hash(keys: list[int], values: list[int], slot_bits: int, bucket_bits: int,
                  multipliers: tuple[int, ...], max_displace: int):
    """Hash-and-displace perfect hash of 64-bit hashes ``keys * multiplier``.

    A key goes to bucket ``h >> (64 - bucket_bits)`` and slot
    ``((h >> (64 - bucket_bits - slot_bits)) & slot_mask) ^ displace[bucket]``.
    Buckets are placed largest first (ties by bucket number), each with the
    smallest displacement below ``max_displace`` that lands all its keys on free
    slots. The first multiplier that works is used. Returns ``(params,
    displace, table)`` with ``displace`` in the smallest unsigned dtype that
    holds it, or None.
    """
    n_slots = 1 << slot_bits
    mask64 = (1 << 64) - 1
    for mult in multipliers:
        buckets: dict[int, list[tuple[int, int]]] = {}
        for k, v in zip(keys, values, strict=True):
            h = (k * mult) & mask64
            slot0 = (h >> (64 - bucket_bits - slot_bits)) & (n_slots - 1)
            buckets.setdefault(h >> (64 - bucket_bits), []).append((slot0, v))
        if any(len({s for s, _ in b}) != len(b) for b in buckets.values()):
            continue  # two keys of one bucket on one slot: no displacement separates them
        used = bytearray(n_slots)
        table = np.zeros(n_slots, dtype=np.uint16)
        displace = np.zeros(1 << bucket_bits, dtype=np.int64)
        for bucket, items in sorted(buckets.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            for d in range(min(max_displace, n_slots)):
                if not any(used[s ^ d] for s, _ in items):
                    break
            else:
                break  # this multiplier needs a larger displacement
            for s, v in items:
                used[s ^ d] = 1
                table[s ^ d] = v
            displace[bucket] = d
        else:
            params = np.array(
                [mult, 64 - bucket_bits, 64 - bucket_bits - slot_bits, n_slots - 1], dtype=np.uint64
            )
            return params, displace.astype(_smallest_uint(int(displace.max()))), table
    return None


def _build_hash(keys: list[int], values: list[int], load: float, multipliers: tuple[int, ...]):
    """A perfect hash of ``keys``: a power of two slots at most ``load`` full, a quarter
    as many buckets.

    Displacements below 256 (one byte each, so the displacement table stays in
    L1: +15% on 7-card batches) are tried with every multiplier before wider ones.
    """
    n = len(keys)
    slot_bits = max(8, int(np.ceil(np.log2(n / load))))
    if slot_bits > MAX_SLOT_BITS:
        raise ValueError(f"{n} rank multisets is too many for the evaluator's tables")
    for max_displace in (256, 1 << slot_bits):
        found = _perfect_hash(keys, values, slot_bits, max(4, slot_bits - 2), multipliers, max_displace)
        if found is not None:
            return found
    raise RuntimeError("no collision-free multiplier found")  # pragma: no cover


def _seven_multipliers() -> tuple[int, ...]:
    """Multipliers ``m << 32`` (m odd) for the 7-card table: see the module docstring."""
    return tuple(((m >> 32) | 1) << 32 for m in _MULTIPLIERS)


def build_tables(spec: GameSpec) -> EvalTables:
    """Build every table of ``spec`` from its ranks and straights (about a second)."""
    if spec.n_suits != 4:
        raise ValueError("the evaluator supports decks of 4 suits")
    R = spec.n_ranks
    if not 5 <= R <= MAX_RANKS:
        raise ValueError(f"the evaluator supports decks of 5 to {MAX_RANKS} ranks")
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
        n_before = len(keys)
        for counts in _multisets(R, size, 4):
            keys.append(sum(c * 5**r for r, c in enumerate(counts)))
            vals.append(score_of[pattern_from_counts(counts, spec)])
    params, displace, table = _build_hash(keys, vals, 0.6, _MULTIPLIERS)
    n7 = len(keys) - n_before  # the 7-card multisets come last
    params7, displace7, table7 = _build_hash(keys[-n7:], vals[-n7:], 0.8, _seven_multipliers())
    wide = np.promote_types(displace.dtype, displace7.dtype)

    flush = np.zeros(1 << R, dtype=np.uint16)
    for mask in range(1 << R):
        ranks = {r for r in range(R) if mask >> r & 1}
        if len(ranks) >= 5:
            flush[mask] = score_of[pattern_from_suited_ranks(ranks, spec)]

    card_key = np.array(
        [5**r + (1 << (SUIT_SHIFT + 4 * s)) for r in range(R) for s in range(4)], dtype=np.uint64
    )
    return EvalTables(
        card_key,
        np.stack([params, params7]),
        np.concatenate([displace.astype(wide), displace7.astype(wide)]),
        np.concatenate([table, table7]),
        flush,
        decode,
    )


def cache_dir() -> Path:
    base = os.environ.get("DILEMMA_CACHE_DIR") or os.environ.get("XDG_CACHE_HOME")
    return Path(base) / "dilemma-lab" if base else Path.home() / ".cache" / "dilemma-lab"


def fingerprint(spec: GameSpec) -> str:
    text = f"{TABLES_VERSION}|{spec.ranks}|{spec.suits}|{spec.straights}"
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@cache
def get_tables(game: str | GameSpec = "dilemma") -> EvalTables:
    """The tables of a game, loaded from the disk cache or built (and cached) on first use."""
    spec = get_game(game)
    path = cache_dir() / f"tables-{spec.name}-{fingerprint(spec)}.npz"
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
