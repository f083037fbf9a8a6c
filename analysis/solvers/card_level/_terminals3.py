"""Three-handed terminal values in O(n x cards) per terminal: sorted prefix sums, card removal.

The traverser ``t`` holds ``h``; the opponents ``u`` and ``q`` hold ``o`` and ``j``. A
terminal's value of ``h`` is the sum over every pair ``(o, j)`` with no card in common
with ``h`` or each other of ``r_u(o) r_q(j) pay(winners, classes)``. The winners depend
on the hands only through their strengths, so the pairs are counted by *bands* of
strength relative to ``h`` (below, equal, above: positions in each opponent's holdings
sorted by strength, ``lo``/``hi`` of :mod:`._kernels3`'s holding arrays) and the
payoffs by class *groups* (classes that pay alike at the terminal), one pass per pair of
groups (usually one).

Pairs of two independent bands: ``U Q - sum_c U_c Q_c + S`` (inclusion-exclusion: two
holdings that share one card are counted once per shared card, the same holding in both
ranges twice), with ``U_c`` the band's reach of holdings with card ``c`` (per-card
prefix sums), ``S`` the band's reach of holdings in both ranges, and every term cleared
of holdings that touch ``h`` (the holdings made of one card of ``h`` and card ``c`` taken
off each ``U_c``). Pairs where one opponent's hand beats the other's (who wins when ``h``
is beaten or folded) couple the bands: the sum over ``o`` of ``r_u(o)`` times ``q``'s reach
below ``o`` clear of ``o`` is a prefix sum of a per-holding row; clearing ``h``'s cards from
the inner sum walks the inner holdings that hold one of them (at most 2 x 38). The last
winner set is the total less the others. A terminal costs O(n x cards); the plain-pairs
kernel (:func:`._kernels3._terminal_pairs`, O(n^2)) and the plain-Python reference check it.
"""

from __future__ import annotations

import numpy as np

from evaluator.jit import kernel

from ._layout import (
    HD_BEFORE,
    HD_CARDN,
    HD_CARDPOS,
    HD_CARDS,
    HD_HI,
    HD_LO,
    HD_N,
    HD_ORDER,
    HD_PAIRIDX,
    HD_POS,
    TH_NODES,
)
from .tree3 import LIVE, PAY

B, E, A = 0, 1, 2
"""Strength bands relative to the traverser's holding: below, equal, above."""


@kernel
def _prefix(x, row, n, order, cardn, cardpos, cum, cc):
    """``cum[P]``: ``row`` summed over player ``x``'s ``P`` weakest holdings; ``cc[c, i]``: over the
    ``i`` weakest holding card ``c``."""
    cum[0] = 0.0
    for p in range(n[x]):
        cum[p + 1] = cum[p] + row[order[x, p]]
    for c in range(cardn.shape[1]):
        cc[c, 0] = 0.0
        for i in range(cardn[x, c]):
            cc[c, i + 1] = cc[c, i] + row[order[x, cardpos[x, c, i]]]


@kernel
def _below(x, a, b, p, sums, hands):
    """``row`` summed over player ``x``'s holdings at positions ``< p`` holding neither card ``a``
    nor ``b`` (``a != b``); ``sums = (row, cum, cc)`` as :func:`_prefix` fills them, ``hands``
    the holding arrays (``HD_*``)."""
    row, cum, cc = sums
    before, pos, pairidx = hands[HD_BEFORE], hands[HD_POS], hands[HD_PAIRIDX]
    s = cum[p] - cc[a, before[x, a, p]] - cc[b, before[x, b, p]]
    j = pairidx[x, a, b]
    if j >= 0 and pos[x, j] < p:
        s += row[j]
    return s


@kernel
def _from3(x, p, h0, h1, d, sums, hands):
    """``row`` summed over player ``x``'s holdings at positions ``>= p`` holding none of the cards
    ``h0, h1, d`` (``d`` may repeat ``h0`` or ``h1``); ``sums = (row, cum, cc)``."""
    row, cum, cc = sums
    cardn, before, pos, pairidx = hands[HD_CARDN], hands[HD_BEFORE], hands[HD_POS], hands[HD_PAIRIDX]
    m = hands[HD_N][x]
    s = cum[m] - cum[p]
    s -= cc[h0, cardn[x, h0]] - cc[h0, before[x, h0, p]]
    s -= cc[h1, cardn[x, h1]] - cc[h1, before[x, h1, p]]
    j = pairidx[x, h0, h1]
    if j >= 0 and pos[x, j] >= p:
        s += row[j]
    if d != h0 and d != h1:
        s -= cc[d, cardn[x, d]] - cc[d, before[x, d, p]]
        j = pairidx[x, h0, d]
        if j >= 0 and pos[x, j] >= p:
            s += row[j]
        j = pairidx[x, h1, d]
        if j >= 0 and pos[x, j] >= p:
            s += row[j]
    return s


