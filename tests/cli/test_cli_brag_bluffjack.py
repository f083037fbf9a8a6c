"""``dilemma brag ...`` and ``dilemma bluffjack ...`` from the shell (subprocesses, as a user
runs them): outputs, files, same numbers whatever the threads (that one in this process: it is
about the numbers), and one-line errors."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from analysis.cli import run
from analysis.core.io import read_manifest


@pytest.mark.slow
def test_brag_equity_json_exact_and_trials(cli, capsys) -> None:
    r = cli("brag", "equity", "As Ks Qs", "--format", "json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["method"] == "exact" and data["trials"] == 18_424 and data["stderr"] == 0.0
    assert data["equity"] == pytest.approx(data["win"] + data["tie"] / 2)
    assert {"equity", "win", "tie", "method", "stderr", "hand_class"} <= set(data)

    def in_process(threads: str) -> dict:
        """The thread counts' comparison is about numbers, not the process: run in this one."""
        assert run(["brag", "equity", "7s 7h Kd", "--opponents", "3", "--trials", "30000",
                    "--threads", threads, "--format", "json"]) == 0
        return json.loads(capsys.readouterr().out)

    one, two = in_process("1"), in_process("2")
    assert one["method"] == "trials" and one["trials"] == 30_000 and one["stderr"] > 0
    for key in ("equity", "win", "tie", "stderr"):
        assert one[key] == two[key]
    table = cli("brag", "equity", "3s 2h Ad")
    assert table.returncode == 0 and "run, 3-2-A" in table.stdout and "exact" in table.stdout


def test_brag_eval(cli) -> None:
    r = cli("brag", "eval", "Ad", "2h", "3c", "--rules", "a23-high")
    assert r.returncode == 0, r.stderr
    assert "category: run" in r.stdout and "class:    A32" in r.stdout


@pytest.mark.slow
def test_brag_table_and_blind_write_files(cli, tmp_path) -> None:
    out = tmp_path / "brag"
    r = cli("brag", "table", "--opponents", "1,3", "--stderr", "0.02", "--out", out, "--no-progress")
    assert r.returncode == 0, r.stderr
    for name in ("brag_categories", "brag_classes", "brag_multiway", "brag_thresholds"):
        assert (out / f"{name}.csv").exists() and (out / f"{name}.parquet").exists()
    m = read_manifest(out / "brag_multiway.manifest.json")
    assert m["game"] == "brag" and m["exact"] == {"1": True, "3": False} and "version" in m
    df = pd.read_parquet(out / "brag_multiway.parquet")
    assert len(df) == 2 * 741 and set(df["opponents"]) == {1, 3}
    assert (out / "brag_categories.png").exists() and (out / "brag_thresholds.svg").exists()
    blind = tmp_path / "blind"
    r = cli("brag", "blind", "--opponents", "1,2", "--stakes", "1", "--stderr", "0.05",
            "--open-cannot-see-blind", "--out", blind, "--no-progress")
    assert r.returncode == 0, r.stderr
    assert "blind-open" in r.stdout and (blind / "brag_blind_summary.csv").exists()
    summary = pd.read_csv(blind / "brag_blind_summary.csv")
    assert not summary["open_sees_blind"].any() and len(summary) == 2


@pytest.mark.slow
def test_bluffjack_commands(cli, tmp_path) -> None:
    r = cli("bluffjack", "total", "As", "Ks", "--rules", "order21")
    assert r.returncode == 0 and "soft 21" in r.stdout and "A+K suited" in r.stdout
    r = cli("bluffjack", "odds", "Kh 6d", "--format", "json")
    data = json.loads(r.stdout)
    assert data["bust_next"] == pytest.approx(0.6) and data["final"]["bust"] == pytest.approx(0.6)
    r = cli("bluffjack", "table", "--stand-on", "17", "--out", tmp_path / "odds")
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "odds" / "bluffjack_final_totals.parquet").exists()
    out = tmp_path / "hs"
    r = cli("bluffjack", "hit-stand", "--opponents", "1,2", "--rules", "source,charlie=5+house=false",
            "--stderr", "0.01", "--improve-rounds", "1", "--improve-trials", "5000", "--out", out,
            "--no-progress")
    assert r.returncode == 0, r.stderr
    best = pd.read_parquet(out / "bluffjack_best.parquet")
    assert set(best["rules"]) == {"source", "charlie5+no-house"}
    assert best[best["rules"] == "source"]["br_equity"].notna().all()
    assert (out / "bluffjack_stand_on.png").exists() and (out / "bluffjack_rule_effects.png").exists()


# The real process for one Brag and one Bluffjack case (exit code, stderr of the command as a user
# runs it); the rest of these commands' bad input is in tests/cli/test_bad_inputs.py's in-process table.
@pytest.mark.parametrize(("args", "message"), [
    (['brag', 'equity', 'As Ks Xs'], 'malformed card'),
    (['bluffjack', 'total', 'As', 'Kd', '--rules', 'charlie=6x'], 'charlie must be a card count'),
])
def test_bad_input_is_one_line_and_exit_2(cli, args: list[str], message: str) -> None:
    r = cli(*args)
    assert r.returncode == 2, (r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], r.stderr
    assert "Traceback" not in r.stderr


def test_bluffjack_betting_commands(cli, tmp_path) -> None:
    hist = tmp_path / "bj.jsonl"
    r = cli("bluffjack", "hands", "--out", hist, "--hands", "40", "-s", "solid,bluffer,maniac", "-n", "4",
            "--stakes", "limit=pot,extra_betting=true", "--rules", "no-house", "--seed", "3")
    assert r.returncode == 0, r.stderr
    lines = [json.loads(x) for x in hist.read_text().splitlines()]
    assert len(lines) == 40 and lines[0]["stakes"]["limit"] == "pot" and not lines[0]["rules"]["house"]
    r = cli("bluffjack", "replay", hist)
    assert r.returncode == 0 and "40 hands replayed" in r.stdout
    lines[0]["result"]["stacks"]["P1"] += 1
    hist.write_text("".join(json.dumps(x) + "\n" for x in lines))
    r = cli("bluffjack", "replay", hist)
    assert r.returncode == 2 and "line 1: result differs" in r.stderr
    out = tmp_path / "games"
    r = cli("bluffjack", "games", "--out", out, "--games", "50", "--stack", "20", "--seed", "1")
    assert r.returncode == 0, r.stderr
    games = pd.read_parquet(out / "bluffjack_games.parquet")
    summary = pd.read_csv(out / "bluffjack_games_summary.csv")
    assert len(games) == 50 and summary["wins"].sum() == (games["reason"] == "won").sum()
