"""The referee's printout of a settlement, as text (``dilemma settle``)."""

from __future__ import annotations

from evaluator import format_cards

from ..effects import STREETS
from .results import SettlementResult, bank_text


def to_text(result: SettlementResult) -> str:
    """A referee's printout: the start, each step with its rule and amounts, the end."""
    s = result.state
    sb, bb = result.rules.blinds[s.blind_level]
    out = [
        f"deck {result.deck.name} ({result.deck.fingerprint}), rules {result.rules.label}",
        "start: "
        + "; ".join(f"{p.name} {p.stack} behind + {p.put_in} in" for p in s.players)
        + f"; pot {s.pot}; bank {bank_text(s.bank)}; blinds {sb}/{bb}",
        f"board: {format_cards(s.board, s.game) or '(none)'}; last betting round: {STREETS[s.last_round]}",
    ]
    for step in result.steps:
        out.append(f"{step.number}. {step.title} [{step.rule}]")
        out += [f"   {line}" for line in step.lines]
    out.append(
        "final: "
        + ", ".join(
            f"{name} {stack}" + (" (bankrupt)" if i in result.bankrupt else "")
            for i, (name, stack) in enumerate(zip(result.names, result.stacks, strict=True))
        )
        + f"; bank {bank_text(result.bank)}; blinds {result.blinds[0]}/{result.blinds[1]}"
    )
    out.append(
        "the game ends: " + "; ".join(result.reasons) if result.game_over else "the game goes on"
    )
    return "\n".join(out)


