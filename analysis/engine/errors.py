"""The betting engine's errors: one specific :class:`LabError` subclass per kind of bad input."""

from __future__ import annotations

from analysis.core.strategy import StrategyError
from analysis.dilemma.table import TableError as TableError  # the lab's one table error
from evaluator.errors import LabError


class EngineError(LabError):
    """Bad input to the betting engine (a table, a structure, a history line)."""




class IllegalActionError(EngineError):
    """An action the rules do not allow; names the action, the player and the rule."""

    def __init__(self, action: str, player: str, rule: str, where: str = "") -> None:
        self.action = action
        self.player = player
        self.rule = rule
        prefix = f"{where}: " if where else ""
        super().__init__(f"{prefix}illegal action {action!r} by {player}: {rule}")


PolicyError = StrategyError
"""A strategy file or policy table that cannot be read; names the file, line and field (the one
strategy language's error, :class:`analysis.core.strategy.StrategyError`)."""


class HistoryError(EngineError):
    """A hand-history line that cannot be read or replayed; names the line and field."""
