"""Benchmark the Three Card Brag and Bluffjack studies, in one run on this machine.

Run as ``.venv/bin/python scripts/bench_games.py [--repeat 5] [--threads 2] [--mc-trials 20000]
[--skip-hit-stand] [--json PATH]``.

What is measured (warm unless marked cold; best of ``--repeat``):

1. Brag exact heads-up table: all 22,100 hands against every opponent hand they can meet
   (407 million pairs) by inclusion-exclusion counting (target < 1 s), and the per-class
   aggregation; beside it the plain double loop of ``tests/reference`` (numpy, by chunks).
2. Brag Monte Carlo: hands evaluated per second (hero + 16 opponents per deal, every class)
   on ``--threads`` numba threads and on one (target >= 50 million on 2 cores), and the
   batch evaluator alone. Peer: no library on the package index evaluates 3-card Brag
   (Three Card Poker evaluators rank prials and runs differently), so the baseline is the
   slow reference ``tests.reference.brag.ref_brag`` (plain Python).
3. Bluffjack: the exact odds table (27 starts x 10 stand-on totals), and the full hit-or-stand
   study of the guide (1-9 opponents, every seat, 10 thresholds, 7 rule sets, the best
   response; standard errors <= 0.1 percentage point) on ``--threads`` threads (target < 5 min).
4. Cold compile times of the new kernels, each in a fresh process with an empty numba cache.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import numba  # noqa: E402

from analysis.runners import LocalBackend  # noqa: E402
from analysis.studies.brag import _kernels as BK  # noqa: E402
from analysis.studies.brag.classes import brag_classes  # noqa: E402
from analysis.studies.brag.hand_tables import class_table  # noqa: E402
from analysis.studies.brag.headsup import headsup_counts  # noqa: E402
from analysis.studies.brag.multiway import MultiwayPlan, multiway_schedule  # noqa: E402
from evaluator.brag import all_hands, evaluate_batch, score_table  # noqa: E402


def best_of(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def load() -> str:
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


COLD = {
    "brag evaluator (score_batch)": (
        "import numpy as np; from evaluator.brag import all_hands, evaluate_batch;"
        "evaluate_batch(all_hands()[:10])"),
    "brag multiway kernel": (
        "from analysis.studies.brag.hand_tables import multiway_table;"
        "multiway_table([2], trials=10)"),
    "brag blind kernel": (
        "from analysis.studies.brag.blind import BlindSpec, blind_study;"
        "blind_study(BlindSpec(opponents=(2,), stakes=(1.0,), trials=10))"),
    "bluffjack evaluate + improve kernels": (
        "from analysis.studies.bluffjack.hit_stand import HitStandSpec, hit_stand_study;"
        "hit_stand_study(HitStandSpec(opponents=(1,), rules=('source',), trials=10,"
        " improve_rounds=1, improve_trials=10, min_visits=1))"),
}


def cold_compile(code: str) -> float:
    """Seconds for ``code`` in a fresh process with an empty numba cache (compile included)."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        t = time.perf_counter()
        subprocess.run([sys.executable, "-c", f"import sys; sys.path.insert(0, {str(ROOT)!r}); {code}"],
                       check=True, env=env, cwd=ROOT, capture_output=True)
        return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--mc-trials", type=int, default=20_000, help="deals per class per timing")
    ap.add_argument("--skip-hit-stand", action="store_true")
    ap.add_argument("--skip-cold", action="store_true")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    out: dict = {"load_before": load(), "cpus": os.cpu_count(), "numba": numba.__version__}
    print(f"machine: {os.cpu_count()} cpus, numba {numba.__version__}, load {out['load_before']}")
    numba.set_num_threads(min(args.threads, numba.config.NUMBA_NUM_THREADS))

    # 1. the exact heads-up table
    brag_classes()
    headsup_counts.__wrapped__("source")  # warm
    t_hu = best_of(lambda: headsup_counts.__wrapped__("source"), args.repeat)
    t_cls = best_of(lambda: class_table("source"), args.repeat)
    from tests.reference.brag import ref_headsup_counts

    hands = all_hands()
    scores = brag_classes().hand_scores
    t_ref = best_of(lambda: ref_headsup_counts(hands, scores), 1)
    out["brag_headsup_exact_s"] = t_hu
    out["brag_class_table_s"] = t_cls
    out["brag_headsup_double_loop_s"] = t_ref
    print(f"brag exact heads-up, 22,100 hands x every opponent hand: {t_hu * 1000:.1f} ms "
          f"(target < 1 s); per-class aggregation {t_cls * 1000:.1f} ms more; plain double loop "
          f"(numpy) {t_ref:.2f} s")

    # 2. Monte Carlo hands per second
    classes = brag_classes()
    plan = MultiwayPlan(classes.names, classes.offsets, classes.member_cards(), (16,),
                        classes.rules, 1, multiway_schedule(stderr=None, trials=args.mc_trials))
    cells = np.arange(len(classes), dtype=np.int64)
    streams = np.zeros(len(classes), dtype=np.int64)
    trials = np.full(len(classes), args.mc_trials, dtype=np.int64)
    table = score_table(classes.rules)

    def mc() -> None:
        stats = np.zeros((len(cells), plan.n_stats))
        BK.multiway_streams(plan.keys, cells, streams, trials, plan.hands, plan.opponents, table, stats)

    hands_per_call = len(cells) * args.mc_trials * 17
    rates = {}
    for threads in sorted({1, min(args.threads, numba.config.NUMBA_NUM_THREADS)}):
        numba.set_num_threads(threads)
        mc()
        rates[threads] = hands_per_call / best_of(mc, args.repeat)
        print(f"brag Monte Carlo, {threads} thread(s): {rates[threads] / 1e6:.1f} million hands "
              "evaluated per second (hero + 16 opponents a deal)")
    out["brag_mc_hands_per_s"] = {str(k): v for k, v in rates.items()}
    numba.set_num_threads(min(args.threads, numba.config.NUMBA_NUM_THREADS))
    big = np.ascontiguousarray(np.tile(hands, (20, 1)))
    evaluate_batch(big)
    t_batch = best_of(lambda: evaluate_batch(big), args.repeat)
    out["brag_evaluate_batch_per_s"] = len(big) / t_batch
    from tests.reference.brag import ref_brag

    sample = [list(map(int, h)) for h in hands[:20000]]
    t_py = best_of(lambda: [ref_brag(h) for h in sample], 1)
    out["brag_reference_python_per_s"] = len(sample) / t_py
    print(f"brag evaluate_batch (validated, {args.threads} threads): {len(big) / t_batch / 1e6:.1f} "
          f"million hands/s; the plain-Python reference: {len(sample) / t_py / 1e6:.3f} million/s")

    # 3. Bluffjack
    from analysis.studies.bluffjack.probabilities import final_total_table

    t_odds = best_of(lambda: final_total_table(range(12, 22)), 1)
    out["bluffjack_odds_table_s"] = t_odds
    print(f"bluffjack exact odds table (27 starts x 10 stand-on totals): {t_odds:.2f} s")
    if not args.skip_hit_stand:
        from analysis.studies.bluffjack.hit_stand import HitStandSpec, hit_stand_study

        hit_stand_study(HitStandSpec(opponents=(1,), rules=("source", "charlie5"), trials=100,
                                     improve_rounds=1, improve_trials=100))  # compile
        load_before = load()
        t = time.perf_counter()
        res = hit_stand_study(HitStandSpec(), backend=LocalBackend(args.threads))
        t_hs = time.perf_counter() - t
        table = res.frames["bluffjack_stand_on"]
        best = res.frames["bluffjack_best"]
        out["bluffjack_hit_stand_s"] = t_hs
        out["bluffjack_hit_stand_max_se"] = float(max(table["stderr"].max(), best["br_stderr"].max()))
        out["bluffjack_hit_stand_trials"] = res.manifest["trials"]
        print(f"bluffjack full hit-or-stand study (1-9 opponents, every seat, 10 thresholds, 7 rule "
              f"sets, best response), {args.threads} threads: {t_hs:.1f} s (target < 300 s), "
              f"{res.manifest['trials']:,} deals, largest standard error "
              f"{100 * out['bluffjack_hit_stand_max_se']:.3f} points; load {load_before} -> {load()}")

    # 4. cold compile
    if not args.skip_cold:
        out["cold_compile_s"] = {}
        for name, code in COLD.items():
            seconds = cold_compile(code)
            out["cold_compile_s"][name] = seconds
            print(f"cold start incl. numba compile, {name}: {seconds:.1f} s (fresh process, empty cache)")
    out["load_after"] = load()
    print(f"load after: {out['load_after']}")
    if args.json:
        args.json.write_text(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
