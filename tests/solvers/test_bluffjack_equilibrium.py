"""The heads-up Bluffjack solver: its public tree against the referee, its values against a plain
recursion over every hidden pair, and the solve to a stated exploitability."""

from __future__ import annotations

import random

import numpy as np
import pytest

from analysis.engine.bluffjack.referee import BluffjackHand
from analysis.solvers.bluffjack import _kernels as K
from analysis.solvers.bluffjack.public_tree import (
    ACE,
    CLASS_POINTS,
    CLASS_PROB,
    CLASSES,
    NT_CHANCE,
    NT_DECISION,
    NT_FOLD,
    NT_SHOW,
    BluffjackTreeSpec,
    build_public_tree,
)
from analysis.solvers.bluffjack.solve import equilibrium_tables, solve_bluffjack, solve_pair


def ref_total(cards: list[int]) -> int:
    """Best blackjack total of value classes (RULES §3: an ace 1 or 11), bust: 0."""
    hard = sum(int(CLASS_POINTS[c]) for c in cards)
    if ACE in cards and hard + 10 <= 21:
        hard += 10
    return 0 if hard > 21 else hard


def ref_payoff(tree, node: int, hands: list[list[int]], house: bool) -> tuple[float, float]:
    """Chips won by A and B at a terminal, from the rules: the folder loses what it put in, the
    higher total not over 21 takes the other's stake, both bust: the house takes both."""
    put = tree.put[node]
    if tree.kind[node] == NT_FOLD:
        loser = tree.player[node]
        return (-put[0], put[0]) if loser == 0 else (put[1], -put[1])
    a, b = ref_total(hands[0]), ref_total(hands[1])
    if a > b:
        return put[1], -put[1]
    if b > a:
        return -put[0], put[0]
    if a == 0 and house:
        return -put[0], -put[1]
    return 0.0, 0.0


def test_public_tree_follows_the_referee():
    """Random walks through the tree, played card by card through the referee: same menus, same chips.

    Six face-up pairs a house rule, each of the classes 6-A face up once in each seat (with the
    house: equal pairs, 10-10 and A-A among them; without: unequal ones); building a tree costs
    far more than walking it (the former 36 pairs a rule took 90% of the time)."""
    rng = random.Random(5)
    names = ["P1", "P2"]  # P2 deals, so P1 (seat A) opens
    trees: dict = {}
    for house, shift in ((True, 0), (False, 3)):
        ups = [(a, 4 + (a - 4 + shift) % 6) for a in range(4, CLASSES)]
        for _ in range(200):
            up = rng.choice(ups)
            key = (house, up)
            if key not in trees:
                trees[key] = build_public_tree(BluffjackTreeSpec(house=house), up)
            tree = trees[key]
            hidden = [rng.randrange(CLASSES), rng.randrange(CLASSES)]
            used: set[int] = set()

            def card(cls: int, used: set[int] = used) -> int:
                ranks = [cls] if cls < 8 else ([8, 9, 10, 11] if cls == 8 else [12])
                free = [r * 4 + s for r in ranks for s in range(4) if r * 4 + s not in used]
                c = rng.choice(free)
                used.add(c)
                return c

            try:
                down = [card(hidden[0]), card(hidden[1])]
                upc = [card(up[0]), card(up[1])]
            except IndexError:
                continue
            hand = BluffjackHand(names, [100, 100], 1, down, upc, rules={"house": house})
            hand.act("bet", 2)  # the forced opening (not a decision in the tree)
            hands = [[hidden[0], up[0]], [hidden[1], up[1]]]
            node = 0
            ok = True
            while tree.kind[node] in (NT_DECISION, NT_CHANCE):
                kids = tree.children[tree.cstart[node]: tree.cstart[node] + tree.ccount[node]]
                if tree.kind[node] == NT_CHANCE:
                    j = rng.randrange(len(kids)) if len(kids) > 1 else 0
                    if len(kids) == CLASSES:  # a hit: the card is dealt face up
                        k = tree.labels[tree.dec[node - 1]][1] if tree.kind[node - 1] == NT_DECISION else None
                        assert k is not None
                        try:
                            hand.act("hit", card(j))
                        except IndexError:
                            ok = False
                            break
                        hands[k].append(j)
                    node = kids[j]
                    continue
                rnd, p, actions, own_vis, opp_vis, *_ = tree.labels[tree.dec[node]]
                while hand.round == "play" and (rnd != "play" or hand.to_act != p):
                    hand.act("stand")  # the tree's automatic stands (hit cap, a visible bust)
                legal = hand.legal()
                assert legal.player == p and hand.round == rnd
                if rnd != "play":
                    want = (["fold", "call"] if legal.call > 0 else ["check"]) + (
                        [("bet" if hand.level == 0 else "raise")] if legal.min_to >= 0 else [])
                    assert list(actions) == want
                j = rng.randrange(len(kids))
                a = actions[j]
                if a == "hit":
                    node = kids[j]
                    continue
                hand.act(a, legal.min_to if a in ("bet", "raise") else None)
                node = kids[j]
            if not ok:
                continue
            while hand.result is None and hand.round == "play":
                hand.act("stand")
            assert hand.result is not None
            assert [s.put for s in hand.seats] == list(tree.put[node])
            # without the house an all-bust pot is set aside for the game's survivor: the tree
            # values it as an equal share of the set-aside chips
            won = [hand.result.stacks[i] - 100 + hand.result.carry / 2 for i in range(2)]
            assert tuple(won) == tuple(ref_payoff(tree, node, hands, house))


