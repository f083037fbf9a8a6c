"""Full-width counterfactual regret minimisation kernels: CFR, CFR+ and discounted CFR.

One iteration is, for each traversing player ``i`` (alternating updates: player
0's regrets and strategy are refreshed before player 1 traverses):

1. a forward sweep over the breadth-first node order: each node's reach by
   ``i`` (for the average strategy) and by everyone else including chance (the
   counterfactual reach); subtrees that the others never reach are marked by a
   zero and skipped below;
2. a backward sweep: the node value for ``i`` and, at ``i``'s decision nodes,
   the instantaneous regrets ``reach_others * (v(child) - v(node))`` added to the
   cumulative regrets;
3. the method's regret rule on ``i``'s infosets (CFR: plain sums; CFR+: clip at
   zero; DCFR: multiply positive regrets by t^a/(t^a+1), negative ones by
   t^b/(t^b+1)) and the new current strategy by regret matching.

Average-strategy contributions are ``weight * reach_i * sigma`` with weight 1
(CFR), ``t`` (CFR+, linear averaging) or ``t**gamma`` (DCFR), as in open_spiel.

Arguments: the tree tuple (``GameTree.kernel_args``, see
:mod:`analysis.solvers._layout`), the solver state (``regret``, ``ssum``: float64[A]),
the scratch ``strategy`` float64[A] and ``work`` float64[3, N] (own reach, others'
reach, value), the options ``opts`` (int64: ``O_METHOD``, ``O_ALTERNATING``) and
``coefs`` (float64: DCFR's ``C_ALPHA``, ``C_BETA``, ``C_GAMMA``). Nothing is
allocated per iteration.
"""

from __future__ import annotations

from evaluator.jit import kernel

from ._layout import (
    C_ALPHA,
    C_BETA,
    C_GAMMA,
    CHANCE,
    COUNT,
    FIRST,
    I_COUNT,
    I_OFFSET,
    I_PLAYER,
    INDEX,
    KIND,
    O_ALTERNATING,
    O_METHOD,
    PLAYER,
    SM_CFR_PLUS,
    SM_DCFR,
    TERMINAL,
)

_OWN = 0
_OTHERS = 1
_VALUE = 2


@kernel
def regret_matching(regret, infos, strategy, player):
    """Current strategy from regrets (positive parts normalised; uniform if none) for one
    player's infosets, or all infosets when ``player < 0``."""
    for j in range(infos.shape[0]):
        if player >= 0 and infos[j, I_PLAYER] != player:
            continue
        off = infos[j, I_OFFSET]
        k = infos[j, I_COUNT]
        total = 0.0
        for a in range(k):
            r = regret[off + a]
            if r > 0.0:
                total += r
        if total > 0.0:
            for a in range(k):
                r = regret[off + a]
                strategy[off + a] = r / total if r > 0.0 else 0.0
        else:
            u = 1.0 / k
            for a in range(k):
                strategy[off + a] = u


@kernel
def normalise_sums(ssum, infos, out):
    """Average strategy from strategy sums (uniform where an infoset was never reached)."""
    for j in range(infos.shape[0]):
        off = infos[j, I_OFFSET]
        k = infos[j, I_COUNT]
        total = 0.0
        for a in range(k):
            total += ssum[off + a]
        if total > 0.0:
            for a in range(k):
                out[off + a] = ssum[off + a] / total
        else:
            for a in range(k):
                out[off + a] = 1.0 / k


