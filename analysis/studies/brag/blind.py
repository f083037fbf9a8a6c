"""The value of playing Brag blind: a blind hero against opponents who look and play a threshold.

The source's rules (RULES §4, seed 004): a blind player's stakes count double (so
a blind player pays half the stake), and when two players are left either may
*see* by paying double the last stake; the seen player shows first and the seer
wins only with a strictly better hand. The source leaves the betting itself to
the players, so this study fixes a simple model, stated in full:

- everyone antes ``ante`` (1: money is in antes); all stakes are one fixed size
  ``stake`` (no raises); seats act in order from the dealer's left, the hero first;
- each turn a player still in continues or folds. An opponent looks at its cards
  and continues in round ``r`` iff its hand beats at least the share
  ``thresholds[r]`` of all 22,100 hands (0.5: the better half);
- the hero follows a *strategy*: ``open`` looks at once and plays the opponents'
  thresholds; ``blind_k`` stays blind (never folds, pays half) for its first ``k``
  turns, then looks and plays the thresholds; ``blind`` never looks;
- with two players left the player to act sees (if it continues), once somebody has
  staked (the first stake of a hand cannot be a see: it has nothing to double); with three or
  more still in after ``len(thresholds)`` rounds they show down, ties split (a cap
  the source does not have: its betting would go on until only two are left);
- a blind player who is left alone wins the pot (the source's alternative rule of
  carrying the blind hand over to the next deal is not modelled).

Heads-up (one opponent) the expected money of each strategy is exact: every
opponent hand is weighed against every hero hand by counting (``headsup.py``);
with more opponents it is Monte Carlo through the runner: cells are (opponents,
stake); every deal is played once per strategy (common random numbers), and the
deals of an opponent count are the same for every stake.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from analysis.core.io import provenance
from analysis.core.rng import derive_key
from analysis.runners import Backend, FixedTrials, Plan, Progress, Schedule, StderrTarget, run
from evaluator.brag import BragRules, all_hands, get_brag_rules, score_table
from evaluator.errors import LabError

from . import _kernels as K
from .classes import brag_classes
from .headsup import OPPONENT_HANDS, disjoint_below
from .multiway import MAX_OPPONENTS

__all__ = ["BlindError", "BlindResult", "BlindSpec", "blind_study", "headsup_blind_exact",
           "threshold_scores"]

ALWAYS = 1000
"""Blind rounds of the ``blind`` strategy (more than any hand lasts)."""
STREAM = 2048
FIRST_TRIALS = 8 * STREAM
MAX_TRIALS = 50_000_000


class BlindError(LabError):
    """A blind-study setting that cannot be used."""


def _blind_rounds(name: str) -> int:
    if name == "open":
        return 0
    if name == "blind":
        return ALWAYS
    m = re.fullmatch(r"blind_(\d+)", name)
    if m and int(m.group(1)) >= 1:
        return int(m.group(1))
    raise BlindError(f"unknown hero strategy {name!r}: use open, blind (never look) or blind_K "
                     "(blind for the first K turns, then look)")


@dataclass(frozen=True)
class BlindSpec:
    """Everything that decides the blind-play numbers (validated on creation)."""

    opponents: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7)
    stakes: tuple[float, ...] = (0.5, 1.0, 2.0, 4.0)
    """Stake sizes in antes."""
    thresholds: tuple[float, ...] = (0.5, 0.75, 0.9)
    """Share of all hands an opponent's hand must beat to continue in rounds 1, 2, 3..."""
    strategies: tuple[str, ...] = ("open", "blind_1", "blind")
    ante: float = 1.0
    blind_factor: float = 2.0
    """What a blind stake counts for (the source: double)."""
    see_factor: float = 2.0
    """The see costs this multiple of the last stake (the source: double)."""
    open_sees_blind: bool = True
    """RULES §4: either of the last two may see. ``False``: the common rule (pagat) that an
    open player cannot see a blind one and must stake again or fold (the seed breaks off
    where it would state the rule for a blind and an open player)."""
    rules: str = "source"
    seed: int = 0
    stderr: float = 0.01
    """Target standard error (antes) of every strategy's expected money and its difference."""
    trials: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "opponents", tuple(int(n) for n in self.opponents))
        object.__setattr__(self, "stakes", tuple(float(s) for s in self.stakes))
        object.__setattr__(self, "thresholds", tuple(float(q) for q in self.thresholds))
        object.__setattr__(self, "strategies", tuple(self.strategies))
        if not self.opponents or not all(1 <= n <= MAX_OPPONENTS for n in self.opponents):
            raise BlindError(f"opponents must be 1-{MAX_OPPONENTS} (Brag has 2-17 players); "
                             f"got {list(self.opponents)}")
        if not self.stakes or not all(s > 0 and math.isfinite(s) for s in self.stakes):
            raise BlindError(f"stakes must be positive numbers of antes; got {list(self.stakes)}")
        if not self.thresholds or not all(0 <= q < 1 for q in self.thresholds):
            raise BlindError(f"thresholds are shares of hands beaten, each in [0, 1); got "
                             f"{list(self.thresholds)}")
        if not self.strategies or self.strategies[0] != "open":
            raise BlindError("the first hero strategy must be 'open' (the others are compared with it)")
        for s in self.strategies:
            _blind_rounds(s)
        if len(set(self.strategies)) != len(self.strategies):
            raise BlindError(f"a hero strategy is listed twice: {list(self.strategies)}")
        if not (self.ante > 0 and self.blind_factor >= 1 and self.see_factor >= 1):
            raise BlindError("ante must be positive, blind_factor and see_factor at least 1")
        if not self.open_sees_blind and len(self.thresholds) < 2:
            raise BlindError("without open_sees_blind the model needs at least two rounds of "
                             "thresholds (the hero sees on its second turn)")
        if self.trials is None and not self.stderr > 0:
            raise BlindError(f"the standard-error target must be positive; got {self.stderr}")
        if self.trials is not None and self.trials < 1:
            raise BlindError(f"trials must be at least 1; got {self.trials}")
        get_brag_rules(self.rules)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def threshold_scores(thresholds: Iterable[float], rules: BragRules | str | None = None
                     ) -> tuple[np.ndarray, list[str]]:
    """Per threshold share ``q``: the lowest score whose hands beat at least ``q`` of all hands,
    and the name of that class (the weakest hand that continues)."""
    classes = brag_classes(rules)
    beats = np.concatenate([[0], np.cumsum(classes.combos)[:-1]]) / len(all_hands())
    idx = [int(np.searchsorted(beats, q - 1e-12, side="left")) for q in thresholds]
    return classes.scores[idx].astype(np.int64), [classes.names[i] for i in idx]


