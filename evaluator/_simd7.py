"""AVX-512 batch kernel for 7-card rows: 16 rows at a time in vector registers (issue 21).

What ``evaluate_batch`` runs on 7-card rows when numba targets a CPU with AVX-512 (F, BW, VL,
VBMI): :func:`available`. Each group of 16 consecutive rows is scored and validated in one
piece of LLVM vector code (:func:`_group16`, an intrinsic, so the instructions are chosen,
not hoped for from the loop vectoriser):

1. the 112 card ids are loaded with two 64-byte loads (wider integer ids are loaded whole,
   checked against the deck size and narrowed to bytes), and transposed by byte shuffles
   (``vpermt2b``) into one 16-lane vector per card column;
2. *validity*, branch-free: an id off the deck is a byte compare; a card twice in a row is
   found by packing the 7 columns and a sentinel column (0xFF) into two 64-byte vectors
   (columns C0..C3 and C4..C7) and comparing each with its rotations by 1, 2 and 3 columns
   and C0..C3 with C4..C7: every pair of the 8 columns is compared once, 7 compares for 16
   rows. A group's verdict is the OR of its rows';
3. *hash*: the 7-card table's key of a card (``(5**rank * m) mod 2**32``, see ``tables.py``)
   comes from a 16-entry table held in a register (``vpermd`` on the rank), and so does
   the card's suit-counter nibble (``vpermd`` on the id: it reads the low 4 bits, whose
   low 2 bits are the suit); the slot is the 7-card perfect hash of the key sum, the
   displacement and the score two gathers (``vpgatherdd``) from byte and 16-bit tables
   padded so the 4-byte reads stay inside them;
4. the rows with five cards of a suit (the suit counters' flags, ~3% of random rows) are
   appended to a list by a compress store (``vpcompressd``) and scored after the block by
   :func:`_flush_row`.

Blocks of ``_BLOCK`` rows are scored and validated together; a block with an invalid row is
rescanned by the scalar check to name its first bad row, as the scalar kernels do; the rows
after the last whole group of 16 are copied into one group padded with a valid hand.

Measured (2M random 7-card uint8 rows of 52 cards, one thread, ``taskset -c 0``; figures and
commands in results/benchmarks.md, "Issue 21, third session"): by thread CPU time,
interleaved (``scripts/bench_evaluate_batch.py``), 486-503 M rows/s against 329-339 for the
scalar kernel without validation and 248 for the scalar validated one; against OMPEval in the
same run, quiet machine, 1.17-1.66x depending on the run and on best of 5 or 25 calls.
"""

from __future__ import annotations

from functools import cache

import numpy as np
from llvmlite import ir
from numba import config, prange, types
from numba.core import cgutils
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.extending import intrinsic, overload

from . import _kernels as K
from .jit import kernel
from .tables import FLUSH_BITS, FLUSH_INIT, SUIT_SHIFT

ROWS = 16
"""Rows per vector group (16 lanes of 32 bits in a 512-bit register)."""
CARDS = 7
_BLOCK = 1024
"""Rows per block: validated together, then their flush rows scored (a multiple of ``ROWS``)."""
assert K._CHUNK % _BLOCK == 0 and _BLOCK % ROWS == 0
SENTINEL = 0xFF
"""Byte of the eighth (padding) column of the duplicate test: never a card of a valid row."""
_SUIT_INIT = FLUSH_INIT >> SUIT_SHIFT
"""Suit counters' start (4 bits a suit): a fifth card of a suit sets its counter's top bit."""
FEATURES = ("avx512f", "avx512bw", "avx512vl", "avx512vbmi")
"""CPU features the kernel's instructions need."""

_I1, _I8, _I16, _I32, _I64 = (ir.IntType(w) for w in (1, 8, 16, 32, 64))
_V16I32 = ir.VectorType(_I32, ROWS)
_V16I1 = ir.VectorType(_I1, ROWS)
_V64I8 = ir.VectorType(_I8, 64)
_ROW_BYTES = ROWS * CARDS  # 112: loaded as bytes 0..63 and 48..111
_SECOND_AT = _ROW_BYTES - 64


@cache
def available() -> bool:
    """Whether numba compiles for this machine's CPU and that CPU has the AVX-512 subsets the
    kernel uses (else ``evaluate_batch`` keeps the scalar kernels)."""
    if config.DISABLE_JIT or config.CPU_NAME or config.CPU_FEATURES:
        return False
    from llvmlite import binding

    features = binding.get_host_cpu_features()
    return all(features.get(f, False) for f in FEATURES)


