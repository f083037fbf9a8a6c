"""The fold-vs-check study as a runner plan: cells are spots, statistics are the gap's sums and bins.

Both choices are played on every deal of a stream (common random numbers), so the
gap's standard error is small; the schedule stops a cell when that error reaches
the target (or at a trial count).
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

import numpy as np

from analysis.runners import FixedTrials, Plan, Schedule, StderrTarget
from evaluator.tables import get_tables

from . import _kernels as K
from .cells import Cells
from .layout import N_STATS, S_GAP, S_GAP2, S_N

STREAM = 1000
"""Trials per stream (each stream has its own generator stream)."""
FIRST_TRIALS = 4 * STREAM
MAX_ROUNDS = 6


def gap_stderr(totals: np.ndarray) -> np.ndarray:
    """Standard error of the mean gap (check minus fold) per cell."""
    n = totals[:, S_N]
    mean = totals[:, S_GAP] / np.maximum(n, 1)
    var = (totals[:, S_GAP2] - n * mean**2) / np.maximum(n - 1, 1)
    return np.sqrt(np.maximum(var, 0) / np.maximum(n, 1))


def gap_schedule(*, stderr: float | None, trials: int | None, max_trials: int) -> Schedule:
    """A fixed trial count, or rounds until the gap's standard error is at most ``stderr``."""
    if trials is not None:
        return FixedTrials(int(trials))
    return StderrTarget(target=float(stderr), first_trials=FIRST_TRIALS, max_trials=int(max_trials),
                        margin=1.05, stop="projection", max_rounds=MAX_ROUNDS)


class FoldCheckPlan(Plan):
    """Spots as cells; each stream plays ``trials`` deals both ways and tallies the gap."""

    name = "fold-vs-check"
    stream_size = STREAM

    def __init__(self, compiled: Cells, schedule: Schedule) -> None:
        self.spots, self.opponents, self.table = compiled.kernel_inputs()
        self.game = compiled.ctx.deck.game
        self._schedule = schedule
        ctx = compiled.ctx
        self._settings = {
            "deck": ctx.deck.label, "rules": ctx.rules.as_dict(), "bank": list(ctx.bank),
            "level": ctx.level, "models": [m.as_dict() for m in ctx.models],
            "policies": [p.name for p in ctx.policies], "spots": [asdict(s) for s in compiled.spots],
            "strength_bins": compiled.strength_bins, "keys": compiled.keys,
        }

    @property
    def n_cells(self) -> int:
        return len(self.spots[0])

    @property
    def n_stats(self) -> int:
        return N_STATS

    @property
    def schedule(self) -> Schedule:
        return self._schedule

    def settings(self) -> dict[str, Any]:
        return self._settings

    def run(self, cells: np.ndarray, streams: np.ndarray, trials: np.ndarray) -> np.ndarray:
        stats = np.zeros((len(cells), N_STATS))
        K.run_streams(cells, streams, trials, self.spots, self.opponents, self.table,
                      get_tables(self.game).kernel_args, stats)
        return stats

    def stderr(self, totals: np.ndarray) -> np.ndarray:
        return gap_stderr(totals)

    def samples(self, totals: np.ndarray, trials: np.ndarray) -> np.ndarray:
        return np.maximum(totals[:, S_N], 1)


def run_exact(compiled: Cells) -> np.ndarray:
    """Statistics of a river spot over every opponent holding (see ``_kernels.run_exact``)."""
    spots, opponents, table = compiled.kernel_inputs()
    stats = np.zeros((1, N_STATS))
    K.run_exact(0, spots, opponents, table, get_tables(compiled.ctx.deck.game).kernel_args, stats[0])
    return stats
