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
from numba.cpython.unsafe.numbers import trailing_zeros

from analysis.core import rng as _rng
from evaluator._kernels import hash_score, score_acc
from evaluator.jit import kernel
from evaluator.tables import CATEGORY_SHIFT, FLUSH_BITS, FLUSH_INIT, SUIT_SHIFT

_INIT = np.uint64(FLUSH_INIT)
_ONE = np.uint64(1)
_FLUSH = np.uint64(FLUSH_BITS)
_SUIT_SHIFT = np.uint64(SUIT_SHIFT)
_TWO = np.uint64(2)
N_CATEGORIES = 9
N_BLOCKS = 256
"""Accumulator rows of the exact kernels (work units are dealt to them round-robin)."""
SHARE_LCM = 2520
"""Least common multiple of 1..10: a pot share 1/k (k <= 10 players) times this is an integer."""


@kernel(inline=True)
def _score_row(acc, cards, row, n, tables):
    """:func:`evaluator._kernels.score_acc` of row ``row`` of a 2-D card buffer (no view is made)."""
    if (acc >> _SUIT_SHIFT) & _FLUSH:
        suit = np.int64(trailing_zeros((acc >> _SUIT_SHIFT) & _FLUSH) >> _TWO)
        mask = np.int64(0)
        for i in range(n):
            c = np.int64(cards[row, i])
            if (c & 3) == suit:
                mask |= np.int64(1) << (c >> 2)
        return np.int32(tables[-1][mask])
    return hash_score(acc, tables)


@kernel(inline=True)
def _score_hole(acc, board, a, b, tables):
    """Score of five board cards ``board[:5]`` plus hole cards ``a``, ``b`` (accumulator ``acc``)."""
    if (acc >> _SUIT_SHIFT) & _FLUSH:
        suit = trailing_zeros((acc >> _SUIT_SHIFT) & _FLUSH) >> 2
        mask = 0
        for i in range(5):
            c = board[i]
            if (c & 3) == suit:
                mask |= 1 << (c >> 2)
        if (a & 3) == suit:
            mask |= 1 << (a >> 2)
        if (b & 3) == suit:
            mask |= 1 << (b >> 2)
        return np.int32(tables[-1][mask])
    return hash_score(acc, tables)


@kernel(inline=True)
def _tally(sc, n_players, wins, cats, row, weight):
    """Add one deal with scores ``sc[:n_players]`` to ``wins[row]`` and ``cats[row]``."""
    best = sc[0]
    for p in range(1, n_players):
        if sc[p] > best:
            best = sc[p]
    cnt = 0
    for p in range(n_players):
        if sc[p] == best:
            cnt += 1
    cat = best >> CATEGORY_SHIFT
    for p in range(n_players):
        if sc[p] == best:
            wins[row, p, cnt] += weight
            cats[row, p, cat] += weight


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
def exact_fixed(hands, board, n_known, avail, tables):
    """Exact enumeration of every completion of the board for players with known hands.

    ``hands`` (P, 2) uint8, ``board`` uint8[5] with ``n_known`` known cards first,
    ``avail`` the sorted cards the rest of the board can come from. Returns
    ``(wins (P, P+1), cats (P, 9), deals)`` as int64. Board partial sums are kept
    per player and depth, so each deal costs one addition and one lookup per player.
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
        acc = _INIT + key[hands[p, 0]] + key[hands[p, 1]]
        for i in range(n_known):
            acc += key[board[i]]
        base[p] = acc
    n_prefix = 2 if k >= 2 else k
    r = k - n_prefix  # cards enumerated inside a unit (0..3)
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
        idx = np.empty(max(r, 1), np.int64)
        for u in range(blk, n_units, n_blocks):
            start = 0
            for p in range(n_players):
                acc0[p] = base[p]
            for j in range(n_prefix):
                c = avail[units[u, j]]
                for p in range(n_players):
                    acc0[p] += key[c]
                    buf[p, 2 + n_known + j] = c
                start = units[u, j] + 1
            if r == 0:
                for p in range(n_players):
                    sc[p] = _score_row(acc0[p], buf, p, 7, tables)
                _tally(sc, n_players, wins, cats, blk, 1)
                deals[blk] += 1
                continue
            pos0 = 2 + n_known + n_prefix
            # outer levels 0..r-2 held in idx/part; level r-1 is the inner loop
            for d in range(r - 1):
                idx[d] = start + d
                c = avail[idx[d]]
                for p in range(n_players):
                    prev = acc0[p] if d == 0 else part[d - 1, p]
                    part[d, p] = prev + key[c]
                    buf[p, pos0 + d] = c
            while True:
                first = idx[r - 2] + 1 if r >= 2 else start
                for last in range(first, n):
                    c = avail[last]
                    for p in range(n_players):
                        prev = acc0[p] if r == 1 else part[r - 2, p]
                        buf[p, pos0 + r - 1] = c
                        sc[p] = _score_row(prev + key[c], buf, p, 7, tables)
                    _tally(sc, n_players, wins, cats, blk, 1)
                    deals[blk] += 1
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
                    for p in range(n_players):
                        prev = acc0[p] if t == 0 else part[t - 1, p]
                        part[t, p] = prev + key[c]
                        buf[p, pos0 + t] = c
    return wins.sum(axis=0), cats.sum(axis=0), deals.sum()


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


@kernel(inline=True)
def _choose(n, k):
    if k < 0 or k > n:
        return 0
    r = 1
    for i in range(k):
        r = r * (n - i) // (i + 1)
    return r


@kernel(parallel=True)
def exact_fixed_split(hands, board, n_known, avail, fboards, n_ranks, tables):
    """Exact enumeration for known hands, split by suits: the same result as :func:`exact_fixed`
    with far fewer evaluations.

    A board on which nobody can make a flush scores every hand from ranks alone,
    so all such boards with the same rank multiset give the same outcome: each
    multiset is scored once, weighted by its number of boards. ``fboards`` lists
    the boards on which somebody can make a flush (:func:`flush_boards`); they
    are scored in full, and their rank-only outcome is subtracted again.
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
        acc = _INIT + key[hands[p, 0]] + key[hands[p, 1]]
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
            _tally(sf, n_players, wins, cats, blk, 1)
            _tally(sr, n_players, wins, cats, blk, -1)
    return wins.sum(axis=0), cats.sum(axis=0), deals.sum()


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
        j = k - 1
        while j >= 0 and idx[j] == n - k + j:
            j -= 1
        if j < 0:
            break
        idx[j] += 1
        for t in range(j + 1, k):
            idx[t] = idx[t - 1] + 1
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
def exact_ranges(combos, combo_mask, offsets, tuples, tuple_mask, tuple_weight,
                 board, n_known, boards, tables):
    """Exact enumeration over every board completion (rows of ``boards``) and every
    compatible tuple of combos (one per player), weighted by the product of weights.

    Each combo is scored once per board; tuples then only compare scores. Returns
    ``(wins (P, P+1), cats (P, 9), weight, deals)``: float64 weights and the int64
    number of (board, tuple) deals.
    """
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
    known_acc = _INIT
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
    return wins.sum(axis=0), cats.sum(axis=0), total.sum(), deals.sum()


