"""Benchmark of the card-level solver on Dilemma Hold'em spots (issue 17's targets).

Solves a heads-up Dilemma Hold'em spot (random ranges, the reference deck unless
``--deck``, pot 40 and 980 behind: both players in for the 10/20 blinds with
$1,000) to an exploitability target in % of the pot (the mean best-response gain,
NashConv / 2, as postflop-solver's; ``--measure nash_conv`` reads the target on NashConv),
printing a JSON line per check (iterations, exploitability, NashConv, seconds) and a final line with the tree size, state memory,
build and solve seconds and the peak resident memory of the process. No peer
exists for this game (postflop-solver plays Texas Hold'em only).

Run: ``taskset -c 0,1 .venv/bin/python scripts/bench_card_solver_dilemma.py --board 4s9h3d6c
[--bets "100%, a"] [--raises a] [--target 0.3] [--max-iterations N] [--threads 2] [--method dcfr] [--precision float32] [--schedule adaptive]
[--perturb 3e-15]``; say
``uptime`` with the figures (the machine is shared).
"""

from __future__ import annotations

import argparse
import json
import resource
import time


def main() -> None:
    """Solve one spot and print JSON lines."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--board", default="4s9h3d6c")
    ap.add_argument("--oop", default="random")
    ap.add_argument("--ip", default="random")
    ap.add_argument("--pot", type=int, default=40)
    ap.add_argument("--stack", type=int, default=980)
    ap.add_argument("--bets", default="100%, a")
    ap.add_argument("--raises", default="a")
    ap.add_argument("--deck", default="reference")
    ap.add_argument("--target", type=float, default=0.3, help="%% of the pot")
    ap.add_argument("--measure", default="mean", choices=["mean", "nash_conv"],
                    help="what the target reads: the mean best-response gain (NashConv / 2) or NashConv")
    ap.add_argument("--max-iterations", type=int, default=3000)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--method", default="dcfr", help="dcfr or cfr+")
    ap.add_argument("--precision", default="float64", choices=["float64", "float32"],
                    help="the solver's arithmetic (float64, the default, or float32)")
    ap.add_argument("--schedule", default="fixed", choices=["fixed", "adaptive"],
                    help="exploitability checks every 10 iterations, or fewer far from the target")
    ap.add_argument("--perturb", type=float, default=0.0,
                    help="multiply every payoff by 1 + PERTURB (a few 1e-15: how much a run's iterations to the "
                         "target owe to rounding)")
    args = ap.parse_args()
    t0 = time.perf_counter()
    import numba

    from analysis.solvers.card_level import CardSolver, CardSpot

    numba.set_num_threads(args.threads)
    spot = CardSpot.dilemma(args.board, args.oop, args.ip, args.pot, args.stack, args.bets, args.raises,
                        deck=args.deck)
    solver = CardSolver(spot, args.method, precision=args.precision)
    if args.perturb:
        from analysis.solvers.card_level import _kernels as K

        solver._coefs[K.C_INV_PAIRS] *= 1.0 + args.perturb  # every terminal's payoff carries this factor
    solver.step(0)
    _ = solver.exploitability  # kernels loaded (or compiled) before the clock starts
    t1 = time.perf_counter()

    def show(i: int, expl: float) -> None:
        print(json.dumps({"iterations": i, "exploitability": expl, "nash_conv": 2 * expl,
                          "pct_pot": 100 * expl / spot.pot, "seconds": time.perf_counter() - t1}), flush=True)

    target = args.target / 2 if args.measure == "nash_conv" else args.target
    solver.run(target_pct=target, max_iterations=args.max_iterations, progress=show,
               schedule=args.schedule)
    t2 = time.perf_counter()
    ev = solver.expected_values()
    print(json.dumps({"board": args.board, "deck": args.deck, "bets": args.bets, "raises": args.raises,
                      "holdings": [int(x) for x in solver.tables.n_hands], "classes": solver.tables.n_classes,
                      "nodes": int(solver.tree.nodes.shape[0]), "walked_nodes": solver.walked_nodes,
                      "state_mb": solver.memory_bytes / 1e6,
                      "build_s": t1 - t0, "solve_s": t2 - t1, "iterations": solver.iterations,
                      "exploitability": solver.exploitability, "pct_pot": solver.exploitability_pct,
                      "nash_conv": solver.nash_conv, "measure": args.measure, "target": args.target,
                      "oop_ev": ev[0], "ip_ev": ev[1], "threads": args.threads, "method": args.method, "precision": args.precision,
                      "schedule": args.schedule, "perturb": args.perturb, "checks": len(solver.history),
                      "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}), flush=True)


if __name__ == "__main__":
    main()
