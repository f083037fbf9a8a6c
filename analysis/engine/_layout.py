"""The betting kernel's arrays: compact seat columns, round state, legal menu, log and summary.

Shared by :mod:`._kernel` (the hand), :mod:`._decide` (policy decisions) and :mod:`._batch`.
"""

from __future__ import annotations

import numpy as np

from analysis.core.features import MAX_SLOTS, N_FEAT
from analysis.dilemma.settlement.layout import N_OUT, N_PCOLS, N_TCOLS
from evaluator.jit import kernel

MAX_SEATS = 10
HOLE_CARDS = 2
STREET_CARDS = (0, 3, 1, 1)
BOARD_CARDS = 5
"""The deal the kernel plays: ``HOLE_CARDS`` a seat (columns ``H_HOLE0``, ``H_HOLE1``), then
the board's cards by betting round; a hand deals ``HOLE_CARDS * n + BOARD_CARDS`` cards, holes
by seat first. :func:`analysis.engine.table.engine_game` checks a game's spec against it."""
# compact seat columns (hs[i, H_*])
(H_STACK, H_BET, H_IN, H_FOLD, H_ACTED, H_CHECKED, H_POL, H_HOLE0, H_HOLE1, H_SEAT, H_SCORE,
 H_FREEFOLD, H_RAISES) = range(13)
N_HCOLS = 13
# round state (rs[RS_*])
(RS_CUR, RS_INC, RS_RAISES, RS_STREET, RS_BB, RS_DEALER, RS_N, RS_LAST_AGG, RS_NB, RS_FIRST,
 RS_SB_SEAT, RS_BB_SEAT, RS_FULL_TO, RS_SHORT_SUM, RS_SHORT_STACK) = range(15)
N_RCOLS = 15
# legal menu (menu[MN_*]); MN_MIN_TO = -1 when no bet or raise is allowed
MN_FOLD, MN_CHECK, MN_CALL, MN_MIN_TO, MN_MAX_TO, MN_ALLIN_TO, MN_BET, MN_PLAYER = range(8)
N_MENU = 8
# action log rows (log[k, L_*]) and kinds; the legal menu follows (log[k, L_MENU + MN_*])
L_STREET, L_SEAT, L_KIND, L_TO, L_MENU = range(5)
N_LCOLS = L_MENU + N_MENU
# logged kinds (log[k, L_KIND]): the codes FOLD .. RAISE of analysis.core.actions
# hand summary (hand_out[X_*])
(X_LAST, X_SHOWDOWN, X_FLAGS, X_PENALTY, X_BONUS, X_FREE_FOLDS, X_POT, X_N_ACTIONS, X_BANK1,
 X_BANK2, X_BANK3, X_LEVEL) = range(12)
N_XCOLS = 12
MAX_LOG = 400
# compiled policies (policy.compile_policies packs them): per policy pol_int[p, PI_*] its first
# rule, rule count, fold-for-free mode and whether it reads strength; pol_float[p, PF_*] the
# fold-for-free strength threshold
PI_FIRST, PI_COUNT, PI_FF_MODE, PI_USES_STRENGTH = range(4)
N_PI = 4
(PF_FF_BELOW,) = range(1)
N_PF = 1
# the card data every hand reads (cardsdata[CD_*], packed by simulate.kernel_inputs): the
# evaluator's tables, the deck's rows, the preflop strengths, the number of cards, whether the
# game settles by Dilemma Hold'em's rules, and the settlement's rule options
CD_EVAL, CD_DECK, CD_PREFLOP, CD_N_CARDS, CD_DILEMMA, CD_RULES = range(6)


def dilemma_arg(cardsdata: tuple) -> bool | None:
    """The hand batches' ``dilemma`` argument: True when the cards data settle by Dilemma Hold'em's
    rules, None for Texas Hold'em, whose hand batches then compile no Dilemma settlement (whole
    games pass a bool instead: one kernel for both games, as the guide and the tests run both)."""
    return True if cardsdata[CD_DILEMMA] else None


# slots of the scratch tuple (scratch[W_*], W for work arrays), in new_scratch_arrays order
(W_SEATS, W_ROUND, W_MENU, W_FEAT, W_STRENGTH, W_PLAYERS, W_BOARD, W_TABLE, W_OUT, W_HAND7,
 W_PAIR_SCORE, W_FLAT, W_NONB, W_HAND, W_HOLES, W_CARDS, W_IDX, W_TMP, W_SLOTS, W_DECISION) = range(20)
"""``W_SEATS`` int64[MAX_SEATS, N_HCOLS] seat columns; ``W_ROUND`` int64[N_RCOLS] round state;
``W_MENU`` int64[N_MENU] legal menu; ``W_FEAT`` float64[N_FEAT] features of the actor;
``W_STRENGTH`` float64[MAX_SEATS] each seat's strength; ``W_PLAYERS``/``W_BOARD``/``W_TABLE``/
``W_OUT`` the settlement core's arrays (``settlement.layout``; ``W_BOARD[0]`` the board cards);
``W_HAND7`` uint8[7] a seven-card hand to score; ``W_PAIR_SCORE``/``W_FLAT``/``W_NONB``/``W_HAND``
:func:`evaluator.strength.board_strengths`'s scratch (pair scores int64[C, C], their flat
order int64[C*C], off-board cards int64[C], a hand uint8[7]); ``W_HOLES`` int64[MAX_SEATS, 2]
the live seats' holes, ``W_CARDS`` int64[C] 0..C-1 (unused by the kernels today), ``W_IDX``
int64[MAX_SEATS] their seats, ``W_TMP`` float64[MAX_SEATS] their strengths; ``W_SLOTS``
float64[MAX_SLOTS] a policy's slot values; ``W_DECISION`` int64[2] the decision taken."""


@kernel
def new_scratch_arrays(n_cards):
    """Per-thread scratch arrays of :func:`play_hand` (allocated once per thread or chunk), in
    the order of the ``W_*`` slots above."""
    return (np.zeros((MAX_SEATS, N_HCOLS), np.int64), np.zeros(N_RCOLS, np.int64),
            np.zeros(N_MENU, np.int64), np.zeros(N_FEAT), np.zeros(MAX_SEATS),
            np.zeros((MAX_SEATS, N_PCOLS), np.int64), np.zeros((2, 5), np.int64),
            np.zeros(N_TCOLS, np.int64), np.zeros(N_OUT, np.int64), np.zeros(7, np.uint8),
            np.zeros((n_cards, n_cards), np.int64), np.empty(n_cards * n_cards, np.int64),
            np.empty(n_cards, np.int64), np.empty(7, np.uint8), np.zeros((MAX_SEATS, 2), np.int64),
            np.arange(n_cards), np.zeros(MAX_SEATS, np.int64), np.zeros(MAX_SEATS),
            np.zeros(MAX_SLOTS), np.zeros(2, np.int64))


