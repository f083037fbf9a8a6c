"""Exact best responses, NashConv and exploitability (analysis/solvers/evaluate.py) against
independent references written from the rules (tests/solver_reference.py) and open_spiel's figures."""

from __future__ import annotations

import numpy as np
import pytest

from analysis.solvers import (
    SolverError,
    best_response,
    expected_values,
    exploitability,
    kuhn,
    leduc,
    nash_conv,
    profile_value,
    tree_from_dict,
    uniform_strategy,
)
from analysis.solvers import _layout as L
from tests.reference.solvers import (
    Kuhn,
    KuhnAsLeducInterface,
    Leduc,
    br_value,
    kuhn_br_by_enumeration,
    kuhn_value,
)

LEDUC_CARDS = ("Js", "Jh", "Qs", "Qh", "Ks", "Kh")


def _random_strategy(tree, seed: int, zeros: bool = True) -> np.ndarray:
    """A random profile; with ``zeros`` about a fifth of the actions get probability 0."""
    rng = np.random.default_rng(seed)
    out = np.empty(tree.n_actions)
    for off, k in tree.infos[:, [L.I_OFFSET, L.I_COUNT]]:
        w = rng.dirichlet(np.ones(k))
        if zeros and k > 1 and rng.random() < 0.2:
            w[rng.integers(k)] = 0.0
            w /= w.sum()
        out[off:off + k] = w
    return out


def _to_reference(tree, strategy, card_names) -> dict:
    """The flat strategy as the reference's policy dict {(player, (private, public, history)): probs}."""
    policy = {}
    for j, label in enumerate(tree.infoset_labels):
        obs, hist = label.split("|")
        cards = [card_names.index(tok) for tok in obs.split()]
        key = (cards[0], cards[1] if len(cards) > 1 else None, hist)
        off, k = tree.infos[j, L.I_OFFSET], tree.infos[j, L.I_COUNT]
        policy[(int(tree.infos[j, L.I_PLAYER]), key)] = list(strategy[off:off + k])
    return policy


def test_uniform_kuhn_against_enumeration_and_open_spiel() -> None:
    t = kuhn()
    u = uniform_strategy(t)
    pv = profile_value(t, u)
    ref = _to_reference(t, u, "JQK")
    br = [kuhn_br_by_enumeration(ref, p) for p in (0, 1)]
    assert pv.br_values == pytest.approx(br, abs=1e-12)
    assert pv.values == pytest.approx(kuhn_value(ref), abs=1e-12)
    # open_spiel: exploitability(kuhn_poker, uniform) = 0.4583333, nash_conv = 0.9166667
    assert pv.exploitability == pytest.approx(11 / 24, abs=1e-12)
    assert pv.nash_conv == pytest.approx(11 / 12, abs=1e-12)
    assert pv.exploitability == pytest.approx((br[0] + br[1]) / 2, abs=1e-12)


@pytest.mark.parametrize("seed", range(6))
def test_random_kuhn_profiles_against_enumeration(seed: int) -> None:
    t = kuhn()
    s = _random_strategy(t, seed)
    ref = _to_reference(t, s, "JQK")
    for p in (0, 1):
        value, actions = best_response(t, s, p)
        assert value == pytest.approx(kuhn_br_by_enumeration(ref, p), abs=1e-12)
        assert value == pytest.approx(br_value(KuhnAsLeducInterface(), ref, p), abs=1e-12)
        assert ((actions >= 0) == (t.infos[:, L.I_PLAYER] == p)).all()
    assert expected_values(t, s) == pytest.approx(kuhn_value(ref), abs=1e-12)


@pytest.mark.parametrize("seed", range(3))
def test_random_leduc_profiles_against_the_recursive_reference(seed: int) -> None:
    t = leduc()
    s = _random_strategy(t, 100 + seed)
    ref = _to_reference(t, s, LEDUC_CARDS)
    for p in (0, 1):
        assert best_response(t, s, p)[0] == pytest.approx(br_value(Leduc(), ref, p), abs=1e-9)


def test_uniform_leduc_matches_open_spiel() -> None:
    # open_spiel 2.0: exploitability(leduc_poker, uniform) = 2.373611111, nash_conv = 4.747222222
    for tree in (leduc(), leduc(suit_isomorphic=True)):
        pv = profile_value(tree, uniform_strategy(tree))
        assert pv.exploitability == pytest.approx(2.373611111111111, abs=1e-12)
        assert pv.nash_conv == pytest.approx(4.747222222222222, abs=1e-12)
        assert sum(pv.values) == pytest.approx(0, abs=1e-12)


def test_kuhn_three_players_uniform_nash_conv_matches_open_spiel() -> None:
    # open_spiel 2.0: nash_conv(kuhn_poker(players=3), uniform) = 2.0625
    assert nash_conv(kuhn(3), uniform_strategy(kuhn(3))) == pytest.approx(2.0625, abs=1e-12)


