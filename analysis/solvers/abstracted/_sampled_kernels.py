"""External-sampling MCCFR over the public tree with chance sampled from the deal table.

Iteration ``t`` seeds the generator from ``(key, t)`` only
(:func:`analysis.core.rng.seed_state`), so chunked, saved and resumed runs draw
the same numbers as one long run. It draws one deal (uniformly from the sample:
the abstraction's chance), settles it once per terminal class
(:func:`._deal_kernels.deal_payoffs`), fills what each terminal group pays on it
(:func:`._deal_kernels.group_values`), and runs the shared walk
(:func:`analysis.solvers._mccfr_kernels.es_iteration`: each player's regret walk, the
others sampled at their bucket history of that deal; averaging as described there).
The information set of player ``p`` at decision node ``v`` is the block row
``nodes[v, ND_INDEX] + hist[d, street, p] * actions``.

With ``opts[O_LINEAR]`` iteration ``t`` counts ``t`` times (linear averaging, as
DCFR and Pluribus discount early play): on the three-handed abstraction the
uniform play of the first iterations otherwise lingers in the average (a
fold-for-free frequency of 7% on the bare deck after 40,000 iterations, 0.6%
with linear averaging, 0.07% after 400,000). ``opts[O_PLUS]`` floors regrets
at zero (regret-matching+; worse here, kept as an option).

:func:`deal_reach` is the exact (deal-by-deal, every line expanded) probability of
each information set and each player's expected payoff under a strategy profile.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from analysis.core.rng import bounded, seed_state
from analysis.dilemma.settlement.layout import N_OUT, N_PCOLS, N_TCOLS
from evaluator.jit import kernel

from .._mccfr_kernels import es_iteration
from ._deal_kernels import G_PLAYERS, deal_payoffs, group_values
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
def sampled_iterations(tree, deals, settle_args, tables, key, iterations, opts, scratch):
    """Run MCCFR iterations ``first_iteration ..`` (1-based) in place (see the module doc).

    ``tree`` = ``(walk, classes, groups, shares)``: ``PublicTree.walk_args``, ``PublicTree.classes``,
    the ``(class, pot)`` rows of ``PublicTree.term_groups`` and their pot shares
    (:func:`._deal_kernels.group_shares`); ``deals`` = ``(records, hist)``;
    ``settle_args`` = ``(game, deck, rules)``; ``tables`` = ``(regret, ssum)`` float64 flat arrays,
    updated; ``key``: the generator key; ``iterations`` = ``(first_iteration, n_iterations)``;
    ``opts``: int64 ``O_*`` entries; ``scratch`` = ``(iwork, value, sigma, money, winners, players,
    board, table, out, group_value)``: the walks' scratch, the settlement's, and float64[G, players]
    for the groups' payoffs on the deal.
    """
    walk, classes, groups, shares = tree
    records, hist = deals
    iwork, value, sigma, money, winners, players, board, table, out, group_value = scratch
    first_iteration, n_iterations = iterations
    work = (iwork, value, sigma)
    core = (players, board, table, out)
    settled = (money, winners)
    n_deals = records.shape[0]
    linear = opts[O_LINEAR] != 0
    floor = opts[O_PLUS] != 0
    rng = np.empty(4, np.uint64)
    for t in range(first_iteration, first_iteration + n_iterations):
        weight = float(t) if linear else 1.0
        seed_state(rng, key, t)
        d = bounded(rng, n_deals)
        deal_payoffs(records[d], settle_args, classes, core, settled)
        group_values(groups, shares, settled, group_value)
        es_iteration(walk, (hist[d], group_value), tables, rng, work, (weight, floor))


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
    n = settle_args[0][G_PLAYERS]
    lo, hi, weight = span
    reach_out, money_out, mask_reach = outs
    reach, money, winners, players, board, table, out = scratch
    core = (players, board, table, out)
    settled = (money, winners)
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
