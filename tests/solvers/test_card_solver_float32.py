"""The card-level solver in float32 (``precision="float32"``): the same kernels compiled for
float32 rows give the plain-Python reference's values within float32 rounding, solve to the
float64 solve's values, and solution files keep the precision (a float64 file is unchanged)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from analysis.solvers.card_level import CardSolver, CardSpot, SpotError, SpotSolution, load_solution
from analysis.solvers.card_level._layout import TT_FOLD_TAB
from tests.reference.card_solver import assert_matches_reference

OOP, IP = "AA, KK, T9s, 76s, AKs", "QQ, JJ, AKs, 98s"
DILEMMA_OOP, DILEMMA_IP = "AsAh, AsAd, 9d9c, 2s2h, 2s3c, 8d7d, 4d4c", "AhAd, 9d9c, 2h3d, 5d5c, 10d10c, 3c3d"
ROW_TOLERANCE = 3e-6
"""Reference tolerance of a float32 value row, per chip of the pot plus the stack over the pairs
(the largest a value can be): float32 keeps 24 bits (6e-8 relative) and a row sums a few hundred
terms; the two spots below are off by at most 0.42e-6 and 0.49e-6 of that."""


def _check(solver: CardSolver) -> None:
    spot = solver.spot
    atol = ROW_TOLERANCE * (spot.pot + spot.stack) / solver.tables.pairs
    assert_matches_reference(solver, atol)


# the float32 specialisation compiles once on a cold cache (about 30 s at load 4); warm, about 2 s
@pytest.mark.parametrize("spot", [CardSpot.holdem("Td9d6hQc2s", OOP, IP, 200, 900)], ids=["texas-river"])
def test_float32_values_equal_the_pairwise_reference(spot):
    solver = CardSolver(spot, precision="float32")
    solver.step(7)
    assert solver._pool[0].dtype == np.float32 and solver.regrets[0].dtype == np.float32
    assert solver._task_vals.dtype == solver._weights.dtype == solver._tree_args[TT_FOLD_TAB].dtype == np.float32
    _check(solver)


def test_float32_solves_to_the_float64_values():
    spot = CardSpot.holdem("Td9d6hQc2s", OOP, IP, 200, 900)
    solved = {}
    for precision in ("float64", "float32"):
        solver = CardSolver(spot, precision=precision)
        solver.run(target_pct=0.1, max_iterations=2000)
        assert solver.exploitability_pct <= 0.1
        solved[precision] = solver
    # both within 0.1% of the pot of an equilibrium: their values within 0.2% of each other
    ev64, ev32 = solved["float64"].expected_values(), solved["float32"].expected_values()
    assert np.abs(ev64 - ev32).max() <= 0.002 * spot.pot
    # the float32 check, measured again by the float64 kernels on the same strategy sums
    again = CardSolver(spot)
    again.regrets, again.sums = solved["float32"].regrets, solved["float32"].sums
    assert again.exploitability == pytest.approx(solved["float32"].exploitability, abs=1e-5 * spot.pot)


def test_float32_solution_file_round_trip(tmp_path):
    spot = CardSpot.holdem("Td9d6hQc2s", OOP, IP, 200, 900)
    straight = CardSolver(spot, precision="float32")
    straight.step(6)
    half = CardSolver(spot, precision="float32")
    half.step(2)
    path = SpotSolution(half).save(tmp_path / "s32.npz")
    resumed = load_solution(path)
    assert resumed.solver.precision == "float32" and resumed.manifest()["precision"] == "float32"
    resumed.solver.step(4)
    for a, b in zip(straight.regrets + straight.sums, resumed.solver.regrets + resumed.solver.sums, strict=True):
        assert np.array_equal(a, b)
    # a float64 file names no precision (files written before the option read as float64)
    plain = SpotSolution(CardSolver(spot)).save(tmp_path / "s64.npz")
    with np.load(plain) as z:
        assert "precision" not in json.loads(str(z["info"]))
    assert load_solution(plain).solver.precision == "float64"
    with pytest.raises(SpotError, match="precision"):
        CardSolver(spot, precision="float16")


def test_float32_is_for_texas_holdem_spots():
    with pytest.raises(SpotError, match="Texas Hold'em spots"):
        CardSolver(CardSpot.dilemma("4s9h8h6c10s", DILEMMA_OOP, DILEMMA_IP, 40, 200, "100%, a", "a"),
                   precision="float32")
