"""Numba kernels of the equity engine: exact enumeration and Monte Carlo. Arrays and scalars only.

Every kernel returns *sufficient statistics* rather than equities, so the Python
side can merge chunks and compute standard errors:

- ``wins[p, k]``: deals (or weight) in which player ``p`` is one of exactly ``k``
  players holding the best hand (``k = 1`` is an outright win). A player's pot
  share in such a deal is ``1/k``, so equity is ``sum_k wins[p, k] / k / n`` and
  the mean squared share is ``sum_k wins[p, k] / k**2 / n``;
- ``cats[p, c]``: deals in which ``p`` wins or shares with a hand of category ``c``;
- the number of deals.

Monte Carlo kernels count in integers per fixed-size chunk, each chunk with its
own generator stream (:mod:`analysis.core.rng`), so totals are bit-identical whatever
the number of threads. Exact kernels are split into work units assigned to a
fixed number of blocks, each with its own accumulator row, summed in order.

``tables`` is always ``evaluator.tables.get_tables(game).kernel_args``.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from analysis.core.combinations import next_combination
from evaluator.block_sums import sum_blocks
from evaluator.jit import kernel
from evaluator.kernels import hash_score, score_acc

from ._scoring import (
    _ONE,
    EMPTY_ACC,
    N_BLOCKS,
    N_CATEGORIES,
    _score_row,
    _tally,
    orbit_weight,
)

# -- exact: every player's two cards known ------------------------------------------------


@kernel
def _fixed_units(n, k):
    """Work units of an enumeration of ``k``-card boards from ``n`` cards: the first two
    positions (``k >= 2``), the first position (``k == 1``) or a single empty unit."""
    if k >= 2:
        m = 0
        for i0 in range(n - k + 1):
            m += n - k + 1 - i0
        units = np.empty((m, 2), np.int64)
        u = 0
        for i0 in range(n - k + 1):
            for i1 in range(i0 + 1, n - k + 2):
                units[u, 0] = i0
                units[u, 1] = i1
                u += 1
        return units
    if k == 1:
        units = np.empty((n, 2), np.int64)
        for i in range(n):
            units[i, 0] = i
            units[i, 1] = -1
        return units
    units = np.full((1, 2), -1, np.int64)
    return units


@kernel(parallel=True)
def exact_fixed(hands, board, n_known, avail, perms, tables):
    """Exact enumeration of every completion of the board for players with known hands.

    ``hands`` (P, 2) uint8, ``board`` uint8[5] with ``n_known`` known cards first,
    ``avail`` the sorted cards the rest of the board can come from, ``perms`` (G, 4)
    the suit permutations (identity first) that fix every hand, the known board and
    ``avail``: of each orbit of completions only the smallest is scored, weighted by
    the orbit's size (:func:`orbit_weight`; a single permutation skips the test).
    Returns ``(wins (P, P+1), cats (P, 9), deals)`` as int64. Board partial sums are
    kept per player and depth, so each deal costs one addition and one lookup per player.
    """
    n_players = hands.shape[0]
    n = avail.shape[0]
    k = 5 - n_known
    key = tables[0]
    units = _fixed_units(n, k)
    n_units = units.shape[0]
    n_blocks = min(N_BLOCKS, n_units)
    wins = np.zeros((n_blocks, n_players, n_players + 1), np.int64)
    cats = np.zeros((n_blocks, n_players, N_CATEGORIES), np.int64)
    deals = np.zeros(n_blocks, np.int64)
    base = np.empty(n_players, np.uint64)
    for p in range(n_players):
        acc = EMPTY_ACC + key[hands[p, 0]] + key[hands[p, 1]]
        for i in range(n_known):
            acc += key[board[i]]
        base[p] = acc
    n_prefix = 2 if k >= 2 else k
    r = k - n_prefix  # cards enumerated inside a unit (0..3)
    sym = perms.shape[0] > 1
    for blk in prange(n_blocks):
        buf = np.empty((n_players, 7), np.uint8)
        for p in range(n_players):
            buf[p, 0] = hands[p, 0]
            buf[p, 1] = hands[p, 1]
            for i in range(n_known):
                buf[p, 2 + i] = board[i]
        sc = np.empty(n_players, np.int32)
        acc0 = np.empty(n_players, np.uint64)
        part = np.empty((max(r, 1), n_players), np.uint64)
        mpart = np.zeros(max(r, 1), np.uint64)  # mpart[d]: mask of the completion to depth d
        idx = np.empty(max(r, 1), np.int64)
        for u in range(blk, n_units, n_blocks):
            start = 0
            mask0 = np.uint64(0)
            for p in range(n_players):
                acc0[p] = base[p]
            for j in range(n_prefix):
                c = avail[units[u, j]]
                mask0 |= _ONE << np.uint64(c)
                for p in range(n_players):
                    acc0[p] += key[c]
                    buf[p, 2 + n_known + j] = c
                start = units[u, j] + 1
            if r == 0:
                w = orbit_weight(mask0, perms) if sym else 1
                if w == 0:
                    continue
                for p in range(n_players):
                    sc[p] = _score_row(acc0[p], buf, p, 7, tables)
                _tally(sc, n_players, wins, cats, blk, w)
                deals[blk] += w
                continue
            pos0 = 2 + n_known + n_prefix
            # outer levels 0..r-2 held in idx/part; level r-1 is the inner loop
            for d in range(r - 1):
                idx[d] = start + d
                c = avail[idx[d]]
                mpart[d] = (mask0 if d == 0 else mpart[d - 1]) | (_ONE << np.uint64(c))
                for p in range(n_players):
                    prev = acc0[p] if d == 0 else part[d - 1, p]
                    part[d, p] = prev + key[c]
                    buf[p, pos0 + d] = c
            while True:
                first = idx[r - 2] + 1 if r >= 2 else start
                prev_mask = mask0 if r == 1 else mpart[r - 2]
                for last in range(first, n):
                    c = avail[last]
                    w = orbit_weight(prev_mask | (_ONE << np.uint64(c)), perms) if sym else 1
                    if w == 0:
                        continue
                    for p in range(n_players):
                        prev = acc0[p] if r == 1 else part[r - 2, p]
                        buf[p, pos0 + r - 1] = c
                        sc[p] = _score_row(prev + key[c], buf, p, 7, tables)
                    _tally(sc, n_players, wins, cats, blk, w)
                    deals[blk] += w
                j = r - 2
                while j >= 0 and idx[j] == n - r + j:
                    j -= 1
                if j < 0:
                    break
                idx[j] += 1
                for t in range(j, r - 1):
                    if t > j:
                        idx[t] = idx[t - 1] + 1
                    c = avail[idx[t]]
                    mpart[t] = (mask0 if t == 0 else mpart[t - 1]) | (_ONE << np.uint64(c))
                    for p in range(n_players):
                        prev = acc0[p] if t == 0 else part[t - 1, p]
                        part[t, p] = prev + key[c]
                        buf[p, pos0 + t] = c
    return sum_blocks(wins), sum_blocks(cats), deals.sum()


@kernel
def flush_boards(avail, need, k):
    """Completions of ``k`` board cards from ``avail`` with at least ``need[s]`` cards of suit ``s``
    for some suit (the boards on which some player can make a flush).

    The caller guarantees no completion can reach ``need`` in two suits at once,
    so the sets for different suits are disjoint.
    """
    n = avail.shape[0]
    total = 0
    for s in range(4):
        if need[s] > k:
            continue
        n_s = 0
        for i in range(n):
            if avail[i] & 3 == s:
                n_s += 1
        n_o = n - n_s
        for j in range(max(need[s], 0), min(k, n_s) + 1):
            total += _choose(n_s, j) * _choose(n_o, k - j)
    out = np.empty((total, max(k, 1)), np.uint8)
    row = 0
    for s in range(4):
        if need[s] > k:
            continue
        same = np.empty(n, np.uint8)
        other = np.empty(n, np.uint8)
        n_s = 0
        n_o = 0
        for i in range(n):
            if avail[i] & 3 == s:
                same[n_s] = avail[i]
                n_s += 1
            else:
                other[n_o] = avail[i]
                n_o += 1
        for j in range(max(need[s], 0), min(k, n_s) + 1):
            cs = combinations(same[:n_s], j)
            co = combinations(other[:n_o], k - j)
            for a in range(cs.shape[0]):
                for b in range(co.shape[0]):
                    for t in range(j):
                        out[row, t] = cs[a, t]
                    for t in range(k - j):
                        out[row, j + t] = co[b, t]
                    row += 1
    return out[:, :k]


@kernel
def _rank_tuples(n_ranks, k):
    """Every non-decreasing ``k``-tuple of ranks ``0..n_ranks-1`` (rank multisets), as rows."""
    out = np.empty((_choose(n_ranks + k - 1, k), max(k, 1)), np.int64)
    idx = np.zeros(max(k, 1), np.int64)
    row = 0
    while True:
        for j in range(k):
            out[row, j] = idx[j]
        row += 1
        j = k - 1
        while j >= 0 and idx[j] == n_ranks - 1:
            j -= 1
        if j < 0:
            break
        idx[j] += 1
        for t in range(j + 1, k):
            idx[t] = idx[j]
    return out


@kernel
def _flush_classes_pass(avail, need, k, suit_weight, n_ranks, rows, weights, fill):
    """Count (``fill`` False) or write the rows of :func:`flush_board_classes`."""
    n = avail.shape[0]
    row = 0
    same = np.empty(n, np.uint8)
    other = np.zeros((n_ranks, 4), np.uint8)  # other[r, i]: i-th avail card of rank r off suit s
    n_other = np.zeros(n_ranks, np.int64)
    for s in range(4):
        if suit_weight[s] == 0 or need[s] > k:
            continue
        n_s = 0
        n_other[:] = 0
        for i in range(n):
            c = avail[i]
            if c & 3 == s:
                same[n_s] = c
                n_s += 1
            else:
                r = c >> 2
                other[r, n_other[r]] = c
                n_other[r] += 1
        for j in range(max(need[s], 0), min(k, n_s) + 1):
            suited = combinations(same[:n_s], j)
            ranks = _rank_tuples(n_ranks, k - j)
            for b in range(ranks.shape[0]):
                ways = np.int64(suit_weight[s])
                t = 0
                while t < k - j:
                    m = 1
                    while t + m < k - j and ranks[b, t + m] == ranks[b, t]:
                        m += 1
                    ways *= _choose(n_other[ranks[b, t]], m)
                    t += m
                if ways == 0:
                    continue
                for a in range(suited.shape[0]):
                    if fill:
                        for t in range(j):
                            rows[row, t] = suited[a, t]
                        t = 0
                        while t < k - j:  # the first m cards of each rank stand for all
                            r = ranks[b, t]
                            m = 0
                            while t + m < k - j and ranks[b, t + m] == r:
                                rows[row, j + t + m] = other[r, m]
                                m += 1
                            t += m
                        weights[row] = ways
                    row += 1
    return row


@kernel
def flush_board_classes(avail, need, k, suit_weight, n_ranks):
    """The completions of :func:`flush_boards` in classes scored alike, with their sizes.

    A board with at least ``need[s]`` cards of suit ``s`` (the only suit anyone can
    flush in, as :func:`flush_boards` requires) scores the same for every player
    whatever the suits of its other cards: only their ranks and its suit-``s`` cards
    count. So each choice of suit-``s`` cards and rank multiset of the others is one
    row (real cards: the first available ones of each rank), weighted by the number
    of boards it stands for. Suits with ``suit_weight[s]`` 0 are skipped: they are in
    the orbit of a suit counted ``suit_weight`` times under the suit permutations that
    fix the known cards. Returns ``(rows uint8 (B, k), weights int64[B])``.
    """
    empty_rows = np.empty((0, max(k, 1)), np.uint8)
    empty_w = np.empty(0, np.int64)
    total = _flush_classes_pass(avail, need, k, suit_weight, n_ranks, empty_rows, empty_w, False)
    rows = np.empty((total, max(k, 1)), np.uint8)
    weights = np.empty(total, np.int64)
    _flush_classes_pass(avail, need, k, suit_weight, n_ranks, rows, weights, True)
    return rows[:, :k], weights


@kernel(inline=True)
def _choose(n, k):
    """The binomial coefficient C(n, k) (0 outside 0 <= k <= n), exact in int64 for the deck sizes used."""
    if k < 0 or k > n:
        return 0
    r = 1
    for i in range(k):
        r = r * (n - i) // (i + 1)
    return r


@kernel(parallel=True)
def exact_fixed_split(hands, board, n_known, avail, fboards, fweights, n_ranks, tables):
    """Exact enumeration for known hands, split by suits: the same result as :func:`exact_fixed`
    with far fewer evaluations.

    A board on which nobody can make a flush scores every hand from ranks alone,
    so all such boards with the same rank multiset give the same outcome: each
    multiset is scored once, weighted by its number of boards. ``fboards`` lists
    the boards on which somebody can make a flush (:func:`flush_boards`); they
    are scored in full, and their rank-only outcome is subtracted again, each
    with its weight ``fweights`` (the boards it stands for, :func:`flush_board_classes`).
    """
    n_players = hands.shape[0]
    n = avail.shape[0]
    k = 5 - n_known
    key = tables[0]
    n_f = fboards.shape[0]
    n_blocks = max(1, min(N_BLOCKS, n_f))
    wins = np.zeros((n_blocks + 1, n_players, n_players + 1), np.int64)
    cats = np.zeros((n_blocks + 1, n_players, N_CATEGORIES), np.int64)
    deals = np.zeros(n_blocks + 1, np.int64)
    base = np.empty(n_players, np.uint64)
    for p in range(n_players):
        acc = EMPTY_ACC + key[hands[p, 0]] + key[hands[p, 1]]
        for i in range(n_known):
            acc += key[board[i]]
        base[p] = acc
    # boards by rank multiset (row n_blocks of the accumulators)
    avail_rank = np.zeros(n_ranks, np.int64)
    for i in range(n):
        avail_rank[avail[i] >> 2] += 1
    sc = np.empty(n_players, np.int32)
    idx = np.zeros(max(k, 1), np.int64)
    while True:
        ways = 1
        low = np.uint64(0)
        j = 0
        while j < k:
            r = idx[j]
            m = 1
            while j + m < k and idx[j + m] == r:
                m += 1
            ways *= _choose(avail_rank[r], m)
            low += key[r * 4] * np.uint64(m)
            j += m
        if ways:
            for p in range(n_players):
                sc[p] = hash_score(base[p] + low, tables)
            _tally(sc, n_players, wins, cats, n_blocks, ways)
            deals[n_blocks] += ways
        j = k - 1
        while j >= 0 and idx[j] == n_ranks - 1:
            j -= 1
        if j < 0:
            break
        idx[j] += 1
        for t in range(j + 1, k):
            idx[t] = idx[j]
    # flush-capable boards: full score in, rank-only score out
    for blk in prange(n_blocks):
        buf = np.empty((n_players, 7), np.uint8)
        for p in range(n_players):
            buf[p, 0] = hands[p, 0]
            buf[p, 1] = hands[p, 1]
            for i in range(n_known):
                buf[p, 2 + i] = board[i]
        sf = np.empty(n_players, np.int32)
        sr = np.empty(n_players, np.int32)
        for b in range(blk, n_f, n_blocks):
            w = fweights[b]
            bacc = np.uint64(0)
            for t in range(k):
                c = fboards[b, t]
                bacc += key[c]
                for p in range(n_players):
                    buf[p, 2 + n_known + t] = c
            for p in range(n_players):
                acc = base[p] + bacc
                sf[p] = _score_row(acc, buf, p, 7, tables)
                sr[p] = hash_score(acc, tables)
            _tally(sf, n_players, wins, cats, blk, w)
            _tally(sr, n_players, wins, cats, blk, -w)
    return sum_blocks(wins), sum_blocks(cats), deals.sum()


# -- exact: ranges -------------------------------------------------------------------------


@kernel
def combinations(avail, k):
    """All ``k``-subsets of ``avail`` as rows of a uint8 array, in lexicographic order."""
    n = avail.shape[0]
    total = 1
    for i in range(k):
        total = total * (n - i) // (i + 1)
    out = np.empty((total, max(k, 1)), np.uint8)
    if k == 0:
        return out[:, :0]
    idx = np.arange(k)
    row = 0
    while True:
        for j in range(k):
            out[row, j] = avail[idx[j]]
        row += 1
        if not next_combination(idx, 0, k, n):
            break
    return out


@kernel
def compatible_tuples(combo_mask, offsets, weights, base_mask, cap):
    """Every choice of one combo per player with no card in common (and none in ``base_mask``).

    ``offsets[p]:offsets[p+1]`` is player ``p``'s segment of the flat combo arrays.
    Returns ``(count, tuples (T, P) int32 flat indices, masks uint64[T], weights float64[T])``;
    when more than ``cap`` tuples exist only the count (``cap + 1``) is meaningful.
    """
    n_players = offsets.shape[0] - 1
    cnt = 0
    size = 1024
    tuples = np.empty((size, n_players), np.int32)
    masks = np.empty(size, np.uint64)
    ws = np.empty(size, np.float64)
    idx = np.empty(n_players, np.int64)
    used = np.empty(n_players + 1, np.uint64)
    wacc = np.empty(n_players + 1, np.float64)
    used[0] = base_mask
    wacc[0] = 1.0
    p = 0
    idx[0] = offsets[0] - 1
    while p >= 0:
        idx[p] += 1
        if idx[p] >= offsets[p + 1]:
            p -= 1
            continue
        m = combo_mask[idx[p]]
        if m & used[p]:
            continue
        used[p + 1] = used[p] | m
        wacc[p + 1] = wacc[p] * weights[idx[p]]
        if p == n_players - 1:
            if cnt < cap:
                if cnt == size:
                    size *= 2
                    nt = np.empty((size, n_players), np.int32)
                    nt[:cnt] = tuples[:cnt]
                    tuples = nt
                    nm = np.empty(size, np.uint64)
                    nm[:cnt] = masks[:cnt]
                    masks = nm
                    nw = np.empty(size, np.float64)
                    nw[:cnt] = ws[:cnt]
                    ws = nw
                for q in range(n_players):
                    tuples[cnt, q] = idx[q]
                masks[cnt] = used[p + 1] & ~base_mask
                ws[cnt] = wacc[p + 1]
            cnt += 1
            if cnt > cap:
                break
        else:
            p += 1
            idx[p] = offsets[p] - 1
    n_out = min(cnt, cap)
    return cnt, tuples[:n_out].copy(), masks[:n_out].copy(), ws[:n_out].copy()


@kernel(parallel=True)
def exact_ranges(ranges, matchups, completions, tables):
    """Exact enumeration over every board completion (rows of ``boards``) and every
    compatible tuple of combos (one per player), weighted by the product of weights.

    ``ranges = (combos, combo_mask, offsets)``: every player's combos, flat (``(C, 2)`` card
    ids and uint64 card masks; player ``p`` owns ``offsets[p]:offsets[p+1]``);
    ``matchups = (tuples, tuple_mask, tuple_weight)``: :func:`compatible_tuples`' output (flat
    combo indices per player, the cards they hold, their weights); ``completions = (board,
    n_known, boards)``: the known board (its first ``n_known`` cards) and every completion of it;
    ``tables``: the evaluator's kernel tables.

    Each combo is scored once per board; tuples then only compare scores. Returns
    ``(wins (P, P+1), cats (P, 9), weight, deals)``: float64 weights and the int64
    number of (board, tuple) deals.
    """
    combos, combo_mask, offsets = ranges
    tuples, tuple_mask, tuple_weight = matchups
    board, n_known, boards = completions
    n_players = offsets.shape[0] - 1
    n_combos = combos.shape[0]
    n_boards = boards.shape[0]
    k = boards.shape[1]
    key = tables[0]
    n_tuples = tuples.shape[0]
    n_blocks = min(N_BLOCKS, n_boards)
    wins = np.zeros((n_blocks, n_players, n_players + 1), np.float64)
    cats = np.zeros((n_blocks, n_players, N_CATEGORIES), np.float64)
    total = np.zeros(n_blocks, np.float64)
    deals = np.zeros(n_blocks, np.int64)
    known_acc = EMPTY_ACC
    for i in range(n_known):
        known_acc += key[board[i]]
    for blk in prange(n_blocks):
        buf = np.empty(7, np.uint8)
        for i in range(n_known):
            buf[2 + i] = board[i]
        scores = np.empty(n_combos, np.int32)
        sc = np.empty(n_players, np.int32)
        for b in range(blk, n_boards, n_blocks):
            bacc = known_acc
            bmask = np.uint64(0)
            for j in range(k):
                c = boards[b, j]
                bacc += key[c]
                bmask |= _ONE << np.uint64(c)
                buf[2 + n_known + j] = c
            for j in range(n_combos):
                if combo_mask[j] & bmask:
                    scores[j] = -1
                else:
                    buf[0] = combos[j, 0]
                    buf[1] = combos[j, 1]
                    scores[j] = score_acc(bacc + key[combos[j, 0]] + key[combos[j, 1]], buf, 7, tables)
            for t in range(n_tuples):
                if tuple_mask[t] & bmask:
                    continue
                for p in range(n_players):
                    sc[p] = scores[tuples[t, p]]
                w = tuple_weight[t]
                _tally(sc, n_players, wins, cats, blk, w)
                total[blk] += w
                deals[blk] += 1
    return sum_blocks(wins), sum_blocks(cats), total.sum(), deals.sum()
