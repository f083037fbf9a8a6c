"""External-sampling Monte Carlo CFR on Bluffjack hands of 2 or 3 players, played from a small state.

The hand is not stored as a tree: a state vector (``int64[HS_SIZE]``) is stepped by the rules
(the same rules and abstraction as :mod:`.public_tree`: cards by value class drawn with replacement,
at most one hit a player, deep stacks, fixed limit; seat 0 opens the initial round with the
forced minimum bet and acts first in every phase). A decision's information set is a key
(:func:`_key`): in ``MODE_EXACT`` everything the actor has seen (a hash of the face-up cards and
every action and hit so far, with its own hidden class: perfect recall, as in the heads-up tree);
in ``MODE_BUCKETS`` a coarser, imperfect-recall key (see :func:`_bucket_key`). Keys map to rows of
the regret and strategy-sum tables through a typed dict (rows in order of first visit).

Per iteration ``t`` the generator is seeded from ``(key, t)`` only, so a run split into chunks
draws the same numbers as one call (one thread: the numba thread count does not enter). For each
player ``i``: with three players, first an *averaging walk* (chance and ``i`` sampled, the others
expanded: ``i``'s strategy sums weighted by its own reach, as in :mod:`analysis.solvers._mccfr_kernels`),
then ``i``'s *regret walk* (``i`` expanded, chance and the others sampled); heads-up, the regret walk
of ``i`` updates the other player's strategy sums at its sampled nodes.

:func:`cf_values` is the exact check: for fixed face-up cards it walks every public history with a
vector over each player's hidden class (the only private card) and returns one player's
counterfactual values under the average strategy, or its best response (a max per hidden class at
each of its public nodes: the best responder has perfect recall whatever the key).
"""

from __future__ import annotations

import numpy as np

from analysis.core.rng import next_float, seed_state
from evaluator.jit import kernel

from .._mccfr_kernels import _match, _sample
from .public_tree import ACE, CLASS_POINTS, CLASSES

MAX_ACTIONS = 3
MAX_PLAYERS = 3

# actions
A_FOLD, A_CALL, A_RAISE, A_HIT, A_STAND = range(5)
# phases
PH_INITIAL, PH_PLAY, PH_FINAL, PH_DONE = range(4)
# key modes
MODE_EXACT, MODE_BUCKETS = range(2)
# parameter vector
PV_ANTE, PV_BET, PV_CAP, PV_HOUSE, PV_MODE, PV_N = range(6)
N_PARAMS = 6

# state vector: the hand, then a block of SEAT_WIDTH per seat
HS_N, HS_PHASE, HS_TOACT, HS_LEVEL, HS_RAISES, HS_PENDING, HS_H1, HS_H2 = range(8)
HS_SEATS = 8
ST_UP, ST_HID, ST_HIT, ST_FOLD, ST_PUT, ST_BET, ST_ACTED, ST_PLAYED = range(8)
SEAT_WIDTH = 8
HS_SIZE = HS_SEATS + MAX_PLAYERS * SEAT_WIDTH

HASH_P1 = 2147483629
HASH_P2 = 2147483587
HASH_B1 = 1000003
HASH_B2 = 999983

N_BUCKETS = 6
"""Visible-total buckets of an opponent in ``MODE_BUCKETS``: folded, 2-6, 7-11, 12-16, 17-18, 19-21."""

CLASS_CUM = np.cumsum(np.array([1, 1, 1, 1, 1, 1, 1, 1, 4, 1], dtype=np.float64) / 13.0)
CLASS_PROB = np.array([1, 1, 1, 1, 1, 1, 1, 1, 4, 1], dtype=np.float64) / 13.0


@kernel(inline=True)
def _at(p, field):
    """Index in the hand state ``st`` of seat ``p``'s ``field`` (``ST_*``)."""
    return HS_SEATS + p * SEAT_WIDTH + field


@kernel(inline=True)
def _hash(st, code):
    """Fold ``code`` into the history hash (two 31-bit polynomial hashes)."""
    st[HS_H1] = (st[HS_H1] * HASH_B1 + code + 1) % HASH_P1
    st[HS_H2] = (st[HS_H2] * HASH_B2 + code + 1) % HASH_P2


@kernel(inline=True)
def _visible(st, p):
    """Hard points and ace flag of ``p``'s face-up cards."""
    up = st[_at(p, ST_UP)]
    hard = CLASS_POINTS[up]
    ace = up == ACE
    hit = st[_at(p, ST_HIT)]
    if hit >= 0:
        hard += CLASS_POINTS[hit]
        ace = ace or hit == ACE
    return hard, ace


