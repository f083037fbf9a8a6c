"""Numba kernels of the abstraction's chance: sampled deals, and what the settlement pays on them.

Deals (:func:`deal_streams`): stream ``k`` of the generator key draws one board
(five cards in the order flop, turn, river) and ``trials`` holdings for every
player from the cards left; each player's strength on every street of the
abstraction (``evaluator.strength.board_strengths``: all unseen two-card holdings
scored once per board and street) gives its bucket, and the 7-card score ranks
the showdown. One record per deal (``R_*`` columns of :mod:`.deals`).

Payoffs (:func:`deal_payoffs`): for one deal and every terminal *class* of the
public tree (last round, fold streets, all-in), the settlement core
(``settle_core``, the real rules) is run once with stacks that no payment can
exhaust (or zero for an all-in player, as in the hand), and returns each
player's money from everything but the pot (effects, penalty, bonus) and the
set of main-pot winners. A terminal then pays ``pot share - chips put in +
that money``: the pot share plus the money depend only on the terminal's class and
pot, so they are filled once per deal for each such group (:func:`group_values`),
and the walk subtracts the chips put in. That equals the settlement of the real end
state exactly (tested against the readable referee).
"""

from __future__ import annotations

import numpy as np
from numba import prange

from analysis.core.rng import deal, seed_state
from analysis.dilemma.kernels import settle_core
from analysis.dilemma.settlement.layout import (
    P_BONUS,
    P_EFFECT,
    P_FOLD,
    P_HOLE0,
    P_HOLE1,
    P_IN,
    P_PENALTY,
    P_ROLE,
    P_SCORE,
    P_STACK,
    ROLE_WINNER,
    T_BANK1,
    T_BANK2,
    T_BANK3,
    T_DEALER,
    T_LAST,
    T_LEVEL,
    T_NBOARD,
)
from analysis.dilemma.settlement.rules import R_REMAINDER_FIRST
from evaluator.jit import kernel
from evaluator.kernels import score_cards
from evaluator.strength import board_strengths

from .public_tree import CL_ALLIN, CL_FOLD0, CL_LAST

BIG_STACK = 10_000_000

# a deal record's columns (DR_: deal record): the board, each player's two hole cards, buckets by street and
# player, then each player's river score
DR_BOARD = 0
DR_HOLES = 5
"""Chips behind that no settlement payment can exhaust (stands for 'at least the liability')."""

# game entries (int64) shared by the kernels
G_PLAYERS, G_FIRST, G_BUCKETS, G_NCARDS, G_STACK, G_BANK1, G_BANK2, G_BANK3 = range(8)
N_GAME = 8


@kernel
def deal_streams(streams, trials, offsets, key, game, eval_tables, records, stats):
    """Deal every stream (one board, ``trials[i]`` holdings) into ``records[offsets[i]:]``."""
    n = game[G_PLAYERS]
    first = game[G_FIRST]
    n_buckets = game[G_BUCKETS]
    n_cards = game[G_NCARDS]
    n_streets = 4 - first
    for i in prange(streams.shape[0]):
        rng = np.empty(4, np.uint64)
        seed_state(rng, key, streams[i])
        avail = np.arange(n_cards)
        deal(rng, avail, n_cards, 5)
        board = avail[:5].copy()
        rest = avail[5:].copy()
        m = trials[i]
        holes = np.empty((m * n, 2), np.int64)
        for t in range(m):
            deal(rng, rest, n_cards - 5, 2 * n)
            for p in range(n):
                holes[t * n + p, 0] = rest[2 * p]
                holes[t * n + p, 1] = rest[2 * p + 1]
        pair_score = np.zeros((n_cards, n_cards), np.int64)
        flat = np.empty(n_cards * n_cards, np.int64)
        nonb = np.empty(n_cards, np.int64)
        hand = np.empty(7, np.uint8)
        strength = np.empty(m * n)
        row0 = offsets[i]
        for s in range(n_streets):
            board_strengths(first + 2 + s, board, holes, m * n, eval_tables, n_cards,
                            (pair_score, flat, nonb, hand), strength)
            for t in range(m):
                for p in range(n):
                    b = np.int64(strength[t * n + p] * n_buckets)
                    if b >= n_buckets:
                        b = n_buckets - 1
                    records[row0 + t, DR_HOLES + 2 * n + s * n + p] = b
                    stats[i, s * n_buckets + b] += 1.0
        cards = np.empty(7, np.uint8)
        for b in range(5):
            cards[2 + b] = board[b]
        for t in range(m):
            r = row0 + t
            for b in range(5):
                records[r, DR_BOARD + b] = board[b]
            for p in range(n):
                records[r, DR_HOLES + 2 * p] = holes[t * n + p, 0]
                records[r, DR_HOLES + 2 * p + 1] = holes[t * n + p, 1]
                cards[0] = holes[t * n + p, 0]
                cards[1] = holes[t * n + p, 1]
                records[r, DR_HOLES + 2 * n + n_streets * n + p] = score_cards(cards, 7, eval_tables)


