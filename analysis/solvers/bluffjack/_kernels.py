"""Vector-form CFR+ on a Bluffjack public tree: a vector over the hidden-card classes at every node.

``tree`` is ``PublicTree.kernel_args()``; nodes are in preorder (a child's id is larger
than its parent's), so a forward sweep ``0..N-1`` carries the reach of each player's
hidden classes down and a backward sweep sums counterfactual values up. Both players
update at every iteration (simultaneous CFR+: regrets floored at zero, strategy sums
weighted by the iteration number). Terminal values are exact over the 10 x 10 hidden
pairs (independent classes: an infinite deck).
"""

from __future__ import annotations

import numpy as np

from evaluator.jit import kernel

from .public_tree import ACE, CLASS_POINTS, CLASSES, NT_CHANCE, NT_DECISION, NT_FOLD, NT_SHOW

MAX_ACTIONS = 3


@kernel(inline=True)
def _strength(hard, ace, c):
    """Showdown strength of a hand of face-up hard total ``hard`` (``ace``: one is up) and hidden
    class ``c``: its total, 0 when bust."""
    h = hard + CLASS_POINTS[c]
    if (ace or c == ACE) and h + 10 <= 21:
        return h + 10
    return 0 if h > 21 else h


@kernel
def _terminal(tree, node, reach, creach, house, v0, v1):
    """Counterfactual values of both players at a terminal, per own hidden class."""
    kind, player, _, _, _, _, put, vhard, vace, _ = tree
    r0 = reach[node, 0]
    r1 = reach[node, 1]
    cr = creach[node]
    if kind[node] == NT_FOLD:
        loser = player[node]
        pay0 = -put[node, 0] if loser == 0 else put[node, 1]
        s0 = r0.sum()
        s1 = r1.sum()
        for h in range(CLASSES):
            v0[h] = cr * pay0 * s1
            v1[h] = -cr * pay0 * s0
        return
    stake = put[node, 0]  # equal stakes at a showdown
    s0 = np.empty(CLASSES, np.int64)
    s1 = np.empty(CLASSES, np.int64)
    for h in range(CLASSES):
        s0[h] = _strength(vhard[node, 0], vace[node, 0] != 0, h)
        s1[h] = _strength(vhard[node, 1], vace[node, 1] != 0, h)
    for h in range(CLASSES):
        v0[h] = 0.0
        v1[h] = 0.0
    for a in range(CLASSES):
        for b in range(CLASSES):
            if s0[a] > s1[b]:
                u0, u1 = stake, -stake
            elif s0[a] < s1[b]:
                u0, u1 = -stake, stake
            elif s0[a] == 0 and house:
                u0, u1 = -stake, -stake
            else:
                u0, u1 = 0, 0
            v0[a] += r1[b] * u0
            v1[b] += r0[a] * u1
    for h in range(CLASSES):
        v0[h] *= cr
        v1[h] *= cr


@kernel
def _forward(tree, prior, sigma, reach, creach):
    """Reach of each player's hidden classes (own strategy and prior) and the chance reach."""
    kind, player, cstart, ccount, children, prob, _, _, _, dec = tree
    n = kind.shape[0]
    for p in range(2):
        reach[0, p] = prior
    creach[0] = 1.0
    for node in range(n):
        k = kind[node]
        if k != NT_DECISION and k != NT_CHANCE:
            continue
        for j in range(ccount[node]):
            c = children[cstart[node] + j]
            creach[c] = creach[node] * prob[c]
            reach[c, 0] = reach[node, 0]
            reach[c, 1] = reach[node, 1]
            if k == NT_DECISION:
                p = player[node]
                d = dec[node]
                for h in range(CLASSES):
                    reach[c, p, h] = reach[node, p, h] * sigma[d, h, j]


