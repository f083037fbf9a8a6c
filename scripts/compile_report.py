"""Sum a ``LAB_COMPILE_LOG`` file (see :mod:`evaluator.compile_log`): compile seconds per
kernel (own time, summed over processes), how many processes compiled it, and the total.

Run: ``LAB_COMPILE_LOG=/tmp/compiles.jsonl make test`` (on an empty numba cache), then
``.venv/bin/python scripts/compile_report.py /tmp/compiles.jsonl [--top 40]``.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("log", type=Path)
    parser.add_argument("--top", type=int, default=40)
    opts = parser.parse_args()
    own: dict[str, float] = defaultdict(float)
    pids: dict[str, set[int]] = defaultdict(set)
    sigs: dict[str, set[str]] = defaultdict(set)
    count: dict[str, int] = defaultdict(int)
    total = 0.0
    for line in opts.log.read_text().splitlines():
        row = json.loads(line)
        own[row["kernel"]] += row["self"]
        pids[row["kernel"]].add(row["pid"])
        sigs[row["kernel"]].add(row["args"])
        count[row["kernel"]] += 1
        total += row["self"]
    print(f"{total:.1f} s compiling in {len({p for s in pids.values() for p in s})} processes, "
          f"{sum(count.values())} compiles of {len(own)} kernels")
    print(f"{'own s':>8} {'compiles':>8} {'procs':>6} {'sigs':>5}  kernel")
    for name, sec in sorted(own.items(), key=lambda kv: -kv[1])[:opts.top]:
        print(f"{sec:8.1f} {count[name]:8d} {len(pids[name]):6d} {len(sigs[name]):5d}  {name}")


if __name__ == "__main__":
    main()
