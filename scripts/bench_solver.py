"""Benchmark the equilibrium solvers on Leduc hold'em, next to open_spiel's C++ CFR+.

Run as ``.venv/bin/python scripts/bench_solver.py [--iterations 1000] [--repeat 3]
[--no-open-spiel] [--no-compile] [--json FILE]``.

What is measured (numba on one thread, ``numba.set_num_threads(1)``; the kernels
are serial anyway):

* compile time of the solver kernels in a fresh process, measured apart from the
  runs: **cold** (an empty ``NUMBA_CACHE_DIR``: numba compiles everything) and
  **warm** (the same cache directory again: machine code loaded from disk); the
  import and the Leduc tree build are timed separately;
* Leduc CFR+ (and CFR, DCFR, external-sampling MCCFR) iterations per second,
  warm, best of ``--repeat`` runs of ``--iterations`` iterations, wall and CPU time;
* the exploitability (NashConv / 2, in chips) of the CFR+ average strategy after
  ``--iterations`` iterations, and the time of one exact evaluation (both best
  responses and the on-policy values);
* the Dilemma abstraction targets of issue 12 (``--only-dilemma``, ``--no-dilemma``):
  heads-up flop, 10 buckets per street, DCFR until NashConv < 0.5% of the pot
  (exact; time to target on 2 cores, with the machine load), and the three-handed
  flop abstraction under MCCFR (the change of the average strategy per 1,000
  iterations);
* open_spiel's C++ ``pyspiel.CFRPlusSolver`` on ``leduc_poker`` for the same
  number of iterations, its speed and ``pyspiel.exploitability`` (the same
  definition), when ``pyspiel`` is importable (``pip install open_spiel``, the
  ``bench`` extra).
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

import numba

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from analysis.core.io import write_json  # noqa: E402
from analysis.solvers import Solver, SolverSettings, leduc  # noqa: E402

_COMPILE_PROBE = """
import json, time
t0 = time.perf_counter()
from analysis.solvers import Solver, SolverSettings, leduc
t1 = time.perf_counter()
tree = leduc()
t2 = time.perf_counter()
s = Solver(tree, SolverSettings("cfr+"))
s.run(1)
s.evaluate()
t3 = time.perf_counter()
m = Solver(tree, SolverSettings("mccfr"))
m.run(1)
t4 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "tree": t2 - t1, "cfr+br": t3 - t2, "mccfr": t4 - t3}))
"""


_DILEMMA_PROBE = """
import json, time
t0 = time.perf_counter()
from analysis.solvers.abstracted import DilemmaSpec, build_game, solve_dilemma, reach_of
t1 = time.perf_counter()
g2 = build_game(DilemmaSpec(players=2, street="river", buckets=2, sizes="allin", deals=200))
_ = g2.matrices
t2 = time.perf_counter()
r2 = solve_dilemma(g2, "dcfr", 1)
reach_of(r2)
t3 = time.perf_counter()
g3 = build_game(DilemmaSpec(players=3, street="river", buckets=2, sizes="allin", deals=200))
r3 = solve_dilemma(g3, "mccfr", 1)
reach_of(r3)
t4 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "deals+matrices": t2 - t1, "vector cfr+br+reach": t3 - t2,
                  "mccfr+deal reach": t4 - t3}))
"""


def dilemma_compile_times() -> dict[str, dict[str, float]]:
    """First-call times of the Dilemma kernels in fresh processes, empty then filled cache."""
    out = {}
    with tempfile.TemporaryDirectory(prefix="numba-cache-") as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        for label in ("cold", "warm"):
            proc = subprocess.run([sys.executable, "-c", _DILEMMA_PROBE], capture_output=True,
                                  text=True, env=env, cwd=ROOT, check=True)
            out[label] = json.loads(proc.stdout.strip().splitlines()[-1])
    return out


def _timed(fn) -> tuple[float, float]:
    w, c = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - w, time.process_time() - c


def compile_times() -> dict[str, dict[str, float]]:
    """First-call times in fresh processes with an empty, then a filled numba cache."""
    out = {}
    with tempfile.TemporaryDirectory(prefix="numba-cache-") as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache, "NUMBA_NUM_THREADS": "1"}
        for label in ("cold", "warm"):
            proc = subprocess.run([sys.executable, "-c", _COMPILE_PROBE], capture_output=True,
                                  text=True, env=env, cwd=ROOT, check=True)
            out[label] = json.loads(proc.stdout.strip().splitlines()[-1])
    return out


def solver_speed(iterations: int, repeat: int) -> dict[str, dict[str, float]]:
    """Warm iterations per second of every method on Leduc; CFR+'s exploitability after the run."""
    tree = leduc()
    out = {}
    for method, n in (("cfr+", iterations), ("cfr", iterations), ("dcfr", iterations),
                      ("mccfr", 20 * iterations)):
        Solver(tree, SolverSettings(method)).run(1)  # compile or load outside the timing
        best = None
        for _ in range(repeat):
            s = Solver(tree, SolverSettings(method))
            wall, cpu = _timed(lambda s=s, n=n: s.run(n))
            if best is None or wall < best[0]:
                best = (wall, cpu, s)
        wall, cpu, s = best
        row = {"iterations": n, "seconds": wall, "cpu_seconds": cpu, "it_per_s": n / wall,
               "it_per_cpu_s": n / cpu if cpu > 0 else float("nan")}
        pv = s.evaluate()  # the first call also loads the best-response kernels
        eval_wall, _ = _timed(s.evaluate)
        row.update(exploitability=pv.exploitability, nash_conv=pv.nash_conv,
                   evaluation_seconds=eval_wall)
        out[method] = row
    return out


