"""The guide's section on the heads-up chart made consistent with its own flops (the ``consistent_chart``
study, :mod:`analysis.studies.consistent_chart`).

Every number is read from the study's tables.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .blocks import Block, study_table
from .chapter_postflop_value import SEAT_TEXT, _beyond, told_from_zero
from .chapter_preflop import win_share_change

SHOWN_MOVES = 6
"""Classes named per decision among those the rounds moved most."""


def residual_size(residual: pd.DataFrame) -> pd.Series:
    """Per round, the mean absolute difference between the edge a chart credited and the edge its ranges
    get, over the lines and seats, each line weighted by how often a hand sees the flop there."""
    w = residual["probability"] * residual["difference"].abs()
    by = residual.assign(w=w).groupby("round")
    return by["w"].sum() / by["probability"].sum()


def residual_size_se(residual: pd.DataFrame) -> pd.Series:
    """Per round, a standard error of :func:`residual_size`: each line's absolute difference taken to carry its
    difference's standard error over the flops (first order: good where a difference is large against its
    error), the lines independent."""
    by = residual.assign(v=(residual["probability"] * residual["difference_se"]) ** 2).groupby("round")
    return np.sqrt(by["v"].sum()) / by["probability"].sum()


def consistent_chart(folder: Path, info: dict[str, Any]) -> list[Block]:
    """How far the chart with postflop play is from a chart whose flops are solved with its own ranges, and
    what the rounds that close the gap change."""
    rounds, residual = study_table(folder, "consistent_rounds"), study_table(folder, "consistent_residual")
    spots, moves = study_table(folder, "consistent_spots"), study_table(folder, "consistent_moves")
    if rounds is None or residual is None or spots is None or moves is None:
        return [Block("p", "Not in a preview: the full guide solves every flop line of the start chart with the "
                           "chart's ranges, in rounds (stored; `dilemma guide --fresh --only consistent_chart` "
                           "recomputes them).")]
    m = info.get("manifest", {})
    last = int(rounds["round"].max())
    out = [Block("p", (
        "The chart with postflop play (the pre-flop chapter) credits each holding that sees the flop with its class's "
        "edge against a *random* range, the same after every pre-flop line of a level. Here that assumption is "
        f"dropped, in {last} rounds. Each round takes the previous round's chart (round 0: the chart with the "
        "random-range edges), weights every holding by how often it reaches each pre-flop line that sees the flop "
        f"below all in ({spots['line'].nunique()} lines), and solves the first {len(m.get('boards', []))} flops of "
        f"the postflop_value sample ({', '.join(m.get('boards', []))}) at that line's level with those ranges, "
        f"heads-up, at the start state, the same tree (bets of the pot or all-in, raises all-in, the free fold), "
        f"each to {m.get('target_chips', 1):g} chip of exploitability or {m.get('max_iterations', 400)} iterations "
        f"({spots['iterations'].min()}-{spots['iterations'].max()} DCFR iterations, "
        f"{spots['exploitability_chips'].max():.2f} chips at most; {spots['seconds'].sum() / 60:.0f} minutes of "
        "solving on 2 cores). Every holding stays in the solve with at least "
        f"{m.get('floor', 1e-4):g} of the range's largest weight, so that a pre-flop deviation into a line is worth "
        "what it would earn there. Each class is then credited, per line and seat, with its edge with those ranges "
        "(solved EV less checked-down EV, the mean over the flops and the class's holdings) averaged over the rounds "
        "so far (fictitious play's averaging, which damps the swings of taking the last round's edges alone), and "
        f"the chart is solved again (DCFR to {m.get('chart_target_chips', 0.05):g} chip, the check-down over "
        f"{m.get('chart_boards', 2000):,} boards as before). A chart and its flops are *consistent* when the "
        "edges its ranges get are the edges it was solved with (up to the spread within a class: a class's holdings "
        "share one edge, and a range weighs them unequally)."))]
    out += _lines_table(rounds, spots)
    out += _residual_blocks(residual)
    out += _rounds_table(rounds, residual)
    out += _moves_blocks(moves, last)
    out += _games_blocks(folder, m)
    out += _verdict(rounds, residual, study_table(folder, "consistent_chart"))
    return out


def second_best_regret(chart: pd.DataFrame, node: int = 0) -> pd.Series:
    """Per round, the median over the plain classes (no green card) at ``node`` of the regret of each class's
    second-best action: how far apart in $ a class's two best actions are."""
    g = chart[(chart["node"] == node) & (chart["green"] == "none")]
    second = g.groupby(["round", "hand"])["regret"].apply(lambda x: sorted(x)[1] if len(x) > 1 else np.nan)
    return second.groupby("round").median()


