"""Kernels of the starting-hand tables: exact heads-up by suit-symmetric board orbits, and
multiway Monte Carlo scoring every hole pair left per deal (ratio-estimator sums)."""

from __future__ import annotations

import numpy as np
from numba import prange

from analysis.core import rng as _rng
from evaluator._kernels import score_acc
from evaluator.jit import kernel

from .equity._scoring import (
    _INIT,
    _ONE,
    N_BLOCKS,
    SHARE_LCM,
    _score_hole,
)


@kernel
def _image_mask(cards, k, perm):
    m = np.uint64(0)
    for i in range(k):
        c = cards[i]
        m |= _ONE << np.uint64((c >> 2) * 4 + perm[c & 3])
    return m


@kernel
def _board_orbit(cards, perms):
    """0 if ``cards`` (5 ids) is not the smallest mask of its suit orbit, else the orbit size."""
    own = np.uint64(0)
    for i in range(5):
        own |= _ONE << np.uint64(cards[i])
    stab = 0
    for q in range(perms.shape[0]):
        im = _image_mask(cards, 5, perms[q])
        if im < own:
            return 0
        if im == own:
            stab += 1
    return perms.shape[0] // stab


@kernel(parallel=True)
def _canonical_pass(n_cards, perms, counts, offsets, boards, mult, fill):
    for a in prange(n_cards - 4):
        cards = np.empty(5, np.int64)
        row = offsets[a]
        cards[0] = a
        for b in range(a + 1, n_cards):
            cards[1] = b
            for c in range(b + 1, n_cards):
                cards[2] = c
                for d in range(c + 1, n_cards):
                    cards[3] = d
                    for e in range(d + 1, n_cards):
                        cards[4] = e
                        size = _board_orbit(cards, perms)
                        if size:
                            if fill:
                                for i in range(5):
                                    boards[row, i] = cards[i]
                                mult[row] = size
                                row += 1
                            else:
                                counts[a] += 1


@kernel
def canonical_boards(n_cards, perms):
    """Five-card boards up to suit permutation: one representative per orbit and its size.

    A board is kept when its card mask is the smallest among its images under the
    suit permutations ``perms`` (24, 4); its multiplicity is 24 / |stabiliser|.
    Any statistic summed over all hole cards of a suit-symmetric class (like a
    starting-hand class) is the same on every board of an orbit.
    """
    n_first = n_cards - 4
    counts = np.zeros(n_first, np.int64)
    offsets = np.zeros(n_first + 1, np.int64)
    boards = np.empty((0, 5), np.uint8)
    mult = np.empty(0, np.int64)
    _canonical_pass(n_cards, perms, counts, offsets, boards, mult, False)
    for i in range(n_first):
        offsets[i + 1] = offsets[i] + counts[i]
    boards = np.empty((offsets[n_first], 5), np.uint8)
    mult = np.empty(offsets[n_first], np.int64)
    _canonical_pass(n_cards, perms, counts, offsets, boards, mult, True)
    return boards, mult


@kernel
def _sort_by_score(keys, tmp, counts):
    """Sort ``keys`` (``score << 16 | pair``, scores below 2**16) by score, by two stable
    counting passes over the score's bytes (``tmp`` the same size, ``counts`` 256): a few
    microseconds for a board's ~1,000 pairs where ``np.sort`` took ~20. The result is in
    ``keys``."""
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
"""Low bits of a sort key: the index of a card-type pair (below 2**16)."""
_PAIR_MASK = (1 << _PAIR_BITS) - 1
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


