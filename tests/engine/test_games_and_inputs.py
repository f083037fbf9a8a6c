"""Whole games (they end; same seed same games on any thread count), policies, histories, bad input."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from analysis.engine import IllegalActionError, PolicyError, TableError, make_table
from analysis.engine.games import GameConfig, simulate_games, tournament
from analysis.engine.history import read_history, replay
from analysis.engine.policy import load_policy, parse_policy_toml, policy_from_table
from analysis.runners import LocalBackend

SEATS = ("abc", "fold-free-multiway", "tight-aggressive", "calling-station", "maniac", "fold-free-always")


def test_games_end_and_conserve_money_and_do_not_depend_on_threads():
    cfg = GameConfig(strategies=SEATS, seed=3)
    one = simulate_games(cfg, 24, backend=LocalBackend(1))
    two = simulate_games(cfg, 24, backend=LocalBackend(2))
    pd.testing.assert_frame_equal(one.games, two.games)
    g = one.games
    assert (g["reason"] != "cap").all() and (g["hands"] > 0).all()
    finals = g[[f"final_P{i}" for i in range(1, 7)]].sum(axis=1)
    assert (finals <= 6000 + 1500).all()  # chips come only from the bank
    s = one.sample
    assert (s[[f"P{i}" for i in range(1, 7)]].sum(axis=1) + s["bank1"] + s["bank2"] + s["bank3"] == 7500).all()


def test_the_cap_stops_a_game_of_checkers():
    cfg = GameConfig(strategies=("calling-station",) * 3, seed=1, max_hands=50)
    res = simulate_games(cfg, 8)
    assert (res.games["hands"] <= 50).all()
    assert set(res.games["reason"]) <= {"cap", "bank", "one_left"}


def test_duplicate_tournament_replays_the_same_deals_with_rotated_seats():
    cfg = GameConfig(strategies=("random", "random", "random"), seed=2)
    res = tournament(cfg, 8)
    # identical strategies in every rotation: each rotation plays the very same games
    by_rot = [g.drop(columns=["seating", "cell"]).reset_index(drop=True)
              for _, g in res.games.groupby("cell")]
    for other in by_rot[1:]:
        pd.testing.assert_frame_equal(by_rot[0], other)
    assert list(res.summary["strategy"]) == ["random"]


def test_texas_cash_sessions_on_the_same_engine():
    for st in ("nl", "pl", "fl"):
        res = simulate_games(GameConfig(strategies=("abc", "maniac"), game="holdem", structure=st,
                                        max_hands=100, seed=1), 8)
        assert (res.games["hands"] == 100).all()
        nets = res.games[["final_P1", "final_P2"]].sum(axis=1)
        assert (nets == 0).all()  # a cash game is zero-sum


def test_impossible_tables():
    with pytest.raises(TableError, match="2 to 10 players, got 11"):
        make_table(11)
    with pytest.raises(TableError, match="must not be negative"):
        make_table(3, stack=[1000, -10, 1000])
    with pytest.raises(TableError, match="2 to 10 players"):
        GameConfig(strategies=("abc",) * 11)


def test_malformed_strategy_names_line_and_field(tmp_path):
    text = ('[policy]\nname = "x"\n\n[[rule]]\nstreet = "flop"\ndo = { call = 1.0 }\n\n'
            '[[rule]]\nstrength = "strong"\ndo = { check = 1.0 }\n')
    with pytest.raises(PolicyError, match=r"x.toml, line 9, field 'rule\[2\].strength'"):
        parse_policy_toml(text, "x.toml")
    with pytest.raises(PolicyError, match="probabilities sum to 0.9"):
        parse_policy_toml('[policy]\nname = "x"\n[[rule]]\ndo = { call = 0.9 }\n', "y.toml")
    with pytest.raises(PolicyError, match="line 3"):
        parse_policy_toml('[policy]\nname = "x"\n[[rule]\n', "z.toml")


def test_policy_table_lookup_most_specific_first():
    rows = [("flop", "none", 0, -1, 0, "check", np.nan, 1.0),
            ("flop", "none", 3, -1, 0, "fold", np.nan, 1.0),
            ("flop", "none", 0, -1, 1, "bet", 0.5, 0.5), ("flop", "none", 0, -1, 1, "check", np.nan, 0.5)]
    df = pd.DataFrame(rows, columns=["street", "facing", "players", "position", "bucket", "action",
                                     "size", "probability"])
    pol = policy_from_table(df, {"policy": "t", "n_buckets": 2})
    feat = np.zeros(11)
    feat[0], feat[2], feat[5] = 1, 3, 0.2
    assert pol.probabilities(feat) == {"fold": 1.0}
    feat[2] = 2
    assert pol.probabilities(feat) == {"check": 1.0}
    feat[5] = 0.9
    assert pol.probabilities(feat) == {"raise 0.5": 0.5, "check": 0.5}


def test_shipped_strategies_load():
    for name in SEATS + ("random",):
        assert load_policy(name).rules


def test_replayed_history_rejects_an_illegal_action(tmp_path):
    line = next(read_history("examples/hand_history_example_C.jsonl"))[1]
    replay(line)  # legal, result as recorded
    bad = json.loads(json.dumps(line))
    k = next(i for i, a in enumerate(bad["actions"]) if a[2] == "bet")
    bad["actions"][k] = ["river", "P2", "bet", 10]
    with pytest.raises(IllegalActionError, match=r"action 13: illegal action 'bet to 10' by P2: the minimum is 20"):
        replay(bad, "h.jsonl line 1")


def test_cli_bad_input_is_one_line_and_exit_2(cli, tmp_path):
    """A real process refuses a bad table with one line and exit code 2. The other bad inputs
    of these commands (an illegal action to settle, a negative stack, a strategy file's bad
    field) are cases of the in-process table in tests/cli/test_bad_inputs.py."""
    res = cli("game", "simulate", "--out", str(tmp_path / "o"), "-n", "11")
    assert res.returncode == 2, res.stderr
    assert "2 to 10 players, got 11" in res.stderr and res.stderr.count("\n") == 1
    assert "Traceback" not in res.stderr


def test_cli_game_simulate_writes_tables(cli, tmp_path):
    res = cli("game", "simulate", "--out", str(tmp_path), "--games", "8", "--seed", "4", "--threads", "1")
    assert res.returncode == 0, res.stderr
    assert (tmp_path / "games_records.parquet").exists() and (tmp_path / "game_win_rate.png").exists()


def test_cli_hands_written_replayed_and_settled(cli, tmp_path, capsys):
    """Real processes write, replay and settle Dilemma hands; Texas fixed-limit hands are
    written and replayed through the same entry point in this process (what is checked there
    is the files, not the process: two commands in a process cost 5 CPU s)."""
    from analysis.cli import run

    out = tmp_path / "hands.jsonl"
    res = cli("game", "hands", "--out", str(out), "--hands", "40", "-s", "abc,maniac,random", "-n", "4")
    assert res.returncode == 0, res.stderr
    assert "40 hands replayed" in cli("game", "replay", str(out)).stdout
    lines = out.read_text().splitlines()
    k = next(i for i, line in enumerate(lines, start=1) if json.loads(line)["actions"])
    settled = cli("settle", str(out), "--line", str(k))
    assert settled.returncode == 0 and "expected result: matches" in settled.stdout
    texas = tmp_path / "texas.jsonl"
    assert run(["game", "hands", "--out", str(texas), "-g", "holdem", "--structure", "fl",
                "--hands", "30", "-s", "random", "-n", "3"]) == 0
    assert len(texas.read_text().splitlines()) == 30
    assert run(["game", "replay", str(texas)]) == 0
    assert "30 hands replayed" in capsys.readouterr().out


@pytest.mark.slow
def test_shipped_preflop_strengths_are_current():
    from analysis.engine.preflop import DATA, compute_preflop_classes

    for game in ("dilemma", "holdem"):
        shipped = pd.read_csv(DATA / f"preflop_{game}.csv")
        pd.testing.assert_frame_equal(shipped, compute_preflop_classes(game), check_exact=False, atol=2e-6)


def test_a_games_plan_pickles_for_dask_workers():
    import pickle

    from analysis.engine.games import GamesPlan

    cfg = GameConfig(strategies=("abc", "maniac"), seed=1)
    plan = GamesPlan(cfg, [load_policy("abc"), load_policy("maniac")], np.array([[0, 1]]), 4)
    again = pickle.loads(pickle.dumps(plan))
    assert again.fingerprint() == plan.fingerprint()
