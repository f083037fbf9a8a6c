"""The Brag hand tables as DataFrames: categories, classes heads-up (exact), multiway (Monte
Carlo), and the weakest hand that is ahead of N opponents with probability p.

- ``categories``: ``category, hands, probability, one_in`` over all 22,100 hands.
- ``classes``: one row per class, best first: ``rank, hand, category, combos, win, tie,
  loss, equity, beats, percentile`` where ``win/tie/loss`` are exact against one random
  hand, ``beats`` is the share of all 22,100 hands scoring lower and ``percentile`` the
  share (%) scoring at most this class (333: 100).
- ``multiway``: ``hand, category, rank, opponents, equity, win, tie, loss, stderr, trials, exact``
  (1 opponent: the exact row; 2-16: Monte Carlo).
- ``thresholds``: ``opponents, p, hand, rank, win, stderr``: the weakest class whose chance
  of beating every opponent (ties not counted) is at least ``p``.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from analysis.core.io import provenance
from analysis.runners import Backend, Progress, run
from evaluator.brag import BRAG_CATEGORIES, N_HANDS, BragRules, get_brag_rules

from .classes import brag_classes
from .headsup import OPPONENT_HANDS, class_headsup
from .multiway import MultiwayPlan, check_opponents, multiway_schedule, unpack

__all__ = ["DEFAULT_PROBABILITIES", "DEFAULT_STDERR", "BragTables", "brag_tables", "category_table",
           "class_table", "multiway_table", "weakest_ahead"]

DEFAULT_STDERR = 0.002
"""Standard-error target of each multiway cell's pot share."""
DEFAULT_PROBABILITIES = (0.25, 0.5, 0.75, 0.9)


def category_table(rules: BragRules | str | None = None) -> pd.DataFrame:
    """Exact number and probability of each category over all 22,100 hands, best first."""
    classes = brag_classes(rules)
    counts = {c: 0 for c in BRAG_CATEGORIES}
    for cat, n in zip(classes.categories, classes.combos, strict=True):
        counts[cat] += int(n)
    rows = [{"category": c, "hands": counts[c], "probability": counts[c] / N_HANDS,
             "one_in": N_HANDS / counts[c]} for c in reversed(BRAG_CATEGORIES)]
    return pd.DataFrame(rows)


def class_table(rules: BragRules | str | None = None) -> pd.DataFrame:
    """Every class, best first, exact against one random hand, with its percentile."""
    classes = brag_classes(rules)
    win, tie, loss = class_headsup(classes.rules)
    below = np.concatenate([[0], np.cumsum(classes.combos)[:-1]])
    df = pd.DataFrame({
        "hand": classes.names, "category": classes.categories, "combos": classes.combos,
        "win": win, "tie": tie, "loss": loss, "equity": win + tie / 2,
        "beats": below / N_HANDS, "percentile": 100 * (below + classes.combos) / N_HANDS,
    })
    df = df.iloc[::-1].reset_index(drop=True)
    df.insert(0, "rank", np.arange(1, len(df) + 1))
    return df


