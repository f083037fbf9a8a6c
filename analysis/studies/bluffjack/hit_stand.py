"""Hit or stand against 1-9 opponents who stand on a threshold: the best "stand on N", the best
response that uses what the hero sees, and how the rule options move them.

Assumptions (named in every manifest): the opponents stand when their best total
reaches ``opp_threshold`` (17 by default), when bust or on a Charlie; nobody folds
in the betting, so every hand shows down; the hero's result is its share of the
pot (a tie splits it; an all-bust pot goes to the house, or without a house is
valued as an equal share of the set-aside chips that the game's last survivor
will take).

1. **Stand on N** (a fixed threshold, blind to the table): every N in ``stand_on`` is
   played on the same deals. With players whose decisions depend only on their own
   cards, a shuffled deck is exchangeable, so a fixed threshold's result does not
   depend on the seat (the table shows it within its standard errors); the rule sets
   are therefore compared in the first seat only, all on the same deals.
2. **Best response**: a policy over what the hero can see: its total (hard or soft),
   how many opponents have stood and are not visibly bust, how many are still hitting
   (hits are face up; a player is visibly bust when its up card and hits pass 20).
   Starting from the best threshold, each round plays the policy and, at every
   decision, finishes the hand twice on the same deck (hit now / stand now, the policy
   afterwards); the policy then hits exactly where hitting gained (policy iteration
   by rollouts). It is evaluated on fresh deals, beside the best threshold.

Heads-up a threshold's exact value is known by enumeration (``exact.py``); the
tests check the simulation against it.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from analysis.core.io import provenance
from analysis.runners import Backend, Progress, run
from evaluator.blackjack import BluffjackRules, get_bluffjack_rules
from evaluator.errors import LabError

from . import _kernels as K
from .plan import (
    EvaluatePlan,
    HitStandCell,
    ImprovePlan,
    evaluate_schedule,
    improved_policy,
    state_soft,
    state_stood,
    state_total,
    state_waiting,
    threshold_policy,
)

__all__ = ["ALL_RULES", "HitStandError", "HitStandResult", "HitStandSpec", "hit_stand_study"]

ALL_RULES = ("source", "charlie5", "charlie7", "charlie10", "charlie5-cards", "order21", "no-house")
MAX_OPPONENTS = 9
"""Bluffjack has 2-10 players."""


class HitStandError(LabError):
    """A hit-or-stand setting that cannot be used."""


@dataclass(frozen=True)
class HitStandSpec:
    """Everything that decides the hit-or-stand numbers (validated on creation)."""

    opponents: tuple[int, ...] = tuple(range(1, 10))
    opp_threshold: int = 17
    stand_on: tuple[int, ...] = tuple(range(12, 22))
    """Hero thresholds tried (stand when the best total reaches N)."""
    rules: tuple[str, ...] = ALL_RULES
    """Rule sets; the first is the base (all positions and the best response), the others
    are compared with it (position 0)."""
    seed: int = 0
    stderr: float = 0.001
    """Standard-error target of every pot share (0.001 = 0.1 percentage point)."""
    trials: int | None = None
    """A fixed trial count per cell instead of the standard-error target."""
    improve_rounds: int = 3
    improve_trials: int = 100_000
    min_visits: int = 200
    best_response: bool = True

    def __post_init__(self) -> None:
        object.__setattr__(self, "opponents", tuple(sorted({int(n) for n in self.opponents})))
        object.__setattr__(self, "stand_on", tuple(sorted({int(n) for n in self.stand_on})))
        object.__setattr__(self, "rules", tuple(self.rules))
        if not self.opponents or not all(1 <= n <= MAX_OPPONENTS for n in self.opponents):
            raise HitStandError(f"opponents must be 1-{MAX_OPPONENTS} (Bluffjack has 2-10 players); "
                                f"got {list(self.opponents)}")
        if not 2 <= int(self.opp_threshold) <= 21:
            raise HitStandError(f"the opponents' stand-on total must be 2-21; got {self.opp_threshold}")
        if not self.stand_on or not all(2 <= n <= 21 for n in self.stand_on):
            raise HitStandError(f"stand-on totals must be 2-21; got {list(self.stand_on)}")
        if not self.rules:
            raise HitStandError("no rule set given")
        for r in self.rules:
            get_bluffjack_rules(r)
        if self.trials is None and not self.stderr > 0:
            raise HitStandError(f"the standard-error target must be positive; got {self.stderr}")
        if self.trials is not None and self.trials < 1:
            raise HitStandError(f"trials must be at least 1; got {self.trials}")
        if self.improve_rounds < 0 or self.improve_trials < 1 or self.min_visits < 1:
            raise HitStandError("improve_rounds >= 0, improve_trials >= 1 and min_visits >= 1")

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def rule_sets(self) -> list[BluffjackRules]:
        return [get_bluffjack_rules(r) for r in self.rules]


@dataclass
class HitStandResult:
    """The study's tables (see :func:`hit_stand_study`) and manifest."""

    frames: dict[str, pd.DataFrame]
    manifest: dict[str, Any] = field(default_factory=dict)


