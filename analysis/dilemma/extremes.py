"""The most a five-card board of a deck can make the bank pay or take, per kind of payment.

One place for the deck's worst cases (RULES §1.4 and §1.8): the board economics use them
to size exact histograms, the abstracted solver to keep every payment uncapped but all-in.
A board holds five cards, so each bound takes the deck's five largest values of its kind.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .decks import Deck
from .effects import OP_BOOM, OP_BUBBLE, OP_CRASH, OP_LEVY, OP_SLUMP, OP_SUBSIDY, OP_WINDFALL

BOARD_CARDS = 5


@dataclass(frozen=True)
class BoardExtremes:
    """Upper bounds, in dollars, of what any board of a deck produces."""

    bonus: int
    """Plus corners times the boom and bubble multipliers, plus windfalls."""
    penalty: int
    """Minus corners times the slump multipliers."""
    levy: int
    crash: int
    subsidy: int

    @property
    def liability(self) -> int:
        """What one player can pay besides the pot: the penalty, every crash and levy,
        rounded up to the $10 chip."""
        total = self.penalty + self.crash + self.levy
        return -(-total // 10) * 10


def _top(values: np.ndarray) -> np.ndarray:
    return np.sort(np.asarray(values, np.int64))[::-1][:BOARD_CARDS]


def board_extremes(deck: Deck) -> BoardExtremes:
    """Bounds over every five-card board of ``deck`` (each quantity maximised on its own)."""
    op, amount = deck.opcode, deck.amount.astype(np.int64)

    def total(*ops: int) -> int:
        return int(_top(np.where(np.isin(op, ops), amount, 0)).sum())

    def product(*ops: int) -> int:
        return int(_top(np.where(np.isin(op, ops), np.maximum(amount, 1), 1)).prod())

    return BoardExtremes(
        bonus=int(_top(deck.plus).sum()) * product(OP_BOOM, OP_BUBBLE) + total(OP_WINDFALL),
        penalty=int(_top(deck.minus).sum()) * product(OP_SLUMP),
        levy=total(OP_LEVY),
        crash=total(OP_CRASH),
        subsidy=total(OP_SUBSIDY),
    )
