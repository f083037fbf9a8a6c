"""Runner plans of the hit-or-stand study: evaluate hero policies, and improve one by rollouts.

A cell is a spot: (opponents' stand-on total, number of opponents, the hero's
position). Every rule set and every policy of an evaluation plays each deal of
the cell (common random numbers), so their differences are measured pairwise.
Cell keys come from the seed, a purpose word and (opponents, position) only.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from analysis.core.rng import derive_key
from analysis.runners import FixedTrials, Plan, Schedule, StderrTarget
from evaluator.blackjack import BluffjackRules

from . import _kernels as K

__all__ = ["EvaluatePlan", "ImprovePlan", "HitStandCell", "improved_policy", "pack_spots", "threshold_policy"]

STREAM = 2048


@dataclass(frozen=True)
class HitStandCell:
    """One cell: the opponents' stand-on total, the number of opponents, the hero's seat."""

    opp_threshold: int
    opponents: int
    position: int


def pack_spots(spots: list[HitStandCell]) -> tuple[np.ndarray, ...]:
    """``(opp_threshold, opponents, position)`` int64 arrays (the kernels' ``spots``)."""
    return tuple(np.array([getattr(s, f) for s in spots], np.int64)
                 for f in ("opp_threshold", "opponents", "position"))


def _state_table() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """total, soft, stood_live, waiting_live of every decision-state index."""
    idx = np.arange(K.N_STATES)
    waiting = idx % K.N_LIVE
    stood = (idx // K.N_LIVE) % K.N_LIVE
    soft = (idx // K.N_LIVE**2) % 2
    total = idx // (2 * K.N_LIVE**2)
    return total, soft, stood, waiting


state_total, state_soft, state_stood, state_waiting = _state_table()


def threshold_policy(stand_on: int) -> np.ndarray:
    """The policy "stand on N": hit below ``stand_on`` whatever the table shows (int8)."""
    return (state_total < stand_on).astype(np.int8)


def _keys(seed: int, word: str, spots: list[HitStandCell]) -> np.ndarray:
    return np.array([derive_key(seed, f"bluffjack-{word}", s.opponents, s.position) for s in spots],
                    np.uint64)


class _SpotPlan(Plan):
    stream_size = STREAM

    def __init__(self, spots: list[HitStandCell], rules: list[BluffjackRules], seed: int, word: str) -> None:
        self.spots = spots
        self.packed = pack_spots(spots)
        self.rule_sets = list(rules)
        self.rules = np.stack([r.kernel_args for r in self.rule_sets])
        self.seed = int(seed)
        self.word = word
        self.keys = _keys(seed, word, spots)

    @property
    def n_cells(self) -> int:
        return len(self.spots)

    def _settings(self) -> dict[str, Any]:
        return {"spots": [s.__dict__ for s in self.spots], "rules": [r.as_dict() for r in self.rule_sets],
                "seed": self.seed, "word": self.word}


class EvaluatePlan(_SpotPlan):
    """Every rule set x policy of a cell on the same deals: pot share, wins, ties, and the
    paired differences from policy 0 and from rule set 0."""

    name = "bluffjack-evaluate"

    def __init__(self, spots: list[HitStandCell], rules: list[BluffjackRules], policies: np.ndarray,
                 seed: int, schedule: Schedule, word: str = "evaluate") -> None:
        super().__init__(spots, rules, seed, word)
        self.policies = np.ascontiguousarray(policies, np.int8)
        self._schedule = schedule

    @property
    def n_stats(self) -> int:
        return K.STATS_PER_POLICY * len(self.rule_sets) * self.policies.shape[1] + 1

    @property
    def schedule(self) -> Schedule:
        return self._schedule

    def settings(self) -> dict[str, Any]:
        return {**self._settings(), "policies": self.policies}

    def run(self, cells: np.ndarray, streams: np.ndarray, trials: np.ndarray) -> np.ndarray:
        stats = np.zeros((len(cells), self.n_stats))
        K.evaluate_streams(self.keys, cells, streams, trials, self.packed, self.rules,
                           self.policies, stats)
        return stats

    def unpack(self, totals: np.ndarray) -> dict[str, np.ndarray]:
        """Per (cell, rule set, policy): ``equity, stderr, win, tie``, the paired difference
        from policy 0 (``policy_diff``, ``policy_diff_stderr``) and from rule set 0
        (``rules_diff``, ``rules_diff_stderr``); ``trials`` per cell."""
        r, k = len(self.rule_sets), self.policies.shape[1]
        n = np.maximum(totals[:, -1], 1)[:, None, None]
        per = totals[:, :-1].reshape(len(totals), r, k, K.STATS_PER_POLICY)

        def mean_se(s: np.ndarray, s2: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            mean = s / n
            var = np.maximum(s2 / n - mean**2, 0) * n / np.maximum(n - 1, 1)
            return mean, np.sqrt(var / n)

        share, se = mean_se(per[..., 0], per[..., 1])
        pdiff, pdiff_se = mean_se(per[..., 4], per[..., 5])
        rdiff, rdiff_se = mean_se(per[..., 6], per[..., 7])
        return {"equity": share, "stderr": se, "win": per[..., 2] / n, "tie": per[..., 3] / n,
                "policy_diff": pdiff, "policy_diff_stderr": pdiff_se, "rules_diff": rdiff,
                "rules_diff_stderr": rdiff_se, "trials": totals[:, -1].astype(np.int64)}

    def stderr(self, totals: np.ndarray) -> np.ndarray:
        se = self.unpack(totals)["stderr"].reshape(len(totals), -1).max(axis=1)
        return np.where(totals[:, -1] > 1, se, math.inf)


def evaluate_schedule(stderr: float | None, trials: int | None, max_trials: int = 20_000_000) -> Schedule:
    """A trial count, or rounds until every policy's pot-share standard error is <= ``stderr``."""
    if trials is not None:
        return FixedTrials(int(trials))
    return StderrTarget(target=float(stderr), first_trials=8 * STREAM, max_trials=max_trials)


class ImprovePlan(_SpotPlan):
    """Paired hit-versus-stand rollouts at every decision state the hero's policy reaches."""

    name = "bluffjack-improve"

    def __init__(self, spots: list[HitStandCell], rules: BluffjackRules, policy: np.ndarray,
                 seed: int, trials: int, word: str) -> None:
        super().__init__(spots, [rules], seed, word)
        self.policy = np.ascontiguousarray(policy, np.int8)
        self.trials = int(trials)

    @property
    def n_stats(self) -> int:
        return 3 * K.N_STATES + 1

    @property
    def schedule(self) -> Schedule:
        return FixedTrials(self.trials)

    def settings(self) -> dict[str, Any]:
        return {**self._settings(), "policy": self.policy, "trials": self.trials}

    def run(self, cells: np.ndarray, streams: np.ndarray, trials: np.ndarray) -> np.ndarray:
        stats = np.zeros((len(cells), self.n_stats))
        K.improve_streams(self.keys, cells, streams, trials, self.packed, self.rules[0],
                          self.policy, stats)
        return stats


def improved_policy(policy: np.ndarray, totals: np.ndarray, min_visits: int, z: float = 2.0
                    ) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """The policy from rollout totals: hit where hitting gained by more than ``z`` standard
    errors, stand where it lost by more (states seen at least ``min_visits`` times); every
    other state keeps its action (noise never flips a near-indifferent choice)."""
    per = totals[:, :-1].reshape(len(totals), K.N_STATES, 3)
    visits = per[..., 2]
    n = np.maximum(visits, 1)
    gain = per[..., 0] / n
    var = np.maximum(per[..., 1] / n - gain**2, 0) * n / np.maximum(n - 1, 1)
    se = np.sqrt(var / n)
    seen = visits >= min_visits
    new = np.where(seen & (gain > z * se), 1, np.where(seen & (gain < -z * se), 0, policy))
    return new.astype(np.int8), {"gain": gain, "stderr": se, "visits": visits.astype(np.int64)}
