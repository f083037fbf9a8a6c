"""Every solver stack hands out its strategy in the one vocabulary of analysis/solvers/frames.py
(player, line, private state, action, probability, optional ev), each on a tiny solve."""

from __future__ import annotations

import numpy as np
import pytest

from analysis.solvers import kuhn, solve
from analysis.solvers.abstracted import DilemmaSpec, build_game, reach_of, solve_dilemma
from analysis.solvers.abstracted.answers import _action_rows
from analysis.solvers.bluffjack.public_tree import BluffjackTreeSpec
from analysis.solvers.bluffjack.solve import _pair_rows, solve_pair
from analysis.solvers.frames import STRATEGY_COLUMNS, missing_columns, strategy_frame


def _each_decision_sums_to_one(frame, keys) -> None:
    sums = frame.groupby(keys, observed=True)["probability"].sum()
    assert np.allclose(sums, 1.0), sums[~np.isclose(sums, 1.0)]


def test_the_shared_function_orders_the_columns_and_refuses_clashes() -> None:
    df = strategy_frame([0, 0], ["", ""], {"bucket": [1, 1]}, ["check", "bet"], [0.25, 0.75], ev=[1.0, 2.0],
                        extra={"reach": 0.5})
    assert list(df.columns) == ["player", "line", "bucket", "action", "probability", "ev", "reach"]
    assert missing_columns(df) == [] and missing_columns(df.drop(columns="line")) == ["line"]
    with pytest.raises(ValueError, match="clashes"):
        strategy_frame([0], [""], {"action": ["x"]}, ["x"], [1.0])


def test_game_tree_frame() -> None:
    df = solve(kuhn(), "cfr+", 20).strategy
    assert missing_columns(df) == [] and list(df.columns[:2]) == list(STRATEGY_COLUMNS[:2])
    _each_decision_sums_to_one(df, ["infoset"])


def test_abstracted_frame() -> None:
    spec = DilemmaSpec(players=2, street="river", buckets=2, sizes="1", raise_cap=1, deals=200,
                       deals_per_board=20, seed=1)
    result = solve_dilemma(build_game(spec), "cfr+", 20, check_every=20)
    df = _action_rows(result, reach_of(result))
    assert missing_columns(df) == [] and {"bucket", "history"} <= set(df.columns)
    _each_decision_sums_to_one(df, ["node", "history"])


def test_bluffjack_frame() -> None:
    pair = solve_pair(BluffjackTreeSpec(betting=False, max_hits=1), (8, 6), target=1.0, max_iterations=20)
    df = _pair_rows(0, pair)
    assert missing_columns(df) == [] and {"hidden", "ev"} <= set(df.columns)
    assert set(df["player"]) <= {0, 1} and df["line"].notna().all()
