"""Numba kernels of the Brag studies: multiway showdowns and the blind-play betting model.

Hands are scored with ``evaluator._brag_kernels.score3`` on the rules' score
table. Each (cell, stream) draws from its own generator stream
(``analysis.core.rng``), so results do not depend on threads or task sizes.

Grouped inputs (named columns next to their packers in ``multiway.py`` and
``blind.py``):

- ``hands = (offsets, cards)``: the hands a cell's hero is drawn from, uniformly:
  ``cards[offsets[c]:offsets[c + 1]]`` (uint8 rows of three card ids).
- ``model``: float64 row per cell of the blind-play study (``M_*`` in ``blind.py``).
"""

from __future__ import annotations

import numpy as np
from numba import prange

from analysis.core.rng import bounded, deal, seed_state
from evaluator.jit import kernel
from evaluator.kernels import score3

N_CARDS = 52


@kernel
def _draw_hero(state, offsets, cards, cell, avail):
    """A uniform hand of the cell's list; ``avail[:49]`` becomes the other cards. Returns the
    row index of the hand in ``cards``."""
    lo = offsets[cell]
    row = lo + bounded(state, offsets[cell + 1] - lo)
    a = cards[row, 0]
    b = cards[row, 1]
    c = cards[row, 2]
    k = 0
    for card in range(N_CARDS):
        if card != a and card != b and card != c:
            avail[k] = card
            k += 1
    return row


@kernel(parallel=True)
def multiway_streams(keys, cells, streams, trials, hands, opponents, table, stats):
    """Showdowns of a cell's hero hand against ``opponents[-1]`` random hands, read off for
    every requested opponent count (the first ``n`` opponents are ``n`` random hands).

    ``stats[i]`` gets, per requested count ``j``: wins, ties (no better hand, at least one
    equal), the pot share (1 for a win, ``1/(k+1)`` tied with ``k``) and its square, in
    columns ``4j .. 4j+3``; the last column counts trials.
    """
    offsets, cards = hands
    n_req = opponents.shape[0]
    most = opponents[n_req - 1]
    for i in prange(cells.shape[0]):
        cell = cells[i]
        state = np.empty(4, np.uint64)
        seed_state(state, keys[cell], streams[i])
        avail = np.empty(N_CARDS, np.uint8)
        for _ in range(trials[i]):
            row = _draw_hero(state, offsets, cards, cell, avail)
            hero = score3(cards[row, 0], cards[row, 1], cards[row, 2], table)
            deal(state, avail, N_CARDS - 3, 3 * most)
            best = -1
            n_best = 0
            j = 0
            for o in range(most):
                sc = score3(avail[3 * o], avail[3 * o + 1], avail[3 * o + 2], table)
                if sc > best:
                    best = sc
                    n_best = 1
                elif sc == best:
                    n_best += 1
                if o + 1 == opponents[j]:
                    col = 4 * j
                    if hero > best:
                        stats[i, col] += 1.0
                        stats[i, col + 2] += 1.0
                        stats[i, col + 3] += 1.0
                    elif hero == best:
                        share = 1.0 / (n_best + 1)
                        stats[i, col + 1] += 1.0
                        stats[i, col + 2] += share
                        stats[i, col + 3] += share * share
                    j += 1
            stats[i, 4 * n_req] += 1.0


# ----------------------------------------------------------------------------- blind play

# model columns (packed by blind.pack_model): the ante, what a blind stake counts for, the
# see's multiple of the last stake, whether an open player may see a blind one (1/0); then the stay thresholds (scores) of rounds 0..R-1
M_ANTE = 0
M_BLIND_FACTOR = 1
M_SEE_FACTOR = 2
M_OPEN_SEES_BLIND = 3
M_THRESHOLDS = 4
MAX_PLAYERS = 17


