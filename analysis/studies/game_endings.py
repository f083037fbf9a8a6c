"""How whole Dilemma games end, and which factor decides it: the strategies at the table, the deck
or the rules as modelled.

The guide's tournament table ends most games by elimination, while the game's designer promises
games that end when the bank runs dry. :func:`game_endings` plays whole games at tables that
differ from the guide's in one factor at a time (who sits there, which deck, one rule option
where the sources are silent) and reports how each ends: by the bank, with one player left,
or at the hand cap, with the game length in hands and standard errors.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

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
    rules: dict[str, str] = field(default_factory=dict)
    factor: str = "strategies"
    """What this table changes from the guide's: ``strategies``, ``deck`` or ``rules``."""


def _alone(name: str) -> tuple[str, ...]:
    return (name,) * 6


TABLES: tuple[Table, ...] = (
    Table("guide table", GUIDE_TABLE, factor="guide"),
    Table("guide table, maniac replaced by abc", GUIDE_TABLE[:4] + ("abc",) + GUIDE_TABLE[5:]),
    *(Table(f"six {s}", _alone(s)) for s in ("abc", "fold-free-multiway", "fold-free-always",
                                              "tight-aggressive", "calling-station", "maniac",
                                              "passive", "tight")),
    Table("guide table, plain deck", GUIDE_TABLE, deck="plain", factor="deck"),
    Table("guide table, bare deck", GUIDE_TABLE, deck="bare", factor="deck"),
    Table("six calling-station, plain deck", _alone("calling-station"), deck="plain", factor="deck"),
    Table("six calling-station, bare deck", _alone("calling-station"), deck="bare", factor="deck"),
    Table("guide table, no showdown exception", GUIDE_TABLE, rules={"showdown_exception": "none"},
          factor="rules"),
    Table("guide table, exception at any showdown", GUIDE_TABLE,
          rules={"showdown_exception": "any_showdown"}, factor="rules"),
    Table("guide table, others cover an insolvent loser", GUIDE_TABLE,
          rules={"insolvent_loser": "others_cover"}, factor="rules"),
)
"""The study's tables: the guide's, then one factor changed at a time."""

COLUMNS = ("table", "factor", "strategies", "deck", "rules", "games", "mean_hands", "mean_hands_se",
           "median_hands", "share_bank", "share_bank_se", "share_one_left", "share_one_left_se",
           "share_cap", "mean_bankruptcies")


def endings_row(table: Table, deck: str, games: pd.DataFrame) -> dict[str, object]:
    """One table's row from its per-game records (``hands``, ``reason``, ``bankruptcies``) on ``deck``."""
    k = len(games)
    hands = games["hands"].to_numpy(float)

    def share(reason: str) -> tuple[float, float]:
        p = float((games["reason"] == reason).mean())
        return p, float(np.sqrt(p * (1 - p) / k))

    bank, bank_se = share("bank")
    one, one_se = share("one_left")
    return {"table": table.name, "factor": table.factor, "strategies": ",".join(table.strategies),
            "deck": deck, "rules": ",".join(f"{k}={v}" for k, v in table.rules.items()) or "default",
            "games": k, "mean_hands": float(hands.mean()),
            "mean_hands_se": float(hands.std(ddof=1) / np.sqrt(k)) if k > 1 else float("nan"),
            "median_hands": float(np.median(hands)), "share_bank": bank, "share_bank_se": bank_se,
            "share_one_left": one, "share_one_left_se": one_se,
            "share_cap": float((games["reason"] == "cap").mean()),
            "mean_bankruptcies": float(games["bankruptcies"].mean())}


def game_endings(games: int, seed: int = 0, deck: str = "reference", tables: Sequence[Table] = TABLES,
                 progress: Callable[[int, int, str], None] | None = None) -> pd.DataFrame:
    """Play ``games`` whole games at every table (``deck`` where a table names none; seeded: the
    same seed deals the same cards at every table of a deck) and return one row per table
    (:data:`COLUMNS`)."""
    rows = []
    for i, table in enumerate(tables):
        if progress:
            progress(i, len(tables), table.name)
        on = table.deck or deck
        config = GameConfig(strategies=table.strategies, deck=on, rules=Rules.parse(table.rules), seed=seed)
        rows.append(endings_row(table, on, simulate_games(config, games).games))
    if progress:
        progress(len(tables), len(tables), "done")
    return pd.DataFrame(rows, columns=list(COLUMNS))
