"""Numba kernels of the hand evaluator. Plain arrays and scalars only.

``tables`` is always the tuple ``EvalTables.kernel_args``:
``(card_key, multiplier, bucket_shift, slot_shift, slot_mask, displace, values,
seven_multiplier, seven_bucket_shift, seven_slot_shift, seven_slot_mask,
seven_displace_at, seven_values_at, flush)``: the general perfect hash of 5-7
card rank multisets, then the 7-card one, whose displacements and values follow
the general ones in ``displace`` and ``values`` (see ``tables.py``). A hand's
*accumulator* is ``FLUSH_INIT + sum(card_key[c])``; kernels that build hands
card by card keep partial accumulators and finish with :func:`score_acc`.

The per-hand functions :func:`score_cards`, :func:`score_acc` (and what they
call but :func:`hash_score`) are inlined into their callers (numba IR inlining):
called, each call passed the whole tuple and reference-counted its arrays
(score_cards in a loop: 66 ns a call, 17 inlined). Measured in other packages'
kernels: settlement with scoring (scripts/bench_settlement.py, 4 players)
392 -> 330 ns a hand, the study's board strengths 3x faster. :func:`hash_score`
is better left to LLVM: inlined by numba, exact equity enumeration got 15%
slower and board strengths 2x slower. Each array in ``tables`` costs callers
~6 ns a call, so the tuple holds four.

Batch kernels (:func:`score_batch_serial`, :func:`score_batch`) work on blocks
of rows in three passes, so that each pass is a short loop of independent
loads the CPU can overlap:

1. the *slot word* of every row: its perfect-hash slot in bits 0-18 and its four
   flush flags (one per suit, from the suit counters) in bits 19, 23, 27, 31;
2. ``out = values[slot]`` for every row, while the indices of the rows with a
   flag are appended to a list (no branch: the index is always written, the
   list length grows by the flag);
3. the ~3% flush rows are scored again from the rank mask of their flush suit.

Rows of 7 cards use the 7-card table with keys pre-multiplied by its hash
multiplier: the hash of a hand is the plain sum of its 7 keys.

Card arrays of any integer dtype are scored as they are: numba compiles (and caches)
a variant per dtype, and card ids index the tables as unsigned numbers (:func:`_u`),
so signed dtypes get no negative-index wrap-around code. :func:`score_checked` and
:func:`score_checked_serial` (what ``evaluate_batch`` calls for 5 and 6 cards, and for 7
where numba does not target an AVX-512 CPU; else ``_simd7.py``) validate the rows inside
pass 1 (:func:`_slots7`): a branch-free per-row test OR-ed into one word per block,
the key tables padded to 256 entries so an invalid id hashes harmlessly, and only a
failed block is scanned again to name its first bad row. Measured (2M random
7-card uint8 rows of 52 cards, one thread, ``taskset -c 0``, load ~3, best of 15,
same run): raw kernel 342 M/s, validating first then scoring each block 239-244,
the fused pass 251-260. The test itself (7 table loads, 6 ORs, a popcount) is
most of the remaining gap: it was tried as shifts instead of loads, as
sum-versus-OR instead of popcount, and as a separate vectorised loop (AVX2,
slower: 348 M/s alone, strided byte loads) with no better result.
A new dtype compiles in ~1.4 s (serial) and ~1.6 s (parallel) once, then loads
from the cache.

Measured (numba 0.68, one thread, 2M random 7-card hands, 52 cards, Zen 3 VM
shared with other jobs, best of several runs; the intermediate steps in scratch
code): the previous row-at-a-time kernel 101 M/s; 118 with the row loop written
in the kernel (a helper called per row costs a call with the whole tuple plus
NRT reference counting); 144 with the 7 keys summed unrolled and integer-only
flush tests (numba compares a uint8 card with an int64 suit in float64); 166
with one-byte displacements (the displacement table then fits in L1); 215 with
the passes; ~275 with the flags in the slot word; this module 285-300 (40
cards 300-320) with the 7-card table and its pre-multiplied keys, ~2x that on
two threads.

(Over 500 lines: serial and parallel twins of each batch kernel and the fused
validate-and-score kernels share private helpers that numba inlines.)
"""

from __future__ import annotations

import numpy as np
from numba import prange, types
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.extending import intrinsic

