"""Ctrl-C stops a command within about a second: one line saying what was saved, exit 130,
only whole files left, and the same command run again resumes the finished work."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import ROOT, as_at_a_terminal, cpu_seconds


def _start(*args: str) -> subprocess.Popen:
    """Start a command as from a terminal (Ctrl-C not ignored, whatever the suite inherited)."""
    return subprocess.Popen([sys.executable, "-m", "analysis.cli", *args], cwd=ROOT, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=as_at_a_terminal)


def _interrupt(proc: subprocess.Popen, ready) -> tuple[int, str, float]:
    """Wait until ``ready()`` (the work is under way), send SIGINT; exit code, stderr, delay."""
    deadline = time.monotonic() + 300
    while not ready() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.1)
    assert proc.poll() is None, "the command ended before it could be interrupted"
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    return proc.returncode, err, time.monotonic() - sent


def _warm(*args: str) -> None:
    """Run a small job of the same command first: its kernels compiled and cached, so the
    interrupt lands in the work itself (a numba compile cannot be cut short)."""
    done = subprocess.run([sys.executable, "-m", "analysis.cli", *args], cwd=ROOT, text=True,
                          capture_output=True, timeout=900)
    assert done.returncode == 0, done.stderr


def _stray_files(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if p.name.endswith(".tmp") or p.name.startswith(".~")]


@pytest.mark.slow
def test_ctrl_c_during_monte_carlo_equity():
    _warm("equity", "AA", "random", "random", "--trials", "100000")
    proc = _start("equity", "AA", "random", "random", "--trials", "5000000000", "--seed", "1")
    # start-up takes about 2 CPU seconds warm; past 5 the trials are under way at any load
    # (a wall-clock wait of 15 s did the same, at a cost of 15 s)
    code, err, delay = _interrupt(proc, lambda: cpu_seconds(proc) > 5)
    lines = err.strip().splitlines()
    assert code == 130, err
    assert len(lines) == 1 and lines[0].startswith("interrupted: "), err
    assert "Traceback" not in err and "SystemError" not in err
    assert "trials" in lines[0]
    assert delay < 5, f"took {delay:.1f} s to stop"  # about a second; slack for a loaded machine


@pytest.mark.slow
def test_ctrl_c_during_a_table_keeps_whole_files_and_resumes(tmp_path):
    out = tmp_path / "table"
    _warm("table", "starting-hands", "--game", "dilemma", "--opponents", "3", "--stderr", "0.05",
          "--no-charts", "--out", str(tmp_path / "warm"))
    # About 1.4 million trials, 13 CPU seconds, most of them after the first checkpoint (65,536
    # trials), where the Ctrl-C is sent: it lands in the work, and the resumed run finishes
    # it (0.002 took under a second, its first checkpoint the last: the Ctrl-C could land
    # after the work, while the interpreter was shutting down; 0.0002 cost about 60 CPU seconds).
    args = ("table", "starting-hands", "--game", "dilemma", "--opponents", "3", "--stderr", "0.0005",
            "--no-charts", "--out", str(out))
    proc = _start(*args)
    code, err, delay = _interrupt(proc, lambda: any((out / ".partial").glob("*.npz")))
    lines = err.strip().splitlines()
    assert code == 130, err
    assert len(lines) == 1 and lines[0].startswith("interrupted: "), err
    assert "resume" in lines[0]
    assert "Traceback" not in err
    assert delay < 5, f"took {delay:.1f} s to stop"
    assert not _stray_files(out)
    done = subprocess.run([sys.executable, "-m", "analysis.cli", *args], cwd=ROOT, text=True,
                          capture_output=True, timeout=600)
    assert done.returncode == 0, done.stderr
    manifest = json.loads((out / "starting_hands_dilemma.manifest.json").read_text())
    assert manifest["resumed"] is True
    assert not _stray_files(out)


@pytest.mark.slow
def test_ctrl_c_during_bluffjack_games_saves_the_games_played(tmp_path):
    _warm("bluffjack", "games", "--out", str(tmp_path / "warm"), "--games", "20", "--stack", "20")
    out = tmp_path / "games"
    proc = _start("bluffjack", "games", "--out", str(out), "--games", "10000000", "--stack", "200", "--seed", "1")
    # start-up takes about 1.5 CPU seconds warm; past 5 the games are under way at any load
    code, err, delay = _interrupt(proc, lambda: cpu_seconds(proc) > 5)
    lines = err.strip().splitlines()
    assert code == 130, err
    assert len(lines) == 1 and lines[0].startswith("interrupted: stopped after "), err
    assert "Traceback" not in err
    assert delay < 5, f"took {delay:.1f} s to stop"
    assert not _stray_files(out)
    manifest = json.loads((out / "bluffjack_games.manifest.json").read_text())
    played = int(lines[0].split("stopped after ")[1].split(" of")[0].replace(",", ""))
    assert manifest["interrupted"] == f"{played} of 10000000 games" and played > 0


@pytest.mark.slow
def test_ctrl_c_during_three_handed_bluffjack_solve(tmp_path):
    _warm("bluffjack", "solve", "--players", "3", "--out", str(tmp_path / "warm"), "--iterations", "50",
          "--deals", "1", "--hands", "10")
    out = tmp_path / "bj3"
    proc = _start("bluffjack", "solve", "--players", "3", "--out", str(out), "--iterations", "100000000")
    # start-up takes about 3 CPU seconds warm; past 7 the iterations are under way at any load
    code, err, delay = _interrupt(proc, lambda: cpu_seconds(proc) > 7)
    lines = err.strip().splitlines()
    assert code == 130, err
    assert len(lines) == 1 and lines[0].startswith("interrupted: stopped after "), err
    assert "of 100,000,000 iterations; nothing was saved" in lines[0]
    assert delay < 5, f"took {delay:.1f} s to stop"
    assert not out.exists() or not any(out.iterdir())


@pytest.mark.parametrize(("players", "module", "name"), [("3", "analysis.solvers.preflop3.solve3", "solve_preflop3"),
                                                         ("2", "analysis.solvers.preflop_hu.solve", "solve_preflop")])
def test_ctrl_c_in_a_preflop_solve_says_how_far_it_got_and_that_nothing_was_saved(players, module, name,
                                                                                    monkeypatch, capsys):
    """In process, the solve replaced by one that reports a check and is then interrupted (the real one
    takes a minute to reach its iterations): one line, exit 130."""
    import importlib

    from analysis.cli import run

    def interrupted(spot, *, progress, **_):  # type: ignore[no-untyped-def]
        progress(50, 0.25)
        raise KeyboardInterrupt

    def at_once(spot, **_):  # type: ignore[no-untyped-def]
        raise KeyboardInterrupt

    monkeypatch.setattr(importlib.import_module(module), name, interrupted)
    assert run(["solve", "preflop", "--players", players, "-n", "200"]) == 130
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("interrupted: stopped after 50 of 200 iterations (")
    assert "0.2500 chips at the last check); nothing was saved: a pre-flop solve is neither saved nor resumed" in err[0]
    monkeypatch.setattr(importlib.import_module(module), name, at_once)
    assert run(["solve", "preflop", "--players", players]) == 130
    assert "interrupted: stopped before the first check" in capsys.readouterr().err
