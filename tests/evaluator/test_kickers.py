"""RULES §1.3 kickers: the default compares every kicker, ``kickers=top`` only the highest."""

from __future__ import annotations

import pytest

from evaluator import evaluate
from evaluator.kickers import KickerError, kicker_map, showdown_score


def _top(text: str, game: str = "dilemma") -> int:
    return showdown_score(evaluate(text, game), game, "top")


def test_rules_1_3_kickers_top_splits_below_the_top_kicker():
    """RULES §1.3: read literally, A A 10 9 7 and A A 10 8 7 split; the default does not."""
    a, b = "As Ad 10c 9h 7s", "Ah Ac 10d 8h 7c"
    assert evaluate(a) > evaluate(b)
    assert _top(a) == _top(b)
    # the made hand, then the top kicker still decide (seed 000's examples 1 and 2)
    assert _top("As Ad 3c 5h 7s") > _top("10s 10d Ac 9h 8s")
    assert _top("As Ad 2c 3h 10s") > _top("Ah Ac 7d 8h 9c")
    assert _top("9s 9d 9c Ah 2s") > _top("9s 9d 9h 10c 8s")  # trips: top kicker
    assert _top("9s 9d 9c Ah 2s") == _top("9s 9d 9h Ac 3s")
    assert _top("As 10d 8c 4h 3s") == _top("Ad 9c 7h 4s 2d")  # high card: the top card only
    assert _top("As 10d 8c 4h 3s") > _top("10s 9d 7c 4d 2h")
    # one kicker (two pair, quads) or none (flush): unchanged
    assert _top("As Ad 9c 9h 7s") > _top("Ah Ac 9d 9s 6c")
    assert _top("As 10s 8s 4s 3s") > _top("Ad 10d 8d 4d 2d")


def test_rules_1_3_kickers_top_on_seven_cards_holdem():
    """The best five are chosen first; the 52-card deck reads kickers the same way."""
    a = "As Ad Kc Qh 9s 4d 2c"
    b = "Ah Ac Kd Jh 9c 4s 3c"
    assert evaluate(a, "holdem") > evaluate(b, "holdem")
    assert _top(a, "holdem") == _top(b, "holdem")


def test_kicker_map_is_monotone_and_the_default_is_the_identity():
    for game in ("dilemma", "holdem"):
        top = kicker_map(game, "top")
        assert (top[1:] >= top[:-1]).all() and (top <= range(len(top))).all()
        used = sorted(set(top.tolist()))
        assert all(top[s] == s for s in used)  # a class's lowest score maps to itself
        assert (kicker_map(game, "all") == range(len(top))).all()


def test_unknown_reading_is_one_error():
    with pytest.raises(KickerError, match="kickers='low' is not a reading: use all or top"):
        kicker_map("dilemma", "low")
