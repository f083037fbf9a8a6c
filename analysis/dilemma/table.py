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
from .settlement.state import bank_problem

DEFAULT_BANK = (300, 700, 500)


class TableError(LabError):
    """A table that cannot be played, one line: its seats, stacks, blinds, bank or blind level.
    The one table error of the lab (the engine's :class:`analysis.engine.TableError` is this)."""




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
        if problem := bank_problem(stacks, level):
            raise TableError(problem)
        return cls(load_deck(deck), rules or Rules(), stacks, level)  # type: ignore[arg-type]
