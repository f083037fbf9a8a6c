"""The pre-flop entry chart from a heads-up pre-flop solve, and the equilibrium strategy it completes.

:func:`solve_charts` solves the heads-up pre-flop game (:mod:`analysis.solvers.preflop_hu`) in each
game state of the solved-spot families (the starting bank, blind level 2, bank 3 nearly empty
at level 3), on the bare deck too (Texas Hold'em's answer on 40 cards: the pot alone, so the
difference is what the bank's bonus and penalty do), and once more on a second, independent
sample of continuation boards (how much the chart owes to the sample). The continuation is the
check-down (stated in every table): what seeing the flop is worth to a player who never folds
after it.

:func:`equilibrium_strategy_toml` writes a whole heads-up strategy as an engine strategy file:
the chart before the flop (one rule per decision and starting class) and the abstracted
equilibrium's policy table after it (the ``equilibrium`` study: strength buckets, one bet size).
:func:`headsup_games` seats it against every hand-written strategy in whole heads-up games.
:func:`equilibrium3_strategy_toml` does the same three-handed (the three-handed chart's stored table,
then the three-handed equilibrium's policy) and :func:`threehanded_games` seats it against two of each
hand-written strategy.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from analysis.core.strategy import load_strategy
from analysis.dilemma.settlement import Rules
from analysis.engine.games import GameConfig, simulate_games, tournament
from analysis.engine.preflop import DATA as PREFLOP_DATA
from analysis.solvers.card_level.dilemma_terminals import DilemmaTable
from analysis.solvers.preflop3.bet_tree3 import ORDER, PreflopTree3, build_preflop_tree3
from analysis.solvers.preflop3.solve3 import Preflop3Solution, Preflop3Spot, solve_preflop3
from analysis.solvers.preflop_hu.bet_tree import (
    ALLIN,
    BIG_BLIND,
    CALL,
    CHECK,
    FOLD,
    RAISE,
    SMALL_BLIND,
    PreflopTree,
)
from analysis.solvers.preflop_hu.solve import (
    PreflopError,
    PreflopSolution,
    PreflopSpot,
    solve_preflop,
)

from .game_endings import Table, endings_row
from .solved_spots import GAME_STATES

CHART_COLUMNS = ("state", "deck", "sample", "node", "line", "player", "hand", "green", "combos", "reach", "action",
                 "frequency", "ev", "regret", "indifferent")
INDIFFERENT_CHIPS = 1.0
"""An action within this many chips of the best one is *indifferent*, not preferred. A margin stated,
not a test: the continuation's sampling error is of this order at the smallest pot and larger in
raised pots (the spots table's standard errors; the second sample's EV differences)."""
HAND_WRITTEN = ("abc", "tight-aggressive", "calling-station", "maniac", "fold-free-always", "fold-free-multiway")
"""The hand-written strategies the equilibrium meets in whole heads-up games."""


def chart_cases(deck: str, quick: bool = False) -> list[tuple[str, str, int]]:
    """``(state, deck, sample seed)`` of every solve: each game state on ``deck``, the start on the bare
    deck, and the start on a second board sample (``quick``: the start alone)."""
    if quick:
        return [("start", deck, 0)]
    return [*((s.name, deck, 0) for s in GAME_STATES), ("start", "bare", 0), ("start", deck, 1)]


def state_table(state: str, deck: str) -> DilemmaTable:
    """The settlement table of a game state (:data:`~.solved_spots.GAME_STATES`) on ``deck``."""
    gs = next(s for s in GAME_STATES if s.name == state)
    return DilemmaTable(deck, (), gs.bank, gs.level)


def continuation_seed(seed: int, sample: int) -> int:
    """The continuation's seed of board sample ``sample`` (0 or 1) under the guide's ``seed``: 2 seed +
    sample, so every guide seed draws its own two samples (seed 0 keeps samples 0 and 1)."""
    return 2 * seed + sample


def solve_chart(state: str, deck: str, sample: int, boards: int, target_chips: float,
                max_iterations: int, seed: int = 0) -> PreflopSolution:
    """One heads-up pre-flop solve in a game state (:data:`~.solved_spots.GAME_STATES`), board sample
    ``sample`` under the guide's ``seed``."""
    return solve_preflop(PreflopSpot(state_table(state, deck), boards=boards, seed=continuation_seed(seed, sample)),
                         iterations=max_iterations,
                         target_chips=target_chips, check_every=25)


def chart_rows(sol: PreflopSolution, state: str, deck: str, sample: int) -> pd.DataFrame:
    """A solve's chart (:meth:`PreflopSolution.chart`) as rows of :data:`CHART_COLUMNS`: its game state, deck
    and sample, and whether each action is indifferent."""
    ch = sol.chart()
    ch.insert(0, "sample", sample)
    ch.insert(0, "deck", deck)
    ch.insert(0, "state", state)
    ch["indifferent"] = ch["regret"] <= INDIFFERENT_CHIPS
    return ch[list(CHART_COLUMNS)]


