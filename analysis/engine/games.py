"""Whole games through the runner: Dilemma games until the bank is dry, Texas cash sessions,
and the duplicate tournament (seats rotated over the same deals).

A game starts from RULES §1.1 (2-10 players, $1,000 each, bank 300/700/500, blinds
10/20 rising with the bank tiers, the DEALER moving one seat a hand) and ends when the
settlement says so (the bank could not pay in full, is empty, or one player is left).
Nothing else guarantees an end (the bank can refill: with everybody checking, bonus out
and penalty in roughly balance), so a game also stops at ``max_hands`` (default 2,000,
reported as ``reason = cap`` and counted in the manifest). Texas Hold'em plays cash
sessions of exactly ``max_hands`` hands on the same engine, a busted player buying in
again; its "final chips" are net results.

Cells are seatings (one strategy per seat); stream ``k`` of a cell is a batch of
``GAMES_PER_STREAM`` games, game ``g`` drawing hand ``h``'s cards from stream ``(g, h)``
of the cell-independent card key, so every seating sees the same deals: the duplicate
tournament rotates the seats over them and compares strategies on equal cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from analysis.core.io import provenance
from analysis.core.rng import derive_key
from analysis.core.threads import run_tasks
from analysis.dilemma.decks import load_deck
from analysis.dilemma.settlement import Rules
from analysis.runners import Backend, FixedTrials, Plan, Progress, Schedule, run

from . import _batch as B
from .errors import TableError
from .policy import Policy, load_policy
from .simulate import kernel_inputs
from .structures import Structure, get_structure
from .table import MAX_PLAYERS, TableSetup, engine_game

GAMES_PER_STREAM = 8
DEFAULT_MAX_HANDS = 2000
REASONS = {B.REASON_BANK: "bank", B.REASON_ONE_LEFT: "one_left", B.REASON_CAP: "cap",
           B.REASON_HANDS: "hands"}
STAT_NAMES = ("games", "hands", "hands_sq", "showdowns", "ended_preflop", "ended_flop", "ended_turn",
              "ended_river", "free_folds", "pot", "penalty", "bonus", "capped")


@dataclass(frozen=True)
class GameConfig:
    """What every game of a run shares: game, seats' strategies, structure, chips, cap, seed."""

    strategies: tuple[str, ...]
    """One strategy (name or path) per seat, seat 1 first (the first DEALER is seat 1)."""
    game: str = "dilemma"
    structure: str = ""
    deck: str = ""
    rules: Rules = field(default_factory=Rules)
    stack: int = 0
    max_hands: int = DEFAULT_MAX_HANDS
    blinds: tuple[int, int] = (1, 2)
    """Texas Hold'em blinds (Dilemma: ``rules.blinds`` by level)."""
    seed: int = 0

    def __post_init__(self) -> None:
        spec = engine_game(self.game)
        n = len(self.strategies)
        if not 2 <= n <= MAX_PLAYERS:
            raise TableError(f"players: a game seats 2 to {MAX_PLAYERS} players, got {n}")
        if not self.structure:
            object.__setattr__(self, "structure", spec.structure)
        if not self.deck:
            object.__setattr__(self, "deck", spec.default_deck)
        if not self.stack:
            object.__setattr__(self, "stack", spec.stack)
        if self.stack < 0:
            raise TableError(f"stack: must not be negative, got {self.stack}")
        if not 1 <= self.max_hands < B.HANDS_PER_GAME:
            raise TableError(f"max_hands: between 1 and {B.HANDS_PER_GAME - 1}, got {self.max_hands}")
        if self.seed < 0:
            raise TableError(f"seed: a non-negative integer, got {self.seed}")

    @property
    def n(self) -> int:
        return len(self.strategies)

    @property
    def dilemma(self) -> bool:
        """Whether hands are settled by the Dilemma rules (bank, blind levels, final chips)."""
        return engine_game(self.game).settlement == "dilemma"

    @property
    def value(self) -> str:
        """The per-seat result column: ``final_chips`` (a Dilemma game) or ``net_chips`` (a cash session)."""
        return "final_chips" if self.dilemma else "net_chips"

    def setup(self) -> TableSetup:
        """A table of this configuration (its first hand), validated."""
        st: Structure = get_structure(self.structure)
        blinds = self.rules.blinds[0] if self.dilemma else self.blinds
        return TableSetup(names=tuple(f"P{i + 1}" for i in range(self.n)), stacks=(self.stack,) * self.n,
                          dealer=0, blinds=blinds, game=self.game, structure=st, deck=self.deck,
                          rules=self.rules).validate()

    def describe(self) -> dict[str, Any]:
        return {"game": self.game, "strategies": list(self.strategies), "structure": self.structure,
                "deck": load_deck(self.deck).label, "rules": self.rules.label, "stack": self.stack,
                "max_hands": self.max_hands, "seed": self.seed,
                "blinds": [list(b) for b in self.rules.blinds] if self.dilemma
                else list(self.blinds)}


