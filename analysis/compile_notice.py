"""One line on the terminal when a command compiles its numba kernels (first run only).

numba compiles a kernel the first time it is called and caches it (``evaluator.jit``);
on an empty cache a command can spend tens of seconds compiling before it shows
anything. :func:`install` listens to numba's ``numba:compile`` events and, the first
time one of the lab's kernels compiles, writes one line on stderr, only when stderr is
a terminal (never into piped or redirected output, never into stdout, so never into
JSON). A run on a warm cache loads the kernels without compiling and says nothing.
"""

from __future__ import annotations

import sys

from numba.core import event

from evaluator.jit import Kernel

NOTICE = ("compiling this command's numba kernels (first run only, up to about a minute; "
          "later runs load them from the cache)…")


class _Notice(event.Listener):
    """Writes :data:`NOTICE` once, at the first compile of a lab kernel."""

    def __init__(self) -> None:
        self.said = False

    def on_start(self, ev: event.Event) -> None:
        if self.said or not isinstance(ev.data.get("dispatcher"), Kernel):
            return
        self.said = True
        stream = sys.stderr
        if stream is not None and stream.isatty():
            print(NOTICE, file=stream, flush=True)

    def on_end(self, ev: event.Event) -> None:
        pass


_listener: _Notice | None = None


def install() -> None:
    """Listen for compiles (once per process; the line is written at most once)."""
    global _listener
    if _listener is None:
        _listener = _Notice()
        event.register("numba:compile", _listener)
