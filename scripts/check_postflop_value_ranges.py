"""How much the postflop edge's random-range assumption matters: flops solved with the ranges the
heads-up chart leaves, against the edge the chart's abstraction credits those ranges with.

    python scripts/check_postflop_value_ranges.py --flops 4 --lines "call / check" "raise 60 / call"

The guide's ``postflop_value`` study measures each class's edge (solved EV less check-down EV) with
both players holding every holding, and the chart with postflop play adds that class edge whatever
the ranges the pre-flop play leaves. Here the start state's chart with postflop play is solved again
(the guide's settings: 2,000 boards, seed 0, the stored edge table), each player's reach of each
holding at the end of each line is taken as its range, and the same flops (the study's first
``--flops``) are solved at that level with those ranges, to the study's target. Per flop and seat, two
numbers: the **consistent** edge (the flop solved with the chart's ranges, less its check-down with
the same ranges, the mean over the range) and the **abstraction's** edge (each holding credited with its
class's edge measured against random ranges *on the same flop*, weighted the same way). Their
difference is what the random-range assumption gets wrong for that line, free of the between-flop
noise of the class edges.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import pandas as pd

from analysis.dilemma.decks import load_deck
from analysis.solvers.card_level import CardSpot, solve_spot
from analysis.solvers.preflop_hu.solve import holding_class_names
from analysis.studies import postflop_value as pv
from analysis.studies.preflop_chart import solve_played_chart


def range_text(spec, holdings: np.ndarray, reach: np.ndarray, floor: float = 1e-6) -> str:
    """A range text of the holdings with reach above ``floor`` of the largest, weighted by reach."""
    w = reach / reach.max()
    return ", ".join(f"{spec.card_name(int(a))}{spec.card_name(int(b))}:{x:.6f}"
                     for (a, b), x in zip(holdings, w, strict=True) if x > floor)


def line_spot(board: str, level: int, ranges: tuple[str, str], bets: bool) -> CardSpot:
    """The study's flop spot at ``level`` (start state) with the given ranges (big blind, small blind)."""
    start = pv.game_state("start")
    tree = {"bets": pv.BETS, "raises": pv.RAISES} if bets else {"bets": "", "raises": "", "free_fold": False}
    return CardSpot.from_options(game="dilemma", deck="reference", board=board, pot=2 * level, stack=pv.CHIPS - level,
                                 bank=",".join(map(str, start.bank)), level=start.level, oop=ranges[0],
                                 ip=ranges[1], **tree)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--flops", type=int, default=4)
    ap.add_argument("--lines", nargs="+", default=["call / check", "raise 60 / call"])
    ap.add_argument("--stored", type=Path, default=Path("results/postflop_value"))
    args = ap.parse_args()
    spec = load_deck("reference").spec
    edges = pv.load_class_edges(args.stored / "postflop_edge.parquet")
    per_flop = pd.read_parquet(args.stored / "postflop_edge_flops.parquet")
    if "state" in per_flop.columns:
        per_flop = per_flop[per_flop["state"] == "start"]
    _, _, chart = solve_played_chart(edges[edges["state"] == "start"])
    holdings = chart.continuation.holdings
    boards = pv.flop_sample(pv.FLOPS)[: args.flops]
    rows = []
    for line in args.lines:
        node = chart.tree.node_at(line)
        level = int(chart.tree.ins[node][0])
        reach = chart.reach_at(line)
        share = [float(r.sum() / len(r)) for r in reach]
        ranges = tuple(range_text(spec, holdings, r) for r in reach)
        print(f"{line}: level {level}; the big blind arrives with {100 * share[0]:.1f}% of its holdings' weight, "
              f"the small blind with {100 * share[1]:.1f}%", flush=True)
        for board in boards:
            t0 = time.perf_counter()
            spot = line_spot(board, level, ranges, True)
            sol = solve_spot(spot, target_pct=100.0 * pv.TARGET_CHIPS / spot.pot, max_iterations=pv.MAX_ITERATIONS)
            down = solve_spot(line_spot(board, level, ranges, False), target_pct=100.0, max_iterations=1)
            ev, ev_cd = sol.ev(), down.ev()
            for p, seat in enumerate(pv.SEATS):
                hands, _ = sol.holding_values()[p]
                w = sol.holding_chances()[p]
                flop = per_flop[(per_flop["level"] == level) & (per_flop["board"] == board)
                                & (per_flop["player"] == seat)].set_index("hand")["edge"]
                credited = flop.reindex(holding_class_names(spec, hands)).to_numpy()
                rows.append({"line": line, "level": level, "board": board, "seat": seat,
                             "consistent_edge": ev[seat] - ev_cd[seat],
                             "abstraction_edge": float((w * credited).sum() / w.sum()),
                             "iterations": sol.iterations, "exploitability_chips": sol.exploitability,
                             "seconds": round(time.perf_counter() - t0, 1)})
            print(pd.DataFrame(rows[-2:]).to_string(index=False), flush=True)
    out = pd.DataFrame(rows)
    out["difference"] = out["consistent_edge"] - out["abstraction_edge"]
    summary = out.groupby(["line", "seat"], sort=False).agg(
        consistent=("consistent_edge", "mean"), abstraction=("abstraction_edge", "mean"),
        difference=("difference", "mean"), difference_sd=("difference", "std"), flops=("board", "size"))
    summary["difference_se"] = summary.pop("difference_sd") / np.sqrt(summary["flops"])
    print(summary.to_string())


if __name__ == "__main__":
    main()
