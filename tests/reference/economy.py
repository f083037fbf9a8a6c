"""A readable per-board statement of what a board pays and takes (the economy's slow reference).

Written from RULES §1.4/§1.8 without the kernels: corner sums, multipliers that
compose by multiplication, windfall after the multipliers, levy/subsidy/crash per
head, rebate sending the collected penalty to the winner.
"""

from __future__ import annotations

from analysis.dilemma.decks import Deck
from analysis.dilemma.effects import (
    COLOUR_BLUE,
    COLOUR_RED,
    OP_BOOM,
    OP_BUBBLE,
    OP_CRASH,
    OP_LEVY,
    OP_REBATE,
    OP_SLUMP,
    OP_SUBSIDY,
    OP_WINDFALL,
    TURN,
)


def board_values(
    deck: Deck, cards: list[int], streets: list[int], losers: int = 1
) -> dict[str, object]:
    """What one board does, in plain Python (the reference the kernel is tested against).

    Returns the bonus, the penalty, the net transfer (pot excluded) to one winner
    and to each of ``losers`` losers, and the board cards whose effect is active.
    """
    psum = msum = windfall = levy = subsidy = crash = 0
    bmult = pmult = 1
    rebate = False
    active = []
    for c, street in zip(cards, streets, strict=True):
        psum += int(deck.plus[c])
        msum += int(deck.minus[c])
        col = int(deck.colour[c])
        if not (col == COLOUR_BLUE or (col == COLOUR_RED and street >= TURN)):
            continue
        active.append(c)
        op, a = int(deck.opcode[c]), int(deck.amount[c])
        if op in (OP_BOOM, OP_BUBBLE):
            bmult *= a
        elif op == OP_SLUMP:
            pmult *= a
        elif op == OP_WINDFALL:
            windfall += a
        elif op == OP_LEVY:
            levy += a
        elif op == OP_SUBSIDY:
            subsidy += a
        elif op == OP_CRASH:
            crash += a
        elif op == OP_REBATE:
            rebate = True
    bonus = psum * bmult + windfall
    penalty = msum * pmult
    share = penalty // losers // 10 * 10
    return {
        "bonus": bonus,
        "penalty": penalty,
        "net_winner": bonus - levy - crash + (share * losers if rebate else 0),
        "net_loser": subsidy - crash - share,
        "active": active,
    }
