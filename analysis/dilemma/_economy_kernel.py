"""The board-economics enumeration kernel: every board of a street, tallied exactly.

Each board arrangement (cards with the street each was dealt on) goes through the
shared board scan (:func:`analysis.dilemma._board.scan_board`), so the economy
and the settlement read one statement of the board rule.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
from numba import prange

from analysis.core.combinations import next_combination
from evaluator.jit import kernel

from ._board import (
    B_BONUS_MULT,
    B_CRASH,
    B_LEVY,
    B_MINUS,
    B_N_BLUE,
    B_N_RED,
    B_PENALTY_MULT,
    B_PLUS,
    B_REBATE,
    B_SUBSIDY,
    B_WINDFALL,
    N_BOARD,
    card_acts,
    scan_board,
)

# misc counters per board arrangement (BA_) (int64[N_MISC]); MISC_NAMES name them in the tables
BA_ANY_BLUE, BA_ANY_RED, BA_N_BLUE, BA_N_RED, BA_ANY_EFFECT, BA_REBATE, BA_BONUS_MULT, BA_PENALTY_MULT = (
    range(8)
)
N_MISC = 8
MISC_NAMES = (
    "p_blue_active",
    "p_red_active",
    "mean_blue_active",
    "mean_red_active",
    "p_any_effect_active",
    "p_rebate",
    "p_bonus_multiplied",
    "p_penalty_multiplied",
)


@kernel(inline=True)
def _tally(board, deck, bins, outs, summary):
    """Add one board arrangement to the histograms and counters of its first card.

    ``board`` = ``(cards, streets, nb)``: int64[5] the cards, int64[5] the street each came on,
    how many; ``deck``: ``Deck.kernel_args``; ``bins`` = ``(m_max, offsets)``: the most losers
    tallied and each quantity's bin 0 in $10 units; ``outs`` = ``(hist, act, onb, misc)`` of the
    first card (see :func:`enumerate_boards`); ``summary``: int64[N_BOARD] scratch (``B_*``).
    """
    cards, streets, nb = board
    m_max, offsets = bins
    hist, act, onb, misc = outs
    scan_board(cards, streets, nb, deck, summary, 0)
    for j in range(nb):
        c = cards[j]
        onb[c] += 1
        if card_acts(deck, c, streets[j]):
            act[c] += 1
    bmult = summary[B_BONUS_MULT]
    pmult = summary[B_PENALTY_MULT]
    bonus = summary[B_PLUS] * bmult + summary[B_WINDFALL]
    penalty = summary[B_MINUS] * pmult
    levy = summary[B_LEVY]
    crash = summary[B_CRASH]
    subsidy = summary[B_SUBSIDY]
    rebate = summary[B_REBATE] != 0
    nblue = summary[B_N_BLUE]
    nred = summary[B_N_RED]
    hist[0, bonus // 10 - offsets[0]] += 1
    hist[1, penalty // 10 - offsets[1]] += 1
    for m in range(1, m_max + 1):
        share = penalty // m // 10 * 10
        net_w = bonus - levy - crash + (share * m if rebate else 0)
        net_l = subsidy - crash - share
        hist[1 + m, net_w // 10 - offsets[1 + m]] += 1
        hist[1 + m_max + m, net_l // 10 - offsets[1 + m_max + m]] += 1
    if nblue > 0:
        misc[BA_ANY_BLUE] += 1
    if nred > 0:
        misc[BA_ANY_RED] += 1
    misc[BA_N_BLUE] += nblue
    misc[BA_N_RED] += nred
    if nblue + nred > 0:
        misc[BA_ANY_EFFECT] += 1
    if rebate:
        misc[BA_REBATE] += 1
    if bmult != 1:
        misc[BA_BONUS_MULT] += 1
    if pmult != 1:
        misc[BA_PENALTY_MULT] += 1


BOARD_CARDS = (0, 3, 4, 5)
"""Board cards on the table at each street (1 flop, 2 turn, 3 river)."""


def street_patterns(street: int) -> np.ndarray:
    """int64 (patterns, 5): the street each board card came on (0 past the board's cards), for
    every way a board of ``street`` (1 flop, 2 turn, 3 river) can have been dealt: the flop's three
    cards on street 1, then one card (turn) or two (river) on street 2, in any of the board's positions."""
    size = BOARD_CARDS[street]
    rows = [[2 if j in late else 1 for j in range(size)] + [0] * (5 - size)
            for late in combinations(range(size), size - 3)]
    return np.array(rows, np.int64)


@kernel(parallel=True)
def enumerate_boards(n_cards, patterns, deck, bins, outs):
    """Tally every board dealt in each of ``patterns`` (:func:`street_patterns`: its nonzero
    entries are the board's cards); rows of the outputs are the board's lowest card (summed by the
    caller), so threads never share a counter.

    ``deck``: ``Deck.kernel_args``; ``bins`` = ``(m_max, offsets)``: the most losers tallied and
    int64[2 + 2 * m_max] each quantity's bin 0 ($10 units); ``outs`` = ``(hist, act, onb,
    misc)``: int64[n_cards, 2 + 2 * m_max, bins] histograms (bonus, penalty, net winner and
    loser per number of losers), int64[n_cards, n_cards] cards acting and on the board,
    int64[n_cards, N_MISC] counters (``BA_*``). One call site of the inlined :func:`_tally`
    (each site is compiled anew).
    """
    m_max, offsets = bins  # a prange body takes arrays and flat tuples: unpack before it
    hist, act, onb, misc = outs
    k = 0
    while k < 5 and patterns[0, k] > 0:
        k += 1
    for a in prange(n_cards):
        cards = np.empty(5, np.int64)
        streets = np.empty(5, np.int64)
        summary = np.empty(N_BOARD, np.int64)
        h = hist[a]
        ac = act[a]
        ob = onb[a]
        mi = misc[a]
        cards[0] = a
        for j in range(1, k):  # the first combination after ``a``
            cards[j] = a + j
        while cards[k - 1] < n_cards:
            for t in range(patterns.shape[0]):
                for j in range(k):
                    streets[j] = patterns[t, j]
                _tally((cards, streets, k), deck, (m_max, offsets), (h, ac, ob, mi), summary)
            if not next_combination(cards, 1, k, n_cards):
                break
