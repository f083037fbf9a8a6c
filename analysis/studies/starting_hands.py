"""Starting-hand tables: every starting class against 1 to 9 random opponents, for a deck.

Against one random hand the table is exact: every five-card board is counted into a
group (its rank multiset and which of its ranks hold a flush suit's card: 42,783 groups
for 52 cards, 10,944 for 40), on one board of each group the cards left fall into card
types (rank, in the flush suit or not), every pair of types is scored once and the pairs
are sorted, so each combo's wins and ties against all the others come from one sweep
(see ``_starting_hand_kernels.headsup_all``). Against 2 or more opponents the table is
Monte Carlo: each deal draws a board and the opponents once and scores every
class's hole pairs left against them; deals run in streams of fixed size, each
with its own generator stream, through the runner (one cell per opponent count)
until every class's standard error is at most the target (default 0.001), so
results do not depend on the thread count or the backend.

The tidy table has one row per (class, opponent count): ``hand, kind, high, low,
combos, opponents, equity, win, tie, stderr, exact, trials, rank, percentile,
top_pct`` where ``rank`` is 1 for the best class at that opponent count,
``percentile`` is the share (in %) of all starting combos in classes ranked at or
below this one (AA: 100) and ``top_pct`` the share ranked at or above it (AA:
0.45 for 52 cards).
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from analysis.core.io import provenance
from analysis.core.rng import derive_key
from analysis.runners import Backend, Plan, Progress, RunResult, StderrTarget, run
from evaluator import GameSpec, LabError, get_game
from evaluator.kickers import KICKERS, check_kickers, kicker_map

from .ranges import class_of_combo, starting_classes

__all__ = [
    "DEFAULT_STDERR",
    "MAX_OPPONENTS",
    "StartingHandTable",
    "headsup_exact",
    "kickers_comparison",
    "multiway_monte_carlo",
    "parse_opponents",
    "starting_hand_table",
]

DEFAULT_STDERR = 0.001
"""Standard-error target per cell of the multiway (Monte Carlo) tables."""
MAX_OPPONENTS = 9
CHUNK = 2048
"""Deals per Monte Carlo stream (each deal scores every hole pair left, ~1000 hands)."""
FIRST_BATCH = 32
"""Streams in the first round; later rounds are sized from the standard error reached."""
MAX_DEALS = 50_000_000
"""A standard-error target stops here at the latest (per opponent count)."""
TABLE_VERSION = 1
"""Bumped when the method changes, so saved runs are not resumed into a different method."""


class StartingHandsError(LabError):
    """A starting-hand table that cannot be made as asked."""


def parse_opponents(text: str | int | Iterable[int]) -> list[int]:
    """Opponent counts from ``"1-9"``, ``"1,3,5"``, ``"2"`` or ints; each in 1..9."""
    if isinstance(text, int):
        values = [text]
    elif isinstance(text, str):
        values = []
        for part in text.replace(" ", "").split(","):
            if not part:
                continue
            lo, sep, hi = part.partition("-")
            try:
                a = int(lo)
                b = int(hi) if sep else a
            except ValueError:
                raise StartingHandsError(f"opponents {text!r}: expected counts like 1-9 or 1,2,5") from None
            if a > b:
                raise StartingHandsError(f"opponents {text!r}: {part} runs backwards")
            values.extend(range(a, b + 1))
    else:
        values = [int(v) for v in text]
    if not values:
        raise StartingHandsError("no opponent count given")
    for v in values:
        if not 1 <= v <= MAX_OPPONENTS:
            raise StartingHandsError(f"opponent count {v} is not in 1..{MAX_OPPONENTS}")
    return sorted(set(values))


def _class_frame(spec: GameSpec) -> pd.DataFrame:
    classes = starting_classes(spec)
    return pd.DataFrame({
        "hand": [c.name for c in classes],
        "kind": [c.kind for c in classes],
        "high": [spec.ranks[c.high] for c in classes],
        "low": [spec.ranks[c.low] for c in classes],
        "combos": [c.n_combos for c in classes],
    })


def headsup_exact(game: str | GameSpec = "dilemma", kickers: str = "all") -> pd.DataFrame:
    """Exact equity, win and tie of every starting class against one random hand, with
    showdowns reading ``kickers`` (RULES §1.3: ``all`` or ``top``)."""
    from evaluator.tables import get_tables

    from . import _starting_hand_kernels as K

    spec = get_game(game)
    tables = get_tables(spec).kernel_args
    classes = starting_classes(spec)
    wins, ties, hands = K.headsup_all(
        spec.n_cards, class_of_combo(spec), len(classes), tables, kicker_map(spec, kickers)
    )
    villains = math.comb(spec.n_cards - 7, 2)
    deals = hands.astype(np.float64) * villains
    df = _class_frame(spec)
    df["opponents"] = 1
    df["equity"] = (wins + ties / 2) / deals
    df["win"] = wins / deals
    df["tie"] = ties / deals
    df["stderr"] = 0.0
    df["exact"] = True
    df["trials"] = int(deals.sum())  # (hero, board, villain) deals enumerated, all classes
    return df


def kickers_comparison(game: str | GameSpec = "dilemma") -> tuple[pd.DataFrame, dict[str, float]]:
    """The exact heads-up table under both readings of kickers (RULES §1.3): per class
    ``equity_all``, ``equity_top``, ``delta`` (top minus all), ``tie_all``, ``tie_top``;
    and, over every heads-up deal, the share that splits under each reading and the largest
    equity move."""
    spec = get_game(game)
    tables = {k: headsup_exact(spec, k) for k in KICKERS}
    df = _class_frame(spec)
    for k, t in tables.items():
        df[f"equity_{k}"] = t["equity"].to_numpy()
        df[f"tie_{k}"] = t["tie"].to_numpy()
    df["delta"] = df["equity_top"] - df["equity_all"]
    weights = tables["all"]["combos"].to_numpy(np.float64)
    summary: dict[str, float] = {
        f"split_{k}": float((t["tie"].to_numpy() * weights).sum() / weights.sum())
        for k, t in tables.items()
    }
    summary["max_abs_delta"] = float(df["delta"].abs().max())
    return df.sort_values("delta", key=abs, ascending=False, ignore_index=True), summary


class MultiwayPlan(Plan):
    """Cells are opponent counts; a stream deals boards and opponents and scores every hole pair
    left, per class (ratio-estimator sums, wins, ties) plus the number of deals."""

    name = "starting-hands"
    stream_size = CHUNK

    def __init__(self, spec: GameSpec, counts: Sequence[int], seed: int, stderr: float,
                 max_deals: int = MAX_DEALS, kickers: str = "all") -> None:
        self.game = spec.name
        self.kickers = check_kickers(kickers)
        self.n_cards = spec.n_cards
        self.counts = np.array(counts, np.int64)
        self.keys = np.array([derive_key(seed, "starting-hands", n) for n in counts], np.uint64)
        self.class_of = class_of_combo(spec)
        self.n_classes = len(starting_classes(spec))
        self._schedule = StderrTarget(target=stderr, first_trials=FIRST_BATCH * CHUNK,
                                      max_trials=max_deals, margin=1.05, min_streams=8,
                                      max_growth=4.0, stop="target")
        self._settings = {"version": TABLE_VERSION, "game": spec.name, "ranks": spec.ranks,
                          "counts": list(map(int, counts)), "seed": seed}
        if kickers != "all":  # saved runs of the default keep resuming
            self._settings["kickers"] = kickers

    @property
    def n_cells(self) -> int:
        return len(self.counts)

    @property
    def n_stats(self) -> int:
        return 7 * self.n_classes + 1

    @property
    def stats_dtype(self) -> type:
        return np.int64

    @property
    def schedule(self) -> StderrTarget:
        return self._schedule

    def settings(self) -> dict[str, Any]:
        return self._settings

    def run(self, cells: np.ndarray, streams: np.ndarray, trials: np.ndarray) -> np.ndarray:
        from evaluator.tables import get_tables

        from . import _starting_hand_kernels as K

        out = K.multiway_classes(self.keys, self.counts, cells, streams, trials,
                                 (self.n_cards, self.class_of, self.n_classes),
                                 (get_tables(self.game).kernel_args, kicker_map(self.game, self.kickers)))
        return np.hstack([*out, trials.reshape(-1, 1)])

    def sums(self, row: np.ndarray) -> tuple[np.ndarray, int]:
        """The (7, classes) sums and the number of deals of one cell's totals."""
        return row[:-1].reshape(7, self.n_classes), int(row[-1])

    def stderr(self, totals: np.ndarray) -> np.ndarray:
        return np.array([_ratio_stats(*self.sums(row))[1].max() for row in totals])