@kernel(inline=True)
def _best(hard, ace):
    """A hand's best total from its hard total and whether it holds an ace (an ace counts 11 if
    that does not bust)."""
    return hard + 10 if ace and hard + 10 <= 21 else hard


@kernel(inline=True)
def _strength(st, p, hidden):
    """Showdown total of ``p`` with hidden class ``hidden`` (0: bust)."""
    hard, ace = _visible(st, p)
    h = hard + CLASS_POINTS[hidden]
    if (ace or hidden == ACE) and h + 10 <= 21:
        return h + 10
    return 0 if h > 21 else h


@kernel
def init_state(st, params, up, hid):
    """The hand after the antes and the forced opening bet of seat 0 (``up``/``hid``: classes)."""
    n = params[PV_N]
    st[:] = 0
    st[HS_N] = n
    st[HS_PENDING] = -1
    for p in range(n):
        st[_at(p, ST_UP)] = up[p]
        st[_at(p, ST_HID)] = hid[p]
        st[_at(p, ST_HIT)] = -1
        st[_at(p, ST_PUT)] = params[PV_ANTE]
        _hash(st, up[p])
    st[_at(0, ST_PUT)] += params[PV_BET]
    st[_at(0, ST_BET)] = 1
    st[_at(0, ST_ACTED)] = 1
    st[HS_LEVEL] = 1
    st[HS_TOACT] = 0
    _next_bettor(st)


@kernel
def _active(st):
    """Seats of hand state ``st`` not folded."""
    c = 0
    for p in range(st[HS_N]):
        if st[_at(p, ST_FOLD)] == 0:
            c += 1
    return c


@kernel
def _first_to_play(st, start):
    """The next seat from ``start`` (inclusive) still to hit or stand, or -1."""
    for q in range(start, st[HS_N]):
        if st[_at(q, ST_FOLD)] == 0 and st[_at(q, ST_PLAYED)] == 0:
            return q
    return -1


@kernel
def _start_final(st):
    """Open the final betting round of hand state ``st``: bets and actions cleared, the first live
    seat to act."""
    st[HS_PHASE] = PH_FINAL
    st[HS_LEVEL] = 0
    st[HS_RAISES] = 0
    for p in range(st[HS_N]):
        st[_at(p, ST_BET)] = 0
        st[_at(p, ST_ACTED)] = 0
    for p in range(st[HS_N]):
        if st[_at(p, ST_FOLD)] == 0:
            st[HS_TOACT] = p
            return


@kernel
def _next_bettor(st):
    """After a betting action: the next seat due to act, or the end of the round (or hand)."""
    n = st[HS_N]
    if _active(st) <= 1:
        st[HS_PHASE] = PH_DONE
        return
    p = st[HS_TOACT]
    for step in range(1, n + 1):
        q = (p + step) % n
        if st[_at(q, ST_FOLD)] == 0 and not (st[_at(q, ST_ACTED)] == 1 and st[_at(q, ST_BET)] == st[HS_LEVEL]):
            st[HS_TOACT] = q
            return
    if st[HS_PHASE] == PH_INITIAL:
        st[HS_PHASE] = PH_PLAY
        st[HS_TOACT] = _first_to_play(st, 0)
    else:
        st[HS_PHASE] = PH_DONE


@kernel
def legal(st, params, acts):
    """The actions of the seat to act into ``acts``; their number."""
    if st[HS_PHASE] == PH_PLAY:
        acts[0] = A_HIT
        acts[1] = A_STAND
        return 2
    p = st[HS_TOACT]
    k = 0
    if st[HS_LEVEL] > st[_at(p, ST_BET)]:
        acts[k] = A_FOLD
        k += 1
    acts[k] = A_CALL
    k += 1
    if st[HS_LEVEL] == 0 or st[HS_RAISES] < params[PV_CAP]:
        acts[k] = A_RAISE
        k += 1
    return k