@kernel
def _advance(x, upto, at, row, order, hc, acc):
    """Add ``row`` of player ``x``'s holdings at positions ``at .. upto - 1`` to ``acc`` of both their
    cards (a per-card prefix sum swept forward); returns the new position."""
    while at < upto:
        o = order[x, at]
        r = row[o]
        acc[hc[x, o, 0]] += r
        acc[hc[x, o, 1]] += r
        at += 1
    return at


@kernel
def _bands(x, hole, edges, row, acc, hands, out):
    """``band[k, c]``: ``row`` over player ``x``'s holdings with card ``c`` in band ``k`` (positions
    ``< p1``, ``[p1, p2)``, ``>= p2``; ``acc = (alo, ahi, atot)``: the per-card sums below ``p1``,
    below ``p2`` and in all), those touching ``hole = (h0, h1)`` left out; ``tot[k]``: the band's
    sum over holdings clear of both (each holding has two cards: half the per-card sums).
    ``edges = (p1, p2)``, ``out = (band, tot)``."""
    h0, h1 = hole
    p1, p2 = edges
    alo, ahi, atot = acc
    band, tot = out
    pos, pairidx = hands[HD_POS], hands[HD_PAIRIDX]
    n_cards = alo.shape[0]
    for c in range(n_cards):
        band[0, c] = alo[c]
        band[1, c] = ahi[c] - alo[c]
        band[2, c] = atot[c] - ahi[c]
    for y in (h0, h1):
        for c in range(n_cards):
            j = pairidx[x, y, c]
            if j >= 0:
                p = pos[x, j]
                band[0 if p < p1 else (1 if p < p2 else 2), c] -= row[j]
    for k in range(3):
        band[k, h0] = 0.0
        band[k, h1] = 0.0
        t = 0.0
        for c in range(n_cards):
            t += band[k, c]
        tot[k] = 0.5 * t


@kernel
def _by_card(x, y, hands, rx, ccy, ry, out):
    """``yt[c, o]``: ``r_x(o)`` times ``y``'s reach of the holdings with card ``c`` weaker than ``o``
    and clear of it (0 when ``o`` holds ``c``); ``ys[c, P]``: its sum over ``x``'s positions ``>= P``.
    ``rx``, ``ry`` the players' reach rows, ``ccy`` ``y``'s per-card prefix sums (:func:`_prefix`),
    ``out = (yt, ys)``."""
    yt, ys = out
    n, hc, order, lo = hands[HD_N], hands[HD_CARDS], hands[HD_ORDER], hands[HD_LO]
    cardn, before, pos, pairidx = hands[HD_CARDN], hands[HD_BEFORE], hands[HD_POS], hands[HD_PAIRIDX]
    m = n[x]
    for c in range(cardn.shape[1]):
        ys[c, m] = 0.0
        if cardn[y, c] == 0:
            for p in range(m - 1, -1, -1):
                yt[c, order[x, p]] = 0.0
                ys[c, p] = 0.0
            continue
        for p in range(m - 1, -1, -1):
            o = order[x, p]
            o0, o1 = hc[x, o, 0], hc[x, o, 1]
            z = 0.0
            if rx[o] != 0.0 and c != o0 and c != o1:
                top = lo[x, y, o]
                z = ccy[c, before[y, c, top]]
                j = pairidx[y, c, o0]
                if j >= 0 and pos[y, j] < top:
                    z -= ry[j]
                j = pairidx[y, c, o1]
                if j >= 0 and pos[y, j] < top:
                    z -= ry[j]
                z *= rx[o]
            yt[c, o] = z
            ys[c, p] = ys[c, p + 1] + z


