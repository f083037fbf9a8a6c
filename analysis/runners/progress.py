"""The one progress bar of every long run: ``progress(done, total, label)`` drawn with rich on stderr.

Compute code only calls a ``Progress`` callback; the command line decides whether
a bar is drawn (on a terminal) and where.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

Progress = Callable[[int, int, str], None]
"""``progress(done, total, label)``: trials (or other units) done of an estimated total. The bar of
:func:`progress_bar` also takes ``detail=``, a text shown after the label (a solver's exploitability)."""


def no_progress(done: int, total: int, label: str, detail: str = "") -> None:
    """A progress callback that shows nothing."""


@contextmanager
def progress_bar(enabled: bool = True, transient: bool = False) -> Iterator[Progress]:
    """A rich progress bar on stderr (one line per label), drawn only when ``enabled`` and
    stderr is a terminal (redirected output gets no bar lines)."""
    if not (enabled and sys.stderr.isatty()):
        yield no_progress
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.progress import (
        Progress as RichProgress,
    )

    tasks: dict[str, int] = {}
    with RichProgress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                      TimeElapsedColumn(), TimeRemainingColumn(),
                      console=Console(stderr=True), transient=transient) as bar:

        def update(done: int, total: int, label: str, detail: str = "") -> None:
            if label not in tasks:
                tasks[label] = bar.add_task(label, total=max(total, 1))
            more = {"description": f"{label}: {detail}"} if detail else {}
            bar.update(tasks[label], completed=done, total=max(total, done, 1), **more)

        yield update
