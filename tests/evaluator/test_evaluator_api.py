"""The public evaluator API (RULES §1.3 and §2) and its exact category counts."""

from math import comb

import numpy as np
import pytest

from evaluator import (
    CATEGORIES,
    CardError,
    GameSpec,
    best_five,
    category,
    category_counts,
    describe,
    evaluate,
    evaluate_batch,
    get_game,
    parse_cards,
)
from evaluator._kernels import score_masks
from evaluator.tables import build_tables, get_tables
from tests.reference.evaluator import ref_best, ref_eval5


def test_category_names_are_exactly_the_issue_names():
    assert CATEGORIES == (
        "high_card", "one_pair", "two_pair", "three_of_a_kind", "straight",
        "flush", "full_house", "four_of_a_kind", "straight_flush",
    )


@pytest.mark.parametrize(
    ("hand", "name"),
    [
        ("7s 8s 9s 10s As", "straight_flush"),  # the 40-card royal flush
        ("As 2s 3s 4s 5s", "straight_flush"),  # steel wheel
        ("As Ah Ad Ac 2s", "four_of_a_kind"),
        ("As Ah Ad 2c 2s", "full_house"),
        ("As 9s 3s 4s 5s", "flush"),
        ("7s 8h 9s 10s Ad", "straight"),  # 10 connects to A
        ("As 2h 3s 4s 5d", "straight"),  # the wheel
        ("9s 10h As 2s 3d", "high_card"),  # no wrap-around
        ("As Ah Ad 3c 2s", "three_of_a_kind"),
        ("As Ah 3d 3c 2s", "two_pair"),
        ("As Ah 4d 3c 2s", "one_pair"),
        ("As 9h 4d 3c 2s", "high_card"),
    ],
)
def test_categories_on_the_40_card_deck(hand, name):
    assert category(evaluate(hand, "dilemma")) == name


def test_holdem_has_no_10_to_ace_straight():
    assert category(evaluate("7s 8h 9s Ts Ad", "holdem")) == "high_card"
    assert category(evaluate("Ts Jh Qs Ks Ad", "holdem")) == "straight"


def test_rules_example_kickers():
    """RULES §1.3: A A 7 8 9 loses to A A 2 3 10."""
    assert evaluate("As Ah 7d 8c 9s") < evaluate("Ad Ac 2h 3d 10s")


def test_wheel_is_the_lowest_straight():
    assert evaluate("As 2h 3s 4s 5d") < evaluate("2s 3h 4s 5s 6d") < evaluate("7s 8h 9s 10s Ad")


def test_ties_are_equal_scores():
    assert evaluate("As Ah 7d 8c 9s") == evaluate("Ad Ac 7h 8d 9c")
    assert evaluate("2s 3s 4s 5s 6s 9h 9d") == evaluate("2h 3h 4h 5h 6h 9s 9c")


def test_score_has_category_in_high_bits():
    s = evaluate("As Ah Ad 2c 2s")
    assert s >> 12 == CATEGORIES.index("full_house")


def test_best_five_is_part_of_the_hand_and_as_good_as_it():
    rng = np.random.default_rng(7)
    for game, n_cards in (("dilemma", 40), ("holdem", 52)):
        for _ in range(300):
            hand = [int(c) for c in rng.choice(n_cards, 7, replace=False)]
            five = best_five(hand, game)
            assert len(set(five)) == 5 and set(five) <= set(hand)
            assert ref_eval5(five, game) == ref_best(hand, game)
            assert evaluate(five, game) == evaluate(hand, game)


def test_best_five_reading_order():
    assert best_five("9c As 2h Ah 9s Ad 3c", "dilemma") == parse_cards("Ad Ah As 9c 9s")
    assert best_five("As 2h 3s 4s 5d 9h 9c") == parse_cards("5d 4s 3s 2h As")


def test_describe():
    assert describe("As Ah Ad 9c 9s 2h 3h") == "full_house, As full of 9s (Ad Ah As 9c 9s)"
    assert describe("As 2h 3s 4s 5d") == "straight, 5 high (5d 4s 3s 2h As)"


