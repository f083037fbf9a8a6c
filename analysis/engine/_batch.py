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
    CD_N_CARDS,
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

# table configuration (cfg[CF_*])
CF_N, CF_STACK, CF_MAX_HANDS, CF_BANK1, CF_BANK2, CF_BANK3 = range(6)
N_CFG = 6
# per-game records (rec[GR_*]); stacks and bust hands per original seat follow
(GR_GAME, GR_CELL, GR_N, GR_HANDS, GR_WINNER, GR_REASON, GR_TIER1, GR_TIER2, GR_TIER3, GR_NBUST,
 GR_STACK0) = range(11)
GR_BUST0 = GR_STACK0 + MAX_SEATS
N_GCOLS = GR_BUST0 + MAX_SEATS
REASON_BANK, REASON_ONE_LEFT, REASON_CAP, REASON_HANDS = 1, 2, 3, 4
# per-stream statistics (stats[S_*])
(S_GAMES, S_HANDS, S_HANDS2, S_SHOWDOWN, S_END0, S_END1, S_END2, S_END3, S_FREE_FOLDS, S_POT,
 S_PENALTY, S_BONUS, S_CAPPED) = range(13)
N_GSTATS = 13
# trace of a sample game (trace[h, TR_*]): stacks per seat (columns 0 .. MAX_SEATS - 1), then the
# bank's three stacks and the blind level
TR_BANK1, TR_BANK2, TR_BANK3, TR_LEVEL = range(MAX_SEATS, MAX_SEATS + 4)
N_TRACE = MAX_SEATS + 4


@kernel(nogil=True)
def play_hands_serial(keys, hands, seating, table, game, outs, dilemma):
    """``count`` independent hands from the same table (the DEALER moves each hand).

    ``keys`` = ``(key_cards, key_actions)``: the generator keys of the deals and of the
    random action choices; ``hands`` = ``(first_id, count)``: hand ``h`` is hand number
    ``first_id + h`` (its generator stream); ``seating`` = ``(n, stacks0, seat_pols)``: the seats,
    int64[n] starting stacks and policy index of each seat; ``table`` = ``(blinds, bank0,
    level)``: int64[2] small and big blind, int64[3] the bank, the blind level; ``game`` =
    ``(structure, pols, cardsdata)`` as in :mod:`._kernel`; ``outs`` = ``(stacks_out, hand_out,
    logs)``: int64[count, n] final stacks, int64[count, N_XCOLS] hand summaries (``X_*``),
    int64[count or 0, MAX_LOG, N_LCOLS] action logs (``L_*``; no rows: no log); ``dilemma``:
    :func:`._layout.dilemma_arg` of the cards data.
    """
    key_cards, key_actions = keys
    first_id, count = hands
    n, stacks0, seat_pols = seating
    blinds, bank0, level = table
    stacks_out, hand_out, logs = outs
    n_cards = game[2][CD_N_CARDS]
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
        play_hand((hs, n, hid % n), cards[HOLE_CARDS * n:], (blinds[0], blinds[1], bank0, level), game,
                  scratch, ast, (hand_out[h], log), dilemma)
        for i in range(n):
            stacks_out[h, i] = hs[i, H_STACK]