# -- LLVM IR of one group of 16 rows ---------------------------------------------------------


def _consts(values: list[int], ty: ir.Type = _I32) -> ir.Constant:
    return ir.Constant(ir.VectorType(ty, len(values)), values)


def _splat(builder: ir.IRBuilder, x: ir.Value, ty: ir.VectorType = _V16I32) -> ir.Value:
    undef = ir.Constant(ty, ir.Undefined)
    return builder.shuffle_vector(builder.insert_element(undef, x, _I32(0)), undef,
                                  _consts([0] * ty.count))


def _byte(x: int) -> int:
    """Shuffle index of row byte ``x`` (0..111) in the two loads (bytes 0..63, 48..111)."""
    return x if x < 64 else 64 + x - _SECOND_AT


def _column(j: int) -> list[int]:
    return [_byte(CARDS * t + j) for t in range(ROWS)]


_PACKED = ([_byte(CARDS * t + q) for q in range(4) for t in range(ROWS)],
           [_byte(CARDS * t + min(4 + q, CARDS - 1)) for q in range(4) for t in range(ROWS)])
"""Columns C0..C3 and C4, C5, C6, C6 as two 64-byte vectors (the last one becomes the
sentinel column C7)."""
_SENTINEL_COLUMN = [0] * 48 + [SENTINEL] * ROWS


def _rotation(d: int) -> tuple[list[int], list[int]]:
    """Shuffles of the packed columns giving C[d..d+3] and C[d+4..d+7] (indices mod 8)."""
    def at(k: int) -> int:
        k %= 8
        return 16 * k if k < 4 else 64 + 16 * (k - 4)
    return ([at(d + q) + t for q in range(4) for t in range(ROWS)],
            [at(d + 4 + q) + t for q in range(4) for t in range(ROWS)])


def _function(builder: ir.IRBuilder, name: str, ret: ir.Type, args: list[ir.Type]) -> ir.Function:
    return cgutils.get_or_insert_function(builder.module, ir.FunctionType(ret, args), name)


def _row_bytes(builder, rows_ptr, row0):
    """The 112 ids of rows ``row0..row0+15`` as two 64-byte vectors (bytes 0..63, 48..111)."""
    start = builder.gep(rows_ptr, [builder.mul(row0, _I64(CARDS))])
    first = builder.load(builder.bitcast(start, _V64I8.as_pointer()), align=1)
    second = builder.load(builder.bitcast(builder.gep(start, [_I64(_SECOND_AT)]),
                                          _V64I8.as_pointer()), align=1)
    return first, second


def _invalid(builder, first, second, n_cards):
    """An i64, non-zero when a row of the group has an id off the deck or a card twice."""
    c_low = builder.shuffle_vector(first, second, _consts(_PACKED[0]))
    c_high = builder.shuffle_vector(first, second, _consts(_PACKED[1]))
    n8 = _splat(builder, builder.trunc(n_cards, _I8), _V64I8)
    bad = builder.or_(builder.icmp_unsigned(">=", c_low, n8), builder.icmp_unsigned(">=", c_high, n8))
    c_high = builder.or_(c_high, _consts(_SENTINEL_COLUMN, _I8))
    bad = builder.or_(bad, builder.icmp_unsigned("==", c_low, c_high))
    for d in (1, 2, 3):
        low_rot, high_rot = (builder.shuffle_vector(c_low, c_high, _consts(m)) for m in _rotation(d))
        bad = builder.or_(bad, builder.icmp_unsigned("==", c_low, low_rot))
        bad = builder.or_(bad, builder.icmp_unsigned("==", c_high, high_rot))
    return builder.bitcast(bad, _I64)


