"""Benchmark of the three-handed card-level solver on Dilemma Hold'em river and turn spots (issue 17).

Solves a three-handed river spot (the reference deck unless ``--deck``; by default the
issue's question: the first to act holds 8s7s against two random ranges, pot $120,
980 behind, bank 40/700/500) to a NashConv target in % of the pot, printing a JSON line
per check (iterations, NashConv, seconds) and a final line with the holdings, tree size,
state memory, build and solve seconds, the answer at the root and the peak resident
memory. NashConv is exact (every triple of holdings; on a turn board, every river card too).
A 4-card ``--board`` solves a turn spot (:mod:`analysis.solvers.card_level.turn3`): ``--method
mccfr`` draws ``--per-walk`` river cards per walk from ``--seed``; ``dcfr`` walks every card.

Run: ``taskset -c 0,1 .venv/bin/python scripts/bench_card_solver3.py [--board 4s9h3d6c2d]
[--ranges 8s7s random random] [--target 0.3] [--max-iterations N] [--threads 2]``; say
``uptime`` with the figures (the machine is shared).
"""

from __future__ import annotations

import argparse
import json
import resource
import threading
import time


def main() -> None:
    """Solve one spot and print JSON lines."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--board", default="4s9h3d6c2d")
    ap.add_argument("--ranges", nargs=3, default=["8s7s", "random", "random"])
    ap.add_argument("--pot", type=int, default=120)
    ap.add_argument("--stack", type=int, default=980)
    ap.add_argument("--bank", default="40,700,500")
    ap.add_argument("--bets", default="100%, a")
    ap.add_argument("--raises", default="a")
    ap.add_argument("--deck", default="reference")
    ap.add_argument("--target", type=float, default=0.3, help="NashConv, %% of the pot")
    ap.add_argument("--max-iterations", type=int, default=3000)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--method", default="dcfr", help="dcfr or cfr+; on a turn board (4 cards) also mccfr")
    ap.add_argument("--seed", type=int, default=0, help="mccfr: seed of the river-card draws")
    ap.add_argument("--per-walk", type=int, default=1, help="mccfr: river cards drawn per walk")
    ap.add_argument("--check-every", type=int, default=None, help="iterations between NashConv checks")
    ap.add_argument("--max-seconds", type=float, default=None, help="stop at the first check past this")
    args = ap.parse_args()
    t0 = time.perf_counter()
    import numba

    from analysis.solvers.card_level import CardSpot
    from analysis.solvers.card_level.multiway import MultiwaySolution, MultiwaySolver

    numba.set_num_threads(args.threads)
    spot = CardSpot.multiway(args.board, args.ranges, args.pot, args.stack, args.bets, args.raises, deck=args.deck,
                         bank=args.bank)
    if len(spot.board) == 4:  # a turn spot
        from analysis.solvers.card_level.turn3 import TurnSolution3 as MultiwaySolution  # noqa: N814
        from analysis.solvers.card_level.turn3 import TurnSolver3

        solver = TurnSolver3(spot, args.method, args.seed, args.per_walk)
    else:
        solver = MultiwaySolver(spot, args.method)
    solver.step(0)  # kernels loaded (or compiled) before the clock starts
    t1 = time.perf_counter()
    nash_conv = solver.nash_conv
    t2 = time.perf_counter()

    stop = threading.Event()

    def show(i: int, nc: float) -> None:
        print(json.dumps({"iterations": i, "nash_conv": nc, "pct_pot": 100 * nc / spot.pot,
                          "seconds": time.perf_counter() - t2}), flush=True)
        if args.max_seconds is not None and time.perf_counter() - t2 > args.max_seconds:
            stop.set()

    solver.run(target_pct=args.target, max_iterations=args.max_iterations, progress=show, stop=stop,
               **({} if args.check_every is None else {"check_every": args.check_every}))
    t3 = time.perf_counter()
    free = MultiwaySolution(solver).fold_or_check([()])
    ev = solver.expected_values()
    print(json.dumps({"board": args.board, "ranges": args.ranges, "deck": args.deck, "bank": args.bank,
                      "bets": args.bets, "raises": args.raises, "holdings": [int(x) for x in solver.hands[0]],
                      "classes": int(solver.pay.shape[-1]), "nodes": int(solver.tree.nodes.shape[0]),
                      "state_mb": solver.memory_bytes / 1e6, "build_s": t1 - t0, "first_nash_conv_s": t2 - t1,
                      "solve_s": t3 - t2, "iterations": solver.iterations, "nash_conv": solver.nash_conv,
                      "pct_pot": solver.exploitability_pct, "measure": solver.exploitability_measure,
                      "ev": [float(x) for x in ev], "threads": args.threads, "method": args.method,
                      "seed": args.seed, "per_walk": getattr(solver, "per_walk", None),
                      "root_fold_or_check": free["answer"].value_counts().to_dict(),
                      "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}), flush=True)
    _ = nash_conv


if __name__ == "__main__":
    main()
