"""Street probabilities (analysis/streets.py): exact category distributions for both decks."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from analysis.studies.streets import deck_differences, order_changes, street_probabilities


@pytest.fixture(scope="module")
def streets() -> pd.DataFrame:
    return street_probabilities()


def test_shape_and_totals(streets: pd.DataFrame) -> None:
    assert len(streets) == 2 * 3 * 9
    for (game, street), g in streets.groupby(["game", "street"]):
        n = 40 if game == "dilemma" else 52
        k = {"flop": 5, "turn": 6, "river": 7}[street]
        assert g["hands"].sum() == math.comb(n, k) == g["total"].iloc[0]
        assert g["probability"].sum() == pytest.approx(1.0)


def _count(df: pd.DataFrame, game: str, street: str, category: str) -> int:
    row = df[(df.game == game) & (df.street == street) & (df.category == category)]
    return int(row["hands"].iloc[0])


def test_known_counts(streets: pd.DataFrame) -> None:
    # 52 cards: the textbook 5- and 7-card counts
    assert _count(streets, "holdem", "flop", "flush") == 5_108
    assert _count(streets, "holdem", "flop", "full_house") == 3_744
    assert _count(streets, "holdem", "river", "high_card") == 23_294_460
    assert _count(streets, "holdem", "river", "flush") == 4_047_644
    assert _count(streets, "holdem", "river", "full_house") == 3_473_184
    # 40 cards, five cards, by counting: 4*C(10,5) suited sets minus 4*7 straight flushes
    # (six windows 2-6 .. 10-A plus the wheel); full houses 10*C(4,3)*9*C(4,2)
    assert _count(streets, "dilemma", "flop", "straight_flush") == 28
    assert _count(streets, "dilemma", "flop", "flush") == 4 * math.comb(10, 5) - 28
    assert _count(streets, "dilemma", "flop", "full_house") == 10 * 4 * 9 * 6
    assert _count(streets, "dilemma", "flop", "four_of_a_kind") == 10 * 36


def test_flush_rarer_than_full_house_with_40_cards(streets: pd.DataFrame) -> None:
    diff = deck_differences(streets)
    for street in ("flop", "turn", "river"):
        d = diff[diff.street == street].set_index("category")
        assert d.loc["flush", "p_dilemma"] < d.loc["full_house", "p_dilemma"]
        assert d.loc["flush", "p_holdem"] > d.loc["full_house", "p_holdem"]
        assert d.loc["flush", "rank_changed"]
    changes = order_changes(streets)
    pairs = set(zip(changes["street"], changes["weaker"], changes["stronger"], strict=True))
    assert {("flop", "flush", "full_house"), ("turn", "flush", "full_house"),
            ("river", "flush", "full_house")} <= pairs
    row = changes[(changes.street == "river") & (changes.weaker == "flush")].iloc[0]
    assert row["more_common_in_dilemma"] == "full_house" and row["more_common_in_holdem"] == "flush"