def solve_charts(deck: str = "reference", boards: int = 2000, target_chips: float = 0.05,
                 max_iterations: int = 1000, quick: bool = False, echo: Callable[[str], Any] = lambda _: None,
                 seed: int = 0) -> tuple[pd.DataFrame, pd.DataFrame, list]:
    """The chart rows (:data:`CHART_COLUMNS`), one row per solve (convergence, values, the continuation's
    standard errors) and the solutions, for every case of :func:`chart_cases`."""
    charts, spots, sols = [], [], []
    for state, on, sample in chart_cases(deck, quick):
        t0 = time.perf_counter()
        sol = solve_chart(state, on, sample, boards, target_chips, max_iterations, seed)
        seconds = time.perf_counter() - t0
        charts.append(chart_rows(sol, state, on, sample))
        v0, v1 = sol.values()
        e0, e1 = sol.exploitability
        cfg = sol.spot.tree_config
        spots.append({"state": state, "deck": on, "sample": sample, "blinds": f"{cfg.small_blind}/{cfg.big_blind}",
                      "bank": "/".join(map(str, sol.spot.table.bank)), "chips": cfg.chips,
                      "continuation": "check-down", "boards": boards, "method": sol.method,
                      "iterations": sol.iterations, "exploitability_bb": e0, "exploitability_sb": e1,
                      "value_bb": v0, "value_sb": v1,
                      **{f"continuation_se_{lv}": se for lv, se in zip(sol.continuation.levels, sol.continuation.se,
                                                                        strict=True)},
                      "seconds": round(seconds, 1)})
        echo(f"  {state} ({on}, sample {sample}): {sol.iterations} iterations, exploitability "
             f"{max(e0, e1):.3f} chips, {seconds:.0f} s")
        sols.append(sol)
    return pd.concat(charts, ignore_index=True), pd.DataFrame(spots), sols


PLAYED = "check-down + solved-flop edge"
"""The continuation of :func:`solve_played_chart` (its spots row and manifests say so)."""


def solve_played_chart(class_edges: pd.DataFrame, deck: str = "reference", boards: int = 2000,
                       target_chips: float | None = 0.05, max_iterations: int = 1000, seed: int = 0,
                       checkdown: Any = None, state: str = "start") -> tuple[pd.DataFrame, dict[str, Any], PreflopSolution]:
    """The heads-up chart of game ``state`` with postflop play: each pair that sees the flop is worth
    its check-down (``checkdown``: that state's solve's continuation, when at hand) plus each player's
    class edge at the level in that state (:mod:`.postflop_value`, solved flops); the chart rows
    (:data:`CHART_COLUMNS`), one spots row and the solution."""
    from .postflop_value import edged_continuation

    t0 = time.perf_counter()
    spot = PreflopSpot(state_table(state, deck), boards=boards, seed=continuation_seed(seed, 0))
    cont = edged_continuation(spot, class_edges, checkdown)
    sol = solve_preflop(spot, iterations=max_iterations, target_chips=target_chips, check_every=25,
                        continuation=cont)
    e0, e1 = sol.exploitability
    v0, v1 = sol.values()
    row = {"state": state, "deck": deck, "sample": 0, "continuation": PLAYED, "boards": boards,
           "method": sol.method, "iterations": sol.iterations, "exploitability_bb": e0, "exploitability_sb": e1,
           "value_bb": v0, "value_sb": v1, "seconds": round(time.perf_counter() - t0, 1)}
    return chart_rows(sol, state, deck, 0), row, sol


def chart_moves(checkdown: pd.DataFrame, played: pd.DataFrame, nodes: Sequence[int]) -> pd.DataFrame:
    """Per decision and starting class (holdings without a green card), each kind of action's share
    under the check-down chart and under the played one (of one game state), and the largest change."""
    rows = []
    state = checkdown["state"].iloc[0]
    for node in nodes:
        a, b = plain_kinds(checkdown, node), plain_kinds(played, node)
        kinds = sorted(set(a.columns) | set(b.columns))
        a, b = a.reindex(columns=kinds, fill_value=0.0), b.reindex(index=a.index, columns=kinds, fill_value=0.0)
        line = checkdown.loc[checkdown["node"] == node, "line"].iloc[0]
        for hand in a.index:
            row = {"state": state, "node": node, "line": line, "hand": hand}
            row.update({f"{k}_checkdown": float(a.at[hand, k]) for k in kinds})
            row.update({f"{k}_played": float(b.at[hand, k]) for k in kinds})
            row["largest_change"] = float((b.loc[hand] - a.loc[hand]).abs().max())
            rows.append(row)
    return pd.DataFrame(rows).fillna(0.0)


# ------------------------------------------------------------------ three-handed

CHART3_NODES = {"preflop3_chart_button": "(root)", "preflop3_chart_sb_first": "BTN fold",
                "preflop3_chart_sb_vs_open": "BTN raise 60", "preflop3_chart_bb_vs_open": "BTN raise 60 / SB fold"}
"""The three-handed decisions drawn as 10 x 10 grids (file stem -> line): the button first in, the small
blind first in (the button folded), the small blind facing the button's open, the big blind facing it
once the small blind folded."""
CHART3_MIN_PROBABILITY = 1e-3
"""The three-handed chart table keeps the decisions reached in at least this share of hands (123 of the
tree's 174 at the start; all of them made the table 26 MB of CSV), its numbers to six significant digits."""
BOARDS3, DEALS3 = Preflop3Spot.boards, Preflop3Spot.deals
"""The three-handed continuation's sample: boards in the pool, deals per triple of classes (the study's
and the CLI's default). Measured at the start state: 1,000 boards and 4 deals moved the button's chart
by 5.6 points a class between two seeds (EVs $3.4), 2,000 and 8 by 3.8 points ($2.6), for a
continuation of 40 s instead of 17 s and 2.4 GB at the peak."""


def chart_cases3(deck: str) -> list[tuple[str, str, int]]:
    """``(state, deck, sample seed)`` of every three-handed solve: each game state, and the start on a
    second sample (not in the quick guide: its continuation alone costs more than the quick budget)."""
    return [*((s.name, deck, 0) for s in GAME_STATES), ("start", deck, 1)]


