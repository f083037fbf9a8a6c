"""The three-handed pre-flop chart's continuation with postflop play where two players see the flop.

The three-handed chart (:mod:`analysis.solvers.preflop3`) values every flop by its check-down. Here
the heads-up flops solved by :mod:`.postflop_value` are credited where they apply: when one player
folded before the flop and two see it at level L (chips each live player put in), each live player's
value of a pair of classes gains its class edge at L in its seat after the flop (the first live seat
left of the dealer acts first: the small blind before the big blind before the button, RULES §1.2),
as the heads-up chart's continuation does. The stated abstraction, beyond the heads-up one (an edge
measured against a random range, whatever the opponent holds): the folder's chips in the pot are
not in the edge (it was measured with a pot of 2L), and where three see the flop the value stays the
check-down, since no three-handed flop is solved (the card-level solver's three-handed turn spots
alone take minutes each; a flop is beyond it). All in, no betting is left and the edge is 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np
import pandas as pd

from analysis.solvers.preflop3.continuation3 import FLOP2, FLOP3, Continuation3, situation_kind
from analysis.solvers.preflop3.solve3 import Preflop3Spot

from .postflop_value import SEATS, PostflopValueError, check_fits, class_edge_rows, state_rows


def pair_levels(situations: Sequence[tuple[int, int, int, int]], chips: int) -> tuple[int, ...]:
    """The levels (chips each live player put in) below all-in where two players see the flop."""
    return tuple(sorted({max(s[1:]) for s in situations if situation_kind(s[0]) == FLOP2 and max(s[1:]) < chips}))


def edge_rows3(classes: pd.DataFrame, names: tuple[str, ...], levels: Sequence[int]) -> dict[tuple[int, str], np.ndarray]:
    """Per level of ``levels`` and seat, the edge of each class of ``names`` (one game state's rows of a
    class-edge table, :func:`~.postflop_value.class_edge_rows`); a level or a class missing refused (below
    all-in every level where two see the flop needs its edges)."""
    edge = class_edge_rows(classes, names, levels)
    missing = [lv for lv in levels if any((lv, seat) not in edge for seat in SEATS)]
    if missing:
        raise PostflopValueError(f"the edge rows hold no edges at level {missing[0]}, where two see the flop")
    return edge


def with_postflop_edge3(cont: Continuation3, classes: pd.DataFrame, names: tuple[str, ...], chips: int
                        ) -> Continuation3:
    """``cont`` with each live player's class edge (one game state's rows of a class-edge table) added to its
    value of every pair of classes where two see the flop below all-in (``chips``); ``names``: the deal's
    class names, in the order of the continuation's arrays. Three see the flop, fold ends, folders: as they
    were."""
    edge = edge_rows3(classes, names, pair_levels(cont.situations, chips))
    pair = dict(cont.pair)
    for (s, p), (o, m) in cont.pair.items():
        put = max(cont.situations[s][1:])
        if put >= chips:
            continue
        seat = SEATS[int(p > o)]  # the lower seat number acts first after the flop: out of position
        pair[(s, p)] = (o, m + edge[(put, seat)][:, None])
    return replace(cont, pair=pair)


def check_fits3(spot: Preflop3Spot, classes: pd.DataFrame, situations: Sequence[tuple[int, int, int, int]],
                names: tuple[str, ...]) -> None:
    """Refuse, before any sampling, a class-edge table that :func:`edged_continuation3` would refuse for
    ``spot`` (its tree's ``situations``, the deal's class ``names``): another game, state or levels, a class
    missing at a level the tree sees a heads-up flop at."""
    levels = pair_levels(situations, spot.chips)
    check_fits(spot, classes, levels)
    edge_rows3(state_rows(spot, classes), names, levels)


def edged_continuation3(spot: Preflop3Spot, classes: pd.DataFrame, checkdown: Continuation3,
                        names: tuple[str, ...]) -> Continuation3:
    """The three-handed ``checkdown`` of ``spot`` with the class edges of the spot's game state added where
    two see the flop (:func:`with_postflop_edge3`), after :func:`~.postflop_value.check_fits` (the table's
    deck, chips, state and levels)."""
    check_fits(spot, classes, pair_levels(checkdown.situations, spot.chips))
    return with_postflop_edge3(checkdown, state_rows(spot, classes), names, spot.chips)


def credited_situations(situations: Sequence[tuple[int, int, int, int]], chips: int) -> dict[str, int]:
    """How many of a tree's terminal situations gain an edge (two see the flop below all-in) and how many
    keep the check-down (three see it; two all in): what the stated abstraction leaves out, counted."""
    kinds = [(situation_kind(s[0]), max(s[1:]) < chips) for s in situations]
    return {"two_see_flop_edged": sum(k == FLOP2 and below for k, below in kinds),
            "two_see_flop_all_in": sum(k == FLOP2 and not below for k, below in kinds),
            "three_see_flop_checkdown": sum(k == FLOP3 for k, _ in kinds)}
