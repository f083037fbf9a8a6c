"""The Brag rules of RULES §4 that are choices or edge cases: the run order and the tie
lost by a player out of chips."""

from __future__ import annotations

import pytest

from analysis.studies.brag import award_pots, showdown_winners
from analysis.studies.brag.showdown import BragShowdownError
from evaluator.brag import BragRuleError, category, evaluate, get_brag_rules


def test_rules_4_run_order_is_a_choice():
    """RULES §4 [choice]: by default A-K-Q is the best run and 3-2-A (three-high) the lowest, as
    the source compares runs by their highest card; ``a23=high`` (pagat's) makes 3-2-A the
    best; 2-A-K is no run either way. Running flushes follow the runs."""
    akq, low, k32 = "As Kd Qh", "3s 2d Ah", "4c 3s 2d"
    assert category(evaluate("2s Ad Kh")) == "high_card"
    assert evaluate(akq) > evaluate(k32) > evaluate(low)  # the default (source)
    assert category(evaluate(low)) == "run"
    high = get_brag_rules("a23=high")
    assert high == get_brag_rules("a23-high") and get_brag_rules("a23=low") == get_brag_rules()
    assert evaluate(low, high) > evaluate(akq, high) > evaluate(k32, high)
    assert evaluate("3s 2s As", high) > evaluate("As Ks Qs", high) > evaluate("Qs Js 10s", high)
    assert evaluate("3s 2s As") < evaluate("4s 3s 2s")  # the lowest running flush by default
    with pytest.raises(BragRuleError, match="name=value"):
        get_brag_rules("a23=")


def test_rules_4_out_of_chips_loses_a_tie():
    """RULES §4 (seed 004: 「強さが同じならば、手持ちのチップがなくなったほうが負けます」): on
    equal hands the player who ran out of chips loses; the others' later bets are a pot of
    their own, which the player out of chips cannot win."""
    # P0 ran out of chips; P1 and P2 bet on into a second pot. Equal runs for P0 and P1.
    scores = [evaluate("As Kd Qh"), evaluate("Ac Kh Qd"), evaluate("9s 9h 2c")]
    out = [True, False, False]
    assert showdown_winners([0, 1, 2], scores, out) == [1]
    assert award_pots([(30, [0, 1, 2]), (20, [1, 2])], scores, out) == [0, 50, 0]
    # the player out of chips with the better hand takes the old pot only
    better = [evaluate("3s 3h 3d"), scores[1], scores[2]]
    assert award_pots([(30, [0, 1, 2]), (20, [1, 2])], better, out) == [30, 20, 0]
    # players with chips (or two out of chips) and equal hands still split
    assert showdown_winners([1, 2], [scores[1]] * 3, out) == [1, 2]
    assert showdown_winners([0, 1], [scores[0]] * 2, [True, True]) == [0, 1]
    # P1 folded: P2 wins the later pot alone, then meets the player out of chips for the old one
    assert award_pots([(30, [0, 2]), (20, [2])], scores, out) == [30, 0, 20]
    with pytest.raises(BragShowdownError, match="at least one player"):
        showdown_winners([], scores, out)
