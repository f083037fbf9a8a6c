"""``dilemma eval`` and ``dilemma categories`` as a user runs them."""

import json

import pytest


def test_eval_prints_category_score_and_best_five(cli):
    out = cli("eval", "As", "10h", "9c", "8d", "7s", "2c", "2d")
    assert out.returncode == 0, out.stderr
    assert "category:  straight" in out.stdout
    assert "best five: As 10h 9c 8d 7s" in out.stdout
    assert "score:" in out.stdout


def test_eval_holdem(cli):
    out = cli("eval", "AsKd", "Th", "9c", "2s", "--game", "holdem")
    assert out.returncode == 0, out.stderr
    assert "category:  high_card" in out.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["As", "Kd", "10h", "9c", "2s"], "card 'Kd' is not in the dilemma deck"),
        (["1h", "2s", "3s", "4s", "5s"], "malformed card '1h'"),
        (["Ax", "2s", "3s", "4s", "5s"], "malformed card 'Ax'"),
        (["10", "2s", "3s", "4s", "5s"], "malformed card '10'"),
        (["As", "as", "3s", "4s", "5s"], "duplicate card 'As'"),
        (["As", "2s", "3s", "4s"], "a hand has 5, 6 or 7 cards; got 4"),
        (["As", "2s", "3s", "4s", "5s", "--game", "poker"], "unknown game 'poker'"),
    ],
)
def test_bad_input_is_one_line_and_exit_code_2(cli, args, message):
    out = cli("eval", *args)
    assert out.returncode == 2
    assert out.stderr.strip().splitlines() == [f"error: {out.stderr.strip()[7:]}"]
    assert message in out.stderr
    assert "Traceback" not in out.stderr


def test_categories_json_is_keyed_by_category(cli):
    out = cli("categories", "--game", "holdem", "--cards", "5", "--format", "json")
    assert out.returncode == 0, out.stderr
    counts = json.loads(out.stdout)
    assert counts["straight_flush"] == 40 and counts["high_card"] == 1302540
    assert sum(counts.values()) == 2598960


def test_categories_default_game_is_dilemma(cli):
    out = cli("categories", "--cards", "5", "--format", "csv")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.strip().splitlines()
    assert lines[0] == "category,hands,probability"
    assert "flush,980," in out.stdout
    table = cli("categories", "--cards", "5")
    assert "all 658,008 5-card hands" in table.stdout


@pytest.mark.slow
def test_categories_holdem_seven_cards(cli):
    out = cli("categories", "--game", "holdem", "--cards", "7", "--format", "json")
    assert json.loads(out.stdout)["four_of_a_kind"] == 224848


def test_eval_prints_the_strength_of_the_first_two_cards_on_the_board(cli):
    from evaluator.strength import strength

    out = cli("eval", "As", "10h", "9c", "8d", "7s")
    assert out.returncode == 0, out.stderr
    value = strength("As 10h", "9c 8d 7s", "dilemma")
    line = next(x for x in out.stdout.splitlines() if x.startswith("strength:"))
    assert f"{value:.3f}" in line and "on the board 9c 8d 7s" in line
    assert f"bucket {min(int(value * 20), 19)} of 20" in line