@intrinsic
def _group16(typingctx, rows, row0, key_table, suit_table, displace, values, shifts, n_cards,
             out, flagged, n_flagged):
    """Score rows ``row0..row0+15`` of the C-contiguous uint8 ``rows`` (n x 7) into ``out``
    and append the indices of their flush rows to ``flagged[n_flagged:]``: returns ``(bad,
    n_flagged)``, ``bad`` non-zero when a row is invalid. ``shifts`` is ``(bucket shift, slot
    shift, slot mask)`` of the 7-card hash of the key sum (a uint32)."""
    if not (isinstance(rows, types.Array) and rows.ndim == 2 and rows.layout == "C"
            and rows.dtype == types.uint8):
        return None
    sig = types.UniTuple(types.uint64, 2)(rows, types.int64, key_table, suit_table, displace,
                                          values, shifts, types.uint32, out, flagged, types.uint64)

    def codegen(context, builder, signature, args):
        (rows_v, row0_v, key_v, suit_v, displace_v, values_v, shifts_v, n_cards_v, out_v,
         flagged_v, n_flagged_v) = args

        def data(i, value, ty=_I8):
            ptr = context.make_array(signature.args[i])(context, builder, value).data
            return builder.bitcast(ptr, ty.as_pointer())

        first, second = _row_bytes(builder, data(0, rows_v), row0_v)
        bad = _invalid(builder, first, second, n_cards_v)
        permute = _function(builder, "llvm.x86.avx512.permvar.si.512", _V16I32, [_V16I32, _V16I32])
        keys = builder.load(builder.bitcast(data(2, key_v), _V16I32.as_pointer()), align=4)
        suits = builder.load(builder.bitcast(data(3, suit_v), _V16I32.as_pointer()), align=4)
        key_sum = suit_sum = None
        for j in range(CARDS):
            ids = builder.zext(builder.shuffle_vector(first, second, _consts(_column(j))), _V16I32)
            key = builder.call(permute, [keys, builder.lshr(ids, _splat(builder, _I32(2)))])
            nibble = builder.call(permute, [suits, ids])
            key_sum = key if key_sum is None else builder.add(key_sum, key)
            suit_sum = nibble if suit_sum is None else builder.add(suit_sum, nibble)
        flags = builder.and_(builder.add(suit_sum, _splat(builder, _I32(_SUIT_INIT))),
                             _splat(builder, _I32(FLUSH_BITS)))
        flush = builder.icmp_unsigned("!=", flags, _splat(builder, _I32(0)))
        sp = data(6, shifts_v, _I32)
        bucket_shift, slot_shift, slot_mask = (builder.load(builder.gep(sp, [_I64(i)]))
                                               for i in range(3))
        gather = _function(builder, "llvm.x86.avx512.mask.gather.dpi.512", _V16I32,
                           [_V16I32, _I8.as_pointer(), _V16I32, _V16I1, _I32])
        every = ir.Constant(_V16I1, [1] * ROWS)
        zero = _splat(builder, _I32(0))
        bucket = builder.lshr(key_sum, _splat(builder, bucket_shift))
        shift = builder.call(gather, [zero, data(4, displace_v), bucket, every, _I32(1)])
        slot = builder.and_(builder.lshr(key_sum, _splat(builder, slot_shift)), _splat(builder, slot_mask))
        slot = builder.xor(slot, builder.and_(shift, _splat(builder, _I32(0xFF))))
        score = builder.call(gather, [zero, data(5, values_v), slot, every, _I32(2)])
        score = builder.and_(score, _splat(builder, _I32(0xFFFF)))
        out_at = builder.gep(data(8, out_v, _I32), [row0_v])
        builder.store(score, builder.bitcast(out_at, _V16I32.as_pointer()), align=4)
        rows = builder.add(_splat(builder, builder.trunc(row0_v, _I32)), _consts(list(range(ROWS))))
        compress = _function(builder, "llvm.masked.compressstore.v16i32", ir.VoidType(),
                             [_V16I32, _I32.as_pointer(), _V16I1])
        builder.call(compress, [rows, builder.gep(data(9, flagged_v, _I32), [n_flagged_v]), flush])
        popcount = _function(builder, "llvm.ctpop.i16", _I16, [_I16])
        count = builder.zext(builder.call(popcount, [builder.bitcast(flush, _I16)]), _I64)
        return context.make_tuple(builder, signature.return_type,
                                  [bad, builder.add(n_flagged_v, count)])

    return sig, codegen


@kernel(inline=True)
def _flush_row(hands, i, flush):
    """Score of 7-card row ``i``, which holds five or more cards of one suit."""
    counters = np.uint64(_SUIT_INIT)
    for j in range(CARDS):
        counters += np.uint64(1) << ((np.uint64(hands[i, j]) & np.uint64(3)) << np.uint64(2))
    suit = np.int64(trailing_zeros(counters & np.uint64(FLUSH_BITS)) >> 2)
    ranks = np.int64(0)
    for j in range(CARDS):
        c = np.int64(hands[i, j])
        ranks |= np.int64((c & 3) == suit) << (c >> 2)
    return flush[ranks]


