"""Studies written to a folder: compute, then tables (CSV + Parquet + manifest) and charts.

These join the compute layer (``analysis.studies``, ``analysis.dilemma``) to the
charts; the CLI commands and the guide both call them, so a study written by
``dilemma table ...`` and by ``dilemma guide`` is the same.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pandas as pd

from analysis.charts.economy import economy_charts
from analysis.charts.equity import write_starting_hand_charts, write_street_charts
from analysis.charts.study import study_charts
from analysis.core.io import provenance, write_table
from analysis.dilemma.decks import Deck
from analysis.dilemma.economy import EconomyResult, board_economy
from analysis.runners import Backend, Progress
from analysis.studies.fold_vs_check import GridResult, GridSpec, run_grid
from analysis.studies.starting_hands import DEFAULT_STDERR, StartingHandTable, starting_hand_table
from analysis.studies.streets import (
    deck_differences,
    order_changes,
    street_probabilities,
    streets_manifest,
)
from evaluator import GameSpec


def write_starting_hand_study(
    game: str | GameSpec,
    out: str | Path,
    opponents: str | Iterable[int] = "1-9",
    *,
    seed: int = 0,
    stderr: float = DEFAULT_STDERR,
    charts: bool = True,
    preview: bool = False,
    backend: Backend | None = None,
    progress: Progress | None = None,
) -> tuple[StartingHandTable, dict[str, Path], list[Path]]:
    """Compute a deck's starting-hand table into ``out`` (resumable through
    ``out/.partial``): the table with its manifest and, with ``charts``, its charts
    (plus the Dilemma-vs-Hold'em comparison when the other deck's table is there)."""
    started = time.perf_counter()
    out = Path(out)
    res = starting_hand_table(game, opponents, seed=seed, stderr=stderr, state_dir=out,
                              backend=backend, progress=progress)
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


def write_street_study(out: str | Path, *, charts: bool = True,
                       preview: bool = False) -> tuple[pd.DataFrame, dict[str, Any]]:
    """Write the street tables (probabilities, deck differences, order changes) and chart."""
    df = street_probabilities()
    manifest = {**streets_manifest(), **({"preview": True} if preview else {})}
    write_table(df, out, "street_probabilities", manifest)
    write_table(deck_differences(df), out, "street_deck_differences", manifest)
    changes = order_changes(df)
    write_table(changes, out, "street_order_changes", manifest)
    if charts:
        write_street_charts(df, out, manifest)
    return changes, manifest


def write_economy_study(out: str | Path, deck: Deck | str = "reference", *, max_losers: int = 3,
                        charts: bool = True, preview: bool = False) -> tuple[EconomyResult, dict[str, Any]]:
    """Compute a deck's exact board economics and write its tables (and charts) into ``out``."""
    start = time.perf_counter()
    result = board_economy(deck, max_losers=max_losers)
    manifest = provenance(**result.manifest(), seconds=round(time.perf_counter() - start, 3),
                          **({"preview": True} if preview else {}))
    frames = result.frames()
    for name, df in frames.items():
        write_table(df, out, name, manifest)
    if charts:
        economy_charts(frames, out, manifest)
    return result, manifest


def write_fold_vs_check_study(out: str | Path, spec: GridSpec, *, charts: bool = True,
                              preview: bool = False, echo: Callable[[str], Any] = print,
                              backend: Backend | None = None,
                              progress: Progress | None = None) -> GridResult:
    """Run the fold-vs-check grid (resumable through ``out/.partial``), write its tables and
    charts into ``out`` and print the break-even lines."""
    start = time.perf_counter()
    result = run_grid(spec, out_dir=out, backend=backend, progress=progress, preview=preview)
    result.manifest["seconds"] = round(time.perf_counter() - start, 1)
    result.write(out)
    if charts:
        study_charts(result, out)
    be = result.break_even
    echo(f"{len(result.cells):,} cells, {result.manifest['trials']:,} trials, "
         f"max gap SE ${result.manifest['max_gap_se']:.2f}, {result.manifest['seconds']} s")
    for r in be.itertuples():
        echo(f"{r.model:<10} {r.street:<5} {r.opponents} opp pot {r.pot:>4}: check with strength >= "
             f"{r.break_even_strength:.2f} (equity >= {r.break_even_equity:.2f}); "
             f"checking better for {r.share_check:.0%} of hands")
    echo(f"tables and charts in {out}/")
    return result


def write_equilibrium_study(out: str | Path, deck: str = "reference", *, quick: bool = False,
                            seed: int = 0, charts: bool = True, echo: Callable[[str], Any] = print,
                            progress: Progress | None = None) -> dict[str, Any]:
    """Solve the abstracted hand in every variant of the "At equilibrium" study (heads-up and
    three-handed, with and without folding for free, the bare deck), write each solution's
    tables and the combined ones into ``out``, and draw the charts."""
    from analysis.charts.equilibrium import equilibrium_charts
    from analysis.studies.equilibrium import equilibrium_variants, run_equilibrium

    variants = equilibrium_variants(deck, quick=quick, seed=seed)
    echo(f"  {len(variants)} solves; " + variants[0].spec().describe())
    frames = run_equilibrium(out, variants, preview=quick, echo=echo, progress=progress)
    manifest = frames.pop("manifest")
    written = equilibrium_charts(frames, out, manifest) if charts else []
    return {"frames": frames, "manifest": manifest, "charts": written}