def _verdict(rounds: pd.DataFrame, residual: pd.DataFrame, chart: pd.DataFrame | None) -> list[Block]:
    """Which chart the guide stands by: the one whose credited edges were measured closest to its ranges'."""
    size = residual_size(residual)
    if size.empty:
        return []
    best = int(size.idxmin()) - 1  # residual round k measures chart k - 1
    moved = rounds["move_all"].dropna()
    text = (f"**Which chart to use.** Of the charts measured, round {best}'s was closest to consistent "
            f"(${size.min():.2f} a line against "
            + ", ".join(f"${v:.2f} for round {k - 1}'s" for k, v in size.items() if k - 1 != best)
            + f"); round {int(rounds['round'].max())}'s is not measured yet (it needs another round of flops). ")
    if len(moved) and moved.min() > 0.2:
        text += (f"Each round moved the chart by {100 * moved.min():.0f}-{100 * moved.max():.0f} points of play. "
                 "The edges a line's ranges get change by tens of dollars from one round to the next (the table "
                 "above)")
        if chart is not None:
            gap = second_best_regret(chart)
            text += (": more than what separates a class's two best actions at the small blind's first decision (the "
                     "median over the classes: " + ", ".join(f"${v:.1f} in round {int(k)}" for k, v in gap.items())
                     + ")")
        text += f", so whole classes change action. {len(moved)} rounds do not reach a consistent pair; "
        text += _values_settle(rounds)
    caveat = ("where a chart's credited edges and its ranges' differ beyond the flops' noise, those lines are worth "
              "the edge with the chart's ranges, not the edge credited.")
    if best == 0 or 1 not in size.index:
        return [Block("p", text + "the guide's chart stays round 0's, with the caveat the table above quantifies: "
                                  + caveat)]
    se = residual_size_se(residual)
    closer, err = size[1] - size.min(), float(np.hypot(se[1], se[best + 1]))
    told = closer > 2 * err
    text += (f"round {best}'s chart is closer than round 0's by ${closer:.2f} a line, ± ${err:.2f} (each gap's "
             "standard error from its lines' over the flops, as if the rounds' flops were independent), "
             + ("more than twice that: the chart to prefer is round "
                f"{best}'s (`consistent_chart`, round {best}), which the pre-flop chapter does not play yet. "
                if told else "within twice that, so the flops cannot tell the two apart: the guide's chart stays "
                "round 0's. ")
             + "Either way, the table above quantifies the caveat: " + caveat)
    return [Block("p", text)]


def _values_settle(rounds: pd.DataFrame) -> str:
    """How much each chart's values per hand moved from the previous round's, and whether each move was
    smaller than the one before (the values can settle while the play keeps moving)."""
    steps = rounds[["value_bb", "value_sb"]].diff().abs().dropna()
    if len(steps) < 2:
        return ""
    shrinking = bool((steps.diff().dropna() < 0).all(axis=None))
    return ("the values per hand moved by " + ", ".join(f"${b:.1f} / ${s:.1f}" for b, s in steps.itertuples(index=False))
            + " (big / small blind) from one round to the next"
            + (", each move smaller than the one before (partly by construction: from round 1 on, a chart is solved "
               "with the mean of the rounds' measured edges, which the k-th round moves by 1/k of its gap to it; round "
               "0's random-range edges are not in that mean): the chart's value with the edges it is credited with "
               "settles while its play still moves between actions close in value; " if shrinking else "; "))