@kernel
def deal_payoffs(record, settle_args, classes, core, settled):
    """Settle one deal for every class into ``settled``.

    ``record``: int64 row of the deal table (``R_*`` columns); ``settle_args`` =
    ``(game, deck, rules)``: the ``G_*`` entries, ``Deck.kernel_args``, ``Rules.kernel_args``;
    ``classes``: ``PublicTree.classes``; ``core`` = ``(players, board, table, out)``, the
    settlement core's scratch arrays (``layout.new_arrays``); ``settled`` = ``(money,
    winners)``: out, ``money[c, p]`` int64 (all but the pot) and ``winners[c]`` (bit mask of
    the main-pot winners).
    """
    game, deck, rules = settle_args
    players, board, table, out = core
    money, winners = settled
    n = game[G_PLAYERS]
    for b in range(5):
        board[0, b] = record[DR_BOARD + b]
        board[1, b] = 1 if b < 3 else b - 1
    score_col = DR_HOLES + 2 * n + (4 - game[G_FIRST]) * n
    for c in range(classes.shape[0]):
        last = classes[c, CL_LAST]
        allin = classes[c, CL_ALLIN] != 0
        n_live = 0
        for p in range(n):
            fold = classes[c, CL_FOLD0 + p]
            live = fold < 0
            if live:
                n_live += 1
            players[p, P_FOLD] = fold
            players[p, P_SCORE] = record[score_col + p] if live else -1
            players[p, P_HOLE0] = record[DR_HOLES + 2 * p]
            players[p, P_HOLE1] = record[DR_HOLES + 2 * p + 1]
            if allin and live:
                players[p, P_STACK] = 0
                players[p, P_IN] = game[G_STACK]
            else:
                players[p, P_STACK] = BIG_STACK
                players[p, P_IN] = 0
        table[T_BANK1] = game[G_BANK1]
        table[T_BANK2] = game[G_BANK2]
        table[T_BANK3] = game[G_BANK3]
        table[T_LEVEL] = 0
        table[T_LAST] = last
        table[T_DEALER] = n - 1
        table[T_NBOARD] = 5 if n_live >= 2 else last + 2
        settle_core(players, n, board, table, deck, rules, out)
        mask = 0
        for p in range(n):
            money[c, p] = players[p, P_EFFECT] - players[p, P_PENALTY] + players[p, P_BONUS]
            if players[p, P_ROLE] & ROLE_WINNER:
                mask |= 1 << p
        winners[c] = mask


@kernel(inline=True)
def pot_share(p, mask, n, pot, rules):
    """What player ``p`` takes from a single pot ``pot`` won by the players in ``mask`` (shares
    in $10 units; the remainder to the bank, or to the first winner after the DEALER, the last
    seat, when the rules say so)."""
    if not (mask >> p) & 1:
        return 0
    k = 0
    first = -1
    for q in range(n):
        if (mask >> q) & 1:
            k += 1
            if first < 0:
                first = q
    share = pot // (10 * k) * 10
    if rules[R_REMAINDER_FIRST] != 0 and p == first:
        share += pot - share * k
    return share


@kernel
def group_shares(groups, n, rules, out):
    """Every terminal group's pot share for every set of winners, once per tree: ``out[g, m, p]``
    int64 = what player ``p`` takes from group ``g``'s pot when ``m`` (a bit mask) are the main-pot
    winners (:func:`pot_share`). ``groups`` int64[G, 2] ``(class, pot)`` rows
    (``PublicTree.term_groups``); ``n`` players; ``rules`` = ``Rules.kernel_args``."""
    for g in range(groups.shape[0]):
        for m in range(out.shape[1]):
            for p in range(n):
                out[g, m, p] = pot_share(p, m, n, groups[g, 1], rules)


@kernel
def group_values(groups, shares, settled, out):
    """What each terminal group pays on one deal, before the chips put in: ``out[g, p]`` float64 =
    player ``p``'s pot share plus its non-pot money in group ``g`` = ``(class, pot)``, so terminal
    ``t`` in group ``g`` pays ``out[g, p] - term_in[t, p]`` (``PublicTree.walk_args``).

    ``groups`` int64[G, 2] (``PublicTree.term_groups``); ``shares``: :func:`group_shares`;
    ``settled`` = ``(money, winners)`` of the deal (:func:`deal_payoffs`).
    """
    money, winners = settled
    for g in range(groups.shape[0]):
        c = groups[g, 0]
        row = shares[g, winners[c]]
        for p in range(out.shape[1]):
            out[g, p] = row[p] + money[c, p]
