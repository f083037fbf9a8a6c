"""Ranges (analysis/ranges.py): the grammar for both decks, overlaps, weights, errors."""

from __future__ import annotations

import math

import pytest

from analysis.studies.ranges import (
    Range,
    RangeError,
    class_of_combo,
    combo_index,
    parse_range,
    starting_classes,
    starting_hand_order,
    top_share_classes,
)
from evaluator import GameSpec, parse_cards


def names(r: Range) -> set[str]:
    """Class names fully covered by a range (through its compact text)."""
    return {part.strip() for part in r.to_text().split(",")}


@pytest.mark.parametrize(("text", "game", "n"), [
    ("AA", "dilemma", 6),
    ("AA", "holdem", 6),
    ("77+", "dilemma", 5 * 6),      # 77 88 99 1010 AA
    ("77+", "holdem", 8 * 6),       # 77 .. AA
    ("22-55", "dilemma", 4 * 6),
    ("55-22", "holdem", 4 * 6),
    ("A10s", "dilemma", 4),
    ("ATs", "dilemma", 4),
    ("A10o", "dilemma", 12),
    ("A10", "dilemma", 16),
    ("A9o+", "dilemma", 2 * 12),    # A9o A10o: 10 connects to A
    ("A9o+", "holdem", 5 * 12),     # A9o .. AKo
    ("A5s-A8s", "dilemma", 4 * 4),
    ("A8s-A5s", "holdem", 4 * 4),
    ("109s+", "dilemma", 4),        # only 109s: the kicker stops below the top card
    ("As10h", "dilemma", 1),
    ("AsTh", "holdem", 1),
    ("random", "dilemma", math.comb(40, 2)),
    ("any", "holdem", math.comb(52, 2)),
])
def test_sizes(text: str, game: str, n: int) -> None:
    assert len(parse_range(text, game)) == n


def test_suffixes_and_spellings_agree() -> None:
    assert parse_range("A10s", "dilemma") == parse_range("ATs", "dilemma")
    assert parse_range("1010", "dilemma") == parse_range("TT", "dilemma")
    assert parse_range("A10s, A10o", "dilemma") == parse_range("A10", "dilemma")
    assert parse_range("AsTh", "dilemma") == parse_range("As 10h".replace(" ", ""), "dilemma")
    assert parse_range("aks", "holdem") == parse_range("AKs", "holdem")


def test_plus_follows_the_deck_rank_order() -> None:
    assert names(parse_range("99+", "dilemma")) == {"99", "1010", "AA"}
    assert names(parse_range("99+", "holdem")) == {"99", "TT", "JJ", "QQ", "KK", "AA"}
    assert names(parse_range("A8s+", "dilemma")) == {"A8s", "A9s", "A10s"}


def test_rank_order_is_a_parameter() -> None:
    """A custom deck (short deck, 6..A) gives + and - its own meaning."""
    short = GameSpec("short", ranks=("6", "7", "8", "9", "T", "J", "Q", "K", "A"))
    assert names(parse_range("TT+", short)) == {"TT", "JJ", "QQ", "KK", "AA"}
    assert names(parse_range("A6s+", short)) == {"A6s", "A7s", "A8s", "A9s", "ATs", "AJs", "AQs", "AKs"}
    with pytest.raises(RangeError, match="'55'"):
        parse_range("55", short)


def test_overlapping_tokens_never_duplicate_a_combo() -> None:
    r = parse_range("77+, 88, 40%(77-99), A10s, As10s, ATs", "dilemma")
    keys = [combo_index(a, b) for a, b in r.combos]
    assert len(keys) == len(set(keys)) == 5 * 6 + 4
    weights = dict(zip(keys, r.weights, strict=True))
    assert all(w == 1.0 for w in weights.values())  # the full-weight item wins


