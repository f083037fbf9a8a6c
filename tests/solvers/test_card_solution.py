"""Reading a solved spot: action EVs per holding equal the pairwise reference, node EVs add up
to the players' expected values, the frame's indifference and regret, and solution files that
resume bit for bit (a truncated or foreign file is one error)."""

from __future__ import annotations

import numpy as np
import pytest

import analysis
from analysis.solvers.card_level import CardSolver, CardSpot, SpotError, SpotSolution, load_solution
from analysis.solvers.card_level.solution import _compatible_mass
from analysis.solvers.card_level.tree import DECISION, KIND
from tests.reference.card_solver import counterfactual_values

OOP, IP = "AA, KK, T9s, 76s, AKs", "QQ, JJ, AKs, 98s"


@pytest.fixture(scope="module")
def solution() -> SpotSolution:
    return analysis.solve_spot(CardSpot.holdem("Td9d6hQc2s", OOP, IP, 200, 900), target_pct=0.2, max_iterations=500)


@pytest.mark.parametrize("line", [(), ("bet 100",), ("check", "bet 100")])
def test_action_values_equal_the_reference_with_the_action_forced(solution, line):
    solver = solution.solver
    nodes = solver.tree.nodes
    v = solution.node(line)
    actor = int(nodes[v, 1])
    labels, ev = solution.action_values(line)
    reach = solution._opponent_reach(v)
    mass = _compatible_mass(solver, actor, reach)
    base = {int(u): solver.strategy(int(u)) for u in np.flatnonzero(nodes[:, KIND] == DECISION)}
    for a in range(len(labels)):
        forced = dict(base)
        forced[v] = np.zeros_like(base[v])
        forced[v][a] = 1.0
        # the reference's root values of the actor, with the opponent's reach on the line folded in
        ref = counterfactual_values(solver, forced, actor)
        if line:  # value of the whole game = this line's part + the rest: compare differences instead
            other = dict(forced)
            other[v] = np.zeros_like(base[v])
            other[v][(a + 1) % len(labels)] = 1.0
            ref_other = counterfactual_values(solver, other, actor)
            diff = ev[a] - ev[(a + 1) % len(labels)]
            path_mass = mass / solver.tables.pairs
            reach_own = _own_reach(solution, v, actor)
            np.testing.assert_allclose(diff * path_mass * reach_own, ref - ref_other, atol=1e-9)
        else:
            np.testing.assert_allclose(ev[a], 100.0 + ref * solver.tables.pairs / mass, atol=1e-9)


def _own_reach(solution, v, player):
    """The actor's own probability of playing the line to ``v`` (average strategy), per holding."""
    nodes = solution.solver.tree.nodes
    n = int(solution.solver.tables.n_hands[player])
    out = np.ones(n)
    u = 0
    while u != v:
        kids = solution._children(u)
        j = max(i for i, c in enumerate(kids) if c <= v)
        if nodes[u, 1] == player:
            out *= solution.solver.strategy(u)[j]
        u = kids[j]
    return out


def test_node_values_add_up_to_the_expected_value(solution):
    frame = solution.to_frame()
    root = frame[(frame.line == "(root)") & (frame.action == "check")]
    solver = solution.solver
    mass = _compatible_mass(solver, 0, solver.tables.weights[1])
    w = solver.tables.weights[0, : solver.tables.n_hands[0]]
    total = 100.0 + float(((root.node_ev.to_numpy() - 100.0) * mass * w).sum() / solver.tables.pairs)
    assert total == pytest.approx(solution.ev()["oop"], abs=1e-9)
    assert solution.ev()["oop"] + solution.ev()["ip"] == pytest.approx(200.0)


def test_frame_says_indifferent_apart_from_a_preference(solution):
    frame = solution.to_frame()
    assert set(frame.line) == {" / ".join(x) or "(root)" for x in solution.first_street_lines()}
    gap = frame.ev_gap.to_numpy()
    assert np.array_equal(frame.indifferent.to_numpy(), gap < solution.tolerance)
    assert (frame.regret.dropna() >= -1e-9).all()  # NaN: no opponent holding reaches the line
    assert frame.regret.notna().any()
    freq = frame.groupby(["line", "holding"]).frequency.sum()
    np.testing.assert_allclose(freq.to_numpy(), 1.0, atol=1e-6)
    with pytest.raises(SpotError, match="no action 'raise 7'"):
        solution.strategy(["raise 7"])


