"""Benchmark of the betting engine, beside pokerkit in the same run.

1. Heads-up no-limit Texas hands with a simple (random) strategy: the kernel vs pokerkit
   playing the same kind of hands (random legal actions, board dealt, showdown).
2. Six-player Dilemma hands with strength-based strategies (exact strength at each decision).
3. 1,000 six-player whole Dilemma games through the runner.
Compile time is measured on the first call (a fresh cache compiles; a warm one loads).
Run: ``.venv/bin/python scripts/bench_engine.py [--hands N] [--games N]``; say ``uptime``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

from analysis.engine import make_table
from analysis.engine.games import GameConfig, simulate_games
from analysis.engine.simulate import play_hands
from analysis.runners import LocalBackend

ROOT = Path(__file__).resolve().parents[1]
_COMPILE_PROBE = """
import json, time
t0 = time.perf_counter()
from analysis.engine import make_table
from analysis.engine.games import GameConfig, simulate_games
from analysis.engine.simulate import play_hands
t1 = time.perf_counter()
play_hands(make_table(2, game="holdem", structure="nl", stack=200), ["random"], 100, threads=1)
t2 = time.perf_counter()
simulate_games(GameConfig(strategies=("abc", "maniac", "tight-aggressive")), 8)
t3 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "hands": t2 - t1, "games": t3 - t2}))
"""


def compile_times() -> dict[str, dict[str, float]]:
    """First-call seconds in fresh processes with an empty, then a filled numba cache."""
    out = {}
    with tempfile.TemporaryDirectory(prefix="numba-cache-") as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        for label in ("cold", "warm"):
            proc = subprocess.run([sys.executable, "-c", _COMPILE_PROBE], capture_output=True, text=True,
                                  env=env, cwd=ROOT, check=True)
            out[label] = json.loads(proc.stdout.strip().splitlines()[-1])
    return out


def pokerkit_rate(seconds: float = 2.0) -> float | None:
    try:
        import pokerkit as pk
    except ImportError:
        return None
    auto = (pk.Automation.ANTE_POSTING, pk.Automation.BET_COLLECTION, pk.Automation.BLIND_OR_STRADDLE_POSTING,
            pk.Automation.CARD_BURNING, pk.Automation.HOLE_DEALING, pk.Automation.BOARD_DEALING,
            pk.Automation.HOLE_CARDS_SHOWING_OR_MUCKING, pk.Automation.HAND_KILLING,
            pk.Automation.CHIPS_PUSHING, pk.Automation.CHIPS_PULLING)
    auto += tuple(getattr(pk.Automation, n) for n in ("RUNOUT_COUNT_SELECTION",) if hasattr(pk.Automation, n))
    rng = random.Random(0)
    done = 0
    start = time.perf_counter()
    warnings.simplefilter("ignore")
    while time.perf_counter() - start < seconds:
        st = pk.NoLimitTexasHoldem.create_state(auto, True, 0, (1, 2), 2, (200, 200), 2, mode=pk.Mode.CASH_GAME)
        while st.status:
            r = rng.random()
            if st.checking_or_calling_amount and r < 0.2:
                st.fold()
            elif r > 0.75 and st.can_complete_bet_or_raise_to():
                lo = st.min_completion_betting_or_raising_to_amount
                hi = st.max_completion_betting_or_raising_to_amount
                st.complete_bet_or_raise_to(min(hi, max(lo, (lo + hi) // 4)))
            elif st.can_check_or_call():
                st.check_or_call()
            else:
                break
        done += 1
    return done / (time.perf_counter() - start)


def kernel_rate(table, policies, hands: int, threads: int) -> tuple[float, float]:
    t = time.perf_counter()
    play_hands(table, policies, 1000, seed=99, threads=threads)
    first = time.perf_counter() - t
    t = time.perf_counter()
    play_hands(table, policies, hands, seed=1, threads=threads)
    return hands / (time.perf_counter() - t), first


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--hands", type=int, default=2_000_000)
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--no-compile", action="store_true", help="skip the cold/warm compile probe")
    args = ap.parse_args()
    print(f"load: {os.getloadavg()[0]:.2f} (1 min), cores: {os.cpu_count()}, threads: {args.threads}")
    hu = make_table(2, game="holdem", structure="nl", stack=200)
    kernel_rate(hu, ["random"], 1000, 1)  # compile or load
    rounds = []
    for _ in range(3):  # interleaved, so a change of load hits both sides alike
        pk_rate = pokerkit_rate()
        one, _ = kernel_rate(hu, ["random"], args.hands // 2, 1)
        both, _ = kernel_rate(hu, ["random"], args.hands, args.threads)
        rounds.append((pk_rate, one, both))
    for pk_rate, one, both in rounds:
        line = f"heads-up no-limit, random strategy: kernel {one:,.0f} hands/s on 1 thread, {both:,.0f} on {args.threads}"
        if pk_rate:
            line += f"; pokerkit {pk_rate:,.0f} -> {one / pk_rate:,.0f} x (1 thread), {both / pk_rate:,.0f} x"
        print(line)
    if rounds[0][0]:
        ratios = sorted(both / pk for pk, _, both in rounds)
        print(f"  median ratio {ratios[1]:,.0f} x (target >= 1,000 x)")
    six = make_table(6)
    strats = ["abc", "fold-free-multiway", "tight-aggressive", "calling-station", "maniac", "fold-free-always"]
    rate6, first6 = kernel_rate(six, strats, max(args.hands // 10, 10000), args.threads)
    print(f"six-player Dilemma, strength-based strategies: {rate6:,.0f} hands/s "
          f"(first call {first6:.1f} s; target >= 50,000 on 2 cores)")
    cfg = GameConfig(strategies=tuple(strats), seed=1)
    simulate_games(cfg, 16, backend=LocalBackend(args.threads))  # compile or load
    t = time.perf_counter()
    res = simulate_games(cfg, args.games, backend=LocalBackend(args.threads))
    sec = time.perf_counter() - t
    print(f"{args.games:,} six-player whole games: {sec:.1f} s ({int(res.games['hands'].sum()):,} hands, "
          f"{res.manifest['capped']} capped; target < 60 s)")
    if not args.no_compile:
        for label, t in compile_times().items():
            print(f"first call, {label} cache: import {t['import']:.1f} s, heads-up hands "
                  f"{t['hands']:.1f} s, whole games {t['games']:.1f} s")
    print(f"load after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