def test_weights() -> None:
    r = parse_range("40%(77-99)", "dilemma")
    assert len(r) == 18 and set(r.weights) == {0.4}
    r = parse_range("50%(AA, 50%(KK)), 25%QQ", "holdem")
    by_class = {}
    for (a, _b), w in r:
        by_class.setdefault(a // 4, set()).add(w)
    assert by_class == {12: {0.5}, 11: {0.25}, 10: {0.25}}
    assert not r.is_uniform and parse_range("AA", "holdem").is_uniform


@pytest.mark.parametrize("text", ["AA, 77+", "40%(A10s, 98o), As2h", "2%(random)", "A2s-A5s, 55-88"])
def test_text_round_trip(text: str) -> None:
    r = parse_range(text, "dilemma")
    again = parse_range(r.to_text(), "dilemma")
    assert again == r


def test_without_dead_cards() -> None:
    r = parse_range("AA, A10s", "dilemma")
    dead = parse_cards("As 2c", "dilemma")
    left = r.without(dead)
    assert len(left) == 3 + 3
    assert all(not set(combo) & set(dead) for combo, _ in left)


@pytest.mark.parametrize(("text", "game", "token"), [
    ("AA, KQz", "holdem", "KQz"),
    ("KK", "dilemma", "KK"),            # no kings in the 40-card deck
    ("A10s, QJs", "dilemma", "QJs"),
    ("22s", "holdem", "22s"),
    ("A5s-K8s", "holdem", "A5s-K8s"),
    ("A5s-A8o", "holdem", "A5s-A8o"),
    ("As", "holdem", "As"),
    ("AsKsQs", "holdem", "AsKsQs"),
    ("150%(AA)", "holdem", "150%"),
    ("40%(AA", "holdem", "40%(AA"),
    ("AA)", "holdem", ")"),
])
def test_errors_name_the_token(text: str, game: str, token: str) -> None:
    with pytest.raises(RangeError) as info:
        parse_range(text, game)
    assert repr(token) in str(info.value)
    assert "\n" not in str(info.value)


def test_empty_range_is_an_error() -> None:
    with pytest.raises(RangeError, match="empty"):
        parse_range(" , ", "dilemma")


@pytest.mark.parametrize(("game", "n", "pairs", "suited", "offsuit"), [
    ("dilemma", 100, 10, 45, 45),
    ("holdem", 169, 13, 78, 78),
])
def test_starting_classes(game: str, n: int, pairs: int, suited: int, offsuit: int) -> None:
    classes = starting_classes(game)
    kinds = [c.kind for c in classes]
    assert len(classes) == n
    assert (kinds.count("pair"), kinds.count("suited"), kinds.count("offsuit")) == (pairs, suited, offsuit)
    n_cards = 40 if game == "dilemma" else 52
    assert sum(c.n_combos for c in classes) == math.comb(n_cards, 2)
    table = class_of_combo(game)
    assert (table >= 0).all() and len(table) == math.comb(n_cards, 2)
    for i, c in enumerate(classes):
        assert parse_range(c.name, game) == Range.from_combos(c.combos, game)
        assert all(table[combo_index(a, b)] == i for a, b in c.combos)


# -- "top N%" and "AKo:0.5" (the notations players and the solvers type) ----------------


def test_starting_hand_order_is_by_exact_headsup_equity() -> None:
    from analysis.studies.starting_hands import headsup_exact

    order = [c.name for c in starting_hand_order("dilemma")]
    equity = headsup_exact("dilemma").set_index("hand")["equity"]
    assert sorted(order) == sorted(c.name for c in starting_classes("dilemma"))
    assert order[0] == "AA"
    assert list(equity[order]) == sorted(equity, reverse=True)


@pytest.mark.parametrize("text", ["top 10%", "top10%", "10%", "TOP 10%"])
def test_top_share_spellings_agree(text: str) -> None:
    assert parse_range(text, "dilemma") == parse_range("top 10%", "dilemma")


@pytest.mark.parametrize(("game", "pct"), [("dilemma", 10), ("dilemma", 33.3), ("holdem", 5),
                                           ("holdem", 100)])
def test_top_share_takes_whole_classes_in_order_up_to_the_share(game: str, pct: float) -> None:
    total = {"dilemma": 780, "holdem": 1326}[game]
    r = parse_range(f"top {pct}%", game)
    order = starting_hand_order(game)
    taken = top_share_classes(pct / 100, game)
    assert taken == order[:len(taken)]
    assert len(r) == sum(c.n_combos for c in taken) <= pct / 100 * total + 1e-9
    if len(taken) < len(order):  # the next class would pass the share
        assert len(r) + order[len(taken)].n_combos > pct / 100 * total


def test_top_share_keeps_at_least_the_strongest_class() -> None:
    assert names(parse_range("top 0.1%", "holdem")) == names(parse_range("AA", "holdem"))


def test_colon_weights_match_percent_weights() -> None:
    assert parse_range("AKo:0.5, QQ", "holdem") == parse_range("50%(AKo), QQ", "holdem")
    assert parse_range("50%(top 5%), A9o:0.5", "dilemma").weights.sum() == 0.5 * (len(parse_range("top 5%", "dilemma")) + 12)
    r = parse_range("random:0.25", "dilemma")
    assert len(r) == 780 and set(r.weights) == {0.25}


@pytest.mark.parametrize(("text", "token"), [
    ("AKo:2", "AKo:2"), ("AKo:0", "AKo:0"), ("AKo:x", "AKo:x"), (":0.5", ":0.5"),
    ("top 0%", "top 0%"), ("top 150%", "top 150%"), ("AA, 120%", "120%"),
])
def test_new_notation_errors_name_the_token(text: str, token: str) -> None:
    with pytest.raises(RangeError) as info:
        parse_range(text, "holdem")
    assert repr(token) in str(info.value)
