"""Exact enumeration only when it is quick: the deal count is known in advance, spots over the
budget are sampled and say so, and --exact insists."""

from __future__ import annotations

import pytest

from analysis.studies.fold_vs_check import evaluate_spot, hero_spot
from analysis.studies.fold_vs_check.answer import (
    EXACT_BUDGET_SECONDS,
    EXACT_DEALS_PER_SECOND,
    exact_deal_count,
)


@pytest.mark.parametrize(("board", "opponents"), [("4s 9h 3d 6c 10s", 1),
                                                  ("4s 9h 3d 6c 10s", 2),
                                                  ("4s 9h 3d 10s", 1)])
def test_the_deal_count_is_what_enumeration_visits(board: str, opponents: int) -> None:
    res = evaluate_spot("5s 2d", board=board, opponents=opponents, pot=120, exact=True)
    assert res.manifest["exact"] and "note" not in res.manifest
    street = "river" if len(board.split()) == 5 else "turn"
    assert res.row["trials"] == exact_deal_count(hero_spot("5s 2d", street, board, opponents), 40)


def test_a_slow_spot_is_sampled_and_says_so() -> None:
    spot = hero_spot("5s 2d", "turn", "4s 9h 3d 10s", 2)
    assert exact_deal_count(spot, 40) / EXACT_DEALS_PER_SECOND > EXACT_BUDGET_SECONDS
    res = evaluate_spot("5s 2d", board="4s 9h 3d 10s", opponents=2, pot=120, trials=500,
                        train_deals=500)
    assert res.manifest["exact"] is False
    assert "8,347,680 deals" in res.manifest["note"] and "--exact" in res.manifest["note"]
