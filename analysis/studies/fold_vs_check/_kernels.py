"""Numba kernels of the fold-vs-check study: deal a spot, play both branches, settle, tally.

One *trial* deals the hero's combo (fixed or drawn from a starting class), the
unknown board cards and the opponents' holes, then plays the hand twice from the
decision point on the same cards (common random numbers, so the EV *gap* has a
much smaller error than either EV):

- **fold**: the hero folds at the decision street; the opponents play on;
- **check**: the hero checks and plays on by its policy (never bets; calls a bet
  when its strength reaches the policy's call threshold for that street).

Betting is one bet per round: players act in seat order from the hero (seat 0,
first to act after the flop: the DEALER is the last seat); an opponent whose
strength reaches its model's bet threshold bets a fraction of the pot (at least
the big blind, in $10 steps, capped by its stack); every other live player then
calls (strength >= its call threshold) or folds. Strength is the share of the
two-card holdings a player's cards beat on the current board (ties count half),
enumerated exactly over every holding the player cannot see.

Both branches are settled by :func:`analysis.dilemma.settlement._kernel.settle_core`; the
hero's result is its final stack minus its stack behind at the decision.
Statistics per (cell, chunk) are sums and sums of squares, reduced in Python in
a fixed order, so results do not depend on the number of threads.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from analysis.core.rng import bounded, deal, seed_state, weighted_index
from analysis.dilemma.settlement._kernel import settle_core
from analysis.dilemma.settlement.layout import (
    N_OUT,
    N_PCOLS,
    N_TCOLS,
    P_BONUS,
    P_EFFECT,
    P_FINAL,
    P_FOLD,
    P_HOLE0,
    P_HOLE1,
    P_IN,
    P_PENALTY,
    P_POT,
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
from evaluator._kernels import score_cards
from evaluator.jit import kernel
from evaluator.strength import board_strengths

from .layout import (
    C_BOARD_LO,
    C_BOARD_N,
    C_HERO_HI,
    C_HERO_LO,
    C_MODEL,
    C_NOPP,
    C_POLICY,
    C_POT,
    C_STACK,
    C_STREET,
    G_BANK1,
    G_BANK2,
    G_BANK3,
    G_BIG_BLIND,
    G_LEVEL,
    G_N_CARDS,
    G_STRENGTH_BINS,
    M_BET,
    M_CALL,
    M_SIZE,
    N_PENALTY_BINS,
    N_STRENGTH_BINS,
    PENALTY_BASE,
    S_BOARD_PENALTY,
    S_CHECK,
    S_CHECK2,
    S_CHECK_BONUS,
    S_CHECK_EFFECT,
    S_CHECK_PENALTY,
    S_CHECK_POT,
    S_CHECK_SHOWDOWN,
    S_EQUITY,
    S_FOLD,
    S_FOLD2,
    S_FOLD_BONUS,
    S_FOLD_EFFECT,
    S_FOLD_PAYS,
    S_FOLD_PENALTY,
    S_FOLD_POT,
    S_GAP,
    S_GAP2,
    S_N,
    S_STRENGTH,
    STRENGTH_BASE,
)


@kernel
def _strength(s, seat, work, board, holes, n, eval_tables, n_cards):
    """The strength of ``seat`` on street ``s`` (computed for every seat on first use)."""
    strength, have, pair_score, flat, nonb, hand = work
    if not have[s]:
        board_strengths(s + 2, board, holes, n, eval_tables, n_cards, pair_score, flat, nonb,
                        hand, strength[s])
        have[s] = True
    return strength[s, seat]


@kernel
def play_branch(hero_folds, street, n, board, holes, scores, model, policy, game, in0, behind0,
                work, eval_tables, deck, rules, players, board2, table, out):
    """Play the hand from the decision street to its end and settle it.

    Fills ``players``/``table``/``out`` (the settlement core's arrays) and returns
    the hero's extra chips put in after the decision.
    """
    n_cards = game[G_N_CARDS]
    bb = game[G_BIG_BLIND]
    for i in range(n):
        players[i, P_STACK] = behind0[i]
        players[i, P_IN] = in0[i]
        players[i, P_FOLD] = -1
        players[i, P_HOLE0] = holes[i, 0]
        players[i, P_HOLE1] = holes[i, 1]
    live = n
    last = street
    for s in range(street, 4):
        last = s
        bettor = -1
        amount = 0
        for seat in range(n):
            if players[seat, P_FOLD] >= 0:
                continue
            if seat == 0:
                if hero_folds and s == street:
                    players[0, P_FOLD] = s
                    live -= 1
                    if live == 1:
                        break
                continue  # the hero checks
            if players[seat, P_STACK] == 0 or model[s, M_BET] > 1.0:
                continue
            if _strength(s, seat, work, board, holes, n, eval_tables, n_cards) >= model[s, M_BET]:
                pot = 0
                for i in range(in0.shape[0]):
                    pot += in0[i] if i >= n else players[i, P_IN]
                amount = max(bb, np.int64((model[s, M_SIZE] * pot + 5.0) // 10.0) * 10)
                amount = min(amount, players[seat, P_STACK])
                players[seat, P_STACK] -= amount
                players[seat, P_IN] += amount
                bettor = seat
                break
        if bettor >= 0:
            for k in range(1, n):
                seat = (bettor + k) % n
                if players[seat, P_FOLD] >= 0 or players[seat, P_STACK] == 0:
                    continue
                threshold = policy[s] if seat == 0 else model[s, M_CALL]
                if threshold <= 0.0 or (
                    threshold <= 1.0
                    and _strength(s, seat, work, board, holes, n, eval_tables, n_cards) >= threshold
                ):
                    pay = min(amount, players[seat, P_STACK])
                    players[seat, P_STACK] -= pay
                    players[seat, P_IN] += pay
                else:
                    players[seat, P_FOLD] = s
                    live -= 1
        if live == 1:
            break
    for i in range(n):
        players[i, P_SCORE] = scores[i] if players[i, P_FOLD] < 0 else -1
    n_seats = in0.shape[0]
    if n_seats > n:  # dead money of a pre-flop folder
        players[n, P_STACK] = behind0[n]
        players[n, P_IN] = in0[n]
        players[n, P_FOLD] = 0
        players[n, P_SCORE] = -1
        players[n, P_HOLE0] = -1
        players[n, P_HOLE1] = -1
    nb = last + 2
    for b in range(5):
        board2[0, b] = board[b]
        board2[1, b] = 1 if b < 3 else b - 1
    table[T_BANK1] = game[G_BANK1]
    table[T_BANK2] = game[G_BANK2]
    table[T_BANK3] = game[G_BANK3]
    table[T_LEVEL] = game[G_LEVEL]
    table[T_LAST] = last
    table[T_DEALER] = n_seats - 1
    table[T_NBOARD] = nb
    settle_core(players, n_seats, board2, table, deck, rules, out)
    return players[0, P_IN] - in0[0]


@kernel
def _deal_trial(state, cell, spots, opponents, n_cards, avail, board, holes):
    """Deal the hero's combo, the rest of the board and the opponents' holes; False if no deal."""
    _cells, _keys, hero_combos, board_cards = spots
    _models, range_lo, range_hi, range_combos, range_cumw = opponents
    lo = cell[C_HERO_LO]
    h = lo + (bounded(state, cell[C_HERO_HI] - lo) if cell[C_HERO_HI] - lo > 1 else 0)
    holes[0, 0] = hero_combos[h, 0]
    holes[0, 1] = hero_combos[h, 1]
    used = (np.uint64(1) << np.uint64(holes[0, 0])) | (np.uint64(1) << np.uint64(holes[0, 1]))
    n_fixed = cell[C_BOARD_N]
    for b in range(n_fixed):
        board[b] = board_cards[cell[C_BOARD_LO] + b]
        used |= np.uint64(1) << np.uint64(board[b])
    n_avail = 0
    for c in range(n_cards):
        if not (used >> np.uint64(c)) & np.uint64(1):
            avail[n_avail] = c
            n_avail += 1
    n_opp = cell[C_NOPP]
    m = cell[C_MODEL]
    ranged = range_hi[m] > range_lo[m]
    need = 5 - n_fixed + (0 if ranged else 2 * n_opp)
    deal(state, avail, n_avail, need)
    for b in range(n_fixed, 5):
        board[b] = avail[b - n_fixed]
        used |= np.uint64(1) << np.uint64(board[b])
    if not ranged:
        for i in range(n_opp):
            holes[1 + i, 0] = avail[5 - n_fixed + 2 * i]
            holes[1 + i, 1] = avail[5 - n_fixed + 2 * i + 1]
        return True
    for i in range(n_opp):
        for _ in range(10_000):
            j = weighted_index(state, range_cumw, range_lo[m], range_hi[m])
            a = range_combos[j, 0]
            b = range_combos[j, 1]
            bits = (np.uint64(1) << np.uint64(a)) | (np.uint64(1) << np.uint64(b))
            if not used & bits:
                used |= bits
                holes[1 + i, 0] = a
                holes[1 + i, 1] = b
                break
        else:
            return False
    return True


@kernel
def _add_bin(stats, base, index, gap):
    stats[base + 3 * index] += 1.0
    stats[base + 3 * index + 1] += gap
    stats[base + 3 * index + 2] += gap * gap


@kernel
def _scratch(n, n_cards):
    """Per-chunk scratch arrays of a trial (allocated once per work item)."""
    work = (np.zeros((4, n)), np.zeros(4, np.bool_), np.zeros((n_cards, n_cards), np.int64),
            np.empty(n_cards * n_cards, np.int64), np.empty(n_cards, np.int64), np.empty(7, np.uint8))
    return (np.empty(n, np.int64), np.empty(7, np.uint8), work, np.zeros((n, N_PCOLS), np.int64),
            np.zeros((2, 5), np.int64), np.zeros(N_TCOLS, np.int64), np.zeros(N_OUT, np.int64))



@kernel
def _starting_chips(cell, n):
    """Chips put in and behind per seat at the decision; ``n_seats`` is n + 1 with dead money.

    The live players are level at ⌊pot / n / 10⌋ × 10 each (a live player short of
    the others would be all-in); the rest of the pot is dead money from a player
    who folded pre-flop (seat n), who takes no further part and pays nothing.
    """
    pot = cell[C_POT]
    share = pot // (10 * n) * 10
    dead = pot - share * n
    n_seats = n + 1 if dead > 0 else n
    in0 = np.empty(n_seats, np.int64)
    behind0 = np.empty(n_seats, np.int64)
    for i in range(n):
        in0[i] = share
        behind0[i] = cell[C_STACK]
    if dead > 0:
        in0[n] = dead
        behind0[n] = cell[C_STACK]
    return in0, behind0, n_seats


@kernel
def play_trial(cell, board, holes, model, policy, game, in0, behind0, scratch, deck, rules,
               eval_tables, stats):
    """Play one deal both ways (fold, check), settle both, add the hero's results to ``stats``."""
    scores, hand, work, players, board2, table, out = scratch
    n_cards = game[G_N_CARDS]
    n = cell[C_NOPP] + 1
    street = cell[C_STREET]
    minus = deck[2]
    for b in range(5):
        hand[2 + b] = board[b]
    best = -1
    n_best = 0
    for i in range(n):
        hand[0] = holes[i, 0]
        hand[1] = holes[i, 1]
        scores[i] = score_cards(hand, 7, eval_tables)
        if scores[i] > best:
            best = scores[i]
            n_best = 1
        elif scores[i] == best:
            n_best += 1
    work[1][:] = False
    board_penalty = 0
    for b in range(street + 2):
        board_penalty += minus[board[b]]

    extra = play_branch(True, street, n, board, holes, scores, model, policy, game, in0,
                        behind0, work, eval_tables, deck, rules, players, board2, table, out)
    fold = players[0, P_FINAL] - behind0[0]
    f_pot = players[0, P_POT] - extra
    f_bonus = players[0, P_BONUS]
    f_pen = players[0, P_PENALTY]
    f_eff = players[0, P_EFFECT]
    extra = play_branch(False, street, n, board, holes, scores, model, policy, game, in0,
                        behind0, work, eval_tables, deck, rules, players, board2, table, out)
    check = players[0, P_FINAL] - behind0[0]
    gap = np.float64(check - fold)
    stats[S_N] += 1.0
    stats[S_FOLD] += fold
    stats[S_FOLD2] += fold * fold
    stats[S_CHECK] += check
    stats[S_CHECK2] += check * check
    stats[S_GAP] += gap
    stats[S_GAP2] += gap * gap
    stats[S_CHECK_POT] += players[0, P_POT] - extra
    stats[S_CHECK_BONUS] += players[0, P_BONUS]
    stats[S_CHECK_PENALTY] += players[0, P_PENALTY]
    stats[S_CHECK_EFFECT] += players[0, P_EFFECT]
    stats[S_FOLD_POT] += f_pot
    stats[S_FOLD_BONUS] += f_bonus
    stats[S_FOLD_PENALTY] += f_pen
    stats[S_FOLD_EFFECT] += f_eff
    stats[S_EQUITY] += (1.0 / n_best) if scores[0] == best else 0.0
    stats[S_BOARD_PENALTY] += board_penalty
    stats[S_FOLD_PAYS] += 1.0 if f_pen > 0 else 0.0
    stats[S_CHECK_SHOWDOWN] += 1.0 if players[0, P_FOLD] < 0 and table[T_LAST] == 3 else 0.0
    if game[G_STRENGTH_BINS]:
        st = _strength(street, 0, work, board, holes, n, eval_tables, n_cards)
        stats[S_STRENGTH] += st
        _add_bin(stats, STRENGTH_BASE, min(int(st * N_STRENGTH_BINS), N_STRENGTH_BINS - 1), gap)
    _add_bin(stats, PENALTY_BASE, min(board_penalty // 10, N_PENALTY_BINS - 1), gap)


@kernel
def run_item(c, stream, trials, spots, opponents, table, eval_tables, stats):
    """Run ``trials`` trials of cell ``c`` from its generator stream ``stream`` into ``stats``."""
    cells, cell_keys = spots[0], spots[1]
    models = opponents[0]
    game, policies, deck, rules = table
    cell = cells[c]
    n_cards = game[G_N_CARDS]
    n = cell[C_NOPP] + 1
    model = models[cell[C_MODEL]]
    policy = policies[cell[C_POLICY]]
    state = np.empty(4, np.uint64)
    seed_state(state, cell_keys[c], stream)
    avail = np.empty(n_cards, np.int64)
    board = np.empty(5, np.int64)
    holes = np.empty((n, 2), np.int64)
    scratch = _scratch(n + 1, n_cards)
    in0, behind0, _ = _starting_chips(cell, n)
    for _ in range(trials):
        if _deal_trial(state, cell, spots, opponents, n_cards, avail, board, holes):
            play_trial(cell, board, holes, model, policy, game, in0, behind0, scratch, deck,
                       rules, eval_tables, stats)


@kernel
def run_exact(c, spots, opponents, table, eval_tables, stats):
    """Every deal of a river spot (cell ``c``) with a fixed hand and board, for 1 or 2 opponents
    holding random cards: each opponent holding (ordered by seat) once, equally weighted."""
    cells, _keys, hero_combos, board_cards = spots
    models = opponents[0]
    game, policies, deck, rules = table
    cell = cells[c]
    n_cards = game[G_N_CARDS]
    n = cell[C_NOPP] + 1
    model = models[cell[C_MODEL]]
    policy = policies[cell[C_POLICY]]
    board = np.empty(5, np.int64)
    holes = np.empty((n, 2), np.int64)
    used = np.zeros(n_cards, np.bool_)
    for b in range(5):
        board[b] = board_cards[cell[C_BOARD_LO] + b]
        used[board[b]] = True
    holes[0, 0] = hero_combos[cell[C_HERO_LO], 0]
    holes[0, 1] = hero_combos[cell[C_HERO_LO], 1]
    used[holes[0, 0]] = True
    used[holes[0, 1]] = True
    free = np.nonzero(~used)[0]
    scratch = _scratch(n + 1, n_cards)
    in0, behind0, _ = _starting_chips(cell, n)
    m = free.shape[0]
    for x in range(m):
        for y in range(x + 1, m):
            holes[1, 0] = free[x]
            holes[1, 1] = free[y]
            if n == 2:
                play_trial(cell, board, holes, model, policy, game, in0, behind0, scratch,
                           deck, rules, eval_tables, stats)
                continue
            for u in range(m):
                for v in range(u + 1, m):
                    if u == x or u == y or v == x or v == y:  # noqa: SIM109 (numba)
                        continue
                    holes[2, 0] = free[u]
                    holes[2, 1] = free[v]
                    play_trial(cell, board, holes, model, policy, game, in0, behind0,
                               scratch, deck, rules, eval_tables, stats)


@kernel(parallel=True)
def run_streams(cells, streams, trials, spots, opponents, table, eval_tables, stats):
    """Run every stream (``trials[i]`` trials of stream ``streams[i]`` of cell ``cells[i]``) in
    parallel; ``stats[i]`` per stream. The inputs are the tuples packed by ``layout``."""
    for i in prange(cells.shape[0]):
        run_item(cells[i], streams[i], trials[i], spots, opponents, table, eval_tables, stats[i])
