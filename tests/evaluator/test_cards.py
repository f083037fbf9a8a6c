"""Card parsing and formatting (RULES §1.1 notation)."""

import numpy as np
import pytest

from evaluator import CardError, cards_to_mask, format_cards, mask_to_cards, parse_cards
from evaluator.cards import full_deck


@pytest.mark.parametrize(
    "text",
    ["As 10h", "As,10h", "as, 10H", "AsTh", "As10h", " As   th ", "AS TH"],
)
def test_notations_parse_to_the_same_cards(text):
    assert parse_cards(text, "dilemma") == [36, 33]


def test_ids_are_rank_major():
    assert parse_cards("2s 2h 2d 2c 3s", "dilemma") == [0, 1, 2, 3, 4]
    assert parse_cards("Ac", "holdem") == [51]
    assert parse_cards("Ac", "dilemma") == [39]


def test_list_and_array_inputs():
    assert parse_cards(["As", "10h"]) == [36, 33]
    assert parse_cards(["As 10h", "9c"]) == [36, 33, 31]
    assert parse_cards(np.array([36, 33])) == [36, 33]


def test_format_round_trip():
    for game in ("dilemma", "holdem"):
        deck = full_deck(game)
        assert parse_cards(format_cards(deck, game), game) == list(deck)
    assert format_cards([36, 33], "dilemma") == "As 10h"
    assert format_cards([51, 33], "holdem") == "Ac Th"


def test_masks():
    ids = parse_cards("As 10h 2s")
    assert mask_to_cards(cards_to_mask(ids)) == sorted(ids)
    assert cards_to_mask([0, 39]) == 1 | (1 << 39)


@pytest.mark.parametrize(
    ("text", "game", "fragment"),
    [
        ("Kd", "dilemma", "'Kd' is not in the dilemma deck"),
        ("Qh 2s", "dilemma", "'Qh' is not in the dilemma deck"),
        ("1h", "dilemma", "malformed card '1h'"),
        ("Ax", "dilemma", "malformed card 'Ax'"),
        ("10", "dilemma", "malformed card '10'"),
        ("As as", "dilemma", "duplicate card 'As'"),
        ("AsKx", "holdem", "malformed card 'Kx'"),
        ("Zs", "holdem", "malformed card 'Zs'"),
    ],
)
def test_bad_cards_raise_one_specific_error(text, game, fragment):
    with pytest.raises(CardError) as info:
        parse_cards(text, game)
    assert fragment in str(info.value)
    assert "\n" not in str(info.value)
    assert isinstance(info.value, ValueError)


def test_unknown_game():
    with pytest.raises(CardError, match="unknown game 'poker'"):
        parse_cards("As", "poker")


def test_card_id_out_of_deck():
    with pytest.raises(CardError, match="card id 40 is not in the dilemma deck"):
        parse_cards([40], "dilemma")
