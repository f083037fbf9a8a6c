"""Vector-form CFR for three-handed river spots: one value per holding at every node.

A traversal for player ``trav`` first writes every player's reach of each of its
holdings at every node (top-down, preorder), then each terminal's counterfactual
values of ``trav``'s holdings (in parallel over terminals), then closes the
decisions bottom-up (reverse preorder): the traverser's regrets and strategy sums
are updated as in the heads-up kernels (:mod:`._kernels`: postflop-solver's DCFR
or CFR+, alternating updates), or its best response taken. Values carry both
opponents' reach and are divided by the weighted number of compatible triples of
holdings, so ``sum_h w(h) v_root(h) + pot / 3`` is a player's expected chips at
the end of the hand less its stack at the root.

Terminal values: :func:`._terminals3.terminal_values`, O(n x cards) per terminal (strength
bands and per-card prefix sums with card removal, no pairs of holdings). The pair-by-pair
kernel it replaced, :func:`_terminal_pairs`, O(n_t x n_u) per terminal (``u`` and ``q`` the two
opponents, in the order that costs least: fewer pairs, and one prefix sum instead of three when
``q`` folded), stays as its check. For a holding ``h`` of the traverser and ``o`` of ``u``, the sum
over ``q``'s holdings that block neither is read from prefix sums over ``q``'s holdings sorted by
strength, per group of classes that pay alike at that terminal (:mod:`.dilemma_terminals`; usually one
group), less per-card prefix sums of the four cards of ``h`` and ``o``, plus the holdings made of
two of those cards (inclusion-exclusion: a holding has two cards). Who wins depends on ``q``'s
holding only through its strength against the best of ``h`` and ``o`` still in (below: they win;
equal: a tie with ``q``; above: ``q`` wins), so three prefix sums (below, up to, all) per pair give
the exact value.

Numbers do not depend on the thread count: each terminal is one task writing its
own row (in parallel only when terminals are large, :data:`PARALLEL_PAIRS`), and
everything else is serial.

Kernel inputs (tuples, one numba type each):

- ``tree`` = (nodes, children, terminals, decisions): the expanded tree (:mod:`.tree3`), read
  as ``tree[TH_*]`` (:func:`._layout.pack_tree3`).
- ``hands`` = (n, hc, cls, score, order, pos, lo, hi, cardn, cardpos, before, pairidx)
  (``hands[HD_*]``, :func:`._layout.pack_hands`): the
  holding arrays of :func:`.multiway.board_hands` (each player's count of holdings, their
  cards, classes and strengths, the holdings by strength and each one's position, the strength
  band edges in each other player's order, per card the holdings holding it, their positions
  and how many come before a position, and the holding index of each pair of cards).
- ``spot`` = (tree, hands, pay): what a terminal's values read (``pay``: the payoff tables,
  ``pay[s, p, winners, class of 0, of 1, of 2]``).
- ``cfr`` = (regrets, sums, iopts, coefs): each player's cumulative regrets and strategy sums
  and this call's settings (``O_*`` ints, the ``C_*`` floats of :mod:`._kernels`).
- ``work`` = (strat, reach, vals): every decision's strategy (per player, laid out like the
  regrets), every node's reach (float64[nodes, 3, H]) and the traverser's values
  (float64[nodes, H]).

Node locking (as heads-up, :mod:`._kernels`): a decision whose ``LOCK`` column is set plays the
strategy held in its strategy sums (written there by :meth:`.multiway.NodeTable3.lock`) as both
its current and its average strategy (the others' reach and the node's value), is never
updated, and does not best-respond in a best response (the actor's best response keeps it).
"""

from __future__ import annotations

import numpy as np
from numba import prange

from evaluator.jit import kernel

from ._kernels import (
    C_ALPHA,
    C_BETA,
    C_GAMMA,
    C_INV_PAIRS,
    C_WEIGHT,
    METHOD_DCFR,
    MODE_BR,
    MODE_CFR,
    dcfr_coefs,
    strategy_into,
)
from ._layout import HD_N, TH_CHILDREN, TH_DECISIONS, TH_NODES, TH_TERMINALS
from ._terminals3 import _class_groups_of, payoff_cube, terminal_values_of
from .tree3 import COUNT, LIVE, LOCK, PAY, PLAYER, SLOT

