"""The settlement core's arrays: named columns and the packer that fills them.

One finished hand is four int64 arrays (all money in dollars):

``players[i]`` (seat ``i``, seats in clockwise order):

======== ===== ==============================================================
column   dir   meaning
======== ===== ==============================================================
P_STACK  in    chips behind after the betting (not changed)
P_IN     in    chips put in the pot this hand
P_FOLD   in    street the player folded on (0 preflop .. 3 river), -1 if not
P_SCORE  in    hand score (higher is better); -1 if not shown (conceded)
P_HOLE0  in    first hole card id, -1 if unknown
P_HOLE1  in    second hole card id, -1 if unknown
P_FINAL  out   stack after the settlement
P_ROLE   out   ROLE_* bits (participant, winner, loser, bankrupt, ...)
P_POT    out   chips taken from the pots (own uncalled chips included)
P_EFFECT out   net chips from effects (dividend, levy, subsidy, crash, rebate received)
P_PENALTY out  penalty share actually paid (>= 0)
P_BONUS  out   bonus actually received (>= 0)
======== ===== ==============================================================

The last four break the result down: ``P_FINAL - P_STACK == P_POT + P_EFFECT
- P_PENALTY + P_BONUS`` for every seat.

``board``: int64[2, 5], row 0 the card ids, row 1 the street each was dealt on.

``table``: ``T_BANK1..T_BANK3`` the bank's three stacks, ``T_LEVEL`` blind level
(0: 10/20, 1: 20/40, 2: 30/60), ``T_LAST`` the last betting round of the hand
(0..3), ``T_DEALER`` the DEALER seat (per-player transfers run clockwise from
the seat after it), ``T_NBOARD`` the number of board cards (0..5).

``out``: final bank ``SO_BANK1..3``, ``SO_LEVEL``, ``SO_FLAGS`` (``F_*`` bits, also
returned), tallies (pot remainders to the bank, penalty due and paid, bonus due
and paid, effect money into and out of the bank, the active effect opcodes as a
bit mask, the numbers of winners and losers) and, from ``SO_BOARD``, the board
summary of :mod:`analysis.dilemma._board` (``B_*`` entries).

The deck (``D_*`` rows) is packed by :attr:`analysis.dilemma.decks.Deck.kernel_args`
and the rule options (``R_*``) by :attr:`analysis.dilemma.settlement.rules.Rules.kernel_args`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from .._board import N_BOARD

if TYPE_CHECKING:
    from .state import HandState

# players columns
P_STACK, P_IN, P_FOLD, P_SCORE, P_HOLE0, P_HOLE1, P_FINAL, P_ROLE, P_POT = range(9)
P_EFFECT, P_PENALTY, P_BONUS = 9, 10, 11
N_PCOLS = 12

# role bits (P_ROLE)
ROLE_PARTICIPANT = 1  # took part in the last betting round
ROLE_WINNER = 2  # winner for bonus and penalty purposes (main pot; rule option: any pot)
ROLE_LOSER = 4  # pays the penalty share (river exception applied)
ROLE_BANKRUPT = 8  # no chips after step 4
ROLE_INSURED = 16  # an active insurance card in hand
ROLE_POT = 32  # took chips from a contested pot (or the main pot)
ROLE_LIVE = 64  # did not fold

# table entries (inputs)
T_BANK1, T_BANK2, T_BANK3, T_LEVEL, T_LAST, T_DEALER, T_NBOARD = range(7)
N_TCOLS = 7

# out entries (SO_: a settled hand's outcome)
(
    SO_BANK1,
    SO_BANK2,
    SO_BANK3,
    SO_LEVEL,
    SO_FLAGS,
    SO_POT_REMAINDER,
    SO_PENALTY,
    SO_PENALTY_PAID,
    SO_BONUS,
    SO_BONUS_PAID,
    SO_EFFECT_IN,
    SO_EFFECT_OUT,
    SO_ACTIVE_OPS,
    SO_N_WINNERS,
    SO_N_LOSERS,
) = range(15)
SO_BOARD = 15
"""The board summary (``analysis.dilemma._board.B_*``) starts here."""
N_OUT = SO_BOARD + N_BOARD

# flags (SO_FLAGS and the return value)
F_SHORT = 1  # the bank could not pay something in full
F_BANK_EMPTY = 2  # the bank is empty after the settlement
F_ONE_LEFT = 4  # at most one player has chips
F_GAME_OVER = 8  # the game ends after this settlement
F_SHOWDOWN = 16  # two or more players did not fold
F_RIVER_EXCEPTION = 32  # the showdown exception of §1.4 excused the last-round folders
F_BLINDS_UP = 64  # the blind level rose


def new_arrays(n_seats: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Zeroed ``(players, board, table, out)`` arrays for hands of up to ``n_seats`` seats."""
    return (np.zeros((n_seats, N_PCOLS), np.int64), np.zeros((2, 5), np.int64),
            np.zeros(N_TCOLS, np.int64), np.zeros(N_OUT, np.int64))


def pack_hand(state: HandState, scores: Sequence[int]) -> tuple[np.ndarray, int, np.ndarray, np.ndarray]:
    """The ``(players, n, board, table)`` arrays of one end state, with the given hand scores."""
    n = len(state.players)
    players, board, table, _ = new_arrays(n)
    for i, p in enumerate(state.players):
        players[i, P_STACK] = p.stack
        players[i, P_IN] = p.put_in
        players[i, P_FOLD] = -1 if p.folded is None else p.folded
        players[i, P_SCORE] = scores[i]
        players[i, P_HOLE0] = p.hole[0] if p.hole else -1
        players[i, P_HOLE1] = p.hole[1] if p.hole else -1
    board[0, : len(state.board)] = state.board
    board[1, : len(state.board)] = state.board_streets
    table[T_BANK1 : T_BANK3 + 1] = state.bank
    table[T_LEVEL] = state.blind_level
    table[T_LAST] = state.last_round
    table[T_DEALER] = state.dealer_seat
    table[T_NBOARD] = len(state.board)
    return players, n, board, table
