"""The guide's section on what playing after the flop is worth beyond checking it down (the
``postflop_value`` study, :mod:`analysis.studies.postflop_value`): the pre-flop chart's continuation.

Every number is read from the study's tables.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from .blocks import Block, study_table

SEAT_TEXT = {"oop": "big blind (first after the flop)", "ip": "small blind (last after the flop)"}
SHOWN = 5
"""Classes shown at each end of a level's edge ranking."""


def _signed(x: float) -> str:
    return f"-${-x:.1f}" if x < 0 else f"+${x:.1f}"


def _state(frame: pd.DataFrame, state: str) -> pd.DataFrame:
    """The rows of one game state (a table without a ``state`` column holds the start alone)."""
    return frame[frame["state"] == state] if "state" in frame.columns else frame


def _levels_text(levels: Any) -> str:
    """The manifest's levels (per state, or the start's list) as text."""
    if isinstance(levels, dict):
        return "; ".join(f"{state} {', '.join('$' + str(x) for x in lv)}" for state, lv in levels.items())
    return ", ".join("$" + str(x) for x in levels or [])


def postflop_value(folder: Path, info: dict[str, Any]) -> list[Block]:
    """What the solved flops say betting is worth beyond the check-down, by game state, level and seat,
    the classes that gain and lose most, and how the heads-up chart uses it."""
    seats, classes = study_table(folder, "postflop_edge_seats"), study_table(folder, "postflop_edge")
    spots = study_table(folder, "postflop_edge_spots")
    if seats is None or classes is None or spots is None:
        return [Block("p", "Not in a preview: the full guide solves the flops of every game state and pre-flop "
                           "level (stored; `dilemma guide --fresh --only postflop_value` recomputes them). The "
                           "preview's pre-flop chart checks down after the flop.")]
    m = info.get("manifest", {})
    out = [Block("p", (
        f"The heads-up pre-flop chart needs what seeing the flop is worth. Checking down (nobody bets again) is "
        f"one answer; here the flop is played. At each pre-flop level (chips each player put in: "
        f"{_levels_text(m.get('levels'))}; all in, nothing is left to play) the same "
        f"{len(m.get('boards', []))} flops (a uniform sample, seed {m.get('seed')}: "
        f"{', '.join(m.get('boards', [])[:4])}, ...) are solved card by card in each game state "
        f"({', '.join(m.get('states', ['start']))}: the state's bank and blinds), heads-up, "
        f"random holdings, {m.get('chips')} chips each before the hand, bets of the pot or all-in, raises all-in, "
        f"the free fold allowed, each to {m.get('target_chips', 1):g} chip of exploitability "
        f"({spots['iterations'].min()}-{spots['iterations'].max()} DCFR iterations; "
        f"{spots['exploitability_pct_pot'].max():.2f}% of the pot at most; {spots['seconds'].sum() / 60:.0f} "
        "minutes of solving on 2 cores). A holding's **edge** is its EV under the solved strategies less its EV checked "
        "down on the same flop, both against the other's random range; per class, the mean over every flop and "
        "holding the sample deals, with the standard error from the spread between flops."))]
    table = seats.assign(seat=seats["player"].map(SEAT_TEXT))
    out.append(Block("p", "**What position is worth after the flop** (the mean edge of every holding, $ a hand, "
                          "± one standard error):"))
    out.append(Block("table", frame=pd.DataFrame({
        **({"state": table["state"]} if "state" in table.columns else {}),
        "pre-flop level $": table["level"], "seat": table["seat"],
        "edge $": [f"{e:+.1f} ± {s:.1f}" for e, s in zip(table["edge"], table["edge_se"], strict=True)],
        "flops": table["flops"]})))
    by_level = _state(seats, "start").pivot(index="level", columns="player", values="edge")
    if {"oop", "ip"} <= set(by_level.columns):
        first = by_level.iloc[0]
        total = by_level["oop"] + by_level["ip"]
        out.append(Block("p", (
            f"In a limped pot at the start the small blind, who acts last after the flop, gains {_signed(first['ip'])} "
            f"a hand over checking down and the big blind {_signed(first['oop'])}: checking down credits both seats "
            f"alike, while position is worth ${first['ip'] - first['oop']:.1f} a hand between them. The two seats' "
            f"edges together are what playing the flop takes from the bank (chips are conserved among the players "
            "and the bank): " + ", ".join(f"{_signed(t)} at ${lv}" for lv, t in total.items()) + ". The likely "
            "cause in the deepest pots: at $540 in, any bet is all-in, and an all-in loser left with no chips pays "
            "the penalty with what they have, nothing (RULES §1.4, step 5), where checked down the loser keeps "
            "chips to pay it (the tables hold no penalty flows; a probe on one river and one flop found the free "
            "fold alone moves nothing and the bets all of it).")))
    out += _other_states(seats)
    start = _state(classes, "start")
    lowest = int(start["level"].min())
    rows = []
    for seat in ("oop", "ip"):
        g = start[(start["level"] == lowest) & (start["player"] == seat)].sort_values("edge")
        for label, part in (("most", g.tail(SHOWN).iloc[::-1]), ("least", g.head(SHOWN))):
            rows.append({"seat": SEAT_TEXT[seat], "gains": label,
                         "classes (edge $ ± SE)": ", ".join(f"{h} {e:+.1f} ± {s:.1f}{'' if abs(e) > 2 * s else ' *'}"
                                                              for h, e, s in zip(part["hand"], part["edge"],
                                                                                 part["edge_se"], strict=True))})
    out.append(Block("p", f"**The classes that gain most and least from playing the flop** (the start state, "
                          f"pre-flop level ${lowest}, a limped pot; * within two standard errors of zero):"))
    out.append(Block("table", frame=pd.DataFrame(rows)))
    out += _range_check(study_table(folder, "postflop_edge_ranges_summary"), m)
    se = start.groupby("level")["edge_se"].median()
    out.append(Block("p", (
        "**How far to trust a class's edge:** the median standard error of a class's edge at the start is "
        + ", ".join(f"${s:.1f} at ${lv}" for lv, s in se.items())
        + f". The spread is between flops (a class gains where the flop hits it): {len(m.get('boards', []))} "
          "flops set each class's edge, so a single class's edge is rough and the seat averages are known to a "
          f"few dollars (the widest at the start: ±${_state(seats, 'start')['edge_se'].max():.1f}). The heads-up chart with postflop play (the "
          "pre-flop chapter) adds each player's class edge in the game state to the check-down value of every pair "
          "that sees the flop at that level, whatever the other holds: the edge is measured against a random "
          "range, not the narrower range the pre-flop play leaves.")))
    return out


