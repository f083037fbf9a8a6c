"""External-sampling Monte Carlo CFR (Lanctot et al. 2009) for any number of players.

Per iteration ``t`` the generator is seeded from ``(key, t)`` only
(:func:`analysis.core.rng.seed_state`), so a run split into several calls, or saved
and resumed, draws the same numbers as one long run. For each traversing player
``i`` in turn, the *regret walk*:

- chance nodes and the other players' nodes sample one child (chance by its
  probabilities, players by their current regret-matching strategy);
- ``i``'s nodes expand every action; on the way back the sampled
  counterfactual regrets ``v(a) - v`` are added to ``i``'s cumulative regrets.

The average strategy must weight each iteration's strategy at an infoset by the
owner's own reach only. An update of player ``j``'s infosets with ``j``'s current
strategy at every node of a walk in which chance and ``j`` are sampled and every
other player is expanded does exactly that in expectation (a node is visited with
probability chance reach x ``j``'s reach; chance's part is the same every
iteration, so it cancels when the sums are normalised). Hence:

- two players: the regret walk of ``i`` is that walk for ``j = 1 - i``, so the
  update is made at ``j``'s nodes during it (open_spiel's "simple" averaging);
- three or more players: the regret walk samples the third players too, which
  would weight iterations by their changing reach (open_spiel's rule for ``n > 2``
  updates player ``i + 1`` there and is biased: on the three-handed toy game of
  ``tests/solvers/test_solvers_bucketed.py`` its NashConv stays above 1 after 100,000
  iterations, against 0.1 with the walk below), so each iteration also runs, for every player ``j``,
  an *averaging walk* (chance and ``j`` sampled, everyone else expanded) before
  ``j``'s regret walk, as Pluribus' blueprint did.

Both walks are iterative: a stack collects the sampled subtree in preorder
(parents before children), then the regret walk's reverse pass computes values
children-first. Scratch: ``iwork`` int64[3, N] (stack, preorder, sampled child),
``value`` float64[N], ``sigma`` float64[max actions].
"""

from __future__ import annotations

import numpy as np

from analysis.core.rng import next_float, seed_state, weighted_index
from evaluator.jit import kernel

from ._layout import (
    CHANCE,
    COUNT,
    FIRST,
    I_OFFSET,
    INDEX,
    KIND,
    PLAYER,
    TERMINAL,
)


@kernel(inline=True)
def _match(regret, off, k, sigma):
    """Regret matching of one infoset into ``sigma[:k]``."""
    total = 0.0
    for a in range(k):
        r = regret[off + a]
        if r > 0.0:
            total += r
    if total > 0.0:
        for a in range(k):
            r = regret[off + a]
            sigma[a] = r / total if r > 0.0 else 0.0
    else:
        for a in range(k):
            sigma[a] = 1.0 / k


@kernel(inline=True)
def _sample(rng, sigma, k):
    """An action index drawn from ``sigma[:k]`` (never one of probability zero)."""
    u = next_float(rng)
    c = -1
    acc = 0.0
    for j in range(k):
        if sigma[j] > 0.0:
            c = j  # if rounding leaves u above the total: the last possible action
            acc += sigma[j]
            if u < acc:
                break
    return c


@kernel
def _regret_walk(tree, tables, rng, who, work):
    """Sampled regret update for ``trav``; average update at ``avg_player``'s nodes if >= 0.

    ``tree``: ``GameTree.kernel_args``; ``tables`` = ``(regret, ssum)`` flat float64, updated;
    ``rng``: the generator state; ``who`` = ``(trav, avg_player)``; ``work`` = ``(iwork, value,
    sigma)``: int64[3, N] stack/order/chosen, float64[N] node values, float64[max actions].
    """
    nodes, _, cum, utility, infos = tree
    regret, ssum = tables
    trav, avg_player = who
    iwork, value, sigma = work
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
        kind = nodes[v, KIND]
        if kind == TERMINAL:
            continue
        f = nodes[v, FIRST]
        k = nodes[v, COUNT]
        if kind == CHANCE:
            c = weighted_index(rng, cum, f, f + k)
        else:
            p = nodes[v, PLAYER]
            if p == trav:
                for j in range(k):
                    stack[top] = f + j
                    top += 1
                continue
            off = infos[nodes[v, INDEX], I_OFFSET]
            _match(regret, off, k, sigma)
            if p == avg_player:
                for j in range(k):
                    ssum[off + j] += sigma[j]
            c = f + _sample(rng, sigma, k)
        chosen[v] = c
        stack[top] = c
        top += 1
    for idx in range(m - 1, -1, -1):
        v = order[idx]
        kind = nodes[v, KIND]
        if kind == TERMINAL:
            value[v] = utility[nodes[v, INDEX], trav]
        elif kind == CHANCE or nodes[v, PLAYER] != trav:
            value[v] = value[chosen[v]]
        else:
            f = nodes[v, FIRST]
            k = nodes[v, COUNT]
            off = infos[nodes[v, INDEX], I_OFFSET]
            _match(regret, off, k, sigma)
            total = 0.0
            for j in range(k):
                total += sigma[j] * value[f + j]
            for j in range(k):
                regret[off + j] = regret[off + j] + value[f + j] - total
            value[v] = total
    return value[0]


@kernel
def _average_walk(tree, tables, rng, owner, work):
    """Add ``owner``'s current strategy at the nodes of a walk sampling chance and ``owner``
    and expanding everyone else (visit probability: chance reach x owner's reach).
    Arguments as in :func:`_regret_walk`."""
    nodes, _, cum, _, infos = tree
    regret, ssum = tables
    iwork, _, sigma = work
    stack = iwork[0]
    top = 1
    stack[0] = 0
    while top > 0:
        top -= 1
        v = stack[top]
        kind = nodes[v, KIND]
        if kind == TERMINAL:
            continue
        f = nodes[v, FIRST]
        k = nodes[v, COUNT]
        if kind == CHANCE:
            stack[top] = weighted_index(rng, cum, f, f + k)
            top += 1
        elif nodes[v, PLAYER] == owner:
            off = infos[nodes[v, INDEX], I_OFFSET]
            _match(regret, off, k, sigma)
            for j in range(k):
                ssum[off + j] += sigma[j]
            stack[top] = f + _sample(rng, sigma, k)
            top += 1
        else:
            for j in range(k):
                stack[top] = f + j
                top += 1


@kernel
def es_iterations(tree, tables, key, iterations, work):
    """Run external-sampling iterations ``first_iteration ..`` (1-based) in place.

    ``tree``: ``GameTree.kernel_args``; ``tables`` = ``(regret, ssum)``; ``key``: the generator
    key; ``iterations`` = ``(first_iteration, n_iterations)``; ``work`` as in :func:`_regret_walk`.
    """
    n_players = tree[3].shape[1]
    first_iteration, n_iterations = iterations
    rng = np.empty(4, np.uint64)
    for t in range(first_iteration, first_iteration + n_iterations):
        seed_state(rng, key, t)
        for i in range(n_players):
            if n_players == 2:
                _regret_walk(tree, tables, rng, (i, 1 - i), work)
            else:
                _average_walk(tree, tables, rng, i, work)
                _regret_walk(tree, tables, rng, (i, -1), work)
