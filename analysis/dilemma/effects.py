"""The effect-card vocabulary of Dilemma Hold'em (RULES §1.7) compiled to integer codes.

A deck gives every card a *colour* and an *effect* (kind + amount). Colours say
when a card acts (RULES §1.1, §1.4):

- ``green``: a hand effect; it acts from the hand of a player who did not fold
  (rule option ``green_effects_for="all_dealt"``: from any dealt hand);
- ``blue``: a board effect; it acts when the card is on the board;
- ``red``: a board effect that acts only if the card was dealt on the turn or
  the river (street 2 or 3); a red card in the flop does nothing.

Kinds are compiled to the integer opcodes below so numba kernels can apply them
with plain integer comparisons (``analysis/dilemma/settlement/_kernel.py``). This module is
pure Python plus integer constants; the constants are read by the kernels as
compile-time globals (scalars only, never arrays).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from evaluator.errors import LabError

# --- colours -----------------------------------------------------------------
COLOUR_NONE = 0
COLOUR_GREEN = 1
COLOUR_BLUE = 2
COLOUR_RED = 3

COLOURS: tuple[str, ...] = ("none", "green", "blue", "red")
"""Colour names by code."""

# --- streets -----------------------------------------------------------------
PREFLOP, FLOP, TURN, RIVER = 0, 1, 2, 3
STREETS: tuple[str, ...] = ("preflop", "flop", "turn", "river")
"""Betting rounds by code; a board card carries the street it was dealt on (1, 2 or 3)."""

# --- effect opcodes ----------------------------------------------------------
OP_NONE = 0
OP_DIVIDEND = 1
OP_INSURANCE = 2
OP_BOOM = 3
OP_SLUMP = 4
OP_LEVY = 5
OP_REBATE = 6
OP_SUBSIDY = 7
OP_CRASH = 8
OP_BUBBLE = 9
OP_WINDFALL = 10
N_OPS = 11


class Scope(IntEnum):
    """Where an effect acts: from a player's hand or from the board."""

    NONE = 0
    HAND = 1
    BOARD = 2


class AmountKind(IntEnum):
    """What an effect's amount means: dollars (multiple of 10), a factor, or nothing."""

    NONE = 0
    DOLLARS = 1
    FACTOR = 2


@dataclass(frozen=True)
class EffectKind:
    """One word of the vocabulary: its opcode, scope, amount meaning and settlement step."""

    name: str
    op: int
    scope: Scope
    amount: AmountKind
    step: str
    """The RULES step where it acts (``§1.4.2`` hand, ``§1.4.3`` board transfers,
    ``§1.4.4`` penalty modifiers, ``§1.4.6`` bonus modifiers)."""
    meaning: str
    """What it does, with ``{n}`` for the amount."""

    def describe(self, amount: int) -> str:
        """The effect in words, e.g. ``"dividend 30: holder gains $30 ..."``."""
        label = self.name if self.amount is AmountKind.NONE else f"{self.name} {amount}"
        return f"{label}: {self.meaning.format(n=amount)}"


KINDS: tuple[EffectKind, ...] = (
    EffectKind("none", OP_NONE, Scope.NONE, AmountKind.NONE, "", "no effect"),
    EffectKind(
        "dividend",
        OP_DIVIDEND,
        Scope.HAND,
        AmountKind.DOLLARS,
        "§1.4.2",
        "holder gains ${n} from the bank if the holder is a winner",
    ),
    EffectKind(
        "insurance",
        OP_INSURANCE,
        Scope.HAND,
        AmountKind.NONE,
        "§1.4.4",
        "holder pays no penalty",
    ),
    EffectKind(
        "boom",
        OP_BOOM,
        Scope.BOARD,
        AmountKind.FACTOR,
        "§1.4.6",
        "the bonus is multiplied by {n}",
    ),
    EffectKind(
        "slump",
        OP_SLUMP,
        Scope.BOARD,
        AmountKind.FACTOR,
        "§1.4.4",
        "the penalty is multiplied by {n}",
    ),
    EffectKind(
        "levy",
        OP_LEVY,
        Scope.BOARD,
        AmountKind.DOLLARS,
        "§1.4.3",
        "every winner pays ${n} to the bank",
    ),
    EffectKind(
        "rebate",
        OP_REBATE,
        Scope.BOARD,
        AmountKind.NONE,
        "§1.4.4",
        "the penalty is paid to the winner(s) instead of the bank",
    ),
    EffectKind(
        "subsidy",
        OP_SUBSIDY,
        Scope.BOARD,
        AmountKind.DOLLARS,
        "§1.4.3",
        "every loser receives ${n} from the bank",
    ),
    EffectKind(
        "crash",
        OP_CRASH,
        Scope.BOARD,
        AmountKind.DOLLARS,
        "§1.4.3",
        "every participant of the last round, winners included, pays ${n} to the bank",
    ),
    EffectKind(
        "bubble",
        OP_BUBBLE,
        Scope.BOARD,
        AmountKind.FACTOR,
        "§1.4.6",
        "the bonus is multiplied by {n}",
    ),
    EffectKind(
        "windfall",
        OP_WINDFALL,
        Scope.BOARD,
        AmountKind.DOLLARS,
        "§1.4.6",
        "the winner takes ${n} more from the bank (added to the bonus after multipliers)",
    ),
)
"""The vocabulary, indexed by opcode."""

KIND_BY_NAME: dict[str, EffectKind] = {k.name: k for k in KINDS}

assert all(k.op == i for i, k in enumerate(KINDS)) and len(KINDS) == N_OPS


def colours_allowed(kind: EffectKind) -> tuple[str, ...]:
    """Colours a card with this effect may have: hand effects are green, board ones blue or red."""
    if kind.scope is Scope.HAND:
        return ("green",)
    if kind.scope is Scope.BOARD:
        return ("blue", "red")
    return ("none",)


def board_effect_active(colour: int, street: int) -> bool:
    """Whether a board card of this colour dealt on this street acts (blue always, red from the
    turn): the referee's readable statement of the rule; kernels use ``_board.card_acts``."""
    return colour == COLOUR_BLUE or (colour == COLOUR_RED and street >= TURN)


def hand_effect_active(colour: int, folded: bool, green_effects_for: str = "survivors") -> bool:
    """Whether a hole card acts: green, held by a non-folder (or by anyone under ``all_dealt``)."""
    if colour != COLOUR_GREEN:
        return False
    return green_effects_for == "all_dealt" or not folded


def street_code(name: str | int) -> int:
    """The code (0..3) of a street name (``preflop``, ``flop``, ``turn``, ``river``) or code."""
    if isinstance(name, int) and not isinstance(name, bool) and 0 <= name <= 3:
        return name
    text = str(name).strip().lower()
    if text in STREETS:
        return STREETS.index(text)
    raise LabError(f"unknown street {name!r}: use one of {', '.join(STREETS)}")
