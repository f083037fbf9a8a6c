"""Vector-form kernels over the public tree: per node, one value per bucket history.

Two-player full-width CFR (and the exact best response) on the abstraction:
a forward sweep spreads each player's *reach* over its bucket histories
(:func:`forward`); the terminal values are matrix products with the payoff
matrices (numpy, in :mod:`.vector`); a backward sweep (:func:`backward`) sums
them up the tree for the traversing player:

- at the traverser's decision node: ``v(h) = sum_a sigma(h, a) v_a(h)`` and the
  regrets ``v_a(h) - v(h)`` (mode CFR), or the average strategy's value (mode
  EV), or ``max_a v_a(h)`` (mode BR: a best response per information set);
- at the other player's node: ``v(h) = sum_a v_a(h)`` (its strategy is in the
  reach the terminal products used);
- where the next street's buckets are dealt: ``v(h) = sum_b v(h * B + b)``.

Values carry the chance probability and the opponent's reach (they are
counterfactual values), so the regret of an information set ``(node, h)`` is
exactly what the flat-tree CFR kernels compute on the expanded tree (tested).
Layouts: :mod:`.public_tree` (``ND_*`` columns); ``reach`` float64[players, V] and
``value`` float64[V] hold one block of ``hist_sizes[street]`` per node at
``nodes[v, ND_VEC]``; terminal blocks are gathered by terminal number
(``toff``) so that each street's terminals form one matrix.
"""

from __future__ import annotations

from evaluator.jit import kernel

from ._deal_kernels import DR_HOLES, deal_payoffs
from .public_tree import (
    ND_COUNT,
    ND_FIRST,
    ND_INDEX,
    ND_KIND,
    ND_PLAYER,
    ND_STREET,
    ND_VEC,
    STREET,
    TC_NODE,
    TERMINAL,
)

MODE_CFR, MODE_EV, MODE_BR = 0, 1, 2


