"""Dealing a fold-vs-check trial and reading strengths: the kernels' view of one deal.

A *deal* is the hero's combo (fixed or drawn from its class), the rest of the
board and the opponents' holdings, plus per-trial scratch. Strengths (the share
of unseen holdings a hand beats on the board so far, :mod:`evaluator.strength`)
come from the memory-mapped tables of :func:`evaluator.strength.strength_table`
when the plan passes them (random boards of a 40-card deck), else they are
computed on the fly; both give the same numbers bit for bit. A *relative*
opponent model compares its strength with its own range, which narrows with its
actions: :func:`relative_script` works that out once per deal.
"""

from __future__ import annotations

import numpy as np

from analysis.core.rng import bounded, deal, weighted_index
from evaluator.jit import kernel
from evaluator.kernels import score_cards
from evaluator.strength import board_rank, board_strengths, holding_rank, strength_row

from .layout import (
    CE_BOARD_LO,
    CE_BOARD_N,
    CE_HERO_HI,
    CE_HERO_LO,
    CE_MODEL,
    CE_NOPP,
    CE_POT,
    CE_STACK,
    M_BET,
    M_CALL,
)

# deal arrays (a tuple, allocated once per stream by new_deal); the last four are the
# scratch of evaluator.strength.board_strengths
(DL_BOARD, DL_HOLES, DL_SCORES, DL_STRENGTH, DL_HAVE, DL_SORTED, DL_WOULD_BET, DL_WOULD_CALL,
 DL_PAIR_SCORE, DL_FLAT, DL_NONB, DL_HAND) = range(12)


@kernel
def new_deal(n, n_cards):
    """The per-stream arrays of a deal for ``n`` players (hero first)."""
    return (np.empty(5, np.int64), np.empty((n, 2), np.int64), np.empty(n, np.int64),
            np.zeros((4, n)), np.zeros(4, np.bool_), np.empty(5, np.int64),
            np.zeros((4, n), np.bool_), np.zeros((4, n), np.bool_),
            np.zeros((n_cards, n_cards), np.int64), np.empty(n_cards * n_cards, np.int64),
            np.empty(n_cards, np.int64), np.empty(7, np.uint8))


@kernel
def deal_trial(state, cell, spots, opponents, n_cards, avail, dl):
    """Deal the hero's combo, the rest of the board and the opponents' holes; False if no deal."""
    _cells, _keys, hero_combos, board_cards = spots
    _models, _flags, range_lo, range_hi, range_combos, range_cumw = opponents
    board = dl[DL_BOARD]
    holes = dl[DL_HOLES]
    lo = cell[CE_HERO_LO]
    h = lo + (bounded(state, cell[CE_HERO_HI] - lo) if cell[CE_HERO_HI] - lo > 1 else 0)
    holes[0, 0] = hero_combos[h, 0]
    holes[0, 1] = hero_combos[h, 1]
    used = (np.uint64(1) << np.uint64(holes[0, 0])) | (np.uint64(1) << np.uint64(holes[0, 1]))
    n_fixed = cell[CE_BOARD_N]
    for b in range(n_fixed):
        board[b] = board_cards[cell[CE_BOARD_LO] + b]
        used |= np.uint64(1) << np.uint64(board[b])
    n_avail = 0
    for c in range(n_cards):
        if not (used >> np.uint64(c)) & np.uint64(1):
            avail[n_avail] = c
            n_avail += 1
    n_opp = cell[CE_NOPP]
    m = cell[CE_MODEL]
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
def prepare(dl, n, eval_tables):
    """Showdown scores of every player and a fresh strength cache (call once per deal)."""
    board = dl[DL_BOARD]
    holes = dl[DL_HOLES]
    scores = dl[DL_SCORES]
    hand = dl[DL_HAND]
    for b in range(5):
        hand[2 + b] = board[b]
    for i in range(n):
        hand[0] = holes[i, 0]
        hand[1] = holes[i, 1]
        scores[i] = score_cards(hand, 7, eval_tables)
    dl[DL_HAVE][:] = False