@kernel
def _backward(tree, reach, creach, sigma, house, value, best_for):
    """Counterfactual values (``best_for`` = -1) or a best response of player ``best_for`` (its
    decisions take the best action per class) against ``sigma``."""
    kind, player, cstart, ccount, children, _, _, _, _, dec = tree
    n = kind.shape[0]
    v0 = np.empty(CLASSES)
    v1 = np.empty(CLASSES)
    for node in range(n - 1, -1, -1):
        k = kind[node]
        if k == NT_FOLD or k == NT_SHOW:  # noqa: SIM109 (numba)
            _terminal(tree, node, reach, creach, house, v0, v1)
            value[node, 0] = v0
            value[node, 1] = v1
            continue
        value[node] = 0.0
        p = player[node]
        for j in range(ccount[node]):
            c = children[cstart[node] + j]
            for q in range(2):
                for h in range(CLASSES):
                    if k == NT_DECISION and q == p:
                        if q == best_for:
                            if j == 0 or value[c, q, h] > value[node, q, h]:
                                value[node, q, h] = value[c, q, h]
                        else:
                            value[node, q, h] += sigma[dec[node], h, j] * value[c, q, h]
                    else:
                        value[node, q, h] += value[c, q, h]


@kernel
def _match(regret, ccount_of, sigma):
    """Regret matching: ``sigma`` from the positive regrets (uniform when none)."""
    for d in range(regret.shape[0]):
        m = ccount_of[d]
        for h in range(CLASSES):
            total = 0.0
            for a in range(m):
                total += max(regret[d, h, a], 0.0)
            for a in range(m):
                sigma[d, h, a] = max(regret[d, h, a], 0.0) / total if total > 0 else 1.0 / m


@kernel
def cfr_plus(tree, prior, house, dec_node, regret, ssum, first, iterations):
    """``iterations`` CFR+ iterations from iteration number ``first`` (regret and strategy sums
    updated in place)."""
    kind, player, cstart, ccount, children, _, _, _, _, _ = tree
    n = kind.shape[0]
    n_dec = dec_node.shape[0]
    m_of = np.empty(n_dec, np.int64)
    for d in range(n_dec):
        m_of[d] = ccount[dec_node[d]]
    sigma = np.zeros((n_dec, CLASSES, MAX_ACTIONS))
    reach = np.zeros((n, 2, CLASSES))
    creach = np.zeros(n)
    value = np.zeros((n, 2, CLASSES))
    for t in range(first, first + iterations):
        _match(regret, m_of, sigma)
        _forward(tree, prior, sigma, reach, creach)
        _backward(tree, reach, creach, sigma, house, value, -1)
        for d in range(n_dec):
            node = dec_node[d]
            p = player[node]
            for h in range(CLASSES):
                for j in range(m_of[d]):
                    c = children[cstart[node] + j]
                    regret[d, h, j] = max(regret[d, h, j] + value[c, p, h] - value[node, p, h], 0.0)
                    ssum[d, h, j] += t * reach[node, p, h] * sigma[d, h, j]


@kernel
def evaluate(tree, prior, house, dec_node, sigma):
    """Expected value of each player (``ev[2]``) under ``sigma``, the best-response values
    (``br[2]``), each player's value per own hidden class (``root[2, C]``), and per decision the
    values of each action per class (``q[D, C, A]``, chips given the node is reached with that
    class) with the actor's reach (``own[D, C]``) and the opponent's (``opp[D, C]``, times chance)."""
    kind, player, cstart, ccount, children, _, _, _, _, _ = tree
    n = kind.shape[0]
    n_dec = dec_node.shape[0]
    reach = np.zeros((n, 2, CLASSES))
    creach = np.zeros(n)
    value = np.zeros((n, 2, CLASSES))
    _forward(tree, prior, sigma, reach, creach)
    _backward(tree, reach, creach, sigma, house, value, -1)
    ev = np.zeros(2)
    for p in range(2):
        for h in range(CLASSES):
            ev[p] += prior[h] * value[0, p, h]
    q = np.zeros((n_dec, CLASSES, MAX_ACTIONS))
    own = np.zeros((n_dec, CLASSES))
    opp = np.zeros((n_dec, CLASSES))
    root = value[0].copy()
    for d in range(n_dec):
        node = dec_node[d]
        p = player[node]
        norm = creach[node] * reach[node, 1 - p].sum()
        for h in range(CLASSES):
            opp[d, h] = creach[node] * reach[node, 1 - p, h]
            own[d, h] = reach[node, p, h]
            for j in range(ccount[node]):
                c = children[cstart[node] + j]
                q[d, h, j] = value[c, p, h] / norm if norm > 0 else 0.0
    br = np.zeros(2)
    for p in range(2):
        _backward(tree, reach, creach, sigma, house, value, p)
        for h in range(CLASSES):
            br[p] += prior[h] * value[0, p, h]
    return ev, br, root, q, own, opp