def solve_chart3(state: str, deck: str, sample: int, boards: int = BOARDS3, deals: int = DEALS3,
                 target_chips: float | None = 0.05, max_iterations: int = 400, seed: int = 0) -> Preflop3Solution:
    """One three-handed pre-flop solve in a game state (:data:`~.solved_spots.GAME_STATES`), sample
    ``sample`` under the guide's ``seed``."""
    spot = Preflop3Spot(state_table(state, deck), boards=boards, deals=deals, seed=continuation_seed(seed, sample))
    return solve_preflop3(spot, iterations=max_iterations,
                          target_chips=target_chips, check_every=25)


PLAYED3 = "check-down + solved heads-up flop edge where two see the flop"
"""The continuation of the three-handed chart with postflop play (:mod:`.postflop_edge3`)."""


def _chart3_tables(sol: Preflop3Solution, keys: dict[str, Any], continuation: str, seconds: float
                   ) -> tuple[pd.DataFrame, dict[str, Any], pd.DataFrame]:
    """One three-handed solve's chart rows (decisions reached in at least :data:`CHART3_MIN_PROBABILITY`
    of hands, six significant digits), its spots row and its decisions' action shares."""
    ch = sol.chart()
    for k, x in reversed(keys.items()):
        ch.insert(0, k, x)
    ch["indifferent"] = ch["regret"] <= INDIFFERENT_CHIPS
    dec = sol.decisions()
    ch = ch[ch["node"].isin(dec.loc[dec["probability"] >= CHART3_MIN_PROBABILITY, "node"])].copy()
    for col in ("reach", "frequency", "ev", "regret"):
        ch[col] = [float(f"{x:.6g}") for x in ch[col]]
    for k, x in reversed(keys.items()):
        dec.insert(0, k, x)
    e, v = sol.exploitability, sol.values()
    cfg = sol.spot.tree_config
    row = {**keys, "blinds": f"{cfg.small_blind}/{cfg.big_blind}", "bank": "/".join(map(str, sol.spot.table.bank)),
           "chips": cfg.chips, "continuation": continuation, "boards": sol.spot.boards,
           "deals_per_triple": sol.spot.deals, "method": sol.method, "iterations": sol.iterations,
           "exploitability_sb": e[0], "exploitability_bb": e[1], "exploitability_btn": e[2],
           "nash_conv": sol.nash_conv, "nash_conv_pct_blinds": 100 * sol.nash_conv / sol.blinds_pot,
           "value_sb": v[0], "value_bb": v[1], "value_btn": v[2],
           **{f"share_{k}": x for k, x in sol.ending_shares().items()},
           **{f"continuation_se3_{lv}": x for lv, x in sorted(sol.continuation.se.items())},
           **{f"continuation_se2_{lv}": x for lv, x in sorted(sol.continuation.se_pair.items())},
           "seconds_continuation": round(sol.continuation_seconds, 1), "seconds_solve": round(sol.seconds, 1),
           "seconds": round(seconds, 1)}
    return ch[list(CHART_COLUMNS)], row, dec


def solve_played_chart3(class_edges: pd.DataFrame, checkdown: Preflop3Solution, target_chips: float | None = 0.05,
                        max_iterations: int = 400) -> Preflop3Solution:
    """The three-handed chart of ``checkdown``'s spot with postflop play where two see the flop: its
    check-down continuation plus each live player's class edge in the spot's game state (:mod:`.postflop_edge3`)."""
    from .postflop_edge3 import edged_continuation3

    spot = checkdown.spot
    cont = edged_continuation3(spot, class_edges, checkdown.continuation, checkdown.deal.names)
    return solve_preflop3(spot, iterations=max_iterations, target_chips=target_chips, check_every=25,
                          continuation=cont)


def chart3_nodes(chart: pd.DataFrame) -> dict[str, int]:
    """The node of each of :data:`CHART3_NODES`' decisions in one state's three-handed chart (file stem ->
    node), the button's open read as its smallest raise first in (60 at blinds of 10/20, 120 at 20/40);
    a decision the chart does not hold is left out."""
    nodes = chart.drop_duplicates("node").set_index("line")["node"]
    opens = sorted((int(m.group(1)), line) for line in nodes.index if (m := re.fullmatch(r"BTN raise (\d+)", line)))
    lines = {stem: line.replace("BTN raise 60", opens[0][1]) if opens else line for stem, line in CHART3_NODES.items()}
    return {stem: int(nodes[line]) for stem, line in lines.items() if line in nodes.index}


