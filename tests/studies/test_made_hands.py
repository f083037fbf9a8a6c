"""Made hands and draws: chosen examples on both decks, and every holding of random boards
against the evaluator (categories) and a brute force over the next card (straight draws)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from analysis.studies.made_hands import DRAWS, MADE_HANDS, draw, made_hand
from evaluator import CATEGORIES, category, evaluate, get_game, parse_cards


def _mh(hole: str, board: str, game: str = "holdem") -> str:
    return made_hand(parse_cards(hole, game), parse_cards(board, game), game)


def _dr(hole: str, board: str, game: str = "holdem") -> str:
    return draw(parse_cards(hole, game), parse_cards(board, game), game)


@pytest.mark.parametrize("hole, board, game, expected", [
    ("Ah Kh", "Qh Jh Th", "holdem", "straight flush"),
    ("9c 9d", "9h 9s 2c", "holdem", "quads"),
    ("2d 3d", "9h 9s 9c 9d 2c", "holdem", "high card"),  # the board's quads play, a 2 kicker: nothing of ours
    ("9c 2d", "9h 9s 2c", "holdem", "full house"),
    ("Ah 3h", "Kh 7h 2h", "holdem", "flush"),
    ("8c 7d", "9h Ts Jc", "holdem", "straight"),
    ("10c 9d", "Ah 2s 3c 4d 5h", "dilemma", "high card"),  # the wheel on the board plays
    ("2c 4d", "10h 9s 8c 7d 6h", "dilemma", "high card"),  # the board's 10-high straight plays
    ("Ac 4d", "10h 9s 8c 7d 6h", "dilemma", "straight"),  # A-10-9-8-7 (10 connects to A) beats it
    ("10c 2d", "10h 9s 8c 3d 2h", "dilemma", "two pair"),
    ("Ac 2d", "10h 9s 8c 3d 2h", "dilemma", "weak pair"),
    ("Ac 6d", "10h 9s 8c 7d 2h", "dilemma", "straight"),  # 10-9-8-7-6
    ("2c 3d", "10h Ah 4c", "dilemma", "high card"),  # 10-A-2-3-4 is no straight; the wheel needs a 5
    ("2c 3d", "5h Ah 4c", "dilemma", "straight"),  # the wheel
    ("6c 6d", "6h Ks 2c", "holdem", "set"),
    ("Kc 2d", "Kh Ks 7c", "holdem", "trips"),
    ("Kc 7d", "Kh 7s 2c", "holdem", "two pair"),
    ("Ac Ad", "Kh 7s 2c", "holdem", "overpair"),
    ("Ac Ad", "Kh Ks 2c", "holdem", "overpair"),
    ("Kc 3d", "Kh 7s 2c", "holdem", "top pair"),
    ("7c Ad", "Kh 7s 2c", "holdem", "second pair"),
    ("9c 9d", "Kh 7s 2c", "holdem", "second pair"),
    ("5c 5d", "Kh 7s 2c", "holdem", "weak pair"),
    ("2h Ad", "Kh 7s 2c", "holdem", "weak pair"),
    ("Ac Qd", "Kh 7s 2c", "holdem", "high card"),
    ("Ac Qd", "Kh Ks 2c", "holdem", "high card"),
])
def test_made_hand_examples(hole, board, game, expected):
    assert _mh(hole, board, game) == expected


@pytest.mark.parametrize("hole, board, game, expected", [
    ("Ah 3h", "Kh 7h 2c", "holdem", "flush draw"),
    ("Ah 3c", "Kh 7h 2h", "holdem", "flush draw"),  # four hearts with one of ours
    ("Ac 3c", "Kh 7h 2h", "holdem", "none"),
    ("8c 7d", "9h 6s 2c", "holdem", "open-ended"),
    ("8c 7d", "9h 5s 2c", "holdem", "gutshot"),
    ("8h 7h", "9h 6h 2c", "holdem", "combo draw"),
    ("Ac Kd", "Qh Js 2c", "holdem", "gutshot"),  # T only
    ("Ac 9d", "10h 8s 2c", "dilemma", "gutshot"),  # A-10-9-8 needs a 7 (10 connects to A)
    ("9c 8d", "10h 7s 2c", "dilemma", "open-ended"),  # 6 or A
    ("8h 7h", "9h 6h 2c 3d 4s", "holdem", "none"),  # the river: no draws
    ("8c 7d", "9h 6s 5c", "holdem", "none"),  # a straight already
])
def test_draw_examples(hole, board, game, expected):
    assert _dr(hole, board, game) == expected


def _category_of(hole, board, spec) -> str:
    return category(evaluate(list(hole) + list(board), spec))


def _straight_outs(hole, board, spec) -> set[int]:
    """Ranks whose next card gives hole + board a straight better than the board with that
    card has by itself (brute force over the evaluator, suits chosen so no flush can form)."""
    ns = spec.n_suits

    def no_flush(cards):
        ranks = sorted(c // ns for c in cards)
        return [r * ns + (i % ns) for i, r in enumerate(ranks)]

    def straight(cards):
        return category(evaluate(no_flush(cards), spec)) == "straight"

    def score(cards):
        return evaluate(no_flush(cards), spec)

    used = set(hole) | set(board)
    outs = set()
    for r in range(spec.n_ranks):
        if sum(1 for c in used if c // ns == r) >= ns:
            continue
        card = r * ns  # any card of the rank (suits are neutralised)
        cards = list(hole) + list(board) + [card]
        if len(cards) < 5 or not straight(cards):
            continue
        board_only = list(board) + [card]
        if len(board_only) >= 5 and straight(board_only) and score(cards) == score(board_only):
            continue  # the board's own straight, no better with the hole cards
        outs.add(r)
    return outs


@pytest.mark.parametrize("game", ["holdem", "dilemma"])
def test_every_holding_of_random_boards_agrees_with_the_evaluator(game):
    spec = get_game(game)
    rng = np.random.default_rng(7)
    one_pair_kinds = {"overpair", "top pair", "second pair", "weak pair"}
    seen = set()
    for n_board in (3, 4, 5):
        for _ in range(6):
            board = [int(c) for c in rng.choice(spec.n_cards, n_board, replace=False)]
            rest = [c for c in range(spec.n_cards) if c not in board]
            for hole in itertools.combinations(rest, 2):
                mh = made_hand(hole, board, spec)
                dr = draw(hole, board, spec)
                seen.add(mh)
                assert mh in MADE_HANDS and dr in DRAWS
                cat = _category_of(hole, board, spec)
                if mh in ("straight flush", "full house", "flush", "straight"):
                    assert cat == mh.replace(" ", "_")
                elif mh == "quads":
                    assert cat == "four_of_a_kind"
                elif mh in ("set", "trips"):
                    assert cat == "three_of_a_kind"
                elif mh == "two pair":
                    assert cat == "two_pair"
                elif mh in one_pair_kinds:
                    assert cat in ("one_pair", "two_pair")
                if n_board < 5 and CATEGORIES.index(cat) < CATEGORIES.index("straight"):
                    outs = _straight_outs(hole, board, spec)
                    straight_draw = dr in ("open-ended", "gutshot", "combo draw")
                    if dr in ("open-ended", "gutshot"):
                        assert (len(outs) >= 2) == (dr == "open-ended") and outs
                    elif not straight_draw:
                        assert not outs
    assert {"high card", "top pair", "weak pair"} <= seen
