"""Playing one deal from the decision street to the settlement, with the hero following a policy.

Betting is one bet per round. The hero is seat 0 and the opponents seats 1 to n - 1; after
the flop they act in the order of :func:`seat_at`: the ``position`` opponents before the hero
(seats 1 to ``position``), then the hero, then the rest (``position = 0``: the hero first;
``n - 1``: last, the DEALER's place). An opponent that
*would bet* (its model's threshold) bets a fraction of the pot (at least the big
blind, in $10 steps, capped by its stack); every other live player then calls or
folds in turn. The hero never bets. Its decisions, counted from 1 after the
study's own decision 0 (fold now, or check), are:

- **none** (nobody has bet when the hero's turn comes on a later street): fold for free or check;
- **bet** (facing a bet): fold or call.

A *policy* ``(kind, fixed, plan, plan_keys)`` decides them: ``CONTINUE`` (always
check/call), ``FIXED`` (the legacy hero policies: never fold for free, call when
the strength reaches the street's threshold), ``TABLE`` (a best response: one
action per abstract information set, see :func:`info_id`) or ``EXACT`` (one
action per exact information set of a small spot: the public history). ``fold_at = k`` folds at decision ``k`` whatever the policy
(``0``: the fold branch). :func:`play` returns the hero's money relative to its
stack at the decision and can record each decision's information set and the
hero's strength there.
"""

from __future__ import annotations

import numpy as np

