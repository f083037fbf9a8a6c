"""`run_tasks`: every task once, on the numba thread count, errors raised, nothing left running.

- each index runs exactly once, on 1 and on every thread;
- the worker count follows `numba_threads` (threads seen by the tasks);
- a failing task raises in the caller and the tasks not yet started are dropped.
"""

from __future__ import annotations

import threading
import time

import numba
import pytest

from analysis.core.threads import numba_threads, run_tasks


@pytest.mark.parametrize("threads", sorted({1, numba.config.NUMBA_NUM_THREADS}))
def test_every_task_runs_once(threads: int) -> None:
    seen: list[int] = []
    lock = threading.Lock()

    def task(i: int) -> None:
        with lock:
            seen.append(i)

    with numba_threads(threads):
        run_tasks(task, 37)
    assert sorted(seen) == list(range(37))


@pytest.mark.parametrize("threads", sorted({1, numba.config.NUMBA_NUM_THREADS}))
def test_workers_follow_the_thread_count(threads: int) -> None:
    names: set[str] = set()

    def task(i: int) -> None:
        names.add(threading.current_thread().name)
        time.sleep(0.01)  # let every worker take a task

    with numba_threads(threads):
        run_tasks(task, 8 * numba.config.NUMBA_NUM_THREADS)
    assert len(names) == threads
    if threads == 1:
        assert names == {threading.current_thread().name}  # no thread started


def test_an_error_is_raised_and_later_tasks_are_dropped() -> None:
    started: list[int] = []

    def task(i: int) -> None:
        started.append(i)
        if i == 3:
            raise ValueError("task 3")
        time.sleep(0.005)

    with numba_threads(numba.config.NUMBA_NUM_THREADS), pytest.raises(ValueError, match="task 3"):
        run_tasks(task, 1000)
    assert len(started) < 1000
    assert not [t for t in threading.enumerate() if t.name.startswith("lab-task")]
