"""Numba drivers around :func:`._kernel.play_hand`: batches of single hands and whole games.

A hand's cards come from generator stream ``hand_id`` of the card key, its random
action choices from the same stream of the action key, so a hand is the same
wherever and on however many threads it runs. In a whole game, hand ``h`` of game
``g`` draws its cards from stream ``g * HANDS_PER_GAME + h`` whatever the seats'
strategies are: the duplicate tournament replays the same deals with rotated seats.
"""

from __future__ import annotations

import numpy as np

from analysis.core.rng import seed_state
from evaluator.jit import kernel

from ._kernel import deal_cards, play_hand
from ._layout import (
    BOARD_CARDS,
    H_HOLE0,
    H_HOLE1,
    H_POL,
    H_SEAT,
    H_STACK,
    HOLE_CARDS,
    MAX_SEATS,
    N_HCOLS,
    N_LCOLS,
    N_XCOLS,
    X_BANK1,
    X_BANK2,
    X_BANK3,
    X_BONUS,
    X_FLAGS,
    X_FREE_FOLDS,
    X_LAST,
    X_LEVEL,
    X_PENALTY,
    X_POT,
    X_SHOWDOWN,
    new_scratch_arrays,
)

HANDS_PER_GAME = 1 << 20
"""Card streams per game (the hand cap is far below it)."""
F_GAME_OVER = 8  # settlement flag (layout.F_GAME_OVER)

# table configuration (cfg[C_*])
C_N, C_STACK, C_DILEMMA, C_MAX_HANDS, C_BANK1, C_BANK2, C_BANK3 = range(7)
N_CFG = 7
# per-game records (rec[G_*]); stacks and bust hands per original seat follow
(G_GAME, G_CELL, G_N, G_HANDS, G_WINNER, G_REASON, G_TIER1, G_TIER2, G_TIER3, G_NBUST,
 G_STACK0) = range(11)
G_BUST0 = G_STACK0 + MAX_SEATS
N_GCOLS = G_BUST0 + MAX_SEATS
REASON_BANK, REASON_ONE_LEFT, REASON_CAP, REASON_HANDS = 1, 2, 3, 4
# per-stream statistics (stats[S_*])
(S_GAMES, S_HANDS, S_HANDS2, S_SHOWDOWN, S_END0, S_END1, S_END2, S_END3, S_FREE_FOLDS, S_POT,
 S_PENALTY, S_BONUS, S_CAPPED) = range(13)
N_GSTATS = 13
# trace of a sample game (trace[h, T_*]): stacks per seat, then bank and level
T_BANK = MAX_SEATS
N_TRACE = MAX_SEATS + 4


@kernel(nogil=True)
def play_hands_serial(key_cards, key_actions, first_id, count, n, stacks0, seat_pols, blinds,
                      bank0, level, structure, pols, cardsdata, stacks_out, hand_out, logs):
    """``count`` independent hands from the same table (the DEALER moves each hand)."""
    n_cards = cardsdata[3]
    scratch = new_scratch_arrays(n_cards)
    hs = np.zeros((MAX_SEATS, N_HCOLS), np.int64)
    cst = np.zeros(4, np.uint64)
    ast = np.zeros(4, np.uint64)
    cards = np.zeros(HOLE_CARDS * MAX_SEATS + BOARD_CARDS, np.int64)
    avail = np.arange(n_cards, dtype=np.int64)
    empty_log = np.zeros((0, N_LCOLS), np.int64)
    for h in range(count):
        hid = first_id + h
        seed_state(cst, key_cards, hid)
        seed_state(ast, key_actions, hid)
        deal_cards(cst, avail, n_cards, HOLE_CARDS * n + BOARD_CARDS, cards)
        for i in range(n):
            hs[i, H_STACK] = stacks0[i]
            hs[i, H_POL] = seat_pols[i]
            hs[i, H_HOLE0] = cards[HOLE_CARDS * i]
            hs[i, H_HOLE1] = cards[HOLE_CARDS * i + 1]
            hs[i, H_SEAT] = i
        log = logs[h] if logs.shape[0] > h else empty_log
        play_hand(hs, n, hid % n, blinds[0], blinds[1], cards[HOLE_CARDS * n:], bank0, level, structure,
                  pols, cardsdata, scratch, ast, hand_out[h], log)
        for i in range(n):
            stacks_out[h, i] = hs[i, H_STACK]


