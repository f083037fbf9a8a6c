"""Per-spot records of the solved-spots study: what the guide and its browser read of one solved spot.

A solution file can be large (a flop's is about 1 GB), so the study keeps, per spot, a *record*: a
small gzip'd JSON file (``records/<family>-<state>-<board>.json.gz``) holding the spot's rows of
every table (:func:`.solved_spots.spot_rows`, :func:`.spot_questions.question_rows`) and its
strategy-browser entry, with the spot's description, how far it was solved and what the rows
were derived with. A record that still describes the same spot, derived the same way and solved
far enough, stands for the spot: the batch neither solves it nor needs its solution file again,
so a rerun (or a run with one more family or board) solves only what is new. Records are written
whole or not at all, with fixed gzip headers, so the same record is the same bytes.
"""

from __future__ import annotations

import gzip
import json
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from analysis.core.atomic import atomic_path
from analysis.runners.backends import Backend, LocalBackend
from analysis.solvers.card_level import load_solution

from .solved_spots import (
    Family,
    GameState,
    browser_spot,
    by_effect,
    gather,
    second_sample,
    solve_family,
    spot_rows,
)
from .spot_questions import question_rows

RECORD_VERSION = 1
"""Bump when a record would change for the same spot (new columns, another reading of a solution, a
change to the solver or the models that moves its numbers): every record is then made again (its spot
solved again where the solution file is gone)."""


@dataclass(frozen=True)
class Derivation:
    """What a record's rows depend on beside the solution: the deck's name and the models whose
    best responses are solved (heads-up families that ask for them) to ``versus_target_pct``."""

    deck: str
    models: tuple[str, ...]
    versus_target_pct: float


def record_file(folder: Path, family: Family, state: GameState, board: str) -> Path:
    """Where the record of ``family`` on ``board`` in ``state`` lives under ``folder``."""
    return folder / "records" / f"{family.name}-{state.name}-{board.replace(' ', '')}.json.gz"


def _plain(value: Any) -> Any:
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    if isinstance(value, np.bool_):
        return bool(value)
    raise TypeError(f"not JSON data: {type(value).__name__}")


def solved_with(family: Family) -> dict[str, Any]:
    """What else decides a family's record beside its spot: the solver's method and whether best
    responses to the models are solved."""
    return {"method": family.method, "versus_models": family.versus_models}


def make_record(path: Path, family: Family, state: GameState, derivation: Derivation) -> dict[str, Any]:
    """The record of the solution file ``path``, a spot of ``family`` in ``state``."""
    sol = load_solution(path)
    tables = spot_rows(sol, family, state, derivation.deck)
    tables.update(question_rows(sol, family, state, derivation.models, derivation.versus_target_pct))
    return {"record_version": RECORD_VERSION, "spot": sol.spot.describe(), "solved": solved_with(family),
            "derivation": asdict(derivation),
            "exploitability_pct_pot": float(sol.exploitability_pct), "iterations": int(sol.iterations),
            "tables": tables, "browser": browser_spot(sol, family, state)}


def write_record(path: Path, record: dict[str, Any]) -> Path:
    """Write ``record`` to ``path`` (gzip'd JSON, no timestamp: the same record is the same bytes)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    data = json.dumps(record, separators=(",", ":"), default=_plain).encode("utf-8")
    with atomic_path(path) as tmp:
        tmp.write_bytes(gzip.compress(data, compresslevel=9, mtime=0))
    return path


def read_record(path: Path) -> dict[str, Any] | None:
    """The record at ``path``, or None when there is none or it cannot be read (solved again)."""
    try:
        record = json.loads(gzip.decompress(path.read_bytes()))
    except (OSError, EOFError, ValueError):
        return None
    return record if isinstance(record, dict) else None


def stands_for(record: dict[str, Any] | None, family: Family, spot: dict[str, Any], derivation: Derivation,
               target_pct: float, max_iterations: int) -> bool:
    """Whether ``record`` holds the spot of ``family`` described by ``spot``, solved the family's way
    and derived as ``derivation`` asks, to ``target_pct`` (or for ``max_iterations``)."""
    if record is None or record.get("record_version") != RECORD_VERSION:
        return False
    same = (record.get("spot") == json.loads(json.dumps(spot, default=_plain))
            and record.get("solved") == solved_with(family)
            and record.get("derivation") == json.loads(json.dumps(asdict(derivation))))
    reached, iterations = record.get("exploitability_pct_pot"), record.get("iterations")
    return same and isinstance(reached, int | float) and isinstance(iterations, int) and (
        reached <= target_pct or iterations >= max_iterations)


@dataclass(frozen=True)
class SpotJob:
    """One spot to solve and record: where to solve it (``folder``, the study's, resuming from its
    solution file; None: a temporary folder, as on a Dask worker) and how far."""

    family: Family
    state: GameState
    board: str
    derivation: Derivation
    target_pct: float
    max_iterations: int
    folder: str | None


def solve_job(job: SpotJob) -> tuple[dict[str, Any], bytes | None]:
    """Solve ``job``'s spot and make its record; returns the record and, solved in a temporary
    folder for a family that keeps its solution files, the file's bytes."""
    with tempfile.TemporaryDirectory() as scratch:
        where = Path(job.folder or scratch)
        (solution,) = solve_family(where, job.family, [job.board], (job.state,), job.derivation.deck, job.target_pct,
                                   job.max_iterations)
        record = make_record(solution, job.family, job.state, job.derivation)
        kept = solution.read_bytes() if job.folder is None and job.family.keep_solutions else None
        if job.folder is not None and not job.family.keep_solutions:
            solution.unlink(missing_ok=True)
    return record, kept