@kernel
def _traverse(tree, strategy, tables, work, trav, weight):
    """One forward and one backward sweep for traversing player ``trav`` (see the module doc).

    ``tree``: ``GameTree.kernel_args``; ``strategy``: the current flat profile; ``tables`` =
    ``(regret, ssum)``, updated; ``work``: float64[3, N] scratch (``_OWN``, ``_OTHERS``,
    ``_VALUE`` rows); ``weight``: this iteration's averaging weight.
    """
    nodes, prob, _, utility, infos = tree
    regret, ssum = tables
    n = nodes.shape[0]
    own = work[_OWN]
    oth = work[_OTHERS]
    val = work[_VALUE]
    own[0] = 1.0
    oth[0] = 1.0
    for v in range(n):
        kind = nodes[v, KIND]
        if kind == TERMINAL:
            continue
        f = nodes[v, FIRST]
        k = nodes[v, COUNT]
        ro = own[v]
        rp = oth[v]
        if kind == CHANCE:
            for j in range(k):
                own[f + j] = ro
                oth[f + j] = rp * prob[f + j]
        else:
            off = infos[nodes[v, INDEX], I_OFFSET]
            if nodes[v, PLAYER] == trav:
                for j in range(k):
                    s = strategy[off + j]
                    own[f + j] = ro * s
                    oth[f + j] = rp
                    ssum[off + j] += weight * ro * s
            else:
                for j in range(k):
                    own[f + j] = ro
                    oth[f + j] = rp * strategy[off + j]
    for v in range(n - 1, -1, -1):
        rp = oth[v]
        if rp == 0.0:
            val[v] = 0.0
            continue
        kind = nodes[v, KIND]
        if kind == TERMINAL:
            val[v] = utility[nodes[v, INDEX], trav]
            continue
        f = nodes[v, FIRST]
        k = nodes[v, COUNT]
        total = 0.0
        if kind == CHANCE:
            for j in range(k):
                total += prob[f + j] * val[f + j]
            val[v] = total
            continue
        off = infos[nodes[v, INDEX], I_OFFSET]
        for j in range(k):
            total += strategy[off + j] * val[f + j]
        val[v] = total
        if nodes[v, PLAYER] == trav:
            for j in range(k):
                regret[off + j] += rp * (val[f + j] - total)
    return val[0]


@kernel
def iteration_weight(method, t, coefs):
    """The average-strategy weight of iteration ``t`` (CFR 1, CFR+ t, DCFR t**gamma)."""
    if method == SM_CFR_PLUS:
        return float(t)
    if method == SM_DCFR:
        return float(t) ** coefs[C_GAMMA]
    return 1.0


@kernel
def _apply_rule(regret, infos, player, method, t, coefs):
    """The method's regret rule after iteration ``t`` on one player's infosets (all if < 0)."""
    if method == SM_CFR_PLUS:
        for j in range(infos.shape[0]):
            if player >= 0 and infos[j, I_PLAYER] != player:
                continue
            off = infos[j, I_OFFSET]
            for a in range(infos[j, I_COUNT]):
                if regret[off + a] < 0.0:
                    regret[off + a] = 0.0
    elif method == SM_DCFR:
        ta = float(t) ** coefs[C_ALPHA]
        tb = float(t) ** coefs[C_BETA]
        pos = ta / (ta + 1.0)
        neg = tb / (tb + 1.0)
        for j in range(infos.shape[0]):
            if player >= 0 and infos[j, I_PLAYER] != player:
                continue
            off = infos[j, I_OFFSET]
            for a in range(infos[j, I_COUNT]):
                if regret[off + a] >= 0.0:
                    regret[off + a] *= pos
                else:
                    regret[off + a] *= neg


@kernel
def cfr_iterations(tree, tables, strategy, work, settings, iterations):
    """Run iterations ``first_iteration .. first_iteration + n_iterations - 1`` (1-based) in place.

    The current strategy is recomputed from the regrets at entry, so a run split
    into several calls (or saved and resumed) equals one long run bit for bit.
    ``tree``: ``GameTree.kernel_args``; ``tables`` = ``(regret, ssum)``; ``strategy``: float64[A]
    scratch for the current profile; ``work``: float64[3, N] (see :func:`_traverse`);
    ``settings`` = ``(opts, coefs)``: int64 ``O_*`` and float64 ``C_*`` entries of
    :mod:`._layout`; ``iterations`` = ``(first_iteration, n_iterations)``.
    """
    _, _, _, utility, infos = tree
    regret, _ = tables
    opts, coefs = settings
    first_iteration, n_iterations = iterations
    n_players = utility.shape[1]
    method = opts[O_METHOD]
    alternating = opts[O_ALTERNATING] != 0
    regret_matching(regret, infos, strategy, -1)
    for t in range(first_iteration, first_iteration + n_iterations):
        weight = iteration_weight(method, t, coefs)
        for i in range(n_players):
            _traverse(tree, strategy, tables, work, i, weight)
            if alternating:
                _apply_rule(regret, infos, i, method, t, coefs)
                regret_matching(regret, infos, strategy, i)
        if not alternating:
            _apply_rule(regret, infos, -1, method, t, coefs)
            regret_matching(regret, infos, strategy, -1)