@kernel
def play_game(game_id, cell, key_cards, key_actions, cfg, seat_pols, blinds, structure, pols,
              cardsdata, scratch, rec, stats, trace):
    """One whole game (RULES §1.1, §1.5): hands until the settlement ends it, one player is left
    or ``cfg[C_MAX_HANDS]`` hands (the cap). Texas Hold'em (``cfg[C_DILEMMA] == 0``): a cash
    session of exactly that many hands, a busted player buying in again (``G_STACK*`` are then
    the net results). Writes the record ``rec`` and adds to ``stats``; ``trace`` rows (if any)
    get the stacks, bank and level after each hand."""
    n0 = cfg[C_N]
    dilemma = cfg[C_DILEMMA] != 0
    max_hands = cfg[C_MAX_HANDS]
    n_cards = cardsdata[3]
    hs = np.zeros((MAX_SEATS, N_HCOLS), np.int64)
    stacks = np.zeros(MAX_SEATS, np.int64)
    bought = np.zeros(MAX_SEATS, np.int64)
    cst = np.zeros(4, np.uint64)
    ast = np.zeros(4, np.uint64)
    cards = np.zeros(HOLE_CARDS * MAX_SEATS + BOARD_CARDS, np.int64)
    avail = np.arange(n_cards, dtype=np.int64)
    hand_out = np.zeros(N_XCOLS, np.int64)
    bank = np.zeros(3, np.int64)
    empty_log = np.zeros((0, N_LCOLS), np.int64)
    for i in range(n0):
        stacks[i] = cfg[C_STACK]
        bought[i] = cfg[C_STACK]
    bank[0] = cfg[C_BANK1]
    bank[1] = cfg[C_BANK2]
    bank[2] = cfg[C_BANK3]
    for k in range(N_GCOLS):
        rec[k] = -1
    rec[G_GAME] = game_id
    rec[G_CELL] = cell
    rec[G_N] = n0
    level = 0
    dealer_seat = 0
    seed_state(ast, key_actions, game_id)
    hands = 0
    reason = REASON_HANDS
    n_bust = 0
    if trace.shape[0] > 0:
        for i in range(n0):
            trace[0, i] = stacks[i]
        trace[0, T_BANK] = bank[0]
        trace[0, T_BANK + 1] = bank[1]
        trace[0, T_BANK + 2] = bank[2]
        trace[0, T_BANK + 3] = level
    while True:
        # compact seats: players with chips, in seat order; the DEALER among them
        m = 0
        d = 0
        for i in range(n0):
            if stacks[i] > 0:
                if i == dealer_seat:
                    d = m
                hs[m, H_SEAT] = i
                m += 1
        if m <= 1:
            reason = REASON_ONE_LEFT
            break
        seed_state(cst, key_cards, game_id * HANDS_PER_GAME + hands)
        deal_cards(cst, avail, n_cards, HOLE_CARDS * n0 + BOARD_CARDS, cards)
        for k in range(m):
            i = hs[k, H_SEAT]
            hs[k, H_STACK] = stacks[i]
            hs[k, H_POL] = seat_pols[i]
            hs[k, H_HOLE0] = cards[HOLE_CARDS * i]
            hs[k, H_HOLE1] = cards[HOLE_CARDS * i + 1]
        play_hand(hs, m, d, blinds[level, 0], blinds[level, 1], cards[HOLE_CARDS * n0:], bank, level,
                  structure, pols, cardsdata, scratch, ast, hand_out, empty_log)
        hands += 1
        stats[S_HANDS] += 1
        stats[S_SHOWDOWN] += hand_out[X_SHOWDOWN]
        stats[S_END0 + hand_out[X_LAST]] += 1
        stats[S_FREE_FOLDS] += hand_out[X_FREE_FOLDS]
        stats[S_POT] += hand_out[X_POT]
        stats[S_PENALTY] += hand_out[X_PENALTY]
        stats[S_BONUS] += hand_out[X_BONUS]
        for k in range(m):
            i = hs[k, H_SEAT]
            stacks[i] = hs[k, H_STACK]
            if stacks[i] == 0:
                if dilemma:
                    rec[G_BUST0 + i] = hands
                    n_bust += 1
                else:  # a cash game: buy in again
                    stacks[i] = cfg[C_STACK]
                    bought[i] += cfg[C_STACK]
        game_over = False
        if dilemma:
            bank[0] = hand_out[X_BANK1]
            bank[1] = hand_out[X_BANK2]
            bank[2] = hand_out[X_BANK3]
            level = hand_out[X_LEVEL]
            if bank[0] == 0 and rec[G_TIER1] < 0:
                rec[G_TIER1] = hands
            if bank[1] == 0 and rec[G_TIER2] < 0:
                rec[G_TIER2] = hands
            if bank[0] + bank[1] + bank[2] == 0 and rec[G_TIER3] < 0:
                rec[G_TIER3] = hands
            if hand_out[X_FLAGS] & F_GAME_OVER:
                game_over = True
                reason = REASON_BANK
                left = 0
                for i in range(n0):
                    if stacks[i] > 0:
                        left += 1
                if left <= 1:
                    reason = REASON_ONE_LEFT
        if trace.shape[0] > hands:
            for i in range(n0):
                trace[hands, i] = stacks[i]
            trace[hands, T_BANK] = bank[0]
            trace[hands, T_BANK + 1] = bank[1]
            trace[hands, T_BANK + 2] = bank[2]
            trace[hands, T_BANK + 3] = level
        if game_over:
            break
        if hands >= max_hands:
            reason = REASON_CAP if dilemma else REASON_HANDS
            break
        # the DEALER moves one seat clockwise, to the next player with chips
        for k in range(1, n0 + 1):
            j = (dealer_seat + k) % n0
            if stacks[j] > 0:
                dealer_seat = j
                break
    best = -1
    for i in range(n0):
        value = stacks[i] if dilemma else stacks[i] - bought[i]
        rec[G_STACK0 + i] = value
        if best < 0 or value > rec[G_STACK0 + best]:
            best = i
    rec[G_HANDS] = hands
    rec[G_WINNER] = best
    rec[G_REASON] = reason
    rec[G_NBUST] = n_bust
    stats[S_GAMES] += 1
    stats[S_HANDS2] += hands * hands
    if reason == REASON_CAP:
        stats[S_CAPPED] += 1


