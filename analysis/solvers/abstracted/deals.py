"""Chance in the abstraction: a seeded sample of deals, run through the lab's runner.

The abstract game's chance move draws one deal uniformly from ``spec.deals``
sampled deals: boards are drawn at random (seeded, stream ``k`` of the key
``derive_key(seed, "dilemma-deals")``), and ``deals_per_board`` holdings per
board; each deal records the board, the holes, every player's strength bucket
per street and the showdown scores. The bucket transitions and every payoff of
the abstract game are therefore *exact averages over this sample* (the sample
is the game); a larger sample makes it closer to the real hand.

:func:`sample_deals` runs the :class:`DealPlan` through :func:`analysis.runners.run`
(resume, progress, any backend; the same seed gives the same deals bit for bit).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from analysis.core.rng import derive_key
from analysis.dilemma.settlement.layout import new_arrays
from analysis.runners import Backend, FixedTrials, Plan, Progress, Schedule, run
from evaluator.tables import get_tables

from . import _deal_kernels as K
from .spec import DilemmaSpec


def record_width(players: int, n_streets: int) -> int:
    """Columns of a deal record: board, holes, buckets by street and player, scores."""
    return K.DR_HOLES + 2 * players + n_streets * players + players


def game_args(spec: DilemmaSpec) -> np.ndarray:
    """The ``game`` int64 vector of the deal kernels (``G_*``)."""
    g = np.zeros(K.N_GAME, np.int64)
    g[K.G_PLAYERS] = spec.players
    g[K.G_FIRST] = spec.first_street
    g[K.G_BUCKETS] = spec.buckets
    g[K.G_NCARDS] = spec.deck_obj.n_cards
    g[K.G_STACK] = spec.stack
    g[K.G_BANK1], g[K.G_BANK2], g[K.G_BANK3] = spec.bank
    return g


class DealPlan(Plan):
    """One cell; each stream is one board with ``deals_per_board`` holdings (one record each)."""

    name = "dilemma-deals"

    def __init__(self, spec: DilemmaSpec) -> None:
        self.stream_size = int(spec.deals_per_board)
        self.record_width = record_width(spec.players, spec.n_streets)
        self.game = game_args(spec)
        self.key = derive_key(spec.seed, "dilemma-deals")
        self.spec_game = spec.deck_obj.game
        self._stats = spec.n_streets * spec.buckets
        self._trials = int(spec.deals)
        self._settings = {"players": spec.players, "street": spec.street, "buckets": spec.buckets,
                          "deck": spec.deck_obj.label, "deals": spec.deals,
                          "deals_per_board": spec.deals_per_board, "seed": spec.seed}

    @property
    def n_cells(self) -> int:
        return 1

    @property
    def n_stats(self) -> int:
        return self._stats

    @property
    def schedule(self) -> Schedule:
        return FixedTrials(self._trials)

    def settings(self) -> dict[str, Any]:
        return self._settings

    def run(self, cells: np.ndarray, streams: np.ndarray, trials: np.ndarray) -> Any:
        offsets = np.concatenate([[0], np.cumsum(trials)[:-1]]).astype(np.int64)
        records = np.zeros((int(trials.sum()), self.record_width), np.int64)
        stats = np.zeros((len(streams), self._stats))
        K.deal_streams(streams.astype(np.int64), trials.astype(np.int64), offsets, self.key,
                       self.game, get_tables(self.spec_game).kernel_args, records, stats)
        return stats, records


@dataclass(frozen=True, eq=False)
class DealTable:
    """The sampled deals: ``records`` (one row per deal) and each player's bucket history
    index per street, ``hist[d, s, p]`` (the buckets so far read as a base-``buckets`` number)."""

    spec: DilemmaSpec
    records: np.ndarray

    @property
    def n_deals(self) -> int:
        return int(self.records.shape[0])

    @cached_property
    def buckets(self) -> np.ndarray:
        """int64[N, streets, players]: the bucket of each player on each street."""
        n, s = self.spec.players, self.spec.n_streets
        lo = K.DR_HOLES + 2 * n
        return self.records[:, lo:lo + s * n].reshape(-1, s, n)

    @cached_property
    def hist(self) -> np.ndarray:
        """int64[N, streets, players]: bucket history index (perfect recall)."""
        b = self.buckets
        out = np.empty_like(b)
        out[:, 0] = b[:, 0]
        for s in range(1, b.shape[1]):
            out[:, s] = out[:, s - 1] * self.spec.buckets + b[:, s]
        return np.ascontiguousarray(out)

    @cached_property
    def fingerprint(self) -> str:
        import hashlib

        return hashlib.sha256(np.ascontiguousarray(self.records).tobytes()).hexdigest()[:16]

    def payoffs(self, tree, d: int) -> tuple[np.ndarray, np.ndarray]:
        """``(money[class, player], winners[class])`` of deal ``d`` (see ``_deal_kernels``)."""
        c = tree.classes.shape[0]
        money = np.zeros((c, self.spec.players), np.int64)
        winners = np.zeros(c, np.int64)
        players, board, table, out = new_arrays(self.spec.players)
        settle_args = (game_args(self.spec), self.spec.deck_obj.kernel_args, self.spec.rules_obj.kernel_args)
        K.deal_payoffs(self.records[d], settle_args, tree.classes, (players, board, table, out), (money, winners))
        return money, winners


def sample_deals(spec: DilemmaSpec, *, backend: Backend | None = None,
                 state_dir: str | Path | None = None, progress: Progress | None = None) -> DealTable:
    """Draw the spec's deals (resumable through ``state_dir/.partial``)."""
    result = run(DealPlan(spec), backend=backend, state_dir=state_dir, progress=progress,
                 label="deals")
    records = result.records
    records.flags.writeable = False
    return DealTable(spec, records)
