"""A run's progress, and the one resume format: a ``.npz`` file written whole or not at all.

The state holds, per cell, the statistics merged so far (streams added in order),
the trials they cover, the current round's target, the rounds run and whether
the cell is finished; plus the streams of the current round that finished out of
order and wait to be merged. A rerun of the same plan (same fingerprint) loads
it and continues exactly where it stopped: finished streams are never recomputed
and the totals come out bit-identical to an uninterrupted run.
"""

from __future__ import annotations

import os
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from analysis.core.atomic import atomic_path
from evaluator.errors import LabError

FORMAT = 1
"""Bumped when the layout of the state file changes (an older file is refused, by name)."""


class ResumeError(LabError):
    """A resume file that cannot be this run's: truncated, corrupt, another version's or
    another plan's. Never silently recomputed over: the message names the file to delete."""


@dataclass
class RunState:
    """Per-cell progress of one plan (see the module docstring)."""

    fingerprint: str
    totals: np.ndarray
    done: np.ndarray
    """Trials merged into ``totals`` per cell."""
    target: np.ndarray
    """Trials the current round runs up to, per cell."""
    round_start: np.ndarray
    """Trials merged when the current round began, per cell."""
    rounds: np.ndarray
    finished: np.ndarray
    started: bool = False
    """Whether the first round's targets are set."""
    pending: dict[int, np.ndarray] = field(default_factory=dict)
    """Rows of the current round's streams that finished ahead of their turn: a block of rows
    per task, keyed by the position of its first stream in the round's stream list."""
    records: np.ndarray | None = None
    """Per-trial records merged so far, in stream order (plans with ``record_width``)."""
    pending_records: dict[int, np.ndarray] = field(default_factory=dict)
    """Records of the pending blocks, by the same keys."""
    resumed: bool = False

    @classmethod
    def fresh(cls, fingerprint: str, n_cells: int, n_stats: int, dtype: type,
              record_width: int = 0) -> RunState:
        """The state of a run that has not started."""
        zeros = np.zeros(n_cells, np.int64)
        records = np.zeros((0, record_width), np.int64) if record_width else None
        return cls(fingerprint, np.zeros((n_cells, n_stats), dtype), zeros.copy(), zeros.copy(),
                   zeros.copy(), zeros.copy(), np.zeros(n_cells, np.bool_), records=records)

    def save(self, path: Path) -> None:
        """Write the state atomically (temporary file, then rename)."""
        keys = np.array(sorted(self.pending), np.int64)
        lengths = np.array([len(self.pending[k]) for k in keys], np.int64)
        rows = (np.concatenate([self.pending[k] for k in keys]) if len(keys)
                else np.zeros((0, self.totals.shape[1]), self.totals.dtype))
        extra = {}
        if self.records is not None:
            rec_keys = np.array(sorted(self.pending_records), np.int64)
            extra = {"records": self.records,
                     "pending_record_keys": rec_keys,
                     "pending_record_lengths": np.array([len(self.pending_records[k])
                                                         for k in rec_keys], np.int64),
                     "pending_records": (np.concatenate([self.pending_records[k] for k in rec_keys])
                                         if len(rec_keys) else self.records[:0])}
        with atomic_path(path) as tmp, open(tmp, "wb") as handle:
            np.savez(handle, format=np.int64(FORMAT), fingerprint=np.array(self.fingerprint),
                     totals=self.totals, done=self.done, target=self.target,
                     round_start=self.round_start, rounds=self.rounds, finished=self.finished,
                     started=np.bool_(self.started), pending_keys=keys, pending_lengths=lengths,
                     pending_rows=rows, **extra)

    @classmethod
    def load(cls, path: Path, fingerprint: str) -> RunState:
        """The saved state at ``path``; :class:`ResumeError` naming the file if it is not a
        whole state file of this version and plan."""
        def refuse(why: str) -> ResumeError:
            return ResumeError(f"cannot resume from {path}: {why}; delete it to start this run "
                               "afresh")

        try:
            with np.load(path, allow_pickle=False) as data:
                if int(data["format"]) != FORMAT:
                    raise refuse(f"written by another version of the lab (state format "
                                 f"{int(data['format'])}, this one reads {FORMAT})")
                if str(data["fingerprint"]) != fingerprint:
                    raise refuse("it belongs to a run with other settings")
                state = cls(fingerprint, data["totals"], data["done"], data["target"],
                            data["round_start"], data["rounds"], data["finished"],
                            bool(data["started"]),
                            _blocks(data, "pending_keys", "pending_lengths", "pending_rows"),
                            resumed=True)
                if "records" in data:
                    state.records = data["records"]
                    state.pending_records = _blocks(data, "pending_record_keys",
                                                    "pending_record_lengths", "pending_records")
                return state
        except ResumeError:
            raise
        except (OSError, KeyError, ValueError, EOFError, zipfile.BadZipFile) as exc:
            raise refuse(f"not a whole resume file ({type(exc).__name__}: {exc})") from None


def _blocks(data, keys_name: str, lengths_name: str, rows_name: str) -> dict[int, np.ndarray]:
    keys = data[keys_name]
    if not len(keys):
        return {}
    blocks = np.split(data[rows_name], np.cumsum(data[lengths_name])[:-1])
    return {int(k): b for k, b in zip(keys, blocks, strict=True)}


def state_path(folder: str | os.PathLike[str], name: str, fingerprint: str) -> Path:
    """Where a plan's state lives inside a results folder: ``FOLDER/.partial/NAME-FP.npz``."""
    return Path(folder) / ".partial" / f"{name}-{fingerprint}.npz"

