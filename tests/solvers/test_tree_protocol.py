"""Every solver tree exposes the shared shape (analysis.solvers.protocol): its counts agree with each
tree's own, children and labels follow the tree's actions, and summaries/printing read any of them."""

from __future__ import annotations

import numpy as np
import pytest

from analysis.solvers import _layout as L
from analysis.solvers.abstracted import DilemmaSpec
from analysis.solvers.abstracted import build_public_tree as dilemma_tree
from analysis.solvers.bluffjack.public_tree import (
    NT_CHANCE,
    NT_DECISION,
    BluffjackTreeSpec,
    build_public_tree,
)
from analysis.solvers.card_level import CardSpot, MultiwaySolver
from analysis.solvers.card_level.tree import DECISION as CARD_DECISION
from analysis.solvers.card_level.tree import KIND as CARD_KIND
from analysis.solvers.card_level.tree import action_tree, expand
from analysis.solvers.card_level.turn3 import TurnSolver3
from analysis.solvers.known_games import kuhn, leduc
from analysis.solvers.preflop_hu.bet_tree import build_preflop_tree
from analysis.solvers.protocol import CHANCE, DECISION, TERMINAL, SolverTree, render, summary


def _check_shape(tree) -> dict:
    """Checks that hold for any tree: a rooted tree whose every non-root node has one parent."""
    assert isinstance(tree, SolverTree)
    s = tree.shape()
    n = s.n_nodes
    assert s.start[0] == 0 and s.start[-1] == len(s.children) == n - 1
    assert sorted(s.children.tolist()) == list(range(1, n))
    assert s.label[0] == "" and all(s.label[1:])
    assert np.all((s.player >= 0) == (s.kind == DECISION))
    assert np.all(s.player < s.n_players)
    assert np.all((np.diff(s.start) == 0) == (s.kind == TERMINAL))
    return summary(tree)


def test_kuhn_and_leduc_through_the_protocol():
    for tree, infosets in ((kuhn(), 12), (leduc(), 936)):
        out = _check_shape(tree)
        c = tree.counts()
        assert out["infosets"] == infosets == c["infosets"]
        assert [out[k] for k in ("nodes", "terminal", "chance", "decision")] == \
            [c[k] for k in ("nodes", "terminal", "chance", "decision")]
        assert out["infoset_actions"] == c["actions"]
    s = kuhn().shape()
    root = s.children_of(0)
    assert s.kind[0] == CHANCE and len(root) == 3  # player 0's card, then player 1's
    first = s.children_of(int(s.children_of(int(root[0]))[0]))
    assert [s.label[c] for c in first] == list(kuhn().action_labels[int(kuhn().nodes[s.children_of(int(root[0]))[0], L.INDEX])])
    text = render(kuhn(), max_depth=2)
    assert text.splitlines()[0] == "chance (3 children)" and "P0 decision" in text


def test_dilemma_public_tree_through_the_protocol():
    tree = dilemma_tree(DilemmaSpec(players=3, street="turn", buckets=3, sizes="0.5,allin", raise_cap=1))
    out = _check_shape(tree)
    c = tree.counts()
    assert out["nodes"] == c["public_nodes"] and out["decision"] == c["decision_nodes"]
    assert out["terminal"] == c["terminals"] and out["infosets"] == c["infosets"]
    s = tree.shape()
    assert [s.label[x] for x in s.children_of(0)] == [tree.action_label(x) for x in s.children_of(0)]


def test_bluffjack_tree_through_the_protocol():
    tree = build_public_tree(BluffjackTreeSpec(), (3, 8))
    out = _check_shape(tree)
    assert out["decision"] == tree.n_decisions == int((tree.kind == NT_DECISION).sum())
    assert out["chance"] == int((tree.kind == NT_CHANCE).sum())


def test_card_trees_through_the_protocol():
    spot = CardSpot.holdem("Td9d6hQc", "AA, KK, T9s", "QQ, JJ, 98s", 200, 900)
    tree = expand(spot, action_tree(spot), (3, 3))
    out = _check_shape(tree)
    assert out["decision"] == int((tree.nodes[:, CARD_KIND] == CARD_DECISION).sum())
    assert out["chance"] > 0 and out["infoset_actions"] == sum(tree.storage)
    assert out["depth"] + 1 == tree.max_depth and out["max_actions"] == tree.max_actions
    three = MultiwaySolver(CardSpot.multiway("4s9h8h6c10s", ("random",) * 3, 60, 200, "100%", "", raise_cap=1)).tree
    out3 = _check_shape(three)
    assert out3["players"] == 3 and out3["chance"] == 0
    assert out3["decision"] == len(three.decisions) and out3["terminal"] == len(three.terminals)
    turn = TurnSolver3(CardSpot.multiway("4s9h8h6c", ("AA", "1010", "99"), 60, 200, "100%", "", raise_cap=1)).tree
    out4 = _check_shape(turn)
    assert out4["chance"] == len(turn.chances) > 0 and out4["decision"] == len(turn.decisions)


def test_preflop_tree_through_the_protocol():
    tree = build_preflop_tree()
    out = _check_shape(tree)
    assert out["players"] == 2 and out["chance"] == 0
    assert out["decision"] == len(tree.decisions()) and out["terminal"] == len(tree.terminals())


@pytest.mark.parametrize("depth", [0, 1, 3])
def test_render_stops_at_the_depth(depth):
    lines = render(leduc(), max_depth=depth, max_lines=10_000).splitlines()
    assert max((len(x) - len(x.lstrip())) // 2 for x in lines) == depth