def _other_states(seats: pd.DataFrame) -> list[Block]:
    """Position's worth in a limped pot and the bank's flow at the deepest level, in each state but the start."""
    if "state" not in seats.columns:
        return []
    parts = []
    for state, g in seats[seats["state"] != "start"].groupby("state", sort=False):
        by = g.pivot(index="level", columns="player", values="edge")
        if not {"oop", "ip"} <= set(by.columns):
            continue
        first, last = by.iloc[0], by.iloc[-1]
        parts.append(f"{state}: at ${by.index[0]} in the small blind gains {_signed(first['ip'])} and the big blind "
                     f"{_signed(first['oop'])} (position worth ${first['ip'] - first['oop']:.1f}), and at ${by.index[-1]} "
                     f"in the two seats together take {_signed(last['ip'] + last['oop'])} from the bank")
    if not parts:
        return []
    return [Block("p", "**In the other game states** (their blinds set the levels): " + "; ".join(parts) + ".")]


def _range_check(summary: pd.DataFrame | None, m: dict[str, Any]) -> list[Block]:
    """The random-range assumption against flops solved with the ranges the start chart leaves."""
    if summary is None or not len(summary):
        return []
    table = pd.DataFrame({
        "line": summary["line"], "level $": summary["level"], "seat": summary["player"].map(SEAT_TEXT),
        "range (share of holdings' weight) %": [f"{100 * x:.1f}" for x in summary["range_share"]],
        "edge with those ranges $": [f"{x:+.1f}" for x in summary["consistent_edge"]],
        "edge the abstraction credits $": [f"{x:+.1f}" for x in summary["abstraction_edge"]],
        "difference $": [f"{d:+.1f} ± {e:.1f}" for d, e in zip(summary["difference"], summary["difference_se"],
                                                                strict=True)],
        "flops": summary["flops"]})
    worth = []
    for line, g in summary.groupby("line", sort=False):
        by = g.set_index("player")
        if {"oop", "ip"} <= set(by.index):
            net = {k: by.at["ip", k] - by.at["oop", k] for k in ("consistent_edge", "abstraction_edge")}
            worth.append(f"after `{line}` {_signed(net['consistent_edge'])} with the chart's ranges against "
                         f"{_signed(net['abstraction_edge'])} credited")
    return [Block("p", (
        "**How much the random-range assumption matters.** The chart with postflop play credits each holding with "
        "its class's edge against a random range. Here the start state's chart with postflop play (the pre-flop "
        "chapter's) is taken at the end of two lines, each holding weighted by how often it gets there, and the "
        f"first {len(m.get('range_flops', []))} flops of the sample ({', '.join(m.get('range_flops', []))}) are "
        "solved again with those ranges, to the same target. Per seat, the edge with those ranges (solved less "
        "checked down, both with the chart's ranges) beside the edge the abstraction credits the same holdings "
        "(their classes' edges on the same flops against random ranges), and their difference, ± one standard "
        "error over the flops:")), Block("table", frame=table), Block("p", (
        "The small blind's edge less the big blind's (acting last after the flop, and what each range gains "
        "from betting over checking down: with unequal ranges the two are mixed): " + "; ".join(worth) + ". "
        + _beyond(summary) + " The chart is solved with the credited "
        "edges; where the two differ by several standard errors, solving the flops with the chart's own ranges "
        "and the chart again with those edges would move it: the section after the pre-flop chapter (`consistent_chart`) "
        "does that for every line that sees the flop, in rounds."))]


