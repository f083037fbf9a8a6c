"""The fast evaluator against the slow reference on every hand the issue names.

* every 5-card hand of both decks: the fast scores order the hands exactly as
  :func:`reference.ref_eval5` does (an order isomorphism: same ties, same wins);
* every 6- and 7-card hand of the 40-card deck: the fast score equals the best of
  the hand's 5-card subsets under the reference (the subsets are scored by table
  look-up into the exhaustive 5-card reference results);
* a random sample of 6- and 7-card 52-card hands, and the well-known category
  counts of all 133,784,560 7-card 52-card hands.
"""

from __future__ import annotations

from functools import cache
from math import comb

import numpy as np
import pytest
from numba import njit, prange

from evaluator import evaluate_batch
from evaluator._kernels import score_batch, score_cards
from evaluator._kicker_kernels import top_kicker_key
from evaluator.spec import get_game
from evaluator.tables import get_tables
from tests.reference.evaluator import ref_best, ref_eval5

pytestmark = pytest.mark.slow


def _colex_tables(n_cards: int) -> np.ndarray:
    """binom[c, k] = C(c, k) for the colex index of a sorted 5-card subset."""
    return np.array([[comb(c, k) for k in range(6)] for c in range(n_cards)], dtype=np.int64)


@njit(cache=True)
def _next_subset(idx, n_cards, k):
    """Step the sorted indices ``idx`` to the next k-subset of ``range(n_cards)`` in lexicographic
    order; False after the last one."""
    j = k - 1
    while j >= 0 and idx[j] == n_cards - k + j:
        j -= 1
    if j < 0:
        return False
    idx[j] += 1
    for t in range(j + 1, k):
        idx[t] = idx[t - 1] + 1
    return True


@njit(cache=True)
def _all_hands(n_cards, k):
    """Every sorted k-card hand of an n-card deck, in lexicographic order."""
    total = 1
    for j in range(k):
        total = total * (n_cards - j) // (j + 1)
    out = np.empty((total, k), dtype=np.uint8)
    idx = np.arange(k)
    for row in range(total):
        out[row] = idx
        if not _next_subset(idx, n_cards, k):
            break
    return out