def _block_bytes(hands, lo, hi, n_cards, buf):
    """Rows ``lo:hi`` of ``hands`` as uint8 ids, and whether an id of a wider dtype is off
    ``0..n_cards-1`` (it would not survive the narrowing): a view for 1-byte dtypes, else
    narrowed into ``buf`` (one vectorised pass)."""


@overload(_block_bytes, jit_options={"cache": True})
def _block_bytes_impl(hands, lo, hi, n_cards, buf):
    if hands.dtype.bitwidth == 8:
        def view(hands, lo, hi, n_cards, buf):
            return hands[lo:hi].view(np.uint8), False
        return view

    def narrow(hands, lo, hi, n_cards, buf):
        src = hands[lo:hi].reshape(-1)
        dst = buf[: hi - lo]
        flat = dst.reshape(-1)
        n = np.uint64(n_cards)
        off = np.uint64(0)
        for i in range(src.shape[0]):
            v = np.uint64(src[i])  # negative ids become huge
            off |= np.uint64(v >= n)
            flat[i] = np.uint8(v)
        return dst, off != 0
    return narrow


@kernel
def _score_groups(rows, simd, n_cards, flush, out, flagged):
    """Score the uint8 ``rows`` (a whole number of groups of 16) into ``out``: whether a row
    is invalid (then the flush rows are left unscored)."""
    key_table, suit_table, displace, values, shifts = simd
    n32 = np.uint32(n_cards)
    bad = np.uint64(0)
    n_flagged = np.uint64(0)
    for row in range(0, rows.shape[0], ROWS):
        b, n_flagged = _group16(rows, row, key_table, suit_table, displace, values, shifts, n32,
                                out, flagged, n_flagged)
        bad |= b
    if bad:
        return True
    for t in range(n_flagged):
        i = flagged[t]
        out[i] = _flush_row(rows, i, flush)
    return False


@kernel
def score7_serial(hands, simd, tables, n_cards, out):
    """Scores of the 7-card rows of ``hands`` (any integer dtype) into ``out``, one thread,
    validated: the first row with an id off ``0..n_cards-1`` or a card twice (rows from its
    block on are not scored), else -1. ``simd`` is ``EvalTables.simd7``; ``tables`` the
    kernel tuple (its flush table)."""
    flush = tables[-1]
    n = hands.shape[0]
    whole = n - n % ROWS
    flagged = np.empty(_BLOCK, np.int32)
    buf = np.empty((_BLOCK, CARDS), np.uint8)
    for lo in range(0, whole, _BLOCK):
        hi = min(lo + _BLOCK, whole)
        rows, off = _block_bytes(hands, lo, hi, n_cards, buf)
        if off or _score_groups(rows, simd, n_cards, flush, out[lo:hi], flagged):
            return K._first_invalid(hands, lo, hi, K._card_bits(n_cards))
    if whole < n:  # the last rows, padded to a group with a valid hand (cards 0..6)
        rows = buf[:ROWS]
        tail_out = np.empty(ROWS, np.int32)
        off = False
        for i in range(ROWS):
            for j in range(CARDS):
                v = np.uint64(hands[whole + i, j]) if whole + i < n else np.uint64(j)
                off |= v >= np.uint64(n_cards)
                rows[i, j] = np.uint8(v)
        if off or _score_groups(rows, simd, n_cards, flush, tail_out, flagged):
            return K._first_invalid(hands, whole, n, K._card_bits(n_cards))
        for i in range(n - whole):
            out[whole + i] = tail_out[i]
    return np.int64(-1)


@kernel(parallel=True)
def score7(hands, simd, tables, n_cards, out):
    """:func:`score7_serial` on all threads: the first invalid row, else -1."""
    n = hands.shape[0]
    n_chunks = (n + K._CHUNK - 1) // K._CHUNK
    bad = np.full(n_chunks, -1, dtype=np.int64)
    for c in prange(n_chunks):
        lo = c * K._CHUNK
        b = score7_serial(hands[lo : lo + K._CHUNK], simd, tables, n_cards, out[lo : lo + K._CHUNK])
        if b >= 0:
            bad[c] = lo + b
    for c in range(n_chunks):
        if bad[c] >= 0:
            return bad[c]
    return -1
