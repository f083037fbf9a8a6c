"""Starting-hand tables: every starting class against 1 to 9 random opponents, for a deck.

Against one random hand the table is exact: every five-card board is enumerated
once up to suit symmetry (134,459 orbits for 52 cards, 34,602 for 40), every
hole pair left is scored on it and the pairs are sorted, so each pair's wins and
ties against all the others come from one sweep (see
``equity._kernels.headsup_classes``). Against 2 or more opponents the table is
Monte Carlo: each deal draws a board and the opponents once and scores every
class's hole pairs left against them; deals run in fixed-size chunks, each with
its own generator stream, until every cell's standard error is at most the
target (default 0.001), so results do not depend on the thread count.

The tidy table has one row per (class, opponent count): ``hand, kind, high, low,
combos, opponents, equity, win, tie, stderr, exact, trials, rank, percentile,
top_pct`` where ``rank`` is 1 for the best class at that opponent count,
``percentile`` is the share (in %) of all starting combos in classes ranked at or
below this one (AA: 100) and ``top_pct`` the share ranked at or above it (AA:
0.45 for 52 cards).
"""

from __future__ import annotations

import hashlib
import itertools
import math
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from analysis.core.io import atomic_path, provenance
from analysis.core.rng import derive_key
from evaluator import GameSpec, LabError, get_game

from .ranges import class_of_combo, starting_classes

__all__ = [
    "DEFAULT_STDERR",
    "MAX_OPPONENTS",
    "StartingHandTable",
    "headsup_exact",
    "multiway_monte_carlo",
    "parse_opponents",
    "starting_hand_table",
]

DEFAULT_STDERR = 0.001
"""Standard-error target per cell of the multiway (Monte Carlo) tables."""
MAX_OPPONENTS = 9
CHUNK = 2048
"""Deals per Monte Carlo chunk (each deal scores every hole pair left, ~1000 hands)."""
FIRST_BATCH = 32
"""Chunks in the first batch; later batches are sized from the standard error reached."""
MAX_DEALS = 50_000_000
"""A standard-error target stops here at the latest (per opponent count)."""
TABLE_VERSION = 1
"""Bumped when the method changes, so cached partial results are not reused."""

ProgressFn = Callable[[str, int, int], None]
"""``progress(stage, done, total)``: work units done of an (estimated) total."""


class TableError(LabError):
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
                raise TableError(f"opponents {text!r}: expected counts like 1-9 or 1,2,5") from None
            if a > b:
                raise TableError(f"opponents {text!r}: {part} runs backwards")
            values.extend(range(a, b + 1))
    else:
        values = [int(v) for v in text]
    if not values:
        raise TableError("no opponent count given")
    for v in values:
        if not 1 <= v <= MAX_OPPONENTS:
            raise TableError(f"opponent count {v} is not in 1..{MAX_OPPONENTS}")
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


