"""Kernels of the starting-hand tables: exact heads-up by board groups and card types, and
multiway Monte Carlo scoring every hole pair left per deal (ratio-estimator sums)."""

from __future__ import annotations

import numpy as np
from numba import prange
from numba.cpython.unsafe.numbers import trailing_zeros

from analysis.core import rng as _rng
from evaluator.block_sums import sum_blocks
from evaluator.jit import kernel
from evaluator.kernels import score_acc

from .equity.scoring import (
    EMPTY_ACC,
    N_BLOCKS,
    SHARE_LCM,
    score_hole,
)


@kernel
def _sort_by_score(keys, tmp, counts):
    """Sort ``keys`` (``score << 16 | pair``, scores below 2**16) by score, by two stable
    counting passes over the score's bytes (``tmp`` the same size, ``counts`` 256); the
    result is in ``keys``. (For a board's ~1,000 hole pairs this took a few microseconds
    where ``np.sort`` took ~20; a group has at most 351 type pairs.)"""
    n = keys.shape[0]
    for shift in (16, 24):
        counts[:] = 0
        for i in range(n):
            counts[(keys[i] >> shift) & 255] += 1
        total = 0
        for b in range(256):
            c = counts[b]
            counts[b] = total
            total += c
        for i in range(n):
            b = (keys[i] >> shift) & 255
            tmp[counts[b]] = keys[i]
            counts[b] += 1
        keys[:] = tmp


_PAIR_BITS = 16
"""Low bits of a sort key: a card-type pair, ``t2 << _TYPE_BITS | t1``."""
_TYPE_BITS = 6
"""Bits of a card type (at most 2 * 13 types)."""
_TYPE_MASK = (1 << _TYPE_BITS) - 1
_SUITS = 4


