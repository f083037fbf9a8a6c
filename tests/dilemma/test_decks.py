"""Deck files (RULES §1.1, §1.7): the shipped decks, the TOML format and the loader's errors."""

from __future__ import annotations

import numpy as np
import pytest

from analysis.dilemma.decks import (
    BUILTIN_DECKS,
    DeckError,
    build_builtin,
    builtin_path,
    load_deck,
    parse_deck,
    reference_corners,
)
from analysis.dilemma.effects import COLOURS, KIND_BY_NAME, board_effect_active, hand_effect_active
from evaluator import parse_cards
from evaluator.errors import LabError

RULES_1_7_EFFECTS = {
    "As": ("green", "dividend", 30),
    "Ah": ("green", "dividend", 30),
    "2s": ("green", "insurance", 0),
    "2h": ("green", "insurance", 0),
    "7s": ("blue", "boom", 2),
    "7h": ("blue", "slump", 2),
    "8s": ("blue", "levy", 20),
    "8h": ("blue", "rebate", 0),
    "9s": ("blue", "subsidy", 10),
    "10s": ("red", "crash", 50),
    "10h": ("red", "bubble", 3),
    "Ad": ("red", "windfall", 100),
}


def plain_text(
    overrides: dict[str, str] | None = None, drop: tuple[str, ...] = (), extra: str = ""
) -> str:
    """A valid 40-card deck file with some card lines replaced, dropped or added."""
    overrides = overrides or {}
    lines = ["[deck]", 'name = "test"', 'game = "dilemma"', "", "[cards]"]
    for card in range(40):
        name = load_deck("bare").card_name(card)
        if name in drop:
            continue
        lines.append(f"{name} = {overrides.get(name, '{ plus = 10, minus = 0 }')}")
    return "\n".join(lines) + "\n" + extra


def test_builtin_decks_load_and_have_every_card():
    for name in BUILTIN_DECKS:
        deck = load_deck(name)
        assert deck.name == name
        assert deck.n_cards == (52 if name == "holdem" else 40)
        assert builtin_path(name).is_file()
        assert len(deck.fingerprint) == 16
        assert not deck.colour.flags.writeable


def test_reference_deck_corners_follow_the_rules_formula():
    deck = load_deck("reference")
    for card in range(40):
        r, s = divmod(card, 4)
        assert deck.plus[card] == 10 * ((r + s) % 3)
        assert deck.minus[card] == 10 * ((2 * r + s) % 3)
        assert (deck.plus[card], deck.minus[card]) == reference_corners(card)
    # the §1.8 board: 4s +20/-10, 9h +20/-0, 3d +0/-10, 6c +10/-20, 10s +20/-10
    board = parse_cards("4s 9h 3d 6c 10s")
    assert [int(deck.plus[c]) for c in board] == [20, 20, 0, 10, 20]
    assert [int(deck.minus[c]) for c in board] == [10, 0, 10, 20, 10]


def test_reference_deck_has_the_twelve_effect_cards_of_rules_1_7():
    deck = load_deck("reference")
    assert len(deck.effect_cards()) == 12
    for text, (colour, kind, amount) in RULES_1_7_EFFECTS.items():
        card = parse_cards(text)[0]
        assert deck.colour_name(card) == colour
        assert int(deck.opcode[card]) == KIND_BY_NAME[kind].op
        assert int(deck.amount[card]) == amount
    assert deck.assumed


def test_plain_and_bare_decks():
    ref, plain, bare = load_deck("reference"), load_deck("plain"), load_deck("bare")
    assert np.array_equal(plain.plus, ref.plus) and np.array_equal(plain.minus, ref.minus)
    assert not plain.opcode.any() and not plain.colour.any()
    assert not (bare.plus.any() or bare.minus.any() or bare.opcode.any())
    assert len({ref.fingerprint, plain.fingerprint, bare.fingerprint}) == 3


def test_shipped_files_match_their_definition_in_code():
    for name in BUILTIN_DECKS:
        assert load_deck(name).fingerprint == build_builtin(name).fingerprint


def test_to_toml_round_trips():
    for name in BUILTIN_DECKS:
        deck = load_deck(name)
        again = parse_deck(deck.to_toml(), "again.toml")
        assert again.fingerprint == deck.fingerprint
        assert again.name == deck.name


def test_load_deck_by_path_and_the_table_form(tmp_path):
    text = (
        plain_text(drop=("As",))
        + '\n[cards.As]\nplus = 0\nminus = 20\ncolour = "green"\neffect = "dividend"\namount = 50\n'
    )
    path = tmp_path / "mine.toml"
    path.write_text(text)
    deck = load_deck(str(path))
    card = parse_cards("As")[0]
    assert deck.effect_label(card) == "dividend 50"
    assert deck.source == str(path)
    assert load_deck(path) is deck  # cached while the file is unchanged


