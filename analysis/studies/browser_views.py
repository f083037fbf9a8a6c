"""What the guide's strategy browser reads of a solved spot, heads-up or three-handed, through one
interface: the seats, and per decision of the first street its actor, actions, frequencies, action
EVs and reach (:func:`decisions`). Packing them is :func:`.solved_spots.browser_spot`'s job."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from analysis.solvers.card_level import SpotSolution
from analysis.solvers.card_level.card_spot import SEATS, SEATS3
from analysis.solvers.card_level.multiway import MultiwaySolution
from analysis.solvers.card_level.tree3 import PLAYER

AnySolution = SpotSolution | MultiwaySolution
"""A heads-up solution or a three-handed one (river :class:`MultiwaySolution`, turn ``TurnSolution3``)."""


@dataclass(frozen=True)
class DecisionView:
    """One decision as the browser shows it: per holding of the actor (columns), each action's
    frequency and EV (rows; EV NaN where the holding meets no opponent there) and its reach."""

    line: tuple[str, ...]
    node: int
    actor: int
    actions: list[str]
    freq: np.ndarray
    ev: np.ndarray
    reach: np.ndarray


def three_handed(sol: AnySolution) -> bool:
    """True for a three-handed solution (river or turn)."""
    return isinstance(sol, MultiwaySolution)


def seat_names(sol: AnySolution) -> tuple[str, ...]:
    """The seats in the order of action: ``oop, ip`` heads-up, ``first, second, third`` three-handed."""
    return SEATS3 if three_handed(sol) else SEATS


def _node(sol: AnySolution, line: tuple[str, ...]) -> int:
    """The decision node ``line`` leads to (three-handed solutions look lines up in their solver)."""
    return sol.solver.node(line) if three_handed(sol) else sol.node(line)


def _reach(sol: AnySolution, v: int, actor: int, n: int) -> np.ndarray:
    """How likely each of the actor's holdings is at ``v``: three-handed, its reach times the others'
    it can meet (``holding_weights``); heads-up, its own reach (as the browser has always shown)."""
    if three_handed(sol):
        return np.asarray(sol.solver.holding_weights(v), dtype=float)[:n]
    return sol.reach(v, actor)[:n]


def decisions(sol: AnySolution) -> Iterator[DecisionView]:
    """Every decision of the first street (the whole river; a turn spot's turn), in the solution's order."""
    for line in sol.first_street_lines():
        line = tuple(line)
        v = _node(sol, line)
        actor = int(sol.solver.tree.nodes[v, PLAYER])  # the same column heads-up (tree.PLAYER) and three-handed
        freq = sol.solver.strategy(v)
        labels, ev = sol.action_values(line)
        yield DecisionView(line, v, actor, list(labels), freq, ev, _reach(sol, v, actor, freq.shape[1]))
