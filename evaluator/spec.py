"""Game definitions as data: the deck (ranks, suits, straights), the deal (hole cards, board
cards by street), the hand rule, and the table's defaults (betting structure, settlement kind,
deck, stacks, blinds).

A spec is everything the layers need to know about a game: the evaluator reads its cards,
ranges and equity its deal, the engine its deal, table defaults and settlement kind. Card ids
are ``rank_index * n_suits + suit_index`` with rank index 0 the lowest rank, so a card is also
one bit of a 64-bit mask (``1 << id``). A new variant is one more ``GameSpec`` value, made
known by name with :func:`register_game` (``tests/engine/test_game_variant.py`` plays Texas
Hold'em on 36 cards that way).
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


HAND_RULES = ("best5", "brag3", "blackjack")
"""How a showdown hand is made: ``best5`` the best five of the hole and board cards (poker
categories, :data:`CATEGORIES`), ``brag3`` the three hole cards (:mod:`evaluator.brag`),
``blackjack`` the cards' total (:mod:`evaluator.blackjack`)."""
SETTLEMENTS = ("pot", "dilemma")
"""How a finished hand is paid: ``pot`` (the pots to the best hands) or ``dilemma`` (RULES
§1.4-1.5: the bank, bonus, penalties and effect cards of a Dilemma deck)."""


@dataclass(frozen=True)
class GameSpec:
    """A game as data: its deck (ranks low to high, suits, straights), its deal and hand rule,
    and its table's defaults."""

    name: str
    ranks: tuple[str, ...]
    suits: tuple[str, ...] = ("s", "h", "d", "c")
    rank_aliases: tuple[tuple[str, str], ...] = ()
    """Extra spellings of ranks, e.g. ``(("T", "10"),)``."""
    wheel: bool = True
    """Whether A-2-3-4-5 (ace low, five-high) counts as a straight."""
    description: str = ""
    hole_cards: int = 2
    """Cards dealt face down to each player."""
    streets: tuple[int, ...] = (0, 3, 1, 1)
    """Board cards dealt on each betting round, the first round first (Hold'em: pre-flop none,
    the flop three, the turn one, the river one)."""
    hand_rule: str = "best5"
    """One of :data:`HAND_RULES`."""
    structure: str = "nl"
    """The betting structure a table of this game uses unless told (``analysis.engine.structures``;
    empty: not played on the Hold'em engine)."""
    settlement: str = "pot"
    """One of :data:`SETTLEMENTS`."""
    deck: str = ""
    """The deck a table uses unless told (a shipped or TOML deck of ``analysis.dilemma.decks``);
    empty: the plain deck of these cards (no corners, no effects), named after the game."""
    stack: int = 200
    """Chips each player starts with unless told."""
    blinds: tuple[int, int] = (1, 2)
    """Small and big blind unless told (a Dilemma table takes its blinds from its rules)."""

    def __post_init__(self) -> None:
        from .errors import CardError

        problems = [
            (not self.ranks or len(set(self.ranks)) != len(self.ranks), "ranks must be distinct and not empty"),
            (not self.suits or len(set(self.suits)) != len(self.suits), "suits must be distinct and not empty"),
            (self.n_ranks * self.n_suits > 64, "at most 64 cards (a card is a bit of a 64-bit mask)"),
            (self.hole_cards < 1, "hole_cards: at least one"),
            (any(k < 0 for k in self.streets), "streets: board cards per round, none negative"),
            (self.hand_rule not in HAND_RULES, f"hand_rule: one of {', '.join(HAND_RULES)}"),
            (self.settlement not in SETTLEMENTS, f"settlement: one of {', '.join(SETTLEMENTS)}"),
            (self.stack < 0 or len(self.blinds) != 2, "stack and blinds: chips, two blinds"),
        ]
        for bad, message in problems:
            if bad:
                raise CardError(f"game {self.name!r}: {message}")

    @property
    def board_cards(self) -> int:
        """Board cards dealt by the river (the sum of :attr:`streets`)."""
        return sum(self.streets)

    @property
    def board_sizes(self) -> tuple[int, ...]:
        """The board's size on each betting round, the first round first (Hold'em: 0, 3, 4, 5)."""
        sizes, total = [], 0
        for k in self.streets:
            total += k
            sizes.append(total)
        return tuple(sizes)

    def deal_size(self, players: int) -> int:
        """Cards a hand of ``players`` deals: hole cards by seat, then the board."""
        return self.hole_cards * players + self.board_cards

    @property
    def default_deck(self) -> str:
        """The deck a table of this game uses unless told."""
        return self.deck or self.name

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
    structure="dilemma",
    settlement="dilemma",
    deck="reference",
    stack=1000,
    blinds=(10, 20),
)

HOLDEM = GameSpec(
    name="holdem",
    ranks=("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"),
    rank_aliases=(("10", "T"),),
    description="Texas Hold'em: the standard 52-card deck.",
)

GAMES: dict[str, GameSpec] = {g.name: g for g in (DILEMMA, HOLDEM)}
"""The games known by name (the evaluator's; Brag and Bluffjack keep their own names)."""


def register_game(spec: GameSpec) -> GameSpec:
    """Make a game known by its name (:func:`get_game`, decks, tables, spots); returns it.

    Registering the same spec again is a no-op; another spec under a taken name is a
    :class:`~evaluator.errors.CardError`."""
    from .errors import CardError

    known = GAMES.get(spec.name)
    if known is not None and known != spec:
        raise CardError(f"game {spec.name!r} is already defined differently")
    GAMES[spec.name] = spec
    return spec


def get_game(game: str | GameSpec) -> GameSpec:
    """The spec for a game name (``dilemma``, ``holdem`` or a registered one) or a spec itself."""
    from .errors import CardError

    if isinstance(game, GameSpec):
        return game
    try:
        return GAMES[str(game).lower()]
    except KeyError:
        raise CardError(f"unknown game {game!r}: choose one of {', '.join(GAMES)}") from None
