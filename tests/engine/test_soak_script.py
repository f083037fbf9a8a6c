"""``scripts/soak.py`` at a tiny scale: every part runs, checks and reports 0 failures (the full
soak is run by hand; its figures are in the README)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.conftest import ROOT


@pytest.mark.slow
def test_the_soak_script_runs_every_part_clean(tmp_path):
    pytest.importorskip("pokerkit")
    report = tmp_path / "soak.json"
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "soak.py"), "--scale", "0.0003",
                           "--processes", "1", "--json", str(report)],
                          capture_output=True, text=True, timeout=900, cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    parts = json.loads(report.read_text())["parts"]
    assert set(parts) == {"engine", "pokerkit", "games", "settlement"}
    for name, part in parts.items():
        assert part["checked"] > 0 and part["failures"] == 0, (name, part)
