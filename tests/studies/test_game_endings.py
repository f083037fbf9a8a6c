"""How whole games end (issue 19, item 4): the study's rows against the games they come from, its
paired differences, and the guide's paragraph against the table."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import analysis.studies.game_endings as GE
from analysis.guide.sections import _endings
from analysis.studies.game_endings import GUIDE_TABLE, TABLES, Table, endings_row, game_endings


def _games(hands, reasons, bust=None) -> pd.DataFrame:
    return pd.DataFrame({"game": np.arange(len(hands)), "hands": hands, "reason": reasons,
                         "bankruptcies": bust if bust is not None else [0] * len(hands)})


def test_a_row_counts_the_records_and_pairs_them_game_by_game():
    base = _games([10, 20, 30, 40], ["bank", "one_left", "bank", "cap"], [0, 5, 1, 2])
    row = endings_row(Table("t", ("abc",) * 6), "reference", base)
    assert row["games"] == 4 and row["mean_hands"] == 25 and row["median_hands"] == 25
    assert row["share_bank"] == 0.5 and row["share_one_left"] == 0.25 and row["share_cap"] == 0.25
    assert row["share_bank_se"] == pytest.approx(np.sqrt(0.25 / 4))
    assert row["mean_hands_se"] == pytest.approx(np.std([10, 20, 30, 40], ddof=1) / 2)
    assert row["mean_bankruptcies"] == 2 and row["rules"] == "default"
    assert row["bank_diff"] == 0 and row["games_changed"] == 0
    # the same games in another order, two of them changed: paired by game number, not by row
    other = _games([40, 20, 30, 12], ["cap", "bank", "bank", "bank"]).assign(game=[3, 1, 2, 0])
    paired = endings_row(Table("u", ("abc",) * 6, rules=(("winners", "any_pot"),)), "reference", other, base)
    assert paired["games_changed"] == 2 and paired["rules"] == "winners=any_pot"
    assert paired["bank_diff"] == pytest.approx(0.25)  # game 1 now ends by the bank
    assert paired["bank_diff_se"] == pytest.approx(np.std([0, 1, 0, 0], ddof=1) / 2)
    assert paired["hands_diff"] == pytest.approx(0.5)  # game 0: 12 against 10
    assert paired["hands_diff_se"] == pytest.approx(np.std([2, 0, 0, 0], ddof=1) / 2)


def test_each_table_is_played_with_its_own_deck_rules_and_the_seed(monkeypatch):
    seen = []

    def fake(config, games, **run):
        seen.append((config.strategies, config.deck, config.rules, config.seed, games, run))
        return type("R", (), {"games": _games([5] * games, ["bank"] * games)})()

    monkeypatch.setattr(GE, "simulate_games", fake)
    tables = (TABLES[0], Table("b", ("tight",) * 6, deck="bare", factor="deck"),
              Table("r", GUIDE_TABLE, rules=(("showdown_exception", "none"),), factor="rules"))
    frame = game_endings(3, seed=7, deck="plain", tables=tables, progress=None)
    assert [s[1] for s in seen] == ["plain", "bare", "plain"]
    assert seen[2][2].showdown_exception == "none" and seen[0][2].showdown_exception == "river"
    assert {s[3] for s in seen} == {7} and {s[4] for s in seen} == {3}
    assert seen[0][0] == GUIDE_TABLE and seen[1][0] == ("tight",) * 6 and seen[0][5] == {"progress": None}
    assert list(frame["deck"]) == ["plain", "bare", "plain"]


def test_the_study_plays_real_games_and_its_baseline_pairs_with_itself():
    frame = game_endings(4, seed=3, tables=(TABLES[0], Table("six tight", ("tight",) * 6)))
    assert frame.loc[0, "bank_diff"] == 0 and frame.loc[0, "games_changed"] == 0
    assert (frame["games"] == 4).all() and (frame["mean_hands"] > 0).all()


def _frame() -> pd.DataFrame:
    rows = [("guide table", "guide", "reference@x", "default", 0.12, 0.88, 74.0, 0.0, 0.0),
            ("six calling-station", "strategies", "reference@x", "default", 1.0, 0.0, 54.2, 0.88, 0.02),
            ("six maniac", "strategies", "reference@x", "default", 0.0, 1.0, 4.0, -0.12, 0.02),
            ("guide table, bare deck", "deck", "bare@y", "default", 0.0, 1.0, 113.9, -0.12, 0.023),
            ("guide table, x", "rules", "reference@x", "showdown_exception=none", 0.115, 0.885, 74.0, -0.005, 0.005),
            ("guide table, y", "rules", "reference@x", "green_effects_for=all_dealt", 0.175, 0.825, 73.4, 0.055,
             0.016)]
    frame = pd.DataFrame(rows, columns=["table", "factor", "deck", "rules", "share_bank", "share_one_left",
                                        "mean_hands", "bank_diff", "bank_diff_se"])
    strategies = ["g", "c", "m", "g", "g", "g"]
    return frame.assign(strategies=strategies, games=200, median_hands=frame["mean_hands"], share_cap=0.0,
                        games_changed=[0, 200, 199, 173, 6, 42])


def test_the_paragraph_reads_its_numbers_and_verdicts_from_the_table():
    blocks = _endings(_frame())
    text = " ".join(b.text for b in blocks if b.kind == "p")
    assert "12% of the guide table's games end by the bank and 88% with one player left" in text
    assert "*The strategies move it most.*" in text
    assert "from 0% (six maniac) to 100% (six calling-station, 54 hands on average), a spread of 100 points" in text
    assert "0% on the bare deck (-12.0 points ± 2.3)" in text
    assert "showdown_exception=none (a source rule, RULES §1.4): -0.5 points ± 0.5, 6 of 200 games" in text
    assert "So beyond two standard errors: green_effects_for=all_dealt." in text
    assert "a rule option by at most 5.5 points" in text
    table = [b.frame for b in blocks if b.kind == "table"][0]
    assert list(table["table"]) == list(_frame()["table"]) and "bank %" in table.columns
    # another table, another verdict: the deck moving it most, no rule option beyond noise
    other = _frame().assign(share_bank=[0.5, 0.55, 0.45, 0.0, 0.5, 0.5],
                            bank_diff=[0, 0.05, -0.05, -0.5, 0.0, 0.01], bank_diff_se=0.02)
    text = " ".join(b.text for b in _endings(other) if b.kind == "p")
    assert "*The deck move it most.*" not in text and "*The deck moves it most.*" in text
    assert "So none moves the share" in text
    assert _endings(None) == []
