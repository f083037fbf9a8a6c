"""``dilemma solve spot``: options or a TOML spot file, text and JSON output, tables with a
manifest, a solution file that resumes, one error line for bad input, and Ctrl-C that saves."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from analysis.solvers.card_level import load_solution
from tests.conftest import as_at_a_terminal, cpu_seconds

ROOT = Path(__file__).resolve().parents[2]
SPOT = ["--board", "Td9d6hQc2s", "--oop", "AA, KK, T9s, 76s, AKs", "--ip", "QQ, JJ, AKs, 98s",
        "--pot", "200", "--stack", "900"]


def test_solve_spot_prints_and_writes_tables(cli, tmp_path):
    done = cli("solve", "spot", *SPOT, "--target", "0.1", "--out", str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert "exploitability" in done.stdout and "% of the pot" in done.stdout
    frame = pd.read_parquet(tmp_path / "spot_strategy.parquet")
    assert {"line", "holding", "action", "frequency", "ev", "indifferent", "regret"} <= set(frame.columns)
    manifest = json.loads((tmp_path / "spot_strategy.manifest.json").read_text())
    assert manifest["exploitability_pct_pot"] <= 0.1
    assert manifest["spot"]["board"] == "Td 9d 6h Qc 2s"
    assert "root by made hand" in done.stdout
    groups = pd.read_parquet(tmp_path / "spot_summary.parquet")
    assert set(groups["by"]) == {"made_hand", "draw", "class"}
    root = groups[(groups.line == "(root)") & (groups.by == "made_hand")]
    assert root.groupby("group").share.first().sum() == pytest.approx(1.0)
    assert {"overpair", "two pair"} <= set(root.group)  # AA, KK over Td9d6hQc2s; T9s


def test_json_output_and_spot_file_agree_with_options(cli, tmp_path):
    toml = tmp_path / "spot.toml"
    toml.write_text('board = "Td9d6hQc2s"\noop = "AA, KK, T9s, 76s, AKs"\nip = "QQ, JJ, AKs, 98s"\n'
                    'pot = 200\nstack = 900\n[tree]\nbets = "50%, a"\nraises = "100%"\n')
    a = cli("solve", "spot", *SPOT, "--format", "json", "-n", "40")
    b = cli("solve", "spot", "--spot-file", str(toml), "--format", "json", "-n", "40")
    assert a.returncode == 0 and b.returncode == 0, a.stderr + b.stderr
    ja, jb = json.loads(a.stdout), json.loads(b.stdout)
    assert ja["exploitability"] == jb["exploitability"] and ja["root"] == jb["root"]
    assert sum(ja["root"].values()) == pytest.approx(1.0)


def test_per_player_street_sizes_from_a_file_equal_the_tree_options(cli, tmp_path):
    """postflop-solver's TreeConfig gives each street [oop, ip] sizes: a spot file's
    ``[tree.river.oop]`` / ``[tree.river.ip]`` tables, or ``--tree river.oop.bets=...`` on the
    command line, make the same tree and the same solve; a size not given is the street's or the
    tree's."""
    toml = tmp_path / "spot.toml"
    toml.write_text('board = "Td9d6hQc2s"\noop = "AA, KK, T9s, 76s, AKs"\nip = "QQ, JJ, AKs, 98s"\n'
                    'pot = 200\nstack = 900\n[tree]\nadd_allin_threshold = 1.5\n[tree.river]\nraises = "2.5x"\n'
                    '[tree.river.oop]\nbets = "33%, a"\n[tree.river.ip]\nbets = "75%"\n')
    a = cli("solve", "spot", "--spot-file", str(toml), "--format", "json", "-n", "30")
    b = cli("solve", "spot", *SPOT, "--format", "json", "-n", "30", "--tree", "add_allin_threshold=1.5",
            "--tree", "river.raises=2.5x", "--tree", "river.oop.bets=33%, a", "--tree", "river.ip.bets=75%")
    assert a.returncode == 0 and b.returncode == 0, a.stderr + b.stderr
    ja, jb = json.loads(a.stdout), json.loads(b.stdout)
    assert ja["spot"] == jb["spot"] and ja["exploitability"] == jb["exploitability"]
    river = ja["spot"]["tree"]["sizes"]["river"]
    assert river == [{"bets": "a, 33%", "raises": "2.5x"}, {"bets": "75%", "raises": "2.5x"}]
    assert ja["spot"]["tree"]["add_allin_threshold"] == 1.5
    assert ja["root"].keys() == {"check", "bet 66", "allin 900"}  # oop's river bets: 33% of 200, all-in
    assert ja["target_reached"] is False and ja["target_pct_pot"] == 0.3


@pytest.mark.parametrize("name", ["spot_texas_flop.toml", "spot_dilemma_river3.toml"])
def test_the_example_spot_files_are_spots(name):
    from analysis.solvers.card_level import CardSpot

    spot = CardSpot.from_options(ROOT / "examples" / name)
    assert spot.players == (3 if "river3" in name else 2) and spot.pot > 0
    assert spot.describe()["tree"]["sizes"]["flop"][0]["raises"] in ("100%", "a")


