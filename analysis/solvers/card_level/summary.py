"""Holdings grouped the way solver reports group them: made hand, draw or starting class.

:meth:`SpotSolution.summary` weighs each group's frequencies and EVs; this module only
names the group of every holding of a spot on a given board.
"""

from __future__ import annotations

from analysis.studies.made_hands import DRAWS, MADE_HANDS, draw, made_hand
from analysis.studies.ranges import class_of_combo, combo_index, starting_classes

from .card_spot import CardSpot

SUMMARY_KEYS: tuple[str, ...] = ("made_hand", "draw", "class")
"""What a summary can group by."""


def holding_groups(spot: CardSpot, player: int, board: list[int], by: str) -> list[str]:
    """The group of each of ``player``'s holdings (in the spot's holding order) on ``board``."""
    spec = spot.spec
    combos = spot.holdings(player)[0]
    if by == "class":
        names = [c.name for c in starting_classes(spec)]
        index = class_of_combo(spec)
        return [names[index[combo_index(a, b)]] for a, b in combos]
    name = made_hand if by == "made_hand" else draw
    return [name((int(a), int(b)), board, spec) if not ({int(a), int(b)} & set(board)) else "blocked"
            for a, b in combos]


def group_order(by: str, spot: CardSpot) -> tuple[str, ...]:
    """Every group name of ``by``, strongest first (starting classes in the deck's table order)."""
    if by == "made_hand":
        return MADE_HANDS
    if by == "draw":
        return DRAWS
    return tuple(c.name for c in starting_classes(spot.spec))