from .block_sums import sum_blocks
from .jit import kernel
from .tables import (
    CATEGORY_SHIFT,
    FLUSH_BITS,
    FLUSH_INIT,
    MAX_SLOT_BITS,
    SEVEN_FLUSH_INIT,
    SEVEN_SUIT_SHIFT,
    SUIT_SHIFT,
)

_INIT = np.uint64(FLUSH_INIT)
_FLUSH = np.uint64(FLUSH_BITS)
_SUIT_SHIFT = np.uint64(SUIT_SHIFT)
_LOW32 = np.uint64(0xFFFFFFFF)
_ONE = np.uint64(1)
_N_CATEGORIES = 9
_CHUNK = 16384
"""Rows per parallel work item of the batch kernels (a multiple of ``_BLOCK``)."""
_BLOCK = 2048
"""Rows per block of the three passes: the slot words stay in L1 (512..4096 measured flat)."""
_COUNT_UNITS = 64
"""Work units of :func:`category_counts` (see :func:`_count_unit`)."""
_LANES = 4
"""Category histograms per unit of :func:`_count_unit7` (a power of two)."""

# Slot words: flush flags of the four suits in bits 19, 23, 27 and 31. The
# 7-card keys hold their suit counters at SEVEN_SUIT_SHIFT (16), so their flags
# are the accumulator's bits themselves; the general keys' counters sit at 32.
_FLAGS = np.uint64(FLUSH_BITS << SEVEN_SUIT_SHIFT)
_FLAG_SHIFT = np.uint64(SUIT_SHIFT - SEVEN_SUIT_SHIFT)
_SEVEN_SHIFT = np.uint64(SEVEN_SUIT_SHIFT)
_SEVEN_INIT = np.uint64(SEVEN_FLUSH_INIT)
_SEVEN_ONE_EACH = np.uint64(0x1111 << SEVEN_SUIT_SHIFT)
"""One more card in each suit counter of a 7-card key sum."""
assert MAX_SLOT_BITS <= 19 and SUIT_SHIFT >= SEVEN_SUIT_SHIFT

_U32 = np.uint64(32)
_BYTE = np.uint64(255)
_N_BYTES = 256
_SEVEN = np.uint64(7)


@kernel(inline=True)
def _count_unit_of(item: int) -> int:
    """The work unit that enumerates the ``item``-th first-three-cards prefix: dealt out in a
    serpentine (0..63, 63..0, ...) so every unit gets as many long and short prefixes."""
    turn, pos = divmod(item, _COUNT_UNITS)
    return pos if turn % 2 == 0 else _COUNT_UNITS - 1 - pos


@kernel(inline=True)
def is_flush(acc):
    """Whether an accumulator holds five or more cards of one suit."""
    return (acc >> _SUIT_SHIFT) & _FLUSH != 0


@kernel(inline=True)
def _flush_suit(acc):
    """The suit whose flush flag is set in the accumulated key ``acc`` (4 bits a suit counter)."""
    return np.int64(trailing_zeros((acc >> _SUIT_SHIFT) & _FLUSH) >> 2)


@kernel
def hash_score(acc, tables):
    """Score of a hand with no flush, from its accumulator alone."""
    h = (acc & _LOW32) * tables[1]
    slot = ((h >> tables[3]) & tables[4]) ^ tables[5][h >> tables[2]]
    return np.int32(tables[6][slot])


@kernel(inline=True)
def flush_score(acc, cards, n, tables):
    """Score of a flush hand: the rank mask of its flush suit in ``cards[:n]``, looked up."""
    suit = _flush_suit(acc)
    mask = np.int64(0)
    for i in range(n):
        c = np.int64(cards[i])  # int64: a uint8 == int64 test would be done in float64
        if (c & 3) == suit:
            mask |= np.int64(1) << (c >> 2)
    return np.int32(tables[-1][mask])


@kernel(inline=True)
def score_acc(acc, cards, n, tables):
    """Score of the ``n`` cards ``cards[:n]`` whose accumulator is ``acc``.

    ``cards`` is read only when the hand holds a flush.
    """
    if is_flush(acc):
        return flush_score(acc, cards, n, tables)
    return hash_score(acc, tables)


@kernel(inline=True)
def accumulate(cards, n, tables):
    """Accumulator of ``cards[:n]``."""
    key = tables[0]
    acc = _INIT
    for i in range(n):
        acc += key[cards[i]]
    return acc


