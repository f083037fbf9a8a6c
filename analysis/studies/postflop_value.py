"""What playing after the flop is worth beyond checking it down: the heads-up pre-flop chart's
continuation from solved flops.

The pre-flop solve values a hand that sees the flop by its *check-down* (nobody bets after the
flop; :mod:`analysis.solvers.preflop_hu.continuation`). Here every pre-flop level L (chips each
player put in: pot 2L, 1000 - L behind) is solved heads-up on a seeded uniform sample of flops (the
``hu-flop`` family's sample): random holdings, the start state, bets of the pot or all-in, raises
all-in, the free fold allowed, to :data:`TARGET_CHIPS` of exploitability. Each holding is valued
against the other's random range twice, under the solved strategies and checked down (no bet and no
fold, the same settlement); the difference is its *postflop edge*. Per seat (the big blind acts
first after the flop) and starting class, the edge is the mean over every (flop, holding) the sample
deals, with a standard error from the spread between flops.

The chart's abstraction, stated wherever it is shown: a pair of holdings that sees the flop at
level L is worth its check-down value plus each player's class edge at L, whatever the other
holds (the edge is measured against a random range, not the range the pre-flop play leaves); all
in (the last level) no betting is left and the edge is 0.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from analysis.core.io import atomic_path
from analysis.dilemma.decks import load_deck
from analysis.solvers.card_level import CardSpot, solve_spot
from analysis.solvers.card_level.dilemma_terminals import DilemmaTable
from analysis.solvers.preflop_hu.bet_tree import build_preflop_tree
from analysis.solvers.preflop_hu.continuation import Continuation, checkdown_continuation
from analysis.solvers.preflop_hu.solve import PreflopSpot, holding_class_names
from evaluator.errors import LabError

from .solved_spots import FAMILIES, GAME_STATES, GameState, sample_boards

LEVELS = (20, 60, 180, 540)
"""The start state's pre-flop levels (the heads-up tree's levels below all-in, at blinds 10/20)."""
STATES = ("start", "level2", "bank3-low")
"""The game states solved (:data:`.solved_spots.GAME_STATES`): each at the levels its blinds give its
heads-up tree (:func:`state_levels`)."""
CHIPS = 1000
"""Each player's chips before the hand."""
FLOPS = 12
"""Flops solved per level (the ``hu-flop`` family's seeded uniform sample: its first four are the
solved-spots study's flops)."""
TARGET_CHIPS = 1.0
"""Each spot is solved to this exploitability in chips (2.5% of the pot at level 20, 0.09% at 540):
far below the spread of the edges between flops (tens of chips a class)."""
MAX_ITERATIONS = 400
BETS, RAISES = "100%, a", "a"
SEATS = ("oop", "ip")
"""The card solver's seats: ``oop`` is the big blind (player 0 of the pre-flop solve)."""
EDGE_COLUMNS = ("state", "level", "board", "player", "hand", "holdings", "edge", "solved_ev", "checkdown_ev")


class PostflopValueError(LabError):
    """A postflop-value question that cannot be answered as asked."""


def flop_sample(n: int = FLOPS, seed: int = 0, deck: str = "reference") -> list[str]:
    """The study's flops: the ``hu-flop`` family's seeded uniform sample (:func:`.solved_spots.sample_boards`)."""
    return sample_boards(next(f for f in FAMILIES if f.name == "hu-flop"), n, seed, deck)


def game_state(name: str) -> GameState:
    """The game state called ``name`` (:data:`.solved_spots.GAME_STATES`)."""
    state = next((s for s in GAME_STATES if s.name == name), None)
    if state is None:
        raise PostflopValueError(f"no game state {name!r} (one of {', '.join(s.name for s in GAME_STATES)})")
    return state


def state_levels(state: str = "start") -> tuple[int, ...]:
    """The chips each player has put in at every level the heads-up pre-flop tree of ``state`` sees the
    flop at, below all-in (10/20: 20, 60, 180, 540; 20/40: 40, 120, 360; 30/60: 60, 180, 540)."""
    gs = game_state(state)
    spot = PreflopSpot(DilemmaTable("reference", (), gs.bank, gs.level), chips=CHIPS)
    tree = build_preflop_tree(spot.tree_config)
    return tuple(lv for lv in tree.flop_levels() if lv < CHIPS)


