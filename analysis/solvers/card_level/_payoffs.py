"""Numba kernel: the settlement of every terminal situation of a Dilemma spot, per pair of classes.

A *situation* is one way the hand can end, without the hole cards: a fold (the
board so far, the chips each player put in since the root, who folded) or a
showdown (the river board and the chips put in). A holding's *class* is what
its cards do in the settlement (its green cards; see :mod:`.dilemma_terminals`), so the
settlement of a situation depends on the two holdings only through their classes
and, at a showdown, through who wins. :func:`settle_situations` runs the lab's
settlement core (:func:`analysis.dilemma.settlement._kernel.settle_core`) once
per situation, pair of classes and outcome, and writes each player's payoff.

Payoffs are in chips, net of the chips behind at the root, less half the root
pot (the Texas Hold'em kernels' convention: a share of the pot above an even
split), so ``pot / 2 + value`` is the chips a player ends the hand with, less
what it had behind at the root.

Kernel inputs: ``spot`` = (ints, root, reps): the spot's ``SP_*`` ints, its board (int64 card
numbers) and a holding of each class (``reps[k]``: two hole cards); ``state`` = (players,
board, table): the settlement core's player rows, board (cards and streets) and table row
(:mod:`analysis.dilemma.settlement.layout`), filled per situation by :func:`_fill`.
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

# showdown table rows (per player, from that player's side): the tie payoff, then win and
# loss as differences from it (what the kernels' sweeps add)
SD_TIE, SD_WIN_MINUS_TIE, SD_LOSE_MINUS_TIE = 0, 1, 2
# the spot's ints (ints[SP_*])
SP_POT, SP_STACK, SP_BANK1, SP_BANK2, SP_BANK3, SP_LEVEL, SP_N_ROOT, SP_ROOT_STREET = range(8)
N_INTS = 8
IP_SEAT = 1
"""Heads-up the DEALER posts the small blind and acts last after the flop: the second player
(in position) is the DEALER's seat, so transfers run from the first player (RULES §1.2, §1.8)."""
STREET_OF_CARD = (1, 1, 1, 2, 3)
"""The settlement's street of the n-th board card (flop 1, turn 2, river 3)."""


@kernel
def _fill(state, spot, end, last, a, b):
    """The end state of a situation with classes ``a`` (first player) and ``b`` (second): ``end`` =
    (dealt0, dealt1, amount), its dealt cards (-1: none) and the chips each put in since the root,
    and ``last`` the street it ends on."""
    players, board, table = state
    ints, root, reps = spot
    dealt0, dealt1, amount = end
    half = ints[SP_POT] // 2
    for p in range(2):
        players[p, P_STACK] = ints[SP_STACK] - amount
        players[p, P_IN] = half + amount
        players[p, P_FOLD] = -1
        players[p, P_SCORE] = 0
    players[0, P_HOLE0] = reps[a, 0]
    players[0, P_HOLE1] = reps[a, 1]
    players[1, P_HOLE0] = reps[b, 0]
    players[1, P_HOLE1] = reps[b, 1]
    nb = ints[SP_N_ROOT]
    for i in range(nb):
        board[0, i] = root[i]
        board[1, i] = STREET_OF_CARD[i]
    for c in (dealt0, dealt1):
        if c >= 0:
            board[0, nb] = c
            board[1, nb] = STREET_OF_CARD[nb]
            nb += 1
    table[T_BANK1] = ints[SP_BANK1]
    table[T_BANK2] = ints[SP_BANK2]
    table[T_BANK3] = ints[SP_BANK3]
    table[T_LEVEL] = ints[SP_LEVEL]
    table[T_LAST] = last
    table[T_DEALER] = IP_SEAT
    table[T_NBOARD] = nb


@kernel
def settle_situations(spot, situations, deck, rules, tabs):
    """Fill ``fold_tab[f, p, own class, other class]`` and ``sd_tab[s, p, SD_*, own, other]``
    (``tabs`` = (fold_tab, sd_tab)).

    ``situations`` = (folds, showdowns): ``folds`` rows (first dealt card, second dealt card,
    chips put in since the root, folder); ``showdowns`` rows (first dealt card, second dealt
    card, chips put in); -1 for a card not dealt. ``deck``, ``rules``: the settlement core's.
    """
    ints, _, reps = spot
    folds, showdowns = situations
    fold_tab, sd_tab = tabs
    players = np.zeros((2, N_PCOLS), np.int64)
    board = np.zeros((2, 5), np.int64)
    table = np.zeros(N_TCOLS, np.int64)
    out = np.zeros(N_OUT, np.int64)
    state = (players, board, table)
    n_classes = reps.shape[0]
    base = ints[SP_STACK] + ints[SP_POT] // 2
    pays = np.zeros((3, 2))  # first player wins, ties, loses
    for f in range(folds.shape[0]):
        d0, d1, amount, folder = folds[f, 0], folds[f, 1], folds[f, 2], folds[f, 3]
        street = ints[SP_ROOT_STREET] + (1 if d0 >= 0 else 0) + (1 if d1 >= 0 else 0)
        for a in range(n_classes):
            for b in range(n_classes):
                _fill(state, spot, (d0, d1, amount), street, a, b)
                players[folder, P_FOLD] = street
                players[folder, P_SCORE] = -1
                settle_core(players, 2, board, table, deck, rules, out)
                fold_tab[f, 0, a, b] = players[0, P_FINAL] - base
                fold_tab[f, 1, b, a] = players[1, P_FINAL] - base
    for s in range(showdowns.shape[0]):
        d0, d1, amount = showdowns[s, 0], showdowns[s, 1], showdowns[s, 2]
        for a in range(n_classes):
            for b in range(n_classes):
                for o in range(3):
                    _fill(state, spot, (d0, d1, amount), 3, a, b)
                    players[0, P_SCORE] = 1 if o == 0 else 0
                    players[1, P_SCORE] = 1 if o == 2 else 0
                    settle_core(players, 2, board, table, deck, rules, out)
                    pays[o, 0] = players[0, P_FINAL] - base
                    pays[o, 1] = players[1, P_FINAL] - base
                sd_tab[s, 0, SD_TIE, a, b] = pays[1, 0]
                sd_tab[s, 0, SD_WIN_MINUS_TIE, a, b] = pays[0, 0] - pays[1, 0]
                sd_tab[s, 0, SD_LOSE_MINUS_TIE, a, b] = pays[2, 0] - pays[1, 0]
                sd_tab[s, 1, SD_TIE, b, a] = pays[1, 1]
                sd_tab[s, 1, SD_WIN_MINUS_TIE, b, a] = pays[2, 1] - pays[1, 1]
                sd_tab[s, 1, SD_LOSE_MINUS_TIE, b, a] = pays[0, 1] - pays[1, 1]
