"""The end of the game, pot and stack, effect cards: heads-up river spots solved card by card.

What a one-hand spot can see of the game state (RULES §1.2, §1.4, §1.5, §1.8), and so what the
game states of :data:`STATES` carry:

- the **blind level**: the smallest bet, and through the pre-flop line the pot and the chips
  behind: a family in which each player is in one big blind has a pot of $40 at 10/20, $80 at
  20/40 and $120 at 30/60, taken from the same $1,000 (:attr:`Family.per_big_blind`);
- the **bank**: every payment by the bank (the bonus, ``windfall``, ``dividend``, ``subsidy``) is
  capped at what it holds *after* the penalties went in (settlement step 4 comes before step 6),
  so a short bank 3 pays the bonus short.

What it cannot see, and so is not a state here: the blinds rising *after* the hand (bank 1 at
$10: bank 2 pays the rest of the bonus in full and the hand is played at the current level, so
``bank1-low`` is the ``start`` spot, chip for chip), and the game's end after the hand: the
solver values each player's chips after the settlement, and a game that ends ranks the players
by chips; play aimed at finishing first rather than at chips is another objective, not modelled.

Three samples, each a family of heads-up river spots (random holdings, bets of the pot or
all-in, raises all-in) on seeded boards: ``states`` (one board sample in every state of
:data:`STATES`), ``sweep`` (the start state over pots and stacks, :data:`SWEEP_BLINDS` x
:data:`SWEEP_CHIPS`) and ``effects`` (boards sampled per active effect class,
:func:`class_boards`). :func:`end_tables` reads the solutions as the chapter's tables and
:func:`answers` aggregates them over the boards (means with standard errors).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from analysis.solvers.card_level import load_solution

from .solved_spots import (
    Family,
    GameState,
    class_boards,
    heads_up_free_rows,
    sample_boards,
    solve_family,
    texture,
)
from .spot_questions import facing_bet

START_CHIPS = 1000
"""Each player's chips before the hand (RULES §1.1)."""

STATES: tuple[GameState, ...] = (
    GameState("start", (300, 700, 500), 0, "the starting bank 300/700/500, blinds 10/20"),
    GameState("level2", (0, 350, 500), 1, "bank 1 empty, bank 2 at $350, blinds 20/40"),
    GameState("level3", (0, 0, 500), 2, "banks 1 and 2 empty, bank 3 full at $500, blinds 30/60: "
                                        "the higher blinds alone, every bonus paid in full"),
    GameState("bank3-100", (0, 0, 100), 2, "the bank's last $100, blinds 30/60: a bonus above what the bank "
                                           "holds once the hand's penalty is in is paid short, and the game ends "
                                           "after the hand"),
    GameState("bank3-low", (0, 0, 40), 2, "the bank's last $40, blinds 30/60: a bonus above what the bank "
                                          "holds once the hand's penalty is in is paid short, and the game ends "
                                          "after the hand"),
)
"""The game states, each a different spot: the blind levels (a bigger pot from the same chips)
and a short bank 3 (capped payments)."""

DROPPED_STATES: dict[str, str] = {
    "bank1-low": "bank 1 down to $10 at blinds 10/20 is the start spot chip for chip: bank 2 pays the rest "
                 "of the bonus in full and the blinds rise only after the hand",
}
"""Game states a one-hand spot cannot tell from another, and why (the chapter says so)."""

RIVER = Family("river", 5, 40, START_CHIPS - 20, per_big_blind=True,
               description="heads-up on the river, each in one big blind pre-flop from $1,000, random holdings, "
                           "bets of the pot or all-in, raises all-in")
"""The end-game family: the pot and stack follow the state's blinds."""

SWEEP_BLINDS: tuple[int, ...] = (1, 3, 6)
"""Big blinds each player put in before the river in the sweep (pots $40, $120, $240 at 10/20)."""
SWEEP_CHIPS: tuple[int, ...] = (START_CHIPS, 200)
"""Each player's chips before the hand in the sweep: the start, and a short stack."""


def sweep_families() -> list[Family]:
    """The sweep's families: every pot of :data:`SWEEP_BLINDS` with every depth of :data:`SWEEP_CHIPS`."""
    return [Family(f"river-p{2 * 20 * b}-c{chips}", 5, 2 * 20 * b, chips - 20 * b, keep_solutions=False,
                   description=f"heads-up on the river, each in {b} big blind{'s' if b > 1 else ''} "
                               f"from ${chips:,}")
            for chips in SWEEP_CHIPS for b in SWEEP_BLINDS]


@dataclass(frozen=True)
class Plan:
    """How many boards each sample solves, and how far."""

    state_boards: int = 16
    sweep_boards: int = 16
    class_boards: int = 8
    target_pct: float = 0.3
    max_iterations: int = 3000


QUICK = Plan(state_boards=1, sweep_boards=1, class_boards=1, target_pct=2.0)
"""A preview: one board a sample, solved to 2% of the pot."""

Job = tuple[str, Family, GameState, str]
"""(sample, family, state, board) of one solved spot."""