class GamesPlan(Plan):
    """Cells are seatings (policy index per seat); a stream is a batch of whole games."""

    name = "games"
    stream_size = GAMES_PER_STREAM
    record_width = B.N_GCOLS

    def __init__(self, config: GameConfig, policies: Sequence[Policy], seatings: np.ndarray,
                 games: int) -> None:
        self.config = config
        setup = config.setup()
        self.structure, self.pols, self.cardsdata, _ = kernel_inputs(setup, list(policies))
        self.seatings = np.asarray(seatings, np.int64)
        self.cfg = np.zeros(B.N_CFG, np.int64)
        self.cfg[B.CF_N] = config.n
        self.cfg[B.CF_STACK] = config.stack
        self.cfg[B.CF_MAX_HANDS] = config.max_hands
        self.cfg[B.CF_BANK1:B.CF_BANK3 + 1] = setup.bank
        levels = config.rules.blinds if config.dilemma else (config.blinds,) * 3
        self.blinds = np.array(levels, np.int64)
        self.key_cards = derive_key(config.seed, "game-cards")
        self.key_actions = derive_key(config.seed, "game-actions")
        self.games = games
        self.policy_names = [p.name for p in policies]

    @property
    def n_cells(self) -> int:
        return len(self.seatings)

    @property
    def n_stats(self) -> int:
        return B.N_GSTATS

    @property
    def stats_dtype(self) -> type:
        return np.int64

    @property
    def schedule(self) -> Schedule:
        return FixedTrials(self.games)

    def settings(self) -> dict[str, Any]:
        return {**self.config.describe(), "policies": self.policy_names,
                "seatings": self.seatings.tolist(), "version": 1}

    def run(self, cells: np.ndarray, streams: np.ndarray, trials: np.ndarray) -> Any:
        stats = np.zeros((len(cells), B.N_GSTATS), np.int64)
        recs = np.zeros((int(trials.sum()), B.N_GCOLS), np.int64)
        cells, streams, trials = (a.astype(np.int64) for a in (cells, streams, trials))
        offsets = np.concatenate([[0], np.cumsum(trials)]).astype(np.int64)
        rows, keys = (cells, streams, trials, int(self.stream_size)), (self.key_cards, self.key_actions)
        table, game = (self.cfg, self.seatings, self.blinds), (self.structure, self.pols, self.cardsdata)
        no_trace = np.zeros((0, B.N_TRACE), np.int64)
        dilemma = self.config.dilemma
        run_tasks(lambda r: B.games_rows(rows, keys, table, game, (stats, recs, offsets, no_trace), (r, r + 1),
                                         dilemma), len(cells))
        return stats, recs

    def trace(self, cell: int = 0, game: int = 0) -> np.ndarray:
        """Stacks, bank and level after every hand of one game (row 0: the start)."""
        trace = np.full((self.config.max_hands + 1, B.N_TRACE), -1, np.int64)
        recs = np.zeros((1, B.N_GCOLS), np.int64)
        stats = np.zeros((1, B.N_GSTATS), np.int64)
        one = np.ones(1, np.int64)
        rows = (np.array([cell], np.int64), np.array([game], np.int64), one, 1)
        B.games_rows(rows, (self.key_cards, self.key_actions), (self.cfg, self.seatings, self.blinds),
                     (self.structure, self.pols, self.cardsdata), (stats, recs, np.zeros(2, np.int64), trace),
                     (0, 1), self.config.dilemma)
        rec = recs[0]
        return trace[: rec[B.GR_HANDS] + 1]


@dataclass
class GameResult:
    """Per-game records, per-seat results, per-hand aggregates, a sample game and the manifest."""

    games: pd.DataFrame
    seats: pd.DataFrame
    hands: pd.DataFrame
    sample: pd.DataFrame
    summary: pd.DataFrame
    manifest: dict[str, Any]


