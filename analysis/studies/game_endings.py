"""How whole Dilemma games end, and which factor decides it: the strategies at the table, the deck
or a rule option.

The guide's tournament table ends most games by elimination, while the game's designer promises
games that end when the bank runs dry. :func:`game_endings` plays whole games at tables that
differ from the guide's in one factor at a time (who sits there, which deck, one rule option)
and reports how each ends: by the bank, with one player left, or at the hand cap, with the game
length in hands. Every table plays the same game numbers with the same seed, so each is also
compared with the guide's table game by game (paired differences and their standard errors).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from analysis.dilemma.settlement import Rules
from analysis.engine.games import GameConfig, simulate_games

GUIDE_TABLE = ("abc", "fold-free-multiway", "tight-aggressive", "calling-station", "maniac", "fold-free-always")
"""The guide's tournament seating."""

@dataclass(frozen=True)
class Table:
    """One table of the study: a name, the strategy of each of its six seats, deck and rules."""

    name: str
    strategies: tuple[str, ...]
    deck: str = ""
    """The deck; empty: the study's base deck."""
    rules: tuple[tuple[str, str], ...] = ()
    """Rule options (name, value) changed from the defaults."""
    factor: str = "strategies"
    """What this table changes from the guide's: ``guide`` (none: the baseline), ``strategies``,
    ``deck`` or ``rules``."""


def _alone(name: str) -> tuple[str, ...]:
    return (name,) * 6


TABLES: tuple[Table, ...] = (
    Table("guide table", GUIDE_TABLE, factor="guide"),
    Table("guide table, maniac replaced by abc", GUIDE_TABLE[:4] + ("abc",) + GUIDE_TABLE[5:]),
    *(Table(f"six {s}", _alone(s)) for s in ("abc", "fold-free-multiway", "fold-free-always",
                                              "tight-aggressive", "calling-station", "maniac", "tight")),
    Table("guide table, plain deck", GUIDE_TABLE, deck="plain", factor="deck"),
    Table("guide table, bare deck", GUIDE_TABLE, deck="bare", factor="deck"),
    Table("six calling-station, plain deck", _alone("calling-station"), deck="plain", factor="deck"),
    Table("six calling-station, bare deck", _alone("calling-station"), deck="bare", factor="deck"),
    *(Table(f"guide table, {k}={v}", GUIDE_TABLE, rules=((k, v),), factor="rules") for k, v in (
        ("showdown_exception", "none"), ("insolvent_loser", "others_cover"),
        ("green_effects_for", "all_dealt"), ("winners", "any_pot"), ("split_remainder", "first_winner"))),
)
"""The study's tables: the guide's, then one factor changed at a time. (Six ``passive`` players
play exactly as six calling stations: when nobody bets, nobody calls; so only the latter is here.)"""

COLUMNS = ("table", "factor", "strategies", "deck", "rules", "games", "mean_hands", "mean_hands_se",
           "median_hands", "share_bank", "share_bank_se", "share_one_left", "share_one_left_se",
           "share_cap", "mean_bankruptcies", "bank_diff", "bank_diff_se", "hands_diff", "hands_diff_se",
           "games_changed")
"""Shares are of the games; ``*_se`` are standard errors (a share's binomial one: 0 at a share of 0 or 1).
``bank_diff`` and ``hands_diff`` are the table's share ending by the bank and mean hands minus the
guide table's, game by game over the same game numbers, with paired standard errors;
``games_changed`` counts the games whose length or ending differ from the guide table's."""


def _se(x: np.ndarray) -> float:
    return float(x.std(ddof=1) / np.sqrt(len(x))) if len(x) > 1 else float("nan")


def endings_row(table: Table, deck: str, games: pd.DataFrame, guide: pd.DataFrame | None = None) -> dict[str, Any]:
    """One table's row from its per-game records (``game``, ``hands``, ``reason``, ``bankruptcies``) on
    ``deck``; ``guide``: the guide table's records over the same game numbers (None: this is it)."""
    n = len(games)
    hands = games["hands"].to_numpy(float)
    bank = (games["reason"] == "bank").to_numpy(float)
    one = (games["reason"] == "one_left").to_numpy(float)
    base = games if guide is None else guide.set_index("game").loc[games["game"]].reset_index()
    bank_d = bank - (base["reason"] == "bank").to_numpy(float)
    hands_d = hands - base["hands"].to_numpy(float)
    changed = (games["hands"].to_numpy() != base["hands"].to_numpy()) | (
        games["reason"].to_numpy() != base["reason"].to_numpy())
    return {"table": table.name, "factor": table.factor, "strategies": ",".join(table.strategies),
            "deck": deck, "rules": ",".join(f"{k}={v}" for k, v in table.rules) or "default",
            "games": n, "mean_hands": float(hands.mean()), "mean_hands_se": _se(hands),
            "median_hands": float(np.median(hands)), "share_bank": float(bank.mean()),
            "share_bank_se": float(np.sqrt(bank.mean() * (1 - bank.mean()) / n)),
            "share_one_left": float(one.mean()), "share_one_left_se": float(np.sqrt(one.mean() * (1 - one.mean()) / n)),
            "share_cap": float((games["reason"] == "cap").mean()),
            "mean_bankruptcies": float(games["bankruptcies"].mean()),
            "bank_diff": float(bank_d.mean()), "bank_diff_se": _se(bank_d),
            "hands_diff": float(hands_d.mean()), "hands_diff_se": _se(hands_d), "games_changed": int(changed.sum())}


def game_endings(games: int, seed: int = 0, deck: str = "reference", tables: Sequence[Table] = TABLES,
                 max_hands: int | None = None, **run: Any) -> pd.DataFrame:
    """Play ``games`` whole games at every table (``deck`` where a table names none; the first table
    is the baseline the others are paired with; seeded: every table plays the same game numbers)
    and return one row per table (:data:`COLUMNS`). ``run``: the runner's ``backend`` and
    ``progress`` (:func:`analysis.engine.games.simulate_games`)."""
    rows, guide = [], None
    cap = {} if max_hands is None else {"max_hands": max_hands}
    for table in tables:
        on = table.deck or deck
        config = GameConfig(strategies=table.strategies, deck=on, rules=Rules.parse(dict(table.rules)), seed=seed,
                            **cap)
        records = simulate_games(config, games, **run).games
        rows.append(endings_row(table, on, records, guide))
        if guide is None:
            guide = records
    return pd.DataFrame(rows, columns=list(COLUMNS))