@kernel(inline=True)
def score_cards(cards, n, tables):
    """Score of the ``n`` (5 to 7) card ids in ``cards[:n]``."""
    return score_acc(accumulate(cards, n, tables), cards, n, tables)


@kernel
def score_mask(mask, tables):
    """Score of the cards of a 64-bit mask (5 to 7 bits set)."""
    key = tables[0]
    acc = _INIT
    m = np.uint64(mask)
    while m:
        acc += key[trailing_zeros(m)]
        m &= m - _ONE
    if is_flush(acc):
        suit = _flush_suit(acc)
        ranks = 0
        m = np.uint64(mask) >> np.uint64(suit)
        r = 0
        while m:
            if m & _ONE:
                ranks |= 1 << r
            m >>= np.uint64(4)
            r += 1
        return np.int32(tables[-1][ranks])
    return hash_score(acc, tables)


# -- batches ---------------------------------------------------------------------------------


@kernel
def _seven_table(tables):
    """The 7-card table of ``tables``: ``(key, key_last, bucket_shift, slot_shift,
    slot_mask, displace, values)``.

    ``key[c]`` is ``((5**rank * m) mod 2**32) << 32`` plus the card's suit bit at
    ``SEVEN_SUIT_SHIFT``; ``key_last`` is the same plus the suit counters' start
    value (added with one card of each hand, so a 7-card sum is 7 loads and 6
    additions). Both have 256 entries, 0 past the deck, so any byte indexes them:
    the fused validate-and-score pass hashes a block before it knows the block is
    valid. ``displace`` and ``values`` are views of the 7-card part of
    ``tables[5]`` and ``tables[6]``.
    """
    card_key, m = tables[0], tables[7]
    keys = np.zeros((2, _N_BYTES), dtype=np.uint64)
    for c in range(card_key.shape[0]):
        rank_part = ((card_key[c] & _LOW32) * m) << _U32
        keys[0, c] = rank_part | ((card_key[c] >> _SUIT_SHIFT) << _SEVEN_SHIFT)
        keys[1, c] = keys[0, c] + _SEVEN_INIT
    return (keys[0], keys[1], tables[8], tables[9], tables[10], tables[5][tables[11] :],
            tables[6][tables[12] :])


@kernel(inline=True)
def _u(card):
    """A (validated, non-negative) card id of any integer dtype as an unsigned index: numba
    then emits no negative-index wrap-around code for signed dtypes."""
    return np.uint64(card)


@kernel(inline=True)
def _b(card):
    """A card id of any integer dtype as an index into a 256-entry table (free for uint8)."""
    return np.uint64(card) & _BYTE


@kernel(inline=True)
def _bad7(hands, i, bits):
    """Non-zero when 7-card row ``i`` has a card off the deck or a card twice.

    The OR of the cards' bits (:func:`_card_bits`) has 7 bits set exactly when the row
    is valid: a repeated card or one off the deck (bit 0) leaves fewer; ids above 255
    are caught by ``over``. No branch and no ``x | 1 << c`` (LLVM makes that a serial
    chain of ``bts``).
    """
    c0, c1, c2, c3 = hands[i, 0], hands[i, 1], hands[i, 2], hands[i, 3]
    c4, c5, c6 = hands[i, 4], hands[i, 5], hands[i, 6]
    over = np.uint64(np.int64((c0 | c1 | c2 | c3) | (c4 | c5 | c6)) >> 8)
    mask = ((bits[_b(c0)] | bits[_b(c1)]) | (bits[_b(c2)] | bits[_b(c3)])) | (
        (bits[_b(c4)] | bits[_b(c5)]) | bits[_b(c6)])
    return over | (_popcount(mask) ^ _SEVEN)


