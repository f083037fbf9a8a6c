"""Runs that survive faults: killed outright (SIGKILL, not Ctrl-C) at random moments, a full
disk, two runs into one folder at once, and resume files that are not what they claim.

Each leaves only whole files, resumes without redoing finished work, or says in one line
what is wrong and where.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from analysis.core.atomic import TEMP_SUFFIX, atomic_path, remove_stale_temporaries
from analysis.runners import FixedTrials, run
from analysis.runners.ledger import finished_runs
from analysis.runners.resume import ResumeError, state_path
from tests.conftest import ROOT, as_at_a_terminal
from tests.runners.test_runner import Darts

TABLE = ("table", "starting-hands", "--game", "dilemma", "--opponents", "3", "--no-charts")
STDERR = "0.0004"
"""About 2.2 million trials, 16 CPU seconds with start-up: checkpoints at 65,536 and 327,680
trials, then every 5 s and at the ends of rounds (five before the end when measured), enough
to be killed three times at random moments (0.0003 did the same with 28 CPU seconds, paid in
the reference and in the kills)."""
SHARED_STDERR = "0.001"
"""A sixth of that work (about 3 s a run, 1 of it start-up): two runs at once need overlap, not kills
(each computes it all)."""
TIMING = {"created", "seconds", "seconds_total", "resumed"}
"""Manifest fields that say when and how fast a run went, not what it found."""


def _dilemma(*args: str, **kw) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "analysis.cli", *args], cwd=ROOT, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=as_at_a_terminal, **kw)


def _finish(proc: subprocess.Popen) -> subprocess.CompletedProcess:
    out, err = proc.communicate(timeout=600)
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def _whole(folder: Path) -> list[Path]:
    """Every result file in ``folder`` (temporaries aside) opens whole; return the temporaries."""
    temporaries = []
    for path in folder.rglob("*"):
        if path.is_dir():
            continue
        if path.name.endswith(TEMP_SUFFIX):
            temporaries.append(path)
        elif path.suffix == ".npz":
            with np.load(path, allow_pickle=False) as data:
                [data[k] for k in data.files]
        elif path.suffix == ".parquet":
            pd.read_parquet(path)
        elif path.suffix == ".csv":
            pd.read_csv(path)
        elif path.suffix == ".json":
            json.loads(path.read_text())
    return temporaries


def _results(folder: Path) -> tuple[pd.DataFrame, dict]:
    frame = pd.read_parquet(folder / "starting_hands_dilemma.parquet")
    manifest = json.loads((folder / "starting_hands_dilemma.manifest.json").read_text())
    return frame, {k: v for k, v in manifest.items() if k not in TIMING}


def _trials_saved(folder: Path) -> int:
    states = list((folder / ".partial").glob("*.npz"))
    if not states:
        return 0
    with np.load(states[0]) as data:
        return int(data["done"].sum())


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> Path:
    """An uninterrupted run (its kernels compiled and cached for the tests that follow)."""
    out = tmp_path_factory.mktemp("reference")
    done = _finish(_dilemma(*TABLE, "--stderr", STDERR, "--out", str(out)))
    assert done.returncode == 0, done.stderr
    return out


@pytest.mark.slow
def test_sigkill_at_random_moments_leaves_whole_files_and_resumes(reference, tmp_path):
    out = tmp_path / "killed"
    rng = random.Random(2026)
    saved = [0]
    for _ in range(3):
        proc = _dilemma(*TABLE, "--stderr", STDERR, "--out", str(out))
        deadline = time.monotonic() + 120
        while (_trials_saved(out) <= saved[-1] and proc.poll() is None
               and time.monotonic() < deadline):
            time.sleep(0.05)  # until this run has saved work of its own
        time.sleep(rng.uniform(0.0, 1.0))  # then at a random moment, maybe mid-write
        if proc.poll() is not None:
            break
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=60)
        _whole(out)  # temporaries may stay behind a kill; everything else is whole
        if (out / "starting_hands_dilemma.manifest.json").exists():
            break  # killed while exiting, its work done and its resume file already removed
        saved.append(_trials_saved(out))
    assert len(saved) > 2, "the run ended before it could be killed twice"
    assert saved == sorted(saved) and saved[-1] > 0, saved  # finished work is never lost
    done = _finish(_dilemma(*TABLE, "--stderr", STDERR, "--out", str(out)))
    assert done.returncode == 0, done.stderr
    assert not _whole(out), "temporaries left after the run that finished"
    assert not (out / ".partial").exists()  # a finished run cleans up after itself
    frame, manifest = _results(out)
    ref_frame, ref_manifest = _results(reference)
    pd.testing.assert_frame_equal(frame, ref_frame, check_exact=True)
    assert manifest == ref_manifest


@pytest.mark.slow
def test_two_runs_into_one_folder_at_once(reference, tmp_path):
    alone = tmp_path / "alone"
    done = _finish(_dilemma(*TABLE, "--stderr", SHARED_STDERR, "--out", str(alone)))
    assert done.returncode == 0, done.stderr
    out = tmp_path / "shared"
    procs = [_dilemma(*TABLE, "--stderr", SHARED_STDERR, "--threads", "1", "--out", str(out))
             for _ in range(2)]
    for done in map(_finish, procs):
        assert done.returncode == 0, done.stderr
    assert not _whole(out)
    frame, manifest = _results(out)
    pd.testing.assert_frame_equal(frame, _results(alone)[0], check_exact=True)
    assert manifest == _results(alone)[1]


def _mount_small_disk(where: Path, size: str) -> bool:
    if os.geteuid() != 0 or not shutil.which("mount"):
        return False
    where.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
                          capture_output=True)
    return done.returncode == 0


def test_a_full_disk_is_one_error_line_and_no_half_written_result(tmp_path):
    disk = tmp_path / "disk"
    if not _mount_small_disk(disk, "48k"):
        pytest.skip("needs root and tmpfs to make a small disk (mount refused here)")
    try:
        done = _finish(_dilemma("economy", "--deck", "reference", "--out", str(disk / "economy")))
        lines = done.stderr.strip().splitlines()
        assert done.returncode == 2, done.stderr
        assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
        assert "No space left on device" in lines[0] and str(disk) in lines[0], lines[0]
        assert not _whole(disk), "a temporary file was left on the full disk"
    finally:
        subprocess.run(["umount", str(disk)], check=False)


def test_a_finished_command_removes_its_resume_files(tmp_path):
    out = tmp_path / "fvc"
    done = _finish(_dilemma("study", "fold-vs-check", "--models", "passive", "--streets", "river",
                            "--opponents", "1", "--pots", "40", "--hands", "AA,72o",
                            "--stderr", "50", "--max-trials", "2000",
                            "--no-charts", "--out", str(out)))
    assert done.returncode == 0, done.stderr
    assert list(out.glob("fold_vs_check*.parquet"))
    assert not (out / ".partial").exists()


def test_finished_runs_are_removed_only_when_asked(tmp_path):
    with finished_runs() as runs:
        run(Darts(), state_dir=tmp_path)
        saved = list((tmp_path / ".partial").glob("*.npz"))
        assert saved  # kept until the results are written
        assert runs.remove() == saved
    assert not (tmp_path / ".partial").exists()
    run(Darts(), state_dir=tmp_path)  # outside a command: the state stays, as before
    assert list((tmp_path / ".partial").glob("*.npz"))


def _state(tmp_path: Path) -> tuple[Darts, Path]:
    plan = Darts(schedule=FixedTrials(2000))
    run(plan, state_dir=tmp_path)
    return plan, state_path(tmp_path, plan.name, plan.fingerprint())


@pytest.mark.parametrize("damage", ["truncated", "garbage", "empty", "other_version",
                                    "other_settings"])
def test_a_damaged_resume_file_is_refused_by_name(tmp_path, damage):
    plan, path = _state(tmp_path)
    data = path.read_bytes()
    if damage == "truncated":
        path.write_bytes(data[: len(data) // 2])
    elif damage == "garbage":
        path.write_bytes(os.urandom(len(data)))
    elif damage == "empty":
        path.write_bytes(b"")
    else:
        with np.load(path) as z:
            fields = {k: z[k] for k in z.files}
        if damage == "other_version":
            fields["format"] = np.int64(99)
        else:
            fields["fingerprint"] = np.array("0123456789ab")
        with open(path, "wb") as handle:
            np.savez(handle, **fields)
    with pytest.raises(ResumeError) as info:
        run(Darts(schedule=FixedTrials(2000)), state_dir=tmp_path)
    message = str(info.value)
    assert str(path) in message and "delete it" in message and "\n" not in message


def test_a_damaged_resume_file_is_one_line_from_the_command_line(tmp_path):
    out = tmp_path / "table"
    args = (*TABLE, "--stderr", "0.05", "--out", str(out))
    killed = _dilemma(*args)
    deadline = time.monotonic() + 300
    while not list((out / ".partial").glob("*.npz")) and killed.poll() is None \
            and time.monotonic() < deadline:
        time.sleep(0.02)
    killed.send_signal(signal.SIGKILL)
    killed.wait(timeout=60)
    states = list((out / ".partial").glob("*.npz"))
    if not states:
        pytest.skip("the run finished before its first checkpoint could be damaged")
    states[0].write_bytes(states[0].read_bytes()[:100])
    done = _finish(_dilemma(*args))
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1, done.stderr
    assert lines[0].startswith("error: cannot resume from ") and states[0].name in lines[0]


def test_stale_temporaries_of_dead_writers_go_and_live_ones_stay(tmp_path):
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    stale = tmp_path / f".table.csv.{dead.pid}.abc123{TEMP_SUFFIX}"
    live = tmp_path / f".table.csv.{os.getppid()}.def456{TEMP_SUFFIX}"
    other = tmp_path / f".someone-elses{TEMP_SUFFIX}"
    for path in (stale, live, other):
        path.write_text("half")
    assert remove_stale_temporaries(tmp_path) == [stale]
    assert live.exists() and other.exists()


def test_a_failed_write_leaves_nothing(tmp_path):
    target = tmp_path / "result.csv"
    with pytest.raises(RuntimeError), atomic_path(target) as tmp:
        tmp.write_text("half a table")
        raise RuntimeError("disk gone")
    assert list(tmp_path.iterdir()) == []


def test_solver_state_files_refuse_damage_by_name(tmp_path):
    from analysis.solvers.errors import SolverError
    from analysis.solvers.tree_solver import read_state, write_state

    path = write_state(tmp_path / "s.npz", {"settings": {"method": "cfr+"}}, regrets=np.zeros(3))
    whole = path.read_bytes()
    for damaged in (whole[: len(whole) // 3], b"", b"PK\x03\x04 not a zip"):
        path.write_bytes(damaged)
        with pytest.raises(SolverError, match="not a whole state file"):
            read_state(path, ("regrets",), SolverError)
    other = write_state(tmp_path / "old.npz", {"settings": {}}, regrets=np.zeros(3))
    with np.load(other) as z:
        info = json.loads(str(z["info"]))
    info["format"] = 0
    with open(other, "wb") as handle:
        np.savez(handle, info=np.array(json.dumps(info)), regrets=np.zeros(3))
    with pytest.raises(SolverError, match="another version"):
        read_state(other, ("regrets",), SolverError)
