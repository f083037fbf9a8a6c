"""Spot families solved in bulk with the card-level solver, stored for the guide and its browser.

A *family* (:class:`Family`) is a kind of spot stated once: players, street, pot,
stack, ranges and bet tree. It is solved on a seeded, uniformly weighted sample of
boards from the deck and in every *game state* (:data:`GAME_STATES`: the starting
bank, the second blind level, bank 3 nearly empty at the third), each spot to a target exploitability
(the mean of the two players' best-response gains, postflop-solver's measure; NashConv,
their sum, is reported beside it).
Solutions are written one file per spot (``solutions/<family>-<state>-<board>.npz``,
whole or not at all) as they finish, so an interrupted batch resumes where it
stopped; a file that no longer matches its spot is solved again. The guide keeps, per spot, a
*record* of what it reads (:mod:`.spot_records`), so families whose files are large (the flop's,
the turns', the three-handed river's: ``keep_solutions=False``) drop them once recorded.

:func:`spot_rows` reads one solution as rows of the tables (:func:`spot_tables` for many): one row
per spot with its board texture, convergence and values; the range summaries (by made hand and
starting class) at every decision of the first street; the fold-or-check answers; and
:func:`browser_spot`, the compact per-holding data of the guide's strategy browser.
"""

from __future__ import annotations

import base64
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from analysis.dilemma.decks import load_deck
from analysis.solvers.card_level import CardSpot, SpotError, SpotSolution, load_solution, solve_spot
from analysis.solvers.card_level.dilemma_terminals import DilemmaTable
from analysis.solvers.card_level.solution import fold_or_check_shares
from evaluator.errors import LabError

from .browser_views import AnySolution, decisions, seat_names
from .fold_vs_check.layout import BOARD_CLASSES
from .fold_vs_check.results import classify_board
from .made_hands import MADE_HANDS
from .solved_spots3 import fold_or_check_rows


class SpotFamilyError(LabError):
    """A spot family or game state that cannot be solved as asked."""


@dataclass(frozen=True)
class GameState:
    """Where the game stands: the bank (three tiers) and the blind level."""

    name: str
    bank: tuple[int, int, int]
    level: int
    description: str


GAME_STATES: tuple[GameState, ...] = (
    GameState("start", (300, 700, 500), 0, "the starting bank 300/700/500, blinds 10/20"),
    GameState("bank3-low", (0, 0, 40), 2, "bank 3 down to $40, blinds 30/60: a bonus above what the bank holds "
                                          "once the hand's penalty is in is paid short, and the game ends after "
                                          "this hand"),
    GameState("level2", (0, 350, 500), 1, "bank 1 empty, bank 2 at $350, blinds 20/40: the middle of the game"),
)
"""The game states families are solved in, one per blind level (level 1: the start, level 2: ``level2``,
level 3: ``bank3-low``); each family's pot and stacks follow the level's blinds (:attr:`Family.per_big_blind`).
Not a state: bank 1 nearly empty (``bank1-low`` of earlier versions): bank 2 pays the rest of the bonus in
full and the blinds rise only after the hand, so a one-hand spot there is the start spot chip for chip."""


