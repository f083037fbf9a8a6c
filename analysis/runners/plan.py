"""What a study gives the runner: cells, independent seeded streams of trials, and statistics.

A :class:`Plan` describes a stochastic study as **cells** (one answer each: a
spot, an opponent count, a whole equity question) whose trials come in
**streams** of ``stream_size`` trials. Stream ``k`` of a cell always draws from
generator stream ``k`` of that cell's key (``analysis.core.rng``), so it gives
the same numbers wherever and whenever it runs. :meth:`Plan.run` turns a batch of
streams into one row of **sufficient statistics** per stream (sums, sums of
squares, counts); the runner adds the rows into per-cell totals in stream order,
so totals are bit-identical whatever the backend, workers, threads or task size.

A plan is pickled to Dask workers: keep it to plain data (numpy arrays, numbers,
strings) and call kernels that live at module level.
"""

from __future__ import annotations

import hashlib
import json
from abc import ABC, abstractmethod
from typing import Any

import numpy as np

from .schedule import Schedule


class Plan(ABC):
    """A study as cells of seeded streams, and the kernel that turns streams into statistics."""

    name: str = "study"
    """Short name, used in progress labels and resume-file names."""
    stream_size: int = 1000
    """Trials per stream (the last stream of a cell may hold fewer)."""

    @property
    @abstractmethod
    def n_cells(self) -> int:
        """Number of cells (independent answers)."""

    @property
    @abstractmethod
    def n_stats(self) -> int:
        """Length of a statistics row."""

    @property
    def stats_dtype(self) -> type:
        """dtype of the statistics rows (integer counts add up in any order)."""
        return np.float64

    record_width: int = 0
    """Columns of the optional per-trial records (0: none). A plan with records returns
    ``(stats, records)`` from :meth:`run`, ``records`` an int64 array of ``record_width``
    columns holding the records of the task's streams in stream order; the runner keeps
    them in stream order across tasks and resumes (for example one row per simulated game)."""

    @property
    @abstractmethod
    def schedule(self) -> Schedule:
        """When a cell has enough trials."""

    @abstractmethod
    def settings(self) -> dict[str, Any]:
        """Everything that decides the numbers (seed, spots, models, deck...), as plain data."""

    @abstractmethod
    def run(self, cells: np.ndarray, streams: np.ndarray, trials: np.ndarray) -> Any:
        """Statistics rows, one per stream: ``trials[i]`` trials of stream ``streams[i]`` of
        cell ``cells[i]`` (float or int array of shape ``(len(cells), n_stats)``); with
        records, the pair ``(stats, records)`` (see :attr:`record_width`)."""

    def stderr(self, totals: np.ndarray) -> np.ndarray:
        """Per-cell standard error of the quantity the schedule watches (from the totals)."""
        raise NotImplementedError(f"{type(self).__name__} has no standard error; use FixedTrials")

    def samples(self, totals: np.ndarray, trials: np.ndarray) -> np.ndarray:
        """Per-cell number of samples behind the standard error (default: the trials run)."""
        return trials.astype(np.float64)

    def fingerprint(self) -> str:
        """A hash of the settings, the stream size and the schedule: a saved run resumes only
        into the same plan."""
        data = {"plan": type(self).__name__, "name": self.name, "stream_size": self.stream_size,
                "cells": self.n_cells, "stats": self.n_stats, "schedule": self.schedule.describe(),
                "settings": self.settings()}
        text = json.dumps(data, sort_keys=True, default=_plain)
        return hashlib.sha256(text.encode()).hexdigest()[:16]


def _plain(value: Any) -> Any:
    if isinstance(value, np.ndarray):
        return hashlib.sha256(np.ascontiguousarray(value).tobytes()).hexdigest() + str(value.dtype)
    if hasattr(value, "item"):
        return value.item()
    return str(value)