def test_solution_file_resumes(cli, tmp_path):
    state = tmp_path / "s.npz"
    first = cli("solve", "spot", *SPOT, "--target", "0", "-n", "20", "--state", str(state))
    assert first.returncode == 0, first.stderr
    assert load_solution(state).iterations == 20
    again = cli("solve", "spot", *SPOT, "--target", "0", "-n", "30", "--state", str(state))
    assert again.returncode == 0, again.stderr
    assert load_solution(state).iterations == 30
    other = cli("solve", "spot", *SPOT, "--target", "0", "-n", "40", "--state", str(state), "--precision", "float32")
    assert other.returncode == 2 and "solved in float64" in other.stderr, other.stderr


# one case as a real process; the rest in tests/cli/test_bad_inputs.py's in-process table
@pytest.mark.parametrize("args, match", [
    (["solve", "spot", "--board", "Td9d6h", "--oop", "AA", "--pot", "200", "--stack", "900"], "needs ip"),
])
def test_bad_input_is_one_error_line(cli, args, match):
    done = cli(*args)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2, done.stderr
    assert len(lines) == 1 and lines[0].startswith("error: ") and match in lines[0], done.stderr


def test_corrupt_solution_file_is_one_error_line(cli, tmp_path):
    bad = tmp_path / "s.npz"
    bad.write_bytes(b"PK\x03\x04 truncated")
    done = cli("solve", "spot", *SPOT, "--state", str(bad))
    assert done.returncode == 2 and done.stderr.startswith("error: cannot read solution file"), done.stderr


@pytest.mark.slow
def test_ctrl_c_saves_a_resumable_solution(tmp_path):
    state = tmp_path / "s.npz"
    args = ["solve", "spot", "--board", "Td9d6hQc", "--oop", "66+,A8s+,AJo+,K9s+,QTs+,JTs,96s+",
            "--ip", "QQ-22,ATo+,K5s+,Q8s+,J8s+,T7s+", "--pot", "200", "--stack", "900",
            "--target", "0", "-n", "100000", "--state", str(state)]
    warm = subprocess.run([sys.executable, "-m", "analysis.cli", *args[:-6], "-n", "5"], cwd=ROOT,
                          capture_output=True, text=True, timeout=900)
    assert warm.returncode == 0, warm.stderr
    proc = subprocess.Popen([sys.executable, "-m", "analysis.cli", *args], cwd=ROOT, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=as_at_a_terminal)
    # start-up takes about 1.5 CPU seconds warm; past 5 the iterations are under way at any load
    deadline = time.monotonic() + 300
    while cpu_seconds(proc) < 5 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.1)
    assert proc.poll() is None, "the solve ended before it could be interrupted"
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    delay = time.monotonic() - sent
    lines = err.strip().splitlines()
    assert proc.returncode == 130, err
    assert len(lines) == 1 and lines[0].startswith("interrupted: ") and "saved" in lines[0], err
    assert delay < 5, f"took {delay:.1f} s to stop"
    assert load_solution(state).iterations > 0


DILEMMA = ["--game", "dilemma", "--board", "4s9h8h6c10s", "--oop", "AA, 99, 108s, 76s, 2s2h, As2c, 43s",
           "--ip", "A10s, 88, 65s, 2h2d, 3c3d", "--pot", "40", "--stack", "980", "--bets", "100%, a",
           "--raises", "a"]