def _threshold_rows(spec: HitStandSpec, spots: list[HitStandCell], rule_sets: list[BluffjackRules],
                    u: dict[str, np.ndarray]) -> pd.DataFrame:
    rows = []
    for c, s in enumerate(spots):
        for r, rules in enumerate(rule_sets):
            for k, n in enumerate(spec.stand_on):
                rows.append({"rules": rules.name, "opp_threshold": s.opp_threshold,
                             "opponents": s.opponents, "position": s.position, "stand_on": n,
                             "equity": u["equity"][c, r, k], "win": u["win"][c, r, k],
                             "tie": u["tie"][c, r, k], "stderr": u["stderr"][c, r, k],
                             "change_vs_base_rules": u["rules_diff"][c, r, k],
                             "change_stderr": u["rules_diff_stderr"][c, r, k],
                             "trials": int(u["trials"][c])})
    return pd.DataFrame(rows)


def _best(table: pd.DataFrame) -> pd.DataFrame:
    keys = ["rules", "opp_threshold", "opponents", "position"]
    idx = table.groupby(keys, sort=False)["equity"].idxmax()
    best = table.loc[idx, keys + ["stand_on", "equity", "win", "tie", "stderr", "trials"]]
    return best.rename(columns={"stand_on": "best_stand_on"}).reset_index(drop=True)


def _rule_effects(table: pd.DataFrame, best: pd.DataFrame, base: str) -> pd.DataFrame:
    """Per rule set and opponents (seat 0): its best N and pot share, the change of both from
    the base rules, and the paired change at the base rules' best N (same deals)."""
    first = best[best["position"] == 0].set_index(["rules", "opponents"])
    cells = table[table["position"] == 0].set_index(["rules", "opponents", "stand_on"])
    rows = []
    for (rules, n), r in first.iterrows():
        b = first.loc[(base, n)]
        at = cells.loc[(rules, n, int(b["best_stand_on"]))]
        rows.append({"rules": rules, "opponents": n, "best_stand_on": int(r["best_stand_on"]),
                     "equity": r["equity"], "stderr": r["stderr"],
                     "change_stand_on": int(r["best_stand_on"] - b["best_stand_on"]),
                     "change_equity": r["equity"] - b["equity"],
                     "change_at_base_stand_on": at["change_vs_base_rules"],
                     "change_at_base_stand_on_stderr": at["change_stderr"]})
    return pd.DataFrame(rows)


def _stand_from(policy: np.ndarray, visits: np.ndarray, soft: int, stood: int, waiting: int,
                min_visits: int) -> int | None:
    """The lowest total from which the policy stands at every seen total of this state."""
    mask = (state_soft == soft) & (state_stood == stood) & (state_waiting == waiting) & \
        (visits >= min_visits)
    totals = state_total[mask]
    hits = policy[mask]
    if not len(totals):
        return None
    order = np.argsort(totals)
    totals, hits = totals[order], hits[order]
    stand_from = None
    for t, h in zip(totals[::-1], hits[::-1], strict=True):
        if h:
            break
        stand_from = int(t)
    return stand_from


