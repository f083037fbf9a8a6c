"""What a board does, once, for every kernel: which cards act and what they add up to.

A board card's effect acts when the card is blue, or red and dealt on the turn or
the river (RULES §1.1, §1.4 step 3). :func:`scan_board` sums the corners and the
active effects of a board into a ``summary`` row (the ``B_*`` entries below):
corner sums, bonus and penalty multipliers (they compose by multiplication),
the windfall added to the bonus, the per-head levy, subsidy and crash amounts,
whether a rebate acts, the active opcodes as a bit mask and the number of
active blue and red cards. The settlement core and the board-economics
enumeration both read it, so the rule is written here only (the readable
referee in :mod:`analysis.dilemma.settlement.stepwise` keeps its own explained
version, and tests check the two agree).
"""

from __future__ import annotations

from evaluator.jit import kernel

from .decks import D_AMOUNT, D_COLOUR, D_MINUS, D_OP, D_PLUS
from .effects import (
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

# summary entries (int64): written at ``summary[base + B_*]``
(B_PLUS, B_MINUS, B_BONUS_MULT, B_PENALTY_MULT, B_WINDFALL, B_LEVY, B_SUBSIDY, B_CRASH,
 B_REBATE, B_ACTIVE_OPS, B_N_BLUE, B_N_RED) = range(12)
N_BOARD = 12


@kernel(inline=True)
def card_acts(deck, card, street):
    """Whether the board card ``card`` dealt on ``street`` acts: blue always, red from the turn."""
    colour = deck[D_COLOUR, card]
    return colour == COLOUR_BLUE or (colour == COLOUR_RED and street >= TURN)


@kernel(inline=True)
def scan_board(cards, streets, nb, deck, summary, base):
    """Corner sums and active effects of the first ``nb`` board cards into ``summary[base:]``."""
    plus = 0
    minus = 0
    bonus_mult = 1
    penalty_mult = 1
    windfall = 0
    levy = 0
    subsidy = 0
    crash = 0
    rebate = 0
    active_ops = 0
    n_blue = 0
    n_red = 0
    for j in range(nb):
        c = cards[j]
        plus += deck[D_PLUS, c]
        minus += deck[D_MINUS, c]
        if not card_acts(deck, c, streets[j]):
            continue
        if deck[D_COLOUR, c] == COLOUR_BLUE:
            n_blue += 1
        else:
            n_red += 1
        op = deck[D_OP, c]
        a = deck[D_AMOUNT, c]
        active_ops |= 1 << op
        if op in (OP_BOOM, OP_BUBBLE):
            bonus_mult *= a
        elif op == OP_SLUMP:
            penalty_mult *= a
        elif op == OP_WINDFALL:
            windfall += a
        elif op == OP_LEVY:
            levy += a
        elif op == OP_SUBSIDY:
            subsidy += a
        elif op == OP_CRASH:
            crash += a
        elif op == OP_REBATE:
            rebate = 1
    summary[base + B_PLUS] = plus
    summary[base + B_MINUS] = minus
    summary[base + B_BONUS_MULT] = bonus_mult
    summary[base + B_PENALTY_MULT] = penalty_mult
    summary[base + B_WINDFALL] = windfall
    summary[base + B_LEVY] = levy
    summary[base + B_SUBSIDY] = subsidy
    summary[base + B_CRASH] = crash
    summary[base + B_REBATE] = rebate
    summary[base + B_ACTIVE_OPS] = active_ops
    summary[base + B_N_BLUE] = n_blue
    summary[base + B_N_RED] = n_red
