"""Finished runs clean up after themselves: a command's resume files go once its results are
written (kept on Ctrl-C or an error, for the rerun). Light on imports: the CLI wraps every
command in :func:`finished_runs`."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar
from pathlib import Path

_FINISHED: ContextVar[list[Path] | None] = ContextVar("finished_state_files", default=None)


class FinishedRuns:
    """The resume files of the runs that finished inside :func:`finished_runs`."""

    def __init__(self) -> None:
        self.paths: list[Path] = []

    def remove(self) -> list[Path]:
        """Delete them (and their ``.partial`` folders once empty): call this only after the
        results they fed are written, so nothing is lost if the command fails before."""
        removed = [p for p in dict.fromkeys(self.paths) if p.exists()]
        for path in removed:
            path.unlink(missing_ok=True)
        for folder in {p.parent for p in self.paths}:
            with contextlib.suppress(OSError):
                folder.rmdir()  # only when empty: other runs' files stay
        return removed


@contextlib.contextmanager
def finished_runs() -> Iterator[FinishedRuns]:
    """Note the resume file of every run that finishes within (a command's runs); the caller
    removes them with :meth:`FinishedRuns.remove` once the command succeeded."""
    ledger = FinishedRuns()
    token = _FINISHED.set(ledger.paths)
    try:
        yield ledger
    finally:
        _FINISHED.reset(token)


def note_finished(path: Path | None) -> None:
    """Record that the run saved at ``path`` finished (no-op outside :func:`finished_runs`)."""
    paths = _FINISHED.get()
    if paths is not None and path is not None:
        paths.append(path)
