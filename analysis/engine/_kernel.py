"""The numba betting kernel: one hand by the rules of :mod:`.referee`, decided by compiled policies.

The twin of the readable referee, on plain arrays; ``tests/engine/test_kernel.py``
replays its hands through the referee (every action legal, the same menus, the same
stacks). A hand is played on the *compact* seats of the players who still have chips
(``hs`` rows, ``H_*`` columns) and a round state ``rs`` (``RS_*`` entries); the Dilemma
end goes through the settlement core ``settle_core``, Texas Hold'em through
:func:`holdem_pots`.

Grouped inputs (built in :mod:`.simulate`):
- ``game`` = ``(structure, pols, cardsdata)``, the same for every hand of a run:
  ``structure``: ``Structure.kernel_args`` (``BS_*``); ``pols``: ``compile_policies`` arrays
  ``(pol_int, pol_float, cond, acts)``; ``cardsdata``: ``(eval_tables, deck, preflop, n_cards,
  is_dilemma, rules)`` (``CD_*`` in :mod:`._layout`);
- ``scratch``: per-thread arrays from :func:`._layout.new_scratch_arrays` (``W_*`` slots).
"""

from __future__ import annotations

import numpy as np

from analysis.core.actions import CALL, CHECK, FOLD
from analysis.core.rng import deal
from analysis.dilemma.decks import D_MINUS
from analysis.dilemma.kernels import score_players, settle_core
from analysis.dilemma.settlement.layout import (
    P_FINAL,
    P_FOLD,
    P_HOLE0,
    P_HOLE1,
    P_IN,
    P_SCORE,
    P_STACK,
    SO_BANK1,
    SO_BANK2,
    SO_BANK3,
    SO_BONUS_PAID,
    SO_LEVEL,
    SO_PENALTY_PAID,
    T_BANK1,
    T_BANK2,
    T_BANK3,
    T_DEALER,
    T_LAST,
    T_LEVEL,
    T_NBOARD,
)
from evaluator.jit import kernel
from evaluator.kernels import score_cards

from ._decide import decide, features_of, strengths
from ._layout import (
    H_ACTED,
    H_BET,
    H_CHECKED,
    H_FOLD,
    H_HOLE0,
    H_HOLE1,
    H_IN,
    H_POL,
    H_RAISES,
    H_SCORE,
    H_STACK,
    L_KIND,
    L_MENU,
    L_SEAT,
    L_STREET,
    L_TO,
    MN_ALLIN_TO,
    MN_BET,
    MN_CALL,
    MN_CHECK,
    MN_FOLD,
    MN_MAX_TO,
    MN_MIN_TO,
    MN_PLAYER,
    N_MENU,
    PI_USES_STRENGTH,
    RS_BB,
    RS_BB_SEAT,
    RS_CUR,
    RS_DEALER,
    RS_FIRST,
    RS_FULL_TO,
    RS_INC,
    RS_LAST_AGG,
    RS_N,
    RS_NB,
    RS_RAISES,
    RS_SB_SEAT,
    RS_SHORT_STACK,
    RS_SHORT_SUM,
    RS_STREET,
    W_BOARD,
    W_DECISION,
    W_FEAT,
    W_HAND7,
    W_MENU,
    W_OUT,
    W_PLAYERS,
    W_ROUND,
    W_SLOTS,
    W_STRENGTH,
    W_TABLE,
    X_BANK1,
    X_BANK2,
    X_BANK3,
    X_BONUS,
    X_FLAGS,
    X_FREE_FOLDS,
    X_LAST,
    X_LEVEL,
    X_N_ACTIONS,
    X_PENALTY,
    X_POT,
    X_SHOWDOWN,
)
from .structures import (
    BS_BIG_BET_FROM,
    BS_CAP,
    BS_CHECK_RAISE,
    BS_FREE_FOLD,
    BS_KIND,
    BS_LIMIT,
    BS_MAX_RAISES,
    BS_MIN_RAISE_LAST,
    BS_POT_WHOLE,
    BS_RAISES_PER_PLAYER,
    BS_SHORT_ALL_IN,
    BS_SHORT_CAP_TABLE,
    FIXED_LIMIT,
    LIMIT_PER_ROUND,
    LIMIT_SPREAD,
    NO_LIMIT,
    SHORT_CONSECUTIVE,
    SHORT_NEVER,
    SHORT_REOPENS,
)


