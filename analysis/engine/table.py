"""What a hand starts from: the table (seats, stacks, DEALER, blinds, bank) and its validation."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from numbers import Integral
from typing import Any

from analysis.dilemma.settlement import Rules
from analysis.dilemma.settlement.state import bank_problem
from evaluator.spec import GAMES, GameSpec

from ._layout import HOLE_CARDS, STREET_CARDS
from .errors import TableError
from .structures import Structure, get_structure

MAX_PLAYERS = 10


def engine_game(game: str | GameSpec) -> GameSpec:
    """The spec of a game the engine plays (two hole cards, a 3-1-1 board, best five cards,
    a betting structure), else a :class:`TableError` naming what it cannot deal."""
    spec = game if isinstance(game, GameSpec) else GAMES.get(str(game))
    if spec is None or not spec.structure:
        playable = [g.name for g in GAMES.values() if g.structure]
        raise TableError(f"game {game!r}: use {' or '.join(playable)}")
    if spec.hole_cards != HOLE_CARDS or tuple(spec.streets) != STREET_CARDS or spec.hand_rule != "best5":
        raise TableError(f"game {spec.name!r}: the engine deals {HOLE_CARDS} hole cards and a "
                         f"{'-'.join(map(str, STREET_CARDS[1:]))} board to the best five cards")
    return spec


@dataclass(frozen=True)
class TableSetup:
    """One hand's table: seats in clockwise order, chips before the blinds, DEALER and blinds.

    ``game`` names a :class:`~evaluator.spec.GameSpec` (``dilemma``: 40 cards, the Dilemma
    settlement with bank, bonus and penalties; ``holdem``: 52 cards, plain Texas Hold'em pots;
    or a registered variant); :attr:`spec` is its definition.
    """

    names: tuple[str, ...]
    stacks: tuple[int, ...]
    dealer: int = 0
    blinds: tuple[int, int] = (10, 20)
    game: str = "dilemma"
    structure: Structure = field(default_factory=lambda: get_structure("dilemma"))
    bank: tuple[int, int, int] = (300, 700, 500)
    blind_level: int = 0
    deck: str = "reference"
    rules: Rules = field(default_factory=Rules)

    def validate(self) -> TableSetup:
        """Raise :class:`TableError` naming the field if the table cannot be dealt; return self."""
        n = len(self.names)
        dilemma = self.spec.settlement == "dilemma"
        if not 2 <= n <= MAX_PLAYERS:
            raise TableError(f"players: a table seats 2 to {MAX_PLAYERS} players, got {n}")
        if len(self.stacks) != n:
            raise TableError(f"stacks: one per player ({n}), got {len(self.stacks)}")
        if len(set(self.names)) != n:
            dup = sorted({x for x in self.names if self.names.count(x) > 1})[0]
            raise TableError(f"players: duplicate name {dup!r}")
        unit = self.structure.unit
        for name, stack in zip(self.names, self.stacks, strict=True):
            if isinstance(stack, bool) or not isinstance(stack, int):
                raise TableError(f"stack of {name}: a whole number of chips, got {stack!r}")
            if stack < 0:
                raise TableError(f"stack of {name}: must not be negative, got {stack}")
            if stack == 0:
                raise TableError(f"stack of {name}: 0 chips; a bankrupt player is not dealt in")
            if stack % unit:
                raise TableError(f"stack of {name}: chips come in units of {unit}, got {stack}")
        if isinstance(self.dealer, bool) or not isinstance(self.dealer, int) or not 0 <= self.dealer < n:
            raise TableError(f"dealer: a seat index 0..{n - 1}, got {self.dealer!r}")
        small, big = self.blinds
        if not (isinstance(small, int) and isinstance(big, int)) or big <= 0 or small < 0 or small > big:
            raise TableError(f"blinds {small}/{big}: 0 <= small blind <= big blind, big blind > 0")
        if small % unit or big % unit:
            raise TableError(f"blinds {small}/{big}: chips come in units of {unit}")
        if dilemma and unit % 10:
            raise TableError("structure unit: Dilemma Hold'em chips come in $10 units")
        if problem := bank_problem(self.bank, self.blind_level):
            raise TableError(problem)
        return self

    @property
    def spec(self) -> GameSpec:
        """The game's definition (a :class:`TableError` if the engine cannot play it)."""
        return engine_game(self.game)

    @property
    def n(self) -> int:
        """Number of seats."""
        return len(self.names)

    def blind_seats(self) -> tuple[int, int]:
        """Small- and big-blind seats (heads-up: the DEALER posts the small blind, RULES §1.2)."""
        n = self.n
        if n == 2:
            return self.dealer, (self.dealer + 1) % n
        return (self.dealer + 1) % n, (self.dealer + 2) % n

    def as_dict(self) -> dict[str, Any]:
        """Plain data (hand histories, manifests)."""
        return {
            "game": self.game, "structure": self.structure.as_dict(), "names": list(self.names),
            "stacks": list(self.stacks), "dealer": self.dealer, "blinds": list(self.blinds),
            "bank": list(self.bank), "blind_level": self.blind_level, "deck": self.deck,
            "rules": self.rules.as_dict(),
        }


def texas_blinds(big_blind: int) -> tuple[int, int]:
    """Texas Hold'em blinds from the big blind (the minimum bet): the small blind is half of
    it, rounded down (RULES §2, seed 002: 「最低賭金額の半分(切捨て)」): 5 gives 2/5."""
    if isinstance(big_blind, bool) or not isinstance(big_blind, Integral) or big_blind < 1:
        raise TableError(f"big blind {big_blind!r}: a whole number of chips >= 1")
    return int(big_blind) // 2, int(big_blind)


def make_table(n_players: int, *, game: str = "dilemma", structure: str | Structure | None = None,
               stack: int | Sequence[int] | None = None, dealer: int = 0,
               blinds: tuple[int, int] | None = None, deck: str | None = None) -> TableSetup:
    """A table of ``n_players`` named P1..Pn with the game's usual defaults (RULES §1.1, §2:
    its :class:`~evaluator.spec.GameSpec`'s structure, stack, blinds and deck)."""
    if isinstance(n_players, bool) or not isinstance(n_players, int) or not 2 <= n_players <= MAX_PLAYERS:
        raise TableError(f"players: a table seats 2 to {MAX_PLAYERS} players, got {n_players}")
    spec = engine_game(game)
    st = get_structure(spec.structure if structure is None else structure)
    if stack is None:
        stack = spec.stack
    stacks = tuple(stack) if not isinstance(stack, int) else (stack,) * n_players
    return TableSetup(
        names=tuple(f"P{i + 1}" for i in range(n_players)), stacks=tuple(int(s) for s in stacks),
        dealer=dealer, blinds=spec.blinds if blinds is None else blinds, game=spec.name, structure=st,
        deck=deck or spec.default_deck,
    ).validate()
