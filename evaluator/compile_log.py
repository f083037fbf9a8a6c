"""A log of every numba compile, for finding where a cold run's time goes (issue 22).

With ``LAB_COMPILE_LOG=<file>`` in the environment, every process that imports the
evaluator (the test suite, its CLI subprocesses, Dask workers) appends one JSON line per
kernel compile: the process, the kernel, its argument types, its own seconds (minus the
kernels it compiled on the way) and its total. ``scripts/compile_report.py`` sums the
lines: which kernels cost most and which compiled more than once (another process got
there first, or another signature). Without the variable nothing is registered.
"""

from __future__ import annotations

import json
import os
import time

from numba.core import event

ENV = "LAB_COMPILE_LOG"


class CompileLog(event.Listener):
    """Appends a line per ``numba:compile`` event to ``path`` (a line a write: whole lines
    even with several processes appending at once)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.stack: list[list[float]] = []

    def on_start(self, ev: event.Event) -> None:
        self.stack.append([time.perf_counter(), 0.0])

    def on_end(self, ev: event.Event) -> None:
        start, children = self.stack.pop()
        took = time.perf_counter() - start
        if self.stack:
            self.stack[-1][1] += took
        func = getattr(ev.data.get("dispatcher"), "py_func", None)
        name = f"{func.__module__}.{func.__qualname__}" if func is not None else "?"
        line = json.dumps({"pid": os.getpid(), "kernel": name, "args": str(ev.data.get("args")),
                           "self": round(took - children, 4), "total": round(took, 4),
                           "nested": len(self.stack)}) + "\n"
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, line.encode())
        finally:
            os.close(fd)


def install_from_env() -> None:
    """Register the log when ``LAB_COMPILE_LOG`` names a file (once per process)."""
    path = os.environ.get(ENV)
    if path and not getattr(install_from_env, "done", False):
        install_from_env.done = True  # type: ignore[attr-defined]
        event.register("numba:compile", CompileLog(os.path.abspath(path)))