def test_batch_and_single_and_mask_agree():
    rng = np.random.default_rng(3)
    hands = rng.permuted(np.tile(np.arange(40, dtype=np.uint8), (5000, 1)), axis=1)[:, :7]
    batch = evaluate_batch(hands, "dilemma")
    serial = evaluate_batch(hands, "dilemma", threads=False)
    singles = [evaluate(h, "dilemma") for h in hands[:500]]
    masks = (np.uint64(1) << hands.astype(np.uint64)).sum(axis=1, dtype=np.uint64)
    from_masks = np.empty(len(hands), dtype=np.int32)
    score_masks(masks, get_tables("dilemma").kernel_args, from_masks)
    assert np.array_equal(batch, serial)
    assert np.array_equal(batch[:500], singles)
    assert np.array_equal(batch, from_masks)
    for k in (5, 6):
        short = evaluate_batch(hands[:200, :k], "dilemma")
        assert np.array_equal(short, [evaluate(h, "dilemma") for h in hands[:200, :k]])


@pytest.mark.parametrize(
    ("hands", "message"),
    [
        (np.zeros((3, 4), dtype=np.uint8), "shape"),
        (np.array([[0, 1, 2, 3, 4, 5, 40]]), "row 0: card ids must be in 0..39"),
        (np.array([[0, 1, 2, 3, 4, 5, 5]]), "row 0 repeats a card"),
    ],
)
def test_batch_rejects_bad_hands(hands, message):
    with pytest.raises(CardError, match=message):
        evaluate_batch(hands, "dilemma")


def _first_bad_row(hands: np.ndarray, n_cards: int) -> int:
    """Slow reference: the first row with an id off ``0..n_cards-1`` or a repeated id, else -1."""
    for i, row in enumerate(hands.tolist()):
        if len(set(row)) != len(row) or not all(0 <= c < n_cards for c in row):
            return i
    return -1


@pytest.mark.parametrize("dtype", [np.uint8, np.int64])
@pytest.mark.parametrize("k", [5, 6, 7])
@pytest.mark.parametrize("threads", [False, True])
def test_batch_validation_folded_into_scoring_names_the_first_bad_row(dtype, k, threads):
    """The check done inside the scoring pass, block by block, names the same row as a plain
    scan, wherever the bad row is (first, last, mid-block, past a block or chunk edge), with
    the same one-line errors; valid rows score as row by row."""
    rng = np.random.default_rng(11)
    n = 40_000  # several 2048-row blocks and 16384-row parallel chunks
    hands = rng.permuted(np.tile(np.arange(40, dtype=dtype), (n, 1)), axis=1)[:, :k].copy()
    scores = evaluate_batch(hands, "dilemma", threads=threads)
    assert _first_bad_row(hands, 40) == -1
    assert np.array_equal(scores[:300], [evaluate(h, "dilemma") for h in hands[:300].tolist()])
    signed = np.issubdtype(dtype, np.signedinteger)
    faults = [40, 63, 64, 255] + ([256, 300, -1, -200] if signed else [])
    if signed:
        faults.append(2**40 + 3)  # low byte 3: a valid-looking id once masked
    for row in (0, 2047, 2048, 16383, 16384, 30_001, n - 1):
        for col in sorted({0, k - 1, int(rng.integers(k))}):
            for fault in [*faults, "repeat"]:
                bad = hands.copy()
                if fault == "repeat":
                    bad[row, col] = bad[row, (col + 1) % k]
                    message = f"row {row} repeats a card"
                else:
                    bad[row, col] = fault
                    message = f"row {row}: card ids must be in 0..39"
                assert _first_bad_row(bad[row : row + 1], 40) == 0  # the rest is valid
                with pytest.raises(CardError, match=message):
                    evaluate_batch(bad, "dilemma", threads=threads)
    # two bad rows: the first one is named, even when a later chunk fails too
    bad = hands.copy()
    bad[n - 5, 0] = 99
    bad[5000, 1] = bad[5000, 2]
    with pytest.raises(CardError, match="row 5000 repeats a card"):
        evaluate_batch(bad, "dilemma", threads=threads)