@kernel
def _live_count(hs, n):
    """Seats of ``hs`` (``H_*`` rows, ``n`` seats) not folded."""
    k = 0
    for i in range(n):
        if hs[i, H_FOLD] < 0:
            k += 1
    return k


@kernel
def fl_limit(rs, structure):
    """Mirror of ``Hand.limit``: the most a fixed-limit bet or raise adds this round."""
    size = rs[RS_BB] * structure[BS_CAP]
    if structure[BS_LIMIT] == LIMIT_PER_ROUND and rs[RS_STREET] < structure[BS_BIG_BET_FROM]:
        size = rs[RS_BB]
    if structure[BS_SHORT_CAP_TABLE] != 0 and rs[RS_SHORT_STACK] < size:
        size = rs[RS_SHORT_STACK]
    return size


@kernel
def fl_least(rs, structure):
    """Mirror of ``Hand.limit_range()[0]``: the least a fixed-limit bet or raise adds."""
    size = fl_limit(rs, structure)
    if structure[BS_LIMIT] == LIMIT_SPREAD and rs[RS_BB] < size:
        return rs[RS_BB]
    return size


@kernel
def full_raise(rs, structure):
    """Mirror of ``Hand.full_raise``: what a bet or raise must add to be a full one."""
    if structure[BS_MIN_RAISE_LAST] != 0:
        return rs[RS_INC]
    if structure[BS_KIND] == FIXED_LIMIT:
        return fl_least(rs, structure)
    return rs[RS_BB]


@kernel
def _raise_ok(hs, rs, n, i, structure):
    """Mirror of ``Hand._raise_refusal``: may seat ``i`` bet or raise now?"""
    owe = rs[RS_CUR] - hs[i, H_BET]
    if hs[i, H_STACK] <= owe:
        return False
    other = False
    for j in range(n):
        if j != i and hs[j, H_FOLD] < 0 and hs[j, H_STACK] + hs[j, H_BET] > rs[RS_CUR]:
            other = True
    if not other:
        return False
    if structure[BS_MAX_RAISES] > 0 and rs[RS_RAISES] >= structure[BS_MAX_RAISES]:
        return False
    rpp = structure[BS_RAISES_PER_PLAYER]
    if rpp > 0 and hs[i, H_RAISES] >= rpp:
        return False
    if structure[BS_CHECK_RAISE] == 0 and hs[i, H_CHECKED] != 0:
        return False
    rule = structure[BS_SHORT_ALL_IN]
    if hs[i, H_ACTED] == 0 or rule == SHORT_REOPENS:
        return True
    full = full_raise(rs, structure)
    since_full = hs[i, H_BET] >= rs[RS_FULL_TO]
    if rule != SHORT_NEVER and owe < full:
        return False
    if rule == SHORT_NEVER and since_full:
        return False
    if rule == SHORT_CONSECUTIVE and since_full and 0 < rs[RS_SHORT_SUM] < full:  # noqa: SIM103
        return False
    return True


