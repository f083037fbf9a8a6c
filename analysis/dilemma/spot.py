"""The situation at the table as one value (issue 18): the board so far, what each player holds
(in the order of action), the pot, the chips behind each player, and the table.

Every spot question takes it: the fold-vs-check study (the hero first, its opponents holding
random cards: :func:`analysis.studies.fold_vs_check.evaluate`), the card-level solver (one range
per player plus its bet tree: :class:`analysis.solvers.card_level.CardSpot`) and the guide's solved
spots. How a spot is answered stays apart from it: run settings (trials, seed, backend), a
solver's bet tree, the opponents' strategy and the hero's continuation.

Cards and holdings stay the text they were written in (``"As 10h"``, ``"A10o"``, ``"QQ-22"``,
``"random"``): the CLI and TOML spot files give text, the fold-vs-check study derives its
generator keys from it, and each consumer parses it against its deck and says what it cannot
play (the study: two cards or a starting class for the hero; the solver: a range per player).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .table import Table

RANDOM = "random"
"""A holding nobody knows: any two unseen cards."""
STREET_OF_BOARD = {3: "flop", 4: "turn", 5: "river"}
"""Board length -> the street being played."""


@dataclass(frozen=True)
class Spot:
    """One situation at a table (see the module's docstring)."""

    hands: tuple[str, ...] = (RANDOM, RANDOM)
    """What each player holds, in the order of action: two cards, a starting class or a range
    (text), or ``random``."""
    board: str = ""
    """The board so far as written (``""``: a random board of ``street``)."""
    street: str = ""
    """``flop``, ``turn`` or ``river`` (``""``: the board's, :data:`STREET_OF_BOARD`)."""
    pot: int = 40
    stack: int | None = None
    """Chips behind each player (``None``: $1,000 less its even share of the pot)."""
    table: Table | None = field(default=None, compare=False, repr=False)
    """The Dilemma Hold'em table (deck, rules, bank, blind level); ``None``: no table of its own
    (the fold-vs-check study plays the default table, the card solver Texas Hold'em rules)."""
    deck: str | None = None
    """The cards' deck by the evaluator's name when there is no table (Texas Hold'em rules play
    ``holdem`` or ``dilemma`` cards; ``None``: the table's deck, else ``holdem``)."""

    @property
    def players(self) -> int:
        """How many players hold cards."""
        return len(self.hands)

    @property
    def behind(self) -> int:
        """Chips behind each player (``stack``, or $1,000 less its share of the pot)."""
        return self.stack if self.stack is not None else 1000 - self.pot // self.players