# -- Monte Carlo -----------------------------------------------------------------------


HIST_MAX_PLAYERS = 10
"""Up to this many players, Monte Carlo deals are counted per winner set (one increment each)."""


@kernel(inline=True)
def _tally_mask(winners, cat, n_players, wins, cats, row):
    """Add one deal won by the player set ``winners`` (bit mask) with category ``cat``."""
    k = 0
    for p in range(n_players):
        k += (winners >> p) & 1
    for p in range(n_players):
        if (winners >> p) & 1:
            wins[row, p, k] += 1
            cats[row, p, cat] += 1


@kernel(inline=True)
def _hist_to_stats(hist, n_players, wins, cats, row):
    """Add a (winner-set mask, category) histogram to ``wins[row]`` and ``cats[row]``."""
    for mask in range(1, hist.shape[0]):
        k = 0
        for p in range(n_players):
            k += (mask >> p) & 1
        for c in range(N_CATEGORIES):
            v = hist[mask, c]
            if v:
                for p in range(n_players):
                    if (mask >> p) & 1:
                        wins[row, p, k] += v
                        cats[row, p, c] += v
                hist[mask, c] = 0


@kernel
def _mc_chunk(state, size, fixed, fixed_acc, range_combos, range_mask, range_cum, range_offsets,
              n_random, board, n_known, known_acc, deck, base_mask, max_reject, tables,
              wins, cats, hist, row):
    """``size`` Monte Carlo deals from ``state`` into ``wins[row]``, ``cats[row]`` (one chunk).

    Returns ``(deals, rejected)``; ``rejected < 0`` when it gave up on a range collision.
    A plain (not parallel) function: numba compiles it better than a ``prange`` body.
    """
    n_fixed = fixed.shape[0]
    n_range = range_offsets.shape[0] - 1
    n_players = n_fixed + n_range + n_random
    n_avail = deck.shape[0]
    nb = 5 - n_known
    k_deal = nb + 2 * n_random
    key = tables[0]
    use_hist = hist.shape[0] > 1
    buf = np.empty(5, np.uint8)
    for i in range(n_known):
        buf[i] = board[i]
    picked = np.empty(max(n_range, 1), np.int64)
    rejected = 0
    n_done = 0
    for _t in range(size):
        m = n_avail
        if n_range > 0:
            streak = 0
            while True:
                used = base_mask
                ok = True
                for r in range(n_range):
                    j = _rng.weighted_index(state, range_cum, range_offsets[r], range_offsets[r + 1])
                    if range_mask[j] & used:
                        ok = False
                        break
                    used |= range_mask[j]
                    picked[r] = j
                if ok:
                    break
                streak += 1
                rejected += 1
                if streak >= max_reject:
                    return n_done, -1
            for r in range(n_range):
                for h in range(2):
                    c = range_combos[picked[r], h]
                    for i in range(m):  # move the card out of the dealable part
                        if deck[i] == c:
                            deck[i] = deck[m - 1]
                            deck[m - 1] = c
                            m -= 1
                            break
        _rng.deal(state, deck, m, k_deal)
        bacc = known_acc
        for i in range(nb):
            c = deck[i]
            bacc += key[c]
            buf[n_known + i] = c
        # best score and the set of players holding it, without branches or a scores array
        best = np.int32(-1)
        winners = np.int64(0)
        for p in range(n_fixed):
            s = _score_hole(bacc + fixed_acc[p], buf, fixed[p, 0], fixed[p, 1], tables)
            bit = np.int64(1) << p
            winners = bit if s > best else (winners | bit if s == best else winners)
            best = max(best, s)
        for r in range(n_range):
            a = range_combos[picked[r], 0]
            b = range_combos[picked[r], 1]
            s = _score_hole(bacc + key[a] + key[b], buf, a, b, tables)
            bit = np.int64(1) << (n_fixed + r)
            winners = bit if s > best else (winners | bit if s == best else winners)
            best = max(best, s)
        for q in range(n_random):
            a = deck[nb + 2 * q]
            b = deck[nb + 2 * q + 1]
            s = _score_hole(bacc + key[a] + key[b], buf, a, b, tables)
            bit = np.int64(1) << (n_fixed + n_range + q)
            winners = bit if s > best else (winners | bit if s == best else winners)
            best = max(best, s)
        cat = best >> CATEGORY_SHIFT
        if use_hist:
            hist[winners, cat] += 1
        else:
            _tally_mask(winners, cat, n_players, wins, cats, row)
        n_done += 1
    if use_hist:
        _hist_to_stats(hist, n_players, wins, cats, row)
    return n_done, rejected


