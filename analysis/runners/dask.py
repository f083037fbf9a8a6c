"""The Dask backend: the same plans on a ``dask.distributed`` cluster (imported only when used).

``DaskBackend(workers=N)`` starts a ``LocalCluster`` of N worker processes on this
machine (numba threads split between them); ``DaskBackend(scheduler="tcp://host:8786")``
joins a running cluster, which is how a run grows past one machine (every
worker needs this package installed). The plan is sent to the workers once;
each task is a batch of streams sized to take about a second or more. A worker
runs one task at a time on all its numba threads (numba's default threading
layer must not run two parallel kernels at once in one process).
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np

from evaluator.errors import LabError

from .backends import Backend, Session, Task, run_task
from .plan import Plan

_WORKER_LOCK = threading.Lock()


class DaskError(LabError):
    """A Dask cluster that cannot be used (not installed, unreachable, bad worker count)."""


def _worker_task(plan: Plan, cells: np.ndarray, streams: np.ndarray, trials: np.ndarray,
                 threads: int | None) -> tuple[np.ndarray, float]:
    """Run one task on a Dask worker, alone in its process, on ``threads`` numba threads."""
    with _WORKER_LOCK:
        _set_worker_threads(threads)
        return run_task(plan, cells, streams, trials)


def _set_worker_threads(threads: int | None) -> None:
    """Give this worker's numba kernels ``threads`` threads (None: the worker's own count)."""
    import numba

    if threads is None:
        try:
            from distributed import get_worker

            threads = get_worker().state.nthreads
        except (ImportError, ValueError, AttributeError):
            threads = numba.config.NUMBA_NUM_THREADS
    numba.set_num_threads(max(1, min(int(threads), numba.config.NUMBA_NUM_THREADS)))


def _worker_job(job: Callable[[Any], Any], item: Any, threads: int | None) -> Any:
    """Run one job of :meth:`DaskBackend.map` on a worker, alone in its process (as a task)."""
    with _WORKER_LOCK:
        _set_worker_threads(threads)
        return job(item)


class _DaskSession(Session):
    def __init__(self, client: Any, plan: Plan, threads: int | None, slots: int) -> None:
        from distributed import as_completed

        self.client = client
        self.plan_future = client.scatter(plan, broadcast=True)
        self.threads = threads
        self.slots = slots
        self.keys: dict[str, int] = {}
        self.done = as_completed()

    def submit(self, key: int, task: Task) -> None:
        future = self.client.submit(_worker_task, self.plan_future, *task, self.threads, pure=False)
        self.keys[future.key] = key
        self.done.add(future)

    def next_done(self) -> tuple[int, np.ndarray, float]:
        future = next(self.done)
        rows, seconds = future.result()
        return self.keys.pop(future.key), rows, seconds

    def cancel(self) -> None:
        futures = list(self.done.futures) if hasattr(self.done, "futures") else []
        if futures:
            self.client.cancel(futures)
        self.done.clear()


QUIET_CONFIG = {
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "5s",
    "distributed.admin.system-monitor.gil.enabled": False,
    "distributed.worker.profile.enabled": False,
}
"""Dask's housekeeping for clusters this backend starts: event-loop ticks every second
instead of every 20 ms, the system monitor every 5 s, no statistical profiler. An idle
2-worker LocalCluster then costs 0.7 CPU-seconds per 20 s instead of 2.6 (measured),
CPU the workers' kernels get back on a small machine."""


