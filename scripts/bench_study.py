"""Throughput of the fold-vs-check simulation: spot continuations (deal, play out, settle) per second.

Usage: ``python scripts/bench_study.py [--trials 200000] [--repeat 3]``. Each trial
plays two continuations (fold and check) on the same deal; the figure counts both.
Reports the first call (numba compile or cache load) separately, then the best of
``--repeat`` warm runs with 1 thread and with all threads, for the passive and the
threshold model, flop spots of a random A10o with 1 and 5 opponents.
"""

from __future__ import annotations

import argparse
import time

import numba

from analysis.studies.fold_vs_check import evaluate_spot


def run(model: str, opponents: int, trials: int, seed: int = 1) -> float:
    start = time.perf_counter()
    evaluate_spot("A10o", street="flop", opponents=opponents, pot=120, model=model,
                  trials=trials, seed=seed)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    first = run("threshold", 2, 2000)
    print(f"first call (compile or cache load): {first:.2f} s")
    print(f"{'model':<10} {'opp':>3} {'threads':>7} {'trials':>9} {'M continuations/s':>18}")
    all_threads = numba.config.NUMBA_NUM_THREADS
    for model in ("passive", "threshold"):
        trials = args.trials if model == "passive" else args.trials // 4
        for opponents in (1, 5):
            for threads in sorted({1, all_threads}):
                numba.set_num_threads(threads)
                best = min(run(model, opponents, trials) for _ in range(args.repeat))
                print(f"{model:<10} {opponents:>3} {threads:>7} {trials:>9,} {2 * trials / best / 1e6:>18.2f}")
    numba.set_num_threads(all_threads)


if __name__ == "__main__":
    main()