@kernel
def legal_menu(hs, rs, n, i, structure, menu):
    """Mirror of ``Hand.legal``: fill ``menu`` (``MN_*``) for seat ``i``."""
    owe = rs[RS_CUR] - hs[i, H_BET]
    stack = hs[i, H_STACK]
    bb = rs[RS_BB]
    menu[MN_PLAYER] = i
    menu[MN_CALL] = min(owe, stack)
    menu[MN_CHECK] = 1 if owe == 0 else 0
    menu[MN_FOLD] = 1 if (owe > 0 or structure[BS_FREE_FOLD] != 0) else 0
    all_in_to = hs[i, H_BET] + stack
    menu[MN_ALLIN_TO] = all_in_to
    menu[MN_BET] = 1 if rs[RS_CUR] == 0 else 0
    menu[MN_MIN_TO] = -1
    menu[MN_MAX_TO] = -1
    if not _raise_ok(hs, rs, n, i, structure):
        return
    kind = structure[BS_KIND]
    limit = fl_limit(rs, structure)
    if kind == FIXED_LIMIT:
        inc_min = fl_least(rs, structure)
    else:
        inc_min = bb
        if structure[BS_MIN_RAISE_LAST] != 0 and rs[RS_INC] > inc_min:
            inc_min = rs[RS_INC]
    min_to = rs[RS_CUR] + inc_min
    if kind == NO_LIMIT:
        max_to = all_in_to
    elif kind == FIXED_LIMIT:
        max_to = rs[RS_CUR] + limit
    else:
        counted = 0
        for j in range(n):
            counted += hs[j, H_IN] if structure[BS_POT_WHOLE] != 0 else hs[j, H_BET]
        max_to = max(min_to, rs[RS_CUR] + owe + counted)
    menu[MN_MIN_TO] = min(min_to, all_in_to)
    menu[MN_MAX_TO] = min(max_to, all_in_to)


@kernel
def _put(hs, i, amount):
    """Seat ``i`` of ``hs`` puts ``amount`` chips in: off its stack, onto its bet this round and
    its total in."""
    hs[i, H_STACK] -= amount
    hs[i, H_BET] += amount
    hs[i, H_IN] += amount


@kernel
def apply_action(hs, rs, n, i, kind, to, structure):
    """Apply a legal action (a code of :mod:`analysis.core.actions`; ``to`` the round total of a bet/raise)."""
    if kind == FOLD:
        hs[i, H_FOLD] = rs[RS_STREET]
    elif kind == CHECK:
        hs[i, H_CHECKED] = 1
    elif kind == CALL:
        _put(hs, i, min(rs[RS_CUR] - hs[i, H_BET], hs[i, H_STACK]))
    else:
        inc = to - rs[RS_CUR]
        full = inc >= full_raise(rs, structure)
        _put(hs, i, to - hs[i, H_BET])
        rs[RS_RAISES] += 1
        hs[i, H_RAISES] += 1
        if inc > rs[RS_INC]:
            rs[RS_INC] = inc
        if full:
            rs[RS_FULL_TO] = to
            rs[RS_SHORT_SUM] = 0
        else:  # a short all-in
            rs[RS_SHORT_SUM] += inc
            if rs[RS_SHORT_SUM] >= full_raise(rs, structure):
                rs[RS_SHORT_SUM] = 0
        rs[RS_CUR] = to
        rs[RS_LAST_AGG] = i
    hs[i, H_ACTED] = 1


@kernel
def _needs_action(hs, rs, n, i):
    """Whether seat ``i`` must still act this round (``hs`` seats, ``rs`` the round's ``RS_*`` row,
    ``n`` seats): live with chips, and facing a bet or not yet acted while someone else can still
    bet."""
    if hs[i, H_FOLD] >= 0 or hs[i, H_STACK] == 0:
        return False
    if hs[i, H_BET] < rs[RS_CUR]:
        return True
    if hs[i, H_ACTED] != 0:
        return False
    for j in range(n):  # noqa: SIM110 (a plain loop for numba)
        if j != i and hs[j, H_FOLD] < 0 and hs[j, H_STACK] > 0:
            return True
    return False


@kernel
def next_actor(hs, rs, n, start):
    """Mirror of ``Hand._next_actor``: the next seat to act from ``start``, or -1."""
    if _live_count(hs, n) <= 1:
        return -1
    for k in range(n):
        i = start + k
        if i >= n:
            i -= n
        if _needs_action(hs, rs, n, i):
            return i
    return -1


