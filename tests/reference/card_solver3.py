"""Plain-Python reference for the three-handed card-level solver: every triple of holdings.

Given a strategy for each decision of a :class:`MultiwaySolver`'s tree
(``strategies[node]``: float[actions, holdings of the actor], nodes numbered in
preorder of the public tree), compute a player's counterfactual value per holding
under that profile, or under its best response, by walking the public betting
tree (:func:`action_tree3`) and summing over explicit triples of holdings that
share no card: hands scored by the evaluator, Dilemma Hold'em settled by the
readable referee (:func:`analysis.dilemma.settlement.settle`). O(n^3) per
terminal, slow and obviously correct; the kernels are checked against it.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from analysis.dilemma.settlement import HandState, PlayerState, settle
from analysis.solvers.card_level.tree import DECISION
from analysis.solvers.card_level.tree3 import action_tree3
from evaluator import evaluate

RIVER = 3


def _payoff_function(spot):
    """``pay(live, put, holes) -> three payoffs`` (chips after the hand less stack and a third of the pot)."""
    base = spot.stack + spot.pot / 3
    board = tuple(int(c) for c in spot.board)

    @cache
    def score(hole: tuple[int, int]) -> int:
        return evaluate(list(hole) + list(board), spot.spec)

    @cache
    def pay(live: int, put: tuple[int, int, int], holes: tuple) -> tuple[float, float, float]:
        if spot.table is None:
            in_ = [p for p in range(3) if live >> p & 1]
            best = max(score(holes[p]) for p in in_)
            winners = [p for p in in_ if score(holes[p]) == best]
            total = spot.pot + sum(put)
            return tuple((total / len(winners) if p in winners else 0.0) - put[p] - spot.pot / 3
                         for p in range(3))
        t = spot.table
        players = tuple(PlayerState(("first", "second", "third")[p], spot.stack - put[p], spot.pot // 3 + put[p],
                                    folded=None if live >> p & 1 else RIVER, hole=holes[p]) for p in range(3))
        state = HandState(players, board, last_round=RIVER, bank=t.bank, blind_level=t.level, dealer=2,
                          game="dilemma")
        result = settle(state, t.deck, t.rules)
        return tuple(result.stacks[p] - base for p in range(3))

    return pay


def _number(root) -> dict[int, int]:
    """Preorder numbers of the public tree's nodes (keyed by ``id``)."""
    out: dict[int, int] = {}

    def rec(node) -> None:
        out[id(node)] = len(out)
        for c in node.children:
            rec(c)

    rec(root)
    return out


def counterfactual_values3(spot, strategies: dict, trav: int, best_response: bool = False) -> np.ndarray:
    """Values of ``trav``'s holdings at the root, divided by the weighted compatible triples."""
    hands = [[tuple(int(c) for c in h) for h in spot.holdings(p)[0]] for p in range(3)]
    weights = [spot.holdings(p)[1] for p in range(3)]
    u, q = (trav + 1) % 3, (trav + 2) % 3
    triples = 0.0
    for a, wa in zip(hands[0], weights[0], strict=True):
        for b, wb in zip(hands[1], weights[1], strict=True):
            for c, wc in zip(hands[2], weights[2], strict=True):
                if len(set(a) | set(b) | set(c)) == 6:
                    triples += wa * wb * wc
    pay = _payoff_function(spot)
    root = action_tree3(spot)
    number = _number(root)

    def rec(node, reach: list[list[float]]) -> np.ndarray:
        n = len(hands[trav])
        if node.kind != DECISION:
            out = np.zeros(n)
            for h, hh in enumerate(hands[trav]):
                for o, ho in enumerate(hands[u]):
                    if reach[u][o] == 0.0 or set(hh) & set(ho):
                        continue
                    for k, hk in enumerate(hands[q]):
                        if reach[q][k] == 0.0 or (set(hh) | set(ho)) & set(hk):
                            continue
                        holes: list = [None, None, None]
                        holes[trav], holes[u], holes[q] = hh, ho, hk
                        out[h] += reach[u][o] * reach[q][k] * pay(node.live, node.put, tuple(holes))[trav]
            return out / triples
        sigma = strategies[number[id(node)]]
        if node.player == trav:
            vals = [rec(c, reach) for c in node.children]
            if best_response:
                return np.max(vals, axis=0)
            return sum(sigma[a] * vals[a] for a in range(len(vals)))
        out = np.zeros(n)
        for a, c in enumerate(node.children):
            child = [list(r) for r in reach]
            child[node.player] = [r * sigma[a][i] for i, r in enumerate(reach[node.player])]
            out += rec(c, child)
        return out

    return rec(root, [list(w) for w in weights])


_SETTLED: dict = {}
"""Per spot (by id, while it lives), the settlement of each end: shared by the calls for each player."""