def multiway_monte_carlo(
    game: str | GameSpec = "dilemma",
    opponents: int | Sequence[int] = 2,
    *,
    seed: int = 0,
    stderr: float = DEFAULT_STDERR,
    max_deals: int = MAX_DEALS,
    state_dir: str | Path | None = None,
    backend: Backend | None = None,
    progress: Progress | None = None,
    kickers: str = "all",
) -> pd.DataFrame:
    """Monte Carlo equity of every starting class against each count of random opponents (2-9),
    run until every class's standard error is at most ``stderr``; showdowns read ``kickers``."""
    return _multiway(game, opponents, seed=seed, stderr=stderr, max_deals=max_deals,
                     state_dir=state_dir, backend=backend, progress=progress, kickers=kickers)[0]


def _multiway(game: str | GameSpec, opponents: int | Sequence[int], *, seed: int, stderr: float,
              max_deals: int, state_dir: str | Path | None, backend: Backend | None,
              progress: Progress | None, kickers: str = "all") -> tuple[pd.DataFrame, RunResult]:
    spec = get_game(game)
    counts = [opponents] if isinstance(opponents, int) else list(opponents)
    for n in counts:
        if not 1 <= n <= MAX_OPPONENTS:
            raise StartingHandsError(f"opponent count {n} is not in 1..{MAX_OPPONENTS}")
    if not stderr > 0:
        raise StartingHandsError(f"the standard-error target must be positive; got {stderr}")
    plan = MultiwayPlan(spec, counts, seed, stderr, max_deals, kickers)
    result = run(plan, backend=backend, state_dir=state_dir, progress=progress,
                 label=f"{spec.name}: {', '.join(map(str, counts))} opponents")
    parts = []
    for row, n, deals in zip(result.totals, counts, result.trials, strict=True):
        sums, _ = plan.sums(row)
        eq, se = _ratio_stats(sums, int(deals))
        _y, x, _yy, _xx, _xy, win, tie = sums
        df = _class_frame(spec)
        df["opponents"] = n
        df["equity"] = eq
        df["win"] = win / x
        df["tie"] = tie / x
        df["stderr"] = se
        df["exact"] = False
        df["trials"] = int(deals)
        parts.append(df)
    return pd.concat(parts, ignore_index=True), result