def _unique_policies(strategies: Sequence[str]) -> tuple[list[Policy], list[int]]:
    policies: list[Policy] = []
    index: dict[str, int] = {}
    seat_idx = []
    for s in strategies:
        if s not in index:
            index[s] = len(policies)
            policies.append(load_policy(s))
        seat_idx.append(index[s])
    return policies, seat_idx


def _frames(plan: GamesPlan, records: np.ndarray, totals: np.ndarray, cell_names: list[str]
            ) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    n = plan.config.n
    dilemma = plan.config.dilemma
    rec = records
    games = pd.DataFrame({
        "game": rec[:, B.GR_GAME], "seating": [cell_names[c] for c in rec[:, B.GR_CELL]],
        "cell": rec[:, B.GR_CELL], "players": rec[:, B.GR_N], "hands": rec[:, B.GR_HANDS],
        "winner_seat": rec[:, B.GR_WINNER] + 1,
        "winner_strategy": [plan.policy_names[plan.seatings[c, w]]
                            for c, w in zip(rec[:, B.GR_CELL], rec[:, B.GR_WINNER], strict=True)],
        "reason": [REASONS.get(int(r), "?") for r in rec[:, B.GR_REASON]],
    })
    if dilemma:
        for t, col in enumerate((B.GR_TIER1, B.GR_TIER2, B.GR_TIER3), start=1):
            games[f"bank{t}_empty_hand"] = pd.array(np.where(rec[:, col] >= 0, rec[:, col], -1)).astype("Int64")
            games.loc[games[f"bank{t}_empty_hand"] < 0, f"bank{t}_empty_hand"] = pd.NA
        games["bankruptcies"] = rec[:, B.GR_NBUST]
    for i in range(n):
        games[f"final_P{i + 1}"] = rec[:, B.GR_STACK0 + i]
    rows = []
    for k in range(len(rec)):
        c = rec[k, B.GR_CELL]
        top = rec[k, B.GR_STACK0:B.GR_STACK0 + n].max()
        tied = int((rec[k, B.GR_STACK0:B.GR_STACK0 + n] == top).sum())
        for i in range(n):
            final = int(rec[k, B.GR_STACK0 + i])
            bust = int(rec[k, B.GR_BUST0 + i])
            rows.append((int(rec[k, B.GR_GAME]), cell_names[c], i + 1, plan.policy_names[plan.seatings[c, i]],
                         final, (final == top) / tied, bust if bust >= 0 else None))
    seats = pd.DataFrame(rows, columns=["game", "seating", "seat", "strategy",
                                        plan.config.value, "win_share",
                                        "bust_hand"])
    seats["bust_hand"] = seats["bust_hand"].astype("Int64")
    hands = pd.DataFrame(totals, columns=list(STAT_NAMES))
    hands.insert(0, "seating", cell_names)
    h = hands["hands"].clip(lower=1)
    hands["mean_hands_per_game"] = hands["hands"] / hands["games"].clip(lower=1)
    hands["showdown_rate"] = hands["showdowns"] / h
    hands["free_folds_per_hand"] = hands["free_folds"] / h
    hands["mean_pot"] = hands["pot"] / h
    hands["mean_penalty"] = hands["penalty"] / h
    hands["mean_bonus"] = hands["bonus"] / h
    return games, seats, hands


def _by_strategy(seats: pd.DataFrame, value: str) -> pd.DataFrame:
    """Win rate and mean final chips by strategy and seat, with standard errors."""
    out = []
    for (strategy, seat), g in seats.groupby(["strategy", "seat"]):
        k = len(g)
        p = g["win_share"].mean()
        out.append({"strategy": strategy, "seat": seat, "games": k, "win_rate": p,
                    "win_rate_se": float(np.sqrt(max(p * (1 - p), 0) / max(k, 1))),
                    f"mean_{value}": g[value].mean(),
                    f"mean_{value}_se": float(g[value].std(ddof=1) / np.sqrt(k)) if k > 1 else np.nan,
                    "bust_rate": g["bust_hand"].notna().mean()})
    return pd.DataFrame(out)