def headsup_exact(game: str | GameSpec = "dilemma") -> pd.DataFrame:
    """Exact equity, win and tie of every starting class against one random hand."""
    from evaluator.tables import get_tables

    from .equity import _kernels as K

    spec = get_game(game)
    tables = get_tables(spec).kernel_args
    perms = np.array(list(itertools.permutations(range(spec.n_suits))), dtype=np.int64)
    boards, mult = K.canonical_boards(spec.n_cards, perms)
    classes = starting_classes(spec)
    wins, ties, hands = K.headsup_classes(
        boards, mult, spec.n_cards, class_of_combo(spec), len(classes), tables
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


def multiway_monte_carlo(
    game: str | GameSpec = "dilemma",
    opponents: int = 2,
    *,
    seed: int = 0,
    stderr: float = DEFAULT_STDERR,
    max_deals: int = MAX_DEALS,
    progress: ProgressFn | None = None,
) -> pd.DataFrame:
    """Monte Carlo equity of every starting class against ``opponents`` random hands,
    run until every class's standard error is at most ``stderr``."""
    from evaluator.tables import get_tables

    from .equity import _kernels as K

    spec = get_game(game)
    if not 1 <= opponents <= MAX_OPPONENTS:
        raise TableError(f"opponent count {opponents} is not in 1..{MAX_OPPONENTS}")
    if not stderr > 0:
        raise TableError(f"the standard-error target must be positive; got {stderr}")
    tables = get_tables(spec).kernel_args
    classes = starting_classes(spec)
    class_of = class_of_combo(spec)
    key = derive_key(seed, "starting-hands", opponents)
    sums = np.zeros((7, len(classes)), dtype=np.int64)
    chunks = 0
    batch = FIRST_BATCH
    stage = f"{spec.name}: {opponents} opponents"
    while True:
        out = K.multiway_classes(key, chunks, batch, CHUNK, opponents, spec.n_cards, class_of, len(classes), tables)
        for i, arr in enumerate(out):
            sums[i] += arr.sum(axis=0)
        chunks += batch
        deals = chunks * CHUNK
        eq, se = _ratio_stats(sums, deals)
        worst = float(se.max())
        needed = deals * (worst / stderr) ** 2
        if progress is not None:
            progress(stage, deals, int(max(deals, min(needed, max_deals))))
        if worst <= stderr or deals >= max_deals:
            break
        more = math.ceil((needed * 1.05 - deals) / CHUNK)
        batch = int(min(max(more, 8), 4 * chunks, math.ceil((max_deals - deals) / CHUNK)))
    y, x, _yy, _xx, _xy, win, tie = sums
    df = _class_frame(spec)
    df["opponents"] = opponents
    df["equity"] = eq
    df["win"] = win / x
    df["tie"] = tie / x
    df["stderr"] = se
    df["exact"] = False
    df["trials"] = deals
    return df


def _ratio_stats(sums: np.ndarray, deals: int) -> tuple[np.ndarray, np.ndarray]:
    """Ratio estimate and its standard error per class from the per-deal sums."""
    from .equity._kernels import SHARE_LCM

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


def _partial_path(folder: Path, spec: GameSpec, n: int, seed: int, stderr: float) -> Path:
    from .equity import _kernels as K

    tag = f"{TABLE_VERSION}|{spec.name}|{spec.ranks}|{n}|{seed}|{stderr!r}|{CHUNK}|{K.SHARE_LCM}"
    digest = hashlib.sha256(tag.encode()).hexdigest()[:12]
    return folder / f"{spec.name}-{n}opp-{digest}.parquet"


def starting_hand_table(
    game: str | GameSpec = "dilemma",
    opponents: str | Iterable[int] = "1-9",
    *,
    seed: int = 0,
    stderr: float = DEFAULT_STDERR,
    partial_dir: str | Path | None = None,
    progress: ProgressFn | None = None,
) -> StartingHandTable:
    """The starting-hand table of a deck for the given opponent counts (exact vs one).

    With ``partial_dir``, each opponent count's rows are saved there atomically
    when done and reused by a later call with the same settings, so an
    interrupted run resumes where it stopped.
    """
    spec = get_game(game)
    counts = parse_opponents(opponents)
    if seed < 0:
        raise TableError(f"seed must be a non-negative integer; got {seed}")
    folder = Path(partial_dir) if partial_dir is not None else None
    parts: list[pd.DataFrame] = []
    timings: dict[str, float] = {}
    reused: list[int] = []
    for n in counts:
        path = _partial_path(folder, spec, n, seed, stderr) if folder else None
        if path is not None and path.exists():
            try:
                parts.append(pd.read_parquet(path))
                reused.append(n)
                if progress is not None:
                    progress(f"{spec.name}: {n} opponents (saved)", 1, 1)
                continue
            except (OSError, ValueError):
                pass  # unreadable leftovers are recomputed
        started = time.perf_counter()
        if n == 1:
            if progress is not None:
                progress(f"{spec.name}: 1 opponent (exact)", 0, 1)
            part = headsup_exact(spec)
            if progress is not None:
                progress(f"{spec.name}: 1 opponent (exact)", 1, 1)
        else:
            part = multiway_monte_carlo(spec, n, seed=seed, stderr=stderr, progress=progress)
        timings[str(n)] = round(time.perf_counter() - started, 3)
        if path is not None:
            with atomic_path(path) as tmp:
                part.to_parquet(tmp, index=False)
        parts.append(part)
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
        reused_partials=reused,
        table_version=TABLE_VERSION,
    )
    return StartingHandTable(spec.name, frame, manifest)


def write_starting_hand_study(
    game: str | GameSpec,
    out: str | Path,
    opponents: str | Iterable[int] = "1-9",
    *,
    seed: int = 0,
    stderr: float = DEFAULT_STDERR,
    charts: bool = True,
    preview: bool = False,
    progress: ProgressFn | None = None,
) -> tuple[StartingHandTable, dict[str, Path], list[Path]]:
    """Compute a deck's starting-hand table into ``out`` (resumable through
    ``out/.partial``): the table with its manifest and, with ``charts``, its charts
    (plus the Dilemma-vs-Hold'em comparison when the other deck's table is there)."""
    from analysis.charts.equity import write_starting_hand_charts
    from analysis.core.io import write_table

    started = time.perf_counter()
    out = Path(out)
    res = starting_hand_table(game, opponents, seed=seed, stderr=stderr,
                              partial_dir=out / ".partial", progress=progress)
    manifest = {**res.manifest, "seconds_total": round(time.perf_counter() - started, 3)}
    if preview:
        manifest["preview"] = True
    paths = write_table(res.frame, out, f"starting_hands_{res.game}", manifest)
    written: list[Path] = []
    if charts:
        other_game = "holdem" if res.game == "dilemma" else "dilemma"
        other_path = out / f"starting_hands_{other_game}.parquet"
        other = pd.read_parquet(other_path) if other_path.exists() else None
        written = write_starting_hand_charts(res.frame, out, manifest, other=other)
    return StartingHandTable(res.game, res.frame, manifest), paths, written
