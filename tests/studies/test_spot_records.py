"""Per-spot records of the solved-spots study: a record holds the same rows as the tables derived
from its solution file, is the same bytes when written again, and stands for its spot in a rerun
(no solve) only while the spot, the derivation and the target still match."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from analysis.studies import spot_records
from analysis.studies.solved_spots import (
    GAME_STATES,
    Family,
    gather,
    second_sample,
    solve_family,
    spot_tables,
)
from analysis.studies.spot_questions import question_tables
from analysis.studies.spot_records import (
    Derivation,
    make_record,
    read_record,
    record_file,
    solve_records,
    write_record,
)

R_FIRST = "AsAh, 9d9c, 8d7d, 4d4c, 10s9s, 5c5s, 2c2h"
R_SECOND = "AhAd, 9h9s, 10c10h, 3c3s, 7c7s, 8s7s"
BOARDS = ["9d 10d 3h 3d 6s", "5d 10c 7d 4h 9s"]
RIVER = Family("hu-river", 5, 40, 200, oop=R_FIRST, ip=R_SECOND, keep_solutions=False)
DERIVED = Derivation("reference", ("threshold",), 2.0)


def test_records_hold_the_rows_of_the_tables_and_write_the_same_bytes(tmp_path):
    paths = solve_family(tmp_path, RIVER, BOARDS, GAME_STATES[:1], "reference", 1.0, 500)
    records = [make_record(p, RIVER, GAME_STATES[0], DERIVED) for p in paths]
    tables = gather([r["tables"] for r in records])
    expected = spot_tables(paths, "reference") | question_tables(paths, "reference", 0, 1, DERIVED.models, 2.0)
    for name in ("spots", "spots_summary", "spots_fold_or_check", "spots_by_texture", "spots_facing_bet",
                 "spots_versus_models"):
        pd.testing.assert_frame_equal(tables[name], expected[name])
    assert len(tables["spots_versus_models"]) and len(tables["spots_summary"])
    first = write_record(tmp_path / "a.json.gz", records[0]).read_bytes()
    again = write_record(tmp_path / "b.json.gz", make_record(paths[0], RIVER, GAME_STATES[0], DERIVED)).read_bytes()
    assert first == again  # no timestamp in the gzip header
    read = read_record(tmp_path / "a.json.gz")
    assert read["spot"] == RIVER.spot(BOARDS[0], GAME_STATES[0], "reference").describe()
    assert read["browser"]["board"] == BOARDS[0] and read["iterations"] == records[0]["iterations"]
    (tmp_path / "bad.json.gz").write_bytes(first[:40])
    assert read_record(tmp_path / "bad.json.gz") is None and read_record(tmp_path / "none.json.gz") is None


def test_a_rerun_keeps_the_records_that_stand_for_their_spots(tmp_path, monkeypatch):
    states = GAME_STATES[:1]
    made = solve_records(tmp_path / "one", RIVER, BOARDS, states, DERIVED, 2.0, 500)
    assert not list((tmp_path / "one" / "solutions").glob("*.npz"))  # the family keeps no solution files
    solved = []
    real = spot_records.solve_family
    monkeypatch.setattr(spot_records, "solve_family", lambda *a, **k: solved.append(a[2]) or real(*a, **k))
    again = solve_records(tmp_path / "one", RIVER, BOARDS, states, DERIVED, 2.0, 500)
    copied = solve_records(tmp_path / "two", RIVER, BOARDS, states, DERIVED, 2.0, 500, before=tmp_path / "one")
    same = json.dumps(made)
    assert solved == [] and json.dumps(again) == same and json.dumps(copied) == same  # nothing solved again
    assert record_file(tmp_path / "two", RIVER, states[0], BOARDS[1]).exists()
    solve_records(tmp_path / "two", RIVER, BOARDS, states, Derivation("reference", ("passive",), 2.0), 2.0, 500)
    assert solved == [[b] for b in BOARDS]  # another derivation: solved and derived again
    stricter = solve_records(tmp_path / "two", RIVER, BOARDS[:1], states, DERIVED, 0.2, 5000)
    assert solved[-1] == BOARDS[:1] and stricter[0]["exploitability_pct_pot"] <= 0.2
    other = Family("hu-river", 5, 40, 300, oop=R_FIRST, ip=R_SECOND, keep_solutions=False)  # another stack
    solve_records(tmp_path / "two", other, BOARDS[:1], states, DERIVED, 2.0, 500)
    assert solved[-1] == BOARDS[:1]
    cfr = Family("hu-river", 5, 40, 300, oop=R_FIRST, ip=R_SECOND, keep_solutions=False, method="cfr+")
    solve_records(tmp_path / "two", cfr, BOARDS[:1], states, DERIVED, 2.0, 500)
    assert len(solved) == 5  # the same spot solved another way
    monkeypatch.setattr(spot_records, "RECORD_VERSION", spot_records.RECORD_VERSION + 1)
    solve_records(tmp_path / "one", RIVER, BOARDS[1:], states, DERIVED, 2.0, 500)
    assert solved[-1] == BOARDS[1:]  # rows read another way: derived again


def test_the_second_sample_gap_in_combined_standard_errors():
    a = pd.DataFrame({"family": "f", "state": "s", "line": "(root)", "folds_for_free": [0.1, 0.3],
                      "indifferent": [0.0, 0.0], "regret_fold": [1.0, 3.0], "fold_cost": [5.0, 5.0]})
    b = pd.DataFrame({"family": "f", "state": "s", "line": ["(root)"] * 3 + ["check"], "folds_for_free": [0.5, 0.5, 0.8, 9.0],
         "indifferent": 0.0, "regret_fold": [2.0, 4.0, 6.0, 9.0],
                      "fold_cost": 5.0})
    rows = second_sample(a, b).set_index("value")
    assert list(rows["boards"]) == [2] * 4 and list(rows["boards_second"]) == [3] * 4  # the root line only
    se_a, se_b = np.std([0.1, 0.3], ddof=1) / np.sqrt(2), np.std([0.5, 0.5, 0.8], ddof=1) / np.sqrt(3)
    assert rows.loc["folds_for_free", "z"] == pytest.approx((0.2 - 0.6) / np.hypot(se_a, se_b))
    assert rows.loc["regret_fold", "mean_second"] == pytest.approx(4.0)
    assert np.isnan(rows.loc["fold_cost", "z"])  # no spread in either sample: no gap to state


def test_records_solved_on_a_dask_cluster_are_the_local_ones(tmp_path):
    from analysis.runners.dask import DaskBackend, dask_available
    from analysis.solvers.card_level import load_solution

    if not dask_available():
        pytest.skip("dask.distributed is not installed")
    kept = Family("hu-river", 5, 40, 200, oop=R_FIRST, ip=R_SECOND)  # keeps its solution files
    states = GAME_STATES[:1]
    local = solve_records(tmp_path / "local", kept, BOARDS, states, DERIVED, 1.0, 500)
    with DaskBackend(workers=2) as backend:
        cluster = solve_records(tmp_path / "dask", kept, BOARDS, states, DERIVED, 1.0, 500, backend=backend)
    assert json.dumps(cluster) == json.dumps(local)
    for board in BOARDS:
        mine, theirs = (record_file(tmp_path / w, kept, states[0], board) for w in ("local", "dask"))
        assert mine.read_bytes() == theirs.read_bytes()
        name = mine.name.removesuffix(".json.gz") + ".npz"
        a, b = (load_solution(tmp_path / w / "solutions" / name) for w in ("local", "dask"))
        assert a.iterations == b.iterations  # the file came back from the worker
        np.testing.assert_array_equal(a.solver.sums[0], b.solver.sums[0])


def test_by_effect_means_per_class_and_first_pot_bets_only():
    from analysis.studies.solved_spots import by_effect

    key = {"family": "hu-turn", "state": "start"}
    spots = pd.DataFrame([{**key, "board": b, "effect": e} for b, e in (("a", "none"), ("b", "none"), ("c", "slump"))])
    free = pd.DataFrame([{**key, "board": b, "line": "(root)", "player": "oop", "folds_for_free": f, "indifferent": 0.0,
                          "fold_cost": c, "regret_fold": 1.0} for b, f, c in (("a", 0.1, 20), ("b", 0.3, 20),
                                                                              ("c", 0.0, 40))])
    facing = pd.DataFrame([{**key, "board": b, "line": ln, "player": "ip", "pot_odds": odds, "calls": x,
                            "threshold": 0.5, "fold_cost": 20.0, "weakest_call_cost": 30.0}
                           for b, ln, odds, x in (("a", "bet 40", 1 / 3, 0.6), ("b", "bet 40", 1 / 3, 0.4),
                                                  ("a", "allin 980", 980 / 2000, 0.1),
                                                  ("a", "check / bet 40 / raise 160", 1 / 3, 0.9))])
    table = by_effect({"spots": spots, "spots_fold_or_check": free, "spots_facing_bet": facing})
    none = table[(table.effect == "none") & (table.decision == "free fold")].iloc[0]
    assert none["boards"] == 2 and none["folds_for_free"] == pytest.approx(0.2)
    assert none["folds_for_free_se"] == pytest.approx(np.std([0.1, 0.3], ddof=1) / np.sqrt(2))
    slump = table[(table.effect == "slump") & (table.decision == "free fold")].iloc[0]
    assert slump["fold_cost"] == 40 and np.isnan(slump["fold_cost_se"])  # one board: no spread to state
    bets = table[table.decision == "facing a bet"]
    assert list(bets["line"]) == ["bet 40"] and bets.iloc[0]["calls"] == pytest.approx(0.5)  # no all-in, no raise


STORED = Path(__file__).resolve().parents[2] / "results" / "solved_spots"


def test_the_committed_tables_and_browser_are_the_committed_records_gathered():
    """The guide's solved-spots tables and browser data, recomputed from the committed per-spot
    records in the order of the full plan (the chapter's sample, the second sample, the effects)."""
    from analysis.guide.studies import SPOTS_FULL, part_boards
    from analysis.studies.solved_spots import FAMILIES, GAME_STATES, browser_data
    from analysis.studies.spot_records import record_tables

    families, states = {f.name: f for f in FAMILIES}, {s.name: s for s in GAME_STATES}
    records: dict[str, list] = {}
    for part in SPOTS_FULL:
        family = families[part.family]
        for state in part.states:
            for board in part_boards(part, family, 0, "reference"):
                record = read_record(record_file(STORED, family, states[state], board))
                assert record is not None, (family.name, state, board)
                records.setdefault(part.sample, []).append(record)
    tables = record_tables(records)
    assert {"spots_second_sample", "spots_effects"} <= set(tables)
    for name, frame in tables.items():
        stored = pd.read_parquet(STORED / f"{name}.parquet")
        pd.testing.assert_frame_equal(stored, frame, check_dtype=False, obj=name)
    data = json.loads((STORED / "spots_browser.json").read_text())
    assert data == json.loads(json.dumps(browser_data([r["browser"] for r in records["first"]])))
    assert {s["seats"] for s in data["spots"]} == {2, 3}
