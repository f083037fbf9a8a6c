"""Cold start of every command of the README's tour: the first run on an empty numba cache.

Each command runs twice in fresh subprocesses sharing one private, initially empty numba
cache (``NUMBA_CACHE_DIR``; the evaluator's table cache is left as it is): the *cold* run
compiles and writes the cache, the *warm* run loads it. ``cold - warm`` is what the first
run costs a user. Each run also records, through numba's ``numba:compile`` events, the
seconds spent compiling and the kernels that took longest (self time: a kernel's compile
minus the compiles of the kernels it called). Long commands run on a smaller workload than
the README's (the compile work is the same; the table says which).

Run: ``.venv/bin/python scripts/bench_cold_start.py [--only NAME ...] [--markdown]``; say
``uptime``. ``--root DIR`` measures another checkout (e.g. ``git worktree add`` of an older
commit) with this interpreter.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# (name, arguments); {out} is a fresh folder per run, {dir} the shared work folder
COMMANDS: list[tuple[str, str]] = [
    ("eval", "eval As 10h 9c 8d 7s"),
    ("eval holdem", "eval AsKd Th 9c 2s --game holdem"),
    ("categories holdem 7", "categories --game holdem --cards 7"),
    ("categories json", "categories --cards 7 --format json"),
    ("equity exact", 'equity "As Ah" "10d 10c"'),
    ("equity range MC", 'equity "As Ah" "A10s+, 99+" --board "7s 8d 2c" --vs-random 2 --stderr 0.001'),
    ("table starting-hands*", "table starting-hands --game dilemma --opponents 1-9 --stderr 0.01 "
                              "--no-charts --out {out}"),
    ("table streets", "table streets --out {out}"),
    ("deck", "deck --deck reference"),
    ("settle example", "settle examples/hand_example_C.json"),
    ("economy", "economy --deck reference --out {out}"),
    ("study spot threshold", "study spot --hand 88 --street flop --opponents 5 --model threshold --pot 120"),
    ("study spot river", 'study spot --hand "2c 8h" --board "4s 9h 3d 6c 10s" --opponents 2 --pot 40 '
                         "--deck plain"),
    ("study spot check_down", "study spot --hand 88 --policy check_down"),
    ("study fold-vs-check*", "study fold-vs-check --hands AA,72o --opponents 1,3 --pots 120 --stderr 4 "
                             "--no-charts --out {out}"),
    ("game hands", "game hands --out {dir}/hands.jsonl -n 6 --hands 200 -s abc,maniac,fold-free-multiway"),
    ("game replay", "game replay {dir}/hands.jsonl"),
    ("settle hands.jsonl", "settle {dir}/hands.jsonl --line 3"),
    ("game simulate", "game simulate --out {out} --games 200"),
    ("game tournament*", "game tournament --out {out} --games 100"),
    ("game hands holdem fl", "game hands --out {dir}/texas.jsonl -g holdem --structure fl"),
    ("solve kuhn", "solve kuhn -n 10000"),
    ("solve leduc", "solve leduc --method cfr+ -n 2000 --out {out}"),
    ("solve dilemma*", "solve dilemma --players 2 --street flop --buckets 10 -n 100 --out {out}"),
    ("solve spot", 'solve spot --board Td9d6hQc --oop "66+,A8s+,AJo+" --ip "QQ-22,ATo+" --pot 200 '
                   '--stack 900 --bets "50%, a" --raises "100%" --target 0.3'),
    ("solve preflop", "solve preflop --target 0.05 --out {out}"),
    ("brag eval", 'brag eval "7s 7h Kd"'),
    ("brag equity", 'brag equity "7s 7h Kd" --opponents 3'),
    ("brag table*", "brag table --trials 20000 --no-charts --out {out}"),
    ("brag blind*", "brag blind --trials 2000 --no-charts --out {out}"),
    ("bluffjack odds", 'bluffjack odds "Kh 6d"'),
    ("bluffjack hit-stand*", "bluffjack hit-stand --opponents 1,3 --trials 20000 --improve-trials 5000 "
                             "--no-charts --out {out}"),
    ("bluffjack total", 'bluffjack total "Kh 6d"'),
    ("bluffjack table", "bluffjack table --no-charts --out {out}"),
    ("bluffjack hands", "bluffjack hands --out {dir}/bj.jsonl -s solid,bluffer"),
    ("bluffjack replay", "bluffjack replay {dir}/bj.jsonl"),
    ("bluffjack games*", "bluffjack games --out {out} --games 100"),
    ("bluffjack solve*", "bluffjack solve --out {out} --target 0.5 --max-iterations 20 --no-charts "
                         "--no-progress"),
    ("guide --quick", "guide --quick --out {out}"),
]
"""``*``: a smaller workload than the README's line (same kernels)."""