def ref_payoffs(tree, node: int, public: list[list[int]], house: bool) -> np.ndarray:
    """:func:`ref_payoff` for every hidden pair at once: ``[2, A's hidden class, B's]``, each
    player's hand its hidden class plus its ``public`` cards (face-up card and hits)."""
    put = tree.put[node]
    out = np.zeros((2, CLASSES, CLASSES))
    if tree.kind[node] == NT_FOLD:
        loser = tree.player[node]
        out[0], out[1] = (-put[0], put[0]) if loser == 0 else (put[1], -put[1])
        return out
    a = np.array([ref_total([h, *public[0]]) for h in range(CLASSES)])[:, None]
    b = np.array([ref_total([h, *public[1]]) for h in range(CLASSES)])[None, :]
    a_wins, b_wins, both_bust = a > b, b > a, (a == b) & (a == 0)
    out[0] = np.where(a_wins, put[1], np.where(b_wins, -put[0], -put[0] * (both_bust & house)))
    out[1] = np.where(a_wins, -put[1], np.where(b_wins, put[0], -put[1] * (both_bust & house)))
    return out


def _reference_ev(tree, sigma, house) -> np.ndarray:
    """Expected chips of A and B: a plain recursion over the tree, every hidden pair carried at
    once (``reach[h0, h1]``: the chance of the pair and of the path to the node)."""

    def walk(node, public, reach):
        kind = tree.kind[node]
        if kind in (NT_FOLD, NT_SHOW):
            return (ref_payoffs(tree, node, public, house) * reach).sum(axis=(1, 2))
        kids = tree.children[tree.cstart[node]: tree.cstart[node] + tree.ccount[node]]
        out = np.zeros(2)
        if kind == NT_CHANCE:
            for j, c in enumerate(kids):
                p2 = [list(public[0]), list(public[1])]
                if len(kids) == CLASSES:
                    k = tree.player[node - 1]
                    p2[k].append(j)
                out += walk(c, p2, reach * tree.prob[c])
            return out
        p = tree.player[node]
        d = tree.dec[node]
        for j, c in enumerate(kids):
            pr = sigma[d, :, j]  # by the actor's hidden class
            out += walk(c, public, reach * (pr[:, None] if p == 0 else pr[None, :]))
        return out

    up = (tree.vhard[0, 0], tree.vhard[0, 1])
    public = [[_cls(up[0], tree.vace[0, 0])], [_cls(up[1], tree.vace[0, 1])]]
    return walk(0, public, np.outer(CLASS_PROB, CLASS_PROB))


def _cls(points: int, ace: int) -> int:
    return ACE if ace else int(points) - 2


@pytest.mark.parametrize("spec, up", [(BluffjackTreeSpec(), (8, 5)), (BluffjackTreeSpec(house=False), (9, 4)),
                                      (BluffjackTreeSpec(betting=False, max_hits=2), (3, 8))])
def test_kernel_values_match_a_plain_recursion(spec, up):
    tree = build_public_tree(spec, up)
    dec = np.flatnonzero(tree.kind == NT_DECISION)
    rng = np.random.default_rng(1)
    sigma = np.zeros((len(dec), CLASSES, K.MAX_ACTIONS))
    for d, node in enumerate(dec):
        m = tree.ccount[node]
        x = rng.random((CLASSES, m)) ** 3
        sigma[d, :, :m] = x / x.sum(axis=1, keepdims=True)
    ev, br, root, q, own, opp = K.evaluate(tree.kernel_args(), CLASS_PROB, spec.house, dec, sigma)
    # the reference's payoffs for all hidden pairs at once are the plain rule's, pair by pair
    for node in rng.choice(np.flatnonzero(np.isin(tree.kind, (NT_FOLD, NT_SHOW))), 60):
        public = [[int(c) for c in rng.integers(CLASSES, size=rng.integers(1, 4))] for _ in range(2)]
        pays = ref_payoffs(tree, node, public, spec.house)
        for h0 in range(CLASSES):
            for h1 in range(CLASSES):
                want = ref_payoff(tree, node, [[h0, *public[0]], [h1, *public[1]]], spec.house)
                assert tuple(pays[:, h0, h1]) == want, (node, public, h0, h1)
    assert ev == pytest.approx(_reference_ev(tree, sigma, spec.house), abs=1e-9)
    assert (br >= ev - 1e-12).all()
    assert root[0] @ CLASS_PROB == pytest.approx(ev[0])


def test_solve_reaches_the_stated_exploitability():
    spec = BluffjackTreeSpec()
    first = solve_pair(spec, (8, 6), target=10.0, max_iterations=50)
    best = solve_pair(spec, (8, 6), target=0.01, max_iterations=2000)
    assert best.exploitability <= 0.01 < first.exploitability
    # the equilibrium is not exploitable by either player beyond the target
    assert (best.br - best.ev).max() <= 0.02


def test_answer_tables_on_a_small_solve():
    eq = solve_bluffjack(BluffjackTreeSpec(betting=False, max_hits=1), target=0.05, max_iterations=200)
    tables = equilibrium_tables(eq)
    hidden = tables["bluffjack_eq_hidden"]
    assert list(hidden["hidden"])[-1] == "A" and hidden["seat_A"].iloc[-1] > hidden["seat_A"].iloc[0]
    hit = tables["bluffjack_eq_hit"].set_index(["seat", "total"])
    assert hit.loc[("A", 11), "hit_betting"] > 0.99 and hit.loc[("A", 20), "hit_betting"] < 0.01
    assert eq.exploitability <= 0.05