def _games_blocks(folder: Path, m: dict[str, Any]) -> list[Block]:
    """The last round's chart in the pre-flop study's whole games, beside round 0's (the chart with postflop play)
    when the pre-flop study played the same number of deals with the same seed."""
    games, played = study_table(folder, "consistent_games"), study_table(folder.parent / "preflop",
                                                                         "preflop_played_games")
    if games is None or not len(games):
        return []
    table = pd.DataFrame({"opponent": games["opponent"], "deals": games["games"],
                          "last round's chart wins %": [f"{100 * w:.1f} ± {100 * e:.1f}" for w, e in
                                                        zip(games["win_share"], games["win_share_se"], strict=True)]})
    try:
        theirs = json.loads((folder.parent / "preflop" / "preflop_played_games.manifest.json").read_text())
    except (OSError, ValueError):
        theirs = {}
    same = (played is not None and list(played["opponent"]) == list(games["opponent"])
            and list(played["games"]) == list(games["games"]) and theirs.get("seed") == m.get("seed"))
    if same:
        table["round 0's chart wins % (the pre-flop chapter's)"] = [
            f"{100 * w:.1f} ± {100 * e:.1f}" for w, e in zip(played["win_share"], played["win_share_se"], strict=True)]
    blocks = [Block("p", "**In whole games** (`equilibrium-hu-consistent.toml` in this study's folder: the last "
                         "round's chart before the flop, the abstracted equilibrium after it, as the pre-flop chapter's "
                         "files; win share ± one standard error):"), Block("table", frame=table)]
    if same:
        _, far = win_share_change(games, played)
        blocks.append(Block("p", (
            "Beyond two standard errors (as if the runs were independent; they play the same deals): "
            + (", ".join(far) if far else "none") + ". After the flop both files play the abstracted equilibrium "
            "(strength buckets, one bet size), not the solved flops whose edges the charts were solved with: the games "
            "test each chart with a postflop play it was not solved for.")))
    return blocks


def _lines_table(rounds: pd.DataFrame, spots: pd.DataFrame) -> list[Block]:
    """Where hands see the flop, round by round."""
    lines = [c[2:-1] for c in rounds.columns if c.startswith("p[")]
    level = spots.drop_duplicates("line").set_index("line")["level"]
    first = spots[spots["round"] == 1].drop_duplicates("line").set_index("line")
    table = pd.DataFrame({"line": lines, "level $": [int(level.get(line, 0)) for line in lines],
                          **{f"round {int(r['round'])} %": [f"{100 * r[f'p[{line}]']:.2f}" for line in lines]
                             for _, r in rounds.iterrows()},
                          "ranges at round 0, big / small blind %": [
                              f"{100 * first.at[line, 'range_oop']:.1f} / {100 * first.at[line, 'range_ip']:.1f}"
                              if line in first.index else "" for line in lines]})
    return [Block("p", "**Where hands see the flop** (the share of hands that reach each line and see the flop, "
                       "under each round's chart, and the share of holdings' weight in each seat's range at round "
                       "0):"), Block("table", frame=table)]


def _residual_blocks(residual: pd.DataFrame) -> list[Block]:
    """Per round, line and seat: the edge the range gets beside the edge the chart credited."""
    table = pd.DataFrame({
        "round": residual["round"], "line": residual["line"], "level $": residual["level"],
        "seat": residual["player"].map(SEAT_TEXT).str.split(" \\(").str[0],
        "range %": [f"{100 * x:.1f}" for x in residual["range_share"]],
        "edge with the chart's ranges $": [f"{x:+.1f}" for x in residual["consistent_edge"]],
        "edge credited $": [f"{x:+.1f}" for x in residual["credited_edge"]],
        "difference $": [f"{d:+.1f} ± {e:.1f}" for d, e in zip(residual["difference"], residual["difference_se"],
                                                                strict=True)]})
    told = " ".join(f"Round {k}: " + _beyond(g) for k, g in residual.groupby("round"))
    far = pd.concat([told_from_zero(g) for _, g in residual.groupby("round")]) if len(residual) else residual
    if len(far):
        low = int((far["difference"] < 0).sum())
        every = all((g["difference"] < 0).sum() > len(g) / 2 for _, g in far.groupby("round"))
        told += (f" Of the {len(far)} differences told from zero, {low} are negative"
                 + (": the charts credit seeing the flop with more than their own ranges earn there"
                    + (", in every round (round 0's random-range edges as well as the later rounds' averages)."
                       if every else ".") if low > len(far) / 2 else "."))
    return [Block("p", (
        "**How far each chart was from consistent.** Round k solves the flops with the ranges of round k-1's chart; "
        "per line and seat, the edge that range gets (EV solved less checked down, both with the chart's ranges) "
        "beside the edge the chart was solved with, taken on the same flop so that the difference is the ranges' "
        "effect and not the flops' (each holding credited with its class's edge on that flop: round 1 the "
        "random-range edges of the postflop_value study, whose mean over its 12 flops round 0's chart used; later "
        "rounds the line edges the previous chart was solved with, the rounds' average, whose mean over these "
        "flops it used), and their "
        "difference, ± one standard error over the flops:")), Block("table", frame=table), Block("p", told)]


