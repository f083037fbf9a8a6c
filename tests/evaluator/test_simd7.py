"""The AVX-512 7-card kernel (``evaluator/_simd7.py``) against the scalar kernels.

Scores: equal to the scalar kernel (itself checked against the reference on every 7-card
hand of the 40-card deck, ``test_evaluator_exhaustive.py``) on every 7-card hand of both
decks and on random rows, with row counts that leave a tail (the API hands the kernels
``uint8`` or ``int64`` rows whatever the caller's integer dtype: every dtype is checked
through it). Checks:
the first bad row named as a plain scan names it, for every pair of columns holding the
same card, every lane of a group, ids just off the deck, the sentinel byte 0xFF and ids
whose low byte is valid, in the first group, at block and chunk edges and in the tail.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest

from evaluator import _kernels as K
from evaluator import _simd7 as S
from evaluator import evaluate_batch
from evaluator.errors import CardError
from evaluator.tables import get_tables
from tests.evaluator.test_evaluator_exhaustive import _all_hands

pytestmark = pytest.mark.skipif(not S.available(), reason="numba does not target an AVX-512 CPU here")

DTYPES = [np.uint8, np.int8, np.uint16, np.int16, np.uint32, np.int32, np.uint64, np.int64]
KERNELS = {
    "simd serial": lambda h, t, n, out: S.score7_serial(h, t.simd7, t.kernel_args, n, out),
    "simd threads": lambda h, t, n, out: S.score7(h, t.simd7, t.kernel_args, n, out),
    "scalar serial": lambda h, t, n, out: K.score_checked_serial(h, t.kernel_args, n, out),
    "scalar threads": lambda h, t, n, out: K.score_checked(h, t.kernel_args, n, out),
}


def _scalar_scores(hands: np.ndarray, game: str) -> np.ndarray:
    out = np.empty(len(hands), np.int32)
    K.score_batch(hands, get_tables(game).kernel_args, out)
    return out


def _random_rows(n: int, n_cards: int, dtype, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.permuted(np.tile(np.arange(n_cards, dtype=dtype), (n, 1)), axis=1)[:, :7].copy()


def _first_bad_row(hands: np.ndarray, n_cards: int) -> int:
    """Slow reference: the first row with an id off ``0..n_cards-1`` or a repeated id, else -1."""
    for i, row in enumerate(hands.tolist()):
        if len(set(row)) != len(row) or not all(0 <= c < n_cards for c in row):
            return i
    return -1


def test_the_tables_are_the_seven_card_hash():
    """The vector tables are the 7-card table's keys, displacements and scores (padded)."""
    for game in ("dilemma", "holdem"):
        tables = get_tables(game)
        keys, suits, displace, values, shifts = tables.simd7
        key7, _, bucket, slot, mask, displace7, values7 = K._seven_table(tables.kernel_args)
        n = len(tables.card_key)
        assert np.array_equal(keys.view(np.uint32)[: n // 4], key7[0:n:4] >> np.uint64(32))
        assert np.array_equal(suits[:4], [1, 16, 256, 4096])
        assert np.array_equal(displace[: len(displace7)], displace7) and len(displace) == len(displace7) + 3
        assert np.array_equal(values[: len(values7)], values7) and len(values) == len(values7) + 1
        assert shifts.tolist() == [bucket - 32, slot - 32, mask]


@pytest.mark.parametrize("game", ["dilemma", "holdem"])
def test_random_rows_of_every_dtype_score_as_the_scalar_kernel(game):
    tables = get_tables(game)
    n_cards = len(tables.card_key)
    hands = _random_rows(20_011, n_cards, np.uint8, seed=3)  # a tail of 11 rows past the groups
    expected = _scalar_scores(hands, game)
    for rows in (hands, hands.astype(np.int64)):  # the kernels' two dtypes
        for name in ("simd serial", "simd threads"):
            out = np.full(len(hands), -1, np.int32)
            assert KERNELS[name](rows, tables, n_cards, out) == -1
            assert np.array_equal(out, expected), name
    for dtype in DTYPES:
        assert np.array_equal(evaluate_batch(hands.astype(dtype), game, threads=False), expected)


@pytest.mark.slow
@pytest.mark.parametrize("game", ["dilemma", "holdem"])
def test_every_seven_card_hand_scores_as_the_scalar_kernel(game):
    """All C(40,7) and C(52,7) hands, by their lowest card (every flush row included)."""
    n_cards = len(get_tables(game).card_key)
    total = 0
    for low in range(n_cards - 6):
        rest = _all_hands(n_cards - low - 1, 6) + np.uint8(low + 1)
        hands = np.empty((len(rest), 7), np.uint8)
        hands[:, 0] = low
        hands[:, 1:] = rest
        total += len(hands)
        fast = evaluate_batch(hands, game)
        bad = np.nonzero(fast != _scalar_scores(hands, game))[0]
        assert bad.size == 0, f"{bad.size} hands differ, first {hands[bad[0]]}"
    assert total == {40: 18_643_560, 52: 133_784_560}[n_cards]


@pytest.mark.parametrize("kernel", list(KERNELS))
@pytest.mark.parametrize("dtype", [np.uint8, np.int64])
def test_the_first_bad_row_is_named(kernel, dtype):
    """Every pair of columns holding one card, off-deck ids, anywhere: the first bad row."""
    tables = get_tables("dilemma")
    n = 2 * 16384 + 37  # two parallel chunks, blocks of 1024, a tail of 5 rows
    hands = _random_rows(n, 40, dtype, seed=7)
    run = KERNELS[kernel]
    out = np.empty(n, np.int32)
    assert run(hands, tables, 40, out) == -1
    faults = [40, 63, 64, 254, 255]
    if dtype == np.int64:
        faults += [-1, -128, 256, 2**40 + 3]  # low byte 3: a valid id once narrowed
    rows = [0, 15, 16, 1023, 1024, 16383, 16384, n - 38, n - 6, n - 5, n - 1]
    for row in rows:
        for i, j in combinations(range(7), 2):
            bad = hands.copy()
            bad[row, j] = bad[row, i]
            assert _first_bad_row(bad[row : row + 1], 40) == 0
            assert run(bad, tables, 40, out) == row, (row, i, j)
        for col in (0, 3, 6):
            for fault in faults:
                bad = hands.copy()
                bad[row, col] = fault
                assert run(bad, tables, 40, out) == row, (row, col, fault)
    bad = hands.copy()  # two bad rows: the first is named, though a later chunk fails too
    bad[n - 3, 0] = 99
    bad[5000, 1] = bad[5000, 2]
    assert run(bad, tables, 40, out) == 5000


@pytest.mark.parametrize("dtype", [np.int8, np.int64, np.uint64])
def test_ids_a_byte_cannot_hold_name_their_row_before_the_cast(dtype):
    """Other dtypes are widened to int64 keeping every id's value: an id below 0 or past 255
    (``2**40 + 3``: low byte 3) is still named, and the first bad row wins."""
    n = 2 * 16384 + 37
    hands = _random_rows(n, 40, dtype, seed=7)
    faults = [-1, -128] if np.issubdtype(dtype, np.signedinteger) else []
    if np.iinfo(dtype).max > 2**40:
        faults += [256, 2**40 + 3]
    for row in (0, 16383, n - 1):
        for fault in faults:
            bad = hands.copy()
            bad[row, 3] = fault
            bad[n - 1 if row < n - 1 else 0, 0] = 41  # a later off-deck id the kernels would name
            want = min(row, n - 1 if row < n - 1 else 0)
            with pytest.raises(CardError, match=f"row {want}: card ids must be in 0..39"):
                evaluate_batch(bad)
