"""Exact best responses and on-policy values on a flat game tree.

The best response of player ``i`` to the others' fixed strategy respects
information sets: ``i`` picks one action per *infoset*, not per history, so it
cannot see the others' private cards. It is computed on ``i``'s sequence tree:

1. forward sweep: the reach of every node by chance and the others, and the last
   own (infoset, action) sequence on its path (perfect recall makes this the same
   for every node of an infoset: its *parent sequence*);
2. each terminal adds ``reach * u_i`` to the value of its last own sequence;
3. ``i``'s infosets in decreasing id (children before parents, by the builder's
   numbering): the best action is the one whose sequence value is largest; that
   value is added to the infoset's parent sequence (or to the root).

The root then holds the best-response value, ``max over i's pure strategies of
E[u_i]``. Cost: two sweeps over the nodes, no recursion.
"""

from __future__ import annotations

from evaluator.jit import kernel

from ._layout import (
    CHANCE,
    COUNT,
    FIRST,
    I_COUNT,
    I_OFFSET,
    I_PLAYER,
    INDEX,
    KIND,
    PLAYER,
    TERMINAL,
)


@kernel
def expected_values(tree, strategy, reach, out):
    """Each player's expected payoff when everybody plays ``strategy`` (written into ``out``)."""
    nodes, prob, _, utility, infos = tree
    n_players = out.shape[0]
    for p in range(n_players):
        out[p] = 0.0
    reach[0] = 1.0
    for v in range(nodes.shape[0]):
        r = reach[v]
        kind = nodes[v, KIND]
        f = nodes[v, FIRST]
        k = nodes[v, COUNT]
        if kind == TERMINAL:
            if r != 0.0:
                row = nodes[v, INDEX]
                for p in range(n_players):
                    out[p] += r * utility[row, p]
        elif kind == CHANCE:
            for j in range(k):
                reach[f + j] = r * prob[f + j]
        else:
            off = infos[nodes[v, INDEX], I_OFFSET]
            for j in range(k):
                reach[f + j] = r * strategy[off + j]


@kernel
def best_response(tree, strategy, player, reach, seq, parent_seq, seq_val, best):
    """Best-response value of ``player`` against ``strategy`` of the others.

    Scratch: ``reach`` float64[N], ``seq`` int64[N], ``parent_seq`` int64[M],
    ``seq_val`` float64[A]. ``best`` int64[M] receives the chosen action of each of
    ``player``'s infosets (-1 for the other players' infosets).
    """
    nodes, prob, _, utility, infos = tree
    n = nodes.shape[0]
    for a in range(seq_val.shape[0]):
        seq_val[a] = 0.0
    root = 0.0
    reach[0] = 1.0
    seq[0] = -1
    for v in range(n):
        kind = nodes[v, KIND]
        r = reach[v]
        s = seq[v]
        if kind == TERMINAL:
            if r != 0.0:
                u = r * utility[nodes[v, INDEX], player]
                if s < 0:
                    root += u
                else:
                    seq_val[s] += u
            continue
        f = nodes[v, FIRST]
        k = nodes[v, COUNT]
        if kind == CHANCE:
            for j in range(k):
                reach[f + j] = r * prob[f + j]
                seq[f + j] = s
            continue
        info = nodes[v, INDEX]
        off = infos[info, I_OFFSET]
        if nodes[v, PLAYER] == player:
            parent_seq[info] = s
            for j in range(k):
                reach[f + j] = r
                seq[f + j] = off + j
        else:
            for j in range(k):
                reach[f + j] = r * strategy[off + j]
                seq[f + j] = s
    for info in range(infos.shape[0] - 1, -1, -1):
        if infos[info, I_PLAYER] != player:
            best[info] = -1
            continue
        off = infos[info, I_OFFSET]
        b = 0
        bv = seq_val[off]
        for a in range(1, infos[info, I_COUNT]):
            if seq_val[off + a] > bv:
                bv = seq_val[off + a]
                b = a
        best[info] = b
        ps = parent_seq[info]
        if ps < 0:
            root += bv
        else:
            seq_val[ps] += bv
    return root
