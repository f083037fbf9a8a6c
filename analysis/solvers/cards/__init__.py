"""Card-level solver: ranges of two-card holdings, every turn and river card dealt; heads-up,
and three-handed on the river (:mod:`.multiway`: :mod:`.tree3`, :mod:`._payoffs3`, :mod:`._kernels3`)
and on the turn (:mod:`.turn3`: Monte Carlo CFR over river cards, :mod:`._mccfr3`).

:mod:`.card_spot` states a spot (game, deck, board, ranges, pot, stack, bet tree as
postflop-solver's ``TreeConfig``); :mod:`.tree` builds and expands its tree;
:mod:`.dilemma` (with the kernel :mod:`._payoffs`) settles every terminal of a Dilemma
Hold'em spot with the real settlement, per class of holdings; :mod:`._kernels` runs
DCFR / CFR+ over per-node arrays of holdings with O(n) terminals (O(n x groups of
classes) in Dilemma Hold'em); :mod:`.solver` ties them together with exact
exploitability (the mean best-response gain, NashConv / 2, in both games) and node locking;
:mod:`.solution` reads the answers.
"""

from __future__ import annotations

import importlib
from typing import Any

_LAZY = {
    "BetSize": "analysis.solvers.cards.card_spot",
    "BetTree": "analysis.solvers.cards.card_spot",
    "CardSolver": "analysis.solvers.cards.solver",
    "DilemmaTable": "analysis.solvers.cards.dilemma",
    "MultiwaySolution": "analysis.solvers.cards.multiway",
    "MultiwaySolver": "analysis.solvers.cards.multiway",
    "CardSpot": "analysis.solvers.cards.card_spot",
    "SpotError": "analysis.solvers.cards.card_spot",
    "StreetSizes": "analysis.solvers.cards.card_spot",
    "TurnSolution3": "analysis.solvers.cards.turn3",
    "TurnSolver3": "analysis.solvers.cards.turn3",
    "SpotSolution": "analysis.solvers.cards.solution",
    "action_tree": "analysis.solvers.cards.tree",
    "load_solution": "analysis.solvers.cards.solution",
    "solve_multiway": "analysis.solvers.cards.multiway",
    "solve_spot": "analysis.solvers.cards.solution",
    "solve_turn3": "analysis.solvers.cards.turn3",
}

__all__ = sorted(_LAZY)


def __getattr__(name: str) -> Any:
    """Load a public name lazily (PEP 562)."""
    if name not in _LAZY:
        raise AttributeError(f"module 'analysis.solvers.cards' has no attribute {name!r}")
    return getattr(importlib.import_module(_LAZY[name]), name)


def __dir__() -> list[str]:
    return __all__
