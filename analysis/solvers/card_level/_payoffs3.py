"""Numba kernel: the settlement of every terminal situation of a three-handed river spot.

A *situation* is one way the hand ends, without the hole cards: who is still in
(a bit mask), the chips each player put in since the root, who folded on the turn
and the street the hand ends on (a turn spot's fold ends on the turn are settled on
the four-card board, everything else on the river's five cards). Who wins is a non-empty
*winner set* of the players still in (at a fold end, the one player left); with
equal stacks there is a single pot, so the winner set is all the settlement needs
of the hands' strengths. :func:`settle_situations3` runs the lab's settlement core
(:func:`analysis.dilemma.settlement._kernel.settle_core`) once per situation,
winner set and triple of holding classes (:mod:`.dilemma_terminals`), and writes each
player's payoff: the chips it ends the hand with, less its stack at the root and a
third of the root pot.
"""

from __future__ import annotations

import numpy as np

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

from ._payoffs import SP_BANK1, SP_BANK2, SP_BANK3, SP_LEVEL, SP_POT, SP_STACK

TURN, RIVER = 2, 3
"""The settlement's streets of the turn and river betting rounds."""
DEALER_SEAT = 2
"""Player 2 holds the DEALER's seat; transfers run from player 0 (RULES §1.8)."""
# situation columns (tree3.SIT_*)
_LIVE, _PUT, _TURN_FOLDS, _STREET = 0, 1, 4, 5


@kernel
def settle_situations3(ints, board, nboard, reps, situations, deck, rules, tab):
    """Fill ``tab[s, p, winners, c0, c1, c2]``: player ``p``'s payoff in situation ``s`` (rows
    of ``situations``, :data:`.tree3.N_SIT` columns: live mask, chips put in by players 0, 1, 2,
    the turn folders, the spot's street the hand ends on) when the players of the bit mask
    ``winners`` win and the players hold classes ``c0, c1, c2`` (``reps[k]``: two hole cards
    of a holding of class ``k``), on the first ``nboard`` cards of ``board``: 5 settles the
    situations that end on the river, 4 those that end by a fold on the turn. Entries for other
    situations and for winner sets that cannot happen stay 0."""
    n = 3
    players = np.zeros((n, N_PCOLS), np.int64)
    brd = np.zeros((2, 5), np.int64)
    table = np.zeros(N_TCOLS, np.int64)
    out = np.zeros(N_OUT, np.int64)
    k = reps.shape[0]
    third = ints[SP_POT] // n
    base = ints[SP_STACK] + third
    for i in range(nboard):
        brd[0, i] = board[i]
        brd[1, i] = 1 if i < 3 else i - 1
    ends = 2 if nboard == 5 else 1
    last = RIVER if nboard == 5 else TURN
    for s in range(situations.shape[0]):
        if situations[s, _STREET] != ends:
            continue
        live = situations[s, _LIVE]
        turn_folds = situations[s, _TURN_FOLDS]
        for w in range(1, 8):
            if w & live != w or (live & (live - 1) == 0 and w != live):
                continue
            for c0 in range(k):
                for c1 in range(k):
                    for c2 in range(k):
                        for p in range(n):
                            put = situations[s, _PUT + p]
                            players[p, P_STACK] = ints[SP_STACK] - put
                            players[p, P_IN] = third + put
                            folded = (live >> p) & 1 == 0
                            players[p, P_FOLD] = (TURN if (turn_folds >> p) & 1 else RIVER) if folded else -1
                            players[p, P_SCORE] = -1 if folded else ((w >> p) & 1)
                        players[0, P_HOLE0] = reps[c0, 0]
                        players[0, P_HOLE1] = reps[c0, 1]
                        players[1, P_HOLE0] = reps[c1, 0]
                        players[1, P_HOLE1] = reps[c1, 1]
                        players[2, P_HOLE0] = reps[c2, 0]
                        players[2, P_HOLE1] = reps[c2, 1]
                        table[T_BANK1] = ints[SP_BANK1]
                        table[T_BANK2] = ints[SP_BANK2]
                        table[T_BANK3] = ints[SP_BANK3]
                        table[T_LEVEL] = ints[SP_LEVEL]
                        table[T_LAST] = last
                        table[T_DEALER] = DEALER_SEAT
                        table[T_NBOARD] = nboard
                        settle_core(players, n, brd, table, deck, rules, out)
                        for p in range(n):
                            tab[s, p, w, c0, c1, c2] = players[p, P_FINAL] - base