def jobs(plan: Plan, seed: int, deck: str) -> list[Job]:
    """Every spot of the three samples."""
    start = STATES[0]
    out: list[Job] = [("states", RIVER, s, b) for s in STATES for b in sample_boards(RIVER, plan.state_boards,
                                                                                        seed, deck)]
    sweep = sample_boards(RIVER, plan.sweep_boards, seed, deck)
    out += [("sweep", f, start, b) for f in sweep_families() for b in sweep]
    out += [("effects", RIVER, start, b) for boards in class_boards(plan.class_boards, seed, deck).values()
            for b in boards]
    return out


SECOND = "states-2"
"""The sample name of the second, independent board sample of the game states (seed + 1)."""


def second_jobs(plan: Plan, seed: int, deck: str) -> list[Job]:
    """The game states again on an independent board sample (seed + 1): the check that an aggregate
    over one sample lies within its standard error of the other's (:func:`agreement`)."""
    return [(SECOND, RIVER, s, b) for s in STATES for b in sample_boards(RIVER, plan.state_boards, seed + 1, deck)]


def solve_jobs(folder: Path, todo: Iterable[Job], deck: str, plan: Plan, progress=None) -> list[Path]:
    """Solve (or resume) every job into ``folder/solutions``; the files in the order of ``todo``."""
    todo = list(todo)
    paths = []
    for i, (_, family, state, board) in enumerate(todo):
        if progress:
            progress(i, len(todo), f"{family.name} {state.name} {board}")
        paths += solve_family(folder, family, [board], (state,), deck, plan.target_pct, plan.max_iterations)
    return paths


def root_shares(sol) -> dict[str, float]:
    """The first player's range at the root, weighted by how likely each holding is: the share
    that bets (any size, all-in included), checks and folds for free."""
    v = sol.node(())
    w = sol.holding_weights(v)
    strat = sol.strategy(())
    kind = {c: str(c).split()[0].lower() for c in strat.columns}
    share = {k: float((w * strat[[c for c in strat.columns if kind[c] in words]].sum(axis=1).to_numpy()).sum()
                      / w.sum())
             for k, words in (("root_bets", ("bet", "allin", "raise")), ("root_checks", ("check",)),
                              ("root_folds", ("fold",)))}
    return share


def end_tables(todo: Sequence[Job], paths: Sequence[Path], deck: str) -> dict[str, pd.DataFrame]:
    """``end_spots`` (one row per spot: pot, stack, bank, level, board texture, convergence, values),
    ``end_fold_or_check`` (the free-fold answer at each river decision offering it) and
    ``end_facing_bet`` (each decision facing a bet: call shares, equity threshold, penalty costs)."""
    spots, free, facing = [], [], []
    for (sample, family, state, board), path in zip(todo, paths, strict=True):
        sol = load_solution(path)
        key = {"sample": sample, "family": family.name, "state": state.name, "board": board}
        ev = list(sol.ev().values())
        spots.append({**key, "pot": sol.spot.pot, "stack": sol.spot.stack, "bank": "/".join(map(str, state.bank)),
                      "bank_left": sum(state.bank), "level": state.level,
                      **texture(list(sol.spot.board), deck), "iterations": sol.iterations,
                      "exploitability_pct_pot": sol.exploitability_pct,
                      "nash_conv_pct_pot": 100.0 * sol.solver.nash_conv / sol.spot.pot,
                      "ev_oop": ev[0], "ev_ip": ev[1], **root_shares(sol)})
        free += [{**key, **row} for row in heads_up_free_rows(sol)]
        facing += [{**key, **row} for row in facing_bet(sol)]
    return {"end_spots": pd.DataFrame(spots), "end_fold_or_check": pd.DataFrame(free),
            "end_facing_bet": pd.DataFrame(facing)}


ANSWER_KEYS = ("sample", "family", "state", "pot", "stack", "effect")
"""What :func:`answers` groups by (the effect class only in the ``effects`` sample)."""

METRICS: dict[str, tuple[str, ...]] = {
    "": ("folds_for_free", "checks", "indifferent", "regret_fold", "regret_check", "fold_cost"),
    "ip_": ("folds_for_free", "regret_fold", "fold_cost"),
    "call_": ("pot_odds", "calls", "prefers_call", "threshold", "fold_cost", "weakest_call_cost"),
}
"""Per board: the first player's free-fold answer at the root (no prefix), the second player's
after a check (``ip_``) and the second player facing the first bet (``call_``)."""


def first_bet(facing: pd.DataFrame) -> pd.DataFrame:
    """Per spot, the second player's decision facing the first player's opening bet: the pot-sized
    bet, or the all-in where the stack is no more than the pot (the only bet then)."""
    opening = facing[~facing["line"].str.contains("/")]
    opening = opening.assign(_allin=opening["line"].str.startswith("allin")).sort_values("_allin", kind="stable")
    return opening.drop_duplicates(["sample", "family", "state", "board"]).drop(columns="_allin")


