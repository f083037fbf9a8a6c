"""The fold-vs-check study as runner plans: training best responses, then evaluating on fresh deals.

- :class:`TrainPlan`: one stream per best-response cell, ``deals`` training deals
  each; its row is the cell's plan (an action per abstract information set) and
  how often each was reached (and the plan without free folds).
- :class:`FoldCheckPlan`: cells are spots; each stream plays ``trials`` deals both
  ways (fold now; check and continue) and tallies the gap. The deals are
  independent of the training deals, so the best response's value is not flattered
  by the deals it was fitted on.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from analysis.core.threads import run_tasks
from analysis.runners import FixedTrials, Plan, Schedule, StderrTarget
from evaluator.strength import strength_table, table_fits
from evaluator.tables import get_tables

from . import _kernels as K
from .cells import Cells, SpotError
from .layout import N_STATS, S_GAP, S_GAP2, S_N, n_infos, relative_models

STREAM = 1000
"""Trials per stream (each stream has its own generator stream)."""
FIRST_TRIALS = 4 * STREAM
MAX_ROUNDS = 6
TRAIN_DEALS = 10_000
"""Training deals per best-response cell (the decisions of the abstraction, deal by deal)."""
TABLE_CELLS = 50
"""Runs with at least this many cells read strengths from the memory-mapped tables."""


def gap_stderr(totals: np.ndarray) -> np.ndarray:
    """Standard error of the mean gap (check minus fold) per cell."""
    n = totals[:, S_N]
    mean = totals[:, S_GAP] / np.maximum(n, 1)
    var = (totals[:, S_GAP2] - n * mean**2) / np.maximum(n - 1, 1)
    return np.sqrt(np.maximum(var, 0) / np.maximum(n, 1))


def gap_schedule(*, stderr: float | None, trials: int | None, max_trials: int) -> Schedule:
    """A fixed trial count, or rounds until the gap's standard error is at most ``stderr``."""
    if trials is not None:
        if trials < 1:
            raise SpotError(f"trials must be at least 1; got {trials}")
        return FixedTrials(int(trials))
    if stderr is None or not stderr > 0:
        raise SpotError(f"the standard-error target must be more than $0; got {stderr} "
                        "(or give a trial count)")
    return StderrTarget(target=float(stderr), first_trials=FIRST_TRIALS, max_trials=int(max_trials),
                        margin=1.05, stop="projection", max_rounds=MAX_ROUNDS)


def strength_sources(game: str, use_tables: bool) -> tuple:
    """``(use_tables, flop, turn, river)`` for the kernels: the memory-mapped strength tables,
    or dummies (strengths computed on the fly; the numbers are the same)."""
    if use_tables and all(table_fits(game, nb) for nb in (3, 4, 5)):
        return (True, strength_table(game, 3), strength_table(game, 4), strength_table(game, 5))
    dummy = np.zeros((1, 1), np.uint16)
    dummy.setflags(write=False)
    return (False, dummy, dummy, dummy)


def _settings(compiled: Cells) -> dict[str, Any]:
    ctx = compiled.ctx
    return {
        "deck": ctx.deck.label, "rules": ctx.rules.as_dict(), "bank": list(ctx.bank),
        "level": ctx.level, "models": [m.as_dict() for m in ctx.models],
        "policies": [p.name for p in ctx.policies], "spots": [s.settings() for s in compiled.spots],
        "strength_bins": compiled.strength_bins, "buckets": compiled.buckets,
        "compare": compiled.compare, "cells": compiled.cells, "keys": compiled.keys,
    }


class TrainPlan(Plan):
    """The best response of every best-response cell: one stream of ``deals`` deals each."""

    name = "fold-vs-check-train"

    def __init__(self, compiled: Cells, deals: int = TRAIN_DEALS, no_free: bool = False,
                 use_tables: bool = False) -> None:
        self.stream_size = int(deals)
        self.cell_ids = np.nonzero(compiled.best_response)[0].astype(np.int64)
        self.spots, self.opponents, self.table = compiled.kernel_inputs(train=True)
        self.game = compiled.ctx.deck.game
        self.width = n_infos(compiled.buckets)
        self.no_free = no_free
        self.use_tables = use_tables
        self._settings = {**_settings(compiled), "train_keys": compiled.train_keys,
                          "deals": int(deals), "no_free": no_free}

    @property
    def n_cells(self) -> int:
        return len(self.cell_ids)

    @property
    def n_stats(self) -> int:
        return self.width * (3 if self.no_free else 2)

    @property
    def schedule(self) -> Schedule:
        return FixedTrials(self.stream_size)

    def settings(self) -> dict[str, Any]:
        return self._settings

    def run(self, cells: np.ndarray, streams: np.ndarray, trials: np.ndarray) -> np.ndarray:
        k = len(cells)
        plans = np.zeros((k, self.width))
        counts = np.zeros((k, self.width))
        nofree = np.zeros((k, self.width if self.no_free else 0))
        ids = self.cell_ids[cells]
        strength = (strength_sources(self.game, self.use_tables), get_tables(self.game).kernel_args)
        no_plans, no_stats, relative = np.zeros((1, 1)), np.zeros(0), relative_models(self.opponents)
        run_tasks(lambda i: K.mc_task((K.TRAIN, ids[i], 0, trials[i]), self.spots, self.opponents, self.table,
                                      strength, no_plans, (no_stats, plans[i], counts[i], nofree[i]), relative),
                  k)
        return np.hstack([plans, counts, nofree])

    def plans(self, totals: np.ndarray, n_cells: int) -> tuple[np.ndarray, np.ndarray]:
        """The plans array of every cell (row ``i`` for cell ``i``; ``n + i`` without free
        folds) and the reach counts, from the run's totals."""
        w = self.width
        rows = 2 * n_cells if self.no_free else n_cells
        plans = np.full((max(rows, 1), w), -1.0)
        counts = np.zeros((max(n_cells, 1), w))
        for j, c in enumerate(self.cell_ids):
            plans[c] = totals[j, :w]
            counts[c] = totals[j, w:2 * w]
            if self.no_free:
                plans[n_cells + c] = totals[j, 2 * w:]
        return plans, counts


class FoldCheckPlan(Plan):
    """Spots as cells; each stream plays ``trials`` deals both ways and tallies the gap."""

    name = "fold-vs-check"
    stream_size = STREAM

    def __init__(self, compiled: Cells, schedule: Schedule, plans: np.ndarray | None = None,
                 use_tables: bool = False) -> None:
        self.spots, self.opponents, self.table = compiled.kernel_inputs()
        self.game = compiled.ctx.deck.game
        self.plans = plans if plans is not None else np.full((1, n_infos(compiled.buckets)), -1.0)
        self.use_tables = use_tables
        self._schedule = schedule
        self._settings = {**_settings(compiled), "plans": self.plans}

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
        strength = (strength_sources(self.game, self.use_tables), get_tables(self.game).kernel_args)
        empty, relative = np.zeros(0), relative_models(self.opponents)
        run_tasks(lambda i: K.mc_task((K.EVAL, cells[i], streams[i], trials[i]), self.spots, self.opponents,
                                      self.table, strength, self.plans, (stats[i], empty, empty, empty), relative),
                  len(cells))
        return stats

    def stderr(self, totals: np.ndarray) -> np.ndarray:
        return gap_stderr(totals)

    def samples(self, totals: np.ndarray, trials: np.ndarray) -> np.ndarray:
        return np.maximum(totals[:, S_N], 1)