@kernel
def _beaten_by(xy, hole, start, hands, sx, ry, sxy, ycut):
    """Pairs where ``x``'s holding (positions ``>= start``) beats ``y``'s (``xy = (x, y)``), both
    clear of ``h``'s cards (``hole = (h0, h1)``) and of each other: ``sum_o r_x(o) * (y's reach
    below o clear of o)`` (``sxy = (rowxy, cumxy, ccxy)``) less the inner holdings with a card of
    ``h`` (``ycut = (yt, ys)`` of :func:`_by_card`; the outer holdings with ``h``'s other card
    walked), plus ``h`` itself in ``y``'s range ``ry`` (taken off twice). ``sx = (rx, cumx, ccx)``."""
    x, y = xy
    h0, h1 = hole
    rowxy, cumxy, ccxy = sxy
    yt, ys = ycut
    n, order, hi = hands[HD_N], hands[HD_ORDER], hands[HD_HI]
    cardn, cardpos = hands[HD_CARDN], hands[HD_CARDPOS]
    before, pos, pairidx = hands[HD_BEFORE], hands[HD_POS], hands[HD_PAIRIDX]
    s = cumxy[n[x]] - cumxy[start]
    s -= ccxy[h0, cardn[x, h0]] - ccxy[h0, before[x, h0, start]]
    s -= ccxy[h1, cardn[x, h1]] - ccxy[h1, before[x, h1, start]]
    j = pairidx[x, h0, h1]
    if j >= 0 and pos[x, j] >= start:
        s += rowxy[j]
    s -= ys[h0, start] + ys[h1, start]
    for i in range(before[x, h1, start], cardn[x, h1]):  # x's holdings with h1, at or past start
        s += yt[h0, order[x, cardpos[x, h1, i]]]
    for i in range(before[x, h0, start], cardn[x, h0]):
        s += yt[h1, order[x, cardpos[x, h0, i]]]
    j = pairidx[y, h0, h1]
    if j >= 0 and ry[j] != 0.0:
        p = max(start, hi[y, x, j])
        s += ry[j] * _from3(x, p, h0, h1, h0, sx, hands)
    return s


@kernel
def payoff_cube(pay, s, trav, u, q):
    """``trav``'s payoff table ``s`` with the classes in the order (``trav``, ``u``, ``q``):
    ``tt[w, a, b, c]`` for each of the 8 showdown outcomes ``w``."""
    nk = pay.shape[3]
    tt = np.zeros((8, nk, nk, nk))
    cl = np.zeros(3, np.int64)
    for w in range(8):
        for a in range(nk):
            for b in range(nk):
                for c in range(nk):
                    cl[trav], cl[u], cl[q] = a, b, c
                    tt[w, a, b, c] = pay[s, trav, w, cl[0], cl[1], cl[2]]
    return tt


@kernel
def _class_groups_of(tt, axis):
    """Classes of an opponent (``axis`` 2: ``u``, 3: ``q`` of ``tt[w, a, b, c]``) merged where they
    pay alike: each class's group, a class of each group and the number of groups."""
    nk = tt.shape[3]
    group = np.zeros(nk, np.int64)
    rep = np.zeros(nk, np.int64)
    ng = 0
    for k in range(nk):
        found = -1
        for gi in range(ng):
            r = rep[gi]
            same = True
            for w in range(8):
                for a in range(nk):
                    for b in range(nk):
                        if axis == 3:
                            x, y = tt[w, a, b, k], tt[w, a, b, r]
                        else:
                            x, y = tt[w, a, k, b], tt[w, a, r, b]
                        if x != y:
                            same = False
            if same:
                found = gi
                break
        if found < 0:
            rep[ng] = k
            group[k] = ng
            ng += 1
        else:
            group[k] = found
    return group, rep, ng


@kernel
def terminal_values(v, trav, tree, hands, pay, reach, inv, out):
    """Counterfactual values of ``trav``'s holdings at terminal ``v`` (see the module doc)."""
    terminal_values_of(v, trav, (tree, hands, pay), reach, inv, out, np.ones(hands[HD_N][trav], np.bool_))