@kernel
def apply(st, params, a):
    """The seat to act takes action ``a`` (a hit leaves a card to deal: ``HS_PENDING``)."""
    p = st[HS_TOACT]
    _hash(st, 16 + 8 * p + a)
    if a == A_HIT:
        st[HS_PENDING] = p
        return
    if a == A_STAND:
        st[_at(p, ST_PLAYED)] = 1
        _after_play(st, p)
        return
    level = st[HS_LEVEL]
    if a == A_FOLD:
        st[_at(p, ST_FOLD)] = 1
    elif a == A_CALL:
        st[_at(p, ST_PUT)] += (level - st[_at(p, ST_BET)]) * params[PV_BET]
        st[_at(p, ST_BET)] = level
    else:
        if level > 0:
            st[HS_RAISES] += 1
        st[HS_LEVEL] = level + 1
        st[_at(p, ST_PUT)] += (level + 1 - st[_at(p, ST_BET)]) * params[PV_BET]
        st[_at(p, ST_BET)] = level + 1
    st[_at(p, ST_ACTED)] = 1
    _next_bettor(st)


@kernel
def _after_play(st, p):
    """After seat ``p`` of hand state ``st`` stands, busts or folds: the next seat to play, or the
    final betting round."""
    q = _first_to_play(st, p + 1)
    if q >= 0:
        st[HS_TOACT] = q
    else:
        _start_final(st)


@kernel
def deal_hit(st, c):
    """The card of the pending hit (class ``c``): face up; the player has then played."""
    p = st[HS_PENDING]
    _hash(st, 64 + c)
    st[_at(p, ST_HIT)] = c
    st[_at(p, ST_PLAYED)] = 1
    st[HS_PENDING] = -1
    _after_play(st, p)


@kernel
def payoff(st, params, i):
    """Chips won (or lost) by ``i`` at the end of the hand, the hidden cards as dealt."""
    n = st[HS_N]
    pot = 0
    for p in range(n):
        pot += st[_at(p, ST_PUT)]
    put = st[_at(i, ST_PUT)]
    if st[_at(i, ST_FOLD)] == 1:
        return -float(put)
    if _active(st) == 1:
        return float(pot - put)
    best = 0
    for p in range(n):
        if st[_at(p, ST_FOLD)] == 0:
            best = max(best, _strength(st, p, st[_at(p, ST_HID)]))
    tied = 0
    for p in range(n):
        if st[_at(p, ST_FOLD)] == 0 and _strength(st, p, st[_at(p, ST_HID)]) == best:
            tied += 1
    if best == 0 and params[PV_HOUSE] == 1:
        return -float(put)
    if _strength(st, i, st[_at(i, ST_HID)]) == best:
        return pot / tied - put
    return -float(put)


@kernel(inline=True)
def _bucket(st, q):
    """Seat ``q``'s visible best total in hand state ``st`` as a bucket for the bucketed
    information sets: 0 folded, 1-5 up to 6, 11, 16, 18, above."""
    if st[_at(q, ST_FOLD)] == 1:
        return 0
    hard, ace = _visible(st, q)
    v = _best(hard, ace)
    if v <= 6:
        return 1
    if v <= 11:
        return 2
    if v <= 16:
        return 3
    if v <= 18:
        return 4
    return 5


@kernel
def _bucket_key(st, p, hidden):
    """``MODE_BUCKETS``: phase, seat, own hidden class, own face-up hard total and ace, each other
    seat's visible best total in :data:`N_BUCKETS` buckets (or folded), and this round's bet
    level and own bet. Forgets the earlier rounds' betting and the exact cards behind totals."""
    hard, ace = _visible(st, p)
    k = st[HS_PHASE]
    k = k * MAX_PLAYERS + p
    k = k * CLASSES + hidden
    k = k * 32 + hard
    k = k * 2 + (1 if ace else 0)
    for q in range(st[HS_N]):
        if q != p:
            k = k * N_BUCKETS + _bucket(st, q)
    k = k * 8 + st[HS_LEVEL]
    k = k * 8 + st[_at(p, ST_BET)]
    return k


@kernel
def key_of(st, params, p, hidden):
    """The information-set key of seat ``p`` holding ``hidden`` at this state."""
    if params[PV_MODE] == MODE_EXACT:
        code = 200 + hidden * MAX_PLAYERS + p
        k1 = (st[HS_H1] * HASH_B1 + code) % HASH_P1
        k2 = (st[HS_H2] * HASH_B2 + code) % HASH_P2
        return k1 * HASH_P2 + k2
    return _bucket_key(st, p, hidden)


@kernel
def _row(index, key, grow):
    """The table row of ``key`` (a new row when ``grow`` and unseen; -1 when unseen otherwise)."""
    if key in index:
        return index[key]
    if not grow:
        return -1
    r = len(index)
    index[key] = r
    return r