@pytest.mark.parametrize("text", ["As Ah 2s 3s", "As Ah 2s 3s 4s 5s 6s 7s"])
def test_wrong_number_of_cards(text):
    with pytest.raises(CardError, match="a hand has 5, 6 or 7 cards"):
        evaluate(text)


def test_five_card_counts_match_combinatorics():
    """Closed forms for 5-card hands: 52 cards (textbook) and 40 cards (same formulas, 10 ranks)."""
    assert category_counts("holdem", 5) == {
        "high_card": 1302540, "one_pair": 1098240, "two_pair": 123552,
        "three_of_a_kind": 54912, "straight": 10200, "flush": 5108,
        "full_house": 3744, "four_of_a_kind": 624, "straight_flush": 40,
    }
    R, windows = 10, 7  # tops 5..A: six windows plus the wheel
    sf = windows * 4
    expected = {
        "straight_flush": sf,
        "four_of_a_kind": R * (R - 1) * 4,
        "full_house": R * comb(4, 3) * (R - 1) * comb(4, 2),
        "flush": 4 * comb(R, 5) - sf,
        "straight": windows * 4**5 - sf,
        "three_of_a_kind": R * comb(4, 3) * comb(R - 1, 2) * 16,
        "two_pair": comb(R, 2) * 36 * (R - 2) * 4,
        "one_pair": R * 6 * comb(R - 1, 3) * 64,
    }
    expected["high_card"] = (comb(R, 5) - windows) * (4**5 - 4)
    counts = category_counts("dilemma", 5)
    assert counts == {name: expected[name] for name in CATEGORIES}
    assert sum(counts.values()) == comb(40, 5)


@pytest.mark.slow
def test_seven_card_counts_of_both_decks():
    """All 133,784,560 52-card hands (well-known counts) and all 18,643,560 40-card hands."""
    assert category_counts("holdem", 7) == {
        "straight_flush": 41584, "four_of_a_kind": 224848, "full_house": 3473184,
        "flush": 4047644, "straight": 6180020, "three_of_a_kind": 6461620,
        "two_pair": 31433400, "one_pair": 58627800, "high_card": 23294460,
    }
    # 40-card golden: checked hand by hand against the reference in test_evaluator_exhaustive.
    counts = category_counts("dilemma", 7)
    assert counts == {
        "high_card": 1149960, "one_pair": 6450840, "two_pair": 6282360,
        "three_of_a_kind": 1239700, "straight": 1942580, "flush": 448316,
        "full_house": 1042560, "four_of_a_kind": 71400, "straight_flush": 15844,
    }
    assert counts["flush"] < counts["full_house"]  # RULES §1.3 note
    assert sum(counts.values()) == comb(40, 7)


@pytest.mark.parametrize("wheel", [True, False])
def test_enumerated_counts_match_hand_by_hand_scores_on_a_small_deck(wheel):
    """The enumeration (partial sums, the last card walked by rank) against every hand of a
    28-card deck scored one row at a time by ``evaluate_batch``, for 5, 6 and 7 cards."""
    from itertools import chain, combinations

    spec = GameSpec(name=f"seven-ranks-{wheel}", ranks=("2", "3", "4", "5", "6", "7", "A"),
                    wheel=wheel)
    for k in (5, 6, 7):
        n = comb(spec.n_cards, k)  # every hand, as rows (fromiter: a third of np.array(list)'s time)
        hands = np.fromiter(chain.from_iterable(combinations(range(spec.n_cards), k)), np.uint8,
                            count=n * k).reshape(n, k)
        codes = evaluate_batch(hands, spec) >> 12
        expected = {name: int(np.count_nonzero(codes == i)) for i, name in enumerate(CATEGORIES)}
        assert category_counts(spec, k) == expected


def test_tables_rebuild_from_first_principles_match_the_cache():
    for game in ("dilemma", "holdem"):
        built, cached = build_tables(get_game(game)), get_tables(game)
        for field in ("card_key", "hash_params", "displace", "values", "flush", "decode"):
            assert np.array_equal(getattr(built, field), getattr(cached, field)), field
