"""Exact hand strength: the share of the two-card holdings a hand beats on a board (ties half).

A player's *strength* on a board is the share of the two-card holdings it cannot
see (those sharing no card with its own hand or the board) that its hand beats,
ties counting half. :func:`board_strengths` scores every holding once per board
and then rates every player, so rating several players costs little more than
one. Kernels call it with scratch arrays from :func:`strength_scratch`;
:func:`strength` is the Python entry point (tests, spot checks).

**Tables.** For simulations over random boards, :func:`strength_table` holds the
strength of every holding on every board of a street as an exact integer
*numerator*: ``strength = num / (2 * total)`` with ``num = 2 * beaten + tied`` and
``total`` the holdings disjoint from a given one (:func:`pair_total`), so a table
look-up gives bit for bit the value :func:`board_strengths` computes. Rows are
boards in colex order of their sorted cards (:func:`board_rank`), columns the
holdings of the cards off the board, in colex order of their positions among
those cards (:func:`holding_rank`). The tables of a 40-card game (13 MB flop,
115 MB turn, 783 MB river, uint16) are built once in parallel, cached on disk in
the lab's cache folder and memory-mapped, so processes share them.
"""

from __future__ import annotations

import os
from functools import cache
from math import comb

import numpy as np
from numba import prange

from ._kernels import score_acc
from .cards import parse_cards
from .jit import kernel
from .spec import GameSpec, get_game
from .tables import FLUSH_INIT, cache_dir, fingerprint, get_tables

_INIT = np.uint64(FLUSH_INIT)


@kernel
def board_strengths(nb, board, holes, n, eval_tables, n_cards, scratch, out):
    """Strength of each player's holding on the first ``nb`` board cards, into ``out[:n]``.

    ``scratch = (pair_score, flat, nonb, hand)``: int64[n_cards, n_cards] (each holding's
    score), int64[n_cards * n_cards] (the scores in a row, for sorting), int64[n_cards] (the
    cards off the board) and uint8[7] (the hand being scored).

    Every two-card holding from the cards off the board is scored once; a
    player's strength counts the holdings, among those that share no card with
    its own, that its hand beats (ties half).
    """
    pair_score, flat, nonb, hand = scratch
    key = eval_tables[0]
    on_board = np.uint64(0)
    acc_board = _INIT
    for b in range(nb):
        on_board |= np.uint64(1) << np.uint64(board[b])
        acc_board += key[board[b]]
        hand[b] = board[b]
    cnt = 0
    for c in range(n_cards):
        if not (on_board >> np.uint64(c)) & np.uint64(1):
            nonb[cnt] = c
            cnt += 1
    n_pairs = 0
    for x in range(cnt):
        a = nonb[x]
        hand[nb] = a
        acc_a = acc_board + key[a]
        for y in range(x + 1, cnt):
            b = nonb[y]
            hand[nb + 1] = b
            s = score_acc(acc_a + key[b], hand, nb + 2, eval_tables)
            pair_score[a, b] = s
            pair_score[b, a] = s
            flat[n_pairs] = s
            n_pairs += 1
    total = n_pairs - (2 * cnt - 3)
    for i in range(n):
        a = holes[i, 0]
        b = holes[i, 1]
        sp = pair_score[a, b]
        less = 0
        eq = 0
        for p in range(n_pairs):
            v = flat[p]
            less += v < sp
            eq += v == sp
        for x in range(cnt):
            c = nonb[x]
            if c != a:
                v = pair_score[a, c]
                less -= v < sp
                eq -= v == sp
                if c != b:
                    v = pair_score[b, c]
                    less -= v < sp
                    eq -= v == sp
        out[i] = (less + 0.5 * eq) / total