@kernel(parallel=True)
def headsup_classes(boards, mult, n_cards, class_of, n_classes, tables, kmap):
    """Exact heads-up tally of every starting class against one random hand.

    For each board (with its orbit multiplicity) the cards left fall into at most
    ``2R`` card types (:func:`_board_types`); each pair of types is scored once (with
    its showdown map ``kmap``: every kicker, or the top one) and the type pairs are
    sorted by score (:func:`_sort_by_score`). Sweeping the scores while counting, per
    type, the combos already passed that hold one given card of it gives each combo's
    number of beaten and tied opponent combos that share no card with it
    (inclusion-exclusion over its two cards). Each type pair's combos are then split
    into starting classes (suited or not from the suits left). Returns int64
    ``(wins, ties, hands)`` per class, where ``hands`` counts (board, hero pair) deals,
    each against ``C(n_cards - 7, 2)`` opponent pairs.
    """
    n_boards = boards.shape[0]
    key = tables[0]
    n_ranks = n_cards // _SUITS
    n_types = 2 * n_ranks
    rank_class = _rank_classes(n_cards, class_of)
    n_blocks = min(N_BLOCKS, n_boards)
    wins = np.zeros((n_blocks, n_classes), np.int64)
    ties = np.zeros((n_blocks, n_classes), np.int64)
    hands = np.zeros((n_blocks, n_classes), np.int64)
    n_max = n_types * (n_types + 1) // 2
    for blk in prange(n_blocks):
        order = np.empty(n_max, np.int64)
        tmp = np.empty(n_max, np.int64)
        counts = np.empty(256, np.int64)
        count = np.zeros(n_types, np.int64)
        rep = np.zeros((n_types, 2), np.int64)
        avail = np.zeros(n_ranks, np.int64)
        lt = np.zeros(n_types, np.int64)
        eq = np.zeros(n_types, np.int64)
        buf = np.empty(7, np.uint8)
        for bi in range(blk, n_boards, n_blocks):
            bacc = _INIT
            for i in range(5):
                c = boards[bi, i]
                bacc += key[c]
                buf[2 + i] = c
            _board_types(boards[bi], n_ranks, count, rep, avail)
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
                    order[j] = (np.int64(s) << _PAIR_BITS) | (t2 * n_types + t1)
                    j += 1
            _sort_by_score(order[:j], tmp[:j], counts)
            w = mult[bi]
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
                    p = order[g] & _PAIR_MASK
                    t2, t1 = divmod(p, n_types)
                    if t1 == t2:
                        size += count[t1] * (count[t1] - 1) // 2
                        eq[t1] += count[t1] - 1
                    else:
                        size += count[t1] * count[t2]
                        eq[t1] += count[t2]
                        eq[t2] += count[t1]
                for g in range(g0, g1):
                    p = order[g] & _PAIR_MASK
                    t2, t1 = divmod(p, n_types)
                    won = w * (below - lt[t1] - lt[t2])
                    tied = w * (size - eq[t1] - eq[t2] + 1)
                    r1, r2 = t1 >> 1, t2 >> 1
                    if t1 == t2:
                        n_off, n_suited = count[t1] * (count[t1] - 1) // 2, 0
                    elif (t1 & 1) and (t2 & 1):  # both in the flush suit
                        n_off, n_suited = 0, 1
                    elif (t1 & 1) or (t2 & 1) or r1 == r2:
                        n_off, n_suited = count[t1] * count[t2], 0
                    else:
                        n_suited = _popcount4(avail[r1] & avail[r2])
                        n_off = count[t1] * count[t2] - n_suited
                    if n_off:
                        cls = rank_class[r2, r1, 0]
                        wins[blk, cls] += n_off * won
                        ties[blk, cls] += n_off * tied
                        hands[blk, cls] += n_off * w
                    if n_suited:
                        cls = rank_class[r2, r1, 1]
                        wins[blk, cls] += n_suited * won
                        ties[blk, cls] += n_suited * tied
                        hands[blk, cls] += n_suited * w
                for g in range(g0, g1):
                    p = order[g] & _PAIR_MASK
                    t2, t1 = divmod(p, n_types)
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
    return wins.sum(axis=0), ties.sum(axis=0), hands.sum(axis=0)


@kernel(inline=True)
def _popcount4(m):
    return (m & 1) + ((m >> 1) & 1) + ((m >> 2) & 1) + ((m >> 3) & 1)


@kernel
def _multiway_chunk(state, size, n_opp, n_cards, class_of, tables, kmap, share,
                    y_out, x_out, yy_out, xx_out, xy_out, win_out, tie_out, row):
    """``size`` deals of :func:`multiway_classes` into row ``row`` of its outputs."""
    key = tables[0]
    n_classes = y_out.shape[1]
    n_deal = 5 + 2 * n_opp
    n_rest = n_cards - n_deal
    deck = np.arange(n_cards).astype(np.uint8)
    board = np.empty(5, np.uint8)
    ty = np.zeros(n_classes, np.int64)
    tx = np.zeros(n_classes, np.int64)
    for _t in range(size):
        _rng.deal(state, deck, n_cards, n_deal)
        bacc = _INIT
        for i in range(5):
            board[i] = deck[i]
            bacc += key[deck[i]]
        best = np.int32(-1)
        n_best = 0
        for q in range(n_opp):
            a = deck[5 + 2 * q]
            b = deck[6 + 2 * q]
            s = kmap[_score_hole(bacc + key[a] + key[b], board, a, b, tables)]
            n_best = 1 if s > best else (n_best + 1 if s == best else n_best)
            best = max(best, s)
        tie_share = share[n_best + 1]
        for x in range(n_deal, n_cards):
            a = deck[x]
            acc_a = bacc + key[a]
            for yv in range(x + 1, n_cards):
                b = deck[yv]
                s = kmap[_score_hole(acc_a + key[b], board, a, b, tables)]
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
def multiway_classes(keys, n_opps, cells, streams, trials, n_cards, class_of, n_classes, tables,
                     kmap):
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
    """
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
        _multiway_chunk(state, trials[ci], n_opp, n_cards, class_of, tables, kmap, share,
                        y_out, x_out, yy_out, xx_out, xy_out, win_out, tie_out, ci)
    return y_out, x_out, yy_out, xx_out, xy_out, win_out, tie_out
