"""The runner: results independent of task size and backend, resume after Ctrl-C, records, schedules."""

from __future__ import annotations

import signal
from typing import Any

import numpy as np
import pytest

from analysis.runners import FixedTrials, Interrupted, LocalBackend, Plan, StderrTarget, run
from analysis.runners.backends import Backend, Session, run_task
from analysis.runners.schedule import ScheduleError


class Darts(Plan):
    """Estimate pi/4 by darts; each stream is seeded from (seed, cell, stream) alone."""

    name = "darts"
    stream_size = 500

    def __init__(self, cells: int = 3, schedule=None, records: bool = False) -> None:
        self.cells = cells
        self._schedule = schedule or StderrTarget(target=0.01, first_trials=1000, max_trials=200_000)
        self.record_width = 2 if records else 0
        self.computed: list[tuple[int, int]] = []

    @property
    def n_cells(self) -> int:
        return self.cells

    @property
    def n_stats(self) -> int:
        return 3

    @property
    def schedule(self):
        return self._schedule

    def settings(self) -> dict[str, Any]:
        return {"cells": self.cells}

    def run(self, cells, streams, trials):
        rows = np.zeros((len(cells), 3))
        records = []
        for i, (c, k, t) in enumerate(zip(cells, streams, trials, strict=True)):
            self.computed.append((int(c), int(k)))
            rng = np.random.default_rng([7, int(c), int(k)])
            xy = rng.random((int(t), 2)) * (1.0 + 0.1 * c)
            hit = (xy**2).sum(axis=1) < 1.0
            rows[i] = (hit.sum(), t, hit.sum())  # hits are 0/1, so the sum of squares is the sum
            records.append([int(c), int(k)])
        if self.record_width:
            return rows, np.array(records, np.int64).reshape(-1, 2)
        return rows

    def stderr(self, totals):
        p = totals[:, 0] / np.maximum(totals[:, 1], 1)
        return np.sqrt(p * (1 - p) / np.maximum(totals[:, 1], 1))


def test_totals_do_not_depend_on_the_task_size():
    small = run(Darts(), task_seconds=1e-6)
    large = run(Darts(), task_seconds=10.0)
    assert np.array_equal(small.totals, large.totals) and np.array_equal(small.trials, large.trials)
    assert (Darts().stderr(small.totals) <= 0.01).all()


class Scrambled(Backend):
    """Several tasks in flight, finishing in a seeded random order (like Dask workers);
    each task reports a fixed time per trial, so the runner sizes tasks as on a cluster."""

    label = "scrambled"

    def __init__(self, slots: int) -> None:
        self.slots = slots
        self.sizes: list[int] = []

    def session(self, plan):
        backend = self

        class _Session(Session):
            slots = backend.slots

            def __init__(self) -> None:
                self.flight: list = []
                self.rng = np.random.default_rng(5)

            def submit(self, key, task):
                backend.sizes.append(int(task[2].sum()))
                self.flight.append((key, task))

            def next_done(self):
                key, task = self.flight.pop(int(self.rng.integers(len(self.flight))))
                rows, _ = run_task(plan, *task)
                return key, rows, 1e-6 * float(task[2].sum())

            def cancel(self):
                self.flight.clear()

        from contextlib import nullcontext
        return nullcontext(_Session())


def test_tasks_finishing_out_of_order_give_the_same_totals_and_the_round_ends_in_small_tasks():
    schedule = StderrTarget(target=0.002, first_trials=20_000, max_trials=1_000_000)
    local = run(Darts(schedule=schedule))
    backend = Scrambled(slots=4)
    scrambled = run(Darts(schedule=schedule), backend=backend, task_seconds=0.005)
    assert np.array_equal(local.totals, scrambled.totals)
    assert np.array_equal(local.trials, scrambled.trials)
    full = max(backend.sizes)
    assert full >= 8 * Darts.stream_size
    assert max(backend.sizes[-3:]) < full / 2  # the tail was split between the slots