METHOD_LINEAR = 2
"""Linear CFR (Brown & Sandholm): regrets and the average weighted by the iteration number, no
floor and no other discount, so sampled (noisy but unbiased) values stay unbiased in the sums."""
# iopts
O_TRAV, O_MODE, O_METHOD, O_PARALLEL_PAIRS, O_REACH_AVERAGE = range(5)
N_IOPTS = 5
PAIRS_BELOW, PAIRS_SETUP = 12, 4
"""A terminal runs pair by pair when ``n_t x (min(n_u, n_q) - PAIRS_BELOW) <= PAIRS_SETUP x (n_u + n_q)``:
a band costs about as much per holding as 12 pairs (measured on the river, the traverser and one
opponent holding random ranges: the crossover is a narrower range of 8-16 holdings), plus a setup
per terminal in proportion to the opponents' holdings (a narrow traverser range: pairs)."""
PARALLEL_PAIRS = 20_000
"""Default ``iopts[O_PARALLEL_PAIRS]``: terminals run in parallel when the traverser's holdings
times the smaller opponent range reach this (below, a parallel region costs more than it saves
on a busy machine)."""


@kernel
def _strategies(tree, n, regrets, sums, mode, strat):
    """Every decision's strategy into ``strat``: regret matching (CFR) or the average (EV, BR)."""
    nodes, _, _, decisions = tree
    total = np.empty(max(n[0], n[1], n[2]))
    for i in range(decisions.shape[0]):
        strategy_at(decisions[i], nodes, n, regrets, sums, mode, strat, total)


@kernel
def strategy_at(v, nodes, n, regrets, sums, mode, strat, total):
    """Decision ``v``'s strategy into ``strat``: regret matching (CFR) or the average (EV, BR, and
    a locked decision always)."""
    p, k, slot = nodes[v, PLAYER], nodes[v, COUNT], nodes[v, SLOT]
    m = n[p]
    view = strat[p][slot : slot + k * m].reshape((k, m))
    if mode == MODE_CFR and nodes[v, LOCK] == 0:
        strategy_into(regrets[p], slot, k, m, view, total)
    else:
        strategy_into(sums[p], slot, k, m, view, total)


@kernel
def _reach(tree, n, weights, strat, reach):
    """Each player's reach of each of its holdings at every node (top-down)."""
    nodes, children, _, decisions = tree
    for p in range(3):
        for h in range(n[p]):
            reach[0, p, h] = weights[p, h]
    for i in range(decisions.shape[0]):
        reach_decision(decisions[i], nodes, children, n, strat, reach)


@kernel
def reach_decision(v, nodes, children, n, strat, reach):
    """The reach at decision ``v``'s children: the actor's scaled by its strategy."""
    p, k, slot = nodes[v, PLAYER], nodes[v, COUNT], nodes[v, SLOT]
    m = n[p]
    s = strat[p]
    for a in range(k):
        c = children[v, a]
        for q in range(3):
            for h in range(n[q]):
                reach[c, q, h] = reach[v, q, h]
        sa, rc = s[slot + a * m : slot + (a + 1) * m], reach[c, p]
        for h in range(m):
            rc[h] *= sa[h]


@kernel
def _side(x, y, q, P, inner, acc):
    """``acc[g]``: ``q``'s reach of group ``g`` in sorted positions ``< P`` touching neither card
    ``x`` nor ``y`` (one player's part of a prefix sum: per-card sums taken off, the holding
    ``xy`` itself added back). ``inner`` = (pos, before, pairidx, cls, group, rq, cum, cardcum):
    the holding arrays' four, the group of each of ``q``'s classes, ``q``'s reach and its prefix
    sums per group (``cum[g, P]``) and per card and group (``cardcum[c, g, i]``)."""
    pos, before, pairidx, cls, group, rq, cum, cardcum = inner
    jx, jy = before[q, x, P], before[q, y, P]
    for gi in range(acc.shape[0]):
        acc[gi] = cum[gi, P] - cardcum[x, gi, jx] - cardcum[y, gi, jy]
    j = pairidx[q, x, y]
    if j >= 0 and pos[q, j] < P:
        acc[group[cls[q, j]]] += rq[j]


