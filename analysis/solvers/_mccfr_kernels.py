"""External-sampling Monte Carlo CFR (Lanctot et al. 2009) for any number of players.

Per iteration ``t`` the generator is seeded from ``(key, t)`` only
(:func:`analysis._rng.seed_state`), so a run split into several calls, or saved
and resumed, draws the same numbers as one long run. For each traversing player
``i`` in turn:

- chance nodes and the other players' nodes sample one child (chance by its
  probabilities, players by their current regret-matching strategy);
- ``i``'s nodes expand every action; on the way back the sampled
  counterfactual regrets ``v(a) - v`` are added to ``i``'s cumulative regrets;
- the average strategy is updated at the nodes of player ``(i + 1) mod n``
  with that player's current strategy ("simple" averaging as in open_spiel,
  which for two players is the usual opponent-node update).

The walk is iterative: a stack collects the sampled subtree in preorder (parents
before children), then a reverse pass computes values children-first. Scratch:
``stack``, ``order``, ``chosen`` int64[N], ``value`` float64[N], ``sigma``
float64[max actions].
"""

from __future__ import annotations

import sys

import numpy as np
from numba import njit

from analysis import _rng
from analysis._rng import next_float, seed_state, weighted_index
from evaluator._jit import drop_stale_cache

from . import _layout
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


@njit(cache=True, inline="always")
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


@njit(cache=True)
def _es_traverse(nodes, cum, utility, infos, regret, ssum, rng, trav, n_players,
                 stack, order, chosen, value, sigma):
    avg_player = (trav + 1) % n_players
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
            chosen[v] = c
            stack[top] = c
            top += 1
            continue
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
        u = next_float(rng)
        c = f + k - 1
        acc = 0.0
        for j in range(k):
            acc += sigma[j]
            if u < acc:
                c = f + j
                break
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
                regret[off + j] += value[f + j] - total
            value[v] = total
    return value[0]


@njit(cache=True)
def es_iterations(nodes, cum, utility, infos, regret, ssum, n_players, key,
                  first_iteration, n_iterations, stack, order, chosen, value, sigma):
    """Run external-sampling iterations ``first_iteration ..`` (1-based) in place."""
    rng = np.empty(4, np.uint64)
    for t in range(first_iteration, first_iteration + n_iterations):
        seed_state(rng, key, t)
        for i in range(n_players):
            _es_traverse(nodes, cum, utility, infos, regret, ssum, rng, i, n_players,
                         stack, order, chosen, value, sigma)


# these kernels inline the generator and freeze _layout's constants
drop_stale_cache(sys.modules[__name__], (_layout, _rng))