@kernel(nogil=True)
def games_rows(rows, keys, table, game, outs, span, dilemma):
    """Whole games for the runner (RULES §1.1, §1.5): row ``r`` in ``lo:hi`` plays ``trials[r]`` games
    of stream ``streams[r]`` of cell ``cells[r]`` (cell = a seating of strategies) into ``stats[r]``
    and records ``recs[offsets[r]:offsets[r + 1]]``. A game runs until the settlement ends it, one
    player is left or ``cfg[CF_MAX_HANDS]`` hands (the cap); Texas Hold'em (``dilemma`` False)
    is a cash session of exactly that many hands, a busted player buying in again (``GR_STACK*`` are
    then the net results).

    ``rows`` = ``(cells, streams, trials, stream_size)``: int64 per row, and the games per stream
    (game ``g = streams[r] * stream_size + t``: its generator streams); ``keys`` = ``(key_cards,
    key_actions)``; ``table`` = ``(cfg, cell_pols, blinds)``: int64[N_CFG] the table (``CF_*``),
    int64[cells, n] the policy of each seat per cell, int64[3, 2] the blinds per level; ``game`` =
    ``(structure, pols, cardsdata)`` as in :mod:`._kernel`; ``outs`` = ``(stats, recs, offsets,
    trace)``: int64[rows, N_GSTATS] statistics added to (``S_*``), int64[games, N_GCOLS] the games'
    records (``GR_*``), each row's first record, and the stacks, bank and level after every hand
    (int64[hands + 1, N_TRACE], ``TR_*``, to trace the only game played; no rows: no trace);
    ``span`` = ``(lo, hi)``: the rows to play; ``dilemma``: whether the cards data settle by Dilemma
    Hold'em's rules (a bool: Dilemma and Texas Hold'em share this kernel). The only kernel that
    plays whole games, written as one function: numba's inlining copies a callee's IR once per
    block, so a game function inlined here (with the hand inlined into it) cost a cold run seconds
    more than the loops below.
    """
    cells, streams, trials, stream_size = rows
    key_cards, key_actions = keys
    cfg, cell_pols, blinds = table
    stats_rows, recs, offsets, trace = outs
    lo, hi = span
    n0 = cfg[CF_N]
    cash = not dilemma  # Texas Hold'em: a cash session, busted players buy in again
    max_hands = cfg[CF_MAX_HANDS]
    n_cards = game[2][CD_N_CARDS]
    scratch = new_scratch_arrays(n_cards)
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
    for r in range(lo, hi):
        seat_pols = cell_pols[cells[r]]
        stats = stats_rows[r]
        for t in range(trials[r]):
            game_id = streams[r] * stream_size + t
            rec = recs[offsets[r] + t]
            for i in range(n0):
                stacks[i] = cfg[CF_STACK]
                bought[i] = cfg[CF_STACK]
            bank[0] = cfg[CF_BANK1]
            bank[1] = cfg[CF_BANK2]
            bank[2] = cfg[CF_BANK3]
            for k in range(N_GCOLS):
                rec[k] = -1
            rec[GR_GAME] = game_id
            rec[GR_CELL] = cells[r]
            rec[GR_N] = n0
            level = 0
            dealer_seat = 0
            seed_state(ast, key_actions, game_id)
            hands = 0
            reason = REASON_HANDS
            n_bust = 0
            if trace.shape[0] > 0:
                _trace_row(trace[0], stacks, n0, bank, level)
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
                play_hand((hs, m, d), cards[HOLE_CARDS * n0:], (blinds[level, 0], blinds[level, 1], bank, level),
                          game, scratch, ast, (hand_out, empty_log), dilemma)
                hands += 1
                _count_hand(stats, hand_out)
                for k in range(m):
                    i = hs[k, H_SEAT]
                    stacks[i] = hs[k, H_STACK]
                    if stacks[i] == 0:
                        if not cash:
                            rec[GR_BUST0 + i] = hands
                            n_bust += 1
                        else:  # a cash game: buy in again
                            stacks[i] = cfg[CF_STACK]
                            bought[i] += cfg[CF_STACK]
                game_over = False
                if dilemma:
                    bank[0] = hand_out[X_BANK1]
                    bank[1] = hand_out[X_BANK2]
                    bank[2] = hand_out[X_BANK3]
                    level = hand_out[X_LEVEL]
                    if bank[0] == 0 and rec[GR_TIER1] < 0:
                        rec[GR_TIER1] = hands
                    if bank[1] == 0 and rec[GR_TIER2] < 0:
                        rec[GR_TIER2] = hands
                    if bank[0] + bank[1] + bank[2] == 0 and rec[GR_TIER3] < 0:
                        rec[GR_TIER3] = hands
                    if hand_out[X_FLAGS] & F_GAME_OVER:
                        game_over = True
                        reason = REASON_ONE_LEFT if _with_chips(stacks, n0) <= 1 else REASON_BANK
                if trace.shape[0] > hands:
                    _trace_row(trace[hands], stacks, n0, bank, level)
                if game_over:
                    break
                if hands >= max_hands:
                    reason = REASON_HANDS if cash else REASON_CAP
                    break
                # the DEALER moves one seat clockwise, to the next player with chips
                for k in range(1, n0 + 1):
                    j = (dealer_seat + k) % n0
                    if stacks[j] > 0:
                        dealer_seat = j
                        break
            _close_game(rec, stats, (stacks, bought, n0, cash), (hands, reason, n_bust))


@kernel
def _trace_row(row, stacks, n0, bank, level):
    """One trace row (``TR_*``): each seat's stack, the bank's three stacks and the blind level."""
    for i in range(n0):
        row[i] = stacks[i]
    row[TR_BANK1] = bank[0]
    row[TR_BANK2] = bank[1]
    row[TR_BANK3] = bank[2]
    row[TR_LEVEL] = level


@kernel
def _count_hand(stats, hand_out):
    """Add one hand's summary (``X_*``) to a row's statistics (``S_*``)."""
    stats[S_HANDS] += 1
    stats[S_SHOWDOWN] += hand_out[X_SHOWDOWN]
    stats[S_END0 + hand_out[X_LAST]] += 1
    stats[S_FREE_FOLDS] += hand_out[X_FREE_FOLDS]
    stats[S_POT] += hand_out[X_POT]
    stats[S_PENALTY] += hand_out[X_PENALTY]
    stats[S_BONUS] += hand_out[X_BONUS]


@kernel
def _with_chips(stacks, n0):
    """How many of the ``n0`` seats still hold chips."""
    left = 0
    for i in range(n0):
        if stacks[i] > 0:
            left += 1
    return left


@kernel
def _close_game(rec, stats, seats, ending):
    """A finished game's record (final stacks, or net results in a cash game; the winner, how it
    ended) and its statistics. ``seats`` = ``(stacks, bought, n0, cash)``, ``ending`` =
    ``(hands, reason, n_bust)``."""
    stacks, bought, n0, cash = seats
    hands, reason, n_bust = ending
    best = -1
    for i in range(n0):
        value = stacks[i] - bought[i] if cash else stacks[i]
        rec[GR_STACK0 + i] = value
        if best < 0 or value > rec[GR_STACK0 + best]:
            best = i
    rec[GR_HANDS] = hands
    rec[GR_WINNER] = best
    rec[GR_REASON] = reason
    rec[GR_NBUST] = n_bust
    stats[S_GAMES] += 1
    stats[S_HANDS2] += hands * hands
    if reason == REASON_CAP:
        stats[S_CAPPED] += 1


@kernel
def hand_cards(key_cards, first_id, count, n, n_cards, out):
    """The cards :func:`play_hands_serial` deals: holes by seat, then the board."""
    cst = np.zeros(4, np.uint64)
    avail = np.arange(n_cards, dtype=np.int64)
    for h in range(count):
        seed_state(cst, key_cards, first_id + h)
        deal_cards(cst, avail, n_cards, HOLE_CARDS * n + BOARD_CARDS, out[h])
