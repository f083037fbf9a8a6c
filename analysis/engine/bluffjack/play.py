"""Bluffjack hands and whole games played by the kernel; histories of kernel hands.

:func:`play_hands` plays independent hands at one table (the dealer moving each hand),
:func:`hand_histories` turns them into history lines, each replayed by the referee before
it is returned, and :func:`play_games` plays whole games until one player holds every chip
(RULES §3: a player with no chips leaves). Same seed, same hands and games, whatever the
thread count (every hand or game has its own generator stream).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from analysis.core.rng import derive_key
from analysis.core.threads import run_tasks
from analysis.engine.errors import TableError
from analysis.runners.progress import Progress
from evaluator.blackjack import BLUFFJACK, BluffjackRules, get_bluffjack_rules
from evaluator.cards import format_cards

from . import _kernel as K
from .history import FORMAT, replay_history
from .referee import MAX_PLAYERS, ROUNDS
from .stakes import Stakes, get_stakes
from .strategy import Strategy, compile_strategies, load_strategy

__all__ = ["BluffjackTable", "HandBatch", "hand_histories", "history_from_log", "play_games", "play_hands"]


@dataclass(frozen=True)
class BluffjackTable:
    """Seats (a strategy each), starting stacks, stakes and showdown rules."""

    strategies: tuple[str, ...]
    stacks: tuple[int, ...]
    stakes: Stakes
    rules: BluffjackRules

    @classmethod
    def make(cls, strategies: list[str] | tuple[str, ...], players: int | None = None, stack: int = 100,
             stakes: Stakes | str | None = None, rules: BluffjackRules | str | None = None) -> BluffjackTable:
        """``players`` seats, the strategies repeated around the table; ``stack`` chips each."""
        names = [s for s in strategies if s]
        if not names:
            raise TableError("give at least one strategy")
        for name in dict.fromkeys(names):
            load_strategy(name)  # an unknown or malformed strategy is reported first
        n = players or len(names)
        if not 2 <= n <= MAX_PLAYERS:
            raise TableError(f"Bluffjack needs 2-{MAX_PLAYERS} players; got {n}"
                             + (" (give --players or more strategies)" if not players else ""))
        if isinstance(stack, bool) or not isinstance(stack, int) or stack < 1:
            raise TableError(f"the stack must be at least 1 chip; got {stack!r}")
        return cls(tuple(names[i % len(names)] for i in range(n)), (stack,) * n, get_stakes(stakes),
                   get_bluffjack_rules(rules))

    @property
    def n(self) -> int:
        return len(self.strategies)

    @property
    def names(self) -> list[str]:
        return [f"P{i + 1}" for i in range(self.n)]

    def kernel_inputs(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, tuple, np.ndarray, list[Strategy]]:
        """Stacks, stakes, rules, compiled strategies and the strategy index of each seat."""
        distinct = list(dict.fromkeys(self.strategies))
        loaded = [load_strategy(s) for s in distinct]
        arrays = compile_strategies(loaded)
        pol = tuple(arrays[k] for k in ("n_rules", "kind", "lo", "hi", "cum", "size"))
        seat_pol = np.array([distinct.index(s) for s in self.strategies], dtype=np.int64)
        return (np.array(self.stacks, dtype=np.int64), self.stakes.kernel_args, self.rules.kernel_args, pol,
                seat_pol, loaded)


@dataclass(frozen=True)
class HandBatch:
    """Kernel hands from number ``first``: decks, logs, final stacks and the per-hand ``HS_*`` summary."""

    first: int
    decks: np.ndarray
    logs: np.ndarray
    stacks: np.ndarray
    summary: np.ndarray


BLOCKS = 64
"""Tasks a batch of hands or games is cut into for the threads (:func:`_blocks`)."""
_NO_LOGS = np.zeros((0, 0, 4), np.int64)


def play_hands(table: BluffjackTable, hands: int, seed: int = 0, *, first: int = 0, log: bool = True) -> HandBatch:
    """Hands ``first .. first + hands - 1`` from the table's stacks (hand ``h`` has dealer seat
    ``h % n``); ``log=False`` keeps the results only (no action logs: 16 kB a hand less)."""
    stacks, stakes, rules, pol, seat_pol, _ = table.kernel_inputs()
    logs = np.zeros((hands, K.MAX_LOG if log else 0, 4), np.int64)
    out = np.zeros((hands, table.n), np.int64)
    gs = np.zeros((hands, K.N_G), np.int64)
    decks = np.zeros((hands, K.DECK), np.int64)
    key = derive_key(seed, "bluffjack-hands")
    outs = (logs, out, gs, decks, np.zeros((0, table.n + 4), np.int64))
    _blocks(lambda lo, hi: K.play_block((K.HANDS, lo, hi, first, 0), stacks, (stakes, rules, pol), seat_pol, key,
                                        outs), hands)
    return HandBatch(first, decks, logs, out, gs)


def _blocks(task: Callable[[int, int], object], rows: int) -> None:
    """``task(lo, hi)`` over blocks of the ``rows`` of a batch, on the lab's threads (each row has its
    own stream: the blocks never change the numbers)."""
    n = min(rows, BLOCKS)
    run_tasks(lambda b: task(rows * b // n, rows * (b + 1) // n), n)


def history_from_log(table: BluffjackTable, h: int, batch: HandBatch) -> dict[str, Any]:
    """The history line of the batch's ``h``-th hand (hand number ``batch.first + h``)."""
    n = table.n
    names = table.names
    dealer = (batch.first + h) % n
    deck = batch.decks[h]
    count = int(batch.summary[h, K.HS_ACTIONS])
    if count > batch.logs.shape[1]:
        raise TableError(f"hand {batch.first + h + 1} took {count} actions, more than the log holds "
                         f"({batch.logs.shape[1]})")
    first = (dealer + 1) % n
    down, up = {}, {}
    for k in range(n):
        i = (first + k) % n
        down[names[i]] = format_cards([int(deck[k])], BLUFFJACK)
        up[names[i]] = format_cards([int(deck[n + k])], BLUFFJACK)
    actions = []
    for rnd, seat, act, amount in batch.logs[h, :count].tolist():
        row: list[Any] = [ROUNDS[rnd], names[seat], K.ACTION_NAMES[act]]
        if act == K.A_HIT:
            row.append(format_cards([amount], BLUFFJACK))
        elif act in (K.A_BET, K.A_RAISE):
            row.append(amount)
        actions.append(row)
    g = batch.summary[h]
    return {"format": FORMAT, "hand": batch.first + h + 1, "game": "bluffjack",
            "table": {"seats": names, "stacks": list(table.stacks), "dealer": names[dealer]},
            "stakes": table.stakes.as_dict(), "rules": table.rules.as_dict(), "down": down, "up": up,
            "actions": actions,
            "strategies": dict(zip(names, table.strategies, strict=True)),
            "result": {"stacks": dict(zip(names, batch.stacks[h].tolist(), strict=True)),
                       "house": int(g[K.HS_HOUSE]), "carry": int(g[K.HS_CARRY]),
                       "showdown": bool(g[K.HS_SHOWDOWN])}}


