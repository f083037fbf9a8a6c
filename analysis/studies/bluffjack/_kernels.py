"""Numba kernels of the Bluffjack hit-or-stand study: one hand's hit/stand phase and showdown.

The phase, as the source describes it: every player has a hole card (face down)
and an up card; turns go round from the dealer's left (seat 0; the dealer is the
last seat), one action a turn: hit (a card face up) or stand, and a player who
stood never hits again, until everyone has stood. Everybody shows down (no folds
in the final betting: a modelling choice of the study).

Opponents stand when their best total reaches their threshold, when bust, or on
a Charlie. The hero (seat ``position``) follows a *policy*: an int8 array over
decision states ``x`` (:func:`state_index`): its best total and softness, the
number of opponents it can see have stood and are not visibly bust, and the
number still hitting (a player is visibly bust when its up card and hits alone
pass 20). 1 = hit, 0 = stand; the hero always stands on 21 and on a Charlie.

Grouped inputs (packed in ``plan.py``): ``spots = (opp_threshold, opponents,
position)`` int64 per cell; ``rules``: ``BluffjackRules.kernel_args`` (int64[5]), or
rows of them ``(n_rule_sets, 5)`` where every rule set plays the same deals; each
(cell, stream) draws from its own generator stream, so results do not depend on
threads.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from analysis.core.rng import deal, seed_state
from evaluator.jit import kernel
from evaluator.kernels import (
    ACE_RANK,
    R_HOUSE,
    best_total,
    blackjack_strength,
    card_points,
    is_charlie,
)

N_CARDS = 52
MAX_PLAYERS = 10
N_TOTALS = 22
N_LIVE = MAX_PLAYERS
N_STATES = N_TOTALS * 2 * N_LIVE * N_LIVE
"""Decision states: total (0-21) x soft x opponents stood and live x opponents hitting."""
HIT = 1
STAND = 0
# per-player state columns
P_HARD = 0
P_ACES = 1
P_CARDS = 2
P_STOOD = 3
P_VISIBLE = 4
P_C0 = 5
P_C1 = 6
N_P = 7
STATS_PER_POLICY = 8
"""Per (rule set, policy): share, its square, wins, ties, minus policy 0 (and square), minus
rule set 0 (and square)."""


@kernel(inline=True)
def state_index(total, soft, stood_live, waiting_live):
    """Index of a decision state in a policy array."""
    return ((total * 2 + soft) * N_LIVE + stood_live) * N_LIVE + waiting_live


@kernel(inline=True)
def _give(players, p, card):
    """Deal ``card`` to player ``p``; the first card is the hole card, later ones are seen."""
    players[p, P_HARD] += card_points(card)
    if (card >> 2) == ACE_RANK:
        players[p, P_ACES] = 1
    n = players[p, P_CARDS]
    if n == 0:
        players[p, P_C0] = card
    else:
        players[p, P_VISIBLE] += card_points(card)
        if n == 1:
            players[p, P_C1] = card
    players[p, P_CARDS] = n + 1


@kernel
def _deal_start(players, n_players, deck):
    """Hole cards round the table, then up cards; returns the next deck position."""
    for p in range(n_players):
        for k in range(N_P):
            players[p, k] = 0
    for p in range(n_players):
        _give(players, p, deck[p])
    for p in range(n_players):
        _give(players, p, deck[n_players + p])
    return 2 * n_players


@kernel(inline=True)
def _opponent_stands(players, p, threshold, rules):
    """Whether opponent ``p`` (``players`` rows) stops drawing: bust, at ``threshold`` or more, or
    a five-card Charlie under ``rules``."""
    hard = players[p, P_HARD]
    aces = players[p, P_ACES] != 0
    if hard > 21 or best_total(hard, aces) >= threshold:
        return True
    return is_charlie(hard, aces, players[p, P_CARDS], rules)


@kernel(inline=True)
def _hero_forced_stand(players, hero, rules):
    """Whether the hero (row ``hero`` of ``players``) has no choice left: bust, 21, or a Charlie
    under ``rules``."""
    hard = players[hero, P_HARD]
    aces = players[hero, P_ACES] != 0
    if hard > 21 or best_total(hard, aces) == 21:
        return True
    return is_charlie(hard, aces, players[hero, P_CARDS], rules)


@kernel
def _hero_state(players, n_players, hero):
    """The hero's decision state as it sees the table."""
    hard = players[hero, P_HARD]
    aces = players[hero, P_ACES] != 0
    total = best_total(hard, aces)
    soft = 1 if total != hard else 0
    stood_live = 0
    waiting_live = 0
    for p in range(n_players):
        if p == hero or players[p, P_VISIBLE] > 20:
            continue
        if players[p, P_STOOD] != 0:
            stood_live += 1
        else:
            waiting_live += 1
    return state_index(total, soft, stood_live, waiting_live)


