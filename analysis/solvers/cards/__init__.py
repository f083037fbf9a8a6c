"""Card-level heads-up solver: ranges of two-card holdings, every turn and river card dealt.

:mod:`.spot` states a spot (deck, board, ranges, pot, stack, bet tree as
postflop-solver's ``TreeConfig``); :mod:`.tree` builds and expands its tree;
:mod:`._kernels` runs DCFR / CFR+ over per-node arrays of holdings with O(n)
terminals; :mod:`.solver` ties them together with exact exploitability.
"""

from __future__ import annotations

import importlib
from typing import Any

_LAZY = {
    "BetSize": "analysis.solvers.cards.spot",
    "BetTree": "analysis.solvers.cards.spot",
    "CardSolver": "analysis.solvers.cards.solver",
    "Spot": "analysis.solvers.cards.spot",
    "SpotError": "analysis.solvers.cards.spot",
    "StreetSizes": "analysis.solvers.cards.spot",
    "SpotSolution": "analysis.solvers.cards.solution",
    "action_tree": "analysis.solvers.cards.tree",
    "load_solution": "analysis.solvers.cards.solution",
    "solve_spot": "analysis.solvers.cards.solution",
}

__all__ = sorted(_LAZY)


def __getattr__(name: str) -> Any:
    """Load a public name lazily (PEP 562)."""
    if name not in _LAZY:
        raise AttributeError(f"module 'analysis.solvers.cards' has no attribute {name!r}")
    return getattr(importlib.import_module(_LAZY[name]), name)


def __dir__() -> list[str]:
    return __all__