STUDENT_T_975 = {1: 12.71, 2: 4.30, 3: 3.18, 4: 2.78, 5: 2.57, 6: 2.45, 7: 2.36, 8: 2.31, 9: 2.26, 10: 2.23}
"""Student's t at 97.5% by degrees of freedom (flops less one): a mean difference over a few flops is
told from zero at this many standard errors (two sided, 5%); 2 beyond ten."""


def told_from_zero(summary: pd.DataFrame) -> pd.DataFrame:
    """The rows whose mean ``difference`` is told from zero: beyond Student's t (5% two sided, over the
    ``flops``) standard errors; none with fewer than two flops."""
    flops = int(summary["flops"].min())
    if flops < 2:
        return summary.iloc[:0]
    return summary[summary["difference"].abs() > STUDENT_T_975.get(flops - 1, 2.0) * summary["difference_se"]]


def _beyond(summary: pd.DataFrame) -> str:
    """The line and seat cells whose mean difference is told from zero (Student's t over the flops, 5%
    two sided), as a sentence."""
    flops = int(summary["flops"].min())
    if flops < 2:
        return "With one flop no difference has a standard error."
    t = STUDENT_T_975.get(flops - 1, 2.0)
    far = told_from_zero(summary)
    head = f"Told from zero (beyond {t:g} standard errors, Student's t over {flops} flops, 5%): "
    if not len(far):
        return head + "none."
    return head + ", ".join(f"the {SEAT_TEXT[r.player].split(' (')[0]} after `{r.line}` ({_signed(r.difference)})"
                            for r in far.itertuples()) + "."
