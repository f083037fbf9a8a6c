"""The Monte Carlo equity kernel: streams of deals, each from its own generator stream."""

from __future__ import annotations

import numpy as np
from numba import prange

from analysis.core import rng as _rng
from evaluator.jit import kernel
from evaluator.tables import CATEGORY_SHIFT

from ._scoring import (
    EMPTY_ACC,
    N_CATEGORIES,
    score_hole,
)

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
def _mc_chunk(stream, players, deal, accs, max_reject, tables, out):
    """``size`` Monte Carlo deals from ``state`` into ``wins[row]``, ``cats[row]`` (one stream).

    ``stream = (state, size, deck, row)``: this stream's generator, its number of deals, its
    copy of the available cards and its output row; ``players``, ``deal``, ``max_reject``
    and ``tables`` are those of :func:`monte_carlo`, ``accs`` the key sums
    ``(fixed_acc, known_acc)`` of the fixed hands and the known board; ``out = (wins, cats,
    hist)``: the outputs of :func:`monte_carlo` and this stream's (winner set, category)
    histogram (one row when not used). Returns ``(deals, rejected)``; ``rejected < 0``
    when it gave up on a range collision. A plain (not parallel) function: numba
    compiles it better than a ``prange`` body.
    """
    state, size, deck, row = stream
    wins, cats, hist = out
    fixed, range_combos, range_mask, range_cum, range_offsets, n_random = players
    board, n_known, _avail, base_mask = deal
    fixed_acc, known_acc = accs
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
            s = score_hole(bacc + fixed_acc[p], buf, fixed[p, 0], fixed[p, 1], tables)
            bit = np.int64(1) << p
            winners = bit if s > best else (winners | bit if s == best else winners)
            best = max(best, s)
        for r in range(n_range):
            a = range_combos[picked[r], 0]
            b = range_combos[picked[r], 1]
            s = score_hole(bacc + key[a] + key[b], buf, a, b, tables)
            bit = np.int64(1) << (n_fixed + r)
            winners = bit if s > best else (winners | bit if s == best else winners)
            best = max(best, s)
        for q in range(n_random):
            a = deck[nb + 2 * q]
            b = deck[nb + 2 * q + 1]
            s = score_hole(bacc + key[a] + key[b], buf, a, b, tables)
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
    known_acc = EMPTY_ACC
    for i in range(n_known):
        known_acc += key[board[i]]
    fixed_acc = np.empty(max(n_fixed, 1), np.uint64)
    for p in range(n_fixed):
        fixed_acc[p] = key[fixed[p, 0]] + key[fixed[p, 1]]
    for ci in prange(n_streams):
        state = np.empty(4, np.uint64)
        _rng.seed_state(state, key_seed, streams[ci])
        hist = np.zeros(((1 << n_players) if use_hist else 1, N_CATEGORIES), np.int64)
        d, r = _mc_chunk((state, trials[ci], avail.copy(), np.int64(ci)), players, deal,
                         (fixed_acc, known_acc), max_reject, tables, (wins, cats, hist))
        deals[ci] = d
        rejected[ci] = r
    return wins, cats, deals, rejected