@dataclass(frozen=True)
class Family:
    """A kind of spot, solved on many boards: everything but the board and the bank (heads-up, or
    three-handed with ``players=3``: ranges ``oop``, ``ip`` and ``third`` in the order of action)."""

    name: str
    board_cards: int
    pot: int
    stack: int
    oop: str = "random"
    ip: str = "random"
    bets: str = "100%, a"
    raises: str = "a"
    description: str = ""
    players: int = 2
    third: str = "random"
    method: str | None = None
    """The solver's method (None: :func:`.solve_spot`'s default; a three-handed turn family names
    ``dcfr``, exact over every river card, rather than the default Monte Carlo CFR)."""
    keep_solutions: bool = True
    """Keep the solution files once the spot is recorded (a turn spot's file is about 7 MB, a three-handed
    turn's 37 MB, a flop's 1 GB: the study keeps only their records, and ``dilemma solve spot`` re-solves
    one)."""
    versus_models: bool = True
    """Also solve each player's best response to the lab's opponent models (heads-up; a solve per
    model and seat: affordable on the river and turn, not on the flop, where one solve takes minutes)."""
    per_big_blind: bool = False
    """``pot`` and ``stack`` are stated at the first blind level (big blind $20) and scale with the
    state's blinds: each player put ``pot / players`` in pre-flop at $20 a big blind, so as many big
    blinds at a higher level (a bigger pot, taken from the same chips: a shorter stack behind).
    False: the pot and stack are fixed whatever the level."""

    def pot_stack(self, state: GameState, deck: str) -> tuple[int, int]:
        """The pot and each player's stack behind in ``state``."""
        if not self.per_big_blind:
            return self.pot, self.stack
        blinds = DilemmaTable.parse(deck, None, ",".join(map(str, state.bank)), state.level).rules.blinds
        first, big = int(blinds[0][1]), int(blinds[state.level][1])
        each = self.pot // self.players
        if each * self.players != self.pot or (each * big) % first:
            raise SpotFamilyError(f"{self.name}: pot {self.pot} is not a whole number of big blinds a player")
        put = each * big // first
        return put * self.players, self.stack + each - put

    def spot(self, board: str, state: GameState, deck: str) -> CardSpot:
        """The family's spot on ``board`` in ``state``."""
        ranges = {"oop": self.oop, "ip": self.ip} if self.players == 2 else {
            "ranges": (self.oop, self.ip, self.third)}
        pot, stack = self.pot_stack(state, deck)
        return CardSpot.from_options(game="dilemma", deck=deck, board=board, pot=pot, stack=stack,
                                     bets=self.bets, raises=self.raises, bank=",".join(map(str, state.bank)),
                                     level=state.level, **ranges)


TURN3_RANGE = "top 30%"
"""The three-handed turn family's range for every player: random holdings make a three-handed turn
spot several seconds an iteration and several GB (the solver's cost grows with the three ranges'
product); the top 30% takes 7-11 minutes a spot to 1.5% of the pot on this machine."""

FAMILIES: tuple[Family, ...] = (
    Family("hu-river", 5, 40, 980, per_big_blind=True,
           description="heads-up on the river, both in one big blind pre-flop ($20 at 10/20), random "
                       "holdings, bets of the pot or all-in, raises all-in"),
    Family("hu-turn", 4, 40, 980, per_big_blind=True,
           description="heads-up on the turn (every river card dealt), both in one big blind pre-flop ($20 at "
                       "10/20), random holdings, bets of the pot or all-in, raises all-in", keep_solutions=False),
    Family("hu-flop", 3, 40, 980, per_big_blind=True,
           description="heads-up on the flop (every turn and river card dealt), both in one big blind pre-flop "
                       "($20 at 10/20), random holdings, bets of the pot or all-in, raises all-in",
           keep_solutions=False, versus_models=False),  # a solution file is about 1 GB
    Family("3-river", 5, 60, 980, players=3, per_big_blind=True,
           description="three-handed on the river, each in one big blind pre-flop ($20 at 10/20), random "
                       "holdings, bets of the pot or all-in, raises all-in", keep_solutions=False),  # 1.3 MB a spot
    Family("3-turn", 4, 60, 980, players=3, per_big_blind=True, oop=TURN3_RANGE, ip=TURN3_RANGE, third=TURN3_RANGE,
           bets="100%", method="dcfr", keep_solutions=False, versus_models=False,
           description="three-handed on the turn (every river card dealt), each in one big blind pre-flop ($20 at "
                       f"10/20), each holding a hand of the {TURN3_RANGE} (by equity against one random hand: the hands "
                       "that stay in to a three-way turn, an abstraction), bets of the pot, raises all-in"),
)
"""The families the guide solves."""


def sample_boards(family: Family, n: int, seed: int, deck: str) -> list[str]:
    """``n`` distinct boards of the family's size, uniformly from the deck (seeded), as card names."""
    spec = load_deck(deck).spec
    rng = np.random.default_rng([seed, 0x5B075, family.board_cards])
    seen: list[str] = []
    while len(seen) < n:
        cards = rng.choice(spec.n_cards, family.board_cards, replace=False)
        name = " ".join(spec.card_name(int(c)) for c in cards)
        if name not in seen:
            seen.append(name)
    return seen