@kernel(inline=True)
def _sorted_prefix(board, nb, out):
    """The first ``nb`` cards of ``board`` in increasing order into ``out`` (insertion sort: at
    most 5 cards)."""
    for i in range(nb):
        v = board[i]
        j = i
        while j > 0 and out[j - 1] > v:
            out[j] = out[j - 1]
            j -= 1
        out[j] = v


@kernel
def street_strengths(s, dl, n, strength, n_cards):
    """Fill the strengths of every player on street ``s`` (from the tables when given);
    ``strength = (sources, eval_tables)`` (:mod:`.layout`)."""
    sources, eval_tables = strength
    use_tables, flop, turn, river = sources
    nb = s + 2
    out = dl[DL_STRENGTH][s]
    if use_tables:
        sb = dl[DL_SORTED]
        _sorted_prefix(dl[DL_BOARD], nb, sb)
        m = n_cards - nb - 2
        denom = np.float64(m * (m - 1))  # 2 * C(m, 2)
        tab = flop if s == 1 else (turn if s == 2 else river)
        row = board_rank(sb, nb)
        holes = dl[DL_HOLES]
        for i in range(n):
            out[i] = tab[row, holding_rank(holes[i, 0], holes[i, 1], sb, nb)] / denom
    else:
        board_strengths(nb, dl[DL_BOARD], dl[DL_HOLES], n, eval_tables, n_cards,
                        (dl[DL_PAIR_SCORE], dl[DL_FLAT], dl[DL_NONB], dl[DL_HAND]), out)
    dl[DL_HAVE][s] = True


@kernel(inline=True)
def strength_of(s, seat, dl, n, strength, n_cards):
    """A player's strength on street ``s`` (the street is computed on first use)."""
    if not dl[DL_HAVE][s]:
        street_strengths(s, dl, n, strength, n_cards)
    return dl[DL_STRENGTH][s, seat]