def test_fixed_trials_end_with_a_partial_stream():
    plan = Darts(cells=2, schedule=FixedTrials(1234))
    result = run(plan)
    assert list(result.trials) == [1234, 1234] and list(result.totals[:, 1]) == [1234, 1234]
    assert sorted(plan.computed) == [(c, k) for c in range(2) for k in range(3)]


@pytest.mark.usefixtures("ctrl_c_raises")
def test_interrupt_saves_and_a_rerun_resumes_without_recomputing(tmp_path):
    found = signal.getsignal(signal.SIGINT)
    straight = run(Darts(), task_seconds=1e-6)
    first = Darts()
    calls = []

    def ctrl_c_on_the_third_report(done, total, label):
        calls.append(done)
        if len(calls) == 3:
            signal.raise_signal(signal.SIGINT)  # what Ctrl-C does

    with pytest.raises(Interrupted, match="run the same command again"):
        run(first, state_dir=tmp_path, progress=ctrl_c_on_the_third_report, task_seconds=1e-6)
    assert list((tmp_path / ".partial").glob("darts-*.npz"))
    assert not list((tmp_path / ".partial").glob("*.tmp"))
    second = Darts()
    resumed = run(second, state_dir=tmp_path, task_seconds=1e-6)
    assert resumed.resumed
    assert not set(first.computed) & set(second.computed)  # nothing computed twice
    assert np.array_equal(resumed.totals, straight.totals)
    assert signal.getsignal(signal.SIGINT) is found  # the run put back what it found


def test_a_finished_run_is_loaded_not_recomputed(tmp_path):
    run(Darts(), state_dir=tmp_path)
    again = Darts()
    result = run(again, state_dir=tmp_path)
    assert result.resumed and again.computed == []


def test_a_changed_plan_does_not_resume_an_old_run(tmp_path):
    run(Darts(cells=2), state_dir=tmp_path)
    other = Darts(cells=3)
    assert not run(other, state_dir=tmp_path).resumed and other.computed


@pytest.mark.usefixtures("ctrl_c_raises")
def test_records_come_in_stream_order_and_survive_a_resume(tmp_path):
    result = run(Darts(records=True, schedule=FixedTrials(2000)), task_seconds=1e-6)
    expected = [[c, k] for c in range(3) for k in range(4)]
    assert result.records.tolist() == expected
    calls = []

    def stop(done, total, label):
        calls.append(done)
        if len(calls) == 2:
            signal.raise_signal(signal.SIGINT)

    with pytest.raises(Interrupted):
        run(Darts(records=True, schedule=FixedTrials(2000)), state_dir=tmp_path, progress=stop,
            task_seconds=1e-6)
    again = run(Darts(records=True, schedule=FixedTrials(2000)), state_dir=tmp_path)
    assert again.records.tolist() == expected


@pytest.mark.usefixtures("ctrl_c_raises")
def test_interrupt_without_a_folder_says_nothing_was_saved():
    def stop(done, total, label):
        signal.raise_signal(signal.SIGINT)

    with pytest.raises(Interrupted, match="nothing was saved"):
        run(Darts(), progress=stop, backend=LocalBackend(1))


def test_a_process_that_ignores_ctrl_c_keeps_ignoring_it(tmp_path):
    """Started with SIGINT ignored (a script's background job, ``trap '' INT``), a run is not
    stopped by it, and the ignore is what stays in place after."""
    found = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        def ctrl_c(done, total, label):
            signal.raise_signal(signal.SIGINT)

        result = run(Darts(), state_dir=tmp_path, progress=ctrl_c, task_seconds=1e-6)
        assert np.array_equal(result.totals, run(Darts()).totals)
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, found)


@pytest.mark.parametrize("bad", [0, -1.0, float("nan"), float("inf")])
def test_bad_stderr_targets_are_refused(bad):
    with pytest.raises(ScheduleError):
        StderrTarget(target=bad, first_trials=1000, max_trials=10_000)


def test_bad_trial_counts_are_refused():
    with pytest.raises(ScheduleError):
        FixedTrials(0)
