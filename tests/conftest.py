"""Test setup: make ``tests/`` importable (``from reference import ...``)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import subprocess  # noqa: E402

import pytest  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


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
