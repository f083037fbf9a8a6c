"""Opponent models and hero continuation policies for the fold-vs-check study.

Opponents are strategies of the one strategy language (:mod:`analysis.core.strategy`): an
opponent model file (``data/*.toml``) gives, per street, a **bet** threshold (a player whose
strength reaches it bets), the **bet_size** (a fraction of the pot) and a **call** threshold
(facing a bet it calls at or above it, else folds), plus the **range** its holdings are dealt
from. Strength is the share of two-card holdings the player's cards beat on the current
board (ties half). Omitting ``bet`` means never betting; ``call = 0`` calls everything. With
``relative = true`` the thresholds apply to the player's strength *within its own range*
after its actions so far. Any engine strategy (``abc``, ``maniac`` ...) is an opponent too,
read as thresholds by :func:`analysis.core.strategy.threshold_model` at the spot's table.

A hero policy gives a call threshold per street (the hero never bets after
checking). Users add models by writing a TOML file and passing its path.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from analysis.core.strategy import MODEL_DATA as DATA
from analysis.core.strategy import MODEL_STREETS as STREET_NAMES
from analysis.core.strategy import (
    NEVER,
    Decision,
    Strategy,
    builtin_strategies,
    load_strategy,
    threshold_model,
)
from analysis.core.strategy import StrategyError as ModelError
from analysis.core.strategy import ThresholdModel as OpponentModel
from analysis.core.strategy import read_threshold as _threshold


@dataclass(frozen=True)
class HeroPolicy:
    """The hero's call thresholds per street (index 0 preflop, unused) after checking."""

    name: str
    description: str
    call: tuple[float, float, float, float]


def _read(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ModelError(f"{path}: cannot read ({exc.strerror})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ModelError(f"{path}: not valid TOML ({exc})") from None


def builtin_models() -> list[str]:
    """Names of the opponent models shipped with the lab (every shipped engine strategy is an
    opponent too: :func:`analysis.core.strategy.builtin_strategies`)."""
    return builtin_strategies("model")


def load_model(name_or_path: str | Path | OpponentModel | Strategy,
               decision: Decision | None = None) -> OpponentModel:
    """An opponent's thresholds by shipped name (``passive``, ``threshold``, ``abc``, ``maniac``
    ...) or TOML path: a model's own, or a rule strategy read at ``decision`` (the spot's table;
    :func:`analysis.core.strategy.threshold_model` says what that reading assumes)."""
    if isinstance(name_or_path, OpponentModel):
        return name_or_path
    return threshold_model(load_strategy(name_or_path, what="opponent model"), decision)


def load_policy(name: str | HeroPolicy) -> HeroPolicy:
    """A hero continuation policy by name: ``check_down``, ``check_fold`` or ``call_down``."""
    if isinstance(name, HeroPolicy):
        return name
    table = _read(DATA / "policies.toml")
    key = str(name).replace("-", "_")
    if key not in table:
        raise ModelError(f"unknown policy {name!r}: use one of {', '.join(sorted(table))}")
    entry = table[key]
    calls = tuple(_threshold(entry[s], f"policies.toml [{key}] {s}") for s in STREET_NAMES)
    return HeroPolicy(key, str(entry.get("description", "")), (NEVER, *calls))