def edge_spot(board: str, level: int, deck: str = "reference", bets: bool = True, state: str = "start",
              ranges: tuple[str, str] = ("random", "random")) -> CardSpot:
    """The heads-up flop spot of pre-flop ``level`` on ``board`` in game ``state`` (``bets=False``: the
    check-down tree, no bet and no free fold); ``ranges``: the big blind's (first after the flop) and
    the small blind's."""
    if not 0 < level < CHIPS:
        raise PostflopValueError(f"level {level}: chips put in pre-flop must be between 0 and {CHIPS}")
    gs = game_state(state)
    tree = {"bets": BETS, "raises": RAISES} if bets else {"bets": "", "raises": "", "free_fold": False}
    return CardSpot.from_options(game="dilemma", deck=deck, board=board, pot=2 * level, stack=CHIPS - level,
                                 bank=",".join(map(str, gs.bank)), level=gs.level, oop=ranges[0],
                                 ip=ranges[1], **tree)


def flop_edges(board: str, level: int, deck: str = "reference", target_chips: float = TARGET_CHIPS,
               max_iterations: int = MAX_ITERATIONS, state: str = "start") -> tuple[pd.DataFrame, dict[str, Any]]:
    """One flop at one level of game ``state``: per seat and starting class the holdings the flop leaves
    and their mean edge, solved EV and check-down EV (:data:`EDGE_COLUMNS`), and the spot's convergence."""
    out, info = spot_edges(board, level, deck, (target_chips, max_iterations), state)
    return out[list(EDGE_COLUMNS)], info


def spot_edges(board: str, level: int, deck: str, stop: tuple[float, int], state: str = "start",
               ranges: tuple[str, str] = ("random", "random")) -> tuple[pd.DataFrame, dict[str, Any]]:
    """:func:`flop_edges` with each player's range given (the big blind's, the small blind's): the rows
    (:data:`EDGE_COLUMNS` and ``chance``, the class's share of its seat's :meth:`~.CardSolution.ev`: the sum
    of its holdings' chances) and the spot's convergence, with each seat's EV solved and checked down."""
    target_chips, max_iterations = stop
    t0 = time.perf_counter()
    spot = edge_spot(board, level, deck, state=state, ranges=ranges)
    sol = solve_spot(spot, target_pct=100.0 * target_chips / spot.pot, max_iterations=max_iterations)
    seconds = time.perf_counter() - t0
    down = solve_spot(edge_spot(board, level, deck, bets=False, state=state, ranges=ranges), target_pct=100.0,
                      max_iterations=1)
    spec = load_deck(deck).spec
    rows = []
    solved, checked, chances = sol.holding_values(), down.holding_values(), sol.holding_chances()
    for p, ((hands, ev), (hands_cd, ev_cd)) in enumerate(zip(solved, checked, strict=True)):
        if not np.array_equal(hands, hands_cd):
            raise PostflopValueError(f"{board}: the two trees deal different holdings")  # pragma: no cover
        frame = pd.DataFrame({"hand": holding_class_names(spec, hands), "solved_ev": ev,
                              "checkdown_ev": ev_cd, "chance": chances[p]})
        frame["edge"] = frame["solved_ev"] - frame["checkdown_ev"]
        by = frame.groupby("hand", sort=False).agg(holdings=("edge", "count"), edge=("edge", "mean"),
                                                    solved_ev=("solved_ev", "mean"),
                                                    checkdown_ev=("checkdown_ev", "mean"),
                                                    chance=("chance", "sum")).reset_index()
        by.insert(0, "player", SEATS[p])
        rows.append(by)
    out = pd.concat(rows, ignore_index=True)
    out.insert(0, "board", board)
    out.insert(0, "level", level)
    out.insert(0, "state", state)
    ev, ev_cd = sol.ev(), down.ev()
    info = {"state": state, "level": level, "board": board, "pot": spot.pot, "stack": spot.stack, "iterations": sol.iterations,
            "exploitability_chips": sol.exploitability, "exploitability_pct_pot": sol.exploitability_pct,
            **{f"ev_{s}": ev[s] for s in SEATS}, **{f"checkdown_ev_{s}": ev_cd[s] for s in SEATS},
            "seconds": round(seconds, 1)}
    return out[[*EDGE_COLUMNS, "chance"]], info