@kernel
def _slots7(hands, span, seven, bits, slots):
    """Pass 1 for 7-card rows ``lo:hi``: their slot words into ``slots[:hi - lo]``; returns
    whether a row of the block is invalid (:func:`_bad7`), checked unless ``bits`` is empty.

    ``hands``: uint8 or int64[m, 7] card ids; ``span`` = ``(lo, hi)``; ``seven``: the 7-card
    table, :func:`_seven_table` (its ``values`` unused here); ``bits``: :func:`_card_bits` or
    empty (no check); ``slots``: uint32[_BLOCK], written.

    The hash is the sum of the pre-multiplied keys; bucket and slot come from
    its high bits, the flags are its bits 19, 23, 27, 31. Indices are unsigned
    so numba emits no negative-index wrap-around code, and taken modulo 256
    (the key tables have 256 entries) so an invalid id reads a key, not past
    the table: the check costs no branch per row, a block's verdict is the OR of
    its rows'.
    """
    lo, hi = span
    key, key_last, bucket_shift, slot_shift, slot_mask, displace, _ = seven
    bad = np.uint64(0)
    check = bits.shape[0] != 0
    for m in range(np.uint64(hi - lo)):
        i = np.uint64(lo) + m
        if check:  # loop-invariant: LLVM unswitches the loop
            bad |= _bad7(hands, i, bits)
        h = ((key[_b(hands[i, 0])] + key[_b(hands[i, 1])])
             + (key[_b(hands[i, 2])] + key[_b(hands[i, 3])])) + (
            (key[_b(hands[i, 4])] + key[_b(hands[i, 5])]) + key_last[_b(hands[i, 6])]
        )
        slot = ((h >> slot_shift) & slot_mask) ^ displace[h >> bucket_shift]
        slots[m] = np.uint32(slot | (h & _FLAGS))
    return bad != 0


@kernel
def _slots_any(hands, lo, hi, tables, bits, slots):
    """Pass 1 for rows ``lo:hi`` of any size (5-7) with the general table; returns whether a
    row is invalid, checked (before its ids index) unless ``bits`` is empty."""
    key, mult, bucket_shift, slot_shift, slot_mask, displace = tables[:6]
    k = np.uint64(hands.shape[1])
    check = bits.shape[0] != 0
    for m in range(np.uint64(hi - lo)):
        i = np.uint64(lo) + m
        if check:
            over = np.int64(0)
            mask = np.uint64(0)
            for j in range(k):
                over |= np.int64(hands[i, j])
                mask |= bits[_b(hands[i, j])]
            if (over >> 8) != 0 or _popcount(mask) != k:
                return True
        acc = _INIT
        for j in range(k):
            acc += key[_u(hands[i, j])]
        h = (acc & _LOW32) * mult
        slot = ((h >> slot_shift) & slot_mask) ^ displace[h >> bucket_shift]
        slots[m] = np.uint32(slot | ((acc >> _FLAG_SHIFT) & _FLAGS))
    return False


@kernel
def _finish_block(hands, span, slots, lookup, outs):
    """Passes 2 and 3 for rows ``lo:hi``: values of the slots, then the flush rows.

    ``span`` = ``(lo, hi)``; ``slots``: pass 1's slot words; ``lookup`` = ``(values, slot_mask,
    flush)``: the table's values, its slot mask and the flush table; ``outs`` = ``(out,
    flagged)``: the scores (rows ``lo:hi`` written) and uint32[_BLOCK] scratch.
    """
    lo, hi = span
    values, slot_mask, flush = lookup
    out, flagged = outs
    mask32 = np.uint32(slot_mask)  # a slot word above the mask has a flag set
    cnt = np.uint64(0)
    for m in range(np.uint64(hi - lo)):
        s = slots[m]
        out[np.uint64(lo) + m] = values[s & mask32]
        flagged[cnt] = m
        cnt += np.uint64(s > mask32)
    k = hands.shape[1]
    for t in range(cnt):
        m = np.uint64(flagged[t])
        i = np.uint64(lo) + m
        suit = np.int64(trailing_zeros((np.uint64(slots[m]) & _FLAGS) >> _SEVEN_SHIFT) >> 2)
        ranks = np.int64(0)
        for j in range(k):
            c = np.int64(hands[i, j])
            ranks |= np.int64((c & 3) == suit) << (c >> 2)
        out[i] = flush[ranks]


@kernel
def score_batch_serial(hands, tables, out):
    """Scores of the rows of ``hands`` (m x k card ids, k in 5..7) into ``out``, one thread
    (:func:`score_checked_serial` without the validation)."""
    score_checked_serial(hands, tables, 0, out)