@kernel
def short_stack(hs, n):
    """The smallest ``stack + bet`` of the live seats with chips behind (0 if none)."""
    low = np.int64(-1)
    for i in range(n):
        if hs[i, H_FOLD] < 0 and hs[i, H_STACK] > 0:
            have = hs[i, H_STACK] + hs[i, H_BET]
            if low < 0 or have < low:
                low = have
    return max(low, 0)


@kernel
def start_round(hs, rs, n, first):
    """Collect the bets and open a betting round whose first seat is ``first``."""
    for i in range(n):
        hs[i, H_BET] = 0
        hs[i, H_ACTED] = 0
        hs[i, H_CHECKED] = 0
        hs[i, H_RAISES] = 0
    rs[RS_CUR] = 0
    rs[RS_INC] = 0
    rs[RS_RAISES] = 0
    rs[RS_LAST_AGG] = -1
    rs[RS_FIRST] = first
    rs[RS_FULL_TO] = 0
    rs[RS_SHORT_SUM] = 0
    rs[RS_SHORT_STACK] = short_stack(hs, n)


@kernel
def post_blinds(hs, rs, n, dealer, sb, bb):
    """Blinds (heads-up: the DEALER posts the small blind) and the pre-flop round state."""
    if n == 2:
        s_seat = dealer
        b_seat = 1 - dealer
    else:
        s_seat = (dealer + 1) % n
        b_seat = (dealer + 2) % n
    rs[RS_STREET] = 0
    rs[RS_BB] = bb
    rs[RS_DEALER] = dealer
    rs[RS_N] = n
    rs[RS_NB] = 0
    start_round(hs, rs, n, (b_seat + 1) % n)
    _put(hs, s_seat, min(sb, hs[s_seat, H_STACK]))
    _put(hs, b_seat, min(bb, hs[b_seat, H_STACK]))
    rs[RS_CUR] = max(bb, max(hs[s_seat, H_BET], hs[b_seat, H_BET]))
    rs[RS_RAISES] = 1
    rs[RS_FULL_TO] = rs[RS_CUR]  # the big blind counts as a full bet
    rs[RS_SHORT_STACK] = short_stack(hs, n)  # before the blinds: stack + blind
    rs[RS_SB_SEAT] = s_seat
    rs[RS_BB_SEAT] = b_seat


@kernel
def holdem_pots(hs, n, dealer):
    """Plain Texas pots: every live level, best eligible score, odd chips to the first winner
    left of the DEALER; uncalled chips go back. Adds the winnings to ``H_STACK``."""
    prev = 0
    while True:
        level = np.int64(2**62)
        top = 0
        for i in range(n):
            if hs[i, H_FOLD] < 0:
                a = hs[i, H_IN]
                if prev < a < level:
                    level = a
                if a > top:
                    top = a
        if level == np.int64(2**62):
            break
        pot = 0
        best = np.int64(-(2**62))
        for i in range(n):
            a = hs[i, H_IN]
            if level == top:
                pot += a - min(a, prev)
            else:
                pot += min(a, level) - min(a, prev)
            if hs[i, H_FOLD] < 0 and a >= level and hs[i, H_SCORE] > best:
                best = hs[i, H_SCORE]
        k = 0
        for i in range(n):
            if hs[i, H_FOLD] < 0 and hs[i, H_IN] >= level and hs[i, H_SCORE] == best:
                k += 1
        share = pot // k
        rest = pot - share * k
        for j in range(n):
            i = dealer + 1 + j
            if i >= n:
                i -= n
            if hs[i, H_FOLD] < 0 and hs[i, H_IN] >= level and hs[i, H_SCORE] == best:
                hs[i, H_STACK] += share + rest
                rest = 0
        prev = level


