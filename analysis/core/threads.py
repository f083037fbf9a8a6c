"""How many numba threads a computation uses (results never depend on it)."""

from __future__ import annotations

import contextlib
import itertools
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor

from evaluator.errors import LabError


class ThreadsError(LabError):
    """A thread count this machine cannot give."""


def max_threads() -> int:
    """The most numba threads this process can use."""
    import numba

    return int(numba.config.NUMBA_NUM_THREADS)


@contextlib.contextmanager
def numba_threads(threads: int | None) -> Iterator[None]:
    """Run with ``threads`` numba threads, then restore the previous count (``None``: unchanged)."""
    if threads is None:
        yield
        return
    import numba

    top = max_threads()
    if not 1 <= int(threads) <= top:
        raise ThreadsError(f"threads must be between 1 and {top}; got {threads}")
    old = numba.get_num_threads()
    numba.set_num_threads(int(threads))
    try:
        yield
    finally:
        numba.set_num_threads(old)


def run_tasks(task: Callable[[int], object], n: int) -> None:
    """Call ``task(i)`` for every ``i`` in ``range(n)`` on as many Python threads as numba may
    use here (:func:`numba_threads`), each taking the next task when it is free.

    Meant for serial ``nogil`` kernels that write only their own task's outputs, so results
    never depend on the thread count; it replaces a ``prange`` driver, whose parallel body
    numba would compile (and re-optimise with every kernel below it) once more. Task 0 runs
    alone first, in the calling thread, so a first call's compile happens where Ctrl-C stops
    it; then the calling thread and ``threads - 1`` helpers take the rest. On an error or
    Ctrl-C the running tasks finish, the others are dropped and the error is raised.
    """
    import numba

    if n <= 0:
        return
    task(0)
    tickets = itertools.count(1)
    stop = threading.Event()

    def worker() -> None:
        try:
            while not stop.is_set():
                i = next(tickets)
                if i >= n:
                    return
                task(i)
        except BaseException:
            stop.set()
            raise

    helpers = min(numba.get_num_threads(), n - 1) - 1
    if helpers <= 0:
        worker()
        return
    with ThreadPoolExecutor(helpers, thread_name_prefix="lab-task") as pool:
        futures = [pool.submit(worker) for _ in range(helpers)]
        try:
            worker()
            for future in futures:
                future.result()
        except BaseException:
            stop.set()
            raise