@kernel(parallel=True)
def score_batch(hands, tables, out):
    """Scores of the rows of ``hands`` (m x k card ids) into ``out``, all threads."""
    n = hands.shape[0]
    for c in prange((n + _CHUNK - 1) // _CHUNK):
        lo = c * _CHUNK
        score_batch_serial(hands[lo : lo + _CHUNK], tables, out[lo : lo + _CHUNK])


@kernel(parallel=True)
def score_masks(masks, tables, out):
    """Scores of an array of 64-bit hand masks into ``out``."""
    for i in prange(masks.shape[0]):
        out[i] = score_mask(masks[i], tables)


# -- enumeration -----------------------------------------------------------------------------


@kernel
def _count_unit(u, n_cards, k, tables, counts):
    """Add to ``counts`` the category of every ``k``-card hand (k >= 5) whose three lowest
    cards are one of the triples of work unit ``u``.

    Triples ``a < b < c`` are dealt to the units in order of ``c`` (so by decreasing
    number of hands, ``C(n_cards - 1 - c, k - 3)``) in a snake: 0, 1, ..., U-1,
    U-1, ..., 0, 0, 1, ... Any contiguous run of units (what a thread gets from
    ``prange``) then has within ~2% of its share of the hands.

    The hash of an accumulator is ``(acc & low_mask) * mult``: the general table's
    (low 32 bits times the multiplier) or the 7-card table's (the sum itself:
    ``low_mask`` all ones, ``mult`` 1). Partial accumulators are reused so each
    hand costs one addition and one look-up.

    ``u``: the work unit; ``n_cards``, ``k``: the deck's cards and the hand size; ``tables``:
    the evaluator's tables (``HandTables.kernel_args``: the general table and the flush table
    last); ``counts``: int64[categories], added to.
    """
    key, mult, bucket_shift, slot_shift, slot_mask, displace, values = tables[:7]
    flush = tables[-1]
    init, low_mask, suit_shift = _INIT, _LOW32, _SUIT_SHIFT
    idx = np.empty(k, dtype=np.int64)
    part = np.empty(k, dtype=np.uint64)  # part[j] = accumulator of idx[:j+1]
    item = -1
    for c in range(2, n_cards - k + 3):
        for b in range(1, c):
            for a in range(b):
                item += 1
                if _count_unit_of(item) != u:
                    continue
                idx[0] = a
                idx[1] = b
                idx[2] = c
                part[2] = init + key[a] + key[b] + key[c]
                for j in range(3, k - 1):
                    idx[j] = c + j - 2
                    part[j] = part[j - 1] + key[idx[j]]
                while True:
                    base = part[k - 2]
                    for last in range(idx[k - 2] + 1, n_cards):
                        acc = base + key[last]
                        flags = (acc >> suit_shift) & _FLUSH
                        if flags:
                            idx[k - 1] = last
                            suit = np.int64(trailing_zeros(flags) >> 2)
                            ranks = np.int64(0)
                            for j in range(k):
                                ranks |= np.int64((idx[j] & 3) == suit) << (idx[j] >> 2)
                            s = flush[ranks]
                        else:
                            h = (acc & low_mask) * mult
                            s = values[((h >> slot_shift) & slot_mask) ^ displace[h >> bucket_shift]]
                        counts[s >> CATEGORY_SHIFT] += 1
                    # next combination of the middle cards idx[3:k-1]
                    j = k - 2
                    while j >= 3 and idx[j] == n_cards - k + j:
                        j -= 1
                    if j < 3:
                        break
                    idx[j] += 1
                    part[j] = part[j - 1] + key[idx[j]]
                    for t in range(j + 1, k - 1):
                        idx[t] = idx[t - 1] + 1
                        part[t] = part[t - 1] + key[idx[t]]


@kernel(inline=True)
def _flush7(h, cards, flush):
    """Score of a 7-card flush hand with key sum ``h`` (the 7-card table's) and ``cards``."""
    suit = np.int64(trailing_zeros((h & _FLAGS) >> _SEVEN_SHIFT) >> 2)
    ranks = np.int64(0)
    for j in range(7):
        x = cards[j]
        ranks |= np.int64((x & 3) == suit) << (x >> 2)
    return flush[ranks]


@kernel
def _count_unit7(u, n_cards, seven, flush, counts):
    """:func:`_count_unit` for 7-card hands with the 7-card table, written as nested loops
    over partial sums of the pre-multiplied keys (the hash of a hand is its key sum).

    The last card is walked by rank: when the first six cards hold at most four of a
    suit, the last card's cards of one rank all give the same non-flush hand (the
    look-up reads the rank part of the sum), so that hand is looked up once and
    counted as many times as there are such cards; only the one card that completes
    a flush is scored on its own. ``counts`` has ``_LANES`` rows (by the last card's
    rank) so that runs of one category do not chain increments on one store.

    ``u``: the work unit; ``n_cards``: the deck's cards; ``seven``: the 7-card table
    (:func:`_seven_table`); ``flush``: the flush table; ``counts``: int64[_LANES, categories],
    added to.
    """
    key, _, bucket_shift, slot_shift, slot_mask, displace, values = seven
    n = n_cards
    cards = np.empty(7, np.int64)
    item = -1
    for c in range(2, n - 4):
        for b in range(1, c):
            for a in range(b):
                item += 1
                if _count_unit_of(item) != u:
                    continue
                cards[0] = a
                cards[1] = b
                cards[2] = c
                p3 = _SEVEN_INIT + key[a] + key[b] + key[c]
                for d in range(c + 1, n - 3):
                    cards[3] = d
                    p4 = p3 + key[d]
                    for e in range(d + 1, n - 2):
                        cards[4] = e
                        p5 = p4 + key[e]
                        for f in range(e + 1, n - 1):
                            cards[5] = f
                            p6 = p5 + key[f]
                            if p6 & _FLAGS:  # five of a suit already: every hand is a flush
                                for g in range(f + 1, n):
                                    cards[6] = g
                                    sc = _flush7(p6 + key[g], cards, flush)
                                    counts[(g >> 2) & (_LANES - 1), sc >> CATEGORY_SHIFT] += 1
                                continue
                            four = (p6 + _SEVEN_ONE_EACH) & _FLAGS  # a suit with four cards
                            fs = np.int64(trailing_zeros(four >> _SEVEN_SHIFT) >> 2) if four else -1
                            g = f + 1
                            while g < n:
                                r = g >> 2
                                top = min(n, 4 * r + 4)
                                cnt = top - g
                                lane = r & (_LANES - 1)
                                x = 4 * r + fs
                                if fs >= 0 and g <= x < top:
                                    cnt -= 1
                                    cards[6] = x
                                    sc = _flush7(p6 + key[x], cards, flush)
                                    counts[lane, sc >> CATEGORY_SHIFT] += 1
                                if cnt:
                                    h = p6 + key[g]
                                    sc = values[((h >> slot_shift) & slot_mask)
                                                ^ displace[h >> bucket_shift]]
                                    counts[lane, sc >> CATEGORY_SHIFT] += cnt
                                g = top


@kernel(parallel=True)
def category_counts(n_cards, k, tables):
    """Number of ``k``-card hands (5-7) of each category over all hands of a deck.

    Enumerates every combination, split into work units by the three lowest
    cards (see :func:`_count_unit`) so that threads get equal work; split by the
    lowest card alone, the first of two threads got ~99% of it. 7-card hands
    use the 7-card table and walk the last card by rank (:func:`_count_unit7`):
    all C(52,7) on one thread (``taskset -c 0``, load ~4, same run) 0.396-0.426 s
    before, 0.211 s after, OMPEval's nested loops 0.276 s. Counts are integers
    summed per unit: identical for any number of threads.
    """
    flush = tables[-1]
    per_unit = np.zeros((_COUNT_UNITS, _LANES, _N_CATEGORIES), dtype=np.int64)
    seven = _seven_table(tables)
    for pu in prange(_COUNT_UNITS):
        u = np.int64(pu)  # a prange index is unsigned in the parallel body: one signature
        if k == 7:
            _count_unit7(u, n_cards, seven, flush, per_unit[u])
        else:
            _count_unit(u, n_cards, k, tables, per_unit[u, 0])
    return sum_blocks(sum_blocks(per_unit))


# -- validation ------------------------------------------------------------------------------


@intrinsic
def _popcount(typingctx, x):
    """Number of set bits of a uint64 (one ``popcnt`` instruction)."""
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


@kernel
def _card_bits(n_cards):
    """``bits[v] = 1 << v`` for the card ids ``v`` of the deck, 0 for the other byte values."""
    bits = np.zeros(256, dtype=np.uint64)
    for c in range(n_cards):
        bits[c] = _ONE << np.uint64(c)
    return bits


@kernel(inline=True)
def _bit(bits, card):
    """The card's bit from the table ``bits`` (``bits[c] = 1 << c``), indexed unsigned."""
    return bits[np.uint64(card) & _BYTE]  # unsigned index: no wrap-around code


@kernel
def _first_invalid(hands, lo, hi, bits):
    """First row of ``lo:hi`` with a card off the deck or a card twice, else -1.

    A row is valid when the OR of its cards' bits has ``k`` bits set (see
    :func:`_bad7`): 1.9 ns a 7-card row (5.5 with ``x | 1 << c``).
    """
    k = hands.shape[1]
    want = np.uint64(k)
    if k == 7:  # written out: 2x faster than the loop below
        for i in range(np.uint64(lo), np.uint64(hi)):
            if _bad7(hands, i, bits):
                return np.int64(i)
        return -1
    for i in range(lo, hi):
        mask = np.uint64(0)
        over = np.int64(0)
        for j in range(k):
            card = np.int64(hands[i, j])
            over |= card
            mask |= _bit(bits, card)
        if (over >> 8) != 0 or _popcount(mask) != want:
            return i
    return -1


@kernel(parallel=True)
def first_invalid_row(hands, n_cards):
    """Index of the first row with a card id out of ``0..n_cards-1`` or a repeated card, else -1."""
    n = hands.shape[0]
    bits = _card_bits(n_cards)
    n_chunks = (n + _CHUNK - 1) // _CHUNK
    bad = np.full(n_chunks, -1, dtype=np.int64)
    for pc in prange(n_chunks):
        c = np.int64(pc)  # a prange index is unsigned in the parallel body: one signature
        bad[c] = _first_invalid(hands, c * _CHUNK, min(n, (c + 1) * _CHUNK), bits)
    for c in range(n_chunks):
        if bad[c] >= 0:
            return bad[c]
    return -1


@kernel
def first_invalid_row_serial(hands, n_cards):
    """:func:`first_invalid_row` on one thread."""
    return _first_invalid(hands, 0, hands.shape[0], _card_bits(n_cards))


# -- validated batches -----------------------------------------------------------------------


@kernel
def score_checked_serial(hands, tables, n_cards, out):
    """Scores of the rows of ``hands`` into ``out``, one thread, validating the rows in the
    scoring pass itself (:func:`_slots7`): returns the first row with a card id off
    ``0..n_cards-1`` or a card twice, found by rescanning the one block that failed (rows
    from that block on are not scored), else -1. ``n_cards`` 0 skips the validation
    (:func:`score_batch_serial`)."""
    n, k = hands.shape
    bits = _card_bits(n_cards) if n_cards else np.zeros(0, np.uint64)
    slots = np.empty(_BLOCK, np.uint32)
    flagged = np.empty(_BLOCK, np.uint32)
    if k == 7:
        seven = _seven_table(tables)
        lookup = (seven[6], seven[4], tables[-1])
        for lo in range(0, n, _BLOCK):
            hi = min(n, lo + _BLOCK)
            if _slots7(hands, (lo, hi), seven, bits, slots):
                return _first_invalid(hands, lo, hi, bits)
            _finish_block(hands, (lo, hi), slots, lookup, (out, flagged))
    else:
        for lo in range(0, n, _BLOCK):
            hi = min(n, lo + _BLOCK)
            if _slots_any(hands, lo, hi, tables, bits, slots):
                return _first_invalid(hands, lo, hi, bits)
            _finish_block(hands, (lo, hi), slots, (tables[6], tables[4], tables[-1]), (out, flagged))
    return np.int64(-1)


@kernel(parallel=True)
def score_checked(hands, tables, n_cards, out):
    """:func:`score_checked_serial` on all threads: the first invalid row, else -1."""
    n = hands.shape[0]
    n_chunks = (n + _CHUNK - 1) // _CHUNK
    bad = np.full(n_chunks, -1, dtype=np.int64)
    for c in prange(n_chunks):
        lo = c * _CHUNK
        b = score_checked_serial(hands[lo : lo + _CHUNK], tables, n_cards, out[lo : lo + _CHUNK])
        if b >= 0:
            bad[c] = lo + b
    for c in range(n_chunks):
        if bad[c] >= 0:
            return bad[c]
    return -1