def solve_charts3(deck: str = "reference", boards: int = BOARDS3, deals: int = DEALS3, target_chips: float = 0.05,
                  max_iterations: int = 400, echo: Callable[[str], Any] = lambda _: None, seed: int = 0,
                  class_edges: pd.DataFrame | None = None) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame, dict,
                                                                    tuple[pd.DataFrame, ...] | None]:
    """The three-handed chart rows (:data:`CHART_COLUMNS`; decisions reached in at least
    :data:`CHART3_MIN_PROBABILITY` of hands), one row per solve (convergence, NashConv,
    values, the continuation's standard errors, seconds), the decisions' action shares (one row per
    solve and decision) and the tree's config, for every case of :func:`chart_cases3`; with
    ``class_edges``, also the chart with postflop play (:func:`solve_played_chart3`) in each game state
    the table holds (first sample): its chart rows, spots rows (with the tree's situations it credits:
    :func:`~.postflop_edge3.credited_situations`), moves from the check-down chart at
    :data:`CHART3_NODES` and decisions' action shares (None without the table)."""
    from .postflop_edge3 import credited_situations

    charts, spots, decisions = [], [], []
    played: list[list[Any]] = [[], [], [], []]
    states = set() if class_edges is None else set(class_edges["state"])
    tree: dict = {}
    for state, on, sample in chart_cases3(deck):
        t0 = time.perf_counter()
        sol = solve_chart3(state, on, sample, boards, deals, target_chips, max_iterations, seed)
        keys = {"state": state, "deck": on, "sample": sample}
        ch, row, dec = _chart3_tables(sol, keys, "check-down", time.perf_counter() - t0)
        charts.append(ch)
        spots.append(row)
        decisions.append(dec)
        tree = sol.spot.tree_config.describe()
        echo(f"  three-handed {state} ({on}, sample {sample}): {sol.iterations} iterations, NashConv "
             f"{sol.nash_conv:.3f} chips, {row['seconds']:.0f} s (continuation {sol.continuation_seconds:.0f} s)")
        if class_edges is not None and sample == 0 and state in states:
            t0 = time.perf_counter()
            psol = solve_played_chart3(class_edges, sol, target_chips, max_iterations)
            pch, prow, pdec = _chart3_tables(psol, keys, PLAYED3, time.perf_counter() - t0)
            prow.update(credited_situations(psol.tree.situations(), psol.spot.chips))
            played[0].append(pch)
            played[1].append(prow)
            played[2].append(chart_moves(ch, pch, list(chart3_nodes(ch).values())))
            played[3].append(pdec)
            echo(f"  three-handed {state} with postflop play ({PLAYED3}): {psol.iterations} iterations, NashConv "
                 f"{psol.nash_conv:.3f} chips, {prow['seconds']:.0f} s")
            del psol
        del sol
    both = (pd.concat(played[0], ignore_index=True), pd.DataFrame(played[1]), pd.concat(played[2], ignore_index=True),
            pd.concat(played[3], ignore_index=True)) if played[0] else None
    return pd.concat(charts, ignore_index=True), pd.DataFrame(spots), pd.concat(decisions, ignore_index=True), tree, both


def abstraction_cost(sol: PreflopSolution) -> pd.DataFrame:
    """What the three-handed chart's abstraction costs heads-up, where holdings can be told apart: the
    heads-up solution played per holding, per starting class and hand effects, and per starting class
    (each holding playing its group's reach-weighted mix), each against a best response that sees every
    holding: the two players' gains and NashConv in chips a hand, and the values."""
    from analysis.solvers.preflop_hu.solve import green_labels, holding_class_names

    names = holding_class_names(sol, sol.continuation.holdings)
    green = green_labels(sol)
    pot = sol.spot.tree_config.small_blind + sol.spot.tree_config.big_blind
    rows = []
    for grouping, strategy in (("holding", sol.strategy),
                               ("class and hand effects", sol.grouped_strategy([f"{n} {g}" for n, g in zip(names, green,
                                                                                                           strict=True)]).__getitem__),
                               ("class", sol.grouped_strategy(names).__getitem__)):
        e0, e1 = sol.best_response_gains(strategy)
        v0, v1 = sol.values_of(strategy)
        rows.append({"plays per": grouping, "gain_bb": e0, "gain_sb": e1, "nash_conv": e0 + e1,
                     "nash_conv_pct_blinds": 100 * (e0 + e1) / pot, "value_bb": v0, "value_sb": v1})
    return pd.DataFrame(rows)


def class_mix(chart: pd.DataFrame) -> pd.DataFrame:
    """The chart per starting class, hand effects merged (what a player who cannot see suits plays):
    each action's frequency and EV weighted by the holdings' reach."""
    c = chart.assign(w=chart["reach"] * chart["combos"])
    c = c.assign(wf=c["w"] * c["frequency"], wev=c["w"] * c["ev"])
    keys = ["node", "line", "player", "hand", "action"]
    agg = c.groupby(keys, sort=False)[["w", "wf", "wev"]].sum().reset_index()
    ok = agg["w"] > 0
    agg["frequency"] = np.where(ok, agg["wf"] / agg["w"].where(ok, 1), np.nan)
    agg["ev"] = np.where(ok, agg["wev"] / agg["w"].where(ok, 1), np.nan)
    return agg[[*keys, "frequency", "ev"]]


def plain_rows(chart: pd.DataFrame) -> pd.DataFrame:
    """Each class's holdings without a green card (all of them where every holding has one)."""
    has_plain = chart.groupby("hand")["green"].transform(lambda g: (g == "none").any())
    return chart[(chart["green"] == "none") | ~has_plain]


def plain_kinds(chart: pd.DataFrame, node: int) -> pd.DataFrame:
    """Per starting class at one decision, the share of each kind of action (fold, check, call,
    raise, all-in) among its holdings without a green card (all of them where every holding has
    one), weighted by reach: the chart a player who holds no effect card reads."""
    rows = plain_rows(chart[chart["node"] == node])
    w = rows["reach"] * rows["combos"]
    kinds = rows.assign(kind=rows["action"].str.split().str[0], wf=w * rows["frequency"])
    out = kinds.groupby(["hand", "kind"])["wf"].sum().unstack(fill_value=0.0)
    return out.div(out.sum(axis=1), axis=0)


def sample_agreement(chart: pd.DataFrame, deck: str) -> pd.DataFrame:
    """Per decision of the start state: the two board samples' class frequencies compared (mean and
    largest absolute difference) and the EV differences beside the continuation's standard error."""
    a = chart[(chart.state == "start") & (chart.deck == deck) & (chart["sample"] == 0)]
    b = chart[(chart.state == "start") & (chart.deck == deck) & (chart["sample"] == 1)]
    keys = ["node", "line", "player", "hand", "green", "action"]
    if a.empty or b.empty:
        return pd.DataFrame(columns=["node", "line", "player", "classes", "mean_freq_diff", "max_freq_diff",
                                     "mean_ev_diff"])
    m = a.merge(b, on=keys, suffixes=("_a", "_b"))
    m["freq_diff"] = (m["frequency_a"] - m["frequency_b"]).abs()
    m["ev_diff"] = (m["ev_a"] - m["ev_b"]).abs()
    m["w"] = m["reach_a"] * m["combos_a"]
    out = m.groupby(["node", "line", "player"], sort=False).apply(
        lambda g: pd.Series({"classes": g["hand"].nunique(),
                             "mean_freq_diff": float(np.average(g["freq_diff"], weights=g["w"] + 1e-12)),
                             "max_freq_diff": float(g["freq_diff"].max()),
                             "mean_ev_diff": float(np.average(g["ev_diff"], weights=g["w"] + 1e-12))}),
        include_groups=False).reset_index()
    return out