def _ratio_stats(sums: np.ndarray, deals: int) -> tuple[np.ndarray, np.ndarray]:
    """Ratio estimate and its standard error per class from the per-deal sums."""
    from .equity.scoring import SHARE_LCM

    y, x, yy, xx, xy = (sums[i].astype(np.float64) for i in range(5))
    y, yy, xy = y / SHARE_LCM, yy / SHARE_LCM**2, xy / SHARE_LCM
    with np.errstate(invalid="ignore", divide="ignore"):
        r = y / x
        resid = np.maximum(yy - 2 * r * xy + r * r * xx, 0.0)
        se = np.sqrt(resid * deals / max(deals - 1, 1)) / x
    return r, np.nan_to_num(se, nan=np.inf)


def _add_ranks(df: pd.DataFrame) -> pd.DataFrame:
    """Rank, percentile and top share of every class within its opponent count."""
    out = []
    for _, g in df.groupby("opponents", sort=True):
        g = g.copy()
        g["rank"] = g["equity"].rank(ascending=False, method="min").astype(int)
        eq = g["equity"].to_numpy()
        combos = g["combos"].to_numpy()
        total = combos.sum()
        g["percentile"] = 100.0 * np.array([combos[eq <= e].sum() for e in eq]) / total
        g["top_pct"] = 100.0 * np.array([combos[eq >= e].sum() for e in eq]) / total
        out.append(g.sort_values(["rank", "hand"]))
    return pd.concat(out, ignore_index=True)


@dataclass(frozen=True)
class StartingHandTable:
    """The tidy table of every class and opponent count, and its provenance manifest."""

    game: str
    frame: pd.DataFrame
    manifest: dict[str, Any]

    def to_frame(self) -> pd.DataFrame:
        """The tidy table (a copy)."""
        return self.frame.copy()


def starting_hand_table(
    game: str | GameSpec = "dilemma",
    opponents: str | Iterable[int] = "1-9",
    *,
    seed: int = 0,
    stderr: float = DEFAULT_STDERR,
    state_dir: str | Path | None = None,
    backend: Backend | None = None,
    progress: Progress | None = None,
    kickers: str = "all",
) -> StartingHandTable:
    """The starting-hand table of a deck for the given opponent counts (exact vs one), with
    showdowns reading ``kickers`` (RULES §1.3: ``all``, the default, or ``top``).

    With ``state_dir``, the Monte Carlo part is saved in ``state_dir/.partial/`` as it
    runs and resumed from there by a later call with the same settings.
    """
    spec = get_game(game)
    counts = parse_opponents(opponents)
    check_kickers(kickers)
    if seed < 0:
        raise StartingHandsError(f"seed must be a non-negative integer; got {seed}")
    if any(n > 1 for n in counts) and not stderr > 0:  # before the exact heads-up part compiles and runs
        raise StartingHandsError(f"the standard-error target must be positive; got {stderr}")
    parts: list[pd.DataFrame] = []
    timings: dict[str, float] = {}
    if 1 in counts:
        started = time.perf_counter()
        parts.append(headsup_exact(spec, kickers))
        timings["1"] = round(time.perf_counter() - started, 3)
    multi = [n for n in counts if n > 1]
    resumed = False
    if multi:
        started = time.perf_counter()
        frame, result = _multiway(spec, multi, seed=seed, stderr=stderr, max_deals=MAX_DEALS,
                                  state_dir=state_dir, backend=backend, progress=progress,
                                  kickers=kickers)
        parts.append(frame)
        resumed = result.resumed
        timings["2+"] = round(time.perf_counter() - started, 3)
    frame = _add_ranks(pd.concat(parts, ignore_index=True))
    frame.insert(0, "game", spec.name)
    trials = {str(int(n)): int(g["trials"].iloc[0]) for n, g in frame.groupby("opponents")}
    manifest = provenance(
        game=spec.name,
        deck=spec.summary,
        method="exact enumeration vs 1 opponent; Monte Carlo vs 2+ opponents",
        exact={str(n): bool(n == 1) for n in counts},
        trials=trials,
        seed=seed,
        stderr=stderr,
        opponents=counts,
        seconds=timings,
        resumed=resumed,
        table_version=TABLE_VERSION,
        kickers=kickers,
    )
    return StartingHandTable(spec.name, frame, manifest)