@kernel
def _cross(h0, h1, o0, o1, q, P, inner, acc):
    """Add to ``acc`` ``q``'s reach (positions ``< P``) of the holdings made of a card of ``h`` and
    one of ``o`` (taken off twice by the two players' parts; ``inner`` as :func:`_side`'s)."""
    pos, _, pairidx, cls, group, rq, _, _ = inner
    for x in (h0, h1):
        for y in (o0, o1):
            j = pairidx[q, x, y]
            if j >= 0 and pos[q, j] < P:
                acc[group[cls[q, j]]] += rq[j]


@kernel
def _pair_cost(n, live, trav, u, q):
    """Work of a terminal with ``u`` the outer and ``q`` the inner opponent: pairs times prefix sums."""
    sums = 3 if (live >> q) & 1 and live & ~(1 << q) & ((1 << trav) | (1 << u)) else 1
    return n[u] * sums


@kernel(inline=True)
def _terminal(v, trav, tree, hands, pay, reach, inv, out):
    """Counterfactual values of ``trav``'s holdings at terminal ``v``."""
    _terminal_keep(v, trav, (tree, hands, pay), reach, inv, out, np.ones(hands[HD_N][trav], np.bool_))


@kernel(inline=True)
def _terminal_keep(v, trav, spot, reach, inv, out, keep):
    """The same for the holdings with ``keep[h]`` (the others 0): by pairs of holdings when a range
    is narrow (:data:`PAIRS_BELOW`), else by strength bands (O(n x cards))."""
    tree, hands, pay = spot
    n = hands[HD_N]
    nu, nq = n[(trav + 1) % 3], n[(trav + 2) % 3]
    if n[trav] * (min(nu, nq) - PAIRS_BELOW) <= PAIRS_SETUP * (nu + nq):
        _terminal_pairs(v, trav, spot, reach, inv, out, keep)
    else:
        terminal_values_of(v, trav, spot, reach, inv, out, keep)