# ------------------------------------------------------------------ the engine strategy


def _class_intervals() -> dict[str, str]:
    """Each starting class's strength condition: the engine's pre-flop strength is its class's
    percentile (``analysis/engine/data/preflop_dilemma.csv``); intervals split at midpoints."""
    frame = pd.read_csv(PREFLOP_DATA / "preflop_dilemma.csv").sort_values("percentile", kind="stable")
    pct = frame["percentile"].to_numpy()
    names = frame["hand"].tolist()
    mids = (pct[1:] + pct[:-1]) / 2
    out = {}
    for k, name in enumerate(names):
        lo = None if k == 0 else mids[k - 1]
        hi = None if k == len(names) - 1 else mids[k]
        out[name] = f"< {hi:.9f}" if lo is None else (f">= {lo:.9f}" if hi is None else f"{lo:.9f}-{hi:.9f}")
    return out


def _to_call_intervals(points: Sequence[float]) -> list[str]:
    """Intervals around each distinct to-call amount (big blinds), split at midpoints."""
    pts = sorted(set(points))
    if len(pts) == 1:
        return [">= 0"]
    out = []
    for k, x in enumerate(pts):
        lo = None if k == 0 else (pts[k - 1] + x) / 2
        hi = None if k == len(pts) - 1 else (pts[k + 1] + x) / 2
        out.append(f"< {hi:g}" if lo is None else (f">= {lo:g}" if hi is None else f"{lo:g}-{hi:g}"))
    return out


def _fmt(x: float) -> str:
    return f"{x:.6f}".rstrip("0").rstrip(".") or "0"


def _check_playable(tree: PreflopTree, to_call: dict[int, float]) -> None:
    """Refuse a tree the rules below cannot play: a rule tells decisions apart by player, facing and
    the amount to call only, and carries one raise size."""
    seen: dict[tuple[int, bool, float], int] = {}
    for v, owe in to_call.items():
        key = (tree.player[v], owe > 0, owe)
        if key in seen:
            raise PreflopError(f"the engine strategy cannot tell '{tree.line[seen[key]] or '(root)'}' from "
                               f"'{tree.line[v]}' (the same player, facing and amount to call)")
        seen[key] = v
        if sum(a.split()[0] == RAISE for a in tree.actions[v]) > 1:
            raise PreflopError(f"the engine strategy has one raise size per rule; '{tree.line[v] or '(root)'}' "
                               f"has {', '.join(a for a in tree.actions[v] if a.startswith(RAISE))}")


def _class_actions(freqs: dict[str, float], cur: int, own: int, pot: int) -> tuple[dict[str, float], float | None]:
    """A class's action kinds and probabilities at one decision (tiny ones dropped, renormalised) and
    the raise's engine size (``to = cur + size * (pot + owe)``, :mod:`analysis.engine._decide`)."""
    do: dict[str, float] = {}
    size = None
    for label, p in freqs.items():
        kind = label.split()[0]
        if kind == RAISE:
            size = (int(label.split()[1]) - cur) / (pot + cur - own)
        if kind in (FOLD, CALL, CHECK, ALLIN, RAISE):
            do[kind] = do.get(kind, 0.0) + p
    total = sum(do.values())
    do = {k: p / total for k, p in do.items() if p / total > 1e-6}
    norm = sum(do.values())
    return {k: p / norm for k, p in do.items()}, size


def _probabilities_text(do: dict[str, float]) -> str:
    """``fold = 0.25, call = 0.75``: six decimals, the largest mended so the printed ones sum to 1."""
    parts = {k: float(_fmt(p)) for k, p in do.items()}
    fix = 1.0 - sum(parts.values())
    if abs(fix) > 0 and do:
        first = max(do, key=do.get)
        parts[first] = round(parts[first] + fix, 9)
        return ", ".join(f"{k} = {parts[k]!r}" for k in do)
    return ", ".join(f"{k} = {_fmt(p)}" for k, p in do.items())


def preflop_rules(sol: PreflopSolution, chart: pd.DataFrame) -> list[str]:
    """TOML ``[[rule]]`` blocks playing ``chart`` (one solve's rows) at each of ``sol``'s decisions:
    conditions on the pre-flop street, two players, position (the small blind acts first), facing,
    the amount to call (nearest decision of the tree) and the class's strength. Trees with several
    raise sizes, or two decisions the features cannot tell apart, are refused."""
    tree = sol.tree
    chart = class_mix(chart)
    bb = sol.spot.tree_config.big_blind
    strength = _class_intervals()
    nodes = tree.decisions()
    to_call = {v: (max(tree.ins[v]) - tree.ins[v][tree.player[v]]) / bb for v in nodes}
    _check_playable(tree, to_call)
    blocks = []
    for who in (SMALL_BLIND, BIG_BLIND):
        mine = [v for v in nodes if tree.player[v] == who]
        for facing in (True, False):
            group = [v for v in mine if (to_call[v] > 0) == facing]
            if not group:
                continue
            ranges = dict(zip(sorted({to_call[v] for v in group}), _to_call_intervals([to_call[v] for v in group]),
                              strict=True))
            for v in group:
                rows = chart[chart.node == v]
                ins = tree.ins[v]
                cur, own = max(ins), ins[who]
                pot = ins[0] + ins[1]
                for hand, g in rows.groupby("hand", sort=False):
                    do, size = _class_actions(dict(zip(g["action"], g["frequency"], strict=True)), cur, own, pot)
                    lines = ["[[rule]]", f'comment = "{tree.line[v] or "(root)"}: {hand}"', 'street = "preflop"',
                             'players = 2', f'position = {0 if who == SMALL_BLIND else 1}',
                             f'facing = "{"bet" if facing else "none"}"',
                             f'to_call = "{ranges[to_call[v]]}"', f'strength = "{strength[hand]}"',
                             f"do = {{ {_probabilities_text(do)} }}"]
                    if size is not None and "raise" in do:
                        lines.append(f"size = {size:.6f}")
                    blocks.append("\n".join(lines))
    return blocks


