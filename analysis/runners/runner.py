"""The runner: rounds of streams, tasks sized by the clock, merged in stream order, saved as it goes.

Per round, every unfinished cell runs from the trials it has to its target
(:mod:`.schedule`). The round's streams, in (cell, stream) order, are cut into
tasks of about ``task_seconds`` (sizes adapt to the measured speed; they never
change results) and handed to a backend. Finished tasks are merged into the
per-cell totals strictly in stream order (a task that finishes early waits), so
the totals are the same bit for bit on any backend and with any task size. The
state is saved every few seconds, after every round and on Ctrl-C; a rerun
with the same plan and folder resumes it without recomputing a finished stream.
"""

from __future__ import annotations

import bisect
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from analysis.core.atomic import remove_stale_temporaries

from .backends import Backend, LocalBackend
from .interrupt import Interrupted, interruptible
from .ledger import note_finished
from .plan import Plan
from .progress import Progress, no_progress
from .resume import RunState, state_path

TASK_SECONDS = 0.5
"""Local tasks: short, so Ctrl-C and progress answer quickly (kernel calls cost microseconds)."""
DASK_TASK_SECONDS = 2.0
"""Dask tasks: long enough that scheduling overhead stays small."""
CHECKPOINT_SECONDS = 5.0
TAIL_SPLIT = 8
"""With several workers, a round's last tasks shrink (each at most the work left over the
slots in flight, down to 1/8 of a full task), so no worker idles while one finishes."""


@dataclass(frozen=True)
class RunResult:
    """Per-cell totals of a finished run, and how it went."""

    totals: np.ndarray
    trials: np.ndarray
    """Trials run per cell."""
    records: np.ndarray | None
    """Per-trial records in stream order (plans with ``record_width``), else ``None``."""
    rounds: np.ndarray
    seconds: float
    """Wall time of this call (a resumed run counts only what it ran now)."""
    resumed: bool
    backend: str
    state_file: Path | None