def pack_model(spec: BlindSpec) -> np.ndarray:
    """float64 ``[ante, blind_factor, see_factor, open_sees_blind, threshold of round 0, 1, ...]``
    (columns ``M_*`` of ``_kernels.py``)."""
    scores, _ = threshold_scores(spec.thresholds, spec.rules)
    return np.concatenate([[spec.ante, spec.blind_factor, spec.see_factor,
                            float(spec.open_sees_blind)], scores.astype(np.float64)])


def headsup_blind_exact(spec: BlindSpec, stake: float) -> dict[str, float]:
    """Exact expected money of each hero strategy against one opponent (every pair of hands).

    Heads-up the hero stakes first; the opponent folds, or (holding a hand that continues)
    sees at once, or, facing a blind hero without ``open_sees_blind``, stakes again and the
    hero, on its second turn, sees (blind) or looks and sees or folds."""
    rules = get_brag_rules(spec.rules)
    hands = all_hands()
    scores = brag_classes(rules).hand_scores.astype(np.int64)
    t = threshold_scores(spec.thresholds[:2], rules)[0]
    t0, t1 = int(t[0]), int(t[-1])
    a, s, bf, sf, n = spec.ante, stake, spec.blind_factor, spec.see_factor, float(OPPONENT_HANDS)

    def at_least(x: np.ndarray | int) -> np.ndarray:
        """Per opponent hand: the hero hands (sharing no card with it) scoring at least ``x``."""
        return n - disjoint_below(hands, scores, np.broadcast_to(x, scores.shape), "left")

    opponent_stays = scores >= t0
    results = {}
    for name in spec.strategies:
        turns = _blind_rounds(name)
        if turns == 0:  # look at once: continue with t0, the opponent sees; hero wins ties
            go = at_least(t0)
            win = at_least(np.maximum(scores, t0))
            ev = np.where(opponent_stays,
                          win * (a + sf * s) - (go - win) * (a + s) - (n - go) * a,
                          go * a - (n - go) * a) / n
        elif spec.open_sees_blind:  # the opponent sees the blind hero at once; hero wins ties
            not_worse = at_least(scores)
            ev = np.where(opponent_stays,
                          not_worse * (a + sf * s) - (n - not_worse) * (a + s / bf), n * a) / n
        else:  # the opponent stakes again; on its second turn the hero sees (it is the seer)
            blind_again = turns >= 2
            price = sf * s / bf if blind_again else sf * s
            paid = a + s / bf + price
            pot = 2 * a + s / bf + s + price
            go = n if blind_again else at_least(t1)
            win = at_least(scores + 1) if blind_again else at_least(np.maximum(scores + 1, t1))
            ev = np.where(opponent_stays,
                          win * (pot - paid) - (go - win) * paid - (n - go) * (a + s / bf),
                          n * a) / n
        results[name] = float(np.mean(ev))
    return results