def _rounds_table(rounds: pd.DataFrame, residual: pd.DataFrame) -> list[Block]:
    """Each round's chart: values, exploitability, how much it moved, and its distance from consistency."""
    size = residual_size(residual)
    table = pd.DataFrame({
        "round": rounds["round"],
        "value big / small blind $": [f"{b:.2f} / {s:.2f}" for b, s in zip(rounds["value_bb"], rounds["value_sb"],
                                                                            strict=True)],
        "exploitability $": [f"{x:.3f}" for x in rounds["exploitability_chips"]],
        "moved: small blind's first action / every decision, points": [
            "" if not np.isfinite(a) else f"{100 * a:.1f} / {100 * b:.1f}"
            for a, b in zip(rounds["move_first"], rounds["move_all"], strict=True)],
        "its edges off by $ (next round's measure)": [f"{size[r + 1]:.2f}" if r + 1 in size.index else "not measured"
                                                      for r in rounds["round"]]})
    text = ("**Round by round.** A chart's value per hand for each seat and its exploitability in its own pre-flop "
            "game; how far it moved from the previous round's (per decision, the largest change of an action's "
            "frequency, the mean over the holdings that reach it; the small blind's first action, and every decision "
            "weighted by how often a hand gets there); and how far its credited edges were from those its ranges get "
            "(the mean absolute difference above over lines and seats, each line weighted by how often a hand sees "
            "the flop there).")
    k = sorted(size.index)
    if len(k) > 1:
        text += (f" The gap was ${size[k[0]]:.2f} a line for round {k[0] - 1}'s chart (against random-range edges) "
                 f"and ${size[k[-1]]:.2f} for round {k[-1] - 1}'s (against the line edges it was solved with): "
                 + ("smaller" if size[k[-1]] < size[k[0]] else "not smaller") + ". Each is a mean of absolute "
                 "differences over a few flops, so part of it is the flops' noise (the standard errors above).")
    return [Block("p", text), Block("table", frame=table)]


def _moves_blocks(moves: pd.DataFrame, last: int) -> list[Block]:
    """The classes whose play moved most from round 0 to the last round."""
    parts = []
    for line, g in moves.groupby("line", sort=False):
        top = g.sort_values("largest_change", ascending=False).head(SHOWN_MOVES)
        kinds = sorted({c.removesuffix("_played") for c in g.columns if c.endswith("_played")})
        named = []
        for r in top.itertuples():
            was = max(kinds, key=lambda k: getattr(r, f"{k}_checkdown"))
            now = max(kinds, key=lambda k: getattr(r, f"{k}_played"))
            named.append(f"{r.hand} ({was} {100 * getattr(r, f'{was}_checkdown'):.0f}% -> {now} "
                         f"{100 * getattr(r, f'{now}_played'):.0f}%)")
        big = int((g["largest_change"] >= 0.2).sum())
        where = "the small blind's first action" if line in ("(root)", "") else f"after `{line}`"
        parts.append(f"{where}: {big} of {len(g)} classes move 20 points or more; most: " + ", ".join(named))
    return [Block("p", f"**What the rounds change in the chart** (round 0 -> round {last}, plain suits, each "
                       "class's most frequent action before and after): " + "; ".join(parts) + ".")]