_DRIVER = r"""
import json, os, sys, time
from numba.core import event
stack, rows = [], []
class Timer(event.Listener):
    def on_start(self, ev):
        stack.append([time.perf_counter(), 0.0])
    def on_end(self, ev):
        t0, child = stack.pop()
        took = time.perf_counter() - t0
        if stack:
            stack[-1][1] += took
        f = ev.data["dispatcher"].py_func
        rows.append((f"{f.__module__}.{f.__qualname__}", took - child, len(stack) == 0, took))
event.register("numba:compile", Timer())
def report():
    own = {}
    for name, self_time, top, took in rows:
        own[name] = own.get(name, 0.0) + self_time
    total = sum(took for _, _, top, took in rows if top)
    with open(os.environ["COLD_START_REPORT"], "w") as f:
        json.dump({"compile": total, "compiles": len(rows),
                   "top": sorted(own.items(), key=lambda kv: -kv[1])[:5]}, f)
import atexit
atexit.register(report)
from analysis.cli import main
sys.argv = ["dilemma", *sys.argv[1:]]
main()
"""


def run_once(args: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float, int, dict]:
    """Wall seconds, CPU seconds, exit code and compile report of one command in a fresh
    interpreter (CPU seconds: user + system of the process and its threads, which a loaded
    machine inflates far less than wall time)."""
    report = Path(env["NUMBA_CACHE_DIR"]).parent / "report.json"
    env = {**env, "COLD_START_REPORT": str(report)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", _DRIVER, *args], env=env, cwd=cwd,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    took = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if proc.returncode != 0:
        print(f"  exit {proc.returncode}: {proc.stderr.strip()[-300:]}", file=sys.stderr)
    data = json.loads(report.read_text()) if report.exists() else {}
    report.unlink(missing_ok=True)
    return took, cpu, proc.returncode, data


def measure(name: str, line: str, root: Path, work: Path) -> dict:
    """Cold then warm run of one command with its own empty numba cache."""
    import shlex

    cache = work / "caches" / name.replace(" ", "_").replace("*", "")
    shutil.rmtree(cache, ignore_errors=True)
    (cache / "numba").mkdir(parents=True)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache / "numba"), "PYTHONPATH": str(root)}
    env.pop("NUMBA_NUM_THREADS", None)
    out = {}
    for label in ("cold", "warm"):
        args = shlex.split(line.format(out=work / "out" / f"{cache.name}-{label}", dir=work))
        took, cpu, code, data = run_once(args, env, root)
        out[label] = took
        out[f"{label}_cpu"] = cpu
        out[f"{label}_compile"] = data.get("compile", float("nan"))
        out[f"{label}_code"] = code
        if label == "cold":
            out["top"] = data.get("top", [])
    return out


def load() -> str:
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def table(rows: list[tuple[str, dict]], markdown: bool) -> str:
    head = ("command", "cold s", "warm s", "cold - warm s", "compiling s", "cold CPU s", "warm CPU s",
            "slowest kernels (self s)")
    lines = []
    if markdown:
        lines += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    else:
        lines.append(f"{head[0]:24} {head[1]:>7} {head[2]:>7} {head[3]:>13} {head[4]:>11} {head[5]:>10} "
                     f"{head[6]:>10}  {head[7]}")
    for name, r in rows:
        top = ", ".join(f"{k.rsplit('.', 1)[-1]} {v:.1f}" for k, v in r["top"][:3] if v >= 0.5)
        cells = (name, f"{r['cold']:.1f}", f"{r['warm']:.1f}", f"{r['cold'] - r['warm']:.1f}",
                 f"{r['cold_compile']:.1f}", f"{r['cold_cpu']:.1f}", f"{r['warm_cpu']:.1f}", top)
        if markdown:
            lines.append("| " + " | ".join(cells) + " |")
        else:
            lines.append(f"{cells[0]:24} {cells[1]:>7} {cells[2]:>7} {cells[3]:>13} {cells[4]:>11} "
                         f"{cells[5]:>10} {cells[6]:>10}  {cells[7]}")
    return "\n".join(lines)


def main() -> None:
    """Measure the selected commands and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", help="command names (as in the table) to measure")
    parser.add_argument("--root", type=Path, default=ROOT, help="checkout to measure")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    opts = parser.parse_args()
    chosen = [(n, c) for n, c in COMMANDS if not opts.only or n in opts.only or n.rstrip("*") in opts.only]
    root = opts.root.resolve()
    print(f"load before: {load()}; root {root}; python {sys.executable}", file=sys.stderr)
    rows = []
    with tempfile.TemporaryDirectory(prefix="cold-start-") as tmp:
        work = Path(tmp)
        for name, line in chosen:
            r = measure(name, line, root, work)
            rows.append((name, r))
            print(f"{name:24} cold {r['cold']:6.1f} s  warm {r['warm']:5.1f} s  "
                  f"compiling {r['cold_compile']:5.1f} s  CPU {r['cold_cpu']:5.1f} / {r['warm_cpu']:4.1f} s  "
                  f"(load {load()})", file=sys.stderr)
    print(f"load after: {load()}", file=sys.stderr)
    print(table(rows, opts.markdown))
    if opts.json:
        opts.json.write_text(json.dumps(dict(rows), indent=1))


if __name__ == "__main__":
    main()
