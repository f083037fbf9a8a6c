"""The analysis layer: equity, ranges, starting-hand and street tables, settlement, studies.

Importing ``analysis`` is light (no numba compile); the public names below load
their module on first use, e.g. ``analysis.equity("As Ah", "10d 10c")``.
"""

from __future__ import annotations

import importlib
from typing import Any

_LAZY = {
    "equity": "analysis.equity",  # the module is callable: analysis.equity(...) runs equity()
    "EquityResult": "analysis.equity",
    "EquityError": "analysis.equity",
    "Range": "analysis.ranges",
    "RangeError": "analysis.ranges",
    "parse_range": "analysis.ranges",
    "starting_classes": "analysis.ranges",
    "starting_hand_table": "analysis.starting_hands",
    "street_probabilities": "analysis.streets",
}


def __getattr__(name: str) -> Any:
    """Load a public name lazily (PEP 562)."""
    if name not in _LAZY:
        raise AttributeError(f"module 'analysis' has no attribute {name!r}")
    module = importlib.import_module(_LAZY[name])
    return module if name == "equity" else getattr(module, name)
