"""The strategy frame every solver stack hands out: one row per decision, private state and action.

One vocabulary of column names, whatever the stack:

=============== ============================================================================
``player``      who acts: the player's number (0 first to act)
``line``        the public betting line that leads to the decision (``""`` at the root)
private columns what the actor knows and the others do not, as the stack has it: an infoset
                label (game trees), a bucket and bucket history (the abstracted hand), a
                hidden card (Bluffjack)
``action``      the action's name
``probability`` how often the actor takes it there
``ev``          (optional) the action's expected value for the actor
=============== ============================================================================

then any columns of the stack's own (reach, sizes, ...). :func:`strategy_frame` builds a frame in
that order; :func:`missing_columns` says what a frame lacks. The card-level solver's tables
(``SpotSolution.to_frame``, ``summary``) say ``frequency`` for ``probability`` and name the
player by seat (``oop``/``ip``), as the committed ``results/solved_spots`` tables do.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

STRATEGY_COLUMNS = ("player", "line", "action", "probability")
"""The columns every strategy frame has."""
EV = "ev"
"""The optional column of each action's expected value."""


def strategy_frame(player: Any, line: Any, private: Mapping[str, Any], action: Any, probability: Any, *,
                   ev: Any = None, extra: Mapping[str, Any] | None = None) -> pd.DataFrame:
    """A strategy frame in the shared vocabulary (see the module doc): ``player``, ``line``, the
    ``private`` columns, ``action``, ``probability``, ``ev`` if given, then ``extra`` (each value
    an array of one entry per row, or a scalar)."""
    columns: dict[str, Any] = {"player": player, "line": line}
    for name, values in private.items():
        if name in columns or name in STRATEGY_COLUMNS or name == EV:
            raise ValueError(f"strategy_frame: the private column {name!r} clashes with a shared one")
        columns[name] = values
    columns["action"] = action
    columns["probability"] = probability
    if ev is not None:
        columns[EV] = ev
    for name, values in (extra or {}).items():
        if name in columns:
            raise ValueError(f"strategy_frame: the extra column {name!r} is already there")
        columns[name] = values
    return pd.DataFrame(columns)


def missing_columns(frame: pd.DataFrame) -> list[str]:
    """The shared columns ``frame`` lacks (empty for a strategy frame)."""
    return [c for c in STRATEGY_COLUMNS if c not in frame.columns]
