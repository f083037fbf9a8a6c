"""The postflop edge on a second, independent sample of flops, against the guide's stored one.

    python scripts/check_postflop_value_sample.py --levels 20 --seed 1 --work /tmp/pv-seed1

Solves the ``postflop_value`` study's spots on the ``hu-flop`` family's sample under ``--seed`` (the
guide's is seed 0), resuming from ``--work``, and prints, per level and seat, both samples' mean edge
with standard errors and their difference in combined standard errors; then, per level, how many
class edges differ by more than two combined standard errors (about 5% would by chance).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pandas as pd

from analysis.studies import postflop_value as pv


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--levels", default="20", help="pre-flop levels, comma-separated")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--flops", type=int, default=pv.FLOPS)
    ap.add_argument("--work", type=Path, default=Path("/tmp/postflop-value-sample"))
    ap.add_argument("--stored", type=Path, default=Path("results/postflop_value"))
    args = ap.parse_args()
    levels = tuple(int(x) for x in args.levels.split(","))
    boards = pv.flop_sample(args.flops, args.seed)
    stored = pd.read_parquet(args.stored / "postflop_edge_flops.parquet")
    overlap = set(boards) & set(stored["board"])
    print(f"seed {args.seed}: {', '.join(boards)} ({len(overlap)} flop(s) also in the stored sample)")
    edges, spots = pv.solve_edges(args.work, boards, levels)
    print(f"{len(spots)} spots, {spots['seconds'].sum():.0f} s, iterations {spots['iterations'].min()}-"
          f"{spots['iterations'].max()}, exploitability at most {spots['exploitability_chips'].max():.2f} chips")
    first = stored[stored["level"].isin(levels)]
    a, b = pv.seat_edges(first), pv.seat_edges(edges)
    m = a.merge(b, on=["level", "player"], suffixes=("_stored", "_new"))
    m["combined_se"] = np.hypot(m["edge_se_stored"], m["edge_se_new"])
    m["difference_in_se"] = (m["edge_new"] - m["edge_stored"]) / m["combined_se"]
    print(m.to_string(index=False))
    ca, cb = pv.class_edges(first), pv.class_edges(edges)
    c = ca.merge(cb, on=["level", "player", "hand"], suffixes=("_stored", "_new"))
    z = (c["edge_new"] - c["edge_stored"]) / np.hypot(c["edge_se_stored"], c["edge_se_new"])
    for level, g in c.assign(z=z).groupby("level"):
        print(f"level {level}: {int((g['z'].abs() > 2).sum())} of {len(g)} class edges differ by more than two "
              f"combined standard errors; median |difference| ${(g['edge_new'] - g['edge_stored']).abs().median():.1f}")


if __name__ == "__main__":
    main()
