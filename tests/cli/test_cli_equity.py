"""``dilemma equity`` and ``dilemma table ...`` from the shell (subprocesses, as a user runs them)."""

from __future__ import annotations

import json

import pandas as pd

from analysis.core.io import read_manifest


def test_equity_json(cli) -> None:
    r = cli("equity", "As Ah", "Kd Kc", "--game", "holdem", "--format", "json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["exact"] is True and data["trials"] == 1_712_304
    hands = [p["hand"] for p in data["players"]]
    assert hands == ["As Ah", "Kd Kc"]
    p = data["players"][0]
    assert {"hand", "equity", "win", "tie", "stderr"} <= set(p)
    assert round(p["equity"], 4) == 0.8126 and p["stderr"] == 0.0


def test_equity_table_monte_carlo_and_options(cli) -> None:
    r = cli("equity", "As Ah", "10d 10c", "A10s+, 99", "--board", "2s 7h 9d", "--dead", "3c",
            "--vs-random", "1", "--trials", "100000", "--seed", "4", "--threads", "1", "--categories")
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "Monte Carlo, 100,000 deals, seed 4" in out and "random" in out
    assert "straight_flush" in out and out.count("%") > 20
    # (the same numbers on any thread count: test_same_seed_same_result_whatever_the_thread_count
    # in tests/studies/test_equity.py, in process; the command passes --threads on unchanged)
    j1 = json.loads(cli("equity", "As Ah", "random", "--trials", "70000", "--seed", "2",
                        "--threads", "2", "--format", "json").stdout)
    assert j1["exact"] is False and j1["trials"] == 70_000 and len(j1["players"]) == 2


def test_bad_input_exit_2_one_line(cli) -> None:
    """A real process refuses a card held twice with one line and exit code 2. The other bad
    equity inputs (too many players, a two-card board, an empty range, a bad token, --exact
    with --trials) are cases of the in-process table in tests/cli/test_bad_inputs.py."""
    r = cli("equity", "As Ah", "As 10c")
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "card As is both" in lines[0]
    assert "Traceback" not in r.stderr


def test_table_starting_hands(cli, tmp_path) -> None:
    out = tmp_path / "sh"
    r = cli("table", "starting-hands", "--game", "dilemma", "--opponents", "1-2", "--stderr", "0.01",
            "--out", out, "--no-progress")
    assert r.returncode == 0, r.stderr
    df = pd.read_parquet(out / "starting_hands_dilemma.parquet")
    csv = pd.read_csv(out / "starting_hands_dilemma.csv")
    assert len(df) == len(csv) == 200
    expected = {"hand", "kind", "combos", "opponents", "equity", "win", "tie", "stderr", "exact",
                "rank", "percentile"}
    assert expected <= set(df.columns)
    m = read_manifest(out / "starting_hands_dilemma.manifest.json")
    assert m["game"] == "dilemma" and m["seed"] == 0 and m["rows"] == 200
    assert m["exact"] == {"1": True, "2": False} and "version" in m and "deck" in m
    for name in ("dilemma_heatmap_1opp", "dilemma_heatmap_2opp", "dilemma_equity_vs_opponents"):
        assert (out / f"{name}.png").stat().st_size > 0 and (out / f"{name}.svg").exists()
    assert not list(out.glob(".*.tmp")) and not list(out.glob("*.tmp"))
    assert not (out / ".partial").exists()  # a finished run removes its resume files
    # same seed, same table: test_multiway_same_with_any_thread_count (tests/studies/
    # test_starting_hands.py) computes the Monte Carlo table twice afresh from one seed; a
    # second command here cost 3.5 s


def test_table_streets(cli, tmp_path) -> None:
    r = cli("table", "streets", "--out", tmp_path)
    assert r.returncode == 0, r.stderr
    assert "flush vs full_house" in r.stdout
    for name in ("street_probabilities", "street_deck_differences", "street_order_changes"):
        assert (tmp_path / f"{name}.csv").exists() and (tmp_path / f"{name}.parquet").exists()
    assert (tmp_path / "street_probabilities.png").exists() and (tmp_path / "street_probabilities.svg").exists()


def test_table_kickers_rules_1_3_both_readings(cli, tmp_path) -> None:
    """RULES §1.3: ``table kickers`` writes the exact heads-up table under both readings; the
    literal reading (top kicker only) splits more often and moves no total equity."""
    r = cli("table", "kickers", "--game", "dilemma", "--out", str(tmp_path), "--top", "3")
    assert r.returncode == 0, r.stderr
    assert "heads-up showdowns that split" in r.stdout and "with the top kicker only" in r.stdout
    df = pd.read_parquet(tmp_path / "kickers_dilemma.parquet")
    assert len(df) == 100
    assert (df["tie_top"] >= df["tie_all"]).all() and (df["tie_top"] > df["tie_all"]).any()
    weights = df["combos"] / df["combos"].sum()
    assert abs((weights * df["equity_top"]).sum() - 0.5) < 1e-12  # zero-sum heads-up
    manifest = read_manifest(tmp_path / "kickers_dilemma.manifest.json")
    assert manifest["split_top"] > manifest["split_all"] > 0