def postflop_rules(table_path: Path) -> list[str]:
    """TOML ``[[rule]]`` blocks playing a policy table (the ``equilibrium`` study's) after the flop."""
    load_strategy(table_path)  # refuses a malformed table with one line
    frame = pd.read_parquet(table_path) if table_path.suffix == ".parquet" else pd.read_csv(table_path)
    manifest = table_path.with_name(table_path.stem + ".manifest.json")
    n = int(json.loads(manifest.read_text()).get("n_buckets", int(frame["bucket"].max()) + 1))
    blocks = []
    keys = ["street", "facing", "players", "position", "bucket"]
    for (street, facing, players, position, bucket), g in frame.groupby(keys, sort=False):
        b = int(bucket)
        lo, hi = b / n, (b + 1) / n
        strength = f"< {hi:.9f}" if b == 0 else (f">= {lo:.9f}" if b == n - 1 else f"{lo:.9f}-{hi:.9f}")
        do: dict[str, float] = {}
        size = None
        for r in g.itertuples():
            kind = "raise" if r.action in ("bet", "raise") else r.action
            if kind == "raise":
                size = float(r.size)
            do[kind] = do.get(kind, 0.0) + float(r.probability)
        total = sum(do.values())
        parts = {k: p / total for k, p in do.items()}
        lines = ["[[rule]]", f'street = "{street}"', f'facing = "{facing}"', f'strength = "{strength}"']
        if int(players) != 0:
            lines.append(f"players = {int(players)}")
        if int(position) != -1:
            lines.append(f"position = {int(position)}")
        lines.append("do = { " + ", ".join(f"{k} = {p!r}" for k, p in parts.items()) + " }")
        if size is not None:
            lines.append(f"size = {size!r}")
        blocks.append("\n".join(lines))
    return blocks


def equilibrium_strategy_toml(sol: PreflopSolution, chart: pd.DataFrame, postflop_table: Path,
                              name: str = "equilibrium-hu", continuation: str = "check-down") -> str:
    """A whole heads-up strategy as an engine strategy file: the chart, then the postflop table."""
    head = [f"# Generated by the guide's preflop study: the heads-up pre-flop chart ({continuation} continuation)",
            "# and, after the flop, the abstracted equilibrium's policy table. Heads-up only: with more",
            "# players no rule matches before the flop (the player then checks or folds).",
            "[policy]", f'name = "{name}"',
            'description = "Heads-up equilibrium: the solved pre-flop chart, then the abstracted hand\'s '
            'equilibrium after the flop (strength buckets, one bet size)."',
            'fold_for_free = "rules"']
    return "\n".join(head) + "\n\n" + "\n\n".join(preflop_rules(sol, chart) + postflop_rules(postflop_table)) + "\n"


def _versus_row(summary: pd.DataFrame, config: GameConfig, name: str, other: str) -> dict[str, Any]:
    """The strategy ``name``'s row against ``other`` from a tournament's summary: games, win share and
    final chips, each with its standard error."""
    mine, chips = summary.set_index("strategy").loc[name], f"mean_{config.value}"
    return {"opponent": other, "games": int(mine["games"]), "win_share": float(mine["win_share"]),
            "win_share_se": float(mine["win_share_se"]), "final_chips": float(mine[chips]),
            "final_chips_se": float(mine[f"{chips}_se"])}


def headsup_games(strategy_path: Path, games: int, seed: int = 0, deck: str = "reference",
                  opponents: Sequence[str] = HAND_WRITTEN, **run: Any) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Whole heads-up games (duplicate: both seatings play the same deals) of the strategy at
    ``strategy_path`` against each of ``opponents``: one row per opponent with the equilibrium's win
    share and final chips (standard errors), and how the games end (:func:`.game_endings.endings_row`)."""
    rows, ends = [], []
    me = str(strategy_path)
    name = load_strategy(strategy_path).name
    for other in opponents:
        config = GameConfig(strategies=(me, other), deck=deck, rules=Rules(), seed=seed)
        res = tournament(config, games, **run)
        rows.append(_versus_row(res.summary, config, name, other))
        ends.append(endings_row(Table(f"{name} v {other}", (name, other)), deck,
                                res.games[["game", "hands", "reason", "bankruptcies"]]))
    return pd.DataFrame(rows), pd.DataFrame(ends)


# ------------------------------------------------------------------ the three-handed engine strategy

EQUILIBRIUM3 = "equilibrium-3"
"""The three-handed equilibrium strategy's name (and file stem)."""


def start_tree3(deck: str = "reference") -> PreflopTree3:
    """The three-handed bet tree of the start state (the tree the stored chart's ``node`` numbers)."""
    return build_preflop_tree3(Preflop3Spot(state_table("start", deck)).tree_config)