@kernel(inline=True)
def _draw_class(rng):
    """A hidden card's class drawn from generator ``rng`` with the deck's class probabilities
    (``CLASS_CUM``)."""
    u = next_float(rng)
    for c in range(CLASSES - 1):
        if u < CLASS_CUM[c]:
            return c
    return CLASSES - 1


@kernel
def _check_room(index, regret):
    """Raise if the information-set ``index`` has filled the ``regret`` table: a safety net, the
    driver keeps :data:`RESERVE_ROWS` rows free and grows the tables between batches."""
    if len(index) >= regret.shape[0]:
        raise ValueError("the information-set table is full")


@kernel
def _regret_walk(st, params, trav, avg, index, regret, ssum, rng):
    """Sampled value of ``trav``; regrets of ``trav`` updated, strategy sums of ``avg`` (if >= 0)."""
    if st[HS_PHASE] == PH_DONE or st[_at(trav, ST_FOLD)] == 1:
        return payoff(st, params, trav)
    if st[HS_PENDING] >= 0:
        ch = st.copy()
        deal_hit(ch, _draw_class(rng))
        return _regret_walk(ch, params, trav, avg, index, regret, ssum, rng)
    p = st[HS_TOACT]
    acts = np.empty(MAX_ACTIONS, np.int64)
    k = legal(st, params, acts)
    _check_room(index, regret)
    r = _row(index, key_of(st, params, p, st[_at(p, ST_HID)]), True)
    sigma = np.empty(MAX_ACTIONS)
    _match(regret[r], 0, k, sigma)
    if p == trav:
        vals = np.empty(MAX_ACTIONS)
        v = 0.0
        for j in range(k):
            ch = st.copy()
            apply(ch, params, acts[j])
            vals[j] = _regret_walk(ch, params, trav, avg, index, regret, ssum, rng)
            v += sigma[j] * vals[j]
        for j in range(k):
            regret[r, j] += vals[j] - v
        return v
    if p == avg:
        for j in range(k):
            ssum[r, j] += sigma[j]
    ch = st.copy()
    apply(ch, params, acts[_sample(rng, sigma, k)])
    return _regret_walk(ch, params, trav, avg, index, regret, ssum, rng)


@kernel
def _average_walk(st, params, owner, index, regret, ssum, rng):
    """Add ``owner``'s current strategy where chance and ``owner`` are sampled, the others expanded."""
    if st[HS_PHASE] == PH_DONE or st[_at(owner, ST_FOLD)] == 1:
        return
    if st[HS_PENDING] >= 0:
        ch = st.copy()
        deal_hit(ch, _draw_class(rng))
        _average_walk(ch, params, owner, index, regret, ssum, rng)
        return
    p = st[HS_TOACT]
    acts = np.empty(MAX_ACTIONS, np.int64)
    k = legal(st, params, acts)
    if p == owner:
        _check_room(index, regret)
        r = _row(index, key_of(st, params, p, st[_at(p, ST_HID)]), True)
        sigma = np.empty(MAX_ACTIONS)
        _match(regret[r], 0, k, sigma)
        for j in range(k):
            ssum[r, j] += sigma[j]
        ch = st.copy()
        apply(ch, params, acts[_sample(rng, sigma, k)])
        _average_walk(ch, params, owner, index, regret, ssum, rng)
        return
    for j in range(k):
        ch = st.copy()
        apply(ch, params, acts[j])
        _average_walk(ch, params, owner, index, regret, ssum, rng)


@kernel
def _deal(rng, params, up_fixed, up, hid):
    """Deal a hand into ``up`` (face-up classes; ``up_fixed[p] >= 0`` keeps a seat's given one) and
    ``hid`` (hidden classes) for ``params[PV_N]`` seats, from generator ``rng``."""
    n = params[PV_N]
    for p in range(n):
        up[p] = up_fixed[p] if up_fixed[p] >= 0 else _draw_class(rng)
    for p in range(n):
        hid[p] = _draw_class(rng)


RESERVE_ROWS = 100_000
"""Free table rows an iteration needs at most (more than the decisions of any walk)."""