def multiway_table(opponents: Iterable[int] = range(2, 17), rules: BragRules | str | None = None, *,
                   seed: int = 0, stderr: float = DEFAULT_STDERR, trials: int | None = None,
                   backend: Backend | None = None, progress: Progress | None = None,
                   state_dir: str | Path | None = None) -> tuple[pd.DataFrame, dict[str, Any]]:
    """Every class against each opponent count (1: exact; more: Monte Carlo through the runner)."""
    classes = brag_classes(rules)
    counts = check_opponents(opponents)
    exact = class_table(classes.rules)
    by_name = exact.set_index("hand")
    rows = []
    info: dict[str, Any] = {"trials": 0, "max_stderr": 0.0, "seconds_mc": 0.0}
    if 1 in counts:
        for r in exact.itertuples():
            rows.append({"hand": r.hand, "opponents": 1, "equity": r.equity, "win": r.win,
                         "tie": r.tie, "loss": r.loss, "stderr": 0.0, "trials": OPPONENT_HANDS * r.combos,
                         "exact": True})
    mc = tuple(n for n in counts if n > 1)
    if mc:
        plan = MultiwayPlan(classes.names, classes.offsets, classes.member_cards(), mc,
                            classes.rules, seed, multiway_schedule(stderr=stderr, trials=trials))
        res = run(plan, backend=backend, state_dir=state_dir, progress=progress,
                  label="brag: classes vs 2-16 opponents")
        stats = unpack(res.totals, len(mc))
        for c, name in enumerate(classes.names):
            for j, n in enumerate(mc):
                rows.append({"hand": name, "opponents": n, "equity": stats["equity"][c, j],
                             "win": stats["win"][c, j], "tie": stats["tie"][c, j],
                             "loss": 1.0 - stats["win"][c, j] - stats["tie"][c, j],
                             "stderr": stats["stderr"][c, j], "trials": int(stats["trials"][c]),
                             "exact": False})
        info.update(trials=int(res.trials.sum()), max_stderr=float(stats["stderr"].max()),
                    seconds_mc=round(res.seconds, 3), resumed=res.resumed, backend=res.backend)
    df = pd.DataFrame(rows)
    df.insert(1, "category", df["hand"].map(by_name["category"]))
    df.insert(2, "rank", df["hand"].map(by_name["rank"]).astype(int))
    return df.sort_values(["opponents", "rank"], ignore_index=True), info


def weakest_ahead(multiway: pd.DataFrame,
                  probabilities: Iterable[float] = DEFAULT_PROBABILITIES) -> pd.DataFrame:
    """Per opponent count and probability ``p``: the weakest class that beats every opponent
    (outright) with probability at least ``p`` (none if no class does)."""
    rows = []
    for n, sub in multiway.groupby("opponents", sort=True):
        for p in probabilities:
            ok = sub[sub["win"] >= p]
            if ok.empty:
                rows.append({"opponents": n, "p": p, "hand": None, "rank": None, "win": np.nan,
                             "stderr": np.nan})
                continue
            r = ok.sort_values("rank").iloc[-1]
            rows.append({"opponents": int(n), "p": float(p), "hand": r["hand"], "rank": int(r["rank"]),
                         "win": float(r["win"]), "stderr": float(r["stderr"])})
    return pd.DataFrame(rows)


@dataclass
class BragTables:
    """The four tables and their manifest."""

    frames: dict[str, pd.DataFrame]
    manifest: dict[str, Any] = field(default_factory=dict)


def brag_tables(opponents: Iterable[int] = range(1, 17), rules: BragRules | str | None = None, *,
                seed: int = 0, stderr: float = DEFAULT_STDERR, trials: int | None = None,
                backend: Backend | None = None, progress: Progress | None = None,
                state_dir: str | Path | None = None) -> BragTables:
    """All four tables (the multiway one resumable through ``state_dir/.partial``)."""
    start = time.perf_counter()
    rules = get_brag_rules(rules)
    counts = check_opponents(opponents)
    multiway, info = multiway_table(counts, rules, seed=seed, stderr=stderr, trials=trials,
                                    backend=backend, progress=progress, state_dir=state_dir)
    frames = {"brag_categories": category_table(rules), "brag_classes": class_table(rules),
              "brag_multiway": multiway, "brag_thresholds": weakest_ahead(multiway)}
    manifest = provenance(
        game="brag", deck="52 cards", rules=rules.name, rule_options=rules.as_dict(),
        opponents=list(counts), exact={str(n): n == 1 for n in counts},
        method="exact vs 1 opponent (all 18,424 opponent hands per hand); Monte Carlo vs 2+",
        seed=seed, stderr=None if trials is not None else stderr, trials=info["trials"] or None,
        max_stderr=info["max_stderr"], seconds=round(time.perf_counter() - start, 3),
        resumed=info.get("resumed", False))
    return BragTables(frames, manifest)