def strength_scratch(n_cards: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The scratch arrays ``(pair_score, flat, nonb, hand)`` of :func:`board_strengths`."""
    return (np.zeros((n_cards, n_cards), np.int64), np.empty(n_cards * n_cards, np.int64),
            np.empty(n_cards, np.int64), np.empty(7, np.uint8))


def strength(hole: str | list[int], board: str | list[int], game: str | GameSpec = "dilemma") -> float:
    """The strength of ``hole`` on ``board`` (3-5 cards): the share of unseen holdings it beats."""
    spec = get_game(game)
    h = parse_cards(hole, spec) if isinstance(hole, str) else list(hole)
    b = parse_cards(board, spec) if isinstance(board, str) else list(board)
    holes = np.array([h], np.int64)
    out = np.zeros(1)
    board_strengths(len(b), np.array(b + [0] * (5 - len(b)), np.int64), holes, 1,
                    get_tables(spec).kernel_args, spec.n_cards, strength_scratch(spec.n_cards), out)
    return float(out[0])


def holding_strengths(holdings: np.ndarray, board: list[int], game: str | GameSpec = "dilemma") -> np.ndarray:
    """The strength of every holding (int rows of two card ids) on ``board`` (3-5 card ids), as
    :func:`strength`; NaN for a holding that shares a card with the board."""
    spec = get_game(game)
    holes = np.asarray(holdings, np.int64).reshape(-1, 2)
    on_board = np.isin(holes, board).any(axis=1)
    out = np.full(holes.shape[0], np.nan)
    free = np.ascontiguousarray(holes[~on_board])
    if free.shape[0]:
        got = np.zeros(free.shape[0])
        board_strengths(len(board), np.array(list(board) + [0] * (5 - len(board)), np.int64), free, free.shape[0],
                        get_tables(spec).kernel_args, spec.n_cards, strength_scratch(spec.n_cards), got)
        out[~on_board] = got
    return out


# -- tables ------------------------------------------------------------------------------

MAX_TABLE_BYTES = 1 << 30
"""Strength tables larger than this (52-card river: 5.6 GB) are not built; kernels compute
strengths on the fly instead."""


def pair_total(n_cards: int, nb: int) -> int:
    """Holdings disjoint from a given holding and the board: C(n_cards - nb - 2, 2)."""
    return comb(n_cards - nb - 2, 2)


@kernel(inline=True)
def board_rank(sorted_cards, nb):
    """Colex rank of a board given its cards in increasing order: sum of C(card_i, i + 1)."""
    r = 0
    for i in range(nb):
        c = sorted_cards[i]
        v = 1
        for k in range(i + 1):  # C(c, i + 1) = prod (c - k) / (k + 1)
            v = v * (c - k) // (k + 1)
        r += v if c >= i + 1 else 0
    return r


@kernel(inline=True)
def holding_rank(a, b, sorted_board, nb):
    """Colex rank of holding {a, b} among the pairs of cards off the board."""
    pa = a
    pb = b
    for i in range(nb):
        pa -= sorted_board[i] < a
        pb -= sorted_board[i] < b
    if pa > pb:
        pa, pb = pb, pa
    return pb * (pb - 1) // 2 + pa


@kernel
def strength_row(sorted_board, nb, n_cards, eval_tables, scratch, out):
    """Strength numerators of every holding on one board into ``out`` (colex holding order)."""
    scores, order, card_scores, hand = scratch
    key = eval_tables[0]
    acc_board = _INIT
    on_board = np.uint64(0)
    for i in range(nb):
        acc_board += key[sorted_board[i]]
        on_board |= np.uint64(1) << np.uint64(sorted_board[i])
        hand[i] = sorted_board[i]
    nonb = np.empty(n_cards, np.int64)
    cnt = 0
    for c in range(n_cards):
        if not (on_board >> np.uint64(c)) & np.uint64(1):
            nonb[cnt] = c
            cnt += 1
    n_pairs = cnt * (cnt - 1) // 2
    fill = np.zeros(cnt, np.int64)
    for j in range(1, cnt):
        b = nonb[j]
        hand[nb + 1] = b
        acc_b = acc_board + key[b]
        for i in range(j):
            a = nonb[i]
            hand[nb] = a
            s = score_acc(acc_b + key[a], hand, nb + 2, eval_tables)
            p = j * (j - 1) // 2 + i
            scores[p] = s
            card_scores[i, fill[i]] = s
            fill[i] += 1
            card_scores[j, fill[j]] = s
            fill[j] += 1
    for i in range(cnt):
        card_scores[i, : cnt - 1].sort()
    # pairs in score order: sort (score, pair) packed in one int64 (scores are int32, pairs
    # < 2**16), with the sort already compiled above; no argsort, no slice assignment, which
    # each cost a cold compile 1.5-3 s (a second sort and numba's shape-mismatch message)
    for p in range(n_pairs):
        order[p] = (scores[p] << 16) | p
    order[:n_pairs].sort()
    for p in range(n_pairs):
        order[p] &= 0xFFFF
    g = 0
    while g < n_pairs:  # groups of equal scores in sorted order
        h = g
        v = scores[order[g]]
        while h < n_pairs and scores[order[h]] == v:
            h += 1
        for t in range(g, h):
            p = order[t]
            j = int((np.sqrt(8.0 * p + 1.0) + 1.0) / 2.0)
            while j * (j - 1) // 2 > p:
                j -= 1
            while (j + 1) * j // 2 <= p:
                j += 1
            i = p - j * (j - 1) // 2
            below_i = np.searchsorted(card_scores[i, : cnt - 1], v, side="left")
            upto_i = np.searchsorted(card_scores[i, : cnt - 1], v, side="right")
            below_j = np.searchsorted(card_scores[j, : cnt - 1], v, side="left")
            upto_j = np.searchsorted(card_scores[j, : cnt - 1], v, side="right")
            below = g - below_i - below_j
            equal = (h - g) - (upto_i - below_i) - (upto_j - below_j) + 1
            out[p] = 2 * below + equal
        g = h


@kernel
def unrank_board(r, nb, out):
    """The cards of the board of colex rank ``r`` into ``out[:nb]`` (increasing)."""
    for i in range(nb - 1, -1, -1):
        c = i
        while True:  # the largest c with C(c, i + 1) <= r
            v = 1
            for k in range(i + 1):
                v = v * (c + 1 - k) // (k + 1)
            if v > r:
                break
            c += 1
        out[i] = c
        v = 1
        for k in range(i + 1):
            v = v * (c - k) // (k + 1)
        r -= v if c >= i + 1 else 0


@kernel(parallel=True)
def _fill_table(nb, n_cards, eval_tables, table):
    """Every board of ``nb`` cards (rows in colex order), in parallel blocks of boards."""
    n_boards = table.shape[0]
    n_blocks = 256
    for blk in prange(n_blocks):
        lo = n_boards * blk // n_blocks
        hi = n_boards * (blk + 1) // n_blocks
        scratch = row_scratch_kernel(n_cards)
        board = np.empty(5, np.int64)
        row = np.empty(table.shape[1], np.int64)
        for r in range(lo, hi):
            unrank_board(r, nb, board)
            strength_row(board, nb, n_cards, eval_tables, scratch, row)
            for p in range(table.shape[1]):
                table[r, p] = row[p]


@kernel
def row_scratch_kernel(n_cards):
    """:func:`row_scratch`, callable from kernels."""
    n_pairs = n_cards * (n_cards - 1) // 2
    return (np.empty(n_pairs, np.int64), np.empty(n_pairs, np.int64),
            np.empty((n_cards, n_cards), np.int64), np.empty(7, np.uint8))


def table_shape(game: str | GameSpec, nb: int) -> tuple[int, int]:
    """(boards, holdings) of the strength table of ``nb`` board cards."""
    n = get_game(game).n_cards
    return comb(n, nb), comb(n - nb, 2)


def table_fits(game: str | GameSpec, nb: int) -> bool:
    """Whether the table of ``nb`` board cards is small enough to build (see MAX_TABLE_BYTES)."""
    boards, pairs = table_shape(game, nb)
    return boards * pairs * 2 <= MAX_TABLE_BYTES


@cache
def strength_table(game: str | GameSpec, nb: int) -> np.ndarray:
    """The uint16 numerator table of ``nb`` (3, 4 or 5) board cards, memory-mapped from the disk
    cache (built and cached on first use)."""
    spec = get_game(game)
    boards, pairs = table_shape(spec, nb)
    path = cache_dir() / f"strength-{spec.name}-{nb}-{fingerprint(spec)}.npy"
    try:
        table = np.load(path, mmap_mode="r")
        if table.shape == (boards, pairs) and table.dtype == np.uint16:
            return table
    except (OSError, ValueError):
        pass
    table = np.zeros((boards, pairs), np.uint16)
    _fill_table(nb, spec.n_cards, get_tables(spec).kernel_args, table)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp.npy")
        np.save(tmp, table)
        os.replace(tmp, path)
        return np.load(path, mmap_mode="r")
    except OSError:
        return table  # a read-only cache still works; the table lives in this process only
