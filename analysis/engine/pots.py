"""Plain Texas Hold'em pots (RULES §2): main and side pots, uncalled chips, odd chips.

Pots are built from what each player put in: the main pot is the smallest live
contribution times the contributors, then one side pot per larger live
contribution; chips that no other player matched go back to their owner. Each pot
goes to its best eligible hand; a split's odd chips go to the first winner left of
the DEALER (the Texas source). The Dilemma settlement builds its own pots
(``analysis.dilemma.settlement``), with $10 shares and the remainder to the bank.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Pot:
    """One pot: its chips, who may win it, and (once awarded) who took what."""

    amount: int
    eligible: tuple[int, ...]
    uncalled: bool = False
    """Only one player could win it and it holds only their own chips: they take them back."""
    shares: tuple[tuple[int, int], ...] = ()


def build_pots(put_in: Sequence[int], live: Sequence[bool]) -> list[Pot]:
    """Main pot first, then the side pots, from each seat's chips in and whether it is live."""
    levels = sorted({a for a, alive in zip(put_in, live, strict=True) if alive and a > 0})
    pots: list[Pot] = []
    prev = 0
    for k, level in enumerate(levels):
        top = k == len(levels) - 1
        amount = 0
        others = 0
        eligible = tuple(i for i, (a, alive) in enumerate(zip(put_in, live, strict=True))
                         if alive and a >= level)
        for i, a in enumerate(put_in):
            part = (a - min(a, prev)) if top else (min(a, level) - min(a, prev))
            amount += part
            if i not in eligible:
                others += part
        uncalled = len(eligible) == 1 and others == 0 and amount == (level - prev)
        pots.append(Pot(amount, eligible, uncalled))
        prev = level
    return pots


def award_pots(pots: Sequence[Pot], scores: Sequence[int], dealer: int) -> list[Pot]:
    """Each pot to its best eligible score (ties split, odd chips to the first winner left of
    the DEALER), awarded from the last side pot to the main pot; returned in pot order."""
    n = len(scores)
    clockwise = [(dealer + 1 + k) % n for k in range(n)]
    out: list[Pot] = []
    for pot in reversed(pots):
        best = max(scores[i] for i in pot.eligible)
        winners = [i for i in clockwise if i in pot.eligible and scores[i] == best]
        share, rest = divmod(pot.amount, len(winners))
        shares = tuple((i, share + (rest if k == 0 else 0)) for k, i in enumerate(winners))
        out.append(Pot(pot.amount, pot.eligible, pot.uncalled, shares))
    return out[::-1]