def per_board(tables: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """One row per spot: the keys of :data:`ANSWER_KEYS`, the board, the first player's value and
    root shares, and the answers of :data:`METRICS` (NaN where a spot has no such decision)."""
    spots, free, facing = tables["end_spots"], tables["end_fold_or_check"], tables["end_facing_bet"]
    on = ["sample", "family", "state", "board"]
    out = spots.assign(effect=np.where(spots["sample"] == "effects", spots["effect"], "all"))[
        [*ANSWER_KEYS, "board", "ev_oop", "root_bets", "root_folds", "exploitability_pct_pot"]]
    parts = {"": free[free["line"] == "(root)"], "ip_": free[free["line"] == "check"], "call_": first_bet(facing)}
    for prefix, frame in parts.items():
        cols = list(METRICS[prefix])
        renamed = frame[[*on, *cols]].rename(columns={c: prefix + c for c in cols})
        out = out.merge(renamed, on=on, how="left")
    return out


def _mean_se(x: pd.Series) -> tuple[float, float]:
    x = x.astype(float).dropna()
    return (float(x.mean()) if len(x) else float("nan"),
            float(x.std(ddof=1) / np.sqrt(len(x))) if len(x) > 1 else float("nan"))


VALUES = ("ev_oop", "root_bets", "root_folds", *(p + c for p, cols in METRICS.items() for c in cols))
"""The per-board values :func:`answers` and :func:`changes` average."""


def answers(tables: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """Per sample and group (state, pot and stack, or effect class): the boards, the largest
    exploitability and the mean of every value of :data:`VALUES` over the boards with its standard
    error (``_se``; NaN with one board)."""
    rows = []
    for key, group in per_board(tables).groupby(list(ANSWER_KEYS), sort=False):
        row = {**dict(zip(ANSWER_KEYS, key, strict=True)), "boards": len(group),
               "exploitability_pct_pot_max": float(group["exploitability_pct_pot"].max())}
        for col in VALUES:
            row[col], row[f"{col}_se"] = _mean_se(group[col])
        rows.append(row)
    return pd.DataFrame(rows)


STATE_PAIRS: tuple[tuple[str, str], ...] = (("level2", "start"), ("level3", "start"), ("bank3-100", "level3"),
                                            ("bank3-low", "level3"))
"""The game-state comparisons :func:`changes` makes: the blinds alone (against the start), the short
bank alone (against bank 3 full at the same blinds)."""


def changes(tables: dict[str, pd.DataFrame], pairs: Sequence[tuple[str, str]] = STATE_PAIRS) -> pd.DataFrame:
    """Per pair of game states (``state`` against ``base``), on the boards both were solved on: how
    many boards' solutions differ at all (the first player's value) and their active effect classes,
    and the mean change of every value of :data:`VALUES`, board by board, with its standard error
    (paired: the board's own variation cancels)."""
    board = per_board(tables).merge(tables["end_spots"][["sample", "family", "state", "board", "effect"]].rename(
        columns={"effect": "effect_class"}), on=["sample", "family", "state", "board"])
    board = board[board["sample"] == "states"].set_index("board")
    rows = []
    for state, base in pairs:
        a, b = board[board["state"] == state], board[board["state"] == base]
        common = a.index.intersection(b.index)
        if not len(common):
            continue
        differ = (a.loc[common, "ev_oop"] - b.loc[common, "ev_oop"]).abs() > 1e-9
        row = {"state": state, "base": base, "boards": len(common), "boards_differ": int(differ.sum()),
               "differ_effects": ", ".join(sorted(a.loc[common][differ.to_numpy()]["effect_class"].unique()))}
        for col in VALUES:
            row[col], row[f"{col}_se"] = _mean_se(a.loc[common, col] - b.loc[common, col])
        rows.append(row)
    return pd.DataFrame(rows)


AGREE = ("regret_fold", "root_bets", "call_calls", "call_threshold", "ev_oop")
"""The values :func:`agreement` compares between the two board samples."""


def agreement(ans: pd.DataFrame, first: str = "states", second: str = SECOND,
              values: Sequence[str] = AGREE) -> pd.DataFrame:
    """Per game state and value: the mean and standard error over each board sample and the gap in
    combined standard errors (``z``; NaN where a sample has one board)."""
    a = ans[ans["sample"] == first].set_index("state")
    b = ans[ans["sample"] == second].set_index("state")
    rows = []
    for state in a.index.intersection(b.index):
        for col in values:
            se = float(np.hypot(a.loc[state, f"{col}_se"], b.loc[state, f"{col}_se"]))
            gap = float(a.loc[state, col] - b.loc[state, col])
            rows.append({"state": state, "value": col, "boards": int(a.loc[state, "boards"]),
                         "boards_second": int(b.loc[state, "boards"]), "mean": float(a.loc[state, col]),
                         "se": float(a.loc[state, f"{col}_se"]), "mean_second": float(b.loc[state, col]),
                         "se_second": float(b.loc[state, f"{col}_se"]),
                         "z": gap / se if se > 0 else float("nan")})
    return pd.DataFrame(rows)