def features3(tree: PreflopTree3, v: int) -> tuple[int, int, int, float, float]:
    """What the engine sees at a three-handed decision (``analysis.engine._decide.features_of``): the
    players still in, the actor's place among them in the order of action (button, small blind, big
    blind; 0 first), facing a bet (0 or 1), the amount to call and the pot, in big blinds."""
    live = [p for p in ORDER if tree.live[v] >> p & 1]
    a, ins, bb = tree.player[v], tree.ins[v], tree.config.big_blind
    owe = max(ins) - ins[a]
    return len(live), live.index(a), int(owe > 0), owe / bb, sum(ins) / bb


def indistinct3(tree: PreflopTree3, nodes: Sequence[int]) -> list[list[int]]:
    """The groups of ``nodes`` whose engine features (:func:`features3`) are the same, in order of
    their first node: a rule cannot tell a group's decisions apart, so they share one."""
    keyed: dict[tuple[int, int, int, float, float], list[int]] = {}
    for v in sorted(nodes):
        keyed.setdefault(features3(tree, v), []).append(v)
    return list(keyed.values())


def _merged_actions(tree: PreflopTree3, vs: Sequence[int], chart: pd.DataFrame, weight: dict[int, pd.Series]
                    ) -> dict[str, tuple[dict[str, float], float | None]]:
    """Per class, the action kinds and probabilities of the decisions ``vs`` (one rule for all of them:
    each decision's mix weighted by ``weight[v][class]``, its chance of being there) and the raise's
    engine size; decisions that raise to different engine sizes are refused."""
    per: dict[int, dict[str, tuple[dict[str, float], float | None]]] = {}
    sizes = set()
    for v in vs:
        ins = tree.ins[v]
        cur, own, pot = max(ins), ins[tree.player[v]], sum(ins)
        rows = chart[chart["node"] == v]
        per[v] = {h: _class_actions(dict(zip(g["action"], g["frequency"], strict=True)), cur, own, pot)
                  for h, g in rows.groupby("hand", sort=False)}
        sizes |= {round(s, 9) for s in (x[1] for x in per[v].values()) if s is not None}
    if len(sizes) > 1:
        raise PreflopError(f"the engine strategy cannot tell {', '.join(repr(tree.line[v]) for v in vs)} apart "
                           "and they raise to different sizes")
    if len(vs) == 1:
        return per[vs[0]]
    out = {}
    for hand in per[vs[0]]:
        w = np.array([float(weight[v].get(hand, 0.0)) for v in vs])
        w = w / w.sum() if w.sum() > 0 else np.full(len(vs), 1 / len(vs))
        do: dict[str, float] = {}
        for k, v in zip(w, vs, strict=True):
            for kind, p in per[v][hand][0].items():
                do[kind] = do.get(kind, 0.0) + k * p
        total = sum(do.values())
        kept = {a: p for a, p in do.items() if p / total > 1e-6}
        norm = sum(kept.values())
        out[hand] = ({a: p / norm for a, p in kept.items()}, per[vs[0]][hand][1])
    return out


def preflop3_rules(tree: PreflopTree3, chart: pd.DataFrame, decisions: pd.DataFrame) -> list[str]:
    """TOML ``[[rule]]`` blocks playing the three-handed ``chart`` (one solve's rows: a row per decision,
    class and action) at each decision it holds, by class. A rule's conditions are what the engine sees
    (:func:`features3`): the pre-flop street, the players still in, the actor's place among them and
    facing, which pick a group of decisions, then the amount to call and the pot, each split at the
    midpoints between the group's decisions, so any amount plays the nearest charted decision (nearest
    amount to call, then nearest pot): decisions the chart leaves out, raises of other sizes and stacks
    of other depths included. Decisions the engine cannot tell apart (:func:`indistinct3`) share a rule:
    each class plays their mixes weighted by its chance of being at each (the decision's probability in
    ``decisions`` times the class's share of the reach there; the opponents' card removal is left out)."""
    strength = _class_intervals()
    if chart.duplicated(["node", "hand", "action"]).any():
        raise PreflopError("the three-handed chart has one row per decision, class and action")
    prob = decisions.set_index("node")["probability"]
    reach = chart.drop_duplicates(["node", "hand"]).assign(w=lambda c: c["reach"] * c["combos"])
    weight = {}
    for v, g in reach.groupby("node"):
        s = g["w"].sum()
        weight[int(v)] = (g.set_index("hand")["w"] / s * float(prob.get(v, 0.0))) if s > 0 else \
            g.set_index("hand")["w"] * 0.0
    groups = indistinct3(tree, [int(v) for v in chart["node"].unique()])
    by_key: dict[tuple[int, int, int], dict[float, dict[float, list[int]]]] = {}
    for vs in groups:
        players, position, facing, owe, pot = features3(tree, vs[0])
        by_key.setdefault((players, position, facing), {}).setdefault(owe, {})[pot] = vs
    blocks = []
    for (players, position, facing), by_owe in sorted(by_key.items()):
        owes = sorted(by_owe)
        owe_text = dict(zip(owes, _to_call_intervals(owes), strict=True))
        for owe in owes:
            pots = sorted(by_owe[owe])
            pot_text = dict(zip(pots, _to_call_intervals(pots), strict=True)) if len(pots) > 1 else {}
            for pot in pots:
                vs = by_owe[owe][pot]
                where = " | ".join(tree.line[v] or "(root)" for v in vs)
                for hand, (do, size) in _merged_actions(tree, vs, chart, weight).items():
                    lines = ["[[rule]]", f'comment = "{where}: {hand}"', 'street = "preflop"',
                             f"players = {players}", f"position = {position}",
                             f'facing = "{"bet" if facing else "none"}"', f'to_call = "{owe_text[owe]}"']
                    if pot in pot_text:
                        lines.append(f'pot = "{pot_text[pot]}"')
                    lines += [f'strength = "{strength[hand]}"', f"do = {{ {_probabilities_text(do)} }}"]
                    if size is not None and "raise" in do:
                        lines.append(f"size = {size:.6f}")
                    blocks.append("\n".join(lines))
    return blocks