@kernel(inline=True)
def play_hand(seats, cards, table, game, scratch, rng_state, outs, dilemma):
    """Play one hand on compact seats ``hs[:n]`` (stacks, policies and holes filled in).

    ``seats`` = ``(hs, n, dealer)``: int64[MAX_SEATS, N_HCOLS] seat columns (``H_*``), the seats
    playing and the DEALER's compact seat; ``cards[:5]``: the board in dealing order; ``table`` =
    ``(sb, bb, bank, level)``: the blinds, int64[3] the bank and the blind level; ``game``:
    see the module's docstring; ``scratch``: the ``W_*`` arrays; ``rng_state``: uint64[4] the
    action generator; ``outs`` = ``(hand_out, log)``: int64[N_XCOLS] the hand's summary
    (``X_*``) and int64[rows, N_LCOLS] the action log; ``dilemma``: whether the hand settles by
    Dilemma Hold'em's rules, or None for Texas Hold'em known when compiling: numba then drops the
    Dilemma code (:func:`._layout.dilemma_arg`; a bool keeps one compiled kernel for both games).

    Dilemma: settles with ``settle_core`` (bank ``bank[0:3]`` in,
    ``hand_out[X_BANK1..3]``/``X_LEVEL`` out); Texas: plain pots. Final stacks land in
    ``hs[:, H_STACK]``. ``log`` (rows ``L_*`` + the legal menu) records every action when it
    has rows (``hand_out[X_N_ACTIONS]`` counts them).
    """
    hs, n, dealer = seats
    sb, bb, bank, level = table
    structure, pols, cardsdata = game
    hand_out, log = outs
    eval_tables, deck, preflop, n_cards, _, rules = cardsdata
    rs = scratch[W_ROUND]
    menu = scratch[W_MENU]
    feat = scratch[W_FEAT]
    strength = scratch[W_STRENGTH]
    decision = scratch[W_DECISION]
    for i in range(n):
        hs[i, H_BET] = 0
        hs[i, H_IN] = 0
        hs[i, H_FOLD] = -1
        hs[i, H_SCORE] = -1
    post_blinds(hs, rs, n, dealer, sb, bb)
    pol_int = pols[0]  # compile_policies: (pol_int, pol_float, cond, acts)
    need_strength = False
    for i in range(n):
        if pol_int[hs[i, H_POL], PI_USES_STRENGTH] != 0:
            need_strength = True
    board = scratch[W_BOARD][0]
    for b in range(5):
        board[b] = cards[b]
    n_log = 0
    free_folds = 0
    penalty = 0
    while True:
        street = rs[RS_STREET]
        nb = 0 if street == 0 else street + 2
        rs[RS_NB] = nb
        if need_strength:
            strengths(hs, n, board, nb, cardsdata, scratch, strength)
        if dilemma is not None and dilemma:  # None: no Dilemma code compiled
            penalty = 0
            for b in range(nb):
                penalty += deck[D_MINUS, board[b]]
        i = next_actor(hs, rs, n, rs[RS_FIRST])
        while i >= 0:
            legal_menu(hs, rs, n, i, structure, menu)
            features_of(hs, rs, n, i, strength, penalty, feat)
            free_folds += decide((hs, rs, n), i, menu, feat, game, rng_state, (decision, scratch[W_SLOTS]))
            if n_log < log.shape[0]:
                log[n_log, L_STREET] = street
                log[n_log, L_SEAT] = i
                log[n_log, L_KIND] = decision[0]
                log[n_log, L_TO] = decision[1]
                for m in range(N_MENU):
                    log[n_log, L_MENU + m] = menu[m]
            n_log += 1
            apply_action(hs, rs, n, i, decision[0], decision[1], structure)
            if _live_count(hs, n) <= 1:
                break
            i = next_actor(hs, rs, n, i + 1 if i + 1 < n else 0)
        live = _live_count(hs, n)
        if live <= 1 or street == 3:
            break
        able = 0
        for j in range(n):
            if hs[j, H_FOLD] < 0 and hs[j, H_STACK] > 0:
                able += 1
        rs[RS_STREET] = street + 1
        start_round(hs, rs, n, dealer + 1 if dealer + 1 < n else 0)
        if able <= 1:  # no more betting: run the board out
            rs[RS_STREET] = 3
            break
    for j in range(n):
        hs[j, H_BET] = 0
    live = _live_count(hs, n)
    showdown = live >= 2
    last = 3 if showdown else rs[RS_STREET]
    nb = 5 if showdown else (0 if last == 0 else last + 2)
    pot = 0
    for j in range(n):
        pot += hs[j, H_IN]
    hand_out[X_LAST] = last
    hand_out[X_SHOWDOWN] = 1 if showdown else 0
    hand_out[X_FREE_FOLDS] = free_folds
    hand_out[X_POT] = pot
    hand_out[X_N_ACTIONS] = n_log
    hand_out[X_PENALTY] = 0
    hand_out[X_BONUS] = 0
    hand_out[X_FLAGS] = 0
    if dilemma is not None and dilemma:
        players = scratch[W_PLAYERS]
        bd = scratch[W_BOARD]
        table = scratch[W_TABLE]
        out = scratch[W_OUT]
        for j in range(n):
            players[j, P_STACK] = hs[j, H_STACK]
            players[j, P_IN] = hs[j, H_IN]
            players[j, P_FOLD] = hs[j, H_FOLD]
            players[j, P_HOLE0] = hs[j, H_HOLE0]
            players[j, P_HOLE1] = hs[j, H_HOLE1]
        for b in range(5):
            bd[1, b] = 1 if b < 3 else b - 1
        table[T_BANK1] = bank[0]
        table[T_BANK2] = bank[1]
        table[T_BANK3] = bank[2]
        table[T_LEVEL] = level
        table[T_LAST] = last
        table[T_DEALER] = dealer
        table[T_NBOARD] = nb
        score_players(players, n, bd, table, eval_tables, scratch[W_HAND7])
        flags = settle_core(players, n, bd, table, deck, rules, out)
        for j in range(n):
            hs[j, H_STACK] = players[j, P_FINAL]
            hs[j, H_SCORE] = players[j, P_SCORE]
        hand_out[X_FLAGS] = flags
        hand_out[X_PENALTY] = out[SO_PENALTY_PAID]
        hand_out[X_BONUS] = out[SO_BONUS_PAID]
        hand_out[X_BANK1] = out[SO_BANK1]
        hand_out[X_BANK2] = out[SO_BANK2]
        hand_out[X_BANK3] = out[SO_BANK3]
        hand_out[X_LEVEL] = out[SO_LEVEL]
    else:
        hand = scratch[W_HAND7]
        if showdown:
            for b in range(5):
                hand[2 + b] = board[b]
            for j in range(n):
                if hs[j, H_FOLD] < 0:
                    hand[0] = hs[j, H_HOLE0]
                    hand[1] = hs[j, H_HOLE1]
                    hs[j, H_SCORE] = score_cards(hand, 7, eval_tables)
        else:
            for j in range(n):
                if hs[j, H_FOLD] < 0:
                    hs[j, H_SCORE] = 0
        holdem_pots(hs, n, dealer)
        hand_out[X_BANK1] = 0
        hand_out[X_BANK2] = 0
        hand_out[X_BANK3] = 0
        hand_out[X_LEVEL] = level


@kernel
def deal_cards(rng_state, avail, n_cards, k, cards):
    """``cards[:k]`` = ``k`` distinct cards from a fresh deck (seat ``s`` holes: ``2s, 2s+1``;
    the board after the holes of every seat)."""
    for c in range(n_cards):
        avail[c] = c
    deal(rng_state, avail, n_cards, k)
    for c in range(k):
        cards[c] = avail[c]
