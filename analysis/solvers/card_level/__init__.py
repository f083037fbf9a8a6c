"""Card-level solver: ranges of two-card holdings, every turn and river card dealt; heads-up,
and three-handed on the river (:mod:`.multiway`: :mod:`.tree3`, :mod:`._payoffs3`, :mod:`._kernels3`)
and on the turn (:mod:`.turn3`: Monte Carlo CFR over river cards, :mod:`._mccfr3`).

:mod:`.card_spot` states a spot (game, deck, board, ranges, pot, stack, bet tree as
postflop-solver's ``TreeConfig``); :mod:`.tree` builds and expands its tree;
:mod:`.dilemma_terminals` (with the kernel :mod:`._payoffs`) settles every terminal of a Dilemma
Hold'em spot with the real settlement, per class of holdings; :mod:`._kernels` runs
DCFR / CFR+ over per-node arrays of holdings with O(n) terminals (O(n x groups of
classes) in Dilemma Hold'em); :mod:`.solver` ties them together with exact
exploitability (the mean best-response gain, NashConv / 2, in both games) and node locking;
:mod:`.solution` reads the answers. :mod:`._layout` names the entries of the kernels' tuples
(``tree[TT_*]`` and the rest) beside their packers.
"""

from __future__ import annotations

import importlib
from typing import Any

_LAZY = {
    "BetSize": "analysis.solvers.card_level.card_spot",
    "BetTree": "analysis.solvers.card_level.card_spot",
    "CardSolver": "analysis.solvers.card_level.solver",
    "DilemmaTable": "analysis.solvers.card_level.dilemma_terminals",
    "MultiwaySolution": "analysis.solvers.card_level.multiway",
    "MultiwaySolver": "analysis.solvers.card_level.multiway",
    "CardSpot": "analysis.solvers.card_level.card_spot",
    "SpotError": "analysis.solvers.card_level.card_spot",
    "StreetSizes": "analysis.solvers.card_level.card_spot",
    "TurnSolution3": "analysis.solvers.card_level.turn3",
    "TurnSolver3": "analysis.solvers.card_level.turn3",
    "SpotSolution": "analysis.solvers.card_level.solution",
    "action_tree": "analysis.solvers.card_level.tree",
    "load_solution": "analysis.solvers.card_level.solution",
    "solve_multiway": "analysis.solvers.card_level.multiway",
    "solve_spot": "analysis.solvers.card_level.solution",
    "solve_turn3": "analysis.solvers.card_level.turn3",
}

__all__ = sorted(_LAZY)


def __getattr__(name: str) -> Any:
    """Load a public name lazily (PEP 562)."""
    if name not in _LAZY:
        raise AttributeError(f"module 'analysis.solvers.card_level' has no attribute {name!r}")
    return getattr(importlib.import_module(_LAZY[name]), name)


def __dir__() -> list[str]:
    return __all__
