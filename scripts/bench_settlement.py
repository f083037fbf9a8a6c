"""Benchmark the numba settlement core and the board economics study.

Run as ``.venv/bin/python scripts/bench_settlement.py [--hands 262144] [--repeat 5]
[--seed 2024] [--deck reference] [--no-cli]``.

What is measured:

* settled hands per second of :func:`analysis.dilemma.settlement._kernel.settle_core` on seeded
  random **4-player** end states (random fold streets and last round, side pots from
  random contributions, random stacks including all-ins, small random bank stacks so
  tier crossings, short payments and bankruptcies happen, random blind level and
  dealer), reference deck, default rules; warm, best of ``--repeat``:
  - ``core``: scores precomputed, only the settlement;
  - ``score+core``: the kernel also evaluates every live hand (7 cards) first;
  each on one thread (``settle_batch_serial``) and on all numba threads (``settle_batch``).
* the economy study ``board_economy(deck)`` in-process (warm), and the whole CLI
  ``dilemma economy --deck DECK --out TMP`` as a subprocess (wall clock, including
  Python start-up, imports, tables, charts).
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numba
import numpy as np
from numba import njit, prange

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from analysis.dilemma.decks import load_deck  # noqa: E402
from analysis.dilemma.economy import board_economy  # noqa: E402
from analysis.dilemma.settlement import HandState, PlayerState, Rules, settle  # noqa: E402
from analysis.dilemma.settlement import _kernel as K  # noqa: E402
from analysis.dilemma.settlement import layout as L  # noqa: E402
from evaluator.tables import get_tables  # noqa: E402

N_PLAYERS = 4


@njit(cache=True)
def random_end_states(seed, m, n, players, n_seats, board, table):
    """Fill ``m`` random legal end states of ``n``-player hands (numba's seeded RNG, one thread):
    random fold streets, live players all matched the same call unless all-in (15%) for less,
    folders put in at most that, random stacks, bank stacks, blind level and dealer."""
    np.random.seed(seed)
    deck = np.arange(40)
    for h in range(m):
        for k in range(5 + 2 * n):  # partial shuffle: the board and the hole cards
            j = k + np.random.randint(0, 40 - k)
            deck[k], deck[j] = deck[j], deck[k]
        last = np.random.randint(0, 4)
        n_live = 0
        for i in range(n):
            if np.random.random() < 0.5:
                players[h, i, L.P_FOLD] = -1
                n_live += 1
            else:
                players[h, i, L.P_FOLD] = np.random.randint(0, last + 1)
        if n_live == 0:
            players[h, np.random.randint(0, n), L.P_FOLD] = -1
            n_live = 1
        nb = 5 if n_live >= 2 else (0, 3, 4, 5)[last]
        call = np.random.randint(1, 40) * 10  # what every player who was not all-in put in
        top = 0
        for i in range(n):
            stack = np.random.randint(0, 150) * 10
            if players[h, i, L.P_FOLD] < 0:
                if np.random.random() < 0.15:  # all-in for at most the call
                    stack = 0
                    put_in = np.random.randint(1, call // 10 + 1) * 10
                else:
                    put_in = call
                if put_in > top:
                    top = put_in
            else:
                put_in = np.random.randint(0, call // 10 + 1) * 10
                if stack == 0 and put_in == 0:
                    stack = 10
            players[h, i, L.P_STACK] = stack
            players[h, i, L.P_IN] = put_in
        for i in range(n):
            if players[h, i, L.P_IN] > top:
                players[h, i, L.P_IN] = top  # a folder never put in more than the live players
            players[h, i, L.P_HOLE0] = deck[5 + 2 * i]
            players[h, i, L.P_HOLE1] = deck[6 + 2 * i]
            players[h, i, L.P_SCORE] = -1
        for b in range(5):
            board[h, 0, b] = deck[b]
            board[h, 1, b] = (1, 1, 1, 2, 3)[b]
        n_seats[h] = n
        table[h, L.T_BANK1] = np.random.randint(0, 31) * 10
        table[h, L.T_BANK2] = np.random.randint(0, 71) * 10 if np.random.random() < 0.9 else 0
        table[h, L.T_BANK3] = np.random.randint(0, 51) * 10 if np.random.random() < 0.9 else 0
        # a bank state play can reach (RULES §1.8): an empty bank empties the ones before it,
        # the bank is never all empty, and the blinds are at least the level the bank implies
        if table[h, L.T_BANK3] == 0:
            table[h, L.T_BANK1] = 0
            table[h, L.T_BANK2] = 0
            table[h, L.T_BANK3] = 10
        if table[h, L.T_BANK2] == 0:
            table[h, L.T_BANK1] = 0
        floor = (table[h, L.T_BANK1] == 0) + (table[h, L.T_BANK2] == 0)
        table[h, L.T_LEVEL] = max(np.random.randint(0, 3), floor)
        table[h, L.T_LAST] = last
        table[h, L.T_DEALER] = np.random.randint(0, n)
        table[h, L.T_NBOARD] = nb


@njit(cache=True)
def settle_block(
    players, n_seats, board, table, deck, rules, eval_tables, out, lo, hi, reps, score
):
    """Settle hands ``lo:hi`` ``reps`` times: a cache-resident block, as inside a simulation."""
    hand = np.zeros(7, np.uint8)
    acc = 0
    for _ in range(reps):
        for h in range(lo, hi):
            if score:
                K.score_players(players[h], n_seats[h], board[h], table[h], eval_tables, hand)
            acc += K.settle_core(players[h], n_seats[h], board[h], table[h], deck, rules, out[h])
    return acc


@njit(cache=True, parallel=True)
def settle_blocks(
    players, n_seats, board, table, deck, rules, eval_tables, out, block, reps, score
):
    """One cache-resident block per thread (``block`` hands each), settled ``reps`` times."""
    n_blocks = players.shape[0] // block
    acc = 0
    for b in prange(n_blocks):
        acc += settle_block(
            players,
            n_seats,
            board,
            table,
            deck,
            rules,
            eval_tables,
            out,
            b * block,
            (b + 1) * block,
            reps,
            score,
        )
    return acc


def best_of(fn, repeat: int) -> float:
    """Best wall time of ``repeat`` calls."""
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1 << 18)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--deck", default="reference")
    parser.add_argument("--block", type=int, default=1024, help="cache-resident states per thread")
    parser.add_argument("--no-cli", action="store_true", help="skip the CLI subprocess timing")
    args = parser.parse_args()

    deck = load_deck(args.deck)
    rules = Rules()
    tables = get_tables("dilemma").kernel_args
    m = args.hands
    players = np.zeros((m, N_PLAYERS, L.N_PCOLS), np.int64)
    n_seats = np.zeros(m, np.int64)
    board = np.zeros((m, 2, 5), np.int64)
    table = np.zeros((m, L.N_TCOLS), np.int64)
    out = np.zeros((m, L.N_OUT), np.int64)
    random_end_states(args.seed, m, N_PLAYERS, players, n_seats, board, table)
    threads = numba.get_num_threads()
    print(
        f"python {platform.python_version()}, numba {numba.__version__}, {threads} numba threads, "
        f"{os.cpu_count()} cpus; {m:,} random {N_PLAYERS}-player end states, deck {deck.label}"
    )

    # score once so the 'core' runs see real scores, then warm every kernel
    K.settle_batch_serial(
        (players, n_seats, board, table), (deck.kernel_args, rules.kernel_args, tables), out, True
    )
    K.settle_batch(
        (players, n_seats, board, table), (deck.kernel_args, rules.kernel_args, tables), out, True
    )
    flags = out[:, L.SO_FLAGS]
    share = {
        "showdown": np.mean(flags & L.F_SHOWDOWN > 0),
        "river exception": np.mean(flags & L.F_RIVER_EXCEPTION > 0),
        "bank short": np.mean(flags & L.F_SHORT > 0),
        "blinds up": np.mean(flags & L.F_BLINDS_UP > 0),
        "any effect": np.mean(out[:, L.SO_ACTIVE_OPS] > 0),
        "a bankruptcy": np.mean((players[:, :, L.P_ROLE] & L.ROLE_BANKRUPT > 0).any(axis=1)),
    }
    print("end-state mix: " + ", ".join(f"{k} {v:.1%}" for k, v in share.items()))
    total_before = players[:, :, L.P_STACK].sum() + players[:, :, L.P_IN].sum() + table[:, :3].sum()
    total_after = players[:, :, L.P_FINAL].sum() + out[:, :3].sum()
    assert total_before == total_after and players[:, :, L.P_FINAL].min() >= 0

    check = min(m, 2000)
    for h in range(check):  # the generated states are legal and the kernel agrees with settle()
        n = int(n_seats[h])
        state = HandState(
            players=tuple(
                PlayerState(
                    f"P{i + 1}",
                    int(players[h, i, L.P_STACK]),
                    int(players[h, i, L.P_IN]),
                    None if players[h, i, L.P_FOLD] < 0 else int(players[h, i, L.P_FOLD]),
                    (int(players[h, i, L.P_HOLE0]), int(players[h, i, L.P_HOLE1])),
                )
                for i in range(n)
            ),
            board=tuple(int(c) for c in board[h, 0, : table[h, L.T_NBOARD]]),
            last_round=int(table[h, L.T_LAST]),
            bank=tuple(int(x) for x in table[h, :3]),
            blind_level=int(table[h, L.T_LEVEL]),
            dealer=int(table[h, L.T_DEALER]),
        )
        slow = settle(state, deck, rules)
        assert slow.stacks == tuple(int(x) for x in players[h, :n, L.P_FINAL])
        assert slow.bank == tuple(int(x) for x in out[h, :3])
    print(f"readable path agrees with the kernel on the first {check:,} states")

    d_args, r_args = deck.kernel_args, rules.kernel_args
    block, reps = args.block, max(1, m // args.block)
    rows = []
    for label, score in (("core", False), ("score+core", True)):
        runs = (
            (
                "in cache",
                "1 thread",
                1,
                block * reps,
                lambda score=score: settle_block(
                    players,
                    n_seats,
                    board,
                    table,
                    d_args,
                    r_args,
                    tables,
                    out,
                    0,
                    block,
                    reps,
                    score,
                ),
            ),
            (
                "in cache",
                f"{threads} threads",
                threads,
                block * reps * threads,
                lambda score=score: settle_blocks(
                    players[: block * threads],
                    n_seats,
                    board,
                    table,
                    d_args,
                    r_args,
                    tables,
                    out,
                    block,
                    reps,
                    score,
                ),
            ),
            (
                "streaming",
                "1 thread",
                1,
                m,
                lambda score=score: K.settle_batch_serial(
                    (players, n_seats, board, table), (d_args, r_args, tables), out, score
                ),
            ),
            (
                "streaming",
                f"{threads} threads",
                threads,
                m,
                lambda score=score: K.settle_batch(
                    (players, n_seats, board, table), (d_args, r_args, tables), out, score
                ),
            ),
        )
        for mode, name, n_threads, hands, fn in runs:
            fn()  # warm
            seconds = best_of(fn, args.repeat)
            rate = hands / seconds
            rows.append((label, mode, name, rate, rate / n_threads, 1e9 / rate * n_threads))
    print()
    print(
        f"in cache: {block:,} distinct states per thread settled {reps} times (state in L1/L2, as in a "
        f"simulation kernel); streaming: all {m:,} states once from RAM (memory-bound)"
    )
    print(
        f"{'work':<12}{'mode':<11}{'threads':<11}{'hands/s':>13}{'per core':>13}{'ns/hand/core':>14}"
    )
    for label, mode, name, rate, per_core, ns in rows:
        print(f"{label:<12}{mode:<11}{name:<11}{rate:>13,.0f}{per_core:>13,.0f}{ns:>14.1f}")

    print()
    board_economy(deck)  # warm (numba cache load / compile)
    seconds = best_of(lambda: board_economy(deck), max(1, args.repeat // 2))
    print(
        f"economy study board_economy({deck.name!r}), in-process, warm: {seconds:.3f} s "
        "(9,880 + 365,560 + 6,580,080 boards with streets)"
    )
    if not args.no_cli:
        exe = Path(sys.executable).with_name("dilemma")
        with tempfile.TemporaryDirectory() as tmp:
            cmd = [str(exe), "economy", "--deck", args.deck, "--out", tmp]
            best = float("inf")
            for _ in range(3):
                t = time.perf_counter()
                subprocess.run(cmd, check=True, capture_output=True)
                best = min(best, time.perf_counter() - t)
        print(
            f"CLI `dilemma economy --deck {args.deck} --out DIR` (tables + charts), wall: {best:.2f} s"
        )


if __name__ == "__main__":
    main()
