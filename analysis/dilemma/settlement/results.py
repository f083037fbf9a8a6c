"""What a settlement decided: the steps with their transfers, final stacks, bank and blinds."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from evaluator import format_cards

from ..decks import Deck
from ..effects import STREETS
from .layout import F_GAME_OVER
from .rules import Rules
from .state import HandState


@dataclass(frozen=True)
class Transfer:
    """Money moving from one party to another (``pot``, ``bank``, ``penalty`` or a player)."""

    source: str
    target: str
    amount: int
    tiers: tuple[int, int, int] | None = None
    """For bank payments: how much came out of / went into bank 1, 2, 3."""

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON output."""
        out: dict[str, Any] = {"from": self.source, "to": self.target, "amount": self.amount}
        if self.tiers is not None:
            out["banks"] = list(self.tiers)
        return out


@dataclass(frozen=True)
class Step:
    """One settlement step: the rule that applied, what happened, and the transfers."""

    number: int
    rule: str
    title: str
    lines: tuple[str, ...]
    transfers: tuple[Transfer, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON output."""
        return {
            "step": self.number,
            "rule": self.rule,
            "title": self.title,
            "text": list(self.lines),
            "transfers": [t.to_dict() for t in self.transfers],
        }


@dataclass(frozen=True)
class SettlementResult:
    """Everything a settlement decided: steps, final stacks, bank, blinds and the end of the game."""

    state: HandState
    deck: Deck
    rules: Rules
    steps: tuple[Step, ...]
    stacks: tuple[int, ...]
    bank: tuple[int, int, int]
    blind_level: int
    winners: tuple[int, ...]
    losers: tuple[int, ...]
    bankrupt: tuple[int, ...]
    flags: int
    totals: dict[str, int]
    reasons: tuple[str, ...]

    @property
    def game_over(self) -> bool:
        """Whether the game ends after this settlement."""
        return bool(self.flags & F_GAME_OVER)

    @property
    def blinds(self) -> tuple[int, int]:
        """The small and big blind after the settlement."""
        return self.rules.blinds[self.blind_level]

    @property
    def names(self) -> list[str]:
        """Player names in seat order."""
        return [p.name for p in self.state.players]

    def final_stacks(self) -> dict[str, int]:
        """Final stacks by player name."""
        return dict(zip(self.names, self.stacks, strict=True))

    def to_text(self) -> str:
        """A referee's printout: the start, each step with its rule and amounts, the end."""
        from .render import to_text

        return to_text(self)

    def to_dict(self) -> dict[str, Any]:
        """The settlement as plain data (``dilemma settle --format json``)."""
        s = self.state
        return {
            "deck": {"name": self.deck.name, "fingerprint": self.deck.fingerprint},
            "rules": self.rules.as_dict(),
            "start": {
                "players": [
                    {
                        "name": p.name,
                        "stack": p.stack,
                        "in": p.put_in,
                        "folded": None if p.folded is None else STREETS[p.folded],
                        "hole": format_cards(p.hole, s.game),
                        "conceded": p.conceded,
                    }
                    for p in s.players
                ],
                "pot": s.pot,
                "bank": list(s.bank),
                "blinds": list(self.rules.blinds[s.blind_level]),
                "board": format_cards(s.board, s.game),
                "last_round": STREETS[s.last_round],
            },
            "steps": [step.to_dict() for step in self.steps],
            "final": {
                "stacks": self.final_stacks(),
                "bank": list(self.bank),
                "blind_level": self.blind_level,
                "blinds": list(self.blinds),
                "winners": [self.names[i] for i in self.winners],
                "losers": [self.names[i] for i in self.losers],
                "bankrupt": [self.names[i] for i in self.bankrupt],
                "game_over": self.game_over,
                "reasons": list(self.reasons),
            },
            "totals": dict(self.totals),
        }

def bank_text(bank: Sequence[int]) -> str:
    return "/".join(str(int(b)) for b in bank)

