"""The heads-up chart and its flops solved in turn: a continuation consistent with the chart's ranges.

The chart with postflop play (:mod:`.postflop_value`) credits a holding that sees the flop with its
class's edge *against a random range*, the same at every pre-flop line of a level. Here each round
takes the previous round's chart and, at every pre-flop line that sees the flop below all in,
weights each holding by its reach of the line (the ranges the chart leaves there); solves the
study's first :data:`LINE_FLOPS` flops at the line's level with those ranges; and credits each
class with its edge *at that line* (solved less checked down, both with those ranges, the mean over
the flops and the class's holdings). The chart is then solved again with the line edges averaged over
the rounds so far (:func:`averaged`: round 1's alone moved the chart by most of its play). Round 0 is the
chart with the random-range edges.

A consistent pair is a fixed point: the edges a chart's ranges give are the edges it was solved
with (the averages then stop moving too). Each round measures how far the previous chart was from one
(per line and seat, the edge the chart credited its range with beside the edge the range gets, paired
flop by flop) and how much the chart moved.

Holdings a chart never brings to a line keep a weight of :data:`FLOOR` of the largest, so that the
flop solve values them too: a pre-flop deviation into the line is worth what it would earn there
against the ranges that do arrive.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from analysis.core.io import atomic_path
from analysis.dilemma.decks import load_deck
from analysis.solvers.preflop_hu.continuation import Continuation, checkdown_continuation
from analysis.solvers.preflop_hu.solve import (
    PreflopSolution,
    PreflopSpot,
    holding_class_names,
    solve_preflop,
)

from . import postflop_value as pv
from .ranges import starting_classes

LINE_FLOPS = 8
"""Flops solved per line and round: the first of the postflop_value study's sample (the same in every
round, so rounds compare flop by flop)."""
ROUNDS = 7
"""Rounds after the random-range chart (round 0)."""
FLOOR = 1e-4
"""The least weight (of the range's largest) a holding keeps in a line's flop solve."""
CHART_TARGET_CHIPS, CHART_MAX_ITERATIONS = 0.05, 1000
"""Each round's chart: solved as the pre-flop study's (DCFR, to 0.05 chip of exploitability)."""


def flop_lines(sol: PreflopSolution) -> list[tuple[str, int]]:
    """``(line, level)`` of every terminal of the chart's tree where both players see the flop below all in."""
    return tree_flop_lines(sol.tree, sol.spot.chips)


def tree_flop_lines(tree: Any, chips: int) -> list[tuple[str, int]]:
    """``(line, level)`` of every terminal of a pre-flop ``tree`` where both see the flop below all in (``chips``)."""
    return [(tree.line[v], tree.ins[v][0]) for v in tree.terminals() if tree.folder[v] < 0 and tree.ins[v][0] < chips]


def line_ranges(sol: PreflopSolution, deck: str) -> dict[str, dict[str, Any]]:
    """Per flop line of the chart: its level, how often a hand gets there (``probability``), each player's
    reach of its holdings and their range texts (every holding at :data:`FLOOR` of the largest at least;
    None when a player never gets there: no range to play the flop with, the line keeps its earlier edges)."""
    spec = load_deck(deck).spec
    holdings, comp = sol.continuation.holdings, sol.continuation.compatible
    out = {}
    for line, level in flop_lines(sol):
        r0, r1 = sol.reach_at(line)
        reached = min(r0.max(), r1.max()) > 0.0
        out[line] = {"level": level, "reach": (r0, r1),
                     "probability": float((r0[:, None] * r1[None, :] * comp).sum() / comp.sum()),
                     "ranges": tuple(pv.reach_range(spec, holdings, r, least=FLOOR) for r in (r0, r1))
                     if reached else None}
    return out


def solve_line_edges(folder: Path, sol: PreflopSolution, boards: Sequence[str], deck: str = "reference",
                     stop: tuple[float, int] = (pv.TARGET_CHIPS, pv.MAX_ITERATIONS),
                     progress: Callable[[int, int, str], Any] | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Every flop of ``boards`` at every flop line of chart ``sol`` (start state) with the ranges it leaves
    there, solved to ``stop`` = (target chips, iteration cap) and checked down: the per-class rows
    (:func:`.postflop_value.spot_edges`' with the ``line``) and one row per spot (with the line's
    probability and each seat's EV with those ranges). Each spot's rows are kept in ``folder`` as it
    finishes, under a key of its spot (the ranges included), so a stopped round resumes."""
    state = pv.spot_state(sol.spot)
    lines = sorted(((line, info) for line, info in line_ranges(sol, deck).items() if info["ranges"] is not None),
                   key=lambda kv: -kv[1]["probability"])
    if not lines:
        raise pv.PostflopValueError("the chart never reaches the flop below all in: no range to play it with")
    todo = [(line, info, b) for line, info in lines for b in boards]
    rows, spots = [], []
    for i, (line, info, board) in enumerate(todo):
        if progress:
            progress(i, len(todo), f"{line} on {board}")
        key = spot_key(pv.edge_spot(board, info["level"], deck, state=state, ranges=info["ranges"]), stop)
        frame = pv._resumable(spot_path(folder, line, board), key, _line_frame, board, info["level"], deck, stop, state,
                              info["ranges"])
        frame = frame.assign(line=line)
        rows.append(frame)
        spots.append({"line": line, "probability": info["probability"],
                      **{f"range_{s}": float(r.mean()) for s, r in zip(pv.SEATS, info["reach"], strict=True)},
                      **frame.attrs["spot"], "key": key["spot"]})
    if progress:
        progress(len(todo), len(todo), "line edges")
    return pd.concat(rows, ignore_index=True), pd.DataFrame(spots)


def spot_key(spot: Any, stop: tuple[float, int]) -> dict[str, Any]:
    """The resume key of a line's flop spot: a hash of the spot (its ranges included) and the stop."""
    described = json.dumps(spot.describe(), sort_keys=True, default=str)
    return {"spot": hashlib.sha256(described.encode()).hexdigest(), "target_chips": float(stop[0]),
            "max_iterations": int(stop[1])}


def spot_path(folder: Path, line: str, board: str) -> Path:
    """The resume file of a line's flop spot in a round's ``folder``."""
    return folder / f"{line.replace(' / ', '-').replace(' ', '')}-{board.replace(' ', '')}.parquet"


SPOT_INFO = ("state", "level", "board", "pot", "stack", "iterations", "exploitability_chips", "exploitability_pct_pot",
             "ev_oop", "ev_ip", "checkdown_ev_oop", "checkdown_ev_ip", "seconds")
"""The convergence row of a spot (:func:`.postflop_value.spot_edges`' ``info``), as the spots table holds it."""


def seed_round(folder: Path, stored: tuple[pd.DataFrame, pd.DataFrame], stop: tuple[float, int]) -> int:
    """Write a round's resume files from a previous run's stored tables (``stored`` = that round's rows of
    ``consistent_flop_edges`` and ``consistent_spots``, with the spots' ``key``) where none is there yet, so
    that a run with more rounds solves only the new ones; each file under its stored key, which
    :func:`solve_line_edges` reads only when the round's chart gives the same spot. Returns how many."""
    rows, spots = stored
    done = 0
    for s in spots.itertuples():
        path = spot_path(folder, s.line, s.board)
        if path.exists():
            continue
        frame = rows[(rows["line"] == s.line) & (rows["board"] == s.board)].drop(columns=["line", "round"],
                                                                                  errors="ignore")
        frame = frame[[*pv.EDGE_COLUMNS, "chance"]].reset_index(drop=True)
        frame.attrs["spot"] = {k: getattr(s, k) for k in SPOT_INFO}
        frame.attrs["key"] = {"spot": s.key, "target_chips": float(stop[0]), "max_iterations": int(stop[1])}
        path.parent.mkdir(parents=True, exist_ok=True)
        with atomic_path(path) as tmp:
            frame.to_parquet(tmp)
        done += 1
    return done


def _line_frame(*args: Any) -> pd.DataFrame:
    """:func:`.postflop_value.spot_edges`' rows with its convergence row in ``attrs["spot"]``."""
    frame, info = pv.spot_edges(*args)
    frame.attrs["spot"] = info
    return frame


def line_class_edges(rows: pd.DataFrame) -> pd.DataFrame:
    """Per line, seat and class: the mean edge over the flops and holdings (:func:`.postflop_value.class_edges`)."""
    return pv.class_edges(rows, by=("state", "line", "level"))


def line_continuation(checkdown: Continuation, classes: pd.DataFrame, spec: Any) -> Continuation:
    """``checkdown`` with each line's class edges (:func:`line_class_edges`) as its line edges."""
    hand = holding_class_names(spec, checkdown.holdings)
    edges = {}
    for line, g in classes.groupby("line", sort=False):
        per_seat = []
        for seat in pv.SEATS:
            rows = g[g["player"] == seat].set_index("hand")["edge"]
            missing = sorted(set(hand) - set(rows.index))
            if missing:
                raise pv.PostflopValueError(f"{line}, {seat}: no edge for class {missing[0]}")
            per_seat.append(rows.reindex(hand).to_numpy(float))
        edges[str(line)] = np.stack(per_seat)
    return replace(checkdown, line_edges=edges)


def load_line_edges(path: str | Path) -> pd.DataFrame:
    """A line-edge table (this study's ``consistent_line_edges``: per round, line, seat and class) from CSV or
    Parquet: its last round's rows, checked (one finite edge per line, seat and class, both seats on every
    line), with the game it was measured in (deck, chips) from the manifest beside it in ``attrs["game"]``."""
    path = Path(path)
    frame = pv.read_edge_table(path)
    missing = sorted({"line", "player", "hand", "edge"} - set(frame.columns))
    if missing:
        raise pv.PostflopValueError(f"{path}: not a line-edge table (no column {missing[0]!r})")
    if "round" in frame.columns:
        rounds = pd.to_numeric(frame["round"], errors="coerce")
        if not (np.isfinite(rounds) & (rounds == rounds.round())).all():
            raise pv.PostflopValueError(f"{path}: every round must be a whole number")
        frame = frame[rounds == rounds.max()]
    edge = pd.to_numeric(frame["edge"], errors="coerce")
    if not np.isfinite(edge).all() or not set(frame["player"].astype(str)) <= set(pv.SEATS):
        raise pv.PostflopValueError(f"{path}: every edge must be a number and every player oop or ip")
    if frame.duplicated(["line", "player", "hand"]).any():
        raise pv.PostflopValueError(f"{path}: more than one edge for a line, seat and class")
    for line, g in frame.groupby("line"):
        if set(g["player"]) != set(pv.SEATS):
            raise pv.PostflopValueError(f"{path}: line {line!r} has edges for {', '.join(sorted(set(g['player'])))} only")
    manifest = path.with_name(path.stem + ".manifest.json")
    try:
        m = json.loads(manifest.read_text(encoding="utf-8"))
        frame.attrs["game"] = {"deck": str(m["deck"]), "chips": int(m["chips"]), "state": str(m["state"])}
    except (OSError, ValueError, KeyError, TypeError):
        raise pv.PostflopValueError(f"{path}: no manifest beside it ({manifest.name}) saying the deck, chips and "
                                    "game state it was measured in") from None
    return frame


def is_line_table(path: str | Path) -> bool:
    """Whether the edge table at ``path`` holds an edge per pre-flop line (a ``line`` column; this study's)
    rather than per level (:func:`.postflop_value.load_class_edges`'): its header read, not the table."""
    path = Path(path)
    try:
        if path.suffix == ".parquet":
            import pyarrow.parquet as pq

            return "line" in pq.read_schema(path).names
        return "line" in pd.read_csv(path, nrows=0).columns
    except (OSError, ValueError):
        return False  # (the level loader says what is wrong with the file)


def line_edged_continuation(spot: PreflopSpot, lines: pd.DataFrame, checkdown: Continuation | None = None
                            ) -> Continuation:
    """The check-down continuation of a heads-up pre-flop ``spot`` with the line edges of a table read by
    :func:`load_line_edges` (refused as :func:`check_line_fits` says)."""
    levels = check_line_fits(spot, lines)
    if checkdown is None:
        checkdown = checkdown_continuation(spot.table, levels, spot.chips, spot.boards, spot.seed)
    return line_continuation(checkdown, lines, spot.table.deck.spec)


def check_line_fits(spot: PreflopSpot, lines: pd.DataFrame) -> tuple[int, ...]:
    """Refuse line edges measured in another game than ``spot`` (deck, chips, game state) or whose lines are
    not those of the spot's tree that see the flop below all in; returns the tree's levels."""
    from analysis.solvers.preflop_hu.bet_tree import build_preflop_tree

    game = lines.attrs.get("game", {})
    here = (f"this spot is the {spot.table.deck_name} deck, bank {'/'.join(map(str, spot.table.bank))} (--level "
            f"{spot.table.level}), {spot.chips} chips")
    if (game.get("deck"), game.get("chips"), game.get("state")) != (spot.table.deck_name, spot.chips, pv.spot_state(spot)):
        raise pv.PostflopValueError(f"the line edges were measured on the {game.get('deck')} deck with "
                                    f"{game.get('chips')} chips each in the {game.get('state')} state; {here}")
    tree = build_preflop_tree(spot.tree_config)
    wanted = {line for line, _ in tree_flop_lines(tree, spot.chips)}
    held = set(lines["line"].astype(str))
    if wanted != held:
        odd = sorted(wanted - held) or sorted(held - wanted)
        raise pv.PostflopValueError(f"the line edges {'lack' if wanted - held else 'hold'} the line {odd[0]!r} "
                                    "(this tree's raise sizes or chips differ from the table's)")
    classes = {c.name for c in starting_classes(spot.table.deck.spec)}
    for (line, seat), g in lines.groupby(["line", "player"]):
        if missing := sorted(classes - set(g["hand"].astype(str))):
            raise pv.PostflopValueError(f"{line}, {seat}: no edge for class {missing[0]}")
    return tuple(tree.flop_levels())


def residual(spots: pd.DataFrame, rows: pd.DataFrame, credit: pd.DataFrame) -> pd.DataFrame:
    """How far the chart whose ranges ``spots``/``rows`` were solved with was from consistent: per line and
    seat, the mean over the flops of the edge its range gets (EV solved less checked down) and of the edge
    the chart credited it with (``credit``: per flop, line or level, seat and class, weighted by the
    classes' chances on that flop), their difference and its standard error over the flops."""
    keys = ["line"] if "line" in credit.columns else ["level"]
    if credit.duplicated([*keys, "board", "player", "hand"]).any():
        raise pv.PostflopValueError("the credited edges hold more than one edge for a flop, seat and class")
    merged = rows.merge(credit[[*keys, "board", "player", "hand", "edge"]].rename(columns={"edge": "credit"}),
                        on=[*keys, "board", "player", "hand"], how="left")
    if merged["credit"].isna().any():
        miss = merged[merged["credit"].isna()].iloc[0]
        raise pv.PostflopValueError(f"no credited edge for {miss['hand']} ({miss['player']}) on {miss['board']}")
    merged["w"] = merged["chance"] * merged["credit"]
    credited = merged.groupby(["line", "board", "player"], sort=False).agg(w=("w", "sum"), c=("chance", "sum"))
    out = []
    for s in spots.itertuples():
        for seat in pv.SEATS:
            c = credited.loc[(s.line, s.board, seat)]
            out.append({"line": s.line, "level": s.level, "board": s.board, "player": seat,
                        "probability": s.probability, "range_share": getattr(s, f"range_{seat}"),
                        "consistent_edge": getattr(s, f"ev_{seat}") - getattr(s, f"checkdown_ev_{seat}"),
                        "credited_edge": c["w"] / c["c"]})
    frame = pd.DataFrame(out)
    frame["difference"] = frame["consistent_edge"] - frame["credited_edge"]
    return pv.paired_summary(frame, first=("probability", "range_share"), means=("consistent_edge", "credited_edge"))


def solve_round_chart(spot: PreflopSpot, cont: Continuation) -> PreflopSolution:
    """A round's chart: ``spot`` solved with continuation ``cont`` as the pre-flop study solves its charts."""
    return solve_preflop(spot, iterations=CHART_MAX_ITERATIONS, target_chips=CHART_TARGET_CHIPS, check_every=25,
                         continuation=cont)


def chart_movement(before: PreflopSolution, after: PreflopSolution) -> dict[str, float]:
    """How much a chart moved between rounds: per decision node, the mean over holdings (weighted by
    their reach of the node in ``after``) of the largest change in an action's frequency, at the small
    blind's first decision and over every decision (weighted by how often a hand gets there)."""
    reaches = after.reaches()
    comp = after.continuation.compatible
    total, weight, first = 0.0, 0.0, 0.0
    for v, (r0, r1) in reaches.items():
        own = (r0, r1)[after.tree.player[v]]
        change = np.abs(after.strategy(v) - before.strategy(v)).max(axis=1)
        if own.sum() <= 0:
            continue
        mean = float((own * change).sum() / own.sum())
        p = float((r0[:, None] * r1[None, :] * comp).sum() / comp.sum())
        total += p * mean
        weight += p
        if v == 0:
            first = mean
    return {"move_first": first, "move_all": total / weight}


def consistent_rounds(folder: Path, random_edges: pd.DataFrame, random_flops: pd.DataFrame, boards: Sequence[str],
                      deck: str = "reference", seed: int = 0, rounds: int = ROUNDS,
                      stop: tuple[float, int] = (pv.TARGET_CHIPS, pv.MAX_ITERATIONS), chart_boards: int = 2000,
                      stored: tuple[pd.DataFrame, pd.DataFrame] | None = None,
                      progress: Callable[[int, int, str], Any] | None = None,
                      echo: Callable[[str], Any] = lambda _: None) -> dict[str, pd.DataFrame | list]:
    """Round 0 (the start chart with the random-range class edges ``random_edges``; ``random_flops`` their
    per-flop rows, the credit the residual of round 1 compares with) and ``rounds`` rounds on ``boards``
    (each round's spots kept in ``folder/round{k}``, seeded from ``stored``, a previous run's per-flop rows and
    spots, by :func:`seed_round`; the charts' check-down over ``chart_boards`` boards).
    Returns the per-round summary, the line edges, the residuals, the spots rows, the per-flop rows and the
    solutions."""
    from analysis.solvers.preflop_hu.bet_tree import build_preflop_tree

    from .preflop_chart import continuation_seed, solve_played_chart, state_table

    spec = load_deck(deck).spec
    spot = PreflopSpot(state_table("start", deck), boards=chart_boards, seed=continuation_seed(seed, 0))
    levels = tuple(build_preflop_tree(spot.tree_config).flop_levels())
    checkdown = checkdown_continuation(spot.table, levels, spot.chips, spot.boards, spot.seed)
    sols = [solve_played_chart(random_edges, deck, chart_boards, seed=seed, checkdown=checkdown)[2]]
    credit = random_flops[(random_flops["state"] == "start") & random_flops["board"].isin(list(boards))]
    summary, edges, residuals, spots_all, measured = [], [], [], [], []
    for k in range(rounds + 1):
        sol = sols[k]
        ranges = line_ranges(sol, deck)
        row = {"round": k, "iterations": sol.iterations, "exploitability_chips": max(sol.exploitability),
               "value_bb": sol.values()[0], "value_sb": sol.values()[1],
               **{f"p[{line}]": info["probability"] for line, info in ranges.items()}}
        if k:
            row.update(chart_movement(sols[k - 1], sol))
        summary.append(row)
        if k == rounds:
            break
        echo(f"  round {k + 1}: {len(boards)} flops at each of {len(ranges)} lines with round {k}'s ranges")
        if stored is not None and "key" in stored[1].columns:
            seed_round(folder / f"round{k + 1}", tuple(t[t["round"] == k + 1] for t in stored), stop)
        rows, spots = solve_line_edges(folder / f"round{k + 1}", sol, boards, deck, stop, progress)
        residuals.append(residual(spots, rows, credit).assign(round=k + 1))
        measured.append(rows)
        credit = averaged(measured)  # what the next chart is solved with, flop by flop
        classes = line_class_edges(credit).merge(
            line_class_edges(rows)[["line", "player", "hand", "edge", "edge_se"]].rename(
                columns={"edge": "measured", "edge_se": "measured_se"}), on=["line", "player", "hand"])
        sols.append(solve_round_chart(spot, line_continuation(checkdown, classes, spec)))
        edges.append(classes.assign(round=k + 1))
        spots_all.append(spots.assign(round=k + 1))
    return {"summary": pd.DataFrame(summary), "edges": pd.concat(edges, ignore_index=True),
            "residual": pd.concat(residuals, ignore_index=True), "spots": pd.concat(spots_all, ignore_index=True),
            "flops": pd.concat([r.assign(round=k + 1) for k, r in enumerate(measured)], ignore_index=True),
            "solutions": sols}


def averaged(measured: Sequence[pd.DataFrame]) -> pd.DataFrame:
    """The per-flop rows of :func:`solve_line_edges` averaged over the rounds that measured them (each line,
    flop, seat and class: the mean edge and EVs of those rounds). A chart solved with the mean of every
    round's edges rather than the last round's (fictitious play's averaging) moves less each round: the
    first round moved the chart by most of its play (results/consistent_chart)."""
    keys = ["state", "line", "level", "board", "player", "hand"]
    frame = pd.concat(measured, ignore_index=True)
    return frame.groupby(keys, sort=False).agg(holdings=("holdings", "first"), edge=("edge", "mean"),
                                               solved_ev=("solved_ev", "mean"), checkdown_ev=("checkdown_ev", "mean"),
                                               chance=("chance", "mean")).reset_index()