@kernel
def terminal_values_of(v, trav, spot, reach, inv, out, keep):
    """The same for the holdings ``h`` with ``keep[h]`` only (the others' values 0): a best response
    measured on a sample of holdings costs in proportion (``spot`` = (tree, hands, pay), as in
    :mod:`._kernels3`).

    The helpers take ``hands`` whole and their per-player sums as tuples made once per call
    (``(row, cum, cc)``), not per holding."""
    tree, hands, pay = spot
    nodes = tree[TH_NODES]
    n, hc, cls, score, order, pos, lo, hi, cardn, cardpos, before, pairidx = hands
    s, live = nodes[v, PAY], nodes[v, LIVE]
    u, q = (trav + 1) % 3, (trav + 2) % 3
    tt = payoff_cube(pay, s, trav, u, q)
    gu, repu, ngu = _class_groups_of(tt, 2)
    gq, repq, ngq = _class_groups_of(tt, 3)
    t_live, u_live, q_live = (live >> trav) & 1, (live >> u) & 1, (live >> q) & 1
    bt, bu, bq = 1 << trav, 1 << u, 1 << q
    nt, nu, nq = n[trav], n[u], n[q]
    n_cards = cardn.shape[1]
    width = cardpos.shape[2] + 1
    size = max(nu, nq)
    ru = np.zeros(size)
    rq = np.zeros(size)
    rs = np.zeros(size)
    rus = np.zeros(size)
    rqs = np.zeros(size)
    cum = np.zeros((5, size + 1))
    cc = np.zeros((5, n_cards, width))
    ub = np.zeros((4, n_cards))
    qb = np.zeros((4, n_cards))
    acc = np.zeros((6, n_cards))  # per-card sums: u below lo, below hi, all; the same for q
    ut, qt, same = np.zeros(4), np.zeros(4), np.zeros(4)
    m = np.zeros((4, 4))
    yt = np.empty((2, n_cards, size))  # written in full by _by_card
    ys = np.empty((2, n_cards, size + 1))
    # the helpers' grouped views, made once (not per holding)
    s_u, s_q, s_s = (ru, cum[0], cc[0]), (rq, cum[1], cc[1]), (rs, cum[2], cc[2])
    s_us, s_qs = (rus, cum[3], cc[3]), (rqs, cum[4], cc[4])
    acc_u, acc_q = (acc[0], acc[1], acc[2]), (acc[3], acc[4], acc[5])
    y_u, y_q = (yt[0], ys[0]), (yt[1], ys[1])
    # the pairs of bands each kind of end needs (band 3: all)
    need = np.zeros((5, 2), np.int64)
    if t_live and u_live and q_live:
        n_need = 5
        need[0, 0], need[0, 1], need[1, 0], need[1, 1], need[2, 0], need[2, 1] = B, B, E, B, B, E
        need[3, 0], need[3, 1], need[4, 0], need[4, 1] = E, E, 3, 3
    elif t_live and (u_live or q_live):
        n_need = 3
        for k in range(3):
            need[k, 0], need[k, 1] = (k, 3) if u_live else (3, k)
    else:
        n_need = 1
        need[0, 0], need[0, 1] = 3, 3
    coupled = live == bu | bq or live == 7  # the opponents' hands compared with each other
    for h in range(nt):
        out[h] = 0.0
    for g1 in range(ngu):
        for g2 in range(ngq):
            for o in range(nu):
                ru[o] = reach[v, u, o] if gu[cls[u, o]] == g1 else 0.0
            for j in range(nq):
                rq[j] = reach[v, q, j] if gq[cls[q, j]] == g2 else 0.0
            for j in range(nq):  # the same holding in both opponents' ranges
                k = pairidx[u, hc[q, j, 0], hc[q, j, 1]]
                rs[j] = rq[j] * ru[k] if k >= 0 else 0.0
            _prefix(u, ru, n, order, cardn, cardpos, cum[0], cc[0])
            _prefix(q, rq, n, order, cardn, cardpos, cum[1], cc[1])
            _prefix(q, rs, n, order, cardn, cardpos, cum[2], cc[2])
            if coupled:
                for o in range(nu):  # o times q's reach below o, clear of o
                    rus[o] = 0.0 if ru[o] == 0.0 else ru[o] * _below(
                        q, hc[u, o, 0], hc[u, o, 1], lo[u, q, o], s_q, hands)
                for j in range(nq):
                    rqs[j] = 0.0 if rq[j] == 0.0 else rq[j] * _below(
                        u, hc[q, j, 0], hc[q, j, 1], lo[q, u, j], s_u, hands)
                _prefix(u, rus, n, order, cardn, cardpos, cum[3], cc[3])
                _prefix(q, rqs, n, order, cardn, cardpos, cum[4], cc[4])
                _by_card(u, q, hands, ru, cc[1], rq, y_u)
                _by_card(q, u, hands, rq, cc[0], ru, y_q)
            ku, kq = repu[g1], repq[g2]
            acc[:] = 0.0
            _advance(u, nu, 0, ru, order, hc, acc[2])
            _advance(q, nq, 0, rq, order, hc, acc[5])
            at = np.zeros(4, np.int64)
            for ih in range(nt):  # the traverser's holdings by strength: the band edges only move up
                h = order[trav, ih]
                if not keep[h]:
                    continue
                h0, h1 = hc[trav, h, 0], hc[trav, h, 1]
                a = cls[trav, h]
                lu, hu, lq, hq = lo[trav, u, h], hi[trav, u, h], lo[trav, q, h], hi[trav, q, h]
                at[0] = _advance(u, lu, at[0], ru, order, hc, acc[0])
                at[1] = _advance(u, hu, at[1], ru, order, hc, acc[1])
                at[2] = _advance(q, lq, at[2], rq, order, hc, acc[3])
                at[3] = _advance(q, hq, at[3], rq, order, hc, acc[4])
                _bands(u, (h0, h1), (lu, hu), ru, acc_u, hands, (ub, ut))
                _bands(q, (h0, h1), (lq, hq), rq, acc_q, hands, (qb, qt))
                for c in range(n_cards):  # band 3: all of them
                    ub[3, c] = ub[0, c] + ub[1, c] + ub[2, c]
                    qb[3, c] = qb[0, c] + qb[1, c] + qb[2, c]
                ut[3] = ut[0] + ut[1] + ut[2]
                qt[3] = qt[0] + qt[1] + qt[2]
                # the same holding in both ranges (q's positions), per band
                same[3] = _below(q, h0, h1, nq, s_s, hands)
                same[0] = _below(q, h0, h1, lq, s_s, hands)
                same[1] = _below(q, h0, h1, hq, s_s, hands) - same[0]
                same[2] = same[3] - same[0] - same[1]
                # pairs of holdings in bands (x of u, y of q): products less shared cards, the ones needed
                for i in range(n_need):
                    bx, by = need[i, 0], need[i, 1]
                    d = ut[bx] * qt[by]
                    for c in range(n_cards):
                        d -= ub[bx, c] * qb[by, c]
                    if bx == 3 or by == 3 or bx == by:
                        d += same[by if bx == 3 else bx]
                    m[bx, by] = d
                total = m[3, 3]
                x = 0.0
                if t_live and u_live and q_live:
                    mt, mtu, mtq, mtuq = m[B, B], m[E, B], m[B, E], m[E, E]
                    mu = _beaten_by((u, q), (h0, h1), hu, hands, s_u, rq, s_us, y_u)
                    mq = _beaten_by((q, u), (h0, h1), hq, hands, s_q, ru, s_qs, y_q)
                    muq = total - mt - mtu - mtq - mtuq - mu - mq
                    x = (mt * tt[bt, a, ku, kq] + mtu * tt[bt | bu, a, ku, kq] + mtq * tt[bt | bq, a, ku, kq]
                         + mtuq * tt[7, a, ku, kq] + mu * tt[bu, a, ku, kq] + mq * tt[bq, a, ku, kq]
                         + muq * tt[bu | bq, a, ku, kq])
                elif t_live and u_live:
                    x = m[B, 3] * tt[bt, a, ku, kq] + m[E, 3] * tt[bt | bu, a, ku, kq] + m[A, 3] * tt[bu, a, ku, kq]
                elif t_live and q_live:
                    x = m[3, B] * tt[bt, a, ku, kq] + m[3, E] * tt[bt | bq, a, ku, kq] + m[3, A] * tt[bq, a, ku, kq]
                elif u_live and q_live:
                    mu = _beaten_by((u, q), (h0, h1), 0, hands, s_u, rq, s_us, y_u)
                    mq = _beaten_by((q, u), (h0, h1), 0, hands, s_q, ru, s_qs, y_q)
                    x = mu * tt[bu, a, ku, kq] + mq * tt[bq, a, ku, kq] + (total - mu - mq) * tt[bu | bq, a, ku, kq]
                else:
                    x = total * tt[live, a, ku, kq]
                out[h] += x * inv
