"""Ctrl-C during a run: stop between tasks, save, and say so (never inside a numba kernel).

While :func:`interruptible` is active in the main thread, the first SIGINT only
sets a flag; the runner checks it after every task (tasks last about a second),
saves its state and raises :class:`Interrupted`. A second Ctrl-C raises
``KeyboardInterrupt`` at once.

A process started with Ctrl-C ignored (a background job of a script, ``trap '' INT``,
``nohup`` under such a shell) keeps ignoring it, as Python itself does: it was asked
not to be stopped by SIGINT, and only the handler it found is ever put back.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager


class Interrupted(KeyboardInterrupt):
    """A run stopped by Ctrl-C after saving what it had; ``str()`` says what was saved."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


@contextmanager
def interruptible() -> Iterator[threading.Event]:
    """Yield an event set by the first Ctrl-C (outside the main thread, or where SIGINT is
    ignored: never set)."""
    stop = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return
    previous = signal.getsignal(signal.SIGINT)
    if previous is signal.SIG_IGN:
        yield stop
        return

    def handler(signum, frame):  # type: ignore[no-untyped-def]
        if stop.is_set():
            raise KeyboardInterrupt
        stop.set()

    signal.signal(signal.SIGINT, handler)
    try:
        yield stop
    finally:
        signal.signal(signal.SIGINT, previous)