@kernel
def _terminal_pairs(v, trav, spot, reach, inv, out, keep):
    """Counterfactual values of ``trav``'s holdings with ``keep[h]`` at terminal ``v`` pair by pair
    (see the module doc): O(n_t x n_u), the check of :func:`._terminals3.terminal_values` and the
    faster of the two when an opponent holds a few holdings. ``spot`` is ``(tree, hands, pay)``."""
    tree, hands, pay = spot
    nodes = tree[TH_NODES]
    n, hc, cls, score, order, pos, lo, hi, cardn, cardpos, before, pairidx = hands
    s, live = nodes[v, PAY], nodes[v, LIVE]
    u, q = (trav + 1) % 3, (trav + 2) % 3
    if _pair_cost(n, live, trav, q, u) < _pair_cost(n, live, trav, u, q):
        u, q = q, u
    tt = payoff_cube(pay, s, trav, u, q)
    group, rep, ng = _class_groups_of(tt, 3)  # the inner player q's classes
    nq = n[q]
    rq, ru = reach[v, q], reach[v, u]
    cum = np.zeros((ng, nq + 1))
    for P in range(nq):
        j = order[q, P]
        for g in range(ng):
            cum[g, P + 1] = cum[g, P]
        cum[group[cls[q, j]], P + 1] += rq[j]
    n_cards = cardn.shape[1]
    cardcum = np.zeros((n_cards, ng, cardpos.shape[2] + 1))
    for c in range(n_cards):
        for i in range(cardn[q, c]):
            j = order[q, cardpos[q, c, i]]
            for g in range(ng):
                cardcum[c, g, i + 1] = cardcum[c, g, i]
            cardcum[c, group[cls[q, j]], i + 1] += rq[j]
    inner = (pos, before, pairidx, cls, group, rq, cum, cardcum)
    t_live, u_live, q_live = (live >> trav) & 1, (live >> u) & 1, (live >> q) & 1
    bt, bu, bq = 1 << trav, 1 << u, 1 << q
    strength = q_live and (t_live or u_live)  # q's holding is compared with the best of h and o
    # the parts of the three prefix sums that depend on o alone (see _side)
    no = n[u]
    o_tot = np.zeros((no, ng))
    o_lo = np.zeros((no, ng))
    o_hi = np.zeros((no, ng))
    for o in range(no):
        if ru[o] != 0.0:
            _side(hc[u, o, 0], hc[u, o, 1], q, nq, inner, o_tot[o])
            if strength and u_live:
                _side(hc[u, o, 0], hc[u, o, 1], q, lo[u, q, o], inner, o_lo[o])
                _side(hc[u, o, 0], hc[u, o, 1], q, hi[u, q, o], inner, o_hi[o])
    h_tot = np.zeros(ng)
    h_lo = np.zeros(ng)
    h_hi = np.zeros(ng)
    tot = np.zeros(ng)
    below_lo = np.zeros(ng)
    below_hi = np.zeros(ng)
    for h in range(n[trav]):
        if not keep[h]:
            out[h] = 0.0
            continue
        a = cls[trav, h]
        h0, h1 = hc[trav, h, 0], hc[trav, h, 1]
        _side(h0, h1, q, nq, inner, h_tot)
        if strength and t_live:
            _side(h0, h1, q, lo[trav, q, h], inner, h_lo)
            _side(h0, h1, q, hi[trav, q, h], inner, h_hi)
        x = 0.0
        for o in range(no):
            r = ru[o]
            if r == 0.0:
                continue
            o0, o1 = hc[u, o, 0], hc[u, o, 1]
            if o0 in (h0, h1) or o1 in (h0, h1):
                continue
            b = cls[u, o]
            # q's holdings touching none of h, o: h's part + o's part - all of q + the cross pairs
            for gi in range(ng):
                tot[gi] = h_tot[gi] + o_tot[o, gi] - cum[gi, nq]
            _cross(h0, h1, o0, o1, q, nq, inner, tot)
            g = 0.0
            if strength:
                # the best of h and o still in: who holds it, and the winners among them
                if t_live and u_live:
                    st, su = score[trav, h], score[u, o]
                    top_h = st >= su
                    w = (bt | (bu if st == su else 0)) if top_h else bu
                else:
                    top_h = t_live == 1
                    w = bt if top_h else bu
                if top_h:  # h's thresholds: h's part is ready, o's is read at them
                    plo, phi = lo[trav, q, h], hi[trav, q, h]
                    _side(o0, o1, q, plo, inner, below_lo)
                    _side(o0, o1, q, phi, inner, below_hi)
                    for gi in range(ng):
                        below_lo[gi] += h_lo[gi] - cum[gi, plo]
                        below_hi[gi] += h_hi[gi] - cum[gi, phi]
                else:
                    plo, phi = lo[u, q, o], hi[u, q, o]
                    _side(h0, h1, q, plo, inner, below_lo)
                    _side(h0, h1, q, phi, inner, below_hi)
                    for gi in range(ng):
                        below_lo[gi] += o_lo[o, gi] - cum[gi, plo]
                        below_hi[gi] += o_hi[o, gi] - cum[gi, phi]
                _cross(h0, h1, o0, o1, q, plo, inner, below_lo)
                _cross(h0, h1, o0, o1, q, phi, inner, below_hi)
                for gi in range(ng):
                    k = rep[gi]
                    g += (below_lo[gi] * tt[w, a, b, k] + (below_hi[gi] - below_lo[gi]) * tt[w | bq, a, b, k]
                          + (tot[gi] - below_hi[gi]) * tt[bq, a, b, k])
            else:
                if q_live:
                    w = bq
                elif t_live and u_live:
                    st, su = score[trav, h], score[u, o]
                    w = bt if st > su else (bu if su > st else bt | bu)
                elif t_live:
                    w = bt
                else:
                    w = bu
                for gi in range(ng):
                    g += tot[gi] * tt[w, a, b, rep[gi]]
            x += r * g
        out[h] = x * inv


