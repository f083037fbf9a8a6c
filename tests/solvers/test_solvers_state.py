"""Solver state save/resume (analysis/solvers/tree_solver.py): bit-for-bit resumption, atomic files, bad files."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from analysis.solvers import Solver, SolverError, SolverSettings, kuhn, leduc, solve

METHODS = [("cfr", True), ("cfr", False), ("cfr+", True), ("dcfr", True), ("mccfr", True)]


@pytest.mark.parametrize("method, alternating", METHODS)
def test_two_times_fifty_equals_one_hundred(tmp_path: Path, method: str, alternating: bool) -> None:
    tree = leduc()
    path = tmp_path / "state.npz"
    solve(tree, method, 50, state=path, seed=4, alternating=alternating)
    resumed = Solver.load(path, tree)
    assert resumed.iteration == 50
    resumed.run(50)
    straight = Solver(tree, SolverSettings(method, alternating=alternating, seed=4))
    straight.run(100)
    assert np.array_equal(resumed.regret, straight.regret)
    assert np.array_equal(resumed.ssum, straight.ssum)


@pytest.mark.parametrize("method", ["cfr+", "mccfr"])
def test_solve_resumes_to_the_total_iteration_count(tmp_path: Path, method: str) -> None:
    tree = kuhn(3) if method == "mccfr" else leduc()
    path = tmp_path / "run" / "state.npz"
    first = solve(tree, method, 50, state=path, seed=9, check_every=10)
    assert first.iterations == 50 and path.exists()
    again = solve(tree, method, 100, state=path, seed=9, check_every=25)
    whole = solve(tree, method, 100, seed=9, check_every=25)
    assert again.iterations == 100
    assert np.array_equal(again.average, whole.average)
    assert again.exploitability == whole.exploitability
    # the history keeps the first run's checks, then the resumed run's
    assert list(again.history["iteration"]) == [10, 20, 30, 40, 50, 75, 100]
    # a finished run is not run again
    assert solve(tree, method, 100, state=path, seed=9).iterations == 100


def test_save_is_atomic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    s = Solver(kuhn())
    s.run(10)
    path = s.save(tmp_path / "k.npz")
    before = path.read_bytes()
    s.run(10)

    def broken(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(np, "savez", broken)
    with pytest.raises(OSError):
        s.save(path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["k.npz"]  # no temporary file left
    monkeypatch.undo()
    assert Solver.load(path, kuhn()).iteration == 10


def test_state_records_settings_and_checks_them(tmp_path: Path) -> None:
    path = tmp_path / "d.npz"
    solve(kuhn(), "dcfr", 20, state=path, alpha=2.0)
    loaded = Solver.load(path, kuhn())
    assert loaded.settings == SolverSettings("dcfr", alpha=2.0).normalised()
    with pytest.raises(SolverError, match="was saved with"):
        solve(kuhn(), "dcfr", 40, state=path)  # alpha differs
    with pytest.raises(SolverError, match="saved for tree 'kuhn-2p'"):
        Solver.load(path, leduc())
    # options the method does not use (a seed for a deterministic method) do not block a resume
    plus = tmp_path / "p.npz"
    solve(kuhn(), "cfr+", 20, state=plus, seed=1, gamma=3.0)
    assert solve(kuhn(), "cfr+", 40, state=plus, seed=2).iterations == 40
    assert solve(kuhn(), "cfr+", 0, state=tmp_path / "new.npz").iterations == 0
    assert (tmp_path / "new.npz").exists()


def test_unreadable_state_is_a_solver_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a zip file")
    with pytest.raises(SolverError, match="cannot read solver state"):
        Solver.load(bad, kuhn())
    with pytest.raises(SolverError, match="cannot read solver state"):
        Solver.load(tmp_path / "missing.npz", kuhn())


def test_ctrl_c_stops_after_one_short_kernel_call_and_saves(tmp_path: Path) -> None:
    """The first chunk is one iteration; a set stop flag saves the state and says where."""
    import threading

    from analysis.runners.interrupt import Interrupted
    from analysis.solvers.tree_solver import run_chunked, stop_and_save

    tree = leduc()
    solver = Solver(tree, SolverSettings("cfr+", seed=4))
    stop = threading.Event()
    stop.set()
    path = tmp_path / "state.npz"
    with pytest.raises(Interrupted, match="saved in"):
        run_chunked(solver, 1000, stop, lambda: stop_and_save(solver, 1000, path))
    assert solver.iteration == 1
    assert Solver.load(path, tree).iteration == 1