@kernel
def _rank_classes(n_cards, class_of):
    """``(R, R, 2)`` class index of ranks ``(r1, r2)`` offsuit (0) and suited (1); pairs at
    ``[r, r, 0]``: read from ``class_of`` at one combo of each kind."""
    n_ranks = n_cards // _SUITS
    out = np.zeros((n_ranks, n_ranks, 2), np.int64)
    for r1 in range(n_ranks):
        for r2 in range(n_ranks):
            for suited in range(2):
                a = _SUITS * r1
                b = _SUITS * r2 + (0 if suited and r1 != r2 else 1)
                hi, lo = max(a, b), min(a, b)
                out[r1, r2, suited] = class_of[(hi * (hi - 1)) // 2 + lo]
    return out


@kernel
def _board_types(board, n_ranks, count, rep, avail):
    """Card types of the cards left beside ``board`` (5 ids): type ``2r`` is rank ``r`` off
    the flush suit, ``2r + 1`` rank ``r`` in it (a suit with 3+ board cards; none on other
    boards, so those types are empty). Every card of a type gives the same 7-card score with
    any partner, since only the flush suit can make a flush. Fills ``count`` (cards left),
    ``rep[t, 0:2]`` (two of them) and ``avail[r]`` (suit mask of rank ``r``'s cards left
    off the flush suit); returns the flush suit or -1."""
    suit_count = np.zeros(_SUITS, np.int64)
    taken = np.zeros(n_ranks, np.int64)
    for i in range(5):
        c = np.int64(board[i])
        suit_count[c & 3] += 1
        taken[c >> 2] |= 1 << (c & 3)
    f = -1
    for s in range(_SUITS):
        if suit_count[s] >= 3:
            f = s
    fbit = (1 << f) if f >= 0 else 0
    for r in range(n_ranks):
        left = 15 & ~taken[r]
        off = left & ~fbit
        avail[r] = off
        n = 0
        for s in range(_SUITS):
            if (off >> s) & 1:
                if n < 2:
                    rep[2 * r, n] = _SUITS * r + s
                n += 1
        count[2 * r] = n
        if f >= 0 and (left >> f) & 1:
            count[2 * r + 1] = 1
            rep[2 * r + 1, 0] = _SUITS * r + f
        else:
            count[2 * r + 1] = 0
    return f


@kernel(inline=True)
def _popcount4(m):
    """Number of set bits of a 4-bit suit mask."""
    return (m & 1) + ((m >> 1) & 1) + ((m >> 2) & 1) + ((m >> 3) & 1)


@kernel
def _scratch(n_cards):
    """Per-thread work arrays of :func:`_tally_types`: ``(order, tmp, counts, lt, eq, buf)``,
    and of :func:`_board_types`: ``(count, rep, avail)``, and the suited totals ``(R, R)``."""
    n_types = 2 * (n_cards // _SUITS)
    n_max = n_types * (n_types + 1) // 2
    work = (np.empty(n_max, np.int64), np.empty(n_max, np.int64), np.empty(256, np.int64),
            np.zeros(n_types, np.int64), np.zeros(n_types, np.int64), np.empty(7, np.uint8))
    types = (np.zeros(n_types, np.int64), np.zeros((n_types, 2), np.int64),
             np.zeros(n_types // 2, np.int64))
    return work, types, np.zeros((n_types // 2, n_types // 2), np.int64)


@kernel
def _tally_types(board, types, suited, weight, scoring, work, out, row):
    """Add to ``out = (wins, ties, hands)`` (rows ``row``) the heads-up tallies of ``weight``
    boards that share ``board``'s card types (:func:`_board_types`, already in ``types``).

    ``board``: 5 card ids; ``types = (count, rep, avail)`` and ``work`` the scratch arrays of
    :func:`_scratch`; ``suited[r2, r1]``: the suited combos of two ranks over the ``weight``
    boards (:func:`_fill_suited`); ``scoring = (tables, kmap, rank_class)``: the evaluator's
    kernel tables, the showdown map and :func:`_rank_classes`; ``out``: int64 (blocks,
    classes) arrays; ``row``: this block.

    Each pair of types is scored once on ``board`` (through the showdown map ``kmap``)
    and the type pairs are sorted by score (:func:`_sort_by_score`). Sweeping the scores
    while counting, per type, the combos already passed that hold one given card of it
    gives each combo's number of beaten and tied opponent combos that share no card with
    it (inclusion-exclusion over its two cards). The combos of a type pair are split into
    starting classes: suited ones of two ranks off the flush suit number
    ``suited[r2, r1]`` over the ``weight`` boards (it depends on the suits left, the only
    thing that differs between them), the others follow from the counts.
    """
    order, tmp, counts, lt, eq, buf = work
    count, rep, avail = types
    tables, kmap, rank_class = scoring
    wins, ties, hands = out
    key = tables[0]
    n_types = count.shape[0]
    bacc = EMPTY_ACC
    for i in range(5):
        c = board[i]
        bacc += key[c]
        buf[2 + i] = c
    j = 0
    for t2 in range(n_types):
        n2 = count[t2]
        if n2 == 0:
            continue
        b = rep[t2, 0]
        buf[1] = b
        acc_b = bacc + key[b]
        for t1 in range(t2 + 1):
            if count[t1] == 0 or (t1 == t2 and n2 < 2):
                continue
            a = rep[t1, 1] if t1 == t2 else rep[t1, 0]
            buf[0] = a
            s = kmap[score_acc(acc_b + key[a], buf, 7, tables)]
            order[j] = (np.int64(s) << _PAIR_BITS) | (t2 << _TYPE_BITS) | t1
            j += 1
    _sort_by_score(order[:j], tmp[:j], counts)
    lt[:] = 0
    below = 0
    g0 = 0
    while g0 < j:
        s = order[g0] >> _PAIR_BITS
        g1 = g0
        while g1 < j and (order[g1] >> _PAIR_BITS) == s:
            g1 += 1
        size = 0
        for g in range(g0, g1):
            t2, t1 = (order[g] >> _TYPE_BITS) & _TYPE_MASK, order[g] & _TYPE_MASK
            if t1 == t2:
                size += count[t1] * (count[t1] - 1) // 2
                eq[t1] += count[t1] - 1
            else:
                size += count[t1] * count[t2]
                eq[t1] += count[t2]
                eq[t2] += count[t1]
        for g in range(g0, g1):
            t2, t1 = (order[g] >> _TYPE_BITS) & _TYPE_MASK, order[g] & _TYPE_MASK
            won = below - lt[t1] - lt[t2]
            tied = size - eq[t1] - eq[t2] + 1
            r1, r2 = t1 >> 1, t2 >> 1
            if t1 == t2:
                n_off, n_suited = weight * (count[t1] * (count[t1] - 1) // 2), 0
            elif (t1 & 1) and (t2 & 1):  # both in the flush suit
                n_off, n_suited = 0, weight
            elif (t1 & 1) or (t2 & 1) or r1 == r2:
                n_off, n_suited = weight * count[t1] * count[t2], 0
            else:
                n_suited = suited[r2, r1]
                n_off = weight * count[t1] * count[t2] - n_suited
            if n_off:
                cls = rank_class[r2, r1, 0]
                wins[row, cls] += n_off * won
                ties[row, cls] += n_off * tied
                hands[row, cls] += n_off
            if n_suited:
                cls = rank_class[r2, r1, 1]
                wins[row, cls] += n_suited * won
                ties[row, cls] += n_suited * tied
                hands[row, cls] += n_suited
        for g in range(g0, g1):
            t2, t1 = (order[g] >> _TYPE_BITS) & _TYPE_MASK, order[g] & _TYPE_MASK
            if t1 == t2:
                eq[t1] -= count[t1] - 1
                lt[t1] += count[t1] - 1
            else:
                eq[t1] -= count[t2]
                eq[t2] -= count[t1]
                lt[t1] += count[t2]
                lt[t2] += count[t1]
        below += size
        g0 = g1


@kernel
def _fill_suited(avail, weight, suited):
    """``suited[r2, r1] = weight * |suits left of both ranks off the flush suit|``."""
    n_ranks = avail.shape[0]
    for r2 in range(n_ranks):
        for r1 in range(n_ranks):
            suited[r2, r1] = weight * _popcount4(avail[r1] & avail[r2])


@kernel(parallel=True)
def headsup_classes(boards, mult, n_cards, class_of, n_classes, tables, kmap):
    """Exact heads-up tally of every starting class against one random hand over the given
    boards, each counted ``mult`` times (:func:`_tally_types` per board).

    Returns int64 ``(wins, ties, hands)`` per class, where ``hands`` counts (board, hero
    pair) deals, each against ``C(n_cards - 7, 2)`` opponent pairs.
    """
    n_boards = boards.shape[0]
    n_ranks = n_cards // _SUITS
    rank_class = _rank_classes(n_cards, class_of)
    n_blocks = min(N_BLOCKS, n_boards)
    out = (np.zeros((n_blocks, n_classes), np.int64), np.zeros((n_blocks, n_classes), np.int64),
           np.zeros((n_blocks, n_classes), np.int64))
    for pblk in prange(n_blocks):
        blk = np.int64(pblk)  # a prange index is unsigned in the parallel body: one signature
        work, types, suited = _scratch(n_cards)
        for bi in range(blk, n_boards, n_blocks):
            _board_types(boards[bi], n_ranks, types[0], types[1], types[2])
            _fill_suited(types[2], mult[bi], suited)
            _tally_types(boards[bi], types, suited, mult[bi], (tables, kmap, rank_class), work,
                         out, blk)
    return sum_blocks(out[0]), sum_blocks(out[1]), sum_blocks(out[2])


_CHOOSE3 = np.array([1, 3, 3, 1, 0], np.int64)
"""C(3, m): the ways to hold ``m`` cards of a rank in 3 given suits."""
_CHOOSE4 = np.array([1, 4, 6, 4, 1], np.int64)
"""C(4, m): the ways to hold ``m`` cards of a rank."""


@kernel(inline=True)
def _low_bit_index(x):
    """Index of the lowest set bit of ``x`` (non-zero)."""
    return np.int64(trailing_zeros(np.uint64(x)))


_MAX_GROUPS = 33
"""Board groups of one rank multiset: no flush suit (0), or 1 + the set of its distinct
ranks (5 bits) that hold the flush suit's card."""


@kernel
def _rank_multisets(n_ranks):
    """Every 5-card board's rank multiset (sorted ranks, none five times), one per row."""
    rows = []
    for a in range(n_ranks):
        for b in range(a, n_ranks):
            for c in range(b, n_ranks):
                for d in range(c, n_ranks):
                    for e in range(d, n_ranks):
                        if a != e:
                            rows.append((a, b, c, d, e))
    out = np.empty((len(rows), 5), np.int64)
    for i, r in enumerate(rows):
        for j in range(5):
            out[i, j] = r[j]
    return out


@kernel
def _suit_subsets():
    """``(k, i)`` -> the ``i``-th 4-bit suit mask with ``k`` bits (``-1`` past the last)."""
    out = np.full((5, 6), -1, np.int64)
    fill = np.zeros(5, np.int64)
    for m in range(16):
        k = _popcount4(m)
        out[k, fill[k]] = m
        fill[k] += 1
    return out


@kernel
def _multiset_groups(ranks, subsets, weight, first, suited_sum):
    """Walk every board with the rank multiset ``ranks`` (5 sorted ranks): count the boards
    of each group (``weight``), keep the suit masks of a group's first board (``first``,
    per distinct rank) and sum the suited combos left of every two distinct board ranks
    (``suited_sum``). Returns the number of distinct ranks and the ranks.

    Only boards with a flush suit add their suited combos one by one; group 0 (no flush
    suit) gets the sum over every board of the multiset, which is
    ``4 * C(3, m_i) * C(3, m_j) * prod C(4, m_l)`` for ranks held ``m_i`` and ``m_j``
    times, minus the flush boards' share (their suits off the flush suit, and the flush
    suit itself when both ranks leave it free)."""
    distinct = np.empty(5, np.int64)
    mult = np.zeros(5, np.int64)
    k = 0
    for i in range(5):
        if i == 0 or ranks[i] != ranks[i - 1]:
            distinct[k] = ranks[i]
            k += 1
        mult[k - 1] += 1
    weight[:] = 0
    suited_sum[:] = 0
    digit = np.zeros(5, np.int64)
    sel = np.empty(5, np.int64)
    while True:
        nibbles = 0  # the board's card count of suit s in bits 4s..4s+3
        for i in range(k):
            m = subsets[mult[i], digit[i]]
            sel[i] = m
            nibbles += (m & 1) | ((m & 2) << 3) | ((m & 4) << 6) | ((m & 8) << 9)
        flags = (nibbles + 0x5555) & 0x8888  # bit 4s + 3: suit s holds 3 or more cards
        g = 0
        if flags:
            f = _low_bit_index(flags) >> 2
            code = 0
            for i in range(k):
                code |= ((sel[i] >> f) & 1) << i
            g = 1 + code
            off = 15 & ~(1 << f)
            for i in range(k):
                for jj in range(i + 1, k):
                    free = ~sel[i] & ~sel[jj]
                    suited_sum[g, i, jj] += _popcount4(free & off)
                    suited_sum[0, i, jj] -= _popcount4(free & 15)  # taken back from group 0
        if weight[g] == 0:
            for i in range(k):
                first[g, i] = sel[i]
        weight[g] += 1
        # next choice of suits (an odometer over the distinct ranks)
        i = 0
        while i < k:
            digit[i] += 1
            if digit[i] < 6 and subsets[mult[i], digit[i]] >= 0:
                break
            digit[i] = 0
            i += 1
        if i == k:
            break
    boards = 1
    for i in range(k):
        boards *= _CHOOSE4[mult[i]]
    for i in range(k):
        for jj in range(i + 1, k):
            suited_sum[0, i, jj] += (4 * _CHOOSE3[mult[i]] * _CHOOSE3[mult[jj]] * boards
                                     // (_CHOOSE4[mult[i]] * _CHOOSE4[mult[jj]]))
    return k, distinct


@kernel(parallel=True)
def headsup_all(n_cards, class_of, n_classes, tables, kmap):
    """:func:`headsup_classes` over every 5-card board, without listing them.

    The tallies of a board depend on its rank multiset and on which of its ranks hold
    the flush suit's card (a suit with 3+ board cards), except the number of suited
    combos of two board ranks, which a sum over the boards gives. So each rank multiset
    walks its boards only to count them by group and sum those suited combos
    (:func:`_multiset_groups`), and each group is tallied once on its first board
    (:func:`_tally_types`): 42,783 groups for 52 cards instead of 134,459 suit orbits
    (2,598,960 boards). Same integer sums as every board one by one.
    """
    n_ranks = n_cards // _SUITS
    rank_class = _rank_classes(n_cards, class_of)
    multisets = _rank_multisets(n_ranks)
    subsets = _suit_subsets()
    n_ms = multisets.shape[0]
    n_blocks = min(N_BLOCKS, n_ms)
    out = (np.zeros((n_blocks, n_classes), np.int64), np.zeros((n_blocks, n_classes), np.int64),
           np.zeros((n_blocks, n_classes), np.int64))
    for pblk in prange(n_blocks):
        blk = np.int64(pblk)  # a prange index is unsigned in the parallel body: one signature
        work, types, suited = _scratch(n_cards)
        weight = np.zeros(_MAX_GROUPS, np.int64)
        first = np.zeros((_MAX_GROUPS, 5), np.int64)
        suited_sum = np.zeros((_MAX_GROUPS, 5, 5), np.int64)
        board = np.empty(5, np.uint8)  # card ids as in headsup_classes: one signature
        for mi in range(blk, n_ms, n_blocks):
            k, distinct = _multiset_groups(multisets[mi], subsets, weight, first, suited_sum)
            for g in range(_MAX_GROUPS):
                w = weight[g]
                if w == 0:
                    continue
                j = 0
                for i in range(k):
                    for s in range(_SUITS):
                        if (first[g, i] >> s) & 1:
                            board[j] = _SUITS * distinct[i] + s
                            j += 1
                _board_types(board, n_ranks, types[0], types[1], types[2])
                _fill_suited(types[2], w, suited)
                for i in range(k):
                    for jj in range(i + 1, k):
                        r1, r2 = distinct[i], distinct[jj]
                        suited[r2, r1] = suited_sum[g, i, jj]
                        suited[r1, r2] = suited_sum[g, i, jj]
                _tally_types(board, types, suited, w, (tables, kmap, rank_class), work, out, blk)
    return sum_blocks(out[0]), sum_blocks(out[1]), sum_blocks(out[2])


@kernel
def _multiway_chunk(state, size, n_opp, share, classes, showdown, out, row):
    """``size`` deals of :func:`multiway_classes` into row ``row`` of its outputs.

    ``state``: this stream's generator; ``n_opp``: random opponents; ``share[k]``: a
    ``k``-way tie's share in units of ``1/SHARE_LCM``; ``classes`` and ``showdown`` as in
    :func:`multiway_classes`; ``out = (y, x, yy, xx, xy, win, tie)``: its int64 (streams,
    classes) outputs. Returns the cards left after a deal.
    """
    n_cards, class_of, n_classes = classes
    tables, kmap = showdown
    y_out, x_out, yy_out, xx_out, xy_out, win_out, tie_out = out
    key = tables[0]
    n_deal = 5 + 2 * n_opp
    n_rest = n_cards - n_deal
    deck = np.arange(n_cards).astype(np.uint8)
    board = np.empty(5, np.uint8)
    ty = np.zeros(n_classes, np.int64)
    tx = np.zeros(n_classes, np.int64)
    for _t in range(size):
        _rng.deal(state, deck, n_cards, n_deal)
        bacc = EMPTY_ACC
        for i in range(5):
            board[i] = deck[i]
            bacc += key[deck[i]]
        best = np.int32(-1)
        n_best = 0
        for q in range(n_opp):
            a = deck[5 + 2 * q]
            b = deck[6 + 2 * q]
            s = kmap[score_hole(bacc + key[a] + key[b], board, a, b, tables)]
            n_best = 1 if s > best else (n_best + 1 if s == best else n_best)
            best = max(best, s)
        tie_share = share[n_best + 1]
        for x in range(n_deal, n_cards):
            a = deck[x]
            acc_a = bacc + key[a]
            for yv in range(x + 1, n_cards):
                b = deck[yv]
                s = kmap[score_hole(acc_a + key[b], board, a, b, tables)]
                hi = np.int64(a if a > b else b)
                lo = np.int64(b if a > b else a)
                cls = class_of[(hi * (hi - 1)) // 2 + lo]
                tx[cls] += 1
                if s > best:
                    ty[cls] += SHARE_LCM
                    win_out[row, cls] += 1
                elif s == best:
                    ty[cls] += tie_share
                    tie_out[row, cls] += 1
        for cls in range(n_classes):
            xv = tx[cls]
            if xv:
                yv2 = ty[cls]
                y_out[row, cls] += yv2
                x_out[row, cls] += xv
                yy_out[row, cls] += yv2 * yv2
                xx_out[row, cls] += xv * xv
                xy_out[row, cls] += xv * yv2
                ty[cls] = 0
                tx[cls] = 0
    return n_rest


@kernel(parallel=True)
def multiway_classes(keys, n_opps, cells, streams, trials, classes, showdown):
    """Monte Carlo tally of every starting class against ``n_opp`` random hands at once.

    Each deal draws a board and the opponents from the full deck, then scores
    every hole pair left for the hero: each is a draw of (hero, board, opponents)
    with no card in common, all equally likely, so per class the ratio
    ``sum(shares) / sum(hands)`` estimates its equity (a ratio estimator; its
    standard error comes from the per-deal sums). Shares are counted in units of
    1/2520 so every sum is an exact integer (at most 10 players). Stream ``streams[i]`` of cell ``cells[i]`` (its
    key ``keys[c]``, ``n_opps[c]`` opponents) deals ``trials[i]`` times. Returns int64
    arrays (streams, classes): ``y`` (shares), ``x`` (hands), ``yy``, ``xx``, ``xy``
    (sums of per-deal products), ``win`` and ``tie`` (hands won outright / tied).
    Scores pass through the showdown map ``kmap`` (RULES §1.3 kickers).

    ``keys``, ``n_opps``: per cell; ``cells``, ``streams``, ``trials``: per stream (the
    runner's items); ``classes = (n_cards, class_of, n_classes)``: the deck size, the
    starting class of each combo index (``hi * (hi - 1) / 2 + lo``) and the number of
    classes; ``showdown = (tables, kmap)``: the evaluator's kernel tables and the showdown map.
    """
    n_cards, class_of, n_classes = classes
    tables, kmap = showdown
    n_streams = streams.shape[0]
    y_out = np.zeros((n_streams, n_classes), np.int64)
    x_out = np.zeros((n_streams, n_classes), np.int64)
    yy_out = np.zeros((n_streams, n_classes), np.int64)
    xx_out = np.zeros((n_streams, n_classes), np.int64)
    xy_out = np.zeros((n_streams, n_classes), np.int64)
    win_out = np.zeros((n_streams, n_classes), np.int64)
    tie_out = np.zeros((n_streams, n_classes), np.int64)
    for ci in prange(n_streams):
        c = cells[ci]
        n_opp = n_opps[c]
        share = np.zeros(n_opp + 2, np.int64)
        for k in range(1, n_opp + 2):
            share[k] = SHARE_LCM // k
        state = np.empty(4, np.uint64)
        _rng.seed_state(state, keys[c], streams[ci])
        _multiway_chunk(state, trials[ci], n_opp, share, (n_cards, class_of, n_classes),
                        (tables, kmap), (y_out, x_out, yy_out, xx_out, xy_out, win_out, tie_out),
                        np.int64(ci))
    return y_out, x_out, yy_out, xx_out, xy_out, win_out, tie_out