from analysis.dilemma.kernels import settle_core
from analysis.dilemma.settlement.layout import (
    P_FINAL,
    P_FOLD,
    P_HOLE0,
    P_HOLE1,
    P_IN,
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
from evaluator.jit import kernel

from ._deal import DL_BOARD, DL_HOLES, DL_SCORES, DL_WOULD_BET, DL_WOULD_CALL, strength_of
from .layout import (
    G_BANK1,
    G_BANK2,
    G_BANK3,
    G_BIG_BLIND,
    G_BUCKETS,
    G_LEVEL,
    G_N_CARDS,
    M_BET,
    M_CALL,
    M_SIZE,
    MAX_OPP,
)

CONTINUE, FIXED, TABLE, EXACT = 0, 1, 2, 3
"""Policy kinds of :func:`play`: always continue, a fixed policy, a best response over the
abstract information sets, a best response over exact ones (small spots)."""
KEY_LEVEL = np.int64(1) << np.int64(56)
"""Exact information set = level * KEY_LEVEL + public history (histories stay below 2**56)."""
MAX_DECISIONS = 6


@kernel(inline=True)
def seat_at(k, position):
    """The seat that acts ``k``-th (from 0) when ``position`` opponents act before the hero
    (seat 0): seats 1 to ``position``, the hero, then seats ``position + 1`` to ``n - 1``."""
    if k < position:
        return k + 1
    return 0 if k == position else k


@kernel(inline=True)
def order_of(seat, position):
    """Where ``seat`` acts in the order of :func:`seat_at` (its inverse)."""
    if seat == 0:
        return position
    return seat - 1 if seat <= position else seat


@kernel(inline=True)
def info_id(level, opponents_in, bucket, n_buckets):
    """The abstract information set of a hero decision: level x opponents still in x bucket."""
    return (level * MAX_OPP + opponents_in - 1) * n_buckets + bucket


@kernel(inline=True)
def bucket_of(strength, n_buckets):
    """The strength bucket: ``min(int(strength * n_buckets), n_buckets - 1)``."""
    return min(int(strength * n_buckets), n_buckets - 1)


@kernel(inline=True)
def _first_at_least(keys, key):
    """The first index of the sorted ``keys`` whose key is not below ``key`` (``np.searchsorted``'s
    left side, written out: numba's generic version costs a cold compile about 2 s)."""
    lo = 0
    hi = keys.shape[0]
    while lo < hi:
        mid = (lo + hi) >> 1
        if keys[mid] < key:
            lo = mid + 1
        else:
            hi = mid
    return lo


@kernel
def _continues(policy, s, facing, strength, info, exact_key):
    """Whether the policy checks/calls (True) or folds (False) at a decision.

    ``policy = (kind, fixed thresholds, plan, plan keys)``: a ``TABLE`` plan is indexed by
    the abstract information set, an ``EXACT`` plan by the position of the exact key in the
    sorted ``plan keys``."""
    kind, fixed, plan, plan_keys = policy
    if kind == CONTINUE:
        return True
    if kind == FIXED:
        if not facing:
            return True
        thr = fixed[s]
        return thr <= 0.0 or (thr <= 1.0 and strength >= thr)
    if kind == EXACT:
        j = _first_at_least(plan_keys, exact_key)
        a = plan[j] if j < plan_keys.shape[0] and plan_keys[j] == exact_key else -1.0
    else:
        a = plan[info]
    if a < 0.0:  # never reached in training: check, and call with a better-than-median hand
        return (not facing) or strength >= 0.5
    return a > 0.5


@kernel
def play(fold_at, policy, hand, opp, table, strength, work, record):
    """Play the hand from the decision street to its end, settle it, return the hero's money.

    ``hand = (street0, n, dl, (in0, behind0), position)``: the decision street, the players
    in (hero seat 0), the deal's arrays (:func:`._deal.new_deal`), each seat's chips put in
    and behind at the decision (:func:`._deal.starting_chips`) and the opponents who act
    before the hero (:func:`seat_at`; at the decision street they have checked); ``opp = (model, relative)``: the
    opponents' thresholds float64[4, 3] (``M_*``) and whether they are relative to their
    range; ``table = (game, policies, deck, rules)`` and ``strength = (sources,
    eval_tables)`` as in :mod:`.layout`.
    ``work = (players, board2, table, out)`` are the settlement core's arrays
    (filled, so callers can read the breakdown). With ``record`` (arrays, or empty
    ones for none) the hero's decisions are written to ``record = (n_dec, levels,
    infos, strengths, keys)``: ``n_dec[0]`` decisions in order, each with its level,
    abstract information set, the hero's strength and the public history so far
    (``keys``: the exact information set, given the hero's cards and the board). ``relative`` means the opponents follow
    the would-bet / would-call script of the deal instead of absolute thresholds.
    """
    street0, n, dl, chips, position = hand
    in0, behind0 = chips
    model, relative = opp
    game, _policies, deck, rules = table
    players, board2, settle_table, out = work
    n_cards = game[G_N_CARDS]
    n_buckets = game[G_BUCKETS]
    bb = game[G_BIG_BLIND]
    holes = dl[DL_HOLES]
    board = dl[DL_BOARD]
    wb = dl[DL_WOULD_BET]
    wc = dl[DL_WOULD_CALL]
    for i in range(n):
        players[i, P_STACK] = behind0[i]
        players[i, P_IN] = in0[i]
        players[i, P_FOLD] = -1
        players[i, P_HOLE0] = holes[i, 0]
        players[i, P_HOLE1] = holes[i, 1]
    n_dec, levels, infos, strengths, keys = record
    rec = n_dec.shape[0] > 0
    if rec:
        n_dec[0] = 0
    live = n
    last = street0
    d = 0
    hist = np.int64(0)  # the public history (exact information sets of small spots)
    for s in range(street0, 4):
        last = s
        bettor = -1
        amount = 0
        if s > street0:
            hist = hist * 64 + board[s + 1] + 1
        for order in range(n):
            seat = seat_at(order, position)
            if players[seat, P_FOLD] >= 0:
                continue
            if seat == 0:
                if s == street0:
                    folds = fold_at == 0
                elif players[0, P_STACK] == 0:
                    folds = False  # all in: nothing to decide
                else:
                    d += 1
                    st = strength_of(s, 0, dl, n, strength, n_cards)
                    info = info_id(2 * (s - 1), live - 1, bucket_of(st, n_buckets), n_buckets)
                    if rec:
                        levels[n_dec[0]] = 2 * (s - 1)
                        infos[n_dec[0]] = info
                        strengths[n_dec[0]] = st
                        keys[n_dec[0]] = 2 * (s - 1) * KEY_LEVEL + hist
                        n_dec[0] += 1
                    folds = fold_at == d or not _continues(policy, s, False, st, info,
                                                           2 * (s - 1) * KEY_LEVEL + hist)
                if folds:
                    players[0, P_FOLD] = s
                    live -= 1
                    if live == 1:
                        break
                continue  # the hero checks
            if players[seat, P_STACK] == 0 or model[s, M_BET] > 1.0:
                continue
            if relative:
                bets = wb[s, seat]
            else:
                bets = strength_of(s, seat, dl, n, strength, n_cards) >= model[s, M_BET]
            if bets:
                pot = 0
                for i in range(in0.shape[0]):
                    pot += in0[i] if i >= n else players[i, P_IN]
                amount = max(bb, np.int64((model[s, M_SIZE] * pot + 5.0) // 10.0) * 10)
                amount = min(amount, players[seat, P_STACK])
                players[seat, P_STACK] -= amount
                players[seat, P_IN] += amount
                bettor = seat
                hist = hist * 16 + seat
                break
        if bettor >= 0:
            for k in range(1, n):
                seat = seat_at((order_of(bettor, position) + k) % n, position)
                if players[seat, P_FOLD] >= 0 or players[seat, P_STACK] == 0:
                    continue
                if seat == 0:
                    d += 1
                    st = strength_of(s, 0, dl, n, strength, n_cards)
                    info = info_id(2 * (s - 1) + 1, live - 1, bucket_of(st, n_buckets), n_buckets)
                    if rec:
                        levels[n_dec[0]] = 2 * (s - 1) + 1
                        infos[n_dec[0]] = info
                        strengths[n_dec[0]] = st
                        keys[n_dec[0]] = (2 * (s - 1) + 1) * KEY_LEVEL + hist
                        n_dec[0] += 1
                    calls = fold_at != d and _continues(policy, s, True, st, info,
                                                        (2 * (s - 1) + 1) * KEY_LEVEL + hist)
                elif relative:
                    calls = wc[s, seat]
                else:
                    thr = model[s, M_CALL]
                    calls = thr <= 0.0 or (
                        thr <= 1.0
                        and strength_of(s, seat, dl, n, strength, n_cards) >= thr)
                if calls:
                    pay = min(amount, players[seat, P_STACK])
                    players[seat, P_STACK] -= pay
                    players[seat, P_IN] += pay
                else:
                    players[seat, P_FOLD] = s
                    live -= 1
                if seat > 0:
                    hist = hist * 16 + (MAX_OPP + seat if calls else 2 * MAX_OPP + seat)
        if live == 1:
            break
    scores = dl[DL_SCORES]
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
    for b in range(5):
        board2[0, b] = board[b]
        board2[1, b] = 1 if b < 3 else b - 1
    settle_table[T_BANK1] = game[G_BANK1]
    settle_table[T_BANK2] = game[G_BANK2]
    settle_table[T_BANK3] = game[G_BANK3]
    settle_table[T_LEVEL] = game[G_LEVEL]
    settle_table[T_LAST] = last
    # the DEALER acts last: the hero when it is last, else the last seat (the settlement's
    # clockwise order, which matters only when the bank runs short, keeps the hero first
    # from the middle positions)
    settle_table[T_DEALER] = 0 if position == n - 1 and n > 1 else n_seats - 1
    settle_table[T_NBOARD] = last + 2
    settle_core(players, n_seats, board2, settle_table, deck, rules, out)
    return players[0, P_FINAL] - behind0[0]