@kernel(parallel=True)
def monte_carlo(key_seed, streams, trials, players, deal, max_reject, tables):
    """Monte Carlo deals by streams: stream ``streams[i]`` deals ``trials[i]`` times from its
    own generator stream.

    ``players = (fixed, range_combos, range_mask, range_cum, range_offsets, n_random)``:
    fixed hands (``fixed`` (F, 2)), then range players (flat combos with per-segment
    cumulative weights; a deal is redrawn whole when two sampled combos collide,
    which samples the joint distribution exactly), then ``n_random`` players dealt
    from the deck. ``deal = (board, n_known, avail, base_mask)``: ``avail`` holds the
    cards not dead, not on the known board and not in a fixed hand. Returns per-stream
    ``wins (S, P, P+1)``, ``cats (S, P, 9)``, ``deals (S,)`` and ``rejected (S,)``
    (int64); ``rejected[i] < 0`` means stream ``i`` gave up after ``max_reject``
    consecutive collisions.
    """
    fixed, range_combos, range_mask, range_cum, range_offsets, n_random = players
    board, n_known, avail, base_mask = deal
    n_streams = streams.shape[0]
    n_fixed = fixed.shape[0]
    n_players = n_fixed + range_offsets.shape[0] - 1 + n_random
    key = tables[0]
    use_hist = n_players <= HIST_MAX_PLAYERS
    wins = np.zeros((n_streams, n_players, n_players + 1), np.int64)
    cats = np.zeros((n_streams, n_players, N_CATEGORIES), np.int64)
    deals = np.zeros(n_streams, np.int64)
    rejected = np.zeros(n_streams, np.int64)
    known_acc = _INIT
    for i in range(n_known):
        known_acc += key[board[i]]
    fixed_acc = np.empty(max(n_fixed, 1), np.uint64)
    for p in range(n_fixed):
        fixed_acc[p] = key[fixed[p, 0]] + key[fixed[p, 1]]
    for ci in prange(n_streams):
        state = np.empty(4, np.uint64)
        _rng.seed_state(state, key_seed, streams[ci])
        hist = np.zeros(((1 << n_players) if use_hist else 1, N_CATEGORIES), np.int64)
        d, r = _mc_chunk(state, trials[ci], fixed, fixed_acc, range_combos, range_mask, range_cum,
                         range_offsets, n_random, board, n_known, known_acc, avail.copy(),
                         base_mask, max_reject, tables, wins, cats, hist, ci)
        deals[ci] = d
        rejected[ci] = r
    return wins, cats, deals, rejected


