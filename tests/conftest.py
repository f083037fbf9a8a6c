"""Test setup: the project root is importable, so tests reach the slow references as
``tests.reference.*``; the ``cli`` fixture runs the command line as a user would."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def run_cli(*args: str, timeout: float = 600) -> subprocess.CompletedProcess:
    """Run ``dilemma ARGS...`` in a subprocess (as a user would) and capture its output."""
    return subprocess.run(
        [sys.executable, "-m", "analysis.cli", *map(str, args)],
        capture_output=True, text=True, timeout=timeout, cwd=ROOT,
    )


@pytest.fixture
def cli():
    """The ``run_cli`` function, as a fixture."""
    return run_cli