@kernel
def _advance(players, n_players, hero, seat, ptr, deck, threshold, rules):
    """Play opponents' turns from ``seat`` round the table until the hero's turn (returns
    ``(True, ptr)``) or until everyone has stood (``(False, ptr)``)."""
    while True:
        waiting = 0
        for p in range(n_players):
            if players[p, P_STOOD] == 0:
                waiting += 1
        if waiting == 0:
            return False, ptr
        if players[seat, P_STOOD] == 0:
            if seat == hero:
                return True, ptr
            if _opponent_stands(players, seat, threshold, rules):
                players[seat, P_STOOD] = 1
            else:
                _give(players, seat, deck[ptr])
                ptr += 1
        seat = seat + 1 if seat + 1 < n_players else 0


@kernel(inline=True)
def _hero_act(players, hero, action, ptr, deck):
    """Apply the hero's ``action`` (hit: the card at ``deck[ptr]``; else stand); returns the deck's
    next position."""
    if action == HIT:
        _give(players, hero, deck[ptr])
        ptr += 1
    else:
        players[hero, P_STOOD] = 1
    return ptr


@kernel(inline=True)
def _hero_choice(players, n_players, hero, policy, rules):
    """The hero's action: stand when forced, else ``policy`` at its state among ``n_players``
    (``players`` rows, ``rules``)."""
    if _hero_forced_stand(players, hero, rules):
        return STAND
    return policy[_hero_state(players, n_players, hero)]


@kernel
def _showdown(players, n_players, hero, rules):
    """(pot share, outright win, tie) of the hero; an all-bust pot goes to the house (share
    0) or, without a house, to the game's last survivor, valued as an equal share."""
    best = 0
    n_best = 0
    mine = 0
    for p in range(n_players):
        s = blackjack_strength(players[p, P_HARD], players[p, P_ACES] != 0, players[p, P_CARDS],
                     players[p, P_C0], players[p, P_C1], rules)
        if p == hero:
            mine = s
        if s > best:
            best = s
            n_best = 1
        elif s == best:
            n_best += 1
    if best == 0:
        return (0.0 if rules[R_HOUSE] != 0 else 1.0 / n_players), 0.0, 0.0
    if mine < best:
        return 0.0, 0.0, 0.0
    if n_best == 1:
        return 1.0, 1.0, 0.0
    return 1.0 / n_best, 0.0, 1.0


@kernel
def _complete(players, n_players, hero, seat, ptr, deck, play):
    """Play to the end from ``seat`` with the hero on ``policy``; the hero's showdown.

    ``players[:n_players]``: the seats' ``P_*`` rows, ``hero`` its seat; ``seat``: whose turn
    it is; ``deck[ptr:]``: the cards still to draw; ``play = (threshold, policy, rules)``: the
    opponents' standing total, the hero's hit (1) or stand (0) per decision state
    (``N_STATES``) and the rule set's kernel arguments. Returns ``(share, win, tie)``.
    """
    threshold, policy, rules = play
    while True:
        turn, ptr = _advance(players, n_players, hero, seat, ptr, deck, threshold, rules)
        if not turn:
            break
        ptr = _hero_act(players, hero, _hero_choice(players, n_players, hero, policy, rules),
                        ptr, deck)
        seat = hero + 1 if hero + 1 < n_players else 0
    return _showdown(players, n_players, hero, rules)