def open_spiel_speed(iterations: int) -> dict[str, float] | None:
    """open_spiel's C++ CFR+ on leduc_poker: iterations per second and exploitability."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("leduc_poker")
    solver = pyspiel.CFRPlusSolver(game)

    def run() -> None:
        for _ in range(iterations):
            solver.evaluate_and_update_policy()

    wall, cpu = _timed(run)
    t = time.perf_counter()
    expl = pyspiel.exploitability(game, solver.average_policy())
    return {"iterations": iterations, "seconds": wall, "cpu_seconds": cpu,
            "it_per_s": iterations / wall, "exploitability": expl,
            "evaluation_seconds": time.perf_counter() - t,
            "version": getattr(pyspiel, "__version__", "?")}


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def dilemma_heads_up(buckets: int, sizes: str, raise_cap: int, deals: int, seconds: float,
                     method: str) -> dict:
    """Heads-up Dilemma flop abstraction: build times, then DCFR until NashConv < 0.5% of the
    pot or ``seconds`` of solving, with NashConv (exact) every 100 iterations."""
    from analysis.solvers.abstracted import DilemmaSpec, build_game, solve_dilemma

    spec = DilemmaSpec(players=2, street="flop", buckets=buckets, sizes=sizes, raise_cap=raise_cap,
                       deals=deals)
    row: dict = {"abstraction": spec.describe(), "load_before": _load()}
    t = time.perf_counter()
    game = build_game(spec)
    row["deals_seconds"] = time.perf_counter() - t
    t = time.perf_counter()
    _ = game.matrices
    row["matrices_seconds"] = time.perf_counter() - t
    row["tree"] = game.tree.counts()
    target = 0.005 * spec.pot
    started = time.perf_counter()
    trace = []

    def check(i, n, nc, change):
        trace.append((i, nc, time.perf_counter() - started))
        print(f"    {i:>6} it  NashConv {nc:8.4f} chips ({100 * nc / spec.pot:6.3f}% pot)  "
              f"{time.perf_counter() - started:7.1f} s  load {_load()}", flush=True)
        if time.perf_counter() - started > seconds:
            raise TimeoutError

    with contextlib.suppress(TimeoutError):  # the time limit
        solve_dilemma(game, method, 100_000, target=target, check_every=100, check=check)
    row.update(method=method, trace=trace, target=target, load_after=_load(),
               reached=bool(trace and trace[-1][1] <= target),
               seconds_to_target=trace[-1][2] if trace and trace[-1][1] <= target else None,
               iterations=trace[-1][0] if trace else 0, nash_conv=trace[-1][1] if trace else None)
    return row


def dilemma_three_handed(buckets: int, sizes: str, raise_cap: int, deals: int, iterations: int,
                         every: int) -> dict:
    """Three-handed flop abstraction, MCCFR: speed and the change of the average strategy per
    1,000 iterations (mean absolute change over visited information-set actions)."""
    from analysis.solvers.abstracted import DilemmaSpec, build_game, solve_dilemma

    spec = DilemmaSpec(players=3, street="flop", buckets=buckets, sizes=sizes, raise_cap=raise_cap,
                       deals=deals)
    row: dict = {"abstraction": spec.describe(), "load_before": _load()}
    t = time.perf_counter()
    game = build_game(spec)
    row["deals_seconds"] = time.perf_counter() - t
    row["tree"] = game.tree.counts()
    r = solve_dilemma(game, "mccfr", iterations, check_every=every, seed=0)
    row.update(history=r.history[["iteration", "avg_change_per_1000", "seconds"]].values.tolist(),
               it_per_s=r.iterations / r.seconds, load_after=_load())
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--iterations", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-open-spiel", action="store_true")
    ap.add_argument("--no-compile", action="store_true")
    ap.add_argument("--json", type=Path, default=None, help="also write the figures here")
    ap.add_argument("--no-dilemma", action="store_true", help="skip the Dilemma abstraction targets")
    ap.add_argument("--only-dilemma", action="store_true", help="only the Dilemma abstraction targets")
    ap.add_argument("--hu-sizes", default="1,allin", help="heads-up target: bet sizes")
    ap.add_argument("--hu-buckets", type=int, default=10)
    ap.add_argument("--hu-raise-cap", type=int, default=2)
    ap.add_argument("--hu-deals", type=int, default=1_000_000)
    ap.add_argument("--hu-method", default="dcfr")
    ap.add_argument("--hu-seconds", type=float, default=600.0, help="time limit of the heads-up run")
    ap.add_argument("--three-buckets", type=int, default=5)
    ap.add_argument("--three-iterations", type=int, default=2_000_000)
    args = ap.parse_args()
    if args.only_dilemma:
        run_dilemma(args)
        return
    numba.set_num_threads(1)
    info = f"{platform.processor() or platform.machine()}, {os.cpu_count()} cpus, " \
           f"python {platform.python_version()}, numba {numba.__version__}"
    print(f"machine: {info}")
    tree = leduc()
    print(f"leduc: {tree.counts()}")
    results: dict = {"machine": info}
    if not args.no_compile:
        results["compile"] = compile_times()
        print("\n[compile, fresh process, seconds]")
        for label, row in results["compile"].items():
            print(f"  {label:<5} " + "  ".join(f"{k} {v:7.3f}" for k, v in row.items()))
    results["lab"] = solver_speed(args.iterations, args.repeat)
    print(f"\n[leduc, warm, one thread, best of {args.repeat}]")
    for method, row in results["lab"].items():
        print(f"  {method:<6} {row['iterations']:>6} it  {row['it_per_s']:>10,.0f} it/s "
              f"({row['it_per_cpu_s']:>10,.0f} it/cpu-s)  exploitability {row['exploitability']:.4e}"
              f"  (one evaluation {1e3 * row['evaluation_seconds']:.2f} ms)")
    if not args.no_open_spiel:
        os_row = open_spiel_speed(args.iterations)
        results["open_spiel"] = os_row
        if os_row is None:
            print("\nopen_spiel: not importable (pip install open_spiel)")
        else:
            print(f"\n[open_spiel {os_row['version']} C++ CFRPlusSolver, leduc_poker]")
            print(f"  cfr+   {os_row['iterations']:>6} it  {os_row['it_per_s']:>10,.1f} it/s  "
                  f"exploitability {os_row['exploitability']:.4e}  "
                  f"(one evaluation {1e3 * os_row['evaluation_seconds']:.1f} ms)")
            ratio = results["lab"]["cfr+"]["it_per_s"] / os_row["it_per_s"]
            print(f"  lab CFR+ / open_spiel CFR+ speed: {ratio:,.0f}x")
    if not args.no_dilemma:
        results["dilemma"] = run_dilemma(args)
    if args.json:
        write_json(args.json, results)


def run_dilemma(args) -> dict:
    """The issue's targets on 2 cores (numba and BLAS threads as the machine gives them)."""
    numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
    out = {}
    if not args.no_compile:
        out["compile"] = dilemma_compile_times()
        print(f"\n[dilemma kernels: compile, fresh process, seconds; load {_load()}]")
        for label, row in out["compile"].items():
            print(f"  {label:<5} " + "  ".join(f"{k} {v:7.3f}" for k, v in row.items()))
    print(f"\n[dilemma heads-up flop, {args.hu_buckets} buckets, sizes {args.hu_sizes}, "
          f"raise cap {args.hu_raise_cap}, {args.hu_deals:,} deals, {args.hu_method}; load {_load()}]")
    hu = dilemma_heads_up(args.hu_buckets, args.hu_sizes, args.hu_raise_cap, args.hu_deals,
                          args.hu_seconds, args.hu_method)
    print(f"  deals {hu['deals_seconds']:.1f} s, payoff matrices {hu['matrices_seconds']:.1f} s, "
          f"tree {hu['tree']}")
    if hu["reached"]:
        print(f"  NashConv {hu['nash_conv']:.4f} < {hu['target']:.2f} chips (0.5% of the pot) after "
              f"{hu['iterations']} iterations, {hu['seconds_to_target']:.1f} s of solving "
              f"(+{hu['deals_seconds'] + hu['matrices_seconds']:.1f} s to build); load {hu['load_after']}")
    else:
        print(f"  target not reached in {args.hu_seconds:.0f} s: NashConv {hu['nash_conv']} after "
              f"{hu['iterations']} iterations; load {hu['load_after']}")
    out["heads_up"] = hu
    print(f"\n[dilemma three-handed flop, {args.three_buckets} buckets, sizes 1,allin, MCCFR "
          f"{args.three_iterations:,} iterations; load {_load()}]")
    three = dilemma_three_handed(args.three_buckets, "1,allin", 2, 400_000, args.three_iterations,
                                 args.three_iterations // 10)
    for it, change, sec in three["history"]:
        print(f"  {int(it):>9,} it  average-strategy change per 1,000 it {change:.3g}  {sec:6.1f} s")
    print(f"  {three['it_per_s']:,.0f} it/s; tree {three['tree']}; load {three['load_after']}")
    out["three_handed"] = three
    return out


if __name__ == "__main__":
    main()