@kernel(parallel=True)
def _terminals_parallel(trav, tree, hands, pay, reach, inv, vals):
    """Every terminal's values of ``trav``'s holdings (one task per terminal)."""
    terminals = tree[TH_TERMINALS]
    for i in prange(terminals.shape[0]):
        v = terminals[i]
        _terminal(v, trav, tree, hands, pay, reach, inv, vals[v])


@kernel(inline=True)
def _terminals(trav, tree, hands, pay, reach, inv, vals, parallel_pairs):
    """Every terminal's values of ``trav``'s holdings: in parallel when a terminal has enough pairs."""
    n = hands[HD_N]
    if n[trav] * min(n[(trav + 1) % 3], n[(trav + 2) % 3]) >= parallel_pairs:
        _terminals_parallel(trav, tree, hands, pay, reach, inv, vals)
        return
    terminals = tree[TH_TERMINALS]
    for i in range(terminals.shape[0]):
        v = terminals[i]
        _terminal(v, trav, tree, hands, pay, reach, inv, vals[v])


@kernel
def _close(tree, n, cfr, work):
    """Decisions bottom-up: values from the children's; the traverser's updates (CFR) or best response."""
    decisions = tree[TH_DECISIONS]
    for i in range(decisions.shape[0] - 1, -1, -1):
        close_decision(decisions[i], tree, n, cfr, work)


@kernel
def close_decision(v, tree, n, cfr, work):
    """Decision ``v``'s values from its children's: summed over another player's actions, the
    traverser's best response (BR) or its strategy's mix, then its regret and sum updates (CFR;
    ``iopts[O_REACH_AVERAGE]``: the strategy sum weighted by the traverser's reach of ``v``,
    ``reach[v, trav]``, as sampled walks need: an unreached node's current strategy is noise).
    A locked decision (``LOCK``) always takes its strategy's mix and is never updated."""
    nodes, children = tree[TH_NODES], tree[TH_CHILDREN]
    regrets, sums, iopts, coefs = cfr
    strat, reach, vals = work
    trav, mode, method = iopts[O_TRAV], iopts[O_MODE], iopts[O_METHOD]
    by_reach = iopts[O_REACH_AVERAGE] != 0
    m = n[trav]
    p, k, slot = nodes[v, PLAYER], nodes[v, COUNT], nodes[v, SLOT]
    locked = nodes[v, LOCK] != 0
    for h in range(m):
        vals[v, h] = 0.0
    if p != trav:
        for a in range(k):
            c = children[v, a]
            for h in range(m):
                vals[v, h] += vals[c, h]
        return
    if mode == MODE_BR and not locked:
        for h in range(m):
            x = vals[children[v, 0], h]
            for a in range(1, k):
                y = vals[children[v, a], h]
                if y > x:
                    x = y
            vals[v, h] = x
        return
    # (rows as slices: indexed as ``x[base + h]``, numba's negative-index wrap keeps LLVM from
    # loading and storing them contiguously)
    for a in range(k):
        sa, va, vc = strat[p][slot + a * m : slot + (a + 1) * m], vals[v], vals[children[v, a]]
        for h in range(m):
            va[h] += sa[h] * vc[h]
    if mode != MODE_CFR or locked:
        return
    for a in range(k):
        lo, hi = slot + a * m, slot + (a + 1) * m
        ra, ca, sa = regrets[p][lo:hi], sums[p][lo:hi], strat[p][lo:hi]
        va, vc, rv = vals[v], vals[children[v, a]], reach[v, trav]
        for h in range(m):
            r = ra[h]
            d = vc[h] - va[h]
            x = sa[h] * rv[h] if by_reach else sa[h]
            if method == METHOD_DCFR:
                ra[h] = r * (coefs[C_ALPHA] if r >= 0.0 else coefs[C_BETA]) + d
                ca[h] = ca[h] * coefs[C_GAMMA] + x
            elif method == METHOD_LINEAR:
                ra[h] = r + coefs[C_WEIGHT] * d
                ca[h] += coefs[C_WEIGHT] * x
            else:
                r += d
                ra[h] = r if r > 0.0 else 0.0
                ca[h] += coefs[C_WEIGHT] * x


