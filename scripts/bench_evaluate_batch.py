"""``evaluate_batch`` against the scalar kernels, by thread CPU time, on one shared core.

Run as ``taskset -c 0 .venv/bin/python scripts/bench_evaluate_batch.py [--hands 2000000]
[--seed 12345] [--repeat 15] [--game holdem]``.

The same seeded random 7-card rows (uint8, and the same as int64) go through, in turn,
``--repeat`` times (interleaved, so a busy spell of the machine hits every case alike):
the scalar kernel without validation (``score_batch_serial``), the scalar validated kernel
(``score_checked_serial``, what ``evaluate_batch`` ran before the AVX-512 kernel and still
runs where the CPU lacks it) and ``evaluate_batch(threads=False)`` itself. Each call is
timed by ``time.thread_time``, which a time-sliced core does not inflate; the median and
the best of the calls are printed in M rows/s, with the load average before and after.
All three must give the same scores, else the script stops with an error.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import evaluator  # noqa: E402
from evaluator import _kernels as K  # noqa: E402
from evaluator import _simd7  # noqa: E402
from evaluator.tables import get_tables  # noqa: E402


def _rows(n: int, n_cards: int, seed: int) -> np.ndarray:
    """``n`` random 7-card rows (uint8 card ids), each a random 7 of the deck."""
    rng = np.random.default_rng(seed)
    out = np.empty((n, 7), np.uint8)
    for lo in range(0, n, 100_000):
        m = min(100_000, n - lo)
        out[lo : lo + m] = np.argsort(rng.random((m, n_cards)), axis=1)[:, :7]
    return out


def main() -> None:
    """Print the table of the three cases for uint8 and int64 rows."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=2_000_000)
    ap.add_argument("--seed", type=int, default=12345)
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--game", default="holdem")
    args = ap.parse_args()
    tables = get_tables(args.game)
    n_cards = len(tables.card_key)
    rows8 = _rows(args.hands, n_cards, args.seed)
    rows64 = rows8.astype(np.int64)
    buf = np.empty(args.hands, np.int32)
    cases = {}
    for name, rows in (("uint8", rows8), ("int64", rows64)):
        cases[f"scalar, no validation ({name})"] = lambda r=rows: K.score_batch_serial(
            r, tables.kernel_args, buf)
        cases[f"scalar, validated ({name})"] = lambda r=rows: K.score_checked_serial(
            r, tables.kernel_args, n_cards, buf)
        cases[f"evaluate_batch ({name})"] = lambda r=rows: evaluator.evaluate_batch(
            r, args.game, threads=False)
    K.score_batch_serial(rows8, tables.kernel_args, buf)
    expected = buf.copy()
    for name, run in cases.items():  # warm-up (compile or cache load) and agreement
        got = run()
        got = buf if got is None or np.ndim(got) == 0 else got
        if not np.array_equal(got, expected):
            sys.exit(f"error: {name} disagrees with the scalar kernel")
    print(f"{args.hands:,} random 7-card rows of {args.game}, AVX-512 kernel: "
          f"{'yes' if _simd7.available() else 'no (scalar kernels)'}; load {os.getloadavg()[0]:.2f}")
    times: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(args.repeat):
        for name, run in cases.items():
            t0 = time.thread_time()
            run()
            times[name].append(time.thread_time() - t0)
    for name, ts in times.items():
        rate = args.hands / np.array(ts) / 1e6
        print(f"  {name:34s} median {np.median(rate):7.1f}  best {rate.max():7.1f} M rows/s (CPU time)")
    print(f"load at the end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
