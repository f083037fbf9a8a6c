"""Fast exact poker hand evaluation for the 40-card Dilemma Hold'em deck and the 52-card deck."""

import importlib
from typing import TYPE_CHECKING, Any

from .errors import CardError, LabError

_LAZY = {
    "best_five": "api", "category": "api", "category_code": "api", "category_counts": "api",
    "describe": "api", "evaluate": "api", "evaluate_batch": "api",
    "cards_to_mask": "cards", "format_cards": "cards", "mask_to_cards": "cards",
    "parse_cards": "cards",
    "CATEGORIES": "spec", "DILEMMA": "spec", "GAMES": "spec", "HOLDEM": "spec", "GameSpec": "spec",
    "get_game": "spec",
}
"""Public names and their modules, loaded on first use (importing ``evaluator.errors`` or the
package stays light: numba loads only when a kernel is needed)."""

if TYPE_CHECKING:
    from .api import (
        best_five,
        category,
        category_code,
        category_counts,
        describe,
        evaluate,
        evaluate_batch,
    )
    from .cards import cards_to_mask, format_cards, mask_to_cards, parse_cards
    from .spec import CATEGORIES, DILEMMA, GAMES, HOLDEM, GameSpec, get_game


def __getattr__(name: str) -> Any:
    """Load a public name lazily (PEP 562)."""
    if name not in _LAZY:
        raise AttributeError(f"module 'evaluator' has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)


__all__ = [
    "CATEGORIES",
    "DILEMMA",
    "GAMES",
    "HOLDEM",
    "CardError",
    "LabError",
    "GameSpec",
    "best_five",
    "cards_to_mask",
    "category",
    "category_code",
    "category_counts",
    "describe",
    "evaluate",
    "evaluate_batch",
    "format_cards",
    "get_game",
    "mask_to_cards",
    "parse_cards",
]