def class_boards(n: int, seed: int, deck: str, classes: Sequence[str] = BOARD_CLASSES,
                 cards: int = 5) -> dict[str, list[str]]:
    """``n`` distinct boards of ``cards`` cards (5: river boards, 4: turn boards) of each active effect
    class (:func:`classify_board`, which reads the deal order: a red card acts only as the turn or the
    river), drawn uniformly from the deck (seeded) and kept until each class has ``n``: uniform
    within each class."""
    d = load_deck(deck)
    spec = d.spec
    rng = np.random.default_rng([seed, 0xEFFEC7, cards])
    out: dict[str, list[str]] = {c: [] for c in classes}
    draws = 0
    while any(len(v) < n for v in out.values()):
        draws += 1
        if draws > 1_000_000:
            raise SpotFamilyError(f"the {deck} deck has too few boards of classes "
                                  f"{[c for c, v in out.items() if len(v) < n]}")
        dealt = [int(c) for c in rng.choice(spec.n_cards, cards, replace=False)]
        cls = classify_board(dealt, d)
        name = " ".join(spec.card_name(c) for c in dealt)
        if cls in out and len(out[cls]) < n and name not in out[cls]:
            out[cls].append(name)
    return out


def _file(folder: Path, family: Family, state: GameState, board: str) -> Path:
    return folder / "solutions" / f"{family.name}-{state.name}-{board.replace(' ', '')}.npz"


def solve_family(folder: Path, family: Family, boards: list[str], states: tuple[GameState, ...], deck: str,
                 target_pct: float, max_iterations: int,
                 progress: Callable[[int, int, str], None] | None = None) -> list[Path]:
    """Solve every (state, board) spot of ``family`` into ``folder/solutions`` (resuming: a file that
    holds the same spot is kept, and solved on from where it stopped if it has not reached this
    target); returns the solution files in order."""
    if not target_pct > 0:
        raise SpotFamilyError(f"target {target_pct}% of the pot: must be positive")
    todo = [(s, b) for s in states for b in boards]
    paths = []
    for i, (state, board) in enumerate(todo):
        spot = family.spot(board, state, deck)
        path = _file(folder, family, state, board)
        if progress:
            progress(i, len(todo), f"{family.name} {state.name} {board}")
        if path.exists():
            try:
                sol = load_solution(path)
            except SpotError:
                sol = None  # a damaged or foreign file: solve again
            if sol is not None and sol.spot.describe() == spot.describe():
                if sol.exploitability_pct > target_pct and sol.iterations < max_iterations:
                    sol.solver.run(target_pct=target_pct, max_iterations=max_iterations)  # a looser earlier target
                    sol.save(path)
                paths.append(path)
                continue
        path.parent.mkdir(parents=True, exist_ok=True)
        solve_spot(spot, target_pct=target_pct, max_iterations=max_iterations, method=family.method).save(path)
        paths.append(path)
    if progress:
        progress(len(todo), len(todo), family.name)
    return paths


