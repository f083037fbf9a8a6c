"""Issue 23's small items: completion finds the lazy public names, ``guide --help`` lists the
studies, ``economy`` writes nothing unless asked, help text keeps defaults whole at 80 columns."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import analysis
from analysis.cli import run
from analysis.commands.guide import STUDY_NAMES


def test_dir_and_all_list_the_lazy_public_names() -> None:
    for name in ("equity", "evaluate_spot", "parse_range", "settle", "load_deck"):
        assert name in dir(analysis) and name in analysis.__all__
    for name in analysis.__all__:
        assert getattr(analysis, name) is not None


def test_guide_help_lists_the_studies_only_accepts(capsys) -> None:
    from analysis.guide import STUDIES

    assert tuple(s.name for s in STUDIES) == STUDY_NAMES
    assert run(["guide", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    for name in STUDY_NAMES:
        assert name in text


def test_economy_writes_no_file_by_default(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    assert run(["economy", "--deck", "plain", "--losers", "1"]) == 0
    assert "no file written" in capsys.readouterr().out
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", [["study", "fold-vs-check"], ["study", "spot"],
                                     ["table", "starting-hands"], ["solve"]])
def test_help_keeps_defaults_whole_at_80_columns(command: list[str]) -> None:
    env = {**os.environ, "COLUMNS": "80", "TERM": "xterm"}
    r = subprocess.run([sys.executable, "-m", "analysis.cli", *command, "--help"],
                       capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "…" not in r.stdout
    assert max(len(line) for line in r.stdout.splitlines()) <= 80
    if command == ["study", "fold-vs-check"]:
        assert "results/fold_vs_check]" in r.stdout