def test_known_equilibrium_of_kuhn_has_zero_exploitability() -> None:
    # the equilibrium family with alpha = 1/3 (Kuhn 1950): P0 bets J 1/3, K 1; calls with Q 2/3 ...
    t = kuhn()
    a = 1 / 3
    table = {"J|": a, "Q|": 0.0, "K|": 3 * a, "J|cr": 0.0, "Q|cr": a + 1 / 3, "K|cr": 1.0,
             "J|c": 1 / 3, "Q|c": 0.0, "K|c": 1.0, "J|r": 0.0, "Q|r": 1 / 3, "K|r": 1.0}
    s = np.empty(t.n_actions)
    for j, label in enumerate(t.infoset_labels):
        off = t.infos[j, L.I_OFFSET]
        s[off:off + 2] = (1 - table[label], table[label])
    pv = profile_value(t, s)
    assert pv.exploitability == pytest.approx(0.0, abs=1e-12)
    assert pv.values[0] == pytest.approx(-1 / 18, abs=1e-12)


def test_best_response_cannot_see_hidden_moves() -> None:
    spec = {"players": 2, "root": {"player": 0, "infoset": "hide", "actions": [
        ["heads", {"player": 1, "infoset": "guess", "actions": [
            ["heads", {"payoff": [-1, 1]}], ["tails", {"payoff": [1, -1]}]]}],
        ["tails", {"player": 1, "infoset": "guess", "actions": [
            ["heads", {"payoff": [1, -1]}], ["tails", {"payoff": [-1, 1]}]]}]]}}
    t = tree_from_dict(spec)
    s = np.array([0.7, 0.3, 0.5, 0.5])  # player 0 hides heads 70%
    # a guesser who saw the coin would win 1; the real best response guesses heads: 0.7 - 0.3
    assert best_response(t, s, 1)[0] == pytest.approx(0.4, abs=1e-12)
    assert best_response(t, s, 1)[1].tolist() == [-1, 0]
    assert exploitability(t, np.full(4, 0.5)) == pytest.approx(0.0, abs=1e-12)


def test_nash_conv_in_a_general_sum_game() -> None:
    # shifting every payoff by a constant per player (a bank that pays and takes) leaves
    # the best-response gains unchanged; NashConv stays the same, values move
    t = kuhn()
    shifted_spec = {"players": 2, "root": _as_dict(t, 0, shift=(5.0, -2.0))}
    g = tree_from_dict(shifted_spec)
    assert not g.zero_sum and g.n_infosets == t.n_infosets
    s = _random_strategy(t, 7)
    gs = np.empty(g.n_actions)
    for j, label in enumerate(t.infoset_labels):
        k = g.infoset_labels.index(label)
        gs[g.infos[k, L.I_OFFSET]:g.infos[k, L.I_OFFSET] + 2] = s[t.infos[j, L.I_OFFSET]:t.infos[j, L.I_OFFSET] + 2]
    a, b = profile_value(t, s), profile_value(g, gs)
    assert b.nash_conv == pytest.approx(a.nash_conv, abs=1e-12)
    assert b.values == pytest.approx((a.values[0] + 5, a.values[1] - 2), abs=1e-12)
    assert b.exploitability == pytest.approx(b.nash_conv / 2)


def _as_dict(tree, v: int, shift) -> dict:
    """A flat tree back into the nested description (payoffs shifted)."""
    kind, first, count, index = (tree.nodes[v, c] for c in (L.KIND, L.FIRST, L.COUNT, L.INDEX))
    if kind == L.TERMINAL:
        return {"payoff": [float(x + d) for x, d in zip(tree.utility[index], shift, strict=True)]}
    kids = [_as_dict(tree, c, shift) for c in range(first, first + count)]
    if kind == L.CHANCE:
        return {"chance": [[float(tree.prob[first + j]), str(j), kid] for j, kid in enumerate(kids)]}
    return {"player": int(tree.nodes[v, L.PLAYER]), "infoset": tree.infoset_labels[index],
            "actions": [[a, kid] for a, kid in zip(tree.action_labels[index], kids, strict=True)]}


def test_bad_strategies_are_rejected() -> None:
    t = kuhn()
    with pytest.raises(SolverError, match="needs 24 probabilities"):
        exploitability(t, np.ones(3))
    s = uniform_strategy(t)
    s[0] = 0.9
    with pytest.raises(SolverError, match="infoset 'J\\|' sums to 1.4"):
        exploitability(t, s)
    with pytest.raises(SolverError, match="out of range"):
        best_response(t, uniform_strategy(t), 2)


def test_reference_kuhn_rules_sanity() -> None:
    g = Kuhn()
    assert len(g.deals()) == 6
    assert g.terminal_payoff(((2, 0), "rc")) == [2, -2]
    assert g.terminal_payoff(((0, 2), "crf")) == [-1, 1]