def test_ten_may_be_written_t_and_color_is_accepted():
    text = plain_text(
        drop=("10s",),
        extra='Ts = { plus = 0, minus = 0, color = "red", effect = "crash", amount = 50 }\n',
    )
    deck = parse_deck(text, "t.toml")
    card = parse_cards("10s")[0]
    assert deck.colour_name(card) == "red" and deck.effect_label(card) == "crash 50"


@pytest.mark.parametrize(
    ("text", "fragments"),
    [
        (
            plain_text(extra="Js = { plus = 0, minus = 0 }\n"),
            ["bad.toml", "card Js", "unknown card"],
        ),
        (
            plain_text(
                {"7s": '{ plus = 0, minus = 0, colour = "blue", effect = "explode", amount = 2 }'}
            ),
            ["card 7s", "'effect'", "unknown effect kind 'explode'"],
        ),
        (plain_text(extra="Ts = { plus = 0, minus = 0 }\n"), ["card Ts", "duplicate card", "10s"]),
        (plain_text(drop=("9c", "Ad")), ["missing cards (2 of 40)", "9c", "Ad"]),
        (
            plain_text(
                {"8s": '{ plus = 0, minus = 0, colour = "purple", effect = "levy", amount = 20 }'}
            ),
            ["card 8s", "'colour'", "bad colour 'purple'"],
        ),
        (
            plain_text(
                {"8s": '{ plus = 0, minus = 0, colour = "blue", effect = "levy", amount = -20 }'}
            ),
            ["card 8s", "'amount'", "negative"],
        ),
        (
            plain_text(
                {"8s": '{ plus = 0, minus = 0, colour = "blue", effect = "levy", amount = 25 }'}
            ),
            ["card 8s", "'amount'", "multiple of $10"],
        ),
        (plain_text({"4c": "{ plus = 15, minus = 0 }"}), ["card 4c", "'plus'", "multiple of $10"]),
        (plain_text({"4c": "{ plus = 10 }"}), ["card 4c", "'minus'", "missing"]),
        (plain_text({"4c": "{ plus = 10, minsu = 0 }"}), ["card 4c", "'minsu'", "unknown field"]),
        (
            plain_text(
                {"As": '{ plus = 0, minus = 0, colour = "blue", effect = "dividend", amount = 30 }'}
            ),
            ["card As", "'colour'", "needs colour green"],
        ),
        (
            plain_text({"7s": '{ plus = 0, minus = 0, colour = "blue", effect = "boom" }'}),
            ["card 7s", "'amount'", "needs an amount"],
        ),
        (
            plain_text(
                {
                    "2s": '{ plus = 0, minus = 0, colour = "green", effect = "insurance", amount = 10 }'
                }
            ),
            ["card 2s", "'amount'", "takes no amount"],
        ),
        (
            plain_text({"5d": '{ plus = 0, minus = 0, colour = "red" }'}),
            ["card 5d", "needs an effect"],
        ),
        ('[deck]\nname = "x"\n[cards\n', ["bad.toml", "not valid TOML"]),
        (plain_text().replace('game = "dilemma"', 'game = "chess"'), ["bad.toml", "unknown game"]),
    ],
)
def test_loader_errors_name_the_file_the_card_and_the_field(text, fragments):
    with pytest.raises(DeckError) as info:
        parse_deck(text, "bad.toml")
    message = str(info.value)
    assert "\n" not in message
    for fragment in fragments:
        assert fragment in message
    assert isinstance(info.value, LabError)


def test_error_names_the_line_of_the_card():
    text = plain_text(
        {"8s": '{ plus = 0, minus = 0, colour = "blue", effect = "levy", amount = 25 }'}
    )
    line = next(i for i, row in enumerate(text.splitlines(), 1) if row.startswith("8s ="))
    with pytest.raises(DeckError, match=rf"card 8s \(line {line}\)"):
        parse_deck(text, "bad.toml")


def test_unknown_deck_name_and_missing_file():
    with pytest.raises(DeckError, match="unknown deck 'nope'"):
        load_deck("nope")
    with pytest.raises(DeckError, match="not found"):
        load_deck("no/such/deck.toml")


def test_activation_rules():
    green, blue, red = (COLOURS.index(c) for c in ("green", "blue", "red"))
    assert board_effect_active(blue, 1) and board_effect_active(blue, 3)
    assert not board_effect_active(red, 1)
    assert board_effect_active(red, 2) and board_effect_active(red, 3)
    assert not board_effect_active(green, 3)
    assert hand_effect_active(green, folded=False)
    assert not hand_effect_active(green, folded=True)
    assert hand_effect_active(green, folded=True, green_effects_for="all_dealt")
    assert not hand_effect_active(blue, folded=False)
