"""Benchmark of the card-level solver beside postflop-solver's ``spotbench``, in the same run.

Both solve the same heads-up Texas Hold'em spots (postflop-solver's README spot:
Td9d6h, its ranges, pot 200, stack 900, bets ``50%, a``, raises ``100%``) to the
same target (% of the pot, checked every 10 iterations by both), each in its own
process pinned to the same cores; the figures are solve seconds (tree build and
compile excluded, reported apart), iterations, exploitability, each player's
expected value, and peak resident memory of the process (``wait4``).

Run: ``.venv/bin/python scripts/bench_card_solver.py [--spots river,turn,flop,flop-wide] [--cores 0,1]
[--peer PATH | --no-peer] [--precision float32]``; the peer defaults to ``$SPOTBENCH`` or
/tmp/postflop-solver/target/release/examples/spotbench (built by
../shared/peers/postflop-solver/build.sh) and is skipped with a note when missing.
Say ``uptime`` with the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_PEER = "/tmp/postflop-solver/target/release/examples/spotbench"
OOP = "66+,A8s+,A5s-A4s,AJo+,K9s+,KQo,QTs+,JTs,96s+,85s+,75s+,65s,54s"
IP = "QQ-22,AQs-A2s,ATo+,K5s+,KJo+,Q8s+,J8s+,T7s+,96s+,86s+,75s+,64s+,53s+"
README_TREE = (OOP, IP, "200", "900", "50%, a", "100%")  # ranges, pot, stack, bets, raises
FULL = "22+,A2+,K2+,Q2+,J2+,T2+,92+,82+,72+,62+,52+,42+,32"
WIDE_TREE = (FULL, FULL, "40", "980", "100%, a", "a")
"""Every holding in both ranges at the Dilemma flop target's depth and bets: a Texas spot of that size."""
SPOTS = {  # name: (flop, turn, river, target % of the pot, tree)
    "river": ("Td9d6h", "Qc", "2s", 0.1, README_TREE),
    "turn": ("Td9d6h", "Qc", "-", 0.3, README_TREE),
    "flop": ("Td9d6h", "-", "-", 0.3, README_TREE),
    "flop-wide": ("Td9d6h", "-", "-", 0.3, WIDE_TREE),
}
_OURS = """
import json, sys, time, resource
t0 = time.perf_counter()
from analysis.solvers.card_level import CardSolver, CardSpot
board, target, threads, precision = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
oop, ip, pot, stack, bets, raises = sys.argv[5:11]
import numba
numba.set_num_threads(threads)
spot = CardSpot.holdem(board, oop, ip, int(pot), int(stack), bets, raises)
solver = CardSolver(spot, precision=precision)
solver.step(0)
_ = solver.exploitability  # kernels loaded (or compiled) before the clock starts
t1 = time.perf_counter()
solver.run(target_pct=target, max_iterations=5000)
t2 = time.perf_counter()
ev = solver.expected_values()
print(json.dumps({"solver": "lab", "build_s": t1 - t0, "iterations": solver.iterations,
                  "exploitability": solver.exploitability, "exploitability_pct_pot": solver.exploitability_pct,
                  "solve_s": t2 - t1, "oop_ev": ev[0], "ip_ev": ev[1], "state_mb": solver.memory_bytes / 1e6,
                  "nodes": int(solver.tree.nodes.shape[0]), "walked_nodes": solver.walked_nodes,
                  "precision": precision}))
"""


def main() -> None:
    """Solve each spot with both solvers and print one JSON line per run."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--spots", default="river,turn,flop")
    ap.add_argument("--cores", default="0,1", help="taskset core list for both solvers")
    ap.add_argument("--peer", default=os.environ.get("SPOTBENCH", DEFAULT_PEER))
    ap.add_argument("--precision", default="float64", choices=["float64", "float32"],
                    help="the lab solver's arithmetic (postflop-solver runs float32)")
    ap.add_argument("--no-peer", action="store_true", help="the lab solver only")
    args = ap.parse_args()
    threads = len(args.cores.split(","))
    peer = Path(args.peer)
    for name in args.spots.split(","):
        flop, turn, river, target, tree = SPOTS[name]
        board = flop + ("" if turn == "-" else turn) + ("" if river == "-" else river)
        if args.no_peer:
            pass
        elif peer.exists():
            rec, rss = _peer_run(peer, (flop, turn, river), tree, target, args.cores)
            print(json.dumps({"spot": name, "rss_mb": round(rss, 1), **rec}), flush=True)
        else:
            print(json.dumps({"spot": name, "peer": f"skipped: {peer} not built"}), flush=True)
        rec, rss = _ours_run(board, tree, target, threads, args.cores, args.precision)
        print(json.dumps({"spot": name, "rss_mb": round(rss, 1), **rec}), flush=True)


def _peer_run(peer: Path, cards: tuple[str, str, str], tree: tuple[str, ...], target: float,
              cores: str) -> tuple[dict, float]:
    return _wait([str(peer), *cards, *tree, str(target), "5000"], cores)


def _ours_run(board: str, tree: tuple[str, ...], target: float, threads: int, cores: str,
              precision: str) -> tuple[dict, float]:
    return _wait([sys.executable, "-c", _OURS, board, str(target), str(threads), precision, *tree], cores)


def _wait(cmd: list[str], cores: str) -> tuple[dict, float]:
    """Run ``cmd`` pinned to ``cores`` and reap it with ``wait4`` for its own peak RSS."""
    proc = subprocess.Popen(["taskset", "-c", cores, *cmd], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, cwd=ROOT)
    out = proc.stdout.read()  # type: ignore[union-attr]
    err = proc.stderr.read()  # type: ignore[union-attr]
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise SystemExit(f"error: {Path(cmd[0]).name} failed ({proc.returncode}): {err.strip()[-300:]}")
    return json.loads(out.strip().splitlines()[-1]), usage.ru_maxrss / 1024


if __name__ == "__main__":
    main()
