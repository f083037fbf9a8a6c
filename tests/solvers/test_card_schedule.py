"""The exploitability check schedule of CardSolver.run: fixed multiples, or adaptive jumps
toward the predicted meeting with the target that never stop on an unmeasured number."""

from __future__ import annotations

import pytest

from analysis.solvers.card_level import CardSolver, CardSpot
from analysis.solvers.card_level.schedule import next_check


def test_fixed_schedule_is_every_multiple():
    assert [next_check(d, [(10, 5.0), (20, 2.0)], 10, 0.1) for d in (0, 7, 10, 19, 20)] == [10, 10, 20, 20, 30]


def test_adaptive_schedule_jumps_halfway_to_the_power_law_meeting():
    # e = 1000 / t: from 10 and 20, the target 1.0 is met at 1000; half of the way from 20 is
    # 510, capped at twice the iterations done (40)
    checks = [(10, 100.0), (20, 50.0)]
    assert next_check(20, checks, 10, 1.0, "adaptive") == 40
    checks = [(100, 10.0), (200, 5.0)]  # meets 2.5 at 400: half way is 300
    assert next_check(200, checks, 10, 2.5, "adaptive") == 300
    # no jump: one check, a rise, or a check already below the target
    assert next_check(20, [(20, 50.0)], 10, 1.0, "adaptive") == 30
    assert next_check(20, [(10, 50.0), (20, 60.0)], 10, 1.0, "adaptive") == 30
    assert next_check(200, [(100, 10.0), (200, 9.99)], 10, 2.5, "adaptive") == 400  # slow fall: the cap
    # on a bump's way down (above an earlier check) a slow fall is no stall: every multiple
    bump = [(300, 0.438), (310, 0.454), (320, 0.617), (330, 0.808), (340, 0.804)]
    assert next_check(340, bump, 10, 0.12, "adaptive") == 350
    assert next_check(400, bump + [(390, 0.441), (400, 0.386)], 10, 0.12, "adaptive") == 440  # below it again
    with pytest.raises(ValueError):
        next_check(0, [], 10, 1.0, "sometimes")


def test_adaptive_run_stops_on_a_measured_check():
    spot = CardSpot.holdem("Td9d6hQc2s", "AA, KK, T9s, 65s", "QQ, JJ, A5s, 87s", pot=100, stack=200,
                       bets="100%", raises="")
    fixed, adaptive = CardSolver(spot), CardSolver(spot)
    fixed.run(target_pct=0.05, max_iterations=400)
    expl = adaptive.run(target_pct=0.05, max_iterations=400, schedule="adaptive")
    assert expl <= spot.pot * 0.05 / 100 and adaptive.history[-1][:2] == (adaptive.iterations, expl)
    assert adaptive.exploitability == expl  # the number reported was measured at the stop
    assert len(adaptive.history) < len(fixed.history)
    assert adaptive.iterations % 10 == 0 and adaptive.iterations >= fixed.iterations
