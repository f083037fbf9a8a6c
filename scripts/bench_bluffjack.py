"""Benchmark Bluffjack as a betting game: the kernel's hands and games per second, the referee
beside it (the peer: the same hands replayed in plain Python), and the heads-up solve time to a
stated exploitability.

Run as ``.venv/bin/python scripts/bench_bluffjack.py [--hands 200000] [--games 2000]
[--target 0.02] [--repeat 3] [--json PATH]``; pin with ``taskset -c 0`` for one-thread figures
(the script also sets numba's thread count itself: 1 and 2). Warm figures (best of ``--repeat``)
after one call that compiles or loads the kernels.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from analysis.core.threads import max_threads, numba_threads  # noqa: E402
from analysis.engine.bluffjack.history import replay_history  # noqa: E402
from analysis.engine.bluffjack.play import (  # noqa: E402
    BluffjackTable,
    history_from_log,
    play_games,
    play_hands,
)
from analysis.solvers.bluffjack.public_tree import BluffjackTreeSpec  # noqa: E402
from analysis.solvers.bluffjack.solve import solve_bluffjack  # noqa: E402


def load() -> str:
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def best_of(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=200_000)
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--referee-hands", type=int, default=2000)
    ap.add_argument("--target", type=float, default=0.02)
    ap.add_argument("--max-iterations", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--skip-solve", action="store_true")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    out: dict = {"load_start": load()}
    table = BluffjackTable.make(["solid", "bluffer", "maniac", "random"], stack=100)
    play_hands(table, 100, seed=0)  # compile or load
    play_games(table, 2, seed=0)
    for threads in sorted({1, min(2, max_threads())}):
        with numba_threads(threads):
            t = best_of(lambda: play_hands(table, args.hands, seed=1, log=False), args.repeat)
            out[f"kernel_hands_per_s_{threads}t"] = args.hands / t
            t = best_of(lambda: play_hands(table, 10_000, seed=1), args.repeat)
            out[f"kernel_logged_hands_per_s_{threads}t"] = 10_000 / t
            g = play_games(table, args.games, seed=1)
            t = best_of(lambda: play_games(table, args.games, seed=1), args.repeat)
            out[f"games_per_s_{threads}t"] = args.games / t
            out[f"game_hands_per_s_{threads}t"] = int(g["hands"].sum()) / t
    batch = play_hands(table, args.referee_hands, seed=2)
    lines = [history_from_log(table, h, batch) for h in range(args.referee_hands)]
    t = best_of(lambda: [replay_history(line) for line in lines], args.repeat)
    out["referee_hands_per_s"] = args.referee_hands / t
    out["load_after_engine"] = load()
    if not args.skip_solve:
        with numba_threads(1):
            solve_bluffjack(BluffjackTreeSpec(), target=1.0, max_iterations=1)  # compile
            eq = solve_bluffjack(BluffjackTreeSpec(), target=args.target, max_iterations=args.max_iterations)
        out["solve"] = {"target_per_pair": args.target, "exploitability": eq.exploitability,
                        "iterations": eq.iterations, "seconds": eq.seconds,
                        "pairs_at_cap": sum(p.iterations >= args.max_iterations for p in eq.pairs)}
        out["load_after_solve"] = load()
    print(json.dumps(out, indent=2))
    if args.json:
        args.json.write_text(json.dumps(out, indent=2) + "\n")


if __name__ == "__main__":
    main()
