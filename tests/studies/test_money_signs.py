"""One sign convention for money in every output: each component (pot, bonus, penalty,
effects) is the signed change of the hero's chips, so the components add up to the EV in
the spot's table and JSON and in the grid's CSV and Parquet files."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from analysis.studies.fold_vs_check import GridSpec, evaluate_spot, run_grid

PARTS = ("pot", "bonus", "penalty", "effects")


def _check_sums(frame: pd.DataFrame) -> None:
    for branch in ("fold", "check"):
        total = sum(frame[f"{branch}_{p}"] for p in PARTS)
        np.testing.assert_allclose(total, frame[f"ev_{branch}"], atol=1e-6)
        assert (frame[f"{branch}_penalty"] <= 0).all()  # paid: the hero's chips go down


@pytest.mark.parametrize("kwargs", [
    {"board": "4s 9h 3d 6c 10s", "opponents": 2},                 # exact; a red crash card
    {"board": "4s 9h 3d 8h", "opponents": 1},                     # exact; blue rebate on the turn
    {"street": "flop", "opponents": 3, "trials": 3000, "model": "threshold"},  # Monte Carlo
])
def test_spot_table_and_json_add_up(kwargs) -> None:
    res = evaluate_spot("5s 2d" if "board" in kwargs else "A10o", pot=120, **kwargs)
    table = res.to_frame()
    np.testing.assert_allclose(table[list(PARTS)].sum(axis=1), table["ev"], atol=1e-6)
    assert (table["penalty"] <= 0).all()
    data = json.loads(json.dumps(res.to_dict(), default=str))
    _check_sums(pd.DataFrame([data]))
    if "10s" in kwargs.get("board", ""):  # crash: every participant pays, folding or not
        assert table["effects"].lt(0).all()


def test_grid_csv_and_parquet_add_up(tmp_path) -> None:
    spec = GridSpec(models=("threshold",), streets=("turn", "river"), opponents=(2,), pots=(120,),
                    hands=("A10o", "72o", "99"), stderr=50.0, max_trials=2000, train_deals=500)
    run_grid(spec).write(tmp_path)
    for frame in (pd.read_csv(tmp_path / "fold_vs_check.csv"),
                  pd.read_parquet(tmp_path / "fold_vs_check.parquet")):
        _check_sums(frame)