@kernel
def iterations(params, up_fixed, key, first, count, index, regret, ssum):
    """External-sampling iterations ``first .. first + count - 1`` (1-based) in place; the number
    done (fewer when the tables have less than :data:`RESERVE_ROWS` free rows: grow, call again).

    ``up_fixed[p]``: seat ``p``'s face-up class, or -1 to deal it (then the face-up cards are
    chance too). Iteration ``t`` deals one hand per walk from stream ``t``."""
    n = params[PV_N]
    rng = np.empty(4, np.uint64)
    st = np.empty(HS_SIZE, np.int64)
    up = np.empty(n, np.int64)
    hid = np.empty(n, np.int64)
    for t in range(first, first + count):
        if len(index) + RESERVE_ROWS > regret.shape[0]:
            return t - first
        seed_state(rng, key, t)
        for i in range(n):
            if n > 2:
                _deal(rng, params, up_fixed, up, hid)
                init_state(st, params, up, hid)
                _average_walk(st, params, i, index, regret, ssum, rng)
            _deal(rng, params, up_fixed, up, hid)
            init_state(st, params, up, hid)
            _regret_walk(st, params, i, 1 - i if n == 2 else -1, index, regret, ssum, rng)
    return count


@kernel
def average_row(index, ssum, st, params, p, hidden, k, sigma):
    """The average strategy of seat ``p`` with ``hidden`` here into ``sigma[:k]`` (uniform if unseen)."""
    r = _row(index, key_of(st, params, p, hidden), False)
    total = 0.0
    if r >= 0:
        for a in range(k):
            total += ssum[r, a]
    for a in range(k):
        sigma[a] = ssum[r, a] / total if total > 0.0 else 1.0 / k


@kernel
def _terminal_values(st, params, i, reach, out):
    """Counterfactual values of ``i`` per own hidden class at the end of the hand (others' reach in
    ``reach[p, :]``, prior included)."""
    n = st[HS_N]
    pot = 0
    others = 1.0
    for p in range(n):
        pot += st[_at(p, ST_PUT)]
        if p != i:
            s = 0.0
            for h in range(CLASSES):
                s += reach[p, h]
            others *= s
    put = st[_at(i, ST_PUT)]
    if st[_at(i, ST_FOLD)] == 1 or _active(st) == 1:
        u = -float(put) if st[_at(i, ST_FOLD)] == 1 else float(pot - put)
        for h in range(CLASSES):
            out[h] = u * others
        return
    # the others at the showdown: reach by strength (0: bust); folded ones only scale
    w = np.zeros((MAX_PLAYERS, 22))
    scale = 1.0
    opp = np.empty(MAX_PLAYERS, np.int64)
    m = 0
    for p in range(n):
        if p == i:
            continue
        if st[_at(p, ST_FOLD)] == 1:
            s = 0.0
            for h in range(CLASSES):
                s += reach[p, h]
            scale *= s
            continue
        for h in range(CLASSES):
            w[m, _strength(st, p, h)] += reach[p, h]
        opp[m] = p
        m += 1
    house = params[PV_HOUSE] == 1
    for h in range(CLASSES):
        s = _strength(st, i, h)
        share = 0.0
        if s == 0:
            if not house:
                allbust = 1.0
                for a in range(m):
                    allbust *= w[a, 0]
                share = allbust / (m + 1)
        else:
            below = np.zeros(MAX_PLAYERS)
            equal = np.zeros(MAX_PLAYERS)
            for a in range(m):
                for v in range(s):
                    below[a] += w[a, v]
                equal[a] = w[a, s]
            if m == 1:
                share = below[0] + equal[0] / 2
            else:
                share = below[0] * below[1] + (equal[0] * below[1] + below[0] * equal[1]) / 2 \
                    + equal[0] * equal[1] / 3
        out[h] = scale * share * pot - put * others


