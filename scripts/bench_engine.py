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
import os
import random
import time
import warnings

from analysis.engine import make_table
from analysis.engine.games import GameConfig, simulate_games
from analysis.engine.simulate import play_hands
from analysis.runners import LocalBackend


def pokerkit_rate(seconds: float = 5.0) -> float | None:
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
    args = ap.parse_args()
    print(f"load: {os.getloadavg()[0]:.2f} (1 min), cores: {os.cpu_count()}, threads: {args.threads}")
    pk_rate = pokerkit_rate()
    hu = make_table(2, game="holdem", structure="nl", stack=200)
    rate, first = kernel_rate(hu, ["random"], args.hands, args.threads)
    print(f"heads-up no-limit, random strategy: kernel {rate:,.0f} hands/s (first call {first:.1f} s)")
    if pk_rate:
        print(f"  pokerkit {pk_rate:,.0f} hands/s -> {rate / pk_rate:,.0f} x (target >= 1,000 x)")
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


if __name__ == "__main__":
    main()