def solve_edges(folder: Path, boards: Sequence[str], levels: Sequence[int] = LEVELS, deck: str = "reference",
                target_chips: float = TARGET_CHIPS, max_iterations: int = MAX_ITERATIONS,
                progress: Callable[[int, int, str], Any] | None = None, states: Sequence[str] | None = None
                ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """:func:`flop_edges` for every level and board (``states``: every game state at its own levels,
    :func:`state_levels`, instead of the start at ``levels``), each spot's rows kept in ``folder/flops``
    as it finishes (whole or not at all), so a stopped run resumes; returns the edge rows and one row
    per spot."""
    if states is not None and tuple(levels) != LEVELS:
        raise PostflopValueError("give levels (the start state's) or states (each at its own levels), not both")
    cases = [("start", lv) for lv in levels] if states is None else [(st, lv) for st in states
                                                                    for lv in state_levels(st)]
    todo = [(st, lv, b) for st, lv in cases for b in boards]
    edges, spots = [], []
    for i, (state, level, board) in enumerate(todo):
        if progress:
            progress(i, len(todo), f"{state} level {level} {board}")
        path = folder / "flops" / f"{state}-{level}-{board.replace(' ', '')}.parquet"
        key = {"spot": json.dumps(edge_spot(board, level, deck, state=state).describe(), sort_keys=True,
                                  default=str),
               "target_chips": float(target_chips), "max_iterations": int(max_iterations)}
        frame = _resumable(path, key, _edge_frame, board, level, deck, target_chips, max_iterations, state)
        edges.append(frame)
        spots.append(frame.attrs["spot"])
    if progress:
        progress(len(todo), len(todo), "postflop value")
    return pd.concat(edges, ignore_index=True), pd.DataFrame(spots)


def _edge_frame(*args: Any) -> pd.DataFrame:
    """:func:`flop_edges`'s rows with its convergence row in ``attrs["spot"]`` (what :func:`solve_edges` keeps)."""
    frame, info = flop_edges(*args)
    frame.attrs["spot"] = info
    return frame


def _resumable(path: Path, key: dict[str, Any], solve: Callable[..., pd.DataFrame], *args: Any) -> pd.DataFrame:
    """The frame kept at ``path`` when it was written under ``key``; else ``solve(*args)``'s, kept there
    whole (with its ``attrs`` and the key), so that a stopped run resumes without solving a spot twice."""
    if path.exists():
        frame = pd.read_parquet(path)
        if frame.attrs.get("key") == key:
            return frame
    frame = solve(*args)
    frame.attrs["key"] = key
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_path(path) as tmp:
        frame.to_parquet(tmp)
    return frame


RANGE_LINES = ("call / check", "raise 60 / call")
"""The pre-flop lines whose ranges :func:`range_check` plays the flop with: the limped pot (52% of hands under
the start chart with postflop play) and the small blind's open called (1.7%; the big blind's raise of a limp,
called, is the second most frequent at 17%). :mod:`.consistent_chart` solves every line, in rounds."""
RANGE_FLOPS = 4
"""Flops of the study's sample (its first) :func:`range_check` solves per line."""


def reach_range(spec: Any, holdings: np.ndarray, reach: np.ndarray, floor: float = 1e-6, least: float = 0.0) -> str:
    """A range text (``AhKh:0.5, ...``) of the holdings whose reach is above ``floor`` of the largest,
    weighted by reach (the largest 1; ``least``: no weight below it, so ``least > floor`` keeps every holding)."""
    w = np.maximum(reach / reach.max(), least)
    return ", ".join(f"{spec.card_name(int(a))}{spec.card_name(int(b))}:{x:.6f}"
                     for (a, b), x in zip(holdings, w, strict=True) if x > floor)


def range_check(folder: Path, chart: Any, boards: Sequence[str], per_flop: pd.DataFrame,
                lines: Sequence[str] = RANGE_LINES, deck: str = "reference", target_chips: float = TARGET_CHIPS,
                max_iterations: int = MAX_ITERATIONS, progress: Callable[[int, int, str], Any] | None = None
                ) -> pd.DataFrame:
    """How much the edge's random-range assumption matters: each flop of ``boards`` solved at the level of
    each line of a game state's pre-flop ``chart`` (a solution with postflop play) with the ranges
    the chart leaves there (each holding weighted by its reach). Per line, flop and seat: the
    *consistent* edge (solved less checked down, both with those ranges, the mean over the range) and
    the *abstraction's* (each holding credited with its class's edge on the same flop against random
    ranges, ``per_flop``'s, weighted alike). Each spot's rows kept in ``folder/ranges`` as it finishes."""
    spec = load_deck(deck).spec
    holdings = chart.continuation.holdings
    state = spot_state(chart.spot)
    if state is None:
        raise PostflopValueError("the range check needs a chart solved in one of the game states "
                                 f"({', '.join(STATES)})")
    per_flop = per_flop[per_flop["state"] == state]
    played = {}  # per line: its level and the ranges the chart leaves there (the same for every flop)
    for line in lines:
        reach = chart.reach_at(line)
        if min(r.max() for r in reach) <= 0.0:
            raise PostflopValueError(f"the chart never reaches {line!r}: no range to play the flop with")
        played[line] = (int(chart.tree.ins[chart.tree.node_at(line)][0]), reach,
                        (reach_range(spec, holdings, reach[0]), reach_range(spec, holdings, reach[1])))
    todo = [(line, b) for line in lines for b in boards]
    rows = []
    for i, (line, board) in enumerate(todo):
        if progress:
            progress(i, len(todo), f"ranges of {line} on {board}")
        level, reach, ranges = played[line]
        spot = edge_spot(board, level, deck, state=state, ranges=ranges)
        credit = per_flop[(per_flop["level"] == level) & (per_flop["board"] == board)][["player", "hand", "edge"]]
        key = {"spot": json.dumps(spot.describe(), sort_keys=True, default=str), "target_chips": float(target_chips),
               "max_iterations": int(max_iterations),  # the credited edges too: the file holds what they give
               "credit": int(pd.util.hash_pandas_object(credit, index=False).sum() % (1 << 62))}
        path = folder / "ranges" / f"{line.replace(' / ', '-').replace(' ', '')}-{board.replace(' ', '')}.parquet"
        rows.append(_resumable(path, key, _range_rows, spot, line, (board, level, state, deck), (reach, ranges),
                               credit, (target_chips, max_iterations)))
    if progress:
        progress(len(todo), len(todo), "range check")
    out = pd.concat(rows, ignore_index=True)
    out["difference"] = out["consistent_edge"] - out["abstraction_edge"]
    return out


def _range_rows(spot: CardSpot, line: str, where: tuple[str, int, str, str], played: tuple, credit: pd.DataFrame,
                stop: tuple[float, int]) -> pd.DataFrame:
    """:func:`range_check`'s two rows of one line and flop: ``spot`` (the flop with the line's ranges)
    solved to ``stop`` = (target chips, iteration cap) and checked down; ``where`` = (board, level, state,
    deck), ``played`` = (each player's reach, their range texts), ``credit`` the flop's per-class edges
    against random ranges."""
    board, level, state, deck = where
    reach, ranges = played
    target_chips, max_iterations = stop
    spec = load_deck(deck).spec
    t0 = time.perf_counter()
    sol = solve_spot(spot, target_pct=100.0 * target_chips / spot.pot, max_iterations=max_iterations)
    down = solve_spot(edge_spot(board, level, deck, bets=False, state=state, ranges=ranges), target_pct=100.0,
                      max_iterations=1)
    ev, ev_cd = sol.ev(), down.ev()
    values, chances = sol.holding_values(), sol.holding_chances()  # (one EV walk for both seats)
    out = []
    for p, seat in enumerate(SEATS):
        hands, w = values[p][0], chances[p]
        flop = credit[credit["player"] == seat].set_index("hand")["edge"]
        credited = flop.reindex(holding_class_names(spec, hands)).to_numpy()
        if np.isnan(credited).any():
            raise PostflopValueError(f"{board} at ${level}: the per-flop edges lack a class of the {seat} range")
        out.append({"line": line, "level": level, "board": board, "player": seat,
                    "range_share": float(reach[p].mean()), "consistent_edge": ev[seat] - ev_cd[seat],
                    "abstraction_edge": float((w * credited).sum() / w.sum()), "iterations": sol.iterations,
                    "exploitability_chips": sol.exploitability, "seconds": round(time.perf_counter() - t0, 1)})
    return pd.DataFrame(out)


def range_check_summary(rows: pd.DataFrame) -> pd.DataFrame:
    """Per line and seat of :func:`range_check`'s rows: the mean consistent and abstraction edges over the
    flops and their mean difference with its standard error (the spread of the per-flop differences)."""
    return paired_summary(rows, means=("range_share", "consistent_edge", "abstraction_edge"))


def paired_summary(rows: pd.DataFrame, first: Sequence[str] = (), means: Sequence[str] = ()) -> pd.DataFrame:
    """Per line, level and seat of per-flop ``rows``: the columns ``first`` (one value per group), the means of
    ``means``, and the mean ``difference`` with its standard error over the flops (their spread)."""
    agg = {**{c: (c, "first") for c in first}, **{c: (c, "mean") for c in means}}
    out = rows.groupby(["line", "level", "player"], sort=False).agg(
        **agg, difference=("difference", "mean"), difference_sd=("difference", "std"),
        flops=("board", "size")).reset_index()
    out["difference_se"] = out.pop("difference_sd") / np.sqrt(out["flops"])
    return out


def class_edges(edges: pd.DataFrame, by: Sequence[str] = ("state", "level")) -> pd.DataFrame:
    """Per game state, level (``by``: those keys, e.g. with the pre-flop ``line``), seat and starting class:
    the mean edge over every (flop, holding) dealt, its standard error from the spread of the flops' class
    means (weighted by the holdings each flop leaves), and the mean solved and check-down EVs."""
    rows = []
    for key, g in edges.groupby([*by, "player", "hand"], sort=False):
        n = g["holdings"].to_numpy(float)
        total = n.sum()
        mean = float((n * g["edge"]).sum() / total)
        k = len(g)
        se = float(np.sqrt(k / (k - 1) * (n**2 * (g["edge"] - mean) ** 2).sum()) / total) if k > 1 else np.nan
        rows.append({**dict(zip([*by, "player", "hand"], key, strict=True)), "flops": k,
                     "holdings": int(total), "edge": mean, "edge_se": se,
                     "solved_ev": float((n * g["solved_ev"]).sum() / total),
                     "checkdown_ev": float((n * g["checkdown_ev"]).sum() / total)})
    return pd.DataFrame(rows)


def seat_edges(edges: pd.DataFrame) -> pd.DataFrame:
    """Per game state, level and seat, the mean edge over every holding dealt (what position is worth
    after the flop) and its between-flop standard error."""
    keys = ["state", "level", "player"]
    per_flop = edges.assign(w=edges["holdings"] * edges["edge"]).groupby([*keys, "board"], sort=False).agg(
        w=("w", "sum"), n=("holdings", "sum")).reset_index()
    per_flop["edge"] = per_flop["w"] / per_flop["n"]
    out = per_flop.groupby(keys, sort=False)["edge"].agg(["mean", "std", "size"]).reset_index()
    out["edge_se"] = out.pop("std") / np.sqrt(out["size"])
    return out.rename(columns={"mean": "edge", "size": "flops"})


def read_edge_table(path: Path) -> pd.DataFrame:
    """An edge table from CSV or Parquet (by its suffix), or one error line saying why it cannot be read."""
    try:
        return pd.read_parquet(path) if path.suffix == ".parquet" else pd.read_csv(path)
    except (OSError, ValueError) as exc:
        raise PostflopValueError(f"cannot read the edge table {path}: {str(exc).splitlines()[0]}") from None


def load_class_edges(path: str | Path) -> pd.DataFrame:
    """A class-edge table (:func:`class_edges`, e.g. ``results/postflop_value/postflop_edge.parquet``) from
    CSV or Parquet, checked (:func:`check_class_edges`), with the game it was measured in (deck, chips)
    from the manifest beside it in ``attrs["game"]``. A table without a ``state`` column holds the one
    game state its manifest names (``state``)."""
    path = Path(path)
    frame = read_edge_table(path)
    check_class_edges(frame, str(path))
    manifest = path.with_name(path.stem + ".manifest.json")
    try:
        m = json.loads(manifest.read_text(encoding="utf-8"))
        game = {"deck": str(m["deck"]), "chips": int(m["chips"])}
    except (OSError, ValueError, KeyError, TypeError):
        raise PostflopValueError(f"{path}: no manifest beside it ({manifest.name}) saying the deck and chips it was "
                                 "measured in") from None
    state = None if "state" in frame.columns else m.get("state")
    if state is None and "state" not in frame.columns:
        raise PostflopValueError(f"{path}: no state column, and its manifest ({manifest.name}) names no game state")
    if state is not None:
        frame.insert(0, "state", str(state))
        check_class_edges(frame, f"{path} (its manifest's state)")
    frame.attrs["game"] = game
    return frame


def check_class_edges(frame: pd.DataFrame, where: str = "the edge table") -> None:
    """Refuse a table that is not one edge per game state (a ``state`` column, when the table has one),
    level, seat (``oop``, ``ip``) and class, both seats at every level, each edge a finite number."""
    missing = sorted({"level", "player", "hand", "edge"} - set(frame.columns))
    if missing:
        raise PostflopValueError(f"{where}: not a class-edge table (no column {missing[0]!r})")
    if frame.empty:
        raise PostflopValueError(f"{where}: no rows (a class-edge table holds an edge per level, seat and class)")
    seats = set(frame["player"].astype(str))
    if not seats <= set(SEATS):
        raise PostflopValueError(f"{where}: seat {sorted(seats - set(SEATS))[0]!r} (player must be oop or ip)")
    unknown = sorted(set(frame["state"].astype(str)) - set(STATES)) if "state" in frame.columns else []
    if unknown:
        raise PostflopValueError(f"{where}: game state {unknown[0]!r} (one of {', '.join(STATES)})")
    edge = pd.to_numeric(frame["edge"], errors="coerce")
    level = pd.to_numeric(frame["level"], errors="coerce")
    if not (np.isfinite(edge).all() and np.isfinite(level).all() and (level == level.round()).all()):
        raise PostflopValueError(f"{where}: every level must be a whole number of chips and every edge a number")
    keys = [k for k in ("state", "level") if k in frame.columns]
    if frame.duplicated([*keys, "player", "hand"]).any():
        raise PostflopValueError(f"{where}: more than one edge for a level, seat and class (a per-flop table?)")
    for at, g in frame.groupby(keys):
        if set(g["player"]) != set(SEATS):
            where_at = " ".join(f"{k} {v}" for k, v in zip(keys, at, strict=True))
            raise PostflopValueError(f"{where}: {where_at} has edges for {', '.join(sorted(set(g['player'])))} only")


def spot_state(spot: Any) -> str | None:
    """The name of the game state (:data:`STATES`) whose bank and blind level ``spot`` is in (None: none)."""
    return next((s.name for s in GAME_STATES if s.name in STATES and tuple(spot.table.bank) == s.bank
                 and spot.table.level == s.level), None)


def edged_continuation(spot: PreflopSpot, classes: pd.DataFrame, checkdown: Continuation | None = None
                       ) -> Continuation:
    """The check-down continuation of a heads-up pre-flop ``spot`` (``checkdown`` when already computed for
    it) with the class edges of the spot's game state added (:func:`with_postflop_edge`). The table must
    hold that state at every level below all-in that the spot's tree sees the flop at, and one read by
    :func:`load_class_edges` must have been measured in the spot's deck and chips (:func:`check_fits`)."""
    levels = check_fits(spot, classes)
    if checkdown is None:
        checkdown = checkdown_continuation(spot.table, levels, spot.chips, spot.boards, spot.seed)
    return with_postflop_edge(checkdown, state_rows(spot, classes), spot.table.deck.spec)


def state_rows(spot: Any, classes: pd.DataFrame) -> pd.DataFrame:
    """The rows of ``classes`` measured in ``spot``'s game state (all of them when the table has no
    ``state`` column: one built in memory for one state)."""
    if "state" not in classes.columns:
        return classes
    return classes[classes["state"] == spot_state(spot)]


def check_fits(spot: Any, classes: pd.DataFrame, levels: Sequence[int] | None = None) -> tuple[int, ...]:
    """Refuse an edge table measured in another game than ``spot`` (another deck or chips, when it says,
    as :func:`load_class_edges` tables do; no rows in the spot's game state) or lacking a level the spot's
    tree sees the flop at (``levels``; default: the heads-up tree's); returns those levels. ``spot``: a
    heads-up or three-handed pre-flop spot (its ``table``, ``chips`` and ``tree_config``)."""
    game = classes.attrs.get("game")
    here = (f"this spot is the {spot.table.deck_name} deck, bank {'/'.join(map(str, spot.table.bank))} (--level "
            f"{spot.table.level}), {spot.chips} chips")
    if game is not None and (game["deck"] != spot.table.deck_name or game["chips"] != spot.chips):
        raise PostflopValueError(f"the edge table was measured on the {game['deck']} deck with {game['chips']} "
                                 f"chips each; {here}")
    if "state" in classes.columns:
        held_states = sorted(set(classes["state"].astype(str)))
        if spot_state(spot) not in held_states:
            options = "; ".join(f"{g.name}: --bank {','.join(map(str, g.bank))} --level {g.level}"
                                for g in GAME_STATES if g.name in held_states)
            raise PostflopValueError(f"the edge table was measured in the {', '.join(held_states)} state"
                                     f"{'s' if len(held_states) > 1 else ''} ({options}); {here}")
    levels = tuple(build_preflop_tree(spot.tree_config).flop_levels() if levels is None else levels)
    held = set(state_rows(spot, classes)["level"].astype(int))
    missing = [lv for lv in levels if lv < spot.chips and lv not in held]
    if missing:
        raise PostflopValueError(f"the edge table holds levels {', '.join(map(str, sorted(held)))}; this tree also "
                                 f"sees the flop at {', '.join(map(str, missing))} (blinds, raise sizes or chips differ "
                                 "from the table's)")
    return levels


def class_edge_rows(classes: pd.DataFrame, names: Sequence[str], levels: Sequence[int]
                    ) -> dict[tuple[int, str], np.ndarray]:
    """Per level of ``levels`` that the table holds and seat (``oop``, ``ip``), the edge of each of ``names``
    (class names, repeats allowed: one per holding or per class), from one game state's rows of a class-edge
    table; a class missing at a held level refused."""
    check_class_edges(classes)
    if "state" in classes.columns and classes["state"].nunique() > 1:
        raise PostflopValueError(f"the edge rows hold {classes['state'].nunique()} game states: add one state's "
                                 "(edged_continuation and edged_continuation3 pick the spot's)")
    out: dict[tuple[int, str], np.ndarray] = {}
    for put in levels:
        for seat in SEATS:
            rows = classes[(classes["level"] == put) & (classes["player"] == seat)].set_index("hand")["edge"]
            if rows.empty:
                continue
            missing = sorted(set(names) - set(rows.index))
            if missing:
                raise PostflopValueError(f"level {put}, {seat}: no edge for class {missing[0]}")
            out[(put, seat)] = rows.reindex(list(names)).to_numpy(dtype=np.float64)
    return out


def with_postflop_edge(cont: Continuation, classes: pd.DataFrame, spec: Any) -> Continuation:
    """``cont`` with each player's class edge (:func:`class_edges`) added to its value of every pair
    that sees the flop at a level the table holds (0 elsewhere: all in); ``spec`` the deck's game spec."""
    edge = class_edge_rows(classes, holding_class_names(spec, cont.holdings), cont.levels)
    values = cont.values.copy()
    for lv, put in enumerate(cont.levels):
        for p, seat in enumerate(SEATS):
            if (put, seat) in edge:
                add = edge[(put, seat)]
                values[lv, p] += add[:, None] if p == 0 else add[None, :]
    values[:, :, ~cont.compatible] = 0.0
    return replace(cont, values=values)
