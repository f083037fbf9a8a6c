"""The solvers' exception: bad game descriptions, settings or state files."""

from __future__ import annotations

from evaluator.errors import LabError


class SolverError(LabError):
    """A game tree, solver setting or saved solver state that cannot be used (one-line message)."""
