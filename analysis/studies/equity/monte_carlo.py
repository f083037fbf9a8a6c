"""Monte Carlo equity as a runner plan: one cell, streams of deals, win/tie/category counts.

Stream ``k`` always draws from generator stream ``k`` of the seed's key, so the
same seed gives bit-identical results whatever the backend, threads or task size.
A standard-error target runs 8 streams, then twice as many each round (up to
256), until every player's standard error is at most the target.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from analysis.runners import FixedTrials, Plan, Schedule, StderrTarget
from evaluator import CATEGORIES
from evaluator.errors import LabError
from evaluator.tables import get_tables

from . import _mc_kernels as K

STREAM = 1 << 15
"""Deals per stream."""
FIRST_STREAMS = 8
MAX_ROUND_STREAMS = 256
MAX_TRIALS = 2_000_000_000
"""A standard-error target stops here at the latest."""
MAX_REJECT = 10_000


class DealError(LabError):
    """Ranges that can hardly be dealt together (almost every deal draws a card twice)."""


def player_stats(wins: np.ndarray, cats: np.ndarray, total: float, n: int, mc: bool) -> list:
    """(equity, win, tie, stderr, categories) of every player from the sufficient statistics."""
    k = np.arange(wins.shape[1], dtype=np.float64)
    k[0] = 1.0
    share = (wins / k).sum(axis=1) / total
    out = []
    for p in range(wins.shape[0]):
        win = wins[p, 1] / total
        tie = wins[p, 2:].sum() / total
        se = 0.0
        if mc and n > 1:
            mean_sq = (wins[p] / k**2).sum() / total
            var = max(mean_sq - share[p] ** 2, 0.0) * n / (n - 1)
            se = math.sqrt(var / n)
        categories = {c: float(cats[p, i] / total) for i, c in enumerate(CATEGORIES)}
        out.append((float(share[p]), float(win), float(tie), se, categories))
    return out


def equity_schedule(trials: int | None, stderr: float) -> Schedule:
    """``trials`` deals, or rounds until every player's standard error is at most ``stderr``."""
    if trials is not None:
        return FixedTrials(int(trials))
    return StderrTarget(target=stderr, first_trials=FIRST_STREAMS * STREAM, max_trials=MAX_TRIALS,
                        growth="double", max_round_streams=MAX_ROUND_STREAMS, stop="target")


class EquityPlan(Plan):
    """One cell: every player's wins by number of winners, winning categories, deals dealt."""

    name = "equity"
    stream_size = STREAM

    def __init__(self, key: np.uint64, players: tuple, deal: tuple, game: str, n_players: int,
                 schedule: Schedule, settings: dict[str, Any]) -> None:
        self.key = key
        self.players = players
        self.deal = deal
        self.game = game
        self.n_players = n_players
        self._schedule = schedule
        self._settings = settings

    @property
    def n_cells(self) -> int:
        return 1

    @property
    def n_stats(self) -> int:
        p = self.n_players
        return p * (p + 1) + p * len(CATEGORIES) + 1

    @property
    def stats_dtype(self) -> type:
        return np.int64

    @property
    def schedule(self) -> Schedule:
        return self._schedule

    def settings(self) -> dict[str, Any]:
        return self._settings

    def run(self, cells: np.ndarray, streams: np.ndarray, trials: np.ndarray) -> np.ndarray:
        wins, cats, deals, rejected = K.monte_carlo(self.key, streams, trials, self.players,
                                                    self.deal, MAX_REJECT,
                                                    get_tables(self.game).kernel_args)
        if (rejected < 0).any():
            raise DealError("the players' ranges can hardly be dealt together (almost every deal "
                            "draws a card twice); use exact=True or wider ranges")
        m = len(streams)
        return np.hstack([wins.reshape(m, -1), cats.reshape(m, -1), deals.reshape(m, 1)])

    def unpack(self, totals: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
        """``wins (P, P+1)``, ``cats (P, 9)`` and deals from a totals row."""
        p = self.n_players
        w = p * (p + 1)
        return (totals[:w].reshape(p, p + 1), totals[w:w + p * len(CATEGORIES)].reshape(p, -1),
                int(totals[-1]))

    def stderr(self, totals: np.ndarray) -> np.ndarray:
        wins, cats, deals = self.unpack(totals[0])
        worst = max(r[3] for r in player_stats(wins, cats, deals, deals, True)) if deals else np.inf
        return np.array([worst])
