"""The committed guide's solved-spots chapter states what its stored tables hold: the three-handed turn
(free fold and facing a bet), the effect cards on the turn, and the second board sample, whose
aggregates agree with the first within their combined standard errors. (The tables themselves are
recomputed from the committed records in ``tests/studies/test_spot_records.py``, and each kind of
row on a small solved case in ``tests/studies/test_solved_spots.py``.)"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from analysis.guide.sections import solved_spots

STORED = Path(__file__).resolve().parents[2] / "results" / "solved_spots"


@pytest.fixture(scope="module")
def chapter():
    blocks = solved_spots(STORED, json.loads((STORED / "study.json").read_text()))
    return " ".join(b.text for b in blocks if b.kind == "p"), [b.frame for b in blocks if b.kind == "table"]


def _table(name: str) -> pd.DataFrame:
    return pd.read_parquet(STORED / f"{name}.parquet")


def _mean_se(frame: pd.DataFrame, col: str) -> tuple[float, float]:
    per_board = frame.groupby("board")[col].mean()
    return float(per_board.mean()), float(per_board.std(ddof=1) / np.sqrt(len(per_board)))


def test_the_three_handed_turn_paragraphs_state_the_stored_means(chapter):
    text, _ = chapter
    facing = _table("spots_facing_bet")
    turn = facing[(facing.family == "3-turn") & (facing.state == "start") & ~facing.line.str.contains("allin")
                  & np.isclose(facing.pot_odds, 1 / 3)]
    first, alone = turn[turn.others_in == 2], turn[turn.others_in == 1]
    assert first["board"].nunique() >= 4 and len(alone)
    cost, se = _mean_se(first, "fold_cost")
    assert f"With the third player still to act, folding costs ${cost:.1f} ± {se:.1f}" in text
    calls, se = _mean_se(first, "calls")
    assert f"The equilibrium calls {100 * calls:.0f}% ± {100 * se:.0f} of the range there" in text
    free = _table("spots_fold_or_check")
    root = free[(free.family == "3-turn") & (free.state == "start") & (free.line == "(root)")]
    assert f"{100 * root['folds_for_free'].mean():.0f}% (first, (root))" in text
    spots = _table("spots")
    turn_spots = spots[(spots.family == "3-turn") & (spots.state == "start")]
    assert f"at most {turn_spots['nash_conv_pct_pot'].max():.2f}% of the pot after" in text
    assert ((turn_spots["nash_conv_pct_pot"] <= 1.5) | (turn_spots["iterations"] >= 250)).all()  # the plan's stop


def test_the_turn_effects_paragraph_and_table_read_spots_effects(chapter):
    text, frames = chapter
    effects = _table("spots_effects")
    root = effects[(effects.decision == "free fold") & (effects.line == "(root)") & (effects.family == "hu-turn")]
    assert set(root["effect"]) == {"none", "crash", "slump", "rebate", "bubble", "other"}
    assert (root["boards"] == 4).all()
    assert f"folds for free at most {100 * root['folds_for_free'].max():.1f}% of its range" in text
    table = next(f for f in frames if "effect card" in f.columns).set_index("effect card")
    none = root.set_index("effect").loc["none"]
    shown = table.loc[table.index.str.startswith("none"), "first player folds for free %"].iloc[0]
    assert shown == f"{100 * none.folds_for_free:.1f} ± {100 * none.folds_for_free_se:.1f}"


def test_the_second_sample_agrees_with_the_first_within_three_combined_standard_errors(chapter):
    """Issue 19's proof: the aggregate over one sample of boards lies within its stated standard error
    (three combined, for a dozen or more comparisons) of the same aggregate over a second sample."""
    text, _ = chapter
    second = _table("spots_second_sample")
    assert {"hu-river", "hu-turn", "hu-flop"} <= set(second["family"])
    z = second["z"].abs().dropna()
    assert len(z) >= 8 and (z <= 3).all() and (z <= 2).mean() >= 0.75
    assert f"{(z <= 2).sum()} of the {len(z)} gaps between the two are within two combined standard errors" in text
    assert (second["boards_second"] == second["boards"]).all()
