"""The settlement's error type."""

from __future__ import annotations

from evaluator.errors import LabError


class SettlementError(LabError):
    """A hand record or end state that cannot be settled; names the field that is wrong."""