def _best_response(spec: HitStandSpec, spots: list[HitStandCell], best: pd.DataFrame, *,
                   backend: Backend | None, progress: Progress | None,
                   state_dir: str | Path | None) -> dict[str, Any]:
    """Policy iteration by rollouts on the base-rule spots; then a fresh evaluation."""
    rules = spec.rule_sets[0]
    by_spot = best.set_index(["opponents", "position"])["best_stand_on"]
    policy = np.stack([threshold_policy(int(by_spot.loc[(s.opponents, s.position)])) for s in spots])
    start = policy.copy()
    info: dict[str, Any] = {}
    for r in range(spec.improve_rounds):
        plan = ImprovePlan(spots, rules, policy, spec.seed, spec.improve_trials, f"improve-{r}")
        res = run(plan, backend=backend, progress=progress, state_dir=state_dir,
                  label=f"bluffjack: best response, round {r + 1}")
        policy, info = improved_policy(policy, res.totals, spec.min_visits)
    final = EvaluatePlan(spots, [rules], np.stack([start, policy], axis=1), spec.seed,
                         evaluate_schedule(spec.stderr, spec.trials), word="final")
    res = run(final, backend=backend, progress=progress, state_dir=state_dir,
              label="bluffjack: best response, evaluation")
    return {"policy": policy, "rollouts": info, "evaluation": final.unpack(res.totals),
            "trials": int(res.trials.sum())}


def _policy_frames(spec: HitStandSpec, spots: list[HitStandCell], br: dict[str, Any]
                   ) -> tuple[pd.DataFrame, pd.DataFrame]:
    policy, info = br["policy"], br["rollouts"]
    rows, summary = [], []
    for c, s in enumerate(spots):
        visits = info.get("visits", np.zeros_like(policy))[c] if info else np.zeros(K.N_STATES)
        seen = np.nonzero(visits >= spec.min_visits)[0]
        for x in seen:
            rows.append({"opponents": s.opponents, "position": s.position,
                         "total": int(state_total[x]), "soft": bool(state_soft[x]),
                         "stood_live": int(state_stood[x]), "waiting_live": int(state_waiting[x]),
                         "action": "hit" if policy[c, x] else "stand",
                         "gain_of_hit": float(info["gain"][c, x]),
                         "stderr": float(info["stderr"][c, x]), "visits": int(visits[x])})
        for stood in range(s.opponents + 1):
            for waiting in range(s.opponents + 1 - stood):
                hard = _stand_from(policy[c], visits, 0, stood, waiting, spec.min_visits)
                soft = _stand_from(policy[c], visits, 1, stood, waiting, spec.min_visits)
                if hard is None and soft is None:
                    continue
                summary.append({"opponents": s.opponents, "position": s.position,
                                "stood_live": stood, "waiting_live": waiting,
                                "stand_on_hard": hard, "stand_on_soft": soft})
    return pd.DataFrame(rows), pd.DataFrame(summary)