class FiveCardReference:
    """Reference dense ranks of every 5-card hand, indexed by colex index.

    :func:`ref_eval5` reads a hand only through its ranks (as a multiset: counted, sorted)
    and whether its five suits agree, so every hand of one (sorted ranks, flush) class has
    one reference value: it is computed on the class's first hand and given to all of them
    (7,462 classes for the 2,598,960 hold'em hands: the same values as hand by hand, in
    seconds instead of half a minute; ``test_the_reference_classes_give_each_hand_its_own_value``
    checks that on a sample and on every flush)."""

    def __init__(self, game: str):
        spec = get_game(game)
        self.binom = _colex_tables(spec.n_cards)
        hands = _all_hands(spec.n_cards, 5)  # lexicographic, as itertools.combinations
        assert spec.n_ranks <= 16  # one hexadecimal digit per rank in the class key
        ranks = np.sort(hands // spec.n_suits, axis=1).astype(np.int64)
        suits = hands % spec.n_suits
        flush = (suits == suits[:, :1]).all(axis=1)
        key = flush.astype(np.int64)
        for j in range(5):
            key = key * 16 + ranks[:, j]  # ranks < 16: one hexadecimal digit each
        _, first, of_class = np.unique(key, return_index=True, return_inverse=True)
        class_values = [ref_eval5(list(map(int, hands[i])), game) for i in first]
        distinct = sorted(set(class_values))
        dense_of = {v: i for i, v in enumerate(distinct)}
        hand_dense = np.array([dense_of[v] for v in class_values], dtype=np.int32)[of_class.ravel()]
        colex = (self.binom[hands.astype(np.int64), np.arange(1, 6)]).sum(axis=1)
        assert np.array_equal(np.sort(colex), np.arange(comb(spec.n_cards, 5)))  # each hand once
        self.dense = np.empty(len(hands), dtype=np.int32)
        self.dense[colex] = hand_dense
        self.hands = hands
        self.hand_dense = hand_dense
        self.n_classes = len(distinct)
        self.distinct = distinct
        """The reference value of each dense rank (``ref_eval5``'s tuple)."""


@cache
def five_reference(game: str) -> FiveCardReference:
    """Built once per test session (a few seconds: one ``ref_eval5`` call per class)."""
    return FiveCardReference(game)


@pytest.fixture(scope="module", params=["dilemma", "holdem"])
def five_ref(request) -> tuple[str, FiveCardReference]:
    return request.param, five_reference(request.param)


def _fast_to_dense(game: str, ref: FiveCardReference) -> np.ndarray:
    """Map fast score -> reference dense rank, asserting it is a strictly increasing bijection."""
    fast = evaluate_batch(ref.hands, game)
    order = np.lexsort((fast, ref.hand_dense))
    f, d = fast[order], ref.hand_dense[order]
    # Same dense rank <=> same fast score, and the ranks increase together.
    assert np.array_equal(np.diff(d) > 0, np.diff(f) > 0), "fast and reference disagree on order"
    assert np.all(np.diff(f) >= 0)
    table = np.full(9 << 12, -1, dtype=np.int32)
    table[f] = d
    return table


def test_the_reference_classes_give_each_hand_its_own_value(five_ref):
    """The class shortcut above against ``ref_eval5`` called on each of 20,000 random hands
    and on every flush (where the suits matter)."""
    game, ref = five_ref
    rng = np.random.default_rng(22)
    sample = rng.choice(len(ref.hands), 20_000, replace=False)
    spec = get_game(game)
    suits = ref.hands % spec.n_suits
    flushes = np.flatnonzero((suits == suits[:, :1]).all(axis=1))
    for i in np.concatenate([sample, flushes]):
        assert ref_eval5(list(map(int, ref.hands[i])), game) == ref.distinct[ref.hand_dense[i]]


def test_every_five_card_hand_orders_like_the_reference(five_ref):
    game, ref = five_ref
    table = _fast_to_dense(game, ref)
    assert (table >= 0).sum() == ref.n_classes


@njit(parallel=True, cache=True)
def _best_of_subsets(hands, binom, dense5):
    """Reference value of each hand: the max dense rank over its 5-card subsets (hands sorted)."""
    n, k = hands.shape
    out = np.empty(n, dtype=np.int32)
    for i in prange(n):
        best = -1
        for a in range(k):
            for b in range(a + 1, k):
                for c in range(b + 1, k):
                    for d in range(c + 1, k):
                        for e in range(d + 1, k):
                            idx = (
                                binom[hands[i, a], 1]
                                + binom[hands[i, b], 2]
                                + binom[hands[i, c], 3]
                                + binom[hands[i, d], 4]
                                + binom[hands[i, e], 5]
                            )
                            best = max(best, dense5[idx])
        out[i] = best
    return out


@pytest.mark.parametrize("k", [6, 7])
def test_every_dilemma_hand_of_six_and_seven_cards(k):
    ref = five_reference("dilemma")
    table = _fast_to_dense("dilemma", ref)
    hands = _all_hands(40, k)
    assert len(hands) == comb(40, k)
    expected = _best_of_subsets(hands, ref.binom, ref.dense)
    fast = np.empty(len(hands), dtype=np.int32)
    score_batch(hands, get_tables("dilemma").kernel_args, fast)
    bad = np.nonzero(table[fast] != expected)[0]
    assert bad.size == 0, f"{bad.size} hands differ, first {hands[bad[0]]}"


@pytest.mark.parametrize("k", [6, 7])
def test_random_holdem_hands_match_reference(k):
    ref = five_reference("holdem")
    table = _fast_to_dense("holdem", ref)
    rng = np.random.default_rng(2026)
    hands = np.sort(rng.permuted(np.tile(np.arange(52, dtype=np.uint8), (300_000, 1)), axis=1)[:, :k], axis=1)
    expected = _best_of_subsets(hands, ref.binom, ref.dense)
    assert np.array_equal(table[evaluate_batch(hands, "holdem")], expected)


def test_reference_best_of_seven_spot_checks():
    """ref_best itself on hand-picked hands (the ground the other tests stand on)."""
    from evaluator import parse_cards

    def best(text, game="dilemma"):
        return ref_best(parse_cards(text, game), game)

    assert best("7s 8s 9s 10s As 2d 3d")[0] == 8  # royal flush of the 40-card deck
    assert best("As 2d 3h 4c 5s 9d 9h")[:2] == (4, 3)  # wheel: five-high straight
    assert best("9s 10d As 2c 3h 5d 7h")[0] == 0  # 9-10-A-2-3 does not wrap
    assert best("As Ad 7c 8h 9s 2d 3c") < best("As Ac 2h 3d 10s 5c 6h")  # kickers decide


def _ref_top(value: tuple[int, ...]) -> tuple[int, ...]:
    """RULES §1.3 ``kickers=top`` read from a reference value: what still counts."""
    kept = {0: 1, 1: 2, 3: 2}.get(value[0])  # high card: the top card; pair and trips: + top kicker
    return value if kept is None else value[: 1 + kept]


def test_kickers_top_map_on_every_five_card_hand(five_ref):
    """RULES §1.3 kickers=top: the score map orders every 5-card hand of both decks as the
    reference truncated to the made hand and its top kicker (an order isomorphism). Every
    score occurs among the 5-card hands and the map reads only the score, so this covers
    every 6- and 7-card hand as well (their scores are checked above)."""
    from evaluator.kickers import kicker_map

    game, ref = five_ref
    tops = [_ref_top(v) for v in ref.distinct]  # each hand's reference value is distinct[hand_dense]
    dense_of = {v: i for i, v in enumerate(sorted(set(tops)))}
    top_dense = np.array([dense_of[v] for v in tops])[ref.hand_dense]
    mapped = kicker_map(game, "top")[evaluate_batch(ref.hands, game)]
    order = np.lexsort((mapped, top_dense))
    f, d = mapped[order], top_dense[order]
    assert np.array_equal(np.diff(d) > 0, np.diff(f) > 0)
    assert np.all(np.diff(f) >= 0)
    assert len(np.unique(mapped)) == len(dense_of)
    fast = evaluate_batch(ref.hands, game)
    assert np.array_equal(kicker_map(game, "all")[fast], fast)


@njit(cache=True)
def _key_agreement(n_cards, k, tables, kmap, key_of):
    """Walk every k-card hand: the kernel key of each hand must be one function of its mapped
    score (``key_of[mapped]``), and a key must map to itself; returns hands seen or -1/-2."""
    idx = np.arange(k)
    cards = np.empty(7, np.uint8)
    n = 0
    while True:
        for j in range(k):
            cards[j] = idx[j]
        s = score_cards(cards, k, tables)
        key = top_kicker_key(s, cards, k)
        m = kmap[s]
        if key_of[m] == -1:
            key_of[m] = key
        elif key_of[m] != key:
            return -1
        if top_kicker_key(key, cards, k) != key:
            return -2
        n += 1
        if not _next_subset(idx, n_cards, k):
            break
    return n


@pytest.mark.parametrize("k", [5, 6, 7])
@pytest.mark.parametrize("game", ["dilemma", "holdem"])
def test_kickers_top_kernel_key_on_every_hand(game, k):
    """RULES §1.3 kickers=top in kernels (the settlement's key from the cards) orders every
    5-, 6- and 7-card hand of both decks exactly as the score map (checked above against
    the reference): the key is a strictly increasing function of the mapped score."""
    from evaluator.kickers import kicker_map

    spec = get_game(game)
    key_of = np.full(9 << 12, -1, np.int64)
    seen = _key_agreement(spec.n_cards, k, get_tables(game).kernel_args, kicker_map(game, "top"),
                          key_of)
    assert seen == comb(spec.n_cards, k)
    keys = key_of[key_of >= 0]
    assert np.all(np.diff(keys) > 0)