@kernel(inline=True)
def traverse(spot, weights, cfr, work):
    """One traversal for ``iopts[O_TRAV]`` in ``iopts[O_MODE]``; the root's value row is ``vals[0]``
    (``weights``: float64[3, H], each player's weight of each of its holdings)."""
    tree, hands, pay = spot
    regrets, sums, iopts, coefs = cfr
    strat, reach, vals = work
    n = hands[HD_N]
    trav, mode = iopts[O_TRAV], iopts[O_MODE]
    _strategies(tree, n, regrets, sums, mode, strat)
    _reach(tree, n, weights, strat, reach)
    _terminals(trav, tree, hands, pay, reach, coefs[C_INV_PAIRS], vals, iopts[O_PARALLEL_PAIRS])
    _close(tree, n, cfr, work)


@kernel
def run(spot, weights, cfr, work, job, out):
    """The solver's one entry kernel, ``job = (mode, trav, first, count)``:

    - ``trav >= 0``: one traversal of ``trav`` in ``mode`` (every node's values in ``work``);
    - ``MODE_CFR``: iterations ``first .. first + count - 1`` (0-based), updates alternating
      over the players;
    - ``MODE_EV`` / ``MODE_BR``: every player's root value row under the average strategies
      or its best response into ``out`` (float64[3, H]).

    One entry, not one per job: numba links every callee into each entry's library and
    optimises and emits it again, so each extra entry would cost a cold run the whole
    traversal's machine code once more."""
    mode, trav, first, count = job
    _, hands, _ = spot
    _, _, iopts, coefs = cfr
    _, _, vals = work
    iopts[O_MODE] = mode
    if trav >= 0:
        iopts[O_TRAV] = trav
        traverse(spot, weights, cfr, work)
        return
    n = hands[HD_N]
    for t in range(first, first + count if mode == MODE_CFR else first + 1):
        if mode == MODE_CFR:
            dcfr_coefs(t, coefs)
        for p in range(3):
            iopts[O_TRAV] = p
            traverse(spot, weights, cfr, work)
            if mode != MODE_CFR:
                for h in range(n[p]):
                    out[p, h] = vals[0, h]


@kernel
def triples(hands, weights):
    """The weighted number of triples of holdings (players 0, 1, 2) with no card in common."""
    n, hc, _, _, _, _, _, _, _, _, _, pairidx = hands
    n_cards = pairidx.shape[1]
    card2 = np.zeros(n_cards)
    total2 = 0.0
    for j in range(n[2]):
        total2 += weights[2, j]
        card2[hc[2, j, 0]] += weights[2, j]
        card2[hc[2, j, 1]] += weights[2, j]
    cards = np.zeros(4, np.int64)
    out = 0.0
    for h in range(n[0]):
        cards[0], cards[1] = hc[0, h, 0], hc[0, h, 1]
        for o in range(n[1]):
            cards[2], cards[3] = hc[1, o, 0], hc[1, o, 1]
            if cards[2] == cards[0] or cards[2] == cards[1] or cards[3] == cards[0] or cards[3] == cards[1]:
                continue
            x = total2
            for i in range(4):
                x -= card2[cards[i]]
            for i in range(4):
                for i2 in range(i + 1, 4):
                    j = pairidx[2, cards[i], cards[i2]]
                    if j >= 0:
                        x += weights[2, j]
            out += weights[0, h] * weights[1, o] * x
    return out


__all__ = ["N_IOPTS", "O_METHOD", "O_MODE", "O_PARALLEL_PAIRS", "O_REACH_AVERAGE", "O_TRAV", "PARALLEL_PAIRS", "run",
           "traverse", "triples"]
