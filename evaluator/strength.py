"""Exact hand strength: the share of the two-card holdings a hand beats on a board (ties half).

A player's *strength* on a board is the share of the two-card holdings it cannot
see (those sharing no card with its own hand or the board) that its hand beats,
ties counting half. :func:`board_strengths` scores every holding once per board
and then rates every player, so rating several players costs little more than
one. Kernels call it with scratch arrays from :func:`strength_scratch`;
:func:`strength` is the Python entry point (tests, spot checks).
"""

from __future__ import annotations

import numpy as np

from ._kernels import score_acc
from .cards import parse_cards
from .jit import kernel
from .spec import GameSpec, get_game
from .tables import FLUSH_INIT, get_tables

_INIT = np.uint64(FLUSH_INIT)


@kernel
def board_strengths(nb, board, holes, n, eval_tables, n_cards, pair_score, flat, nonb, hand, out):
    """Strength of each player's holding on the first ``nb`` board cards, into ``out[:n]``.

    Every two-card holding from the cards off the board is scored once; a
    player's strength counts the holdings, among those that share no card with
    its own, that its hand beats (ties half).
    """
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
                    get_tables(spec).kernel_args, spec.n_cards, *strength_scratch(spec.n_cards), out)
    return float(out[0])