@pytest.mark.parametrize("by", ["made_hand", "draw", "class"])
def test_summary_weighs_every_holding_once_and_adds_up_to_the_value(solution, by):
    table = solution.summary((), by)
    shares = table.groupby("group", sort=False).share.first()
    assert shares.sum() == pytest.approx(1.0)
    freq = table.groupby("group", sort=False).frequency.sum()
    np.testing.assert_allclose(freq.to_numpy(), 1.0, atol=1e-9)
    groups = table.groupby("group", sort=False).first()
    value = float((groups.share * groups.group_ev).sum())
    assert value == pytest.approx(solution.ev()["oop"], abs=1e-9)  # the root's value, whatever the grouping


def test_summary_by_class_equals_a_direct_sum(solution):
    table = solution.summary((), "class").set_index(["group", "action"])
    solver = solution.solver
    w = solver.tables.weights[0, : solver.tables.n_hands[0]] * _compatible_mass(solver, 0, solver.tables.weights[1])
    names = solution.holding_names(0)
    aks = np.array([n[0] == "A" and n[2] == "K" and n[1] == n[3] for n in names])  # AsKs, AhKh, ...
    strategy = solver.strategy(0)
    labels, ev = solution.action_values(())
    for a, label in enumerate(labels):
        row = table.loc[("AKs", label)]
        assert row.frequency == pytest.approx((w[aks] * strategy[a, aks]).sum() / w[aks].sum())
        assert row.ev == pytest.approx((w[aks] * ev[a, aks]).sum() / w[aks].sum())
        assert row.share == pytest.approx(w[aks].sum() / w.sum())
    frame = solution.to_frame()
    assert set(frame[frame.holding.isin(np.array(names)[aks])]["class"]) == {"AKs"}
    assert {"made_hand", "draw"} <= set(frame.columns)


def test_reach_is_the_range_weight_times_the_own_strategy(solution):
    v = solution.node(("check", "bet 100"))
    n = int(solution.solver.tables.n_hands[0])
    expected = solution.solver.tables.weights[0, :n] * _own_reach(solution, v, 0)
    np.testing.assert_allclose(solution.reach(v, 0)[:n], expected, atol=1e-12)
    with pytest.raises(SpotError, match="summary by 'suit'"):
        solution.summary((), "suit")


def test_solution_file_resumes_bit_for_bit(tmp_path):
    spot = CardSpot.holdem("Td9d6hQc", OOP, IP, 200, 900)
    straight = CardSolver(spot)
    straight.step(8)
    half = CardSolver(spot)
    half.step(3)
    path = SpotSolution(half).save(tmp_path / "s.npz")
    resumed = load_solution(path)
    assert resumed.iterations == 3
    resumed.solver.step(5)
    for a, b in zip(straight.regrets + straight.sums, resumed.solver.regrets + resumed.solver.sums, strict=True):
        assert np.array_equal(a, b)


def test_bad_solution_files_are_one_error(tmp_path):
    spot = CardSpot.holdem("Td9d6hQc2s", OOP, IP, 200, 900)
    path = SpotSolution(CardSolver(spot)).save(tmp_path / "s.npz")
    data = path.read_bytes()
    (tmp_path / "cut.npz").write_bytes(data[: len(data) // 2])
    (tmp_path / "junk.npz").write_text("not a solution")
    np.savez(tmp_path / "foreign.npz", info=np.array('{"format": "other"}'), regret0=np.zeros(1),
             regret1=np.zeros(1), sum0=np.zeros(1), sum1=np.zeros(1))
    for name, match in (("cut.npz", "cannot read"), ("junk.npz", "not an .npz archive"),
                        ("foreign.npz", "not a card-solver solution")):
        with pytest.raises(SpotError, match=match):
            load_solution(tmp_path / name)


def test_a_line_through_a_mirrored_card_names_the_stored_one():
    """Suit isomorphism stores one of two mirrored subtrees: asking for the other names the line to ask."""
    from analysis.solvers.card_level import CardSpot, SpotError, solve_spot

    sol = solve_spot(CardSpot.holdem("Td9d6dQd", "AA,KK", "QQ,JJ", 200, 900), max_iterations=3)
    assert sol.strategy(("check", "check", "As")).shape[0] > 0
    for ask in (sol.strategy, sol.action_values, lambda line: sol.summary(line, "made_hand")):
        with pytest.raises(SpotError, match="ask for check / check / As, the same with the suits swapped"):
            ask(("check", "check", "Ac"))
