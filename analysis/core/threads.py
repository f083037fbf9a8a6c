"""How many numba threads a computation uses (results never depend on it)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

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