def texture(board: list[int], deck: str) -> dict[str, Any]:
    """What a player sees on a board: paired, flush possible (3+ of a suit), straight possible
    (3+ ranks of one straight window), the active effect card class, corner bonus and penalty."""
    d = load_deck(deck)
    spec = d.spec
    ranks = [c // spec.n_suits for c in board]
    suits = [c % spec.n_suits for c in board]
    return {"paired": len(set(ranks)) < len(ranks),
            "flush_possible": max(suits.count(s) for s in set(suits)) >= 3,
            "straight_possible": any(len(set(w) & set(ranks)) >= 3 for w in spec.straights),
            "effect": classify_board(list(board), d),
            "corner_bonus": int(sum(d.plus[c] for c in board)),
            "corner_penalty": int(sum(d.minus[c] for c in board))}


def _solutions(paths: list[Path]) -> Iterator[tuple[Path, SpotSolution]]:
    for path in paths:
        yield path, load_solution(path)


def family_state(path: Path) -> tuple[Family, GameState]:
    """The family and game state a solution file belongs to (from its name)."""
    for family in sorted(FAMILIES, key=lambda f: -len(f.name)):
        for state in GAME_STATES:
            if path.stem.startswith(f"{family.name}-{state.name}-"):
                return family, state
    raise SpotFamilyError(f"{path.name}: not a solution file of a known family and game state")


def spot_rows(sol: SpotSolution, family: Family, state: GameState, deck: str) -> dict[str, list[dict[str, Any]]]:
    """One solution's rows of ``spots``, ``spots_summary`` and ``spots_fold_or_check`` (see
    :func:`spot_tables`), each keyed by family, state and board."""
    board = sol.spot.describe()["board"]
    ev = list(sol.ev().values())  # heads-up oop, ip; three-handed first, second, third
    key = {"family": family.name, "state": state.name, "board": board}
    spot = {**key, "players": family.players, **texture(list(sol.spot.board), deck), "iterations": sol.iterations,
            "exploitability_pct_pot": sol.exploitability_pct,
            "nash_conv_pct_pot": 100.0 * sol.solver.nash_conv / sol.spot.pot,
            "ev_oop": ev[0], "ev_ip": ev[1], "ev_third": ev[2] if len(ev) > 2 else float("nan")}
    if family.players == 3:  # the range summaries are heads-up only
        return {"spots": [spot], "spots_summary": [],
                "spots_fold_or_check": [{**key, **row} for row in fold_or_check_rows(sol)]}
    summaries = []
    for line in sol.first_street_lines():
        for by in ("made_hand", "class") if not line else ("made_hand",):  # classes at the root only
            summaries += sol.summary(line, by).assign(**key).to_dict("records")
    return {"spots": [spot], "spots_summary": summaries,
            "spots_fold_or_check": [{**key, **row} for row in heads_up_free_rows(sol)]}


def spot_tables(paths: list[Path], deck: str) -> dict[str, pd.DataFrame]:
    """``spots`` (one row per spot), ``spots_summary`` (by made hand at every decision of the first
    street, by starting class at the root; heads-up), ``spots_fold_or_check`` (the free-fold answer's
    shares, regrets and the cost of folding; three-handed with the seat and the others still in) and
    ``spots_by_texture`` (:func:`by_texture`)."""
    return gather([spot_rows(sol, *family_state(path), deck) for path, sol in _solutions(paths)])


def gather(parts: list[dict[str, list[dict[str, Any]]]]) -> dict[str, pd.DataFrame]:
    """The tables of many spots' rows (:func:`spot_rows`, and the question rows beside them), with
    ``spots_by_texture`` computed from the gathered ``spots`` and ``spots_fold_or_check``."""
    names = dict.fromkeys(name for part in parts for name in part)
    tables = {name: pd.DataFrame([row for part in parts for row in part.get(name, [])]) for name in names}
    if "spots" in tables:
        tables["spots_by_texture"] = by_texture(tables["spots"], tables["spots_fold_or_check"])
    return tables


def heads_up_free_rows(sol: SpotSolution) -> list[dict[str, Any]]:
    """One row per first-street decision offering fold and check of a heads-up solution: the
    player, the shares of the answers (folds for free, checks, indifferent), the mean regrets of
    folding and of checking, and the cost of folding (minus its EV, weighted by reach)."""
    table = sol.fold_or_check()
    reached = table[table["answer"] != "unreached"]
    costs = (reached.assign(x=-reached["weight"] * reached["ev_fold"]).groupby("line", sort=False)["x"].sum()
             / reached.groupby("line", sort=False)["weight"].sum())
    return [{"line": line, "player": row.pop("player"), "others_in": 1,
             **{a.replace(" ", "_"): v for a, v in row.items()}, "fold_cost": float(costs[line])}
            for line, row in fold_or_check_shares(table).items()]


def mean_se(values: pd.Series) -> tuple[float, float]:
    """The mean of the finite ``values`` (one per board) and its standard error (NaN with fewer than
    two; the mean NaN with none)."""
    x = values.astype(float)
    x = x[np.isfinite(x)]
    mean = float(x.mean()) if len(x) else float("nan")
    return mean, float(x.std(ddof=1) / np.sqrt(len(x))) if len(x) > 1 else float("nan")


TEXTURES: dict[str, Callable[[pd.DataFrame], pd.Series]] = {
    "paired": lambda s: s["paired"].astype(bool),
    "flush possible": lambda s: s["flush_possible"].astype(bool),
    "straight possible": lambda s: s["straight_possible"].astype(bool),
    "effect card active": lambda s: s["effect"] != "none",
    "penalty $50 or more": lambda s: s["corner_penalty"] >= 50,
}
"""The board textures of :func:`by_texture`: a name and which spots have it."""


def by_texture(spots: pd.DataFrame, free: pd.DataFrame, line: str = "(root)") -> pd.DataFrame:
    """Per family, game state, texture and whether the board has it: the number of boards and, at the
    first decision (``line``), the mean free-fold share, regret of folding and cost of folding, each
    with its standard error across the boards (NaN with one board)."""
    root = free[free["line"] == line].merge(spots, on=["family", "state", "board"])
    rows = []
    for (family, state), group in root.groupby(["family", "state"], sort=False):
        for name, has in TEXTURES.items():
            mask = has(group)
            for value in (True, False):
                part = group[mask == value]
                row = {"family": family, "state": state, "texture": name, "has": value, "boards": len(part)}
                for col in ("folds_for_free", "regret_fold", "fold_cost"):
                    row[col], row[f"{col}_se"] = mean_se(part[col])
                rows.append(row)
    return pd.DataFrame(rows)


EFFECT_VALUES = {"free fold": ("folds_for_free", "indifferent", "fold_cost", "regret_fold"),
                 "facing a bet": ("calls", "threshold", "fold_cost", "weakest_call_cost")}
"""The values :func:`by_effect` gives for each kind of decision."""


def by_effect(tables: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """Per active effect class of the board (``spots.effect``) and first-street decision of a heads-up
    family (the free fold where fold and check are offered, facing the first pot-sized bet of each
    player): the number of boards and the mean of each value of :data:`EFFECT_VALUES` with its
    standard error across the boards (NaN with one board)."""
    spots = tables["spots"][["family", "state", "board", "effect"]]
    facing = tables["spots_facing_bet"]
    first_bets = facing[~facing["line"].str.contains("allin|/ .* /", regex=True)
                        & np.isclose(facing["pot_odds"], 1 / 3)]  # a pot bet at once or after a check
    parts = {"free fold": tables["spots_fold_or_check"], "facing a bet": first_bets}
    rows = []
    for kind, frame in parts.items():
        frame = frame.merge(spots, on=["family", "state", "board"])
        for (family, state, effect, line, player), group in frame.groupby(
                ["family", "state", "effect", "line", "player"], sort=False):
            row = {"family": family, "state": state, "effect": effect, "decision": kind, "line": line,
                   "player": player, "boards": group["board"].nunique()}
            for col in EFFECT_VALUES[kind]:
                row[col], row[f"{col}_se"] = mean_se(group[col])
            rows.append(row)
    order = {c: i for i, c in enumerate(BOARD_CLASSES)}
    out = pd.DataFrame(rows)
    return out.sort_values(["family", "state", "decision", "line", "effect"], key=lambda c: c.map(order).fillna(0)
                           if c.name == "effect" else c, kind="stable").reset_index(drop=True)


SECOND_VALUES = ("folds_for_free", "indifferent", "regret_fold", "fold_cost")
"""The first decision's values :func:`second_sample` compares."""


def second_sample(first: pd.DataFrame, second: pd.DataFrame, line: str = "(root)") -> pd.DataFrame:
    """Per family, game state and value of :data:`SECOND_VALUES` at the first decision (``line``):
    the mean over the boards of each sample (``spots_fold_or_check`` rows), each with its standard
    error across the boards, and their gap in combined standard errors (``z``; NaN with one board)."""
    rows = []
    a, b = first[first["line"] == line], second[second["line"] == line]
    for (family, state), x in a.groupby(["family", "state"], sort=False):
        y = b[(b["family"] == family) & (b["state"] == state)]
        if not len(y):
            continue
        for col in SECOND_VALUES:
            (mean, se), (mean2, se2) = mean_se(x[col]), mean_se(y[col])
            both = float(np.hypot(se, se2))
            rows.append({"family": family, "state": state, "line": line, "value": col,
                         "boards": int(np.isfinite(x[col].astype(float)).sum()),
                         "boards_second": int(np.isfinite(y[col].astype(float)).sum()), "mean": mean, "se": se,
                         "mean_second": mean2, "se_second": se2,
                         "z": (mean - mean2) / both if both > 0 else float("nan")})
    return pd.DataFrame(rows)


def _pack(values: np.ndarray, dtype: type) -> str:
    return base64.b64encode(np.ascontiguousarray(values, dtype=dtype).tobytes()).decode("ascii")


FREQ_SCALE = 200
"""Browser frequencies are stored as uint8 in steps of 0.5%."""
EV_SCALE = 10
"""Browser EVs are stored as int16 tenths of a chip (|EV| < 3,276 chips); NaN (the holding
meets no opponent holding there) as :data:`EV_MISSING`."""
EV_MISSING = -32768


def browser_spot(sol: AnySolution, family: Family, state: GameState) -> dict[str, Any]:
    """One spot of the strategy browser, heads-up or three-handed: per decision of the first street,
    each holding's action frequencies (uint8, 0.5% steps), EVs (int16, tenths of a chip) and reach
    (uint8, of the highest), in base64; per actor its holdings by name with their made-hand index;
    the number of players (``seats``) and their names (``seat_names``, by actor index)."""
    players: dict[int, dict[str, list]] = {}
    lines = []
    for d in decisions(sol):
        if d.actor not in players:
            players[d.actor] = {"holdings": sol.holding_names(d.actor),
                                "made": [MADE_HANDS.index(g) for g in sol.groups_at(d.actor, d.node)["made_hand"]]}
        lines.append({"line": " / ".join(d.line) or "(root)", "player": d.actor, "actions": d.actions,
                      **_packed(d.freq, d.ev, d.reach)})
    names = seat_names(sol)
    return {"family": family.name, "state": state.name, "board": sol.spot.describe()["board"],
            "exploitability_pct_pot": round(sol.exploitability_pct, 4), "iterations": sol.iterations,
            "seats": len(names), "seat_names": list(names),
            "players": {str(k): v for k, v in sorted(players.items())}, "lines": lines}


def _packed(freq: np.ndarray, ev: np.ndarray, reach: np.ndarray) -> dict[str, str]:
    """A decision's arrays packed at the browser's scales (reach as a share of its highest)."""
    top = reach.max() if reach.size else 0.0
    reach = reach / top if top > 0 else reach
    ev_int = np.where(np.isnan(ev), EV_MISSING, np.clip(np.rint(np.nan_to_num(ev) * EV_SCALE), -32767, 32767))
    return {"freq": _pack(np.rint(freq * FREQ_SCALE), np.uint8), "ev": _pack(ev_int, np.int16),
            "reach": _pack(np.rint(reach * 255), np.uint8)}


def browser_data(spots: list[dict[str, Any]]) -> dict[str, Any]:
    """The strategy browser's data: the spots of :func:`browser_spot`, the made
    hands, the scales of the packed arrays, the game states and every family (heads-up and
    three-handed) with its description and number of players."""
    return {"made_hands": list(MADE_HANDS), "freq_scale": FREQ_SCALE, "ev_scale": EV_SCALE,
            "ev_missing": EV_MISSING,
            "states": {s.name: s.description for s in GAME_STATES},
            "families": {f.name: {"description": f.description, "players": f.players} for f in FAMILIES},
            "spots": spots}


def browser_spots(paths: list[Path]) -> list[dict[str, Any]]:
    """:func:`browser_spot` of every solution file."""
    return [browser_spot(sol, *family_state(path)) for path, sol in _solutions(paths)]
