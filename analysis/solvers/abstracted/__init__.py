"""The abstracted Dilemma Hold'em hand and its equilibrium solvers (issue 12, part 2).

Typical use::

    from analysis.solvers.abstracted import DilemmaSpec, build_game, solve_dilemma, write_answers
    game = build_game(DilemmaSpec(players=2, street="flop", buckets=10, sizes="1,allin"))
    result = solve_dilemma(game, "dcfr", 2000, target=0.2)
    result.nash_conv          # exact, on the abstraction (chips)
    write_answers(result, "out/", "heads_up")   # policy, fold-for-free, lines, values

Modules: :mod:`.spec` (the options), :mod:`.public_tree` (the betting tree),
:mod:`.deals` (the seeded deal sample standing for chance), :mod:`.vector`
(heads-up full-width CFR and exact best response), :mod:`._sampled_kernels`
(MCCFR for 2-3 players), :mod:`.solve` (state, resume, run loop),
:mod:`.answers` (tables read from the solution). Imports are lazy.
"""

from __future__ import annotations

import importlib
from typing import Any

_LAZY = {
    "DilemmaSpec": "analysis.solvers.abstracted.spec",
    "DilemmaError": "analysis.solvers.abstracted.spec",
    "parse_sizes": "analysis.solvers.abstracted.spec",
    "PublicTree": "analysis.solvers.abstracted.public_tree",
    "build_public_tree": "analysis.solvers.abstracted.public_tree",
    "DealTable": "analysis.solvers.abstracted.deals",
    "sample_deals": "analysis.solvers.abstracted.deals",
    "DilemmaGame": "analysis.solvers.abstracted.solve",
    "DilemmaSolver": "analysis.solvers.abstracted.solve",
    "DilemmaSolveResult": "analysis.solvers.abstracted.solve",
    "build_game": "analysis.solvers.abstracted.solve",
    "solve_dilemma": "analysis.solvers.abstracted.solve",
    "reach_of": "analysis.solvers.abstracted.answers",
    "policy_table": "analysis.solvers.abstracted.answers",
    "free_fold_table": "analysis.solvers.abstracted.answers",
    "free_fold_summary": "analysis.solvers.abstracted.answers",
    "line_table": "analysis.solvers.abstracted.answers",
    "values_table": "analysis.solvers.abstracted.answers",
    "write_answers": "analysis.solvers.abstracted.answers",
}

__all__ = sorted(_LAZY)


def __getattr__(name: str) -> Any:
    """Load a public name lazily (PEP 562)."""
    if name not in _LAZY:
        raise AttributeError(f"module 'analysis.solvers.abstracted' has no attribute {name!r}")
    return getattr(importlib.import_module(_LAZY[name]), name)


def __dir__() -> list[str]:
    return __all__