def hit_stand_study(spec: HitStandSpec = HitStandSpec(), *, backend: Backend | None = None,
                    progress: Progress | None = None,
                    state_dir: str | Path | None = None) -> HitStandResult:
    """Run the study; tables:

    - ``bluffjack_stand_on``: every spot x stand-on N: ``equity`` (pot share), ``win``
      (outright), ``tie``, ``stderr``, ``trials``;
    - ``bluffjack_best``: the best N per spot, and for the base rules the best response's
      ``br_equity``, its ``br_stderr``, the ``gain`` over the best N and its paired ``gain_stderr``;
    - ``bluffjack_rule_effects`` (with several rule sets): per rule set and opponent count
      (first seat, every rule set on the same deals) the best N, its equity, the change from
      the base rules, and the paired change at the base rules' best N with its error;
    - ``bluffjack_policy`` (the best response, every decision state it reached often) and
      ``bluffjack_policy_summary`` (per table situation: stand from this hard / soft total).
    """
    started = time.perf_counter()
    rules = spec.rule_sets
    base_name = rules[0].name
    policies = np.stack([threshold_policy(n) for n in spec.stand_on])
    t = spec.opp_threshold
    # the first seat under every rule set (played on the same deals), the other seats under
    # the base rules; each cell of the tables comes from one of the two plans
    seat0 = [HitStandCell(t, n, 0) for n in spec.opponents]
    later = [HitStandCell(t, n, p) for n in spec.opponents for p in range(1, n + 1)]
    plan = EvaluatePlan(seat0, rules, np.broadcast_to(policies, (len(seat0),) + policies.shape),
                        spec.seed, evaluate_schedule(spec.stderr, spec.trials))
    res = run(plan, backend=backend, progress=progress, state_dir=state_dir,
              label="bluffjack: stand on N, first seat" + (", every rule set" if len(rules) > 1 else ""))
    tables = [_threshold_rows(spec, seat0, rules, plan.unpack(res.totals))]
    trials = int(res.trials.sum())
    if later:
        plan = EvaluatePlan(later, rules[:1], np.broadcast_to(policies, (len(later),) + policies.shape),
                            spec.seed, evaluate_schedule(spec.stderr, spec.trials))
        res = run(plan, backend=backend, progress=progress, state_dir=state_dir,
                  label="bluffjack: stand on N, later seats")
        tables.append(_threshold_rows(spec, later, rules[:1], plan.unpack(res.totals)))
        trials += int(res.trials.sum())
    table = pd.concat(tables, ignore_index=True).sort_values(
        ["rules", "opponents", "position", "stand_on"], key=lambda c: c.map(
            {r.name: i for i, r in enumerate(rules)}) if c.name == "rules" else c, ignore_index=True)
    best = _best(table)
    frames = {"bluffjack_stand_on": table}
    base_spots = [HitStandCell(t, n, p) for n in spec.opponents for p in range(n + 1)]
    if spec.best_response:
        br = _best_response(spec, base_spots, best[best["rules"] == base_name], backend=backend,
                            progress=progress, state_dir=state_dir)
        ev = br["evaluation"]
        extra = pd.DataFrame({"opponents": [s.opponents for s in base_spots],
                              "position": [s.position for s in base_spots],
                              "br_equity": ev["equity"][:, 0, 1], "br_stderr": ev["stderr"][:, 0, 1],
                              "gain": ev["policy_diff"][:, 0, 1],
                              "gain_stderr": ev["policy_diff_stderr"][:, 0, 1],
                              "br_trials": ev["trials"]})
        extra["rules"] = base_name
        best = best.merge(extra, on=["rules", "opponents", "position"], how="left")
        frames["bluffjack_policy"], frames["bluffjack_policy_summary"] = _policy_frames(
            spec, base_spots, br)
        trials += br["trials"] + spec.improve_rounds * spec.improve_trials * len(base_spots)
    frames["bluffjack_best"] = best
    if len(rules) > 1:
        frames["bluffjack_rule_effects"] = _rule_effects(table, best, base_name)
    manifest = provenance(
        game="bluffjack", deck="52 cards", rules=base_name, rule_sets=[r.name for r in rules],
        spec=spec.as_dict(), method="Monte Carlo (runner); best response by policy iteration with "
        "paired rollouts", assumptions=(
            f"opponents stand on {spec.opp_threshold} (and when bust or on a Charlie); no folds, "
            "every hand shows down; equity = share of the pot; no house: an all-bust pot counts "
            "as an equal share"),
        seed=spec.seed, stderr=None if spec.trials is not None else spec.stderr, trials=trials,
        seconds=round(time.perf_counter() - started, 1))
    return HitStandResult(frames, manifest)
