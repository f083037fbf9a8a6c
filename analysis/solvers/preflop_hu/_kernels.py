"""Numba kernels of the pre-flop solver: the settlement of a pre-flop end per pair of classes, and
the check-down continuation summed over sampled boards for every pair of holdings.

A holding's *class* is what its cards do in the settlement (its green cards, as in the
card-level solver: :func:`analysis.solvers.card_level.dilemma_terminals.holding_classes`).
"""

from __future__ import annotations

import numpy as np
from numba import prange

from analysis.dilemma.kernels import settle_core
from analysis.dilemma.settlement.layout import (
    N_OUT,
    N_PCOLS,
    N_TCOLS,
    P_FINAL,
    P_FOLD,
    P_HOLE0,
    P_HOLE1,
    P_IN,
    P_SCORE,
    P_STACK,
    T_BANK1,
    T_BANK2,
    T_BANK3,
    T_DEALER,
    T_LAST,
    T_LEVEL,
    T_NBOARD,
)
from evaluator.jit import kernel

# setting[PS_*]: the chips each player had before the hand, the bank's stacks and the blind level
PS_CHIPS, PS_BANK1, PS_BANK2, PS_BANK3, PS_LEVEL = range(5)
N_SETTING = 5
DEALER_SEAT = 1
"""Heads-up the small blind is the DEALER (player 1 of the pre-flop tree)."""
WIN, TIE, LOSE = 0, 1, 2
"""Outcomes of a showdown, from player 0's side."""


@kernel
def settle_end(end, board, reps, setting, deck, rules, out):
    """``out[p, o, a, b]``: player ``p``'s chips after the hand less its chips before, when player 0
    holds class ``a`` and player 1 class ``b``.

    ``end`` = int64[3]: chips each player put in, and the folder (-1: a showdown on ``board``,
    ``o`` then says who wins from player 0's side; a fold ends the hand before the flop and
    every ``o`` holds the same). ``board``: int64[5] (showdown) or int64[0]; ``reps[k]``: two
    hole cards of a holding of class ``k`` (-1: none); ``setting``: int64[N_SETTING].
    """
    players = np.zeros((2, N_PCOLS), np.int64)
    bd = np.zeros((2, 5), np.int64)
    table = np.zeros(N_TCOLS, np.int64)
    so = np.zeros(N_OUT, np.int64)
    nb = board.shape[0]
    folder = end[2]
    k = reps.shape[0]
    for a in range(k):
        for b in range(k):
            for o in range(3):
                for i in range(nb):
                    bd[0, i] = board[i]
                    bd[1, i] = 1 if i < 3 else i - 1  # flop 1, turn 2, river 3
                table[T_BANK1] = setting[PS_BANK1]
                table[T_BANK2] = setting[PS_BANK2]
                table[T_BANK3] = setting[PS_BANK3]
                table[T_LEVEL] = setting[PS_LEVEL]
                table[T_LAST] = 3 if folder < 0 else 0
                table[T_DEALER] = DEALER_SEAT
                table[T_NBOARD] = nb
                for p in range(2):
                    players[p, :] = 0
                    players[p, P_STACK] = setting[PS_CHIPS] - end[p]
                    players[p, P_IN] = end[p]
                    players[p, P_FOLD] = -1
                players[0, P_HOLE0], players[0, P_HOLE1] = reps[a, 0], reps[a, 1]
                players[1, P_HOLE0], players[1, P_HOLE1] = reps[b, 0], reps[b, 1]
                if folder >= 0:
                    players[folder, P_FOLD] = 0
                    players[folder, P_SCORE] = -1
                else:
                    players[0, P_SCORE] = 1 if o == WIN else 0
                    players[1, P_SCORE] = 1 if o == LOSE else 0
                settle_core(players, 2, bd, table, deck, rules, so)
                for p in range(2):
                    out[p, o, a, b] = players[p, P_FINAL] - setting[PS_CHIPS]


@kernel(parallel=True)
def checkdown_sums(hands, deal, out):
    """Sum each pair of disjoint holdings' check-down payoffs over the boards that miss both.

    ``hands`` = (cards int64[H, 2], cls int64[H]); ``deal`` = (scores int32[B, H]: each holding's
    showdown score on each board, -1 where they share a card; tab float64[B, K, K, 3, 2L]:
    ``tab[b, a, c, o, 2 l + p]`` player ``p``'s payoff at level ``l`` on board ``b``, player 0 of
    class ``a`` and player 1 of class ``c``, outcome ``o``; :func:`settle_end` rearranged so one
    read is contiguous). ``out`` = (sums float64[2L, H, H]: ``sums[2 l + p, i, j]`` player
    ``p``'s payoff summed when player 0 holds ``i`` and player 1 ``j``; counts int64[H, H]: the
    boards summed). Rows are taken in pairs (``k``, ``H-1-k``) so the two threads share the
    triangle evenly; every pair is summed by one thread in board order, so the sums do not
    depend on the thread count.
    """
    cards, cls = hands
    scores, tab = deal
    sums, counts = out
    n = cards.shape[0]
    w = tab.shape[4]
    nbd = scores.shape[0]
    acc = np.zeros((n, 2 * w))
    for t in prange((n + 1) // 2):
        k = np.int64(t)  # a signed index: prange's may be unsigned
        for side in range(2):
            i = k if side == 0 else n - 1 - k
            if side == 1 and i == k:
                continue
            a0, a1 = cards[i, 0], cards[i, 1]
            ci = cls[i]
            row = acc[i]
            for j in range(i + 1, n):
                b0, b1 = cards[j, 0], cards[j, 1]
                if a0 == b0 or a0 == b1 or a1 == b0 or a1 == b1:  # noqa: SIM109 (numba)
                    continue
                cj = cls[j]
                row[:] = 0.0
                m = 0
                for b in range(nbd):
                    si = scores[b, i]
                    sj = scores[b, j]
                    if si < 0 or sj < 0:
                        continue
                    m += 1
                    o = WIN if si > sj else (TIE if si == sj else LOSE)
                    here = tab[b, ci, cj, o]
                    swapped = tab[b, cj, ci, 2 - o]  # the same deal with the seats swapped
                    for q in range(w):
                        row[q] += here[q]
                        row[w + q] += swapped[q]
                counts[i, j] = m
                counts[j, i] = m
                for q in range(w):
                    sums[q, i, j] = row[q]
                    sums[q, j, i] = row[w + q]


@kernel
def payoff_rows(m, x, out):
    """``out[i] = sum_j m[i, j] * x[j]`` (float32 matrix and vector, float64 sums), serial. A 780 x 780
    product is too small for threads: numpy's threaded BLAS, or a ``prange``, cost ten times the CPU
    of one thread on a busy 2-core machine (threads spinning for the next task)."""
    n, k = m.shape
    for i in range(n):
        s = 0.0
        row = m[i]
        for j in range(k):
            s += row[j] * x[j]
        out[i] = s
