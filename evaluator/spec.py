"""Game specs: the ranks, suits and straights of a deck, as data.

A spec is everything the evaluator needs to know about a game's cards. Card ids
are ``rank_index * n_suits + suit_index`` with rank index 0 the lowest rank, so
a card is also one bit of a 64-bit mask (``1 << id``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

CATEGORIES: tuple[str, ...] = (
    "high_card",
    "one_pair",
    "two_pair",
    "three_of_a_kind",
    "straight",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",
)
"""Hand categories in strength order (index = category code, higher is better)."""


@dataclass(frozen=True)
class GameSpec:
    """A deck and its straights: ranks low to high, suits, and the straight windows."""

    name: str
    ranks: tuple[str, ...]
    suits: tuple[str, ...] = ("s", "h", "d", "c")
    rank_aliases: tuple[tuple[str, str], ...] = ()
    """Extra spellings of ranks, e.g. ``(("T", "10"),)``."""
    wheel: bool = True
    """Whether A-2-3-4-5 (ace low, five-high) counts as a straight."""
    description: str = ""

    @property
    def n_ranks(self) -> int:
        return len(self.ranks)

    @property
    def n_suits(self) -> int:
        return len(self.suits)

    @property
    def n_cards(self) -> int:
        return self.n_ranks * self.n_suits

    @cached_property
    def straights(self) -> tuple[tuple[int, ...], ...]:
        """Straight windows as rank-index tuples, strongest (highest top card) first.

        Consecutive ranks in ``ranks`` order connect (for the 40-card deck 10
        connects to A). The wheel, if enabled, is the weakest straight.
        """
        windows = [tuple(range(top, top - 5, -1)) for top in range(self.n_ranks - 1, 3, -1)]
        if self.wheel:
            windows.append((3, 2, 1, 0, self.n_ranks - 1))
        return tuple(windows)

    def rank_index(self, token: str) -> int | None:
        """Rank index of a rank token (case-insensitive, aliases allowed) or None."""
        tok = token.upper()
        tok = dict(self.rank_aliases).get(tok, tok)
        try:
            return self.ranks.index(tok)
        except ValueError:
            return None

    def card_id(self, rank: int, suit: int) -> int:
        return rank * self.n_suits + suit

    def card_name(self, card: int) -> str:
        rank, suit = divmod(int(card), self.n_suits)
        return f"{self.ranks[rank]}{self.suits[suit]}"

    @property
    def summary(self) -> str:
        return f"{self.name} deck ({self.n_cards} cards: ranks {' '.join(self.ranks)})"


DILEMMA = GameSpec(
    name="dilemma",
    ranks=("2", "3", "4", "5", "6", "7", "8", "9", "10", "A"),
    rank_aliases=(("T", "10"),),
    description="Dilemma Hold'em: 40 cards, no J/Q/K; 10 connects to A; the wheel counts.",
)

HOLDEM = GameSpec(
    name="holdem",
    ranks=("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"),
    rank_aliases=(("10", "T"),),
    description="Texas Hold'em: the standard 52-card deck.",
)

GAMES: dict[str, GameSpec] = {g.name: g for g in (DILEMMA, HOLDEM)}


def get_game(game: str | GameSpec) -> GameSpec:
    """The spec for a game name (``dilemma`` or ``holdem``) or a spec itself."""
    from .errors import CardError

    if isinstance(game, GameSpec):
        return game
    try:
        return GAMES[str(game).lower()]
    except KeyError:
        raise CardError(f"unknown game {game!r}: choose one of {', '.join(GAMES)}") from None
