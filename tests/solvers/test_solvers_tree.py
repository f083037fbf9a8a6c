"""Game trees as data (analysis/solvers/game_tree.py, betting.py, known_games.py): sizes, layout, bad input."""

from __future__ import annotations

import numpy as np
import pytest

from analysis.solvers import (
    BettingSpec,
    CardDeal,
    Outcome,
    SolverError,
    Street,
    TreeBuilder,
    build_tree,
    kuhn,
    leduc,
    tree_from_dict,
)
from analysis.solvers import _layout as L
from evaluator.errors import LabError

# node, terminal, chance, decision and infoset counts as open_spiel 2.0 reports them
# (walking pyspiel.load_game(name).new_initial_state() and counting information_state_string)
OPEN_SPIEL_COUNTS = {
    "kuhn-2p": (58, 30, 4, 24, 12),
    "kuhn-3p": (617, 312, 17, 288, 48),
    "leduc": (9457, 5520, 157, 3780, 936),
}


@pytest.mark.parametrize("tree", [kuhn(2), kuhn(3), leduc()], ids=lambda t: t.name)
def test_sizes_match_open_spiel(tree) -> None:
    c = tree.counts()
    assert (c["nodes"], c["terminal"], c["chance"], c["decision"], c["infosets"]) == \
        OPEN_SPIEL_COUNTS[tree.name]
    assert tree.zero_sum


def test_leduc_per_player_and_suit_isomorphic_counts() -> None:
    c = leduc().counts()
    assert c["infosets_p0"] == c["infosets_p1"] == 468
    iso = leduc(suit_isomorphic=True).counts()
    # ranks only: 3 private x (6 round-1 + 3 public x 5 lines x 6 round-2) = 288, 144 each
    assert iso["infosets"] == 288 and iso["infosets_p0"] == 144
    assert iso["nodes"] == c["nodes"]


@pytest.mark.parametrize("tree", [kuhn(2), kuhn(3), leduc()], ids=lambda t: t.name)
def test_breadth_first_layout(tree) -> None:
    nodes, infos = tree.nodes, tree.infos
    inner = np.flatnonzero(nodes[:, L.KIND] != L.TERMINAL)
    first, count = nodes[inner, L.FIRST], nodes[inner, L.COUNT]
    assert (first > inner).all() and (count > 0).all()
    # children blocks tile ids 1..N-1 exactly once, in order
    assert np.array_equal(np.sort(first), first)
    assert first[0] == 1 and (first[1:] == first[:-1] + count[:-1]).all()
    assert first[-1] + count[-1] == tree.n_nodes
    # chance probabilities sum to one; decisions have as many children as actions
    for v in np.flatnonzero(nodes[:, L.KIND] == L.CHANCE):
        f, k = nodes[v, L.FIRST], nodes[v, L.COUNT]
        assert tree.prob[f:f + k].sum() == pytest.approx(1.0)
        assert tree.cum[f + k - 1] == pytest.approx(1.0)
    dec = nodes[:, L.KIND] == L.DECISION
    assert (nodes[dec, L.COUNT] == infos[nodes[dec, L.INDEX], L.I_COUNT]).all()
    assert (nodes[dec, L.PLAYER] == infos[nodes[dec, L.INDEX], L.I_PLAYER]).all()
    assert np.array_equal(infos[:, L.I_OFFSET], np.concatenate([[0], np.cumsum(infos[:-1, L.I_COUNT])]))
    # infosets numbered by first appearance
    firsts = [np.flatnonzero(dec & (nodes[:, L.INDEX] == j))[0] for j in range(tree.n_infosets)]
    assert firsts == sorted(firsts)


def test_kuhn_labels_and_actions() -> None:
    t = kuhn()
    assert t.infoset_labels[:3] == ("J|", "Q|", "K|")
    assert dict(zip(t.infoset_labels, t.action_labels, strict=True))["K|cr"] == ("fold", "call")
    assert dict(zip(t.infoset_labels, t.action_labels, strict=True))["Q|c"] == ("check", "bet")


def test_leduc_payoffs_follow_the_rules() -> None:
    # every terminal pays at most the 13 chips a capped hand can put in, and is zero-sum
    u = leduc().utility
    assert np.abs(u).max() == 13 and np.allclose(u.sum(axis=1), 0)
    assert sorted(set(np.abs(u[:, 0]).tolist())) == [0, 1, 3, 5, 7, 9, 11, 13]


def test_from_dict_matching_pennies() -> None:
    spec = _hidden_pennies()
    t = tree_from_dict(spec)
    assert t.counts()["infosets"] == 2 and t.counts()["nodes"] == 7
    assert build_tree(spec).fingerprint == t.fingerprint
    assert build_tree(t) is t


def _hidden_pennies(payoffs=((1, -1), (-1, 1), (-1, 1), (1, -1))) -> dict:
    """Player 0 hides a coin; player 1 guesses it without seeing it."""
    def guess(a, b):
        return {"player": 1, "infoset": "guess", "actions": [["heads", {"payoff": list(a)}],
                                                            ["tails", {"payoff": list(b)}]]}
    return {"players": 2, "name": "pennies", "root": {
        "player": 0, "infoset": "hide", "actions": [
            ["heads", guess(payoffs[0], payoffs[1])], ["tails", guess(payoffs[2], payoffs[3])]]}}


