"""The Brag evaluator (RULES §4): proven against the slow reference on all 22,100 hands."""

from __future__ import annotations

import numpy as np
import pytest

from evaluator import CardError
from evaluator.brag import (
    BRAG_CATEGORIES,
    N_HANDS,
    BragRuleError,
    BragRules,
    all_hands,
    category,
    category_counts,
    describe,
    evaluate,
    evaluate_batch,
    get_brag_rules,
    hand_class,
)
from tests.reference.brag import ref_brag


def _dense(values: list) -> np.ndarray:
    """Dense ranks of comparable values: equal values share a rank, order kept."""
    order = {v: i for i, v in enumerate(sorted(set(values)))}
    return np.array([order[v] for v in values])


@pytest.mark.parametrize("a23", ["low", "high"])
def test_every_hand_orders_as_the_reference(a23: str) -> None:
    hands = all_hands()
    assert hands.shape == (N_HANDS, 3)
    scores = evaluate_batch(hands, BragRules(a23=a23))
    ref = [ref_brag([int(c) for c in h], a23_high=a23 == "high") for h in hands]
    # same total preorder: every pair of hands compares the same way (ties included)
    assert np.array_equal(_dense(list(scores)), _dense(ref))
    # and the category agrees
    assert [category(s) for s in scores] == [BRAG_CATEGORIES[r[0]] for r in ref]
    assert np.array_equal(scores, evaluate_batch(hands, BragRules(a23=a23), threads=False))


def test_category_counts_are_the_published_ones() -> None:
    # 52 prials, 48 running flushes, 720 runs, 1,096 flushes, 3,744 pairs, 16,440 high cards
    expected = {"prial": 52, "running_flush": 48, "run": 720, "flush": 1096, "pair": 3744,
                "high_card": 16440}
    assert category_counts() == expected
    assert category_counts("a23-high") == expected
    assert len(set(evaluate_batch(all_hands()))) == 741  # one score per class


def test_worked_orders_from_the_rules() -> None:
    e = evaluate
    assert e("3s 3h 3d") > e("As Ah Ad") > e("Ks Kh Kd") > e("2s 2h 2d") > e("Qs Ks As")
    assert e("As Ks Qs") > e("Ks Qs Js") > e("4s 3s 2s") > e("3s 2s As")  # running flushes
    assert e("3s 2s As") > e("Ad Kh Qc")  # the lowest running flush beats the best run
    assert e("Ad Kh Qc") > e("4d 3h 2c") > e("3d 2h Ac") > e("Ad Kd Jd")  # runs beat flushes
    assert e("2s Ah Kd") == e("2h Ad Kc") < e("2s 3s 5s")  # 2-A-K is no run: high card A-K-2
    assert e("Ad Kd Jd") > e("Ad Qd Jd") > e("Kd Qd 10d") > e("2s 2h As")  # flush beats pair
    assert e("As Ah 2c") > e("Ks Kh Ac") and e("7s 7h Kd") > e("7d 7c Qh")
    assert e("Ah Kd Jc") > e("Ah Qd Jc") > e("Ah Qd 10c") and e("Ah Kd Jc") == e("Ad Kh Js")
    high = BragRules(a23="high")
    assert evaluate("Ad 2h 3c", high) > evaluate("Ad Kh Qc", high)
    assert evaluate("Ad 2d 3d", high) > evaluate("Ad Kd Qd", high) > evaluate("Kd Qd Jd", high)
    assert evaluate("Ad 2d 3d", "a23-high") < evaluate("2s 2h 2d", high)


def test_describe_and_classes() -> None:
    assert describe("Qh As Kd") == "run, A-K-Q (As Kd Qh)"
    assert describe("3s Ad 2h") == "run, 3-2-A (Ad 3s 2h)"
    assert describe("7s Kh 7d") == "pair, pair of 7s, K kicker (Kh 7d 7s)"
    assert describe("3s 3h 3c") == "prial, three 3s (3c 3h 3s)"
    assert hand_class("As Ks Qs") == "AKQs" and hand_class("Ts 7h 7d") == "T77"
    assert hand_class("2c 3c 9c") == "932s" and hand_class("As Kh Qs") == "AKQ"


@pytest.mark.parametrize(("cards", "message"), [
    ("As Ks", "a Brag hand has 3 cards; got 2"),
    ("As Ks Qs Js", "got 4"),
    ("As Ks 1s", "malformed card"),
    ("As Ks Qx", "malformed card"),
    ("As As Ks", "duplicate card"),
])
def test_bad_hands(cards: str, message: str) -> None:
    with pytest.raises(CardError, match=message):
        evaluate(cards)


def test_bad_batches_and_rules() -> None:
    with pytest.raises(CardError, match=r"\(n, 3\)"):
        evaluate_batch(np.zeros((2, 4), np.uint8))
    with pytest.raises(CardError, match="row 1 repeats a card"):
        evaluate_batch(np.array([[0, 1, 2], [5, 5, 6]]))
    with pytest.raises(CardError, match="0..51"):
        evaluate_batch(np.array([[0, 1, 52]]))
    with pytest.raises(BragRuleError, match="a23 must be"):
        BragRules(a23="middle")  # type: ignore[arg-type]
    with pytest.raises(BragRuleError, match="unknown Brag rules 'house'"):
        get_brag_rules("house")
    with pytest.raises(BragRuleError, match="unknown Brag rule option 'charlie'"):
        get_brag_rules({"charlie": 5})
    with pytest.raises(CardError, match="not a Brag score"):
        category(-1)