# -- starting-hand tables ----------------------------------------------------------------


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


@kernel(parallel=True)
def headsup_classes(boards, mult, n_cards, class_of, n_classes, tables):
    """Exact heads-up tally of every starting class against one random hand.

    For each board (with its orbit multiplicity), every hole pair left is scored
    once and sorted; sweeping the scores while counting, per card, the pairs
    already passed gives each pair's number of beaten and tied opponent pairs
    that share no card with it (inclusion-exclusion over its two cards).
    Returns int64 ``(wins, ties, hands)`` per class, where ``hands`` counts
    (board, hero pair) deals, each against ``C(n_cards - 7, 2)`` opponent pairs.
    """
    n_boards = boards.shape[0]
    key = tables[0]
    n_blocks = min(N_BLOCKS, n_boards)
    wins = np.zeros((n_blocks, n_classes), np.int64)
    ties = np.zeros((n_blocks, n_classes), np.int64)
    hands = np.zeros((n_blocks, n_classes), np.int64)
    n_rest = n_cards - 5
    n_pairs = n_rest * (n_rest - 1) // 2
    for blk in prange(n_blocks):
        rest = np.empty(n_rest, np.int64)
        sort_key = np.empty(n_pairs, np.int64)
        pa = np.empty(n_pairs, np.int64)
        pb = np.empty(n_pairs, np.int64)
        lt_card = np.zeros(n_cards, np.int64)
        eq_card = np.zeros(n_cards, np.int64)
        buf = np.empty(7, np.uint8)
        for bi in range(blk, n_boards, n_blocks):
            bmask = np.uint64(0)
            bacc = _INIT
            for i in range(5):
                c = boards[bi, i]
                bmask |= _ONE << np.uint64(c)
                bacc += key[c]
                buf[2 + i] = c
            r = 0
            for c in range(n_cards):
                if not (bmask >> np.uint64(c)) & _ONE:
                    rest[r] = c
                    r += 1
            j = 0
            for x in range(n_rest):
                a = rest[x]
                buf[0] = a
                acc_a = bacc + key[a]
                for y in range(x + 1, n_rest):
                    b = rest[y]
                    buf[1] = b
                    s = score_acc(acc_a + key[b], buf, 7, tables)
                    sort_key[j] = (np.int64(s) << 20) | j
                    pa[j] = a
                    pb[j] = b
                    j += 1
            order = np.sort(sort_key)
            w = mult[bi]
            for c in range(n_cards):
                lt_card[c] = 0
            below = 0
            g0 = 0
            while g0 < n_pairs:
                s = order[g0] >> 20
                g1 = g0
                while g1 < n_pairs and (order[g1] >> 20) == s:
                    g1 += 1
                for g in range(g0, g1):
                    jj = order[g] & 0xFFFFF
                    eq_card[pa[jj]] += 1
                    eq_card[pb[jj]] += 1
                size = g1 - g0
                for g in range(g0, g1):
                    jj = order[g] & 0xFFFFF
                    a = pa[jj]
                    b = pb[jj]
                    beat = below - lt_card[a] - lt_card[b]
                    tie = size - eq_card[a] - eq_card[b] + 1
                    cls = class_of[(b * (b - 1)) // 2 + a]  # b > a
                    wins[blk, cls] += w * beat
                    ties[blk, cls] += w * tie
                    hands[blk, cls] += w
                for g in range(g0, g1):
                    jj = order[g] & 0xFFFFF
                    a = pa[jj]
                    b = pb[jj]
                    eq_card[a] -= 1
                    eq_card[b] -= 1
                    lt_card[a] += 1
                    lt_card[b] += 1
                below += size
                g0 = g1
    return wins.sum(axis=0), ties.sum(axis=0), hands.sum(axis=0)


@kernel
def _multiway_chunk(state, size, n_opp, n_cards, class_of, tables, share,
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
            s = _score_hole(bacc + key[a] + key[b], board, a, b, tables)
            n_best = 1 if s > best else (n_best + 1 if s == best else n_best)
            best = max(best, s)
        tie_share = share[n_best + 1]
        for x in range(n_deal, n_cards):
            a = deck[x]
            acc_a = bacc + key[a]
            for yv in range(x + 1, n_cards):
                b = deck[yv]
                s = _score_hole(acc_a + key[b], board, a, b, tables)
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
def multiway_classes(keys, n_opps, cells, streams, trials, n_cards, class_of, n_classes, tables):
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
        _multiway_chunk(state, trials[ci], n_opp, n_cards, class_of, tables, share,
                        y_out, x_out, yy_out, xx_out, xy_out, win_out, tie_out, ci)
    return y_out, x_out, yy_out, xx_out, xy_out, win_out, tie_out
