"""The runner's own cost, and the same grid on a Dask LocalCluster against the local backend.

    python scripts/bench_runner.py                 # overhead + a 900-cell grid, local vs 2 workers
    python scripts/bench_runner.py --full-grid     # the guide's whole default grid (about 20 min each)

*Overhead*: wall time inside :func:`analysis.runners.run` minus the time spent
inside its tasks (as the backend measures them), over a Monte Carlo equity run and a
fold-vs-check grid. *Dask*: the same plan, same seed, on ``--workers`` processes;
the numbers must match to the last bit (checked here too).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from analysis.runners import make_backend, runner
from analysis.studies.fold_vs_check import GridSpec, run_grid
from analysis.studies.fold_vs_check import grid as grid_module

HANDS = ("AA", "A10s", "A10o", "99", "98s", "97o", "55", "A2o", "64s", "72o")


class TaskClock:
    """Adds up the seconds the backend reports for each finished task (wraps the runner's),
    and the wall time spent inside :func:`run` calls (the grid's own Python is outside)."""

    total = 0.0
    in_run = 0.0

    def __enter__(self):
        self.original = runner._Clock.measure
        self.original_run = grid_module.run
        clock = self

        def measure(inner, trials, seconds):
            clock.total += seconds
            return clock.original(inner, trials, seconds)

        def timed_run(*args, **kwargs):
            start = time.perf_counter()
            try:
                return clock.original_run(*args, **kwargs)
            finally:
                clock.in_run += time.perf_counter() - start

        runner._Clock.measure = measure
        grid_module.run = timed_run
        return self

    def __exit__(self, *exc):
        runner._Clock.measure = self.original
        grid_module.run = self.original_run


def overhead(label: str, fn) -> None:
    fn()  # warm: compile or load the numba cache
    with TaskClock() as clock:
        start = time.perf_counter()
        fn()
        wall = time.perf_counter() - start
    inside = clock.in_run or wall
    print(f"{label:<44} wall {wall:8.2f} s   in run() {inside:8.2f} s   in tasks {clock.total:8.2f} s"
          f"   runner overhead {100 * (inside - clock.total) / inside:5.2f}% of the run")


def grid(spec: GridSpec, workers: int | None):
    backend = make_backend(workers=workers) if workers else make_backend()
    start = time.perf_counter()
    with backend:  # a cluster starts once for both runs (train, evaluate), as in the CLI
        result = run_grid(spec, backend=backend)
    return result, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--full-grid", action="store_true", help="the guide's default grid")
    parser.add_argument("--skip-overhead", action="store_true")
    args = parser.parse_args()

    if not args.skip_overhead:
        from analysis.studies.equity import equity

        overhead("equity AhKh vs 5 random, 200 M deals", lambda: equity(
            "Ah Kh", *["random"] * 5, game="holdem", trials=200_000_000, seed=1))
        small = GridSpec(hands=HANDS[:4], opponents=(1, 3), pots=(120,), stderr=2.0)
        overhead("fold-vs-check grid, 48 cells (train + evaluate)", lambda: run_grid(small))

    spec = GridSpec() if args.full_grid else GridSpec(hands=HANDS)
    cells = len(spec.models) * len(spec.streets) * len(spec.opponents) * len(spec.pots) * \
        len(spec.hands or range(100))
    grid(GridSpec(hands=HANDS[:1], opponents=(1,), pots=(40,), stderr=5.0), None)  # warm
    local, t_local = grid(spec, None)
    print(f"grid of {cells:,} cells, local threaded: {t_local:8.1f} s "
          f"({int(local.cells['trials'].sum()):,} trials)")
    dask, t_dask = grid(spec, args.workers)
    same = all(np.array_equal(local.cells[c].to_numpy(), dask.cells[c].to_numpy())
               for c in ("ev_fold", "ev_check", "gap", "gap_se", "trials"))
    print(f"grid of {cells:,} cells, LocalCluster of {args.workers}: {t_dask:8.1f} s "
          f"({100 * (t_dask / t_local - 1):+.1f}% vs local; identical numbers: {same})")


if __name__ == "__main__":
    main()