@kernel(parallel=True)
def evaluate_streams(keys, cells, streams, trials, spots, rules, policies, stats):
    """Every rule set x policy of a cell on the same deals (common random numbers).

    ``policies[cell, k]`` is policy ``k`` of the cell, ``rules[r]`` rule set ``r``. For each
    pair ``(r, k)`` (block ``b = r * K + k`` of ``STATS_PER_POLICY`` columns) ``stats[i]``
    gets the pot share, its square, outright wins, ties, the paired difference from policy 0
    under the same rules and its square, and the paired difference from rule set 0 with the
    same policy and its square; the last column counts trials.
    """
    thresholds, opponents, positions = spots
    n_pol = policies.shape[1]
    n_rules = rules.shape[0]
    for i in prange(cells.shape[0]):
        cell = cells[i]
        n_players = opponents[cell] + 1
        hero = positions[cell]
        threshold = thresholds[cell]
        state = np.empty(4, np.uint64)
        seed_state(state, keys[cell], streams[i])
        deck = np.arange(N_CARDS).astype(np.uint8)
        players = np.zeros((MAX_PLAYERS, N_P), np.int64)
        base = np.zeros(n_pol, np.float64)
        for _ in range(trials[i]):
            deal(state, deck, N_CARDS, N_CARDS)
            for r in range(n_rules):
                first = 0.0
                for k in range(n_pol):
                    ptr = _deal_start(players, n_players, deck)
                    share, win, tie = _complete(players, n_players, hero, 0, ptr, deck,
                                                (threshold, policies[cell, k], rules[r]))
                    if k == 0:
                        first = share
                    if r == 0:
                        base[k] = share
                    col = STATS_PER_POLICY * (r * n_pol + k)
                    stats[i, col] += share
                    stats[i, col + 1] += share * share
                    stats[i, col + 2] += win
                    stats[i, col + 3] += tie
                    stats[i, col + 4] += share - first
                    stats[i, col + 5] += (share - first) * (share - first)
                    stats[i, col + 6] += share - base[k]
                    stats[i, col + 7] += (share - base[k]) * (share - base[k])
            stats[i, stats.shape[1] - 1] += 1.0


@kernel(parallel=True)
def improve_streams(keys, cells, streams, trials, spots, rules, policy, stats):
    """Paired rollouts for policy improvement: at every hero decision of a hand played on
    ``policy[cell]``, the hand is finished twice from there on the same deck, once after a
    hit and once after a stand (the hero on the policy afterwards); ``stats[i]`` adds the
    difference (hit minus stand, in pot share), its square and a visit at the decision state
    (columns ``3x .. 3x+2``), then trials."""
    thresholds, opponents, positions = spots
    rl = rules
    for i in prange(cells.shape[0]):
        cell = cells[i]
        n_players = opponents[cell] + 1
        hero = positions[cell]
        threshold = thresholds[cell]
        pol = policy[cell]
        state = np.empty(4, np.uint64)
        seed_state(state, keys[cell], streams[i])
        deck = np.arange(N_CARDS).astype(np.uint8)
        players = np.zeros((MAX_PLAYERS, N_P), np.int64)
        fork = np.zeros((MAX_PLAYERS, N_P), np.int64)
        nxt = hero + 1 if hero + 1 < n_players else 0
        for _ in range(trials[i]):
            deal(state, deck, N_CARDS, N_CARDS)
            ptr = _deal_start(players, n_players, deck)
            seat = 0
            while True:
                turn, ptr = _advance(players, n_players, hero, seat, ptr, deck, threshold, rl)
                if not turn:
                    break
                if not _hero_forced_stand(players, hero, rl):
                    x = _hero_state(players, n_players, hero)
                    fork[:, :] = players
                    p2 = _hero_act(fork, hero, HIT, ptr, deck)
                    hit, _, _ = _complete(fork, n_players, hero, nxt, p2, deck, (threshold, pol, rl))
                    fork[:, :] = players
                    p2 = _hero_act(fork, hero, STAND, ptr, deck)
                    stand, _, _ = _complete(fork, n_players, hero, nxt, p2, deck,
                                            (threshold, pol, rl))
                    d = hit - stand
                    stats[i, 3 * x] += d
                    stats[i, 3 * x + 1] += d * d
                    stats[i, 3 * x + 2] += 1.0
                ptr = _hero_act(players, hero, _hero_choice(players, n_players, hero, pol, rl),
                                ptr, deck)
                seat = nxt
            stats[i, stats.shape[1] - 1] += 1.0