CHECKDOWN3_TABLES = ("preflop3_chart", "preflop3_decisions")
PLAYED3_TABLES = ("preflop3_chart_played", "preflop3_played_decisions")
"""The stored chart and decisions tables of the three-handed check-down chart and of the one with postflop play."""


def chart3_start(folder: Path, deck: str = "reference", tables: tuple[str, str] = CHECKDOWN3_TABLES
                 ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The stored three-handed chart and decisions tables (``tables``) of the start state's first sample."""
    def read(name: str) -> pd.DataFrame:
        frame = pd.read_parquet(folder / f"{name}.parquet")
        return frame[(frame["state"] == "start") & (frame["deck"] == deck) & (frame["sample"] == 0)]

    return read(tables[0]), read(tables[1])


def equilibrium3_notes(folder: Path, deck: str = "reference", tables: tuple[str, str] = CHECKDOWN3_TABLES
                       ) -> dict[str, Any]:
    """What the three-handed strategy file holds before the flop (for the games' manifest): the charted
    decisions, the tree's, and the groups of decisions sharing a rule (their lines)."""
    chart, _ = chart3_start(folder, deck, tables)
    tree = start_tree3(deck)
    nodes = [int(v) for v in chart["node"].unique()]
    return {"charted_decisions": len(nodes), "tree_decisions": len(tree.decisions()),
            "shared_rules": [[tree.line[v] for v in vs] for vs in indistinct3(tree, nodes) if len(vs) > 1]}


def equilibrium3_strategy_toml(folder: Path, postflop_table: Path, deck: str = "reference",
                               name: str = EQUILIBRIUM3, tables: tuple[str, str] = CHECKDOWN3_TABLES) -> str:
    """A whole three-handed strategy as an engine strategy file, from the stored tables: the start
    state's three-handed chart in ``folder`` (``tables``: the check-down chart's or the one with postflop
    play; :func:`preflop3_rules`), then the postflop table."""
    chart, decisions = chart3_start(folder, deck, tables)
    continuation = "check-down continuation" if tables == CHECKDOWN3_TABLES else PLAYED3
    tree = start_tree3(deck)
    merged = [vs for vs in indistinct3(tree, [int(v) for v in chart["node"].unique()]) if len(vs) > 1]
    head = ["# Generated by the guide's preflop study from its stored tables: the three-handed pre-flop chart",
            f"# (start state, per starting class, {continuation}; {', '.join(tables)})",
            "# and, after the flop, the three-handed abstracted equilibrium's policy table. Before the flop a",
            f"# rule holds each of the chart's {chart['node'].nunique()} decisions (those reached in at least "
            f"{100 * CHART3_MIN_PROBABILITY:g}% of hands, of the",
            f"# tree's {len(tree.decisions())}); any other decision, raise size or stack plays the nearest one "
            "(same players in,",
            "# place and facing; nearest amount to call, then pot). Heads-up (after a player is out) it plays the",
            "# blinds' rules of a hand whose button folded: the engine cannot tell the two apart.",
            *(f"# One rule for: {' | '.join(tree.line[v] for v in vs)}" for vs in merged),
            "[policy]", f'name = "{name}"',
            'description = "Three-handed equilibrium: the solved three-handed pre-flop chart (per class), then the '
            'abstracted three-handed equilibrium after the flop (strength buckets, one bet size)."',
            'fold_for_free = "rules"']
    return "\n".join(head) + "\n\n" + "\n\n".join(preflop3_rules(tree, chart, decisions)
                                                    + postflop_rules(postflop_table)) + "\n"


def threehanded_games(strategy_path: Path, games: int, seed: int = 0, deck: str = "reference",
                      opponents: Sequence[str] = HAND_WRITTEN, self_play: bool = True,
                      **run: Any) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Whole three-handed games of the strategy at ``strategy_path`` in one seat against two seats of
    each of ``opponents``, duplicate (every rotation of the seats plays the same deals): one row per
    opponent with the strategy's win share (fair: 1/3) and final chips (standard errors over deals),
    and how the games end (:func:`.game_endings.endings_row`, over every rotation's games); with
    ``self_play`` a last endings row for the strategy in all three seats (as many games: how games end
    when nobody plays a hand-written strategy)."""
    rows, ends = [], []
    me = str(strategy_path)
    name = load_strategy(strategy_path).name
    for other in opponents:
        config = GameConfig(strategies=(me, other, other), deck=deck, rules=Rules(), seed=seed)
        res = tournament(config, games, **run)
        theirs = res.summary.set_index("strategy").loc[other]
        rows.append({**_versus_row(res.summary, config, name, other),
                     "opponent_final_chips": float(theirs[f"mean_{config.value}"])})
        ends.append(endings_row(Table(f"{name} v {other} x2", (name, other, other)), deck,
                                res.games[["game", "hands", "reason", "bankruptcies"]]))
    if self_play:
        config = GameConfig(strategies=(me,) * 3, deck=deck, rules=Rules(), seed=seed)
        res = simulate_games(config, 3 * games, **run)
        ends.append(endings_row(Table(f"{name} x3", (name,) * 3), deck,
                                res.games[["game", "hands", "reason", "bankruptcies"]]))
    return pd.DataFrame(rows), pd.DataFrame(ends)
