"""Benchmark the equity engine against eval7, in one run on this machine.

Run as ``.venv/bin/python scripts/bench_equity.py [--repeat 20] [--mc-deals 30000000]
[--full-tables] [--json PATH]``.

What is measured (warm: every kernel is called once before timing; best of ``--repeat``):

1. Exact heads-up pre-flop enumeration, Hold'em AsAh vs KdKc (1,712,304 boards), through
   the public ``analysis.equity`` (target <= 5 ms) and the kernel alone. Peer: eval7 has
   no pre-flop enumeration (``py_hand_vs_range_exact`` only enumerates the villain's
   range on a complete board; on an empty board it returns 1.0), so the peer is a Python
   loop over the boards calling ``eval7.evaluate``, timed on a slice and scaled.
2. Monte Carlo AhKh vs 5 random hands, Hold'em: deals per second on all numba threads
   and on one (target >= 30 million on 2 cores). Peers: eval7 from Python (``Deck.sample``
   and ``evaluate`` per deal, the brief quotes ~0.28 million), and eval7's own C loop
   ``py_hand_vs_range_monte_carlo`` heads-up (AhKh vs a random hand), next to ours heads-up.
3. Exact starting-hand tables vs one random hand: all 100 Dilemma classes (target <= 10 s)
   and all 169 Hold'em classes (target <= 120 s) on all threads. Peer: eval7
   ``py_all_hands_vs_range`` (Monte Carlo only), its deals per second over all 1,326 combos.
4. With ``--full-tables``: the whole ``starting_hand_table`` (1-9 opponents, stderr 0.001)
   for both games (no charts; ``dilemma table starting-hands`` adds about 15 s of charts).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import numba  # noqa: E402

from analysis.studies.equity import _exact_kernels as K  # noqa: E402
from analysis.studies.equity import equity  # noqa: E402
from analysis.studies.starting_hands import headsup_exact, starting_hand_table  # noqa: E402
from evaluator import parse_cards  # noqa: E402
from evaluator.suits import suit_orbit_weights, suit_permutation_array, suit_permutations_fixing  # noqa: E402
from evaluator.tables import get_tables  # noqa: E402

HOLDEM_RANKS = "23456789TJQKA"
SUITS = "shdc"


def best_of(fn, repeat: int) -> float:
    """Best wall time of ``repeat`` calls (seconds)."""
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def timed(fn) -> tuple[float, float]:
    """(wall seconds, CPU seconds of every thread of this process) of one call.

    On a shared machine the wall time depends on the other jobs; the CPU time
    does not (much): CPU-seconds per unit of work times the cores gives what an
    otherwise idle machine would do, assuming the work scales over the cores.
    """
    w, c = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - w, time.process_time() - c


def with_threads(n: int, fn):
    old = numba.get_num_threads()
    numba.set_num_threads(n)
    try:
        return fn()
    finally:
        numba.set_num_threads(old)


def eval7_cards(ids: list[int]):
    import eval7

    return [eval7.Card(HOLDEM_RANKS[c // 4] + SUITS[c % 4]) for c in ids]


def bench_exact_headsup(repeat: int) -> dict:
    res = equity("As Ah", "Kd Kc", game="holdem")
    assert res.trials == 1_712_304 and round(res.players[0].equity, 4) == 0.8126
    api = best_of(lambda: equity("As Ah", "Kd Kc", game="holdem"), repeat)
    cpu = min(timed(lambda: equity("As Ah", "Kd Kc", game="holdem"))[1] for _ in range(repeat))
    tables = get_tables("holdem").kernel_args
    hands = np.array([parse_cards("AsAh", "holdem"), parse_cards("KdKc", "holdem")], np.uint8)
    avail = np.array([c for c in range(52) if c not in hands.ravel()], np.uint8)
    board = np.zeros(5, np.uint8)
    need = np.array([4, 4, 4, 4], np.int64)

    perms = suit_permutation_array(suit_permutations_fixing(hands))
    identity = perms[:1]

    def kernel():  # what equity() runs: rank multisets, flush-board classes, suit orbits
        fb, fw = K.flush_board_classes(avail, need, 5, suit_orbit_weights(perms), 13)
        return K.exact_fixed_split(hands, board, 0, avail, fb, fw, 13, tables)

    def kernel_all_flush_boards():  # the split before suit orbits and flush-board classes
        fb = K.flush_boards(avail, need, 5)
        return K.exact_fixed_split(hands, board, 0, avail, fb, np.ones(len(fb), np.int64), 13, tables)

    kernel()
    kernel_all_flush_boards()
    split = best_of(kernel, repeat)
    split_all = best_of(kernel_all_flush_boards, repeat)
    K.exact_fixed(hands, board, 0, avail, identity, tables)
    K.exact_fixed(hands, board, 0, avail, perms, tables)
    plain = best_of(lambda: K.exact_fixed(hands, board, 0, avail, identity, tables), max(3, repeat // 4))
    orbits = best_of(lambda: K.exact_fixed(hands, board, 0, avail, perms, tables), max(3, repeat // 4))
    out = {"api_ms": api * 1e3, "api_cpu_ms_all_threads": cpu * 1e3,
           "api_projected_ms_idle": cpu * 1e3 / (os.cpu_count() or 1), "kernel_split_ms": split * 1e3,
           "kernel_split_every_flush_board_ms": split_all * 1e3,
           "kernel_every_board_ms": plain * 1e3, "kernel_every_orbit_ms": orbits * 1e3,
           "equity": res.players[0].equity}
    try:
        import itertools

        import eval7

        h1, h2 = eval7_cards(list(hands[0])), eval7_cards(list(hands[1]))
        deck = eval7_cards(list(avail))
        n = 100_000
        boards = itertools.islice(itertools.combinations(deck, 5), n)
        t = time.perf_counter()
        for b in boards:
            b = list(b)
            eval7.evaluate(h1 + b)
            eval7.evaluate(h2 + b)
        dt = time.perf_counter() - t
        out["eval7_python_loop_ms_scaled"] = dt / n * 1_712_304 * 1e3
        hero = eval7_cards(list(hands[0]))
        out["eval7_hand_vs_range_exact_empty_board"] = eval7.py_hand_vs_range_exact(
            hero, eval7.HandRange("KdKc"), [])
    except ImportError:  # pragma: no cover
        out["eval7"] = "not installed"
    return out


def bench_monte_carlo(deals: int) -> dict:
    equity("Ah Kh", vs_random=5, game="holdem", trials=100_000)
    out = {}
    for label, threads in (("all_threads", numba.config.NUMBA_NUM_THREADS), ("one_thread", 1)):
        n = deals if threads > 1 else deals // 2
        holder = {}

        def run(n=n, holder=holder):
            holder["res"] = equity("Ah Kh", vs_random=5, game="holdem", trials=n, seed=1)

        wall, cpu = with_threads(threads, lambda run=run: timed(run))
        res = holder["res"]
        out[f"deals_per_s_{label}"] = n / wall
        out[f"deals_per_cpu_s_{label}"] = n / cpu
        out[f"threads_{label}"] = threads
    out["projected_deals_per_s_idle_all_cores"] = out["deals_per_cpu_s_all_threads"] * (os.cpu_count() or 1)
    out["hero_equity"] = res.players[0].equity
    hu = 4_000_000
    equity("Ah Kh", "random", game="holdem", trials=100_000)
    t = time.perf_counter()
    equity("Ah Kh", "random", game="holdem", trials=hu)
    out["ours_headsup_deals_per_s"] = hu / (time.perf_counter() - t)
    try:
        import random

        import eval7

        deck = eval7.Deck()
        hero = eval7_cards(parse_cards("AhKh", "holdem"))
        rest = [c for c in deck.cards if c not in hero]
        random.seed(1)
        n = 100_000
        t = time.perf_counter()
        for _ in range(n):
            cards = random.sample(rest, 15)
            board = cards[:5]
            eval7.evaluate(hero + board)
            for q in range(5):
                eval7.evaluate(cards[5 + 2 * q: 7 + 2 * q] + board)
        out["eval7_python_deals_per_s"] = n / (time.perf_counter() - t)
        its = 2_000_000
        t = time.perf_counter()
        eval7.py_hand_vs_range_monte_carlo(hero, eval7.HandRange("22+,A2+,K2+,Q2+,J2+,T2+,92+,82+,72+,62+,52+,42+,32"), [], its)
        out["eval7_c_headsup_deals_per_s"] = its / (time.perf_counter() - t)
    except ImportError:  # pragma: no cover
        out["eval7"] = "not installed"
    return out


def bench_tables(full: bool) -> dict:
    out = {}
    for game in ("dilemma", "holdem"):
        headsup_exact(game)  # warm (kernel compile or cache load, canonical boards)
        holder = {}
        wall, cpu = timed(lambda game=game, holder=holder: holder.update(df=headsup_exact(game)))
        out[f"{game}_exact_vs1_s"] = wall
        out[f"{game}_exact_vs1_cpu_s"] = cpu
        out[f"{game}_exact_vs1_projected_s_idle"] = cpu / (os.cpu_count() or 1)
        out[f"{game}_classes"] = len(holder["df"])
    try:
        import eval7

        its = 200
        t = time.perf_counter()
        eval7.py_all_hands_vs_range(eval7.HandRange("22+,A2+,K2+,Q2+,J2+,T2+,92+,82+,72+,62+,52+,42+,32"),
                                    eval7.HandRange("22+,A2+,K2+,Q2+,J2+,T2+,92+,82+,72+,62+,52+,42+,32"),
                                    [], its)
        dt = time.perf_counter() - t
        out["eval7_all_hands_deals_per_s"] = 1326 * its / dt
        out["eval7_all_hands_s_for_stderr_0.001"] = dt / its * 250_000 / 6  # 6+ combos a class
    except ImportError:  # pragma: no cover
        pass
    if full:
        for game in ("dilemma", "holdem"):
            holder = {}
            wall, cpu = timed(lambda game=game, holder=holder: holder.update(r=starting_hand_table(game, "1-9")))
            out[f"{game}_full_table_1to9_s"] = wall
            out[f"{game}_full_table_1to9_cpu_s"] = cpu
            out[f"{game}_full_table_max_stderr"] = float(holder["r"].frame["stderr"].max())
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--mc-deals", type=int, default=30_000_000)
    ap.add_argument("--full-tables", action="store_true")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    info = {
        "python": platform.python_version(), "numba": numba.__version__,
        "threads": numba.config.NUMBA_NUM_THREADS, "cpus": os.cpu_count(),
        "load_avg": os.getloadavg() if hasattr(os, "getloadavg") else None,
    }
    print(f"machine: {info}")
    result = {"machine": info}
    steps = [("exact_headsup", lambda: bench_exact_headsup(args.repeat)),
             ("monte_carlo", lambda: bench_monte_carlo(args.mc_deals)),
             ("tables", lambda: bench_tables(args.full_tables))]
    for name, fn in steps:
        r = fn()
        result[name] = r
        print(f"\n[{name}]")
        for k, v in r.items():
            print(f"  {k:<40} {v:,.3f}" if isinstance(v, float) else f"  {k:<40} {v}")
    if args.json:
        args.json.write_text(json.dumps(result, indent=2, default=float) + "\n")


if __name__ == "__main__":
    main()