CHUNK_HANDS = 10_000
"""Hands played per kernel call when writing histories (their logs take 16 kB a hand)."""


def hand_histories(table: BluffjackTable, hands: int, seed: int = 0) -> list[dict[str, Any]]:
    """History lines of ``hands`` kernel hands, each replayed through the referee first."""
    lines = []
    for first in range(0, hands, CHUNK_HANDS):
        batch = play_hands(table, min(CHUNK_HANDS, hands - first), seed, first=first)
        for h in range(batch.stacks.shape[0]):
            line = history_from_log(table, h, batch)
            _, result = replay_history(line, f"kernel hand {first + h + 1}")
            line["result"]["winners"] = [table.names[i] for i in result.winners]
            lines.append(line)
    return lines


GAMES_CHUNK_SECONDS = 0.5
"""Whole games go to the kernel in calls of about this long, so a Ctrl-C is seen within a second."""


def play_games(table: BluffjackTable, games: int, seed: int = 0, max_hands: int = 5000, *,
               progress: Progress | None = None, stop: threading.Event | None = None,
               chunk: int | None = None) -> pd.DataFrame:
    """Whole games until one player holds every chip (``reason``: ``won``, ``house`` when the
    house took the last chips, ``max_hands``); one row per game.

    The games go to the kernel in calls of about :data:`GAMES_CHUNK_SECONDS` (or ``chunk`` games
    each); game ``g`` has its own stream, so any chunking plays the same games. When ``stop`` is
    set after a call, the games finished so far are returned (the first rows of the whole run)."""
    if isinstance(max_hands, bool) or not isinstance(max_hands, int) or max_hands < 1:
        raise TableError(f"max_hands must be at least 1; got {max_hands!r}")
    if chunk is not None and (isinstance(chunk, bool) or not isinstance(chunk, int) or chunk < 1):
        raise TableError(f"chunk must be at least 1 game; got {chunk!r}")
    stacks, stakes, rules, pol, seat_pol, _ = table.kernel_inputs()
    n = table.n
    key = derive_key(seed, "bluffjack-games")
    rec = np.zeros((games, n + 4), np.int64)
    no_hands = (_NO_LOGS, np.zeros((0, n), np.int64), np.zeros((0, K.N_G), np.int64), np.zeros((0, K.DECK), np.int64))
    done, step = 0, chunk or 1
    while done < games and not (stop is not None and stop.is_set()):
        k = min(step, games - done)
        started = time.perf_counter()
        outs = (*no_hands, rec[done:done + k])
        _blocks(lambda lo, hi, first=done, outs=outs: K.play_block((K.GAMES, lo, hi, first, max_hands), stacks,
                                                                   (stakes, rules, pol), seat_pol, key, outs), k)
        seconds = time.perf_counter() - started
        done += k
        if progress is not None:
            progress(done, games, "games")
        if chunk is None:
            step = max(1, min(4 * k, int(k * GAMES_CHUNK_SECONDS / max(seconds, 1e-9))))
    rec = rec[:done]
    df = pd.DataFrame({"game": np.arange(1, done + 1), "hands": rec[:, 0]})
    winner = rec[:, 1]
    alive = (rec[:, 2:2 + n] > 0).sum(axis=1)
    df["reason"] = np.where(winner >= 0, "won", np.where(alive == 0, "house", "max_hands"))
    df["winner_seat"] = winner + 1
    df["winner"] = [table.strategies[w] if w >= 0 else "" for w in winner]
    for i in range(n):
        df[f"P{i + 1}_chips"] = rec[:, 2 + i]
    df["house"] = rec[:, 2 + n]
    df["carry"] = rec[:, 3 + n]
    return df


def games_summary(table: BluffjackTable, games: pd.DataFrame) -> pd.DataFrame:
    """Games won by each strategy (seats pooled), with the binomial standard error."""
    rows = []
    total = len(games)
    for name in dict.fromkeys(table.strategies):
        seats = sum(1 for s in table.strategies if s == name)
        wins = int((games["winner"] == name).sum())
        q = wins / total  # a game has one winner: the strategy's wins are binomial(total, q)
        rows.append({"strategy": name, "seats": seats, "games": total, "wins": wins,
                     "win_rate_per_seat": q / seats, "stderr": float(np.sqrt(q * (1 - q) / total)) / seats,
                     "fair_share": 1 / table.n})
    return pd.DataFrame(rows)