def _stored(folder: Path, before: Path | None, family: Family, state: GameState, board: str,
            derivation: Derivation, target_pct: float, max_iterations: int) -> dict[str, Any] | None:
    """The record in ``folder``, or else in ``before`` (copied, after the kept solution file that goes
    with it), that stands for the spot; None when neither does."""
    spot = family.spot(board, state, derivation.deck).describe()
    path = record_file(folder, family, state, board)
    record = read_record(path)
    if stands_for(record, family, spot, derivation, target_pct, max_iterations):
        return record
    if before is None:
        return None
    old = record_file(before, family, state, board)
    record = read_record(old)
    if not stands_for(record, family, spot, derivation, target_pct, max_iterations):
        return None
    kept = _solution_file(before, path)
    if family.keep_solutions and kept.exists():  # first the solution file, then the record that vouches for it
        _copy(kept, _solution_file(folder, path))
    _copy(old, path)
    return record


def _copy(source: Path, target: Path) -> None:
    """Copy ``source`` to ``target`` whole or not at all."""
    with atomic_path(target) as tmp:
        shutil.copyfile(source, tmp)


def _solution_file(folder: Path, record: Path) -> Path:
    return folder / "solutions" / f"{record.name.removesuffix('.json.gz')}.npz"


def solve_records(folder: Path, family: Family, boards: list[str], states: tuple[GameState, ...],
                  derivation: Derivation, target_pct: float, max_iterations: int, before: Path | None = None,
                  progress: Callable[[int, int, str], None] | None = None,
                  backend: Backend | None = None) -> list[dict[str, Any]]:
    """The record of every (state, board) spot of ``family``, in order: one already in ``folder`` or
    in ``before`` (a previous run's folder) that stands for the spot is kept (copied); every other
    spot is solved and recorded, its solution file removed unless the family keeps them. Spots are
    solved in this process (resuming from a solution file in ``folder``, or one in ``before``) or,
    on a Dask ``backend``, one a worker from nothing (:func:`solve_job`): the same records for a spot
    solved from nothing."""
    todo = [(s, b) for s in states for b in boards]
    records = [_stored(folder, before, family, s, b, derivation, target_pct, max_iterations) for s, b in todo]
    missing = [i for i, r in enumerate(records) if r is None]
    here = backend is None or isinstance(backend, LocalBackend)
    for i in missing if here and before is not None else ():
        path = record_file(folder, family, *todo[i])
        earlier, mine = _solution_file(before, path), _solution_file(folder, path)
        if earlier.exists() and not mine.exists():  # solved on from there
            _copy(earlier, mine)
    jobs = [SpotJob(family, *todo[i], derivation, target_pct, max_iterations, str(folder) if here else None)
            for i in missing]
    done = len(todo) - len(missing)
    if progress:
        progress(done, len(todo), f"{family.name}: {len(jobs)} spots to solve")
    for k, (record, kept) in (backend or LocalBackend()).map(solve_job, jobs) if jobs else ():
        i = missing[k]
        path = record_file(folder, family, *todo[i])
        if kept is not None:  # first the solution file, then the record that vouches for it
            with atomic_path(_solution_file(folder, path)) as tmp:
                tmp.write_bytes(kept)
        records[i] = read_record(write_record(path, record))
        done += 1
        if progress:
            progress(done, len(todo), f"{family.name} {todo[i][0].name} {todo[i][1]}")
    return records


def record_tables(records: dict[str, list[dict[str, Any]]]) -> dict[str, pd.DataFrame]:
    """The study's tables from its records by sample: the ``first`` sample's rows gathered
    (:func:`.solved_spots.gather`), ``spots_second_sample`` against the ``second`` sample and
    ``spots_effects`` from the ``effects`` sample (each when it has records)."""
    tables = gather([r["tables"] for r in records.get("first", [])])
    if records.get("second"):
        second = gather([r["tables"] for r in records["second"]])
        tables["spots_second_sample"] = second_sample(tables["spots_fold_or_check"], second["spots_fold_or_check"])
    if records.get("effects"):
        tables["spots_effects"] = by_effect(gather([r["tables"] for r in records["effects"]]))
    return tables