class DaskBackend(Backend):
    """A ``LocalCluster`` of ``workers`` processes, or the cluster at ``scheduler``.

    Used as a context manager (``with DaskBackend(workers=2) as backend: ...``) the
    cluster is started at the first run and kept for every run until the block ends,
    so a study of several runs (train, then evaluate) starts it once; otherwise each
    run starts and closes its own.
    """

    def __init__(self, workers: int | None = None, scheduler: str | None = None,
                 connect_timeout: float = 10.0) -> None:
        if (workers is None) == (scheduler is None):
            raise DaskError("give either a number of workers or a scheduler address")
        if workers is not None and not 1 <= workers <= 256:
            raise DaskError(f"workers must be between 1 and 256; got {workers}")
        self.workers = workers
        self.scheduler = scheduler
        self.connect_timeout = connect_timeout
        """Seconds to wait for the scheduler at ``scheduler`` before giving up."""
        self.label = f"dask LocalCluster ({workers} workers)" if workers else f"dask {scheduler}"
        self._keep_open = 0
        self._client: Any = None
        self._cluster: Any = None
        self._threads: int | None = None

    def __enter__(self) -> DaskBackend:
        self._keep_open += 1
        return self

    def __exit__(self, *exc: object) -> None:
        self._keep_open -= 1
        if not self._keep_open:
            self.close()

    def _connect(self) -> Any:
        """The client, starting the LocalCluster or joining the scheduler on first use."""
        if self._client is not None:
            return self._client
        try:
            import dask
            from distributed import Client, LocalCluster
        except ImportError:
            raise DaskError("dask.distributed is not installed: pip install 'dask[distributed]'") from None
        try:
            if self.workers is not None:
                self._threads = max(1, (os.cpu_count() or 1) // self.workers)
                with dask.config.set(QUIET_CONFIG), _environ_kept():
                    self._cluster = LocalCluster(n_workers=self.workers, threads_per_worker=1,
                                                 processes=True, dashboard_address=None,
                                                 silence_logs=logging.ERROR)
                self._client = Client(self._cluster)
            else:
                try:
                    self._client = Client(self.scheduler, timeout=f"{self.connect_timeout}s")
                except (OSError, TimeoutError) as exc:
                    raise DaskError(f"cannot reach the Dask scheduler at {self.scheduler}: {exc}") from None
        except DaskError:
            self.close()
            raise
        except Exception as exc:  # noqa: BLE001 - any start-up failure is one clear line
            self.close()
            raise DaskError(f"cannot start a Dask cluster: {exc}") from None
        return self._client

    @contextmanager
    def session(self, plan: Plan) -> Iterator[Session]:
        client = self._connect()
        try:
            n_workers = max(1, len(client.scheduler_info().get("workers", {})))
            session = _DaskSession(client, plan, self._threads, slots=2 * n_workers)
            try:
                yield session
            finally:
                session.cancel()
                session.plan_future.release()
        finally:
            if not self._keep_open:
                self.close()

    def map(self, job: Callable[[Any], Any], items: Sequence[Any]) -> Iterator[tuple[int, Any]]:
        """Run the jobs on the cluster's workers, one at a time a worker, yielding them as they
        finish; the jobs still running are cancelled if the caller stops early (Ctrl-C)."""
        if not items:
            return
        from distributed import as_completed

        client = self._connect()
        running: dict[str, Any] = {}
        try:
            futures = [client.submit(_worker_job, job, item, self._threads, pure=False) for item in items]
            running = {f.key: f for f in futures}
            index = {f.key: i for i, f in enumerate(futures)}
            del futures
            for future in as_completed(list(running.values())):
                result = future.result()
                del running[future.key]  # its result is the caller's now: the cluster may drop it
                future.release()
                yield index[future.key], result
        finally:
            if running:
                client.cancel(list(running.values()))
            if not self._keep_open:
                self.close()

    def close(self) -> None:
        """Close the client and the cluster this backend started (if any)."""
        client, cluster = self._client, self._cluster
        self._client = self._cluster = None
        with _environ_kept():
            if client is not None:
                client.close()
            if cluster is not None:
                cluster.close()


@contextmanager
def _environ_kept() -> Iterator[None]:
    """Put this process's environment back as it was: starting (or stopping) a LocalCluster sets
    variables meant for its workers (``OMP_NUM_THREADS``, ``PYTHONHASHSEED``, ...) in the
    parent too, where they would reach every process the caller starts afterwards."""
    found = dict(os.environ)
    try:
        yield
    finally:
        for key in set(os.environ) - set(found):
            del os.environ[key]
        os.environ.update(found)


def dask_available() -> bool:
    """Whether ``dask.distributed`` can be imported."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        return False
    return True
