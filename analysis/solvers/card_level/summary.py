"""Holdings grouped the way solver reports group them: made hand, draw or starting class.

This module names the group of every holding of a spot on a given board and weighs each
group's frequencies and EVs at one decision (:func:`summary_frame`), for
:meth:`.solution.SpotSolution.summary` heads-up and :meth:`.multiway.MultiwaySolution.summary`
three-handed alike.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis.studies.made_hands import DRAWS, MADE_HANDS, draw, made_hand
from analysis.studies.ranges import class_of_combo, combo_index, starting_classes

from .card_spot import CardSpot, SpotError

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


class GroupsAt:
    """:meth:`groups_at` for a solution (heads-up or three-handed) that has a ``spot``, a
    ``board_at(v)`` and a ``_group_cache`` dict."""

    spot: CardSpot
    _group_cache: dict

    def board_at(self, v: int) -> list[int]:  # pragma: no cover - each solution has its own
        raise NotImplementedError

    def groups_at(self, player: int, v: int) -> dict[str, list[str]]:
        """Each holding's starting class, made hand and draw on the board at node ``v`` (cached)."""
        board = self.board_at(v)
        key = (player, tuple(board))
        if key not in self._group_cache:
            self._group_cache[key] = {by: holding_groups(self.spot, player, board, by) for by in SUMMARY_KEYS}
        return self._group_cache[key]


def group_order(by: str, spot: CardSpot) -> tuple[str, ...]:
    """Every group name of ``by``, strongest first (starting classes in the deck's table order)."""
    if by == "made_hand":
        return MADE_HANDS
    if by == "draw":
        return DRAWS
    return tuple(c.name for c in starting_classes(spot.spec))


def check_by(by: str) -> None:
    """Refuse a grouping other than :data:`SUMMARY_KEYS` (one :class:`SpotError`)."""
    if by not in SUMMARY_KEYS:
        raise SpotError(f"summary by {by!r}: choose one of {', '.join(SUMMARY_KEYS)}")


def summary_frame(line: str, player: str, by: str, order: tuple[str, ...], groups: list[str],
                  labels: list[str], freq: np.ndarray, ev: np.ndarray, weight: np.ndarray) -> pd.DataFrame:
    """One decision's range summary: the actor's holdings grouped (``groups``: each holding's
    group, listed in ``order``), per group and action the share of the range reaching the
    decision, the frequency, the action's EV (chips) and the group's value under its strategy
    (``group_ev``), each weighted by ``weight`` (how likely each holding is at the decision).

    ``freq`` and ``ev``: float[actions, holdings] (``freq`` may be padded past the holdings);
    holdings with a NaN EV (unreached) weigh 0."""
    n = ev.shape[1]
    freq = freq[:, :n]
    weight = np.where(np.isnan(ev).any(axis=0), 0.0, weight[:n])
    names = np.array(groups)
    total = weight.sum()
    node_ev = (freq * np.nan_to_num(ev)).sum(axis=0)
    rows = []
    for group in order:
        sel = (names == group) & (weight > 0)
        if not sel.any():
            continue
        w = weight[sel]
        for a, label in enumerate(labels):
            rows.append({"line": line, "player": player, "by": by, "group": group, "holdings": int(sel.sum()),
                         "share": float(w.sum() / total), "action": label,
                         "frequency": float((w * freq[a, sel]).sum() / w.sum()),
                         "ev": float((w * ev[a, sel]).sum() / w.sum()),
                         "group_ev": float((w * node_ev[sel]).sum() / w.sum())})
    return pd.DataFrame(rows)
