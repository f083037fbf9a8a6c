"""``dilemma solve spot --players 3``: a three-handed river (and turn) spot from options (``--range`` once
per player) or a TOML file (``ranges = [...]``), text and JSON output labelled exact, the
fold-or-check answer per holding, tables, a solution file that resumes, one error line for
bad input, and Ctrl-C that saves."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from analysis.solvers.card_level import load_solution
from tests.conftest import as_at_a_terminal, cpu_seconds

ROOT = Path(__file__).resolve().parents[2]
RANGES = ("8s7s", "AhAd, 9d9c, 2h3d, 5d5c, 10d10c, 3c3d", "AdAc, 9d9c, 8d7d, 2s3c, 7c7s, 4d4c")
THREE = ["--game", "dilemma", "--players", "3", "--board", "4s9h3d6c2d",
         *[x for r in RANGES for x in ("--range", r)], "--pot", "120", "--stack", "980", "--bank", "40,700,500",
         "--bets", "100%, a", "--raises", "a"]


def test_three_handed_river_answers_fold_or_check(cli, tmp_path):
    done = cli("solve", "spot", *THREE, "--target", "0.1", "--out", str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert re.search(r"1 vs \d+ vs \d+ holdings", done.stdout) and "exploitability (NashConv (exact))" in done.stdout
    assert "fold or check at (root) (first" in done.stdout
    free = pd.read_parquet(tmp_path / "spot_fold_or_check.parquet")
    root = free[free["line"] == "(root)"]
    assert list(root["holding"]) == ["8s7s"] and root["answer"].iloc[0] in ("folds for free", "checks",
                                                                              "indifferent")
    assert set(free["player"]) == {"first", "second", "third"}
    manifest = json.loads((tmp_path / "spot_strategy.manifest.json").read_text())
    assert manifest["players"] == 3 and manifest["exploitability_pct_pot"] <= 0.1
    assert manifest["spot"]["ranges"][0] == "8s7s"
    # range summaries as heads-up: every decision, by made hand, draw and class; the root by made hand
    assert "root by made hand (share of the range: action frequencies): high card 100%:" in done.stdout
    assert "spot_summary" in done.stdout
    groups = pd.read_parquet(tmp_path / "spot_summary.parquet")
    assert set(groups["by"]) == {"made_hand", "draw", "class"} and set(groups["player"]) == {"first", "second",
                                                                                               "third"}
    # every decision the range reaches (a line the others never play has no one to summarise)
    assert "(root)" in set(groups["line"]) <= set(pd.read_parquet(tmp_path / "spot_strategy.parquet")["line"])
    shares = groups.groupby(["line", "by", "group"])["share"].first().groupby(["line", "by"]).sum()
    assert shares.to_numpy() == pytest.approx(1.0)
    assert json.loads((tmp_path / "spot_summary.manifest.json").read_text())["players"] == 3


def test_three_handed_json_spot_file_and_resume(cli, tmp_path):
    toml = tmp_path / "spot.toml"
    toml.write_text('game = "dilemma"\nplayers = 3\nboard = "4s9h3d6c2d"\n'
                    f'ranges = {json.dumps(list(RANGES))}\npot = 120\nstack = 980\nbank = "40,700,500"\n'
                    '[tree]\nbets = "100%, a"\nraises = "a"\n')
    a = cli("solve", "spot", *THREE, "--format", "json", "-n", "20", "--target", "0")
    b = cli("solve", "spot", "--spot-file", str(toml), "--format", "json", "-n", "20", "--target", "0")
    assert a.returncode == 0 and b.returncode == 0, a.stderr + b.stderr
    ja, jb = json.loads(a.stdout), json.loads(b.stdout)
    assert ja["exploitability"] == jb["exploitability"] and ja["fold_or_check"] == jb["fold_or_check"]
    assert ja["exploitability_measure"] == "NashConv (exact)" and set(ja["ev"]) == {"first", "second", "third"}
    state = tmp_path / "s.npz"
    first = cli("solve", "spot", "--spot-file", str(toml), "--target", "0", "-n", "10", "--state", str(state))
    assert first.returncode == 0, first.stderr
    again = cli("solve", "spot", *THREE, "--target", "0", "-n", "20", "--state", str(state), "--format", "json")
    assert again.returncode == 0, again.stderr
    assert load_solution(state).iterations == 20
    assert json.loads(again.stdout)["exploitability"] == ja["exploitability"]  # resumed bit for bit
    assert json.loads(again.stdout)["root_by_made_hand"] == ja["root_by_made_hand"]
    assert set(ja["root_by_made_hand"]) == {"high card"} and ja["root_by_made_hand"]["high card"]["share"] == 1.0


@pytest.mark.parametrize("args, match", [
    (["--players", "3", "--range", "random", "--range", "random"], "give one range per player"),
    (["--range", "random", "--range", "random", "--range", "random", "--oop", "AA"], "give the ranges once"),
    (["--range", "8s7s", "--range", "random", "--range", "random", "--nash-conv", "sampled"],
     "three-handed turn spots only"),
    (["--range", "8s7s", "--range", "random", "--range", "random", "--lock", "ip=threshold"],
     "PLAYER first, second or third"),
])
def test_three_handed_bad_input_is_one_error_line(cli, args, match):
    done = cli("solve", "spot", "--game", "dilemma", "--board", "4s9h3d6c2d", "--pot", "120", "--stack", "980",
               *args)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2, done.stderr
    assert len(lines) == 1 and lines[0].startswith("error: ") and match in lines[0], done.stderr


def test_three_handed_locked_to_models_best_responds_and_resumes(cli, tmp_path):
    """Both opponents locked (``--lock`` twice): the solution file keeps the locks (by model) and
    resumes bit for bit."""
    args = ["solve", "spot", "--game", "dilemma", "--players", "3", "--board", "4s 9h 3d 6c 10s", "--range",
            "random", "--range", "random", "--range", "random", "--pot", "90", "--stack", "970",
            "--bets", "50%", "--raises", "", "--lock", "second=threshold", "--lock", "third=abc", "--target", "0",
            "--format", "json"]
    whole = cli(*args, "-n", "8")
    state = tmp_path / "locked.npz"
    first = cli(*args, "-n", "4", "--state", str(state))
    again = cli(*args, "-n", "8", "--state", str(state))
    assert whole.returncode == 0 and first.returncode == 0 and again.returncode == 0, whole.stderr + again.stderr
    a, b = json.loads(whole.stdout), json.loads(again.stdout)
    assert a["locks"] == {"second": "threshold", "third": "abc"} and a["locked_nodes"] > 0
    assert a["exploitability"] == b["exploitability"] > 0 and a["ev"] == b["ev"]  # resumed bit for bit
    assert load_solution(state).solver.locked and load_solution(state).iterations == a["iterations"] == 8
    assert load_solution(state).locks == {"second": "threshold", "third": "abc"}


def test_three_handed_turn_runs_mccfr_seeded_and_says_exact(cli):
    args = [x if x != "4s9h3d6c2d" else "4s9h3d6c" for x in THREE]
    runs = [cli("solve", "spot", *args, "--seed", "3", "-n", "50", "--check-every", "50", "--target", "0",
                "--format", "json") for _ in range(2)]
    assert all(r.returncode == 0 for r in runs), runs[0].stderr
    a, b = (json.loads(r.stdout) for r in runs)
    assert a["method"] == "mccfr" and a["sampled"] and a["seed"] == 3 and a["iterations"] == 50
    assert a["exploitability_measure"] == "NashConv (exact)" and a["exploitability_estimate"] == "exact"
    assert a["exploitability"] == b["exploitability"] and a["ev"] == b["ev"]  # same seed, same numbers
    flop = [x if x != "4s9h3d6c2d" else "4s9h3d" for x in THREE]
    done = cli("solve", "spot", *flop)
    assert done.returncode == 2 and done.stderr.startswith("error: ") and "turn or the river" in done.stderr


def test_three_handed_turn_state_resumes_bit_for_bit(cli, tmp_path):
    """--state on a three-handed turn spot: 15 iterations then 15 more from the file equal 30 in one
    run (mccfr, the sampler's state in the file); another seed or method is one error line."""
    args = [x if x != "4s9h3d6c2d" else "4s9h3d6c" for x in THREE] + ["--target", "0", "--check-every", "10",
                                                                      "--format", "json"]
    state = tmp_path / "turn.npz"
    one = cli("solve", "spot", *args, "--seed", "2", "-n", "30")
    first = cli("solve", "spot", *args, "--seed", "2", "-n", "15", "--state", str(state))
    again = cli("solve", "spot", *args, "--seed", "2", "-n", "30", "--state", str(state))
    assert one.returncode == 0 and first.returncode == 0 and again.returncode == 0, first.stderr + again.stderr
    a, b = json.loads(one.stdout), json.loads(again.stdout)
    assert b["iterations"] == 30 and load_solution(state).iterations == 30
    assert (a["exploitability"], a["ev"], a["root_by_made_hand"]) == (b["exploitability"], b["ev"],
                                                                      b["root_by_made_hand"])
    for other in (["--seed", "3"], ["--seed", "2", "--method", "dcfr"]):
        done = cli("solve", "spot", *args, *other, "-n", "31", "--state", str(state))
        lines = done.stderr.strip().splitlines()
        assert done.returncode == 2 and len(lines) == 1, done.stderr
        assert lines[0].startswith("error: ") and "holds another spot, method or seed" in lines[0]


@pytest.mark.slow
@pytest.mark.parametrize("board, ranges", [("4s9h3d6c2d", ("8s7s", "random", "random")), ("4s9h3d6c", RANGES)],
                         ids=["river", "turn"])
def test_three_handed_ctrl_c_saves_a_resumable_solution(tmp_path, board, ranges):
    state = tmp_path / "s.npz"
    # river: one holding against two random ranges; turn (mccfr): the small ranges: iterations of a
    # few milliseconds (Ctrl-C is seen between two iterations)
    args = ["solve", "spot", "--game", "dilemma", "--board", board, *[x for r in ranges for x in ("--range", r)],
            "--pot", "120", "--stack", "980", "--target", "0", "-n", "100000", "--state", str(state)]
    warm = subprocess.run([sys.executable, "-m", "analysis.cli", *args[:-6], "-n", "1"], cwd=ROOT,
                          capture_output=True, text=True, timeout=900)
    assert warm.returncode == 0, warm.stderr
    proc = subprocess.Popen([sys.executable, "-m", "analysis.cli", *args], cwd=ROOT, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=as_at_a_terminal)
    try:
        deadline = time.monotonic() + 300
        while cpu_seconds(proc) < 8 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
        assert proc.poll() is None, "the solve ended before it could be interrupted"
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
        delay = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    lines = err.strip().splitlines()
    assert proc.returncode == 130, err
    assert len(lines) == 1 and lines[0].startswith("interrupted: ") and "saved" in lines[0], err
    assert delay < 5, f"took {delay:.1f} s to stop"
    assert load_solution(state).iterations > 0