def test_chance_with_many_outcomes_and_general_payoffs() -> None:
    b = TreeBuilder(3, "lottery")
    root = b.chance()
    for i in range(10):
        b.terminal([i, -2 * i, 0.5], root, prob=0.1)
    t = b.build()
    assert t.counts()["terminal"] == 10 and not t.zero_sum
    assert t.cum[10] == pytest.approx(1.0)


@pytest.mark.parametrize("build, match", [
    (lambda b: b.chance(), "no nodes|outcomes"),
    (lambda b: (b.chance(), b.terminal([0, 0], 0, prob=0.4), b.terminal([0, 0], 0, prob=0.4)), "sum to"),
    (lambda b: b.terminal([0, 0], b.chance(), prob=0.0), "positive probability"),
    (lambda b: b.terminal([1, 2, 3]), "2 finite payoffs"),
    (lambda b: b.decision(2, "x", ["a"]), "player 2 out of range"),
    (lambda b: b.decision(0, "x", []), "no actions"),
    (lambda b: (b.decision(0, "x", ["a"]), b.terminal([0, 0]), ), "second root"),
    (lambda b: b.terminal([0, 0], b.terminal([0, 0])), "cannot have children"),
    (lambda b: (lambda r: (b.decision(1, "y", ["a"], r), b.decision(1, "y", ["a", "b"], r)))(
        b.decision(0, "x", ["l", "r"])), "has actions"),
])
def test_builder_rejects_bad_games(build, match) -> None:
    b = TreeBuilder(2, "bad")
    with pytest.raises(SolverError, match=match):
        build(b)
        b.build()


def test_builder_rejects_imperfect_recall() -> None:
    b = TreeBuilder(2, "forgetful")
    r = b.decision(0, "first", ["a", "b"])
    for _ in range(2):  # player 0 acts again in one infoset after either of its own moves
        x = b.decision(0, "again", ["c", "d"], r)
        b.terminal([1, -1], x)
        b.terminal([0, 0], x)
    with pytest.raises(SolverError, match="perfect recall"):
        b.build()


def test_decision_count_mismatch() -> None:
    b = TreeBuilder(2, "short")
    r = b.decision(0, "x", ["a", "b"])
    b.terminal([0, 0], r)
    with pytest.raises(SolverError, match="1 children for 2 actions"):
        b.build()


def test_from_dict_errors_are_lab_errors() -> None:
    with pytest.raises(LabError, match="'players' and 'root'"):
        tree_from_dict({"root": {}})
    with pytest.raises(SolverError, match="needs 'payoff', 'chance' or 'actions'"):
        tree_from_dict({"players": 1, "root": {"oops": 1}})
    with pytest.raises(SolverError, match="cannot build a game tree"):
        build_tree(42)


class _Coin:
    """A chance model with one public coin before the only street and a bank-style payoff:
    the showdown winner also collects a bonus of 3 from outside, the loser pays 1 to it."""

    n_players = 2

    def initial_state(self):
        return ()

    def steps(self, street):
        return 1

    def outcomes(self, street, step, state):
        return [(0.5, ("H",), ["H", "H"]), (0.5, ("T",), ["T", "T"])]

    def payoff(self, state, outcome: Outcome):
        c = outcome.contributions
        heads = 0 if state == ("H",) else 1
        w = heads if outcome.showdown else outcome.live.index(True)
        pen = [0.0 if (q == w or not outcome.in_last_round[q]) else -1.0 for q in range(2)]
        return [(sum(c) + 3 if q == w else 0) - c[q] + pen[q] for q in range(2)]


def test_betting_spec_pot_sizes_multiple_sizes_and_fold_when_unbet() -> None:
    street = Street("flop", sizes=(0.5, 1.0), sizing="pot", raise_cap=2, fold_when_unbet=True)
    spec = BettingSpec("coin", 2, (street,), _Coin(), ante=(1.0, 2.0))
    t = build_tree(spec)
    labels = dict(zip(t.infoset_labels, t.action_labels, strict=True))
    assert labels["H|"] == ("fold", "call", "raise 0.5x pot", "raise 1x pot")  # facing the blind
    assert labels["H|r0"] == ("fold", "call", "raise 0.5x pot", "raise 1x pot")
    assert labels["H|r0r1"] == ("fold", "call")  # the cap is reached
    assert labels["H|c"] == ("fold", "check", "bet 0.5x pot", "bet 1x pot")  # nothing to call
    assert not t.zero_sum
    # player 0 folds at once: pays the ante 1 and the penalty 1; player 1 nets 1 + 3
    first = t.nodes[0, L.FIRST]
    fold = t.nodes[first, L.FIRST]
    assert t.nodes[fold, L.KIND] == L.TERMINAL
    assert t.utility[t.nodes[fold, L.INDEX]].tolist() == [-2.0, 4.0]


def test_betting_spec_validation() -> None:
    deal = CardDeal(2, ("J", "Q", "K"), (0, 1, 2))
    with pytest.raises(SolverError, match="sizing"):
        build_tree(BettingSpec("x", 2, (Street("s", sizing="half"),), deal))
    with pytest.raises(SolverError, match="no streets"):
        build_tree(BettingSpec("x", 2, (), deal))
    with pytest.raises(SolverError, match="4 cards needed"):
        CardDeal(3, ("J", "Q", "K"), (0, 1, 2), board=(1,))
