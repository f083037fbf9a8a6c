"""Suit permutations that preserve a deck's data: derived from the data, and sums over deals
reduced to one deal per orbit under them equal the plain sums (evaluator.suits, Deck)."""

from itertools import combinations, permutations

import numpy as np
import pytest

from analysis.dilemma.decks import D_MINUS, D_PLUS, load_deck, parse_deck
from evaluator import evaluate_batch, parse_cards
from evaluator.suits import (
    permute_card,
    suit_orbit_weights,
    suit_permutation_array,
    suit_permutations_fixing,
    suit_permutations_preserving,
)

ALL = list(permutations(range(4)))


def _orbit_weight(cards: tuple[int, ...], perms: list[tuple[int, ...]]) -> int:
    """Slow reference: orbit size when ``cards`` is the smallest sorted tuple of its orbit, else 0."""
    images = {tuple(sorted(permute_card(c, p) for c in cards)) for p in perms}
    return len(images) if min(images) == tuple(sorted(cards)) else 0


def _money(deck, hero: tuple[int, int], boards: list[tuple[int, ...]]) -> list[int]:
    """A suit-dependent money statistic of each deal: the hero's hand score times the board's
    corner values (the way the studies' money depends on the cards' data)."""
    plus = deck.kernel_args[D_PLUS]
    minus = deck.kernel_args[D_MINUS]
    rows = np.array([[*hero, *b] for b in boards], np.uint8)
    scores = evaluate_batch(rows, deck.game).tolist()
    return [s * int(sum(plus[c] - 2 * minus[c] for c in b) + 7) for s, b in zip(scores, boards, strict=True)]


def test_permutations_come_from_the_data():
    assert load_deck("bare").suit_permutations() == ALL  # nothing printed: every relabelling
    assert load_deck("holdem").suit_permutations() == ALL
    assert load_deck("reference").suit_permutations() == [(0, 1, 2, 3)]  # effects break them all
    plain = load_deck("plain")
    found = plain.suit_permutations()
    table = plain.kernel_args
    for perm in ALL:  # brute force over every card
        keeps = all(
            np.array_equal(table[:, permute_card(c, perm)], table[:, c]) for c in range(plain.n_cards)
        )
        assert keeps == (perm in found)
    assert found[0] == (0, 1, 2, 3)
    assert suit_permutations_preserving(np.arange(40) // 4) == ALL  # rank-only data
    assert suit_permutations_preserving(np.arange(40) % 4) == [(0, 1, 2, 3)]  # suit-only data
    with pytest.raises(ValueError, match="multiple of 4"):
        suit_permutations_preserving(np.zeros(41))


def test_one_changed_card_breaks_exactly_its_symmetries():
    bare = load_deck("bare")
    text = bare.to_toml().replace("As = { plus = 0, minus = 0", "As = { plus = 10, minus = 0", 1)
    deck = parse_deck(text, "<one corner on As>")
    # only permutations fixing spades survive
    assert deck.suit_permutations() == [p for p in ALL if p[0] == 0]


def test_permutations_fixing_cards():
    assert suit_permutations_fixing([]) == ALL
    # As Ah and Kd Kc: swap s/h, swap d/c, both
    hands = [parse_cards('As Ah', 'holdem'), parse_cards('Kd Kc', 'holdem')]
    assert suit_permutations_fixing(hands) == [
        (0, 1, 2, 3), (0, 1, 3, 2), (1, 0, 2, 3), (1, 0, 3, 2)]
    orbit = suit_orbit_weights(suit_permutation_array([(0, 1, 2, 3), (1, 0, 2, 3)]))
    assert orbit.tolist() == [2, 0, 1, 1]


@pytest.mark.parametrize("name", ["reference", "plain", "bare"])
def test_orbit_sums_equal_plain_sums_with_the_decks_permutations(name):
    """Every flop with a fixed hero hand: the plain sum of a money statistic equals the sum
    over one flop per orbit, weighted, under the permutations that fix the hero's cards AND
    the deck's data. Under every permutation fixing the hero alone it does not, when the
    deck's data breaks a symmetry (the reference deck)."""
    deck = load_deck(name)
    hero = (deck.spec.card_id(9, 0), deck.spec.card_id(8, 1))  # As 10h
    rest = [c for c in range(deck.n_cards) if c not in hero]
    flops = list(combinations(rest, 3))
    money = _money(deck, hero, flops)
    plain = sum(money)
    fixing = suit_permutations_fixing([hero])
    allowed = [p for p in fixing if p in deck.suit_permutations()]

    def orbit_sum(perms):
        return sum(_orbit_weight(f, perms) * m for f, m in zip(flops, money, strict=True))

    assert orbit_sum(allowed) == plain
    naive = orbit_sum(fixing)
    if name == "bare":
        assert allowed == fixing and naive == plain
    if name == "reference":
        assert allowed == [(0, 1, 2, 3)] and naive != plain
