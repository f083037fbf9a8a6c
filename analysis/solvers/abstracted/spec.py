"""The abstracted Dilemma Hold'em hand: every option that defines the game the solvers play.

A :class:`DilemmaSpec` names the players (2 or 3), the first street (flop, turn
or river), the strength buckets, the bet sizes and raise cap, the deck and rule
options, the chips, and the sample of deals that stands for chance (see
:mod:`.deals`). :meth:`DilemmaSpec.describe` states the abstraction in one
paragraph; every table, manifest and printout carries it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, replace
from functools import cached_property
from typing import Any

import numpy as np

from analysis.dilemma.decks import Deck, load_deck
from analysis.dilemma.effects import STREETS
from analysis.dilemma.extremes import board_extremes
from analysis.dilemma.settlement import Rules
from analysis.dilemma.settlement.state import bank_problem

from ..errors import SolverError

ALLIN = "allin"
FIRST_STREETS = ("flop", "turn", "river")


class DilemmaError(SolverError):
    """An option of the Dilemma abstraction that cannot be used (one line: which and why)."""


def parse_sizes(sizes: str | Iterable[float | str]) -> tuple[float | str, ...]:
    """Bet sizes as pot fractions and ``allin``: ``"0.5,1,allin"`` or a sequence."""
    items = [s.strip() for s in sizes.split(",")] if isinstance(sizes, str) else list(sizes)
    out: list[float | str] = []
    for item in items:
        if isinstance(item, str) and item.lower().replace("-", "") in ("allin", "a"):
            value: float | str = ALLIN
        else:
            try:
                value = float(item)
            except (TypeError, ValueError):
                raise DilemmaError(f"bet size {item!r}: use pot fractions such as 0.5 or 1, "
                                   "or allin") from None
            if not (np.isfinite(value) and 0.0 < value <= 100.0):
                raise DilemmaError(f"bet size {item!r}: a pot fraction must be > 0 and <= 100")
        if value not in out:
            out.append(value)
    if not out:
        raise DilemmaError("bet sizes: give at least one (e.g. 0.5,1,allin)")
    return tuple(out)


@dataclass(frozen=True)
class DilemmaSpec:
    """One abstracted Dilemma Hold'em hand (see the module docstring and :meth:`describe`)."""

    players: int = 2
    street: str = "flop"
    """First betting round of the abstraction (the pot before it is ``preflop_in`` per player)."""
    buckets: int = 10
    """Strength buckets per street: bucket = min(int(strength * buckets), buckets - 1)."""
    sizes: tuple[float | str, ...] = (0.5, 1.0, ALLIN)
    raise_cap: int = 2
    """Bets plus raises allowed per betting round."""
    deck: str = "reference"
    rules: tuple[tuple[str, str], ...] = ()
    """Rule options (``Rules.parse`` pairs); default: the RULES.md choices."""
    free_fold: bool = True
    """Folding when nobody has bet is allowed (the Dilemma question); False removes it."""
    preflop_in: int = 20
    """What every player put in before the first street (everyone called the big blind)."""
    stack: int = 1000
    """Chips each player started the hand with."""
    bank: tuple[int, int, int] = (300, 700, 500)
    deals: int = 200_000
    """Sampled deals standing for chance (boards and holdings; see :mod:`.deals`)."""
    deals_per_board: int = 32
    seed: int = 0
    big_blind: int = 20

    def __post_init__(self) -> None:
        object.__setattr__(self, "sizes", parse_sizes(self.sizes))
        object.__setattr__(self, "street", str(self.street).strip().lower())
        object.__setattr__(self, "bank", tuple(int(b) for b in self.bank))
        if isinstance(self.rules, Mapping):
            object.__setattr__(self, "rules", tuple(sorted((str(k), str(v)) for k, v in self.rules.items())))
        self.validate()

    def validate(self) -> None:
        """Raise :class:`DilemmaError` naming the first bad option."""
        if self.players not in (2, 3):
            raise DilemmaError(f"players must be 2 or 3; got {self.players}")
        if self.street not in FIRST_STREETS:
            raise DilemmaError(f"street must be flop, turn or river; got {self.street!r}"
                               + (" (pre-flop is not modelled yet)" if self.street == "preflop" else ""))
        if not 2 <= int(self.buckets) <= 50:
            raise DilemmaError(f"buckets must be 2..50; got {self.buckets}")
        if self.n_streets and int(self.buckets) ** (self.n_streets * self.players) > 2e9:
            raise DilemmaError(f"{self.buckets} buckets over {self.n_streets} streets for "
                               f"{self.players} players is too fine to index")
        if not 0 <= int(self.raise_cap) <= 6:
            raise DilemmaError(f"raise cap must be 0..6; got {self.raise_cap}")
        if int(self.deals) < 100 or int(self.deals_per_board) < 1:
            raise DilemmaError(f"deals must be >= 100 and deals per board >= 1; got {self.deals}, "
                               f"{self.deals_per_board}")
        if int(self.seed) < 0:
            raise DilemmaError(f"seed must be a non-negative integer; got {self.seed}")
        for name in ("preflop_in", "stack", "big_blind"):
            v = int(getattr(self, name))
            if v <= 0 or v % 10:
                raise DilemmaError(f"{name.replace('_', ' ')} must be a positive multiple of $10; got {v}")
        if self.preflop_in >= self.stack:
            raise DilemmaError(f"preflop in ({self.preflop_in}) must be below the stack ({self.stack})")
        if len(self.bank) != 3 or any(b < 0 or b % 10 for b in self.bank):
            raise DilemmaError(f"bank must be three multiples of $10; got {self.bank}")
        if problem := bank_problem(self.bank):
            raise DilemmaError(problem)
        self.deck_obj  # noqa: B018 - load now: a bad deck is an error here
        self.rules_obj  # noqa: B018

    # ------------------------------------------------------------------ derived

    @cached_property
    def deck_obj(self) -> Deck:
        """The loaded deck."""
        try:
            return load_deck(self.deck)
        except Exception as exc:  # a DeckError already names the problem
            raise DilemmaError(str(exc)) from None

    @cached_property
    def rules_obj(self) -> Rules:
        """The rule options."""
        try:
            return Rules.parse(dict(self.rules))
        except Exception as exc:
            raise DilemmaError(str(exc)) from None

    @property
    def first_street(self) -> int:
        """Rules street number of the first betting round (1 flop, 2 turn, 3 river)."""
        return STREETS.index(self.street)

    @property
    def n_streets(self) -> int:
        """Betting rounds in the abstraction."""
        return 4 - STREETS.index(self.street) if self.street in FIRST_STREETS else 0

    def histories(self, s: int) -> int:
        """Bucket histories a player can hold on abstraction street ``s`` (0 = first)."""
        return int(self.buckets) ** (s + 1)

    @cached_property
    def liability(self) -> int:
        """An upper bound of what one player can pay in a settlement besides the pot: the largest
        penalty, every crash and levy of the deck's five worst cards. A bet that would leave a
        player less than this behind is made all-in, so a player's payments are never capped
        except when all-in (then the settlement computes the cap exactly)."""
        return board_extremes(self.deck_obj).liability

    def with_options(self, **changes: Any) -> DilemmaSpec:
        """A copy with some options changed (validated)."""
        return replace(self, **changes)

    def as_dict(self) -> dict[str, Any]:
        """The options as plain data (manifests, state files)."""
        out = asdict(self)
        out["sizes"] = [s if s == ALLIN else float(s) for s in self.sizes]
        out["deck"] = self.deck_obj.label
        out["rules"] = self.rules_obj.as_dict()
        out["bank"] = list(self.bank)
        return out

    @property
    def fingerprint(self) -> str:
        """A hash of everything that defines the game (a saved state resumes only on the same)."""
        text = json.dumps(self.as_dict(), sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    @property
    def pot(self) -> int:
        """The pot at the start of the first betting round."""
        return int(self.preflop_in) * self.players

    def sizes_text(self) -> str:
        return ", ".join("all-in" if s == ALLIN else f"{s:g} pot" for s in self.sizes)

    def describe(self) -> str:
        """The abstraction in one paragraph (printed and stored in every manifest)."""
        streets = ", ".join(STREETS[self.first_street:])
        fold = ("fold is allowed when nobody has bet" if self.free_fold
                else "folding when nobody has bet is NOT allowed (the Texas Hold'em action set)")
        return (
            f"Abstracted Dilemma Hold'em hand: {self.players} players from the {self.street} "
            f"({streets}); each put in ${self.preflop_in} before (pot ${self.pot}), "
            f"${self.stack} stacks, bank {'/'.join(map(str, self.bank))}, deck {self.deck_obj.label}, "
            f"rules {self.rules_obj.label}. Actions: fold, check/call, bets and raises of "
            f"{self.sizes_text()} (raise to the call plus that share of the pot after calling; "
            f"$10 steps, at least the big blind ${self.big_blind} and the last increment), at most "
            f"{self.raise_cap} bets+raises per round; a bet leaving less than ${self.liability} "
            f"behind becomes all-in; {fold}. Information: each player sees the betting and its own "
            f"strength bucket on every street (perfect recall), {self.buckets} buckets of "
            "evaluator.strength (the share of unseen two-card holdings beaten on the board so far). "
            f"Chance: {self.deals:,} sampled deals ({self.deals_per_board} holdings per board, "
            f"seed {self.seed}); every terminal pays what the real settlement "
            "(settle_core: pot, bonus, penalty of the last round's losers, river exception, "
            "effects, bank) pays on each deal, averaged over the deals of each bucket history."
        )