def simulate_games(config: GameConfig, games: int, *, backend: Backend | None = None,
                   progress: Progress | None = None, state_dir: Any = None) -> GameResult:
    """Play ``games`` whole games at one seating; records, per-seat results, aggregates."""
    if games < 1:
        raise TableError(f"games: at least 1, got {games}")
    policies, seat_idx = _unique_policies(config.strategies)
    plan = GamesPlan(config, policies, np.array([seat_idx]), games)
    res = run(plan, backend=backend, state_dir=state_dir, progress=progress)
    names = ["as given"]
    games_df, seats, hands = _frames(plan, res.records, res.totals, names)
    value = config.value
    summary = _by_strategy(seats, value)
    sample = _sample(plan)
    manifest = provenance(**config.describe(), games=games, trials=games, method="whole games",
                          games_per_stream=GAMES_PER_STREAM, capped=int(res.totals[:, B.S_CAPPED].sum()),
                          seconds=round(res.seconds, 2), backend=res.backend)
    return GameResult(games_df, seats, hands, sample, summary, manifest)


def _sample(plan: GamesPlan) -> pd.DataFrame:
    trace = plan.trace(0, 0)
    n = plan.config.n
    df = pd.DataFrame(trace[:, :n], columns=[f"P{i + 1}" for i in range(n)])
    df.insert(0, "hand", np.arange(len(df)))
    df["bank1"], df["bank2"], df["bank3"] = trace[:, B.TR_BANK1], trace[:, B.TR_BANK2], trace[:, B.TR_BANK3]
    df["blind_level"] = trace[:, B.TR_LEVEL]
    return df


def rotations(n_seats: int, strategies: Sequence[str]) -> tuple[list[str], np.ndarray]:
    """The base seating (strategies repeated around the table) and its ``n_seats`` rotations."""
    if not strategies:
        raise TableError("strategies: name at least one")
    base = [strategies[i % len(strategies)] for i in range(n_seats)]
    return base, np.array([[(i + r) % n_seats for i in range(n_seats)] for r in range(n_seats)])


def tournament(config: GameConfig, games: int, *, backend: Backend | None = None,
               progress: Progress | None = None, state_dir: Any = None) -> GameResult:
    """Duplicate tournament: every rotation of the seating plays the same ``games`` deals.

    ``config.strategies`` is the base seating. Each strategy's score in a game is its mean
    over the rotations (and seats it holds), so the cards' luck cancels; the ranking gives
    the mean win share and final chips over games with standard errors (games independent).
    """
    if games < 1:
        raise TableError(f"games: at least 1, got {games}")
    policies, seat_idx = _unique_policies(config.strategies)
    n = config.n
    _, rot = rotations(n, config.strategies)
    seatings = np.array([[seat_idx[rot[r, i]] for i in range(n)] for r in range(n)])
    plan = GamesPlan(config, policies, seatings, games)
    res = run(plan, backend=backend, state_dir=state_dir, progress=progress)
    names = [f"rotation {r}" for r in range(n)]
    games_df, seats, hands = _frames(plan, res.records, res.totals, names)
    value = config.value
    per_game = seats.groupby(["game", "strategy"])[["win_share", value]].mean().reset_index()
    rows = []
    for strategy, g in per_game.groupby("strategy"):
        k = len(g)
        rows.append({"strategy": strategy, "games": k, "win_share": g["win_share"].mean(),
                     "win_share_se": g["win_share"].std(ddof=1) / np.sqrt(k) if k > 1 else np.nan,
                     f"mean_{value}": g[value].mean(),
                     f"mean_{value}_se": g[value].std(ddof=1) / np.sqrt(k) if k > 1 else np.nan})
    ranking = pd.DataFrame(rows).sort_values("win_share", ascending=False).reset_index(drop=True)
    ranking.insert(0, "rank", np.arange(1, len(ranking) + 1))
    seats_per: dict[str, int] = {}
    for k in seat_idx:
        seats_per[policies[k].name] = seats_per.get(policies[k].name, 0) + 1
    ranking["seats_held"] = ranking["strategy"].map(lambda s: seats_per.get(s, 0))
    manifest = provenance(**config.describe(), games=games, trials=games * n, rotations=n,
                          method="duplicate tournament (seats rotated over the same deals)",
                          games_per_stream=GAMES_PER_STREAM,
                          capped=int(res.totals[:, B.S_CAPPED].sum()), seconds=round(res.seconds, 2),
                          backend=res.backend)
    return GameResult(games_df, seats, hands, _sample(plan), ranking, manifest)