@kernel
def _play(scores, n_players, stake, model, n_rounds, blind_rounds, paid):
    """One hand of the fixed-stake betting model; returns the hero's (seat 0) net gain.

    Seats act in order from the dealer's left, the hero first. A player still in either
    continues or folds: the hero continues blind for its first ``blind_rounds`` turns, then
    (like every opponent) continues in round ``r`` iff its score is at least threshold
    ``r``. Continuing costs the stake (a blind stake counts ``blind_factor`` times, so the
    hero pays ``stake / blind_factor``); when exactly two are left the player to act
    sees instead, for ``see_factor`` times the last stake, and wins only with a strictly
    better hand (the seen player wins ties); a see needs a stake to double, so the first
    stake of the hand is never a see, and without ``open_sees_blind`` an opponent facing the
    still-blind hero must stake again instead (the hero sees on its turn). One player left takes the pot. After
    ``n_rounds`` rounds with three or more still in, they show down (ties split).
    """
    ante = model[M_ANTE]
    blind_factor = model[M_BLIND_FACTOR]
    see_factor = model[M_SEE_FACTOR]
    open_sees_blind = model[M_OPEN_SEES_BLIND] != 0.0
    pot = ante * n_players
    active = n_players
    for p in range(n_players):
        paid[p] = ante
    in_hand = np.ones(MAX_PLAYERS, np.bool_)
    staked = False
    for r in range(n_rounds):
        threshold = model[M_THRESHOLDS + r]
        for seat in range(n_players):
            if not in_hand[seat]:
                continue
            blind = seat == 0 and r < blind_rounds
            stays = blind or scores[seat] >= threshold
            if not stays:
                in_hand[seat] = False
                active -= 1
                if seat == 0:
                    return -paid[0]
                if active == 1:  # everybody else folded: the hero takes the pot
                    return pot - paid[0]
                continue
            price = stake / blind_factor if blind else stake
            may_see = staked and (open_sees_blind or seat == 0 or r >= blind_rounds)
            if active == 2 and may_see:
                price *= see_factor
                paid[seat] += price
                pot += price
                other = 0
                for q in range(n_players):
                    if in_hand[q] and q != seat:
                        other = q
                seer_wins = scores[seat] > scores[other]
                hero_wins = seer_wins if seat == 0 else (other == 0 and not seer_wins)
                return pot - paid[0] if hero_wins else -paid[0]
            paid[seat] += price
            pot += price
            staked = True
    # showdown of the three or more still in
    best = -1
    n_best = 0
    for p in range(n_players):
        if in_hand[p]:
            if scores[p] > best:
                best = scores[p]
                n_best = 1
            elif scores[p] == best:
                n_best += 1
    if scores[0] == best:
        return pot / n_best - paid[0]
    return -paid[0]


@kernel(parallel=True)
def blind_streams(keys, cells, streams, trials, spots, play, stats):
    """Hands of the blind-play model for cells ``spots = (opponents, stake)``; each trial deals
    every seat once and plays it once per hero strategy (the rounds it stays blind).

    ``stats[i]``: per strategy ``s`` the sum and sum of squares of the hero's net gain
    (columns ``2s, 2s+1``); then per strategy ``s >= 1`` the same of its difference from
    strategy 0 (columns ``2S + 2(s-1) ...``); the last column counts trials.

    ``keys``, ``spots``: per cell; ``cells``, ``streams``, ``trials``: per stream (the runner's
    items); ``play = (model, strategies, table)``: the betting model (``blind.pack_model``,
    columns ``M_*``: the ante and factors, then one threshold per round), the blind rounds of each
    hero strategy and the 3-card score table (``score3``).
    """
    opponents, stakes = spots
    model, strategies, table = play
    n_rounds = model.shape[0] - M_THRESHOLDS
    n_strat = strategies.shape[0]
    for i in prange(cells.shape[0]):
        cell = cells[i]
        n_players = opponents[cell] + 1
        stake = stakes[cell]
        state = np.empty(4, np.uint64)
        seed_state(state, keys[cell], streams[i])
        avail = np.empty(N_CARDS, np.uint8)
        for c in range(N_CARDS):
            avail[c] = c
        scores = np.empty(MAX_PLAYERS, np.int64)
        paid = np.empty(MAX_PLAYERS, np.float64)
        net = np.empty(n_strat, np.float64)
        for _ in range(trials[i]):
            deal(state, avail, N_CARDS, 3 * n_players)
            for p in range(n_players):
                scores[p] = score3(avail[3 * p], avail[3 * p + 1], avail[3 * p + 2], table)
            for s in range(n_strat):
                net[s] = _play(scores, n_players, stake, model, n_rounds, strategies[s], paid)
                stats[i, 2 * s] += net[s]
                stats[i, 2 * s + 1] += net[s] * net[s]
            for s in range(1, n_strat):
                d = net[s] - net[0]
                stats[i, 2 * n_strat + 2 * (s - 1)] += d
                stats[i, 2 * n_strat + 2 * (s - 1) + 1] += d * d
            stats[i, stats.shape[1] - 1] += 1.0