@kernel
def cf_values(st, params, i, reach, index, ssum):
    """Counterfactual values of ``i`` per own hidden class below ``st`` (``reach[p, h]``: the others'
    reach of each hidden class, prior included): row 0 under the average strategy, row 1 with
    ``i`` playing its best response (a max per hidden class at each of its public nodes)."""
    out = np.zeros((2, CLASSES))
    if st[HS_PHASE] == PH_DONE or st[_at(i, ST_FOLD)] == 1:
        _terminal_values(st, params, i, reach, out[0])
        out[1] = out[0]
        return out
    if st[HS_PENDING] >= 0:
        for c in range(CLASSES):
            ch = st.copy()
            deal_hit(ch, c)
            v = cf_values(ch, params, i, reach, index, ssum)
            for b in range(2):
                for h in range(CLASSES):
                    out[b, h] += CLASS_PROB[c] * v[b, h]
        return out
    p = st[HS_TOACT]
    acts = np.empty(MAX_ACTIONS, np.int64)
    k = legal(st, params, acts)
    sig = np.empty((CLASSES, MAX_ACTIONS))
    for h in range(CLASSES):
        average_row(index, ssum, st, params, p, h, k, sig[h])
    if p == i:
        for j in range(k):
            ch = st.copy()
            apply(ch, params, acts[j])
            v = cf_values(ch, params, i, reach, index, ssum)
            for h in range(CLASSES):
                out[0, h] += sig[h, j] * v[0, h]
                if j == 0 or v[1, h] > out[1, h]:
                    out[1, h] = v[1, h]
        return out
    for j in range(k):
        r2 = reach.copy()
        live = 0.0
        for h in range(CLASSES):
            r2[p, h] = reach[p, h] * sig[h, j]
            live += r2[p, h]
        if live <= 0.0:
            continue
        ch = st.copy()
        apply(ch, params, acts[j])
        v = cf_values(ch, params, i, r2, index, ssum)
        for b in range(2):
            for h in range(CLASSES):
                out[b, h] += v[b, h]
    return out


N_CATEGORIES = 4
"""Final-round hand categories of the bluff table: bust, weak (<= 16), middling (17-18), strong (19-21)."""
TALLY_COUNT = 5
"""Last column of the action tally: decisions seen (the others: probability mass of each action)."""


@kernel(inline=True)
def _category(total):
    """A showdown total's category: 0 bust, 1 up to 16, 2 17-18, 3 19-21."""
    if total == 0:
        return 0
    if total <= 16:
        return 1
    if total <= 18:
        return 2
    return 3


@kernel
def tally(params, key, hands, index, ssum, acts_out, bluff_out, money):
    """Play ``hands`` hands (hand ``g`` on stream ``g``) with the average strategy and add up what
    each seat does: ``acts_out[phase, seat, hidden, facing, own visible total, action]`` the
    probability of each action (column ``TALLY_COUNT``: decisions); ``bluff_out[seat, category]``: final
    round with no bet yet, ``[decisions, bet probability, bets made, bets that won the pot alone]``;
    ``money[seat]``: the sum of its results and of their squares."""
    n = params[PV_N]
    rng = np.empty(4, np.uint64)
    st = np.empty(HS_SIZE, np.int64)
    up = np.empty(n, np.int64)
    hid = np.empty(n, np.int64)
    acts = np.empty(MAX_ACTIONS, np.int64)
    sigma = np.empty(MAX_ACTIONS)
    up_free = np.full(n, -1, np.int64)
    bettor = np.empty(n, np.int64)
    for g in range(hands):
        seed_state(rng, key, g)
        _deal(rng, params, up_free, up, hid)
        init_state(st, params, up, hid)
        bettor[:] = -1
        while st[HS_PHASE] != PH_DONE:
            if st[HS_PENDING] >= 0:
                deal_hit(st, _draw_class(rng))
                continue
            p = st[HS_TOACT]
            ph = st[HS_PHASE]
            k = legal(st, params, acts)
            average_row(index, ssum, st, params, p, hid[p], k, sigma)
            facing = 1 if st[HS_LEVEL] > st[_at(p, ST_BET)] else 0
            hard, ace = _visible(st, p)
            vis = _best(hard, ace)
            for j in range(k):
                acts_out[ph, p, hid[p], facing, vis, acts[j]] += sigma[j]
            acts_out[ph, p, hid[p], facing, vis, TALLY_COUNT] += 1.0
            j = _sample(rng, sigma, k)
            if ph == PH_FINAL and st[HS_LEVEL] == 0:
                cat = _category(_strength(st, p, hid[p]))
                bluff_out[p, cat, 0] += 1.0
                bluff_out[p, cat, 1] += sigma[k - 1]  # with no bet, the last action is the bet
                if acts[j] == A_RAISE:
                    bluff_out[p, cat, 2] += 1.0
                    bettor[p] = cat
            apply(st, params, acts[j])
        if _active(st) == 1:
            for p in range(n):
                if st[_at(p, ST_FOLD)] == 0 and bettor[p] >= 0:
                    bluff_out[p, bettor[p], 3] += 1.0
        for p in range(n):
            u = payoff(st, params, p)
            money[p, 0] += u
            money[p, 1] += u * u
