"""Where the streams run: this process on numba threads (the default) or a Dask cluster.

A backend opens a *session* for one plan; the runner submits tasks (a batch of
streams each) and collects them as they finish. Results never depend on the
backend: every stream is computed the same way and the runner merges them in
stream order.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np

from .plan import Plan

Task = tuple[np.ndarray, np.ndarray, np.ndarray]
"""``(cells, streams, trials)`` of one task."""


def run_task(plan: Plan, cells: np.ndarray, streams: np.ndarray, trials: np.ndarray) -> tuple[np.ndarray, float]:
    """Run one task; returns its statistics rows and the seconds it took."""
    start = time.perf_counter()
    rows = plan.run(cells, streams, trials)
    return rows, time.perf_counter() - start


class Session(ABC):
    """An open backend for one plan: submit tasks, get them back as they finish."""

    slots: int = 1
    """Tasks worth keeping in flight."""

    @abstractmethod
    def submit(self, key: int, task: Task) -> None:
        """Start a task; ``key`` comes back with its result."""

    @abstractmethod
    def next_done(self) -> tuple[int, np.ndarray, float]:
        """Wait for a task to finish: ``(key, rows, seconds)``."""

    @abstractmethod
    def cancel(self) -> None:
        """Drop the tasks still running (after an interrupt)."""


class Backend(ABC):
    """A way to run a plan's tasks."""

    label: str = "backend"

    @abstractmethod
    def session(self, plan: Plan) -> Any:
        """A context manager yielding a :class:`Session` for ``plan``."""

    def map(self, job: Callable[[Any], Any], items: Sequence[Any]) -> Iterator[tuple[int, Any]]:
        """Run independent jobs, ``job(item)`` each (one spot's solve, say), yielding ``(index,
        result)`` as each finishes: here one after another in this process. A job's result must
        not depend on where it runs."""
        for i, item in enumerate(items):
            yield i, job(item)

    def __enter__(self) -> Backend:
        """Keep whatever the backend starts (a cluster) open until the block ends."""
        return self

    def __exit__(self, *exc: object) -> None:
        return None


class _LocalSession(Session):
    def __init__(self, plan: Plan) -> None:
        self.plan = plan
        self.queue: deque[tuple[int, Task]] = deque()

    def submit(self, key: int, task: Task) -> None:
        self.queue.append((key, task))

    def next_done(self) -> tuple[int, np.ndarray, float]:
        key, task = self.queue.popleft()
        rows, seconds = run_task(self.plan, *task)
        return key, rows, seconds

    def cancel(self) -> None:
        self.queue.clear()


class LocalBackend(Backend):
    """This process: one task at a time, each spread over the numba threads."""

    def __init__(self, threads: int | None = None) -> None:
        self.threads = threads
        self.label = "local" + (f" ({threads} threads)" if threads else "")

    @contextmanager
    def session(self, plan: Plan) -> Iterator[Session]:
        from analysis.core.threads import numba_threads

        with numba_threads(self.threads):
            yield _LocalSession(plan)

    def map(self, job: Callable[[Any], Any], items: Sequence[Any]) -> Iterator[tuple[int, Any]]:
        from analysis.core.threads import numba_threads

        with numba_threads(self.threads):
            yield from super().map(job, items)
