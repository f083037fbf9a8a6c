"""Bluffjack counting and odds (RULES §3): totals and strengths against the definitions,
exact odds against a recursion over card identities and against simulation."""

from __future__ import annotations

import numpy as np
import pytest

from analysis.studies.bluffjack.probabilities import (
    OddsError,
    bust_next,
    final_distribution,
    final_total_table,
)
from evaluator import CardError
from evaluator.blackjack import (
    BluffjackRuleError,
    BluffjackRules,
    describe_hand,
    get_bluffjack_rules,
    hand_strength,
    hand_total,
)
from tests.reference.bluffjack import ref_final_distribution, ref_strength, ref_total


def _dense(values: list) -> np.ndarray:
    order = {v: i for i, v in enumerate(sorted(set(values)))}
    return np.array([order[v] for v in values])


def _random_hands(n: int, seed: int) -> list[list[int]]:
    rng = np.random.default_rng(seed)
    hands = [[a, b] for a in range(52) for b in range(a + 1, 52)]  # every two-card hand
    for _ in range(n):
        size = int(rng.integers(3, 12))
        # small cards often, so long hands that do not bust appear
        pool = rng.permutation(52)[: max(size, 1)] if rng.random() < 0.5 else \
            rng.permutation(np.arange(0, 24))[:size]
        hands.append([int(c) for c in pool])
    return hands


def test_totals_equal_the_definition() -> None:
    for cards in _random_hands(3000, 1):
        t = hand_total(cards)
        best, soft = ref_total(cards)
        assert (t.total if not t.bust else t.hard) == best and t.soft == soft and t.cards == len(cards)
    assert str(hand_total("As 6d")) == "soft 17" and str(hand_total("As 6d Kc")) == "hard 17"
    assert str(hand_total("Kh Qd 5s")) == "bust (25)" and hand_total("As Ad").total == 12


@pytest.mark.parametrize("rules", ["source", "charlie5", "charlie7", "charlie10", "charlie5-cards",
                                   "order21", "charlie=5,charlie_exact=false", "charlie=5,order21=true"])
def test_strengths_order_hands_as_the_definition(rules: str) -> None:
    r = get_bluffjack_rules(rules)
    hands = _random_hands(3000, 2)
    ours = [hand_strength(h, r) for h in hands]
    ref = [ref_strength(h, r.charlie, r.charlie_rank == "cards", bool(r.charlie_exact), r.order21)
           for h in hands]
    assert np.array_equal(_dense(ours), _dense(ref))


def test_worked_examples_of_the_options() -> None:
    s = hand_strength
    assert s("As Kd") == s("Kh 5c 6d") == s("As 10d") > s("Kh Qd")  # base: every 21 ties
    assert s("As Ks", "order21") > s("As Kd", "order21") > s("Ah Qh", "order21") > \
        s("Ah Qd", "order21") > s("Ah Th", "order21") > s("Ad Th", "order21") > s("Kh 5c 6d", "order21")
    five = "2s 3s 4s 2h 3h"  # 14 in five cards
    assert s(five, "charlie5") > s("Kh Qd", "charlie5") and s(five, "charlie5") < s("Kh 5c 6d", "charlie5")
    assert s(five + " 2d", "charlie5") == 16  # six cards: no longer exactly five
    assert s(five + " 2d", "charlie5-cards") > s("2s 3s 4s 2h 9h", "charlie5-cards")  # more cards win
    assert s("2s 3s 4s 2h 5h", "charlie5") > s(five, "charlie5")  # then the higher total
    assert s("Kh Qd 5s") == 0 and describe_hand("As Ks", "order21") == "21, A+K suited (As Ks)"
    assert describe_hand(five, "charlie5") == "charlie 5, hard 14 (2s 3s 4s 2h 3h)"


@pytest.mark.parametrize(("hand", "seen", "stand_on", "charlie"), [
    ("Kh 6d", "", 17, 0), ("Ts 3d", "2c 2h", 17, 0), ("As 5d", "", 17, 0), ("9s 4d", "5c 5h 5s", 16, 0),
    ("As 6d", "", 18, 0), ("Ks 2d 2c", "", 17, 5), ("2s 3d 4c 2h", "", 19, 5),
])
def test_exact_odds_equal_the_card_by_card_recursion(hand, seen, stand_on, charlie) -> None:
    from evaluator.blackjack import BLUFFJACK
    from evaluator.cards import parse_cards

    rules = BluffjackRules(charlie=charlie)
    ours = final_distribution(hand, seen, stand_on, rules)
    ref = ref_final_distribution(parse_cards(hand, BLUFFJACK), parse_cards(seen, BLUFFJACK),
                                 stand_on, charlie)
    assert set(ours) == set(ref)
    for k, p in ref.items():
        assert ours[k] == pytest.approx(float(p), abs=1e-12)
    hard = hand_total(hand).hard
    left = 52 - len(parse_cards(hand, BLUFFJACK)) - len(parse_cards(seen, BLUFFJACK))
    busting = sum(1 for c in range(52) if c not in parse_cards(hand + " " + seen, BLUFFJACK)
                  and hard + min(10, c // 4 + 2 if c // 4 < 12 else 1) > 21)
    assert bust_next(hand, seen) == pytest.approx(busting / left)


def test_table_rows_sum_to_one_and_agree_with_simulation() -> None:
    table = final_total_table([17])
    sums = table.groupby("start")["probability"].sum()
    assert np.allclose(sums, 1.0) and len(sums) == 17 + 10  # hard 4-20, soft 12-21
    hard16 = table[table["start"] == "hard 16"].set_index("outcome")["probability"]
    assert hard16["bust"] == pytest.approx(0.6) and hard16["17"] == pytest.approx(0.08)
    # simulation of hard 13 from 9+4 only (one start hand): agrees within 4.5 standard errors
    rng = np.random.default_rng(3)
    hand = [7 * 4, 2 * 4]  # 9s 4s
    deck = np.array([c for c in range(52) if c not in hand])
    busts = 0
    n = 40_000
    for _ in range(n):
        order = rng.permutation(deck)
        cards = list(hand)
        while ref_total(cards)[0] < 17:
            cards.append(int(order[len(cards) - 2]))
        busts += ref_total(cards)[0] > 21
    exact = final_distribution("9s 4s", "", 17)["bust"]
    se = np.sqrt(exact * (1 - exact) / n)
    assert abs(busts / n - exact) < 4.5 * se


@pytest.mark.parametrize(("call", "error", "message"), [
    (lambda: get_bluffjack_rules("charlie6x"), BluffjackRuleError, "unknown Bluffjack rules"),
    (lambda: get_bluffjack_rules("joker=1"), BluffjackRuleError, "unknown Bluffjack rule option 'joker'"),
    (lambda: get_bluffjack_rules("charlie=12"), BluffjackRuleError, "charlie must be 0"),
    (lambda: get_bluffjack_rules("order21=maybe"), BluffjackRuleError, "true or false"),
    (lambda: BluffjackRules(charlie_rank="suits"), BluffjackRuleError, "charlie_rank"),
    (lambda: hand_total("As 1d"), CardError, "malformed card"),
    (lambda: bust_next("As Kd", "Kd"), CardError, "both in the hand and seen"),
    (lambda: final_distribution("As Kd", stand_on=22), OddsError, "2-21"),
])
def test_bad_input(call, error, message) -> None:
    with pytest.raises(error, match=message):
        call()
