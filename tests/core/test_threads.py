"""`run_tasks`: every task once, on the numba thread count, errors raised, nothing left running.

- each index runs exactly once, on 1 and on every thread;
- as many tasks run at once as `numba_threads` allows; the first in the calling thread (a
  first call compiles where Ctrl-C stops it);
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
def test_as_many_tasks_at_once_as_threads(threads: int) -> None:
    running = [0, 0]  # now, most
    names: set[str] = set()
    lock = threading.Lock()

    def task(i: int) -> None:
        with lock:
            running[0] += 1
            running[1] = max(running)
            names.add(threading.current_thread().name)
        time.sleep(0.01)  # let every worker take a task
        with lock:
            running[0] -= 1

    with numba_threads(threads):
        run_tasks(task, 8 * numba.config.NUMBA_NUM_THREADS)
    assert running[1] == threads
    if threads == 1:
        assert names == {threading.current_thread().name}  # no thread started


def test_the_first_task_runs_in_the_calling_thread() -> None:
    first: list[str] = []
    with numba_threads(numba.config.NUMBA_NUM_THREADS):
        run_tasks(lambda i: first.append(threading.current_thread().name) if i == 0 else None, 5)
    assert first == [threading.current_thread().name]
    run_tasks(lambda i: 1 / 0, 0)  # no task: nothing runs


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
