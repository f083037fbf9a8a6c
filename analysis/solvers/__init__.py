"""Equilibrium solvers on game trees stored as flat arrays: CFR, CFR+, DCFR, external-sampling MCCFR.

Typical use::

    from analysis import solvers
    result = solvers.solve(solvers.leduc(), method="cfr+", iterations=1000)
    result.exploitability      # NashConv / 2 of the average strategy, in chips
    result.strategy            # DataFrame: player, infoset, action, probability
    result.history             # exploitability as it falls

Game trees are data (:mod:`.game_tree`, :mod:`.betting`); the known games Kuhn and
Leduc (:mod:`.games`) prove the solvers against published figures. Importing
this package is light; the numba kernels load on first use.

The abstracted Dilemma Hold'em hand (public betting tree, seeded deal sample,
real settlement payoffs, heads-up vector-form CFR with exact NashConv, MCCFR for
three players, fold-for-free answers and policy tables) is
:mod:`analysis.solvers.abstracted`.
"""

from __future__ import annotations

import importlib
from typing import Any

_LAZY = {
    "SolverError": "analysis.solvers.errors",
    "GameTree": "analysis.solvers.game_tree",
    "TreeBuilder": "analysis.solvers.game_tree",
    "build_tree": "analysis.solvers.game_tree",
    "tree_from_dict": "analysis.solvers.game_tree",
    "BettingSpec": "analysis.solvers.betting",
    "Street": "analysis.solvers.betting",
    "Outcome": "analysis.solvers.betting",
    "ChanceModel": "analysis.solvers.betting",
    "CardDeal": "analysis.solvers.betting",
    "build_betting_tree": "analysis.solvers.betting",
    "kuhn": "analysis.solvers.known_games",
    "leduc": "analysis.solvers.known_games",
    "kuhn_spec": "analysis.solvers.known_games",
    "leduc_spec": "analysis.solvers.known_games",
    "ProfileValue": "analysis.solvers.evaluate",
    "profile_value": "analysis.solvers.evaluate",
    "best_response": "analysis.solvers.evaluate",
    "expected_values": "analysis.solvers.evaluate",
    "exploitability": "analysis.solvers.evaluate",
    "nash_conv": "analysis.solvers.evaluate",
    "uniform_strategy": "analysis.solvers.evaluate",
    "Solver": "analysis.solvers.tree_solver",
    "SolverSettings": "analysis.solvers.tree_solver",
    "SolveResult": "analysis.solvers.tree_solver",
    "solve": "analysis.solvers.tree_solver",
    "strategy_frame": "analysis.solvers.tree_solver",
}

__all__ = sorted(_LAZY)


def __getattr__(name: str) -> Any:
    """Load a public name lazily (PEP 562)."""
    if name not in _LAZY:
        raise AttributeError(f"module 'analysis.solvers' has no attribute {name!r}")
    return getattr(importlib.import_module(_LAZY[name]), name)


def __dir__() -> list[str]:
    return __all__
