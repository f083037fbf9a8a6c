"""External-sampling MCCFR over the public tree with chance sampled from the deal table.

Iteration ``t`` seeds the generator from ``(key, t)`` only
(:func:`analysis.core.rng.seed_state`), so chunked, saved and resumed runs draw
the same numbers as one long run. It draws one deal (uniformly from the sample:
the abstraction's chance), settles it once per terminal class
(:func:`._deal_kernels.deal_payoffs`), and then for each player ``i``:

- the *regret walk*: ``i``'s actions expanded, the others' sampled from their
  current (regret-matching) strategy at their bucket history of that deal;
  sampled counterfactual regrets added on the way back;
- the average strategy as in :mod:`analysis.solvers._mccfr_kernels`: with two
  players the other player's strategy is added during ``i``'s regret walk; with
  three or more an *averaging walk* (owner sampled, everyone else expanded) adds
  the owner's strategy, so every iteration is weighted by the owner's reach only.
  With ``opts[O_LINEAR]`` iteration ``t`` counts ``t`` times (linear averaging, as
  DCFR and Pluribus discount early play): on the three-handed abstraction the
  uniform play of the first iterations otherwise lingers in the average (a
  fold-for-free frequency of 7% on the bare deck after 40,000 iterations, 0.6%
  with linear averaging, 0.07% after 400,000). ``opts[O_PLUS]`` floors regrets
  at zero (regret-matching+; worse here, kept as an option).

The information set of player ``p`` at decision node ``v`` is the block row
``nodes[v, ND_INDEX] + hist[d, street, p] * actions``. Walks are iterative
(a preorder stack, then a reverse pass). Scratch: ``iwork`` int64[3, N],
``value`` float64[N], ``sigma`` float64[max actions], ``money``/``winners`` and the
settlement arrays.

:func:`deal_reach` is the exact (deal-by-deal, every line expanded) probability of
each information set and each player's expected payoff under a strategy profile.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from analysis.core.rng import bounded, seed_state
from analysis.dilemma.settlement.layout import N_OUT, N_PCOLS, N_TCOLS
from evaluator.jit import kernel

from .._mccfr_kernels import _match, _sample
from ._deal_kernels import G_PLAYERS, deal_payoffs, terminal_utility
from .public_tree import (
    ND_COUNT,
    ND_FIRST,
    ND_INDEX,
    ND_KIND,
    ND_PLAYER,
    ND_STREET,
    STREET,
    TERMINAL,
)

O_LINEAR, O_PLUS = 0, 1
"""Entries of ``opts``: weight iteration ``t``'s strategy by ``t`` (linear averaging, as
DCFR/Pluribus discount early play); floor regrets at zero after each update (regret-matching+)."""


@kernel
def _regret_walk(tree, deal, rules, tables, rng, who, work, update):
    """Sampled regret update for ``trav`` on one deal; the average update at ``avg_player``'s
    nodes if it is >= 0. Returns the root's sampled value.

    ``tree``: ``PublicTree.kernel_args``; ``deal`` = ``(hist_d, money, winners)``: the deal's
    bucket histories int64[streets, players] and its settlement (:func:`deal_payoffs`);
    ``rules``: ``Rules.kernel_args``; ``tables`` = ``(regret, ssum)``, updated in place;
    ``rng``: the generator state; ``who`` = ``(trav, avg_player, n)``; ``work`` = ``(iwork,
    value, sigma)`` scratch; ``update`` = ``(weight, floor)``: the average's weight, and
    whether regrets are floored at zero.
    """
    nodes = tree[0]
    hist_d, money, winners = deal
    regret, ssum = tables
    trav, avg_player, n = who
    iwork, value, sigma = work
    weight, floor = update
    stack = iwork[0]
    order = iwork[1]
    chosen = iwork[2]
    top = 1
    stack[0] = 0
    m = 0
    while top > 0:
        top -= 1
        v = stack[top]
        order[m] = v
        m += 1
        kind = nodes[v, ND_KIND]
        if kind == TERMINAL:
            continue
        f = nodes[v, ND_FIRST]
        if kind == STREET:
            chosen[v] = f
            stack[top] = f
            top += 1
            continue
        p = nodes[v, ND_PLAYER]
        k = nodes[v, ND_COUNT]
        if p == trav:
            for j in range(k):
                stack[top] = f + j
                top += 1
            continue
        off = nodes[v, ND_INDEX] + hist_d[nodes[v, ND_STREET], p] * k
        _match(regret, off, k, sigma)
        if p == avg_player:
            for j in range(k):
                ssum[off + j] += weight * sigma[j]
        c = f + _sample(rng, sigma, k)
        chosen[v] = c
        stack[top] = c
        top += 1
    for idx in range(m - 1, -1, -1):
        v = order[idx]
        kind = nodes[v, ND_KIND]
        if kind == TERMINAL:
            value[v] = terminal_utility(nodes[v, ND_INDEX], trav, tree, (money, winners), n, rules)
        elif kind == STREET or nodes[v, ND_PLAYER] != trav:
            value[v] = value[chosen[v]]
        else:
            f = nodes[v, ND_FIRST]
            k = nodes[v, ND_COUNT]
            off = nodes[v, ND_INDEX] + hist_d[nodes[v, ND_STREET], trav] * k
            _match(regret, off, k, sigma)
            total = 0.0
            for j in range(k):
                total += sigma[j] * value[f + j]
            for j in range(k):
                r = regret[off + j] + value[f + j] - total
                regret[off + j] = 0.0 if floor and r < 0.0 else r
            value[v] = total
    return value[0]


@kernel
def _average_walk(nodes, hist_d, tables, rng, owner, work, weight):
    """Add ``weight`` x ``owner``'s current strategy to its strategy sums along one walk (the owner
    sampled, everyone else expanded). ``nodes``: ``PublicTree.nodes``; ``hist_d``: the deal's
    bucket histories; ``tables`` = ``(regret, ssum)``; ``work`` = ``(iwork, value, sigma)``."""
    regret, ssum = tables
    iwork, _, sigma = work
    stack = iwork[0]
    top = 1
    stack[0] = 0
    while top > 0:
        top -= 1
        v = stack[top]
        kind = nodes[v, ND_KIND]
        if kind == TERMINAL:
            continue
        f = nodes[v, ND_FIRST]
        if kind == STREET:
            stack[top] = f
            top += 1
            continue
        k = nodes[v, ND_COUNT]
        if nodes[v, ND_PLAYER] == owner:
            off = nodes[v, ND_INDEX] + hist_d[nodes[v, ND_STREET], owner] * k
            _match(regret, off, k, sigma)
            for j in range(k):
                ssum[off + j] += weight * sigma[j]
            stack[top] = f + _sample(rng, sigma, k)
            top += 1
        else:
            for j in range(k):
                stack[top] = f + j
                top += 1


@kernel
def sampled_iterations(tree, deals, settle_args, tables, key, iterations, opts, scratch):
    """Run MCCFR iterations ``first_iteration ..`` (1-based) in place (see the module doc).

    ``tree`` = ``PublicTree.kernel_args``; ``deals`` = ``(records, hist)``; ``settle_args`` =
    ``(game, deck, rules)``; ``tables`` = ``(regret, ssum)`` float64 flat arrays, updated;
    ``key``: the generator key; ``iterations`` = ``(first_iteration, n_iterations)``; ``opts``:
    int64 ``O_*`` entries; ``scratch`` = ``(iwork, value, sigma, money, winners, players,
    board, table, out)``.
    """
    nodes, _, _, _, classes, _ = tree
    records, hist = deals
    game, _, rules = settle_args
    iwork, value, sigma, money, winners, players, board, table, out = scratch
    first_iteration, n_iterations = iterations
    work = (iwork, value, sigma)
    core = (players, board, table, out)
    settled = (money, winners)
    n = game[G_PLAYERS]
    n_deals = records.shape[0]
    linear = opts[O_LINEAR] != 0
    floor = opts[O_PLUS] != 0
    rng = np.empty(4, np.uint64)
    for t in range(first_iteration, first_iteration + n_iterations):
        weight = float(t) if linear else 1.0
        seed_state(rng, key, t)
        d = bounded(rng, n_deals)
        deal_payoffs(records[d], settle_args, classes, core, settled)
        hist_d = hist[d]
        deal = (hist_d, money, winners)
        for i in range(n):
            if n == 2:
                _regret_walk(tree, deal, rules, tables, rng, (i, 1 - i, n), work, (weight, floor))
            else:
                _average_walk(nodes, hist_d, tables, rng, i, work, weight)
                _regret_walk(tree, deal, rules, tables, rng, (i, -1, n), work, (weight, floor))


@kernel
def deal_reach(tree, deals, settle_args, strategy, info_start, span, outs, scratch):
    """Add, for deals ``lo..hi-1`` (each of probability ``weight``), the probability of reaching
    every information set (``reach_out[info_start[v] + history]``) when everyone plays
    ``strategy`` (every line expanded), and what the players' expected payoff needs:
    ``money_out[p]`` the expected non-pot money, ``mask_reach[t, m]`` the probability of ending
    at terminal ``t`` with main-pot winners ``m`` (the pot shares are added in Python).

    ``tree``, ``deals``, ``settle_args`` as in :func:`sampled_iterations`; ``strategy``: flat
    float64 profile; ``info_start`` int64[N]: each decision node's first infoset row;
    ``span`` = ``(lo, hi, weight)``; ``outs`` = ``(reach_out, money_out, mask_reach)``, added to;
    ``scratch`` = ``(reach, money, winners, players, board, table, out)``.
    """
    nodes, terms, _, _, classes, _ = tree
    records, hist = deals
    game = settle_args[0]
    lo, hi, weight = span
    reach_out, money_out, mask_reach = outs
    reach, money, winners, players, board, table, out = scratch
    core = (players, board, table, out)
    settled = (money, winners)
    n = game[G_PLAYERS]
    class_reach = np.zeros(classes.shape[0])
    for d in range(lo, hi):
        deal_payoffs(records[d], settle_args, classes, core, settled)
        class_reach[:] = 0.0
        reach[0] = weight
        for v in range(nodes.shape[0]):
            r = reach[v]
            kind = nodes[v, ND_KIND]
            f = nodes[v, ND_FIRST]
            if kind == TERMINAL:
                t = nodes[v, ND_INDEX]
                c = terms[t, 0]
                class_reach[c] += r
                mask_reach[t, winners[c]] += r
                continue
            if kind == STREET:
                reach[f] = r
                continue
            p = nodes[v, ND_PLAYER]
            k = nodes[v, ND_COUNT]
            h = hist[d, nodes[v, ND_STREET], p]
            reach_out[info_start[v] + h] += r
            off = nodes[v, ND_INDEX] + h * k
            for j in range(k):
                reach[f + j] = r * strategy[off + j]
        for c in range(classes.shape[0]):
            for p in range(n):
                money_out[p] += class_reach[c] * money[c, p]


@kernel(parallel=True)
def deal_reach_chunks(tree, deals, settle_args, strategy, info_start, bounds, weight, outs):
    """:func:`deal_reach` over the deal chunks ``bounds[c]..bounds[c+1]`` side by side, chunk
    ``c`` into ``reach_out[c]``, ``money_out[c]``, ``mask_reach[c]`` of ``outs = (reach_out,
    money_out, mask_reach)`` (the caller adds the chunks in order: the same numbers with any
    number of threads). ``bounds`` int64[chunks + 1]; ``weight``: each deal's probability."""
    reach_out, money_out, mask_reach = outs
    nodes = tree[0]
    classes = tree[4]
    n = settle_args[0][G_PLAYERS]
    for c in prange(bounds.shape[0] - 1):
        scratch = (np.zeros(nodes.shape[0]), np.zeros((classes.shape[0], n), np.int64),
                   np.zeros(classes.shape[0], np.int64), np.zeros((n, N_PCOLS), np.int64),
                   np.zeros((2, 5), np.int64), np.zeros(N_TCOLS, np.int64), np.zeros(N_OUT, np.int64))
        deal_reach(tree, deals, settle_args, strategy, info_start, (bounds[c], bounds[c + 1], weight),
                   (reach_out[c], money_out[c], mask_reach[c]), scratch)
