"""How whole games end (issue 19, item 4): the study's rows against the games they come from, and
the guide's paragraph against the table."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from analysis.dilemma.settlement import Rules
from analysis.engine.games import GameConfig, simulate_games
from analysis.guide.sections import _endings
from analysis.studies.game_endings import GUIDE_TABLE, TABLES, Table, endings_row, game_endings


def test_a_row_counts_the_records():
    games = pd.DataFrame({"hands": [10, 20, 30, 40], "reason": ["bank", "one_left", "bank", "cap"],
                          "bankruptcies": [0, 5, 1, 2]})
    row = endings_row(Table("t", ("abc",) * 6), "reference", games)
    assert row["games"] == 4 and row["mean_hands"] == 25 and row["median_hands"] == 25
    assert row["share_bank"] == 0.5 and row["share_one_left"] == 0.25 and row["share_cap"] == 0.25
    assert row["share_bank_se"] == pytest.approx(np.sqrt(0.25 / 4))
    assert row["mean_hands_se"] == pytest.approx(np.std([10, 20, 30, 40], ddof=1) / 2)
    assert row["mean_bankruptcies"] == 2 and row["rules"] == "default"


def test_the_study_replays_each_table_as_its_own_games():
    tables = (TABLES[0], Table("six tight, bare deck", ("tight",) * 6, deck="bare", factor="deck"),
              Table("guide, no exception", GUIDE_TABLE, rules={"showdown_exception": "none"}, factor="rules"))
    frame = game_endings(6, seed=3, tables=tables)
    assert list(frame["deck"]) == ["reference", "bare", "reference"]
    for table, (_, row) in zip(tables, frame.iterrows(), strict=True):
        deck = table.deck or "reference"
        games = simulate_games(GameConfig(strategies=table.strategies, deck=deck,
                                          rules=Rules.parse(table.rules), seed=3), 6).games
        assert row.to_dict() == endings_row(table, deck, games)


def _frame() -> pd.DataFrame:
    rows = [("guide table", "guide", "reference", "default", 0.12, 0.88, 74.0),
            ("six calling-station", "strategies", "reference", "default", 1.0, 0.0, 54.2),
            ("six maniac", "strategies", "reference", "default", 0.0, 1.0, 4.0),
            ("guide table, bare deck", "deck", "bare", "default", 0.0, 1.0, 113.9),
            ("guide table, no showdown exception", "rules", "reference", "showdown_exception=none", 0.115, 0.885,
             74.0)]
    frame = pd.DataFrame(rows, columns=["table", "factor", "deck", "rules", "share_bank", "share_one_left",
                                        "mean_hands"])
    return frame.assign(games=200, median_hands=frame["mean_hands"], share_cap=0.0, share_bank_se=0.02,
                        share_one_left_se=0.02)


def test_the_paragraph_reads_its_numbers_from_the_table():
    blocks = _endings(_frame())
    text = " ".join(b.text for b in blocks if b.kind == "p")
    assert "12% of games end by the bank and 88% with one player left" in text
    assert "from 0% (six maniac) to 100% (six calling-station, 54 hands on average)" in text
    assert "0% on the bare deck" in text
    assert "by at most 0.5%" in text
    table = [b.frame for b in blocks if b.kind == "table"][0]
    assert list(table["table"]) == list(_frame()["table"])
    assert _endings(None) == []
