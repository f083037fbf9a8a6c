"""The table a spot is played at, as one value: the deck (loaded once), the settlement's rule
options, the bank's three stacks and the blind level (RULES §1.5).

The fold-vs-check study (:func:`analysis.studies.fold_vs_check.evaluate`) and the card-level
solver (``DilemmaTable.from_table``) take it; run settings (trials, seed, backend) stay apart.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from evaluator.errors import LabError

from .decks import Deck, load_deck
from .settlement import Rules
from .settlement.state import bank_order_problem, lowest_level

DEFAULT_BANK = (300, 700, 500)


class TableError(LabError):
    """A bank or blind level that cannot be (RULES §1.5); one line."""


@dataclass(frozen=True)
class Table:
    """Deck, rule options, bank stacks and blind level of one Dilemma Hold'em table."""

    deck: Deck
    rules: Rules
    bank: tuple[int, int, int] = DEFAULT_BANK
    level: int = 0

    @property
    def blinds(self) -> tuple[int, int]:
        """(small blind, big blind) at this level."""
        return self.rules.blinds[self.level]

    @classmethod
    def load(cls, deck: str | Deck = "reference", rules: Rules | None = None,
             bank: Sequence[int] = DEFAULT_BANK, level: int = 0) -> Table:
        """The table, validated: three bank stacks of chips >= 0, not all empty, emptied in
        order; blind level 0-2 and never below the level the bank has reached."""
        stacks = tuple(int(b) for b in bank)
        if len(stacks) != 3 or min(stacks) < 0:
            raise TableError(f"bank is three stacks of chips >= 0; got {stacks}")
        if not sum(stacks):
            raise TableError(f"bank {'/'.join(map(str, stacks))} is empty: the game is over (RULES §1.5)")
        if problem := bank_order_problem(stacks):
            raise TableError(problem)
        if level not in (0, 1, 2):
            raise TableError(f"blind level is 0, 1 or 2; got {level}")
        if level < lowest_level(stacks):
            raise TableError(f"blind level {level} cannot go with bank {'/'.join(map(str, stacks))}: "
                             f"blinds rose to level {lowest_level(stacks)} when the bank first emptied "
                             "and never go down (RULES §1.5)")
        return cls(load_deck(deck), rules or Rules(), stacks, level)  # type: ignore[arg-type]