def turn_values3(spot, solver, trav: int, best_response: bool = False) -> np.ndarray:
    """Values of ``trav``'s holdings at the root of a three-handed *turn* spot (a
    :class:`~analysis.solvers.card_level.turn3.TurnSolver3`'s average strategies, read per node by
    its line), divided by the weighted compatible triples: every river card that no player of
    the triple holds, each with probability ``1 / (cards left for the river)``; terminals settled
    by the readable referee on four (a fold on the turn) or five cards."""
    from analysis.solvers.card_level.tree import CHANCE, action_label

    spec = spot.spec
    hands = [[tuple(int(c) for c in h) for h in spot.holdings(p)[0]] for p in range(3)]
    weights = [spot.holdings(p)[1] for p in range(3)]
    u, q = (trav + 1) % 3, (trav + 2) % 3
    triples = 0.0
    for a, wa in zip(hands[0], weights[0], strict=True):
        for b, wb in zip(hands[1], weights[1], strict=True):
            for c, wc in zip(hands[2], weights[2], strict=True):
                if len(set(a) | set(b) | set(c)) == 6:
                    triples += wa * wb * wc
    unseen = spec.n_cards - len(spot.board) - 6
    board = tuple(int(c) for c in spot.board)
    base = spot.stack + spot.pot / 3

    @cache
    def score(hole: tuple[int, int], river: int) -> int:
        return evaluate(list(hole) + list(board) + [river], spec)

    if _SETTLED.get(id(spot), (None,))[0] is not spot:
        _SETTLED.clear()

    def pay(live: int, put: tuple, turn_folds: int, river: int, holes: tuple) -> float:
        return settled(live, put, turn_folds, river, holes)[trav]

    @cache
    def settled(live: int, put: tuple, turn_folds: int, river: int, holes: tuple) -> tuple:
        if spot.table is None:
            in_ = [p for p in range(3) if live >> p & 1]
            best = max(score(holes[p], river) for p in in_) if river >= 0 else 0
            winners = in_ if len(in_) == 1 else [p for p in in_ if score(holes[p], river) == best]
            total = spot.pot + sum(put)
            return tuple((total / len(winners) if p in winners else 0.0) - put[p] - spot.pot / 3 for p in range(3))
        t = spot.table
        players = tuple(PlayerState(("first", "second", "third")[p], spot.stack - put[p], spot.pot // 3 + put[p],
                                    folded=None if live >> p & 1 else (2 if turn_folds >> p & 1 else RIVER),
                                    hole=holes[p]) for p in range(3))
        cards = board + ((river,) if river >= 0 else ())
        state = HandState(players, cards, last_round=RIVER if river >= 0 else 2, bank=t.bank, blind_level=t.level,
                          dealer=2, game="dilemma")
        return tuple(x - base for x in settle(state, t.deck, t.rules).stacks)

    if id(spot) in _SETTLED:
        settled = _SETTLED[id(spot)][1]  # noqa: F811 - the first call's cache, shared
    _SETTLED[id(spot)] = (spot, settled)

    def rec(node, line: tuple, reach: list[list[float]], river: int) -> np.ndarray:
        n = len(hands[trav])
        if node.kind == CHANCE:
            out = np.zeros(n)
            for c in range(spec.n_cards):
                if c in board:
                    continue
                child = [[r if c not in hands[p][i] else 0.0 for i, r in enumerate(reach[p])] for p in range(3)]
                vals = rec(node.children[0], (*line, spec.card_name(c)), child, c)
                out += np.array([0.0 if c in hands[trav][h] else vals[h] for h in range(n)]) / unseen
            return out
        if node.kind != DECISION:
            out = np.zeros(n)
            for h, hh in enumerate(hands[trav]):
                if river in hh:
                    continue
                for o, ho in enumerate(hands[u]):
                    if reach[u][o] == 0.0 or set(hh) & set(ho):
                        continue
                    for k, hk in enumerate(hands[q]):
                        if reach[q][k] == 0.0 or (set(hh) | set(ho)) & set(hk):
                            continue
                        holes: list = [None, None, None]
                        holes[trav], holes[u], holes[q] = hh, ho, hk
                        out[h] += reach[u][o] * reach[q][k] * pay(node.live, node.put, node.turn_folds, river,
                                                                  tuple(holes))
            return out / triples
        sigma = solver.strategy(solver.node(line))
        kids = [(c, (*line, action_label(a))) for a, c in zip(node.actions, node.children, strict=True)]
        if node.player == trav:
            vals = [rec(c, ln, reach, river) for c, ln in kids]
            if best_response:
                return np.max(vals, axis=0)
            return sum(sigma[a] * vals[a] for a in range(len(vals)))
        out = np.zeros(n)
        for a, (c, ln) in enumerate(kids):
            child = [list(r) for r in reach]
            child[node.player] = [r * sigma[a][i] for i, r in enumerate(reach[node.player])]
            out += rec(c, ln, child, river)
        return out

    return rec(action_tree3(spot), (), [list(w) for w in weights], -1)
