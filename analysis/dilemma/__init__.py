"""Dilemma Hold'em's money rules: decks and effects, the settlement (referee and numba core),
and the exact board economics."""
