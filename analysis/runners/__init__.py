"""One runner for every stochastic study: plan -> streams -> statistics -> merge.

A study describes itself as a :class:`Plan` (cells of seeded streams, a kernel
that turns streams into statistics rows, a :class:`Schedule` saying when a cell
has enough). :func:`run` owns the rest: rounds, task sizing, merging in stream
order, resume after an interruption (one ``.npz`` state format), Ctrl-C, and one
progress callback. Backends: this process (:class:`LocalBackend`, the default)
or Dask (:class:`~analysis.runners.dask.DaskBackend`, imported only when asked).
"""

from __future__ import annotations

from .backends import Backend, LocalBackend
from .interrupt import Interrupted
from .plan import Plan
from .progress import Progress, no_progress, progress_bar
from .runner import RunResult, run
from .schedule import FixedTrials, Schedule, ScheduleError, StderrTarget

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
    if workers is None and scheduler is None:
        return LocalBackend(threads)
    from .dask import DaskBackend, DaskError

    if threads is not None:
        raise DaskError("--threads is for local runs; Dask workers split the cores between them")
    if workers is not None and scheduler is not None:
        raise DaskError("give --workers (a cluster on this machine) or --scheduler, not both")
    return DaskBackend(workers=workers, scheduler=scheduler)
