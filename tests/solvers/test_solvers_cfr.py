"""Full-width solvers (CFR, CFR+, DCFR) on Kuhn and Leduc: known values and open_spiel's trajectories.

The open_spiel figures were computed with open_spiel 2.0.2 (pip ``open_spiel``):
``pyspiel.CFRPlusSolver`` / ``pyspiel.CFRSolver`` (C++), the Python
``discounted_cfr.DCFRSolver`` and ``cfr._CFRSolver(alternating_updates=False)``,
then ``exploitability`` of the average policy. Same algorithm, same numbers up
to floating-point rounding (which CFR's regret matching slowly amplifies, hence
the looser tolerance at 1,000 Leduc iterations).
"""

from __future__ import annotations

import pytest

from analysis.solvers import kuhn, leduc, solve


@pytest.mark.parametrize("method, iterations", [("cfr", 2000), ("cfr+", 1000), ("dcfr", 1000)])
def test_kuhn_value_and_exploitability(method: str, iterations: int) -> None:
    r = solve(kuhn(), method, iterations)
    assert r.game_value[0] == pytest.approx(-1 / 18, abs=1e-3)
    assert r.game_value[1] == pytest.approx(1 / 18, abs=1e-3)
    assert r.exploitability < 1e-3
    assert r.history["exploitability"].iloc[-1] == r.exploitability
    assert r.history["exploitability"].iloc[-1] < r.history["exploitability"].iloc[0]


@pytest.mark.parametrize("tree, method, iterations, alternating, expected, tol", [
    (kuhn(), "cfr+", 1000, True, 8.736532252084928e-05, 1e-12),
    (kuhn(), "cfr", 1000, True, 0.0009376166469929614, 1e-12),
    (kuhn(), "dcfr", 300, True, 0.0006963380309517875, 1e-12),
    (kuhn(), "cfr", 300, False, 0.013539788143389353, 1e-12),
    (leduc(), "cfr+", 10, True, 0.6104389015904066, 1e-12),
    (leduc(), "cfr+", 100, True, 0.013415994970897835, 1e-9),
    (leduc(), "cfr", 1000, True, 0.011817810259786288, 5e-6),
    (leduc(), "dcfr", 30, True, 0.06377842416220607, 1e-10),
], ids=lambda x: getattr(x, "name", str(x)))
def test_same_trajectory_as_open_spiel(tree, method, iterations, alternating, expected, tol) -> None:
    r = solve(tree, method, iterations, alternating=alternating, check_every=iterations)
    assert r.exploitability == pytest.approx(expected, abs=tol)


def test_leduc_cfr_plus_1000_iterations() -> None:
    # open_spiel's C++ CFR+ reaches 2.57e-4 here (same definition: NashConv / 2 in chips)
    r = solve(leduc(), "cfr+", 1000, check_every=100)
    assert r.exploitability < 3e-4
    assert r.nash_conv == pytest.approx(2 * r.exploitability)
    assert abs(sum(r.game_value)) < 1e-12
    h = r.history
    assert list(h["iteration"]) == list(range(100, 1001, 100))
    assert h["exploitability"].iloc[-1] < h["exploitability"].iloc[0] / 40


def test_leduc_dcfr_beats_cfr() -> None:
    d = solve(leduc(), "dcfr", 500, check_every=500).exploitability
    c = solve(leduc(), "cfr", 500, check_every=500).exploitability
    assert d < 1e-3 < c


def test_suit_isomorphic_leduc_solves_to_the_same_value() -> None:
    a = solve(leduc(), "cfr+", 300, check_every=300)
    b = solve(leduc(suit_isomorphic=True), "cfr+", 300, check_every=300)
    assert b.game_value[0] == pytest.approx(a.game_value[0], abs=2e-3)
    assert b.exploitability < 3e-3


def test_target_exploitability_stops_early_and_progress_is_reported() -> None:
    seen = []
    r = solve(kuhn(), "cfr+", 10_000, target_exploitability=5e-3, check_every=10,
              progress=lambda i, n, e: seen.append((i, n, e)))
    assert r.exploitability <= 5e-3 and r.iterations < 1000 and r.iterations % 10 == 0
    assert seen[-1] == (r.iterations, 10_000, r.exploitability)
    assert [i for i, _, _ in seen] == list(range(10, r.iterations + 1, 10))


def test_three_player_full_width_cfr_runs() -> None:
    r = solve(kuhn(3), "cfr+", 2000, check_every=1000)
    h = r.history["nash_conv"]
    assert h.iloc[-1] < 0.05 < 2.0625  # uniform play's NashConv is 2.0625
    assert abs(sum(r.game_value)) < 1e-12
