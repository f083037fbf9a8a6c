"""Fast exact poker hand evaluation for the 40-card Dilemma Hold'em deck and the 52-card deck."""

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
from .errors import CardError, LabError
from .spec import CATEGORIES, DILEMMA, GAMES, HOLDEM, GameSpec, get_game

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
