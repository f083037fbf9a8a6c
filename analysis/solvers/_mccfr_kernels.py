"""External-sampling Monte Carlo CFR (Lanctot et al. 2009) for any number of players: the one
walk every tree-based stack runs (``GameTree`` for Kuhn, Leduc and games written as data; the
abstracted Dilemma hand's public tree).

A stack hands the walk plain arrays (``walk``, built once per tree: ``GameTree.walk_args``,
``PublicTree.walk_args``): its nodes in the shared ``WN_*`` layout (:mod:`._layout`; a
terminal's ``WN_KEY`` is its payoff group), the running chance sums ``cum`` and each terminal's
fixed payoff ``term_fixed``; and, per iteration, the *deal*: each player's private state on each
street (``priv``: a decision node's information set is row ``WN_INDEX + priv[WN_KEY, player]
x actions``) and what each terminal group pays on that deal. Terminal node ``v`` pays player
``p`` ``term_fixed[WN_INDEX, p] + group_value[WN_KEY, p]`` (its terminal number and group).

- ``GameTree`` (:func:`es_iterations`): chance nodes are in the tree (drawn from ``cum``),
  ``priv`` is zero, terminal payoffs are fixed (one group worth zero);
- the abstracted hand (:mod:`analysis.solvers.abstracted._sampled_kernels`): a deal is drawn
  per iteration, so ``priv`` is its bucket histories and the street deals are ``PASS`` nodes;
  a terminal pays ``- chips put in`` plus its (settlement class, pot) group's value on that
  deal, filled once per deal.

Per iteration ``t`` the generator is seeded from ``(key, t)`` only
(:func:`analysis.core.rng.seed_state`), so a run split into several calls, or saved
and resumed, draws the same numbers as one long run. For each traversing player
``i`` in turn, the *regret walk*:

- chance nodes and the other players' nodes sample one child (chance by its
  probabilities, players by their current regret-matching strategy);
- ``i``'s nodes expand every action; on the way back the sampled
  counterfactual regrets ``v(a) - v`` are added to ``i``'s cumulative regrets
  (floored at zero with regret-matching+).

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

The strategy added to the sums is multiplied by ``weight`` (1, or ``t`` for linear averaging).
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
    DECISION,
    PASS,
    TERMINAL,
    WN_COUNT,
    WN_FIRST,
    WN_INDEX,
    WN_KEY,
    WN_KIND,
    WN_PLAYER,
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
def _regret_walk(walk, deal, tables, rng, who, work, update):
    """Sampled regret update for ``trav``; the average update at ``avg_player``'s nodes if it is
    >= 0. Returns the root's sampled value.

    ``walk`` = ``(nodes, cum, term_fixed)``: int32[N, N_WALK_COLS] nodes (``WN_*``), float64[N]
    chance running sums, float64[T, players] each terminal's fixed payoff; ``deal`` = ``(priv, group_value)``: int64[streets, players] private states,
    float64[groups, players] the groups' payoffs; ``tables`` = ``(regret, ssum)`` flat float64,
    updated; ``rng``: the generator state; ``who`` = ``(trav, avg_player)``; ``work`` = ``(iwork,
    value, sigma)``: int64[3, N] stack/order/chosen, float64[N] node values, float64[max
    actions]; ``update`` = ``(weight, floor)``: the average's weight, and whether regrets are
    floored at zero.
    """
    nodes, cum, term_fixed = walk
    priv, group_value = deal
    regret, ssum = tables
    trav, avg_player = who
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
        kind = nodes[v, WN_KIND]
        if kind == TERMINAL:
            continue
        f = nodes[v, WN_FIRST]
        k = nodes[v, WN_COUNT]
        if kind == CHANCE:
            c = weighted_index(rng, cum, f, f + k)
        elif kind == PASS:
            c = f
        else:
            p = nodes[v, WN_PLAYER]
            if p == trav:
                for j in range(k):
                    stack[top] = f + j
                    top += 1
                continue
            off = nodes[v, WN_INDEX] + priv[nodes[v, WN_KEY], p] * k
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
        kind = nodes[v, WN_KIND]
        if kind == TERMINAL:
            t = nodes[v, WN_INDEX]
            value[v] = term_fixed[t, trav] + group_value[nodes[v, WN_KEY], trav]
        elif kind != DECISION or nodes[v, WN_PLAYER] != trav:
            value[v] = value[chosen[v]]
        else:
            f = nodes[v, WN_FIRST]
            k = nodes[v, WN_COUNT]
            off = nodes[v, WN_INDEX] + priv[nodes[v, WN_KEY], trav] * k
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
def _average_walk(walk, deal, tables, rng, owner, work, weight):
    """Add ``weight`` x ``owner``'s current strategy to its strategy sums at the nodes of a walk
    sampling chance and ``owner`` and expanding everyone else (visit probability: chance reach x
    owner's reach). ``walk``, ``deal``, ``tables``, ``rng``, ``work`` as in :func:`_regret_walk`;
    ``owner``: the player whose sums are updated; ``weight``: float64."""
    nodes, cum, _ = walk
    priv = deal[0]
    regret, ssum = tables
    iwork, _, sigma = work
    stack = iwork[0]
    top = 1
    stack[0] = 0
    while top > 0:
        top -= 1
        v = stack[top]
        kind = nodes[v, WN_KIND]
        if kind == TERMINAL:
            continue
        f = nodes[v, WN_FIRST]
        k = nodes[v, WN_COUNT]
        if kind == CHANCE:
            stack[top] = weighted_index(rng, cum, f, f + k)
            top += 1
        elif kind == PASS:
            stack[top] = f
            top += 1
        elif nodes[v, WN_PLAYER] == owner:
            off = nodes[v, WN_INDEX] + priv[nodes[v, WN_KEY], owner] * k
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
def es_iteration(walk, deal, tables, rng, work, update):
    """One external-sampling iteration on one deal: for every player in turn (heads-up) its regret
    walk, or (three or more players) its averaging walk then its regret walk.

    ``walk``, ``deal``, ``tables``, ``rng``, ``work``, ``update`` = ``(weight, floor)`` as in
    :func:`_regret_walk` (the generator already seeded for this iteration).
    """
    n = walk[2].shape[1]
    for i in range(n):
        if n == 2:
            _regret_walk(walk, deal, tables, rng, (i, 1 - i), work, update)
        else:
            _average_walk(walk, deal, tables, rng, i, work, update[0])
            _regret_walk(walk, deal, tables, rng, (i, -1), work, update)


@kernel
def es_iterations(walk, tables, key, iterations, work):
    """Run external-sampling iterations ``first_iteration ..`` (1-based) of a game tree in place:
    chance in the tree, fixed payoffs, plain averaging.

    ``walk``: ``GameTree.walk_args`` (as in :func:`_regret_walk`); ``tables`` = ``(regret,
    ssum)``; ``key``: the generator key; ``iterations`` = ``(first_iteration, n_iterations)``;
    ``work`` = ``(iwork, value, sigma, priv, group_value)``: the walks' scratch, then the zero
    private states int64[1, players] and the zero group payoffs float64[1, players].
    """
    first_iteration, n_iterations = iterations
    iwork, value, sigma, priv, group_value = work
    scratch = (iwork, value, sigma)
    deal = (priv, group_value)
    rng = np.empty(4, np.uint64)
    for t in range(first_iteration, first_iteration + n_iterations):
        seed_state(rng, key, t)
        es_iteration(walk, deal, tables, rng, scratch, (1.0, False))
