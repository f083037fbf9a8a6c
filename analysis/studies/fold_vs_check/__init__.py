"""The fold-vs-check study (RULES §1.4, §1.6): is checking worth it, or should I fold for free?"""

from .grid import (
    GridResult,
    GridSpec,
    Spot,
    SpotError,
    SpotResult,
    break_even_table,
    evaluate_spot,
    run_grid,
)

__all__ = ["GridResult", "GridSpec", "Spot", "SpotError", "SpotResult", "break_even_table",
           "evaluate_spot", "run_grid"]