@kernel
def forward(nodes, hist_sizes, n_buckets, strategy, reach):
    """Every player's reach of every (node, history) under ``strategy`` (root: 1)."""
    n_players = reach.shape[0]
    h0 = hist_sizes[nodes[0, ND_STREET]]
    for q in range(n_players):
        for h in range(h0):
            reach[q, nodes[0, ND_VEC] + h] = 1.0
    for v in range(nodes.shape[0]):
        kind = nodes[v, ND_KIND]
        if kind == TERMINAL:
            continue
        f = nodes[v, ND_FIRST]
        ov = nodes[v, ND_VEC]
        hs = hist_sizes[nodes[v, ND_STREET]]
        if kind == STREET:
            oc = nodes[f, ND_VEC]
            hn = hist_sizes[nodes[f, ND_STREET]]
            for q in range(n_players):
                for h in range(hn):
                    reach[q, oc + h] = reach[q, ov + h // n_buckets]
            continue
        k = nodes[v, ND_COUNT]
        p = nodes[v, ND_PLAYER]
        base = nodes[v, ND_INDEX]
        for a in range(k):
            oc = nodes[f + a, ND_VEC]
            for q in range(n_players):
                if q == p:
                    for h in range(hs):
                        reach[q, oc + h] = reach[q, ov + h] * strategy[base + h * k + a]
                else:
                    for h in range(hs):
                        reach[q, oc + h] = reach[q, ov + h]


@kernel
def gather_terminals(nodes, terms, hist_sizes, toff, reach_row, out):
    """Copy one player's reach at every terminal into ``out`` (blocks by terminal number)."""
    for t in range(terms.shape[0]):
        v = terms[t, TC_NODE]
        ov = nodes[v, ND_VEC]
        o = toff[t]
        for h in range(hist_sizes[nodes[v, ND_STREET]]):
            out[o + h] = reach_row[ov + h]


@kernel
def backward(layout, strategy, tables, own_reach, values, step):
    """Values of the traverser ``trav`` bottom-up (see the module doc); returns the root's total.

    Mode CFR also adds the regrets and ``weight * own reach * sigma`` to the strategy sums.
    ``layout`` = ``(nodes, hist_sizes, n_buckets, toff)``: the public tree's nodes and
    histories per street, buckets per street, each terminal's offset in ``term_value``;
    ``strategy``: flat float64 profile; ``tables`` = ``(regret, ssum)``, updated in mode CFR;
    ``own_reach``: ``trav``'s reach vector; ``values`` = ``(term_value, value)``: the terminal
    values in, every node's value out; ``step`` = ``(trav, mode, weight)`` (``MODE_*``).
    """
    nodes, hist_sizes, n_buckets, toff = layout
    regret, ssum = tables
    term_value, value = values
    trav, mode, weight = step
    for v in range(nodes.shape[0] - 1, -1, -1):
        kind = nodes[v, ND_KIND]
        ov = nodes[v, ND_VEC]
        hs = hist_sizes[nodes[v, ND_STREET]]
        if kind == TERMINAL:
            o = toff[nodes[v, ND_INDEX]]
            for h in range(hs):
                value[ov + h] = term_value[o + h]
            continue
        f = nodes[v, ND_FIRST]
        if kind == STREET:
            oc = nodes[f, ND_VEC]
            for h in range(hs):
                total = 0.0
                for b in range(n_buckets):
                    total += value[oc + h * n_buckets + b]
                value[ov + h] = total
            continue
        k = nodes[v, ND_COUNT]
        base = nodes[v, ND_INDEX]
        if nodes[v, ND_PLAYER] != trav:
            for h in range(hs):
                total = 0.0
                for a in range(k):
                    total += value[nodes[f + a, ND_VEC] + h]
                value[ov + h] = total
            continue
        for h in range(hs):
            off = base + h * k
            if mode == MODE_BR:
                best = value[nodes[f, ND_VEC] + h]
                for a in range(1, k):
                    x = value[nodes[f + a, ND_VEC] + h]
                    if x > best:
                        best = x
                value[ov + h] = best
                continue
            total = 0.0
            for a in range(k):
                total += strategy[off + a] * value[nodes[f + a, ND_VEC] + h]
            value[ov + h] = total
            if mode == MODE_CFR:
                r = own_reach[ov + h]
                for a in range(k):
                    regret[off + a] += value[nodes[f + a, ND_VEC] + h] - total
                    ssum[off + a] += weight * r * strategy[off + a]
    total = 0.0
    for h in range(hist_sizes[nodes[0, ND_STREET]]):
        total += value[nodes[0, ND_VEC] + h]
    return total


@kernel
def build_matrices(deals, settle_args, class_info, mat_layout, weight, flat, scratch):
    """Heads-up payoff matrices per street ``s`` (index ``mat_off[s] + (k * H + h0) * H + h1``):
    k = 0 the chance probability of the history pair, 1 and 2 player 0 / 1 having the better
    river hand, ``3 + 2 * slot + p`` player ``p``'s non-pot money in the class at that slot.

    ``deals`` = ``(records, hist)``: the deal table; ``settle_args`` = ``(game, deck, rules)``
    (two players); ``class_info`` = ``(classes, class_street, class_slot)``: the tree's classes,
    the street each is settled on and its slot among that street's classes; ``mat_layout`` =
    ``(mat_off, hist_sizes)``; ``weight``: each deal's probability; ``flat``: float64 out,
    added to; ``scratch`` = ``(money, winners, players, board, table, out)``.
    """
    records, hist = deals
    classes, class_street, class_slot = class_info
    mat_off, hist_sizes = mat_layout
    money, winners, players, board, table, out = scratch
    core = (players, board, table, out)
    settled = (money, winners)
    n_players = 2
    n_streets = hist_sizes.shape[0]
    score_col = DR_HOLES + 2 * n_players + n_streets * n_players
    for d in range(records.shape[0]):
        deal_payoffs(records[d], settle_args, classes, core, settled)
        s0 = records[d, score_col]
        s1 = records[d, score_col + 1]
        for s in range(n_streets):
            hh = hist_sizes[s]
            cell = hist[d, s, 0] * hh + hist[d, s, 1]
            o = mat_off[s]
            flat[o + cell] += weight
            if s0 > s1:
                flat[o + hh * hh + cell] += weight
            elif s1 > s0:
                flat[o + 2 * hh * hh + cell] += weight
        for c in range(classes.shape[0]):
            s = class_street[c]
            hh = hist_sizes[s]
            cell = hist[d, s, 0] * hh + hist[d, s, 1]
            for p in range(2):
                k = 3 + 2 * class_slot[c] + p
                flat[mat_off[s] + k * hh * hh + cell] += weight * money[c, p]
