"""External-sampling MCCFR (analysis/solvers/_mccfr_kernels.py): convergence for 2 and 3 players,
reproducibility from the seed."""

from __future__ import annotations

import numpy as np
import pytest

from analysis.solvers import Solver, SolverSettings, kuhn, leduc, solve


def test_kuhn_two_players_converges() -> None:
    r = solve(kuhn(), "mccfr", 20_000, seed=1, check_every=2_000)
    assert r.exploitability < 0.01
    assert r.game_value[0] == pytest.approx(-1 / 18, abs=0.01)
    assert r.history["exploitability"].iloc[-1] < r.history["exploitability"].iloc[0]


def test_kuhn_three_players_average_strategy_settles() -> None:
    s = Solver(kuhn(3), SolverSettings("mccfr", seed=3))
    changes, conv = [], []
    prev = s.average_strategy()
    for _ in range(40):
        s.run(1_000)
        avg = s.average_strategy()
        changes.append(np.abs(avg - prev).mean())
        conv.append(s.evaluate().nash_conv)
        prev = avg
    # the mean change of the average strategy per 1,000 iterations falls (~1/t; rarely
    # sampled infosets still jump now and then); NashConv falls from 2.06 (uniform play)
    assert np.mean(changes[-5:]) < np.mean(changes[:5]) / 10
    assert np.mean(changes[-10:]) < np.mean(changes[10:20])
    assert conv[-1] < 0.1 and np.mean(conv[-10:]) < np.mean(conv[:5])


def test_same_seed_same_result_other_seed_other_result() -> None:
    def run(seed: int) -> Solver:
        s = Solver(kuhn(3), SolverSettings("mccfr", seed=seed))
        s.run(500)
        return s

    a, b, c = run(7), run(7), run(8)
    assert np.array_equal(a.regret, b.regret) and np.array_equal(a.ssum, b.ssum)
    assert not np.array_equal(a.regret, c.regret)


def test_chunks_do_not_change_the_samples() -> None:
    one = Solver(leduc(), SolverSettings("mccfr", seed=11))
    one.run(300)
    parts = Solver(leduc(), SolverSettings("mccfr", seed=11))
    for n in (1, 99, 200):
        parts.run(n)
    assert np.array_equal(one.regret, parts.regret) and np.array_equal(one.ssum, parts.ssum)


def test_leduc_mccfr_improves() -> None:
    r = solve(leduc(), "mccfr", 20_000, seed=5, check_every=2_000)
    h = r.history["exploitability"]
    assert h.iloc[-1] < 0.2 and h.iloc[-1] < h.iloc[0] / 2
