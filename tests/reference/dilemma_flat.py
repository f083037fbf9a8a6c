"""The abstracted Dilemma hand expanded into an ordinary game tree, the slow obvious way.

Chance deals the pair of bucket histories street by street with the sample's
frequencies; every betting line of the public tree is repeated under every pair;
a terminal pays each player the average, over the sample's deals with that pair
of histories, of the real settlement's result (computed here deal by deal in
Python from the settlement core's per-class money). The result is a plain
:class:`~analysis.solvers.game_tree.GameTree`, solved and evaluated by the flat-tree
kernels of part 1 (checked against Kuhn, Leduc and open_spiel), so it checks the
vector-form solver end to end. Two players, tiny instances only.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from analysis.solvers.abstracted.public_tree import (
    ND_COUNT,
    ND_FIRST,
    ND_INDEX,
    ND_KIND,
    ND_PLAYER,
    ND_STREET,
    STREET,
    TC_CLASS,
    TERMINAL,
)
from analysis.solvers.abstracted.vector import pot_share
from analysis.solvers.game_tree import TreeBuilder


def utility(tree, deals, t: int, d: int, money, winners) -> list[float]:
    """Each player's net chips at terminal ``t`` on deal ``d`` (pot share - chips in + money)."""
    spec = tree.spec
    c = int(tree.terms[t, TC_CLASS])
    mask = int(winners[c])
    win = tuple(p for p in range(spec.players) if (mask >> p) & 1)
    first = spec.rules_obj.split_remainder == "first_winner"
    return [pot_share(p, win, int(tree.term_pot[t]), first) - int(tree.term_in[t, p]) + int(money[c, p])
            for p in range(spec.players)]


def flat_game(tree, deals):
    """The expanded two-player game; infosets keyed ``(node, history)`` as the vector form's."""
    spec = tree.spec
    n_deals = deals.n_deals
    hist = deals.hist
    per_deal = [deals.payoffs(tree, d) for d in range(n_deals)]
    count = [defaultdict(int) for _ in range(spec.n_streets)]
    for d in range(n_deals):
        for s in range(spec.n_streets):
            count[s][(int(hist[d, s, 0]), int(hist[d, s, 1]))] += 1
    payoff_sum: dict = defaultdict(lambda: np.zeros(2))
    for t in range(tree.n_terminals):
        s = int(tree.terms[t, 1])
        for d in range(n_deals):
            key = (t, int(hist[d, s, 0]), int(hist[d, s, 1]))
            payoff_sum[key] += utility(tree, deals, t, d, *per_deal[d])
    b = TreeBuilder(2, "dilemma-flat")
    nodes = tree.nodes
    root = b.chance()
    stack = []
    for (h0, h1), k in sorted(count[0].items(), reverse=True):
        stack.append((0, (h0, h1), root, k / n_deals))
    while stack:
        v, (h0, h1), parent, prob = stack.pop()
        kind = nodes[v, ND_KIND]
        s = int(nodes[v, ND_STREET])
        if kind == TERMINAL:
            t = int(nodes[v, ND_INDEX])
            b.terminal(payoff_sum[(t, h0, h1)] / count[s][(h0, h1)], parent, prob=prob)
        elif kind == STREET:
            node = b.chance(parent, prob=prob)
            child = int(nodes[v, ND_FIRST])
            nb = spec.buckets
            here = count[s][(h0, h1)]
            for (g0, g1), k in sorted(count[s + 1].items(), reverse=True):
                if g0 // nb == h0 and g1 // nb == h1:
                    stack.append((child, (g0, g1), node, k / here))
        else:
            p = int(nodes[v, ND_PLAYER])
            k = int(nodes[v, ND_COUNT])
            f = int(nodes[v, ND_FIRST])
            labels = [tree.action_label(f + a) for a in range(k)]
            node = b.decision(p, (v, (h0, h1)[p]), labels, parent, prob=prob)
            for a in reversed(range(k)):  # popped in action order
                stack.append((f + a, (h0, h1), node, None))
    return b.build()


def vector_index(tree, label: str) -> tuple[int, int]:
    """The vector form's (offset, actions) of a flat infoset labelled ``"node|history"``."""
    v, h = (int(x) for x in label.split("|"))
    k = int(tree.nodes[v, ND_COUNT])
    return int(tree.nodes[v, ND_INDEX]) + h * k, k
