"""Plain-Python reference for the card-level solver: every pair of holdings, every runout.

Given a strategy for each decision node of a :class:`CardSolver`'s expanded tree
(``strategies[node]``: float[actions, holdings of the actor]), compute each
player's counterfactual value per holding under that profile, and under a best
response, by walking the *public* betting tree (:func:`action_tree`) and dealing
the turn and river cards here, with payoffs summed over explicit pairs of
holdings scored by the evaluator. Slow (O(n^2) per terminal) and obviously
correct; the kernels are checked against it on small spots.

Also :func:`dcfr_coefficients`, postflop-solver's DCFR discounts written from their
definition, and :func:`assert_matches_reference`, the check the solver tests share.
"""

from __future__ import annotations

import math

import numpy as np

from analysis.dilemma.settlement import HandState, PlayerState, settle
from analysis.solvers.card_level._kernels import MODE_BR, MODE_EV
from analysis.solvers.card_level.tree import (
    CHANCE,
    DECISION,
    END,
    FOLD,
    KIND,
    SHOWDOWN,
    action_tree,
)
from evaluator import evaluate

SETTLEMENT_STREET = {3: 1, 4: 2, 5: 3}
"""Board length -> the settlement's street of the betting round played on it."""


def dilemma_payoff(spot, kind: int, folder: int, amount: int, board: tuple, holes: tuple) -> tuple[float, float]:
    """Both players' payoffs (chips after the hand less ``stack + pot / 2``) at a fold or showdown
    of a Dilemma spot, settled by the readable referee; ``holes[p]`` the cards of player ``p``."""
    table = spot.table
    street = SETTLEMENT_STREET[len(board)]
    players = tuple(
        PlayerState(("oop", "ip")[p], spot.stack - amount, spot.pot // 2 + amount,
                    folded=street if kind == FOLD and p == folder else None,
                    hole=tuple(int(c) for c in holes[p]))
        for p in range(2))
    state = HandState(players, tuple(int(c) for c in board), last_round=street, bank=table.bank,
                      blind_level=table.level, dealer=1, game="dilemma")
    result = settle(state, table.deck, table.rules)
    base = spot.stack + spot.pot / 2
    return result.stacks[0] - base, result.stacks[1] - base


def _children(tree_nodes: np.ndarray, v: int, count: int) -> list[int]:
    out, c = [], v + 1
    for _ in range(count):
        out.append(c)
        c = int(tree_nodes[c, END])
    return out


def _score(hand, board, spec) -> int:
    return evaluate([int(c) for c in hand] + list(board), spec)


def counterfactual_values(solver, strategies: dict, trav: int, best_response: bool = False,
                          locked: frozenset[int] = frozenset()) -> np.ndarray:
    """Values of ``trav``'s holdings at the root (the kernels' normalisation: divided by the pairs);
    a best response keeps the given strategy at the ``locked`` nodes."""
    spot = solver.spot
    spec = spot.spec
    hands = [spot.holdings(p) for p in range(2)]
    cards = [[frozenset(map(int, h)) for h in hands[p][0]] for p in range(2)]
    """The card set of each holding, made once (the loops below ask it millions of times)."""
    pairs = 0.0
    for a, wa in zip(hands[0][0], hands[0][1], strict=True):
        for b, wb in zip(hands[1][0], hands[1][1], strict=True):
            if not set(map(int, a)) & set(map(int, b)):
                pairs += wa * wb
    opp = 1 - trav
    nodes = solver.tree.nodes
    cache: dict = {}

    def score(p, h, board):
        key = (p, h, board)
        if key not in cache:
            cache[key] = _score(hands[p][0][h], board, spec)
        return cache[key]

    def rec(pub, v, board, reach):
        n = len(hands[trav][0])
        out = np.zeros(n)
        if pub.kind in (FOLD, SHOWDOWN):
            half = spot.pot / 2 + pub.amount
            on_board = set(board)
            for h in range(n):
                hc = cards[trav][h]
                if hc & on_board:
                    continue
                for o, r in enumerate(reach):
                    if r == 0.0 or hc & cards[opp][o]:
                        continue
                    if spot.table is not None:
                        holes = [None, None]
                        holes[trav], holes[opp] = hands[trav][0][h], hands[opp][0][o]
                        pay = dilemma_payoff(spot, pub.kind, pub.player, pub.amount, board, holes)[trav]
                    elif pub.kind == FOLD:
                        pay = -half if pub.player == trav else half
                    else:
                        st, so = score(trav, h, board), score(opp, o, board)
                        pay = half if st > so else (-half if st < so else 0.0)
                    out[h] += r * pay / pairs
            return out
        if pub.kind == CHANCE:
            deck = [c for c in range(spec.n_cards) if c not in board]
            kids = _children(nodes, v, len(deck))
            for c, child in zip(deck, kids, strict=True):
                factor = spec.n_cards - len(board) - 4
                r2 = [0.0 if c in cards[opp][o] else r / factor for o, r in enumerate(reach)]
                vals = rec(pub.children[0], child, board + (c,), r2)
                for h in range(n):
                    if c not in cards[trav][h]:
                        out[h] += vals[h]
            return out
        assert pub.kind == DECISION
        kids = _children(nodes, v, len(pub.children))
        sigma = strategies[v]
        if pub.player == trav:
            vals = [rec(cp, cv, board, reach) for cp, cv in zip(pub.children, kids, strict=True)]
            if best_response and v not in locked:
                return np.max(vals, axis=0)
            return sum(sigma[a] * vals[a] for a in range(len(vals)))
        for a, (cp, cv) in enumerate(zip(pub.children, kids, strict=True)):
            out += rec(cp, cv, board, [r * sigma[a][o] for o, r in enumerate(reach)])
        return out

    root = action_tree(spot)
    return rec(root, 0, tuple(spot.board), list(hands[opp][1]))


def dcfr_coefficients(t: int) -> tuple[float, float, float]:
    """postflop-solver's discounts of 0-based iteration ``t``: positive, negative, strategy sum."""
    p4 = 0 if t == 0 else 4 ** int(math.floor(math.log(t, 4) + 1e-12))
    ta = max(t - 1, 0)
    pa = ta ** 1.5
    tg = t - p4
    return pa / (pa + 1), 0.5, (tg / (tg + 1)) ** 3


def assert_matches_reference(solver, atol: float = 1e-9, locked: frozenset[int] = frozenset()) -> None:
    """Both players' root values under the solver's average strategy and under best responses
    (the ``locked`` nodes keeping theirs) equal this module's, holding by holding, within ``atol``."""
    nodes = solver.tree.nodes
    strategies = {int(v): solver.strategy(int(v)) for v in np.flatnonzero(nodes[:, KIND] == DECISION)}
    for mode, best in ((MODE_EV, False), (MODE_BR, True)):
        values = solver.root_values(mode)
        for p in range(2):
            ref = counterfactual_values(solver, strategies, p, best_response=best, locked=locked)
            np.testing.assert_allclose(values[p, : solver.tables.n_hands[p]], ref, rtol=0, atol=atol)
