"""The deck's worst cases bound every five-card board (RULES §1.4, §1.8), checked by brute force."""

from itertools import combinations

import numpy as np
import pytest

from analysis.dilemma.effects import (
    OP_BOOM,
    OP_BUBBLE,
    OP_CRASH,
    OP_LEVY,
    OP_SLUMP,
    OP_SUBSIDY,
    OP_WINDFALL,
)
from analysis.dilemma.extremes import board_extremes

from .test_settlement_properties import DECKS


def every_board_with_every_effect_active(deck):
    """Per five-card board (every effect counted as active): bonus, penalty, levy, crash, subsidy."""
    boards = np.array(list(combinations(range(deck.n_cards), 5)), np.int64)
    op, amount = deck.opcode[boards], deck.amount[boards].astype(np.int64)

    def total(*ops):
        return np.where(np.isin(op, ops), amount, 0).sum(axis=1)

    def product(*ops):
        return np.where(np.isin(op, ops), np.maximum(amount, 1), 1).prod(axis=1)

    bonus = deck.plus[boards].sum(axis=1) * product(OP_BOOM, OP_BUBBLE) + total(OP_WINDFALL)
    penalty = deck.minus[boards].sum(axis=1) * product(OP_SLUMP)
    return bonus, penalty, total(OP_LEVY), total(OP_CRASH), total(OP_SUBSIDY)


@pytest.mark.parametrize("name", ["reference", "plain", "bare", "stress", "stress2"])
def test_bounds_hold_on_every_board_and_sums_are_attained(name):
    deck = DECKS[name]
    x = board_extremes(deck)
    bonus, penalty, levy, crash, subsidy = every_board_with_every_effect_active(deck)
    assert bonus.max() <= x.bonus and penalty.max() <= x.penalty
    assert (levy.max(), crash.max(), subsidy.max()) == (x.levy, x.crash, x.subsidy)
    assert x.liability % 10 == 0 and x.liability >= x.penalty + x.crash + x.levy
