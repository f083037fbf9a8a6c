"""Benchmark the numba hand evaluator against eval7, phevaluator and treys.

Run as ``.venv/bin/python scripts/bench_evaluator.py [--hands 2000000] [--seed 12345]
[--repeat 5] [--peer-hands 200000] [--pairs 100000] [--json PATH]``.

What is measured (all on the same seeded random 7-card hands):

* start-up: import time, table load, and the first call of each batch kernel in this
  process (numba cache load, or a full compile when the cache is cold; the numba
  dispatcher's cache hit/miss counters say which). Optionally a subprocess with an
  empty ``NUMBA_CACHE_DIR`` measures the true no-cache compile time.
* ours: the raw kernels (``score_batch_serial`` one thread, ``score_batch`` all numba
  threads), the public ``evaluate_batch`` (which validates the rows inside the scoring
  pass; ``threads=False`` on one thread) and the stand-alone validation kernel
  (``first_invalid_row_serial`` / ``first_invalid_row``), warm, best of ``--repeat``
  rounds that run every case once; on the 52-card and the 40-card deck. The machine may be shared: the load average
  is printed at the start and the end; run the script several times and keep the best.
* peers, each through its public API with the cards converted beforehand (untimed),
  on the first ``--peer-hands`` hands: eval7 ``evaluate(list_of_Card)``, phevaluator
  ``evaluate_cards(*ints)``, treys ``Evaluator().evaluate(hand, board)``. They run one
  Python call per hand, so their rate includes the interpreter's call overhead (a
  no-op Python call per hand is timed as a baseline for that).
* agreement: on the peer subset our ordering must match each peer's, checked on
  ``--pairs`` random pairs and exhaustively (our score -> peer score must be a strictly
  monotone bijection between the classes seen).
* ``category_counts('holdem', 7)``: all 133,784,560 seven-card hands, checked against
  the known totals; warm, on one thread and on all numba threads (the ratio shows
  how evenly the enumeration is split between threads).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

T_START = time.perf_counter()

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

HOLDEM_RANKS = "23456789TJQKA"
OUR_SUITS = "shdc"  # suit index 0..3 of our card ids
SEVEN_CARD_TOTAL = 133_784_560
# Known 7-card category totals of the 52-card deck (straight flush includes royals).
HOLDEM_7_COUNTS = {
    "high_card": 23_294_460,
    "one_pair": 58_627_800,
    "two_pair": 31_433_400,
    "three_of_a_kind": 6_461_620,
    "straight": 6_180_020,
    "flush": 4_047_644,
    "full_house": 3_473_184,
    "four_of_a_kind": 224_848,
    "straight_flush": 41_584,
}

# The probe run in a subprocess with an empty numba cache: true compile times.
_COLD_PROBE = r"""
import json, sys, time
t0 = time.perf_counter()
import numpy as np
import evaluator
from evaluator import _kernels as K
from evaluator.tables import get_tables
t1 = time.perf_counter()
args = get_tables("holdem").kernel_args
t2 = time.perf_counter()
hands = np.array([[0, 5, 10, 15, 20, 25, 30]], dtype=np.uint8)
out = np.empty(1, dtype=np.int32)
K.score_batch_serial(hands, args, out)
t3 = time.perf_counter()
K.score_batch(hands, args, out)
t4 = time.perf_counter()
print(json.dumps({
    "import_s": t1 - t0, "tables_s": t2 - t1,
    "serial_first_call_s": t3 - t2, "parallel_first_call_s": t4 - t3,
    "serial_cache_misses": sum(K.score_batch_serial.stats.cache_misses.values()),
    "parallel_cache_misses": sum(K.score_batch.stats.cache_misses.values()),
}))
"""


def random_hands(n: int, n_cards: int, seed: int, chunk: int = 1 << 17) -> np.ndarray:
    """``n`` rows of 7 distinct card ids in ``0..n_cards-1``, reproducible from ``seed``.

    Each row is the first 7 cards of a random shuffle (argsort of uniform keys). Rows
    are made in chunks from one generator stream, so the first rows do not depend on
    ``n``.
    """
    rng = np.random.default_rng(seed)
    out = np.empty((n, 7), dtype=np.uint8)
    for start in range(0, n, chunk):
        stop = min(n, start + chunk)
        keys = rng.random((stop - start, n_cards))
        out[start:stop] = np.argsort(keys, axis=1)[:, :7]
    return out


def best_time(fn, repeat: int) -> float:
    """Best wall time of ``repeat`` calls of ``fn`` (after the caller's warm-up)."""
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def cache_files(kernel_name: str) -> list[str]:
    """Numba cache index files of a kernel in ``evaluator/__pycache__`` (or NUMBA_CACHE_DIR)."""
    base = os.environ.get("NUMBA_CACHE_DIR")
    roots = [Path(base)] if base else [ROOT / "evaluator" / "__pycache__"]
    found: list[str] = []
    for root in roots:
        if root.is_dir():
            found += sorted(p.name for p in root.rglob(f"_kernels.{kernel_name}-*.nbi"))
    return found


def card_name(card: int) -> str:
    return HOLDEM_RANKS[card >> 2] + OUR_SUITS[card & 3]


def check_order(ours: np.ndarray, peer: np.ndarray, higher_better: bool, pairs: int, seed: int):
    """Agreement of our order with a peer's: random pairs and the full class mapping."""
    peer = peer.astype(np.int64) if higher_better else -peer.astype(np.int64)
    ours = ours.astype(np.int64)
    rng = np.random.default_rng(seed)
    i, j = rng.integers(0, len(ours), size=(2, pairs))
    agree = int(np.count_nonzero(np.sign(ours[i] - ours[j]) == np.sign(peer[i] - peer[j])))
    # Full check: distinct (ours, peer) pairs must pair each of our classes with exactly
    # one peer class, and sorting by our score must sort the peer's strictly.
    combos = np.unique(np.stack([ours, peer], axis=1), axis=0)  # sorted by ours, then peer
    n_ours = len(np.unique(ours))
    n_peer = len(np.unique(peer))
    monotone = bool(len(combos) == n_ours == n_peer and np.all(np.diff(combos[:, 1]) > 0))
    bad = None
    if not monotone:
        # one offending pair of hands, for the report
        o = np.argsort(ours, kind="stable")
        so, sp = ours[o], peer[o]
        k = np.nonzero(
            ((so[1:] > so[:-1]) & (sp[1:] <= sp[:-1])) | ((so[1:] == so[:-1]) & (sp[1:] != sp[:-1]))
        )[0]
        if k.size:
            bad = (int(o[k[0]]), int(o[k[0] + 1]))
    return {
        "pairs": pairs,
        "agree": agree,
        "disagree": pairs - agree,
        "classes_ours": n_ours,
        "classes_peer": n_peer,
        "monotone_bijection": monotone,
        "first_bad_pair": bad,
    }


def cold_compile_probe() -> dict | None:
    """Run the start-up probe in a subprocess with an empty numba cache directory."""
    with tempfile.TemporaryDirectory(prefix="numba-cold-") as tmp:
        env = dict(os.environ, NUMBA_CACHE_DIR=tmp)
        env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
        try:
            res = subprocess.run(
                [sys.executable, "-c", _COLD_PROBE],
                env=env,
                capture_output=True,
                text=True,
                timeout=600,
                check=True,
            )
        except (subprocess.SubprocessError, OSError) as exc:
            print(f"  cold-compile probe failed: {exc}", file=sys.stderr)
            return None
        return json.loads(res.stdout.strip().splitlines()[-1])


def code_version() -> dict:
    """Git commit of the tree and whether the evaluator sources differ from it."""
    info: dict = {"commit": None, "evaluator_modified": None}
    try:
        git = ["git", "-C", str(ROOT)]
        info["commit"] = subprocess.run(
            [*git, "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True
        ).stdout.strip()
        status = subprocess.run(
            [*git, "status", "--porcelain", "--", "evaluator"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        info["evaluator_modified"] = sorted(
            line[3:] for line in status.splitlines() if line[3:].endswith(".py")
        )
    except (OSError, subprocess.SubprocessError):
        pass
    return info


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=2_000_000, help="random 7-card hands per deck")
    ap.add_argument("--seed", type=int, default=12345)
    ap.add_argument("--repeat", type=int, default=5, help="timed runs of ours (best kept)")
    ap.add_argument("--peer-hands", type=int, default=200_000, help="subset timed for peers")
    ap.add_argument("--peer-repeat", type=int, default=1, help="timed runs of each peer")
    ap.add_argument("--pairs", type=int, default=100_000, help="random pairs for agreement")
    ap.add_argument("--no-cold-compile", action="store_true", help="skip the no-cache probe")
    ap.add_argument("--no-category-counts", action="store_true")
    ap.add_argument("--json", type=Path, default=None, help="write the figures here")
    args = ap.parse_args(argv)
    if args.hands < 1 or args.repeat < 1 or args.peer_hands < 1:
        ap.error("--hands, --repeat and --peer-hands must be positive")

    load_start = os.getloadavg()
    report: dict = {
        "argv": sys.argv[1:],
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpu_count": os.cpu_count(),
        "loadavg_start": load_start,
        "hands": args.hands,
        "seed": args.seed,
        "repeat": args.repeat,
        "peer_hands": min(args.peer_hands, args.hands),
        "code": code_version(),
    }

    # ---- start-up: import, tables, first kernel calls (cache load or compile) ----
    cache_before = {k: cache_files(k) for k in ("score_batch_serial", "score_batch")}
    t0 = t_import_start = time.perf_counter()
    import numba

    import evaluator
    from evaluator import _kernels as K
    from evaluator.tables import get_tables

    t_import = time.perf_counter() - t0
    t0 = time.perf_counter()
    tabs = {g: get_tables(g).kernel_args for g in ("holdem", "dilemma")}
    t_tables = time.perf_counter() - t0
    tiny = np.array([[0, 5, 10, 15, 20, 25, 30]], dtype=np.uint8)
    tiny_out = np.empty(1, dtype=np.int32)
    t0 = time.perf_counter()
    K.score_batch_serial(tiny, tabs["holdem"], tiny_out)
    t_first_serial = time.perf_counter() - t0
    t0 = time.perf_counter()
    K.score_batch(tiny, tabs["holdem"], tiny_out)
    t_first_parallel = time.perf_counter() - t0
    startup = {
        "script_start_to_import_s": t_import_start - T_START,
        "script_start_to_first_calls_done_s": time.perf_counter() - T_START,
        "import_s": t_import,
        "tables_s": t_tables,
        "serial_first_call_s": t_first_serial,
        "parallel_first_call_s": t_first_parallel,
        "serial_cache": {
            "index_files_before": cache_before["score_batch_serial"],
            "hits": sum(K.score_batch_serial.stats.cache_hits.values()),
            "misses": sum(K.score_batch_serial.stats.cache_misses.values()),
        },
        "parallel_cache": {
            "index_files_before": cache_before["score_batch"],
            "hits": sum(K.score_batch.stats.cache_hits.values()),
            "misses": sum(K.score_batch.stats.cache_misses.values()),
        },
        "numba": numba.__version__,
        "numba_threads": numba.config.NUMBA_NUM_THREADS,
        "threading_layer": None,
    }
    with contextlib.suppress(ValueError):  # no parallel kernel has run
        startup["threading_layer"] = numba.threading_layer()
    report["startup"] = startup

    def warm(name: str) -> str:
        c = startup[name]
        return "warm (cache hit)" if c["hits"] and not c["misses"] else "COLD (compiled)"

    print(
        f"dilemma-lab evaluator benchmark  (python {report['python']}, numba {numba.__version__},"
        f" {os.cpu_count()} CPUs, {numba.config.NUMBA_NUM_THREADS} numba threads,"
        f" layer {startup['threading_layer']})"
    )
    code = report["code"]
    if code["commit"]:
        dirty = ", ".join(code["evaluator_modified"] or []) or "none"
        print(f"code: commit {code['commit']}; evaluator files modified vs commit: {dirty}")
    print(f"load average at start: {load_start[0]:.2f} {load_start[1]:.2f} {load_start[2]:.2f}")
    print("\nstart-up (this process):")
    print(f"  import numba+evaluator       {t_import * 1e3:8.1f} ms")
    print(f"  tables (both decks)          {t_tables * 1e3:8.1f} ms")
    print(
        f"  first score_batch_serial     {t_first_serial * 1e3:8.1f} ms  numba cache: "
        f"{warm('serial_cache')}"
    )
    print(
        f"  first score_batch (parallel) {t_first_parallel * 1e3:8.1f} ms  numba cache: "
        f"{warm('parallel_cache')}"
    )
    print(
        "  total, script start to both kernels ready "
        f"{startup['script_start_to_first_calls_done_s'] * 1e3:8.1f} ms"
    )
    if not args.no_cold_compile:
        cold = cold_compile_probe()
        report["cold_compile"] = cold
        if cold:
            print(
                "  no-cache subprocess (empty NUMBA_CACHE_DIR): "
                f"import {cold['import_s'] * 1e3:.0f} ms, "
                f"serial compile {cold['serial_first_call_s'] * 1e3:.0f} ms, "
                f"parallel compile {cold['parallel_first_call_s'] * 1e3:.0f} ms"
            )

    # ---- hands ----
    t0 = time.perf_counter()
    hands52 = random_hands(args.hands, 52, args.seed)
    hands40 = random_hands(args.hands, 40, args.seed)
    print(
        f"\ngenerated 2 x {args.hands:,} random 7-card hands (seed {args.seed}) in "
        f"{time.perf_counter() - t0:.2f} s"
    )

    rows: list[dict] = []
    n_threads = numba.config.NUMBA_NUM_THREADS
    numba.set_num_threads(n_threads)

    def bench_ours(game: str, hands: np.ndarray) -> np.ndarray:
        out_s = np.empty(len(hands), dtype=np.int32)
        out_p = np.empty(len(hands), dtype=np.int32)
        ta = tabs[game]
        K.score_batch_serial(hands, ta, out_s)  # warm (and touch the output pages)
        K.score_batch(hands, ta, out_p)
        if not np.array_equal(out_s, out_p):
            raise SystemExit(f"BUG: serial and parallel kernels disagree on {game}")
        api = evaluator.evaluate_batch(hands, game, threads=False)
        if not np.array_equal(api, out_s):
            raise SystemExit(f"BUG: evaluate_batch disagrees with the kernel on {game}")
        wide = hands.astype(np.int64)  # what np.array(list_of_ints) gives: scored without a copy
        if not np.array_equal(evaluator.evaluate_batch(wide, game, threads=False), out_s):
            raise SystemExit(f"BUG: evaluate_batch on int64 ids disagrees on {game}")
        deck = "52" if game == "holdem" else "40"
        n_cards = int(deck)
        if K.first_invalid_row(hands, n_cards) != -1 or K.first_invalid_row_serial(hands, n_cards) != -1:
            raise SystemExit(f"BUG: validation rejects valid hands on {game}")
        cases = [
            ("ours kernel", 1, lambda: K.score_batch_serial(hands, ta, out_s)),
            ("ours kernel", n_threads, lambda: K.score_batch(hands, ta, out_p)),
            (
                "ours evaluate_batch",
                1,
                lambda: evaluator.evaluate_batch(hands, game, threads=False),
            ),
            ("ours evaluate_batch", n_threads, lambda: evaluator.evaluate_batch(hands, game)),
            ("ours evaluate_batch int64", 1,
             lambda: evaluator.evaluate_batch(wide, game, threads=False)),
            ("ours evaluate_batch int64", n_threads, lambda: evaluator.evaluate_batch(wide, game)),
            ("ours validation only", 1, lambda: K.first_invalid_row_serial(hands, n_cards)),
            ("ours validation only", n_threads, lambda: K.first_invalid_row(hands, n_cards)),
        ]
        # interleaved rounds, best of each: a burst of load from other jobs hits all alike
        best = [float("inf")] * len(cases)
        for _ in range(args.repeat):
            for c, (_, _, fn) in enumerate(cases):
                best[c] = min(best[c], best_time(fn, 1))
        for (lib, th, _), t in zip(cases, best, strict=True):
            rows.append(
                {
                    "library": lib,
                    "deck": deck,
                    "threads": th,
                    "n": len(hands),
                    "seconds": t,
                    "evals_per_s": len(hands) / t,
                }
            )
        return out_s

    print("timing ours (52-card deck) ...")
    scores52 = bench_ours("holdem", hands52)
    print("timing ours (40-card deck) ...")
    bench_ours("dilemma", hands40)
    ours_1t = next(
        r["evals_per_s"]
        for r in rows
        if r["library"] == "ours kernel" and r["deck"] == "52" and r["threads"] == 1
    )

    # ---- peers on a subset ----
    m = min(args.peer_hands, args.hands)
    sub = hands52[:m]
    sub_list = sub.tolist()
    ours_sub = scores52[:m]
    peers: dict[str, dict] = {}

    def time_peer(name: str, call, data, higher_better: bool, note: str):
        call(*data[0])  # warm
        best = float("inf")
        res = None
        for _ in range(args.peer_repeat):
            t = time.perf_counter()
            res = [call(*h) for h in data]
            best = min(best, time.perf_counter() - t)
        scores = np.array(res, dtype=np.int64)
        rows.append(
            {
                "library": name,
                "deck": "52",
                "threads": 1,
                "n": m,
                "seconds": best,
                "evals_per_s": m / best,
                "note": note,
            }
        )
        peers[name] = check_order(ours_sub, scores, higher_better, args.pairs, args.seed + 1)
        print(f"  {name:12s} {m / best / 1e6:8.3f} M/s")

    print(f"timing peers on the first {m:,} hands (one Python call per hand) ...")

    # baseline: the cost of one Python call of 7 arguments per hand, doing nothing
    def _noop(*cards):
        return 0

    t = time.perf_counter()
    [_noop(*h) for h in sub_list]
    t = time.perf_counter() - t
    rows.append(
        {
            "library": "python no-op call",
            "deck": "52",
            "threads": 1,
            "n": m,
            "seconds": t,
            "evals_per_s": m / t,
            "note": "loop overhead ceiling",
        }
    )

    try:
        import eval7

        e7_cards = [eval7.Card(card_name(c)) for c in range(52)]
        e7_data = [([e7_cards[c] for c in h],) for h in sub_list]
        time_peer("eval7", eval7.evaluate, e7_data, True, "evaluate(list of Card)")
    except ImportError:
        print("  eval7 not installed (pip install -e '.[bench]')")
    try:
        from phevaluator import evaluate_cards

        # phevaluator ids: rank*4 + suit, ranks 2..A = 0..12, suits c,d,h,s = 0..3
        ph_suit = {"c": 0, "d": 1, "h": 2, "s": 3}
        ph_of = [(c >> 2) * 4 + ph_suit[OUR_SUITS[c & 3]] for c in range(52)]
        ph_data = [tuple(ph_of[c] for c in h) for h in sub_list]
        time_peer("phevaluator", evaluate_cards, ph_data, False, "evaluate_cards(*ints)")
    except ImportError:
        print("  phevaluator not installed (pip install -e '.[bench]')")
    try:
        import treys

        tr_ev = treys.Evaluator()
        tr_of = [treys.Card.new(card_name(c)) for c in range(52)]
        tr_data = [([tr_of[c] for c in h[:2]], [tr_of[c] for c in h[2:]]) for h in sub_list]
        time_peer("treys", tr_ev.evaluate, tr_data, False, "Evaluator().evaluate(hand, board)")
    except ImportError:
        print("  treys not installed (pip install -e '.[bench]')")
    report["agreement"] = peers

    # ---- category counts ----
    if not args.no_category_counts:
        print("timing category_counts('holdem', 7) ...")
        cold_cc = K.category_counts.stats.cache_hits.copy()
        t0 = time.perf_counter()
        counts = evaluator.category_counts("holdem", 7)
        t_cc_first = time.perf_counter() - t0
        cc_hits = sum(K.category_counts.stats.cache_hits.values()) - sum(cold_cc.values())
        cc_miss = sum(K.category_counts.stats.cache_misses.values())
        cc_times: dict[int, float] = {}
        cc_ok = True
        for th in sorted({1, n_threads}):  # warm, best of 3 (each run takes ~0.3-1 s)
            numba.set_num_threads(th)
            best = float("inf")
            for _ in range(3):
                t0 = time.perf_counter()
                cc_ok &= evaluator.category_counts("holdem", 7) == counts
                best = min(best, time.perf_counter() - t0)
            cc_times[th] = best
        numba.set_num_threads(n_threads)
        t_cc = cc_times[n_threads]
        ok = counts == HOLDEM_7_COUNTS and cc_ok
        report["category_counts"] = {
            "first_call_s": t_cc_first,
            "warm_s": t_cc,
            "warm_s_by_threads": cc_times,
            "cache_hits": cc_hits,
            "cache_misses": cc_miss,
            "hands_per_s": SEVEN_CARD_TOTAL / t_cc,
            "counts": counts,
            "matches_known": ok,
        }
        for th, t in cc_times.items():
            rows.append(
                {
                    "library": "ours category_counts",
                    "deck": "52",
                    "threads": th,
                    "n": SEVEN_CARD_TOTAL,
                    "seconds": t,
                    "evals_per_s": SEVEN_CARD_TOTAL / t,
                    "note": "enumeration",
                }
            )

    # ---- table ----
    load_end = os.getloadavg()
    report["loadavg_end"] = load_end
    for r in rows:
        r["ratio_ours_per_peer"] = (
            ours_1t / r["evals_per_s"]
            if not r["library"].startswith("ours") and r["library"] != "python no-op call"
            else None
        )
    report["rows"] = rows

    print(
        f"\n{'library':22s} {'deck':>4s} {'threads':>7s} {'hands':>12s} {'evals/s (M)':>12s}"
        f" {'ours/peer':>10s}  note"
    )
    print("-" * 96)
    for r in rows:
        ratio = f"{r['ratio_ours_per_peer']:10.1f}" if r["ratio_ours_per_peer"] else f"{'-':>10s}"
        print(
            f"{r['library']:22s} {r['deck']:>4s} {r['threads']:>7d} {r['n']:>12,d}"
            f" {r['evals_per_s'] / 1e6:12.2f} {ratio}  {r.get('note', '')}"
        )
    print("ratio = ours kernel, 1 thread, 52 cards / peer (peers are single-threaded calls)")

    print("\nagreement with peers (ours: higher is better; eval7 higher, phevaluator/treys lower):")
    for name, a in peers.items():
        status = "OK" if a["disagree"] == 0 and a["monotone_bijection"] else "DISAGREE (bug)"
        print(
            f"  {name:12s} {a['agree']:,}/{a['pairs']:,} random pairs agree; "
            f"{a['classes_ours']} classes ours vs {a['classes_peer']} peer, "
            f"order-preserving bijection: {a['monotone_bijection']}  -> {status}"
        )
        if a["first_bad_pair"]:
            i, j = a["first_bad_pair"]
            print(
                f"    e.g. {' '.join(card_name(c) for c in sub[i])} vs "
                f"{' '.join(card_name(c) for c in sub[j])}"
            )
    if "category_counts" in report:
        cc = report["category_counts"]
        by_threads = ", ".join(
            f"{t:.2f} s on {th} thread{'s' if th > 1 else ''}"
            for th, t in cc["warm_s_by_threads"].items()
        )
        print(
            f"\ncategory_counts('holdem', 7): first call {cc['first_call_s']:.2f} s "
            f"(cache hits {cc['cache_hits']}, misses {cc['cache_misses']}), warm "
            f"{by_threads} = {cc['hands_per_s'] / 1e6:.0f} M hands/s; "
            f"matches known totals: {cc['matches_known']}"
        )
    print(f"\nload average at end: {load_end[0]:.2f} {load_end[1]:.2f} {load_end[2]:.2f}")

    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report, indent=2, default=str) + "\n")
        print(f"figures written to {args.json}")
    bad = [n for n, a in peers.items() if a["disagree"] or not a["monotone_bijection"]]
    if "category_counts" in report and not report["category_counts"]["matches_known"]:
        bad.append("category_counts")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
