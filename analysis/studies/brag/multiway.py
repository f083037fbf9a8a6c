"""Brag hands against 1-16 random opponents by Monte Carlo, through the runner.

A cell is a hand class (or one given hand). Every trial deals the cell's hero a
uniform hand of the class, then the largest requested number of opponents from
the other 49 cards; the first ``n`` opponents are ``n`` random hands, so one deal
answers every opponent count at once (common random numbers across counts).
A cell runs until the standard error of its pot share is at most the target for
every requested count. Cell keys come from the seed and the class name, so a
class gets the same numbers whichever other classes run beside it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import numpy as np

from analysis.core.rng import derive_key
from analysis.runners import FixedTrials, Plan, Schedule, StderrTarget
from evaluator.brag import BragRules, score_table
from evaluator.errors import LabError

from . import _kernels as K

__all__ = ["MAX_OPPONENTS", "BragCountError", "MultiwayPlan", "check_opponents", "multiway_schedule",
           "unpack"]

MAX_OPPONENTS = 16
"""The source allows 2 to 17 players."""
STREAM = 4096
FIRST_TRIALS = 4 * STREAM
MAX_TRIALS = 100_000_000
STATS_PER_COUNT = 4
S_WIN, S_TIE, S_SHARE, S_SHARE2 = range(STATS_PER_COUNT)


class BragCountError(LabError):
    """An opponent count or trial setting Brag cannot use."""


def check_opponents(opponents: Iterable[int]) -> tuple[int, ...]:
    """Sorted distinct opponent counts, each 1..16 (the source allows 2-17 players)."""
    try:
        values = sorted({int(n) for n in opponents})
    except (TypeError, ValueError):
        raise BragCountError(f"opponent counts must be whole numbers; got {opponents!r}") from None
    if not values:
        raise BragCountError("no opponent count given")
    for n in values:
        if not 1 <= n <= MAX_OPPONENTS:
            raise BragCountError(f"Brag has 2-17 players, so 1-{MAX_OPPONENTS} opponents; got {n}")
    return tuple(values)


def multiway_schedule(*, stderr: float | None, trials: int | None) -> Schedule:
    """``trials`` per cell, or rounds until every count's pot-share standard error <= ``stderr``."""
    if trials is not None:
        return FixedTrials(int(trials))
    return StderrTarget(target=float(stderr), first_trials=FIRST_TRIALS, max_trials=MAX_TRIALS)


def unpack(totals: np.ndarray, n_counts: int) -> dict[str, np.ndarray]:
    """Per cell and count: ``win``, ``tie``, ``equity``, ``stderr`` (shape ``(cells, counts)``)
    and ``trials`` (per cell) from the runner's totals."""
    n = totals[:, STATS_PER_COUNT * n_counts]
    per = totals[:, :STATS_PER_COUNT * n_counts].reshape(len(totals), n_counts, STATS_PER_COUNT)
    m = np.maximum(n, 1)[:, None]
    share = per[..., S_SHARE] / m
    var = np.maximum(per[..., S_SHARE2] / m - share**2, 0.0) * (m / np.maximum(m - 1, 1))
    return {"win": per[..., S_WIN] / m, "tie": per[..., S_TIE] / m, "equity": share,
            "stderr": np.sqrt(var / m), "trials": n.astype(np.int64)}


class MultiwayPlan(Plan):
    """Cells are hero hand lists (a class, or one hand); statistics per requested count."""

    name = "brag-multiway"
    stream_size = STREAM

    def __init__(self, names: tuple[str, ...], offsets: np.ndarray, cards: np.ndarray,
                 opponents: tuple[int, ...], rules: BragRules, seed: int,
                 schedule: Schedule) -> None:
        self.names = names
        # writable copies: numba compiles read-only arrays as another type
        self.hands = (np.array(offsets, np.int64), np.array(cards, np.uint8, order="C"))
        self.opponents = np.array(check_opponents(opponents), np.int64)
        self.rules = rules
        self.seed = int(seed)
        self.keys = np.array([derive_key(seed, "brag-multiway", name) for name in names], np.uint64)
        self._schedule = schedule

    @property
    def n_cells(self) -> int:
        return len(self.names)

    @property
    def n_stats(self) -> int:
        return STATS_PER_COUNT * len(self.opponents) + 1

    @property
    def schedule(self) -> Schedule:
        return self._schedule

    def settings(self) -> dict[str, Any]:
        return {"names": list(self.names), "hands": self.hands[1], "opponents": self.opponents,
                "rules": self.rules.as_dict(), "seed": self.seed}

    def run(self, cells: np.ndarray, streams: np.ndarray, trials: np.ndarray) -> np.ndarray:
        stats = np.zeros((len(cells), self.n_stats))
        K.multiway_streams(self.keys, cells, streams, trials, self.hands, self.opponents,
                           score_table(self.rules), stats)
        return stats

    def stderr(self, totals: np.ndarray) -> np.ndarray:
        se = unpack(totals, len(self.opponents))["stderr"].max(axis=1)
        return np.where(totals[:, -1] > 1, se, math.inf)