class BlindPlan(Plan):
    """Cells are (opponents, stake); per strategy the hero's net gain, and differences from open."""

    name = "brag-blind"
    stream_size = STREAM

    def __init__(self, spec: BlindSpec, cells: list[tuple[int, float]]) -> None:
        self.spec = spec
        self.cells = cells
        self.spots = (np.array([c[0] for c in cells], np.int64), np.array([c[1] for c in cells]))
        self.model = pack_model(spec)
        self.strategies = np.array([_blind_rounds(s) for s in spec.strategies], np.int64)
        self.keys = np.array([derive_key(spec.seed, "brag-blind", n) for n, _ in cells], np.uint64)

    @property
    def n_cells(self) -> int:
        return len(self.cells)

    @property
    def n_stats(self) -> int:
        return 4 * len(self.strategies) - 1

    @property
    def schedule(self) -> Schedule:
        if self.spec.trials is not None:
            return FixedTrials(self.spec.trials)
        return StderrTarget(target=self.spec.stderr, first_trials=FIRST_TRIALS, max_trials=MAX_TRIALS)

    def settings(self) -> dict[str, Any]:
        return {**self.spec.as_dict(), "cells": self.cells}

    def run(self, cells: np.ndarray, streams: np.ndarray, trials: np.ndarray) -> np.ndarray:
        stats = np.zeros((len(cells), self.n_stats))
        play = (self.model, self.strategies, score_table(get_brag_rules(self.spec.rules)))
        K.blind_streams(self.keys, cells, streams, trials, self.spots, play, stats)
        return stats

    def unpack(self, totals: np.ndarray) -> dict[str, np.ndarray]:
        """``ev, ev_se`` per (cell, strategy) and ``diff, diff_se`` (strategy minus open)."""
        k = len(self.strategies)
        n = np.maximum(totals[:, -1], 1)[:, None]

        def mean_se(sums: np.ndarray, squares: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            mean = sums / n
            var = np.maximum(squares / n - mean**2, 0) * n / np.maximum(n - 1, 1)
            return mean, np.sqrt(var / n)

        ev, ev_se = mean_se(totals[:, 0:2 * k:2], totals[:, 1:2 * k:2])
        diff, diff_se = mean_se(totals[:, 2 * k:4 * k - 2:2], totals[:, 2 * k + 1:4 * k - 2:2])
        return {"ev": ev, "ev_se": ev_se, "diff": diff, "diff_se": diff_se,
                "trials": totals[:, -1].astype(np.int64)}

    def stderr(self, totals: np.ndarray) -> np.ndarray:
        u = self.unpack(totals)
        se = np.maximum(u["ev_se"].max(axis=1), u["diff_se"].max(axis=1) if u["diff"].size else 0)
        return np.where(totals[:, -1] > 1, se, math.inf)


@dataclass
class BlindResult:
    """``frame``: one row per (opponents, stake, strategy); ``summary``: one per (opponents,
    stake) with the best strategy and blind minus open."""

    frame: pd.DataFrame
    summary: pd.DataFrame
    manifest: dict[str, Any] = field(default_factory=dict)


def _verdict(diff: float, se: float) -> str:
    if diff > 2 * se:
        return "blind"
    if diff < -2 * se:
        return "open"
    return "even"


def blind_study(spec: BlindSpec = BlindSpec(), *, backend: Backend | None = None,
                progress: Progress | None = None, state_dir: str | Path | None = None) -> BlindResult:
    """Expected money of each hero strategy by opponents and stake (exact heads-up)."""
    start = time.perf_counter()
    rows = []
    for stake in spec.stakes:
        if 1 in spec.opponents:
            exact = headsup_blind_exact(spec, stake)
            for name in spec.strategies:
                rows.append({"opponents": 1, "stake": stake, "strategy": name, "ev": exact[name],
                             "stderr": 0.0, "diff_vs_open": exact[name] - exact["open"],
                             "diff_stderr": 0.0, "trials": OPPONENT_HANDS * len(all_hands()),
                             "exact": True})
    cells = [(n, s) for n in spec.opponents if n > 1 for s in spec.stakes]
    info: dict[str, Any] = {"trials": 0}
    if cells:
        plan = BlindPlan(spec, cells)
        res = run(plan, backend=backend, progress=progress, state_dir=state_dir,
                  label="brag: blind play")
        u = plan.unpack(res.totals)
        for c, (n, stake) in enumerate(cells):
            for j, name in enumerate(spec.strategies):
                rows.append({"opponents": n, "stake": stake, "strategy": name, "ev": u["ev"][c, j],
                             "stderr": u["ev_se"][c, j],
                             "diff_vs_open": 0.0 if j == 0 else u["diff"][c, j - 1],
                             "diff_stderr": 0.0 if j == 0 else u["diff_se"][c, j - 1],
                             "trials": int(u["trials"][c]), "exact": False})
        info = {"trials": int(res.trials.sum()), "resumed": res.resumed, "backend": res.backend}
    frame = pd.DataFrame(rows).sort_values(["opponents", "stake"], kind="stable", ignore_index=True)
    summary = []
    for (n, stake), sub in frame.groupby(["opponents", "stake"], sort=True):
        best = sub.loc[sub["ev"].idxmax()]
        blind = sub[sub["strategy"] == "blind"]
        row = {"opponents": int(n), "stake": float(stake), "best": best["strategy"],
               "best_ev": float(best["ev"]), "best_stderr": float(best["stderr"]),
               "blind_minus_open": math.nan, "diff_stderr": math.nan, "verdict": ""}
        if not blind.empty:
            b = blind.iloc[0]
            row.update(blind_minus_open=float(b["diff_vs_open"]), diff_stderr=float(b["diff_stderr"]),
                       verdict=_verdict(float(b["diff_vs_open"]), float(b["diff_stderr"])))
        summary.append(row)
    _, names = threshold_scores(spec.thresholds, spec.rules)
    manifest = provenance(
        game="brag", deck="52 cards", rules=spec.rules, model=spec.as_dict(),
        threshold_hands=names, method="exact heads-up; Monte Carlo with 2+ opponents",
        seed=spec.seed, stderr=None if spec.trials is not None else spec.stderr,
        trials=info["trials"] or None, seconds=round(time.perf_counter() - start, 3),
        resumed=info.get("resumed", False))
    return BlindResult(frame, pd.DataFrame(summary), manifest)
