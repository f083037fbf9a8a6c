"""One runner for every stochastic study: plan -> streams -> statistics -> merge.

A study describes itself as a :class:`Plan` (cells of seeded streams, a kernel
that turns streams into statistics rows, a :class:`Schedule` saying when a cell
has enough). :func:`run` owns the rest: rounds, task sizing, merging in stream
order, resume after an interruption (one ``.npz`` state format), Ctrl-C, and one
progress callback. Backends: this process (:class:`LocalBackend`, the default)
or Dask (:class:`~analysis.runners.dask.DaskBackend`, imported only when asked).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_LAZY = {
    "Backend": "backends", "LocalBackend": "backends", "Interrupted": "interrupt", "Plan": "plan",
    "Progress": "progress", "no_progress": "progress", "progress_bar": "progress",
    "RunResult": "runner", "run": "runner", "FixedTrials": "schedule", "Schedule": "schedule",
    "ScheduleError": "schedule", "StderrTarget": "schedule",
}
"""Public names and their modules: loaded on first use, so the CLI starts fast."""

if TYPE_CHECKING:
    from .backends import Backend, LocalBackend
    from .interrupt import Interrupted
    from .plan import Plan
    from .progress import Progress, no_progress, progress_bar
    from .runner import RunResult, run
    from .schedule import FixedTrials, Schedule, ScheduleError, StderrTarget


def __getattr__(name: str) -> Any:
    """Load a public name lazily (PEP 562)."""
    if name not in _LAZY:
        raise AttributeError(f"module 'analysis.runners' has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)


__all__ = [
    "Backend",
    "FixedTrials",
    "Interrupted",
    "LocalBackend",
    "Plan",
    "Progress",
    "RunResult",
    "Schedule",
    "ScheduleError",
    "StderrTarget",
    "make_backend",
    "no_progress",
    "progress_bar",
    "run",
]


def make_backend(threads: int | None = None, workers: int | None = None,
                 scheduler: str | None = None) -> Backend:
    """The backend the options ask for: Dask with ``workers`` or ``scheduler``, else local."""
    from .backends import LocalBackend

    if workers is None and scheduler is None:
        return LocalBackend(threads)
    from .dask import DaskBackend, DaskError

    if threads is not None:
        raise DaskError("--threads is for local runs; Dask workers split the cores between them")
    if workers is not None and scheduler is not None:
        raise DaskError("give --workers (a cluster on this machine) or --scheduler, not both")
    return DaskBackend(workers=workers, scheduler=scheduler)