def _round_streams(state: RunState, size: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The current round's streams in (cell, stream) order: cells, stream numbers, trials."""
    cells = np.nonzero(~state.finished)[0]
    first = state.round_start[cells] // size
    end = -(-state.target[cells] // size)
    counts = np.maximum(end - first, 0)
    cell_of = np.repeat(cells, counts)
    offsets = np.repeat(np.cumsum(counts) - counts, counts)
    streams = np.repeat(first, counts) + (np.arange(counts.sum()) - offsets)
    trials = np.minimum(size, state.target[cell_of] - streams * size)
    return cell_of.astype(np.int64), streams.astype(np.int64), trials.astype(np.int64)


class _Clock:
    """Seconds per trial, measured on finished tasks, to size the next ones."""

    def __init__(self, target: float) -> None:
        self.target = target
        self.per_trial: float | None = None
        self.last = 0

    def measure(self, trials: int, seconds: float) -> None:
        rate = seconds / max(trials, 1)
        self.per_trial = rate if self.per_trial is None else 0.5 * (self.per_trial + rate)

    def task_trials(self, size: int) -> int:
        if self.per_trial is None or self.last == 0:
            want = size
        else:
            want = int(self.target / max(self.per_trial, 1e-12))
            want = min(want, 4 * self.last)
        self.last = max(want, size)
        return self.last


def run(plan: Plan, *, backend: Backend | None = None, state_dir: str | Path | None = None,
        progress: Progress | None = None, label: str | None = None,
        task_seconds: float | None = None) -> RunResult:
    """Run ``plan`` to the end of its schedule and return the per-cell totals.

    With ``state_dir`` the run is saved in ``state_dir/.partial/`` and resumed from
    there by a later call with the same plan. Ctrl-C stops it within about a task
    and raises :class:`~analysis.runners.interrupt.Interrupted` saying what was kept.
    """
    backend = backend or LocalBackend()
    is_local = isinstance(backend, LocalBackend)
    clock = _Clock(task_seconds or (TASK_SECONDS if is_local else DASK_TASK_SECONDS))
    progress = progress or no_progress
    label = label or plan.name
    size = int(plan.stream_size)
    schedule = plan.schedule
    fingerprint = plan.fingerprint()
    path = state_path(state_dir, plan.name, fingerprint) if state_dir is not None else None
    if path is not None:
        remove_stale_temporaries(path.parent)  # left by a run killed outright
    state = (RunState.load(path, fingerprint) if path is not None and path.exists() else None) \
        or RunState.fresh(fingerprint, plan.n_cells, plan.n_stats, plan.stats_dtype,
                          plan.record_width)
    started = time.perf_counter()
    if not state.started:
        state.target = schedule.first(plan.n_cells, size)
        state.round_start = state.done.copy()
        state.started = True

    def save() -> None:
        if path is not None:
            state.save(path)

    with interruptible() as stop, backend.session(plan) as session:
        last_save = time.perf_counter()
        while not state.finished.all():
            cells, streams, trials = _round_streams(state, size)
            m = len(cells)
            merged = int(np.count_nonzero(streams * size < state.done[cells]))
            pending = state.pending
            keys = sorted(pending)
            cum = np.concatenate([[0], np.cumsum(trials)])
            next_pos = merged
            in_flight: dict[int, int] = {}
            while merged < m:
                while len(in_flight) < session.slots and next_pos < m:
                    while next_pos in pending:
                        next_pos += len(pending[next_pos])
                    if next_pos >= m:
                        break
                    limit = m
                    k = bisect.bisect_right(keys, next_pos)
                    if k < len(keys):
                        limit = keys[k]
                    want = clock.task_trials(size)
                    if session.slots > 1:  # the round's last tasks shrink so the workers end together
                        left = int(cum[m] - cum[next_pos])
                        want = min(want, max(left // session.slots, want // TAIL_SPLIT))
                    end = int(np.searchsorted(cum, cum[next_pos] + want, side="left"))
                    end = min(max(end, next_pos + 1), limit)
                    session.submit(next_pos, (cells[next_pos:end], streams[next_pos:end],
                                              trials[next_pos:end]))
                    in_flight[next_pos] = end
                    next_pos = end
                if not in_flight:
                    break
                start, rows, seconds = session.next_done()
                end = in_flight.pop(start)
                clock.measure(int(cum[end] - cum[start]), seconds)
                if state.records is not None:
                    rows, state.pending_records[start] = rows[0], rows[1]
                pending[start] = rows
                keys = sorted(pending)
                while merged in pending:
                    block = pending.pop(merged)
                    stop_at = merged + len(block)
                    np.add.at(state.totals, cells[merged:stop_at], block)
                    np.add.at(state.done, cells[merged:stop_at], trials[merged:stop_at])
                    if state.records is not None:
                        state.records = np.concatenate([state.records,
                                                        state.pending_records.pop(merged)])
                    merged = stop_at
                keys = sorted(pending)
                progress(int(state.done.sum()), schedule.estimate(state.done, state.target), label)
                if stop.is_set():
                    session.cancel()
                    save()
                    total = schedule.estimate(state.done, state.target)
                    where = (f"finished work is saved in {path.parent}; run the same command again "
                             "to resume" if path is not None else "nothing was saved (no output folder)")
                    raise Interrupted(f"stopped after {int(state.done.sum()):,} of about "
                                      f"{total:,} trials; {where}")
                if time.perf_counter() - last_save > CHECKPOINT_SECONDS:
                    save()
                    last_save = time.perf_counter()
            # the round is complete: new targets from the statistics
            open_cells = np.nonzero(~state.finished)[0]
            state.rounds[open_cells] += 1
            se = samples = None
            if schedule.needs_stderr:
                se = plan.stderr(state.totals)[open_cells]
                samples = plan.samples(state.totals, state.done)[open_cells]
            done = state.done[open_cells]
            new = schedule.next(done, state.rounds[open_cells], se, samples, size)
            state.finished[open_cells] = new <= done
            state.target[open_cells] = np.maximum(new, done)
            state.round_start = state.done.copy()
            save()
            last_save = time.perf_counter()
    progress(int(state.done.sum()), int(state.done.sum()), label)
    note_finished(path)
    return RunResult(state.totals.copy(), state.done.copy(), state.records, state.rounds.copy(),
                     time.perf_counter() - started, state.resumed, backend.label, path)
