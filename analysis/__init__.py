"""The analysis layer: equity, ranges, starting-hand and street tables, settlement, studies.

Importing ``analysis`` is light (no numba compile); the public names below load
their module on first use, e.g. ``analysis.equity("As Ah", "10d 10c")``.

Layers (each only imports the ones below it): ``commands`` (the CLI) ->
``guide``, ``charts`` -> ``studies``, ``solvers``, ``engine`` -> ``runners`` ->
``dilemma`` (money rules) -> ``core`` and the ``evaluator`` package.
"""

from __future__ import annotations

import importlib
from typing import Any

_LAZY = {
    "equity": "analysis.studies.equity",
    "EquityResult": "analysis.studies.equity",
    "EquityError": "analysis.studies.equity",
    "Range": "analysis.studies.ranges",
    "RangeError": "analysis.studies.ranges",
    "parse_range": "analysis.studies.ranges",
    "starting_classes": "analysis.studies.ranges",
    "starting_hand_table": "analysis.studies.starting_hands",
    "street_probabilities": "analysis.studies.streets",
    "evaluate_spot": "analysis.studies.fold_vs_check",
    "run_grid": "analysis.studies.fold_vs_check",
    "settle": "analysis.dilemma.settlement",
    "load_deck": "analysis.dilemma.decks",
    "board_economy": "analysis.dilemma.economy",
    "solve_spot": "analysis.solvers.card_level.solution",
    "CardSpot": "analysis.solvers.card_level.card_spot",
    "Spot": "analysis.dilemma.spot",
    "load_strategy": "analysis.core.strategy",
    "Strategy": "analysis.core.strategy",
}

__all__ = sorted(_LAZY)


def __dir__() -> list[str]:
    """The module's names with the lazy public ones (so completion finds them)."""
    return sorted({*globals(), *_LAZY})


def __getattr__(name: str) -> Any:
    """Load a public name lazily (PEP 562)."""
    if name not in _LAZY:
        raise AttributeError(f"module 'analysis' has no attribute {name!r}")
    return getattr(importlib.import_module(_LAZY[name]), name)