@kernel(nogil=True)
def games_rows(cells, streams, trials, stream_size, key_cards, key_actions, cfg, cell_pols, blinds,
               structure, pols, cardsdata, stats, recs, offsets, lo, hi):
    """Whole games for the runner: row ``r`` in ``lo:hi`` plays ``trials[r]`` games of stream
    ``streams[r]`` of cell ``cells[r]`` (cell = a seating of strategies) into ``stats[r]`` and
    records ``recs[offsets[r]:offsets[r + 1]]``."""
    n_cards = cardsdata[3]
    scratch = new_scratch_arrays(n_cards)
    empty = np.zeros((0, N_TRACE), np.int64)
    for r in range(lo, hi):
        for t in range(trials[r]):
            g = streams[r] * stream_size + t
            play_game(g, cells[r], key_cards, key_actions, cfg, cell_pols[cells[r]], blinds,
                      structure, pols, cardsdata, scratch, recs[offsets[r] + t], stats[r], empty)


@kernel
def hand_cards(key_cards, first_id, count, n, n_cards, out):
    """The cards :func:`play_hands_serial` deals: holes by seat, then the board."""
    cst = np.zeros(4, np.uint64)
    avail = np.arange(n_cards, dtype=np.int64)
    for h in range(count):
        seed_state(cst, key_cards, first_id + h)
        deal_cards(cst, avail, n_cards, HOLE_CARDS * n + BOARD_CARDS, out[h])
