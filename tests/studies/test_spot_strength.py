"""The hero's strength (the number every threshold and plan is keyed on) in every spot output."""

from __future__ import annotations

import json

from analysis.cli import run
from analysis.studies.fold_vs_check import evaluate_spot
from evaluator.strength import strength


def test_known_cards_on_a_known_board(capsys) -> None:
    board = "4s 9h 3d 6c 10s"
    res = evaluate_spot("Ac 9d", board=board, opponents=1, pot=40, buckets=10)
    value = strength("Ac 9d", board, "dilemma")
    assert res.row["strength"] == value
    assert res.row["strength_bucket"] == min(int(value * 10), 9)
    assert json.loads(json.dumps(res.to_dict(), default=str))["strength"] == value
    assert run(["study", "spot", "--hand", "Ac 9d", "--board", board]) == 0
    assert f"hero's strength on this board: {value:.3f}" in capsys.readouterr().out


def test_a_class_on_a_known_board_gives_its_combos_spread() -> None:
    res = evaluate_spot("99", board="4s 9h 3d", trials=500, train_deals=500)
    r = res.row
    assert r["strength_min"] <= r["strength"] <= r["strength_max"]
    assert r["strength_min"] > 0.9  # a set of nines


def test_a_random_board_says_the_strength_depends_on_it(capsys) -> None:
    assert run(["study", "spot", "--hand", "AA", "--trials", "500", "--train-deals", "500"]) == 0
    assert "strength: depends on the random board" in capsys.readouterr().out