def test_dilemma_spot_answers_fold_or_check(cli, tmp_path):
    done = cli("solve", "spot", *DILEMMA, "--bank", "0,200,500", "--rule", "green_effects_for=all_dealt",
               "--target", "0.2", "--out", str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert "Dilemma Hold'em" in done.stdout and "bank 0/200/500, blind level 1" in done.stdout
    assert "exploitability (mean best-response gain (NashConv / 2))" in done.stdout
    assert "; NashConv " in done.stdout and "fold or check at (root)" in done.stdout
    free = pd.read_parquet(tmp_path / "spot_fold_or_check.parquet")
    assert set(free["answer"]) <= {"folds for free", "checks", "indifferent", "unreached"}
    reached = free[free["answer"] != "unreached"]
    assert (reached["regret_fold"] >= -1e-9).all() and (reached["regret_check"] >= -1e-9).all()
    manifest = json.loads((tmp_path / "spot_fold_or_check.manifest.json").read_text())
    assert manifest["spot"]["table"]["bank"] == [0, 200, 500]
    assert manifest["spot"]["table"]["rules"] == {"green_effects_for": "all_dealt"}
    assert manifest["exploitability_measure"] == "mean best-response gain (NashConv / 2)"
    assert manifest["nash_conv"] == pytest.approx(2 * manifest["exploitability"], rel=1e-12)


def test_dilemma_spot_file_equals_options_and_resumes(cli, tmp_path):
    toml = tmp_path / "spot.toml"
    toml.write_text('game = "dilemma"\ndeck = "reference"\nboard = "4s9h8h6c10s"\n'
                    'oop = "AA, 99, 108s, 76s, 2s2h, As2c, 43s"\nip = "A10s, 88, 65s, 2h2d, 3c3d"\n'
                    'pot = 40\nstack = 980\nbank = "300,700,500"\n[rules]\nwinners = "main_pot"\n'
                    '[tree]\nbets = "100%, a"\nraises = "a"\nfree_fold = true\n')
    a = cli("solve", "spot", *DILEMMA, "--rule", "winners=main_pot", "--format", "json", "-n", "30")
    b = cli("solve", "spot", "--spot-file", str(toml), "--format", "json", "-n", "30")
    assert a.returncode == 0 and b.returncode == 0, a.stderr + b.stderr
    ja, jb = json.loads(a.stdout), json.loads(b.stdout)
    assert ja["exploitability"] == jb["exploitability"] and ja["fold_or_check"] == jb["fold_or_check"]
    state = tmp_path / "s.npz"
    first = cli("solve", "spot", "--spot-file", str(toml), "--target", "0", "-n", "20", "--state", str(state))
    assert first.returncode == 0, first.stderr
    again = cli("solve", "spot", *DILEMMA, "--rule", "winners=main_pot", "--target", "0", "-n", "30",
                "--state", str(state))
    assert again.returncode == 0, again.stderr
    assert load_solution(state).iterations == 30


def test_dilemma_spot_locked_to_a_model_best_responds(cli):
    args = ["solve", "spot", "--game", "dilemma", "--board", "4s 9h 3d 6c 10s", "--oop", "2s5c", "--ip", "random",
            "--pot", "40", "--stack", "980", "--bets", "50%", "--raises", "", "--lock", "ip=aggressive",
            "--format", "json", "--target", "0.01"]
    done = cli(*args)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["locks"] == {"ip": "aggressive"} and summary["locked_nodes"] > 0
    row = summary["fold_or_check"]["(root)"]
    assert row["folds for free"] + row["checks"] + row["indifferent"] == pytest.approx(1.0)


def test_a_locked_solution_file_resumes_only_with_the_same_locks(cli, tmp_path):
    """A solution file records what each locked player plays: resuming it with another lock, or
    with none, is one error line (it would carry the file's lock under the new label)."""
    state = tmp_path / "locked.npz"
    base = ["solve", "spot", "--game", "dilemma", "--board", "4s 9h 3d 6c 10s", "--oop", "random",
            "--ip", "random", "--pot", "40", "--stack", "980", "--bets", "50%", "--raises", "", "--target", "0",
            "--format", "json"]
    first = cli(*base, "--state", str(state), "-n", "10", "--lock", "ip=threshold")
    assert first.returncode == 0, first.stderr
    assert load_solution(state).locks == {"ip": "threshold"}
    for other, said in ((["--lock", "ip=abc"], "locks ip=abc"), ([], "locks nothing")):
        done = cli(*base, "--state", str(state), "-n", "20", *other)
        lines = done.stderr.strip().splitlines()
        assert done.returncode == 2 and len(lines) == 1, done.stderr
        assert "was solved with ip=threshold locked" in lines[0] and said in lines[0]
    again = cli(*base, "--state", str(state), "-n", "20", "--lock", "ip=threshold")
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["locks"] == {"ip": "threshold"} and load_solution(state).iterations == 20
    old = tmp_path / "before_labels.npz"  # a file written before lock labels were saved: no "locks"
    with np.load(state) as z:
        arrays = {k: z[k] for k in z.files}
    info = json.loads(str(arrays.pop("info")))
    del info["locks"]
    np.savez_compressed(old, info=np.array(json.dumps(info)), **arrays)
    assert load_solution(old).locks == {"ip": "unrecorded"}
    assert cli(*base, "--state", str(old), "-n", "25", "--lock", "ip=threshold").returncode == 0
    assert load_solution(old).locks == {"ip": "threshold"}  # the label adopted and saved
    free = tmp_path / "free.npz"
    assert cli(*base, "--state", str(free), "-n", "10").returncode == 0
    done = cli(*base, "--state", str(free), "-n", "20", "--lock", "ip=abc")
    assert done.returncode == 2 and "was solved with nothing locked" in done.stderr


# one case as a real process; the rest in tests/cli/test_bad_inputs.py's in-process table
@pytest.mark.parametrize("args, match", [
    (["solve", "spot", *SPOT, "--lock", "villain=threshold"], "PLAYER oop or ip"),
])
def test_dilemma_bad_input_is_one_error_line(cli, args, match):
    done = cli(*args)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2, done.stderr
    assert len(lines) == 1 and lines[0].startswith("error: ") and match in lines[0], done.stderr