@kernel
def range_histogram(weights, on, n_cards, nums, sb, nb, hist, top):
    """``hist[v]``: the weight of the range's holdings off the board (``on``) whose strength
    rank on this board is ``v`` (``nums`` maps a holding's rank to it); returns the total."""
    hist[: top + 1] = 0.0
    total = 0.0
    for a in range(n_cards):
        if on[a]:
            continue
        for b in range(a):
            w = weights[b + a * (a - 1) // 2]
            if w > 0.0 and not on[b]:
                hist[nums[holding_rank(a, b, sb, nb)]] += w
                total += w
    return total


@kernel
def relative_script(street0, dl, n, model, strength, n_cards, scratch):
    """Would-bet and would-call of every opponent of a *relative* model, street by street.

    ``strength = (sources, eval_tables)`` (:mod:`.layout`); ``scratch = (weights, nums,
    hist)``: each opponent's range float64[n, holdings], a holding's strength rank
    int64[holdings] and a histogram of ranks float64 (see :func:`range_histogram`).

    Each opponent's range starts as every holding off the board (equally likely)
    and keeps, after each street, the holdings that would have acted as it did;
    its relative strength is the share of its range its holding beats (ties half).
    Actions do not depend on the hero (who never bets), so the script is worked
    out once per deal; bet sizes still follow the pot of each branch.
    """
    sources, eval_tables = strength
    weights, nums, hist = scratch
    board = dl[DL_BOARD]
    holes = dl[DL_HOLES]
    wb = dl[DL_WOULD_BET]
    wc = dl[DL_WOULD_CALL]
    sb = dl[DL_SORTED]
    n_pairs = n_cards * (n_cards - 1) // 2
    on3 = np.zeros(n_cards, np.bool_)
    for b in range(street0 + 2):
        on3[board[b]] = True
    for j in range(1, n):
        for a in range(n_cards):
            for b in range(a):
                weights[j, b + a * (a - 1) // 2] = 0.0 if (on3[a] or on3[b]) else 1.0
    live = np.ones(n, np.bool_)
    for s in range(street0, 4):
        nb = s + 2
        _sorted_prefix(board, nb, sb)
        m = n_cards - nb - 2
        top = m * (m - 1)
        use_tables, flop, turn, river = sources
        if use_tables:
            tab = flop if s == 1 else (turn if s == 2 else river)
            row = board_rank(sb, nb)
            for p in range(tab.shape[1]):
                nums[p] = tab[row, p]
        else:
            strength_row(sb, nb, n_cards, eval_tables, (dl[DL_FLAT], np.empty(n_pairs, np.int64),
                                                        dl[DL_PAIR_SCORE], dl[DL_HAND]), nums)
        on = np.zeros(n_cards, np.bool_)
        for b in range(nb):
            on[board[b]] = True
        # relative strength of every opponent's holding within its own range
        rel = np.zeros(n)
        for j in range(1, n):
            if not live[j]:
                continue
            total = range_histogram(weights[j], on, n_cards, nums, sb, nb, hist, top)
            mine = nums[holding_rank(holes[j, 0], holes[j, 1], sb, nb)]
            below = 0.0
            for v in range(mine):
                below += hist[v]
            rel[j] = (below + 0.5 * hist[mine]) / total if total > 0 else 0.5
            wb[s, j] = model[s, M_BET] <= 1.0 and rel[j] >= model[s, M_BET]
            thr = model[s, M_CALL]
            wc[s, j] = thr <= 0.0 or (thr <= 1.0 and rel[j] >= thr)
        # the round as the opponents play it (the hero checks and calls nothing)
        bettor = -1
        for j in range(1, n):
            if live[j] and wb[s, j]:
                bettor = j
                break
        for j in range(1, n):
            if not live[j]:
                continue
            first = bettor < 0 or j <= bettor  # acted with nobody having bet before it
            bet = j == bettor
            faced = bettor >= 0 and j != bettor
            called = faced and wc[s, j]
            if faced and not called:
                live[j] = False
                continue
            # keep the holdings that would have done the same
            total = range_histogram(weights[j], on, n_cards, nums, sb, nb, hist, top)
            cum = 0.0
            for v in range(top + 1):  # hist becomes the share strictly below v, plus half at v
                h = hist[v]
                hist[v] = (cum + 0.5 * h) / total if total > 0 else 0.5
                cum += h
            for a in range(n_cards):
                for b in range(a):
                    k = b + a * (a - 1) // 2
                    if weights[j, k] <= 0.0:
                        continue
                    if on[a] or on[b]:
                        weights[j, k] = 0.0
                        continue
                    r = hist[nums[holding_rank(a, b, sb, nb)]]
                    would_bet = model[s, M_BET] <= 1.0 and r >= model[s, M_BET]
                    thr = model[s, M_CALL]
                    would_call = thr <= 0.0 or (thr <= 1.0 and r >= thr)
                    keep = True
                    if first and would_bet != bet:
                        keep = False
                    if called and not would_call:
                        keep = False
                    if not keep:
                        weights[j, k] = 0.0
        n_live = 0
        for j in range(1, n):
            n_live += live[j]
        if n_live == 0:
            break


@kernel
def starting_chips(cell, n):
    """Chips put in and behind per seat at the decision; ``n_seats`` is n + 1 with dead money.

    The live players are level at ⌊pot / n / 10⌋ × 10 each (a live player short of
    the others would be all-in); the rest of the pot is dead money from a player
    who folded pre-flop (seat n), who takes no further part and pays nothing.
    """
    pot = cell[CE_POT]
    share = pot // (10 * n) * 10
    dead = pot - share * n
    n_seats = n + 1 if dead > 0 else n
    in0 = np.empty(n_seats, np.int64)
    behind0 = np.empty(n_seats, np.int64)
    for i in range(n):
        in0[i] = share
        behind0[i] = cell[CE_STACK]
    if dead > 0:
        in0[n] = dead
        behind0[n] = cell[CE_STACK]
    return in0, behind0, n_seats
