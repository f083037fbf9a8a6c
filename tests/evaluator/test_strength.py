"""Exact hand strength against a slow count with the reference evaluator."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from evaluator import get_game, parse_cards
from evaluator.strength import strength
from tests.reference.evaluator import ref_best


def slow_strength(hole, board, spec) -> float:
    hero = ref_best(list(hole) + list(board), spec)
    unseen = [c for c in range(spec.n_cards) if c not in set(hole) | set(board)]
    score = 0.0
    pairs = list(itertools.combinations(unseen, 2))
    for pair in pairs:
        other = ref_best(list(pair) + list(board), spec)
        score += 1.0 if hero > other else 0.5 if hero == other else 0.0
    return score / len(pairs)


@pytest.mark.parametrize("game", ["dilemma", "holdem"])
def test_strength_matches_a_slow_count(game):
    spec = get_game(game)
    rng = random.Random(11)
    for n_board in (3, 4, 5):
        cards = rng.sample(range(spec.n_cards), 2 + n_board)
        hole, board = cards[:2], cards[2:]
        assert strength(hole, board, spec) == pytest.approx(slow_strength(hole, board, spec), abs=1e-12)


def test_known_strengths():
    assert strength("7c 8c", "7s 8d As 9h 10d") == 0.5  # everybody plays the top straight
    assert strength("As Ah", "Ad Ac 2s") == 1.0
    spec = get_game("dilemma")
    assert 0.9 < strength(parse_cards("As Ah", spec), parse_cards("7s 8d 2c", spec)) < 1.0


@pytest.mark.parametrize(("game", "board"), [("dilemma", "4s 9h 3d"), ("holdem", "As Ks Qd 2s")])
def test_strength_row_counts_every_disjoint_holding(game, board):
    """The board kernel's numerators (2 x holdings beaten + ties, over the holdings sharing no
    card; colex order of the unseen cards) against a count with the reference evaluator."""
    from evaluator.strength import row_scratch_kernel, strength_row
    from evaluator.tables import get_tables

    spec = get_game(game)
    cards = sorted(parse_cards(board, spec))
    unseen = [c for c in range(spec.n_cards) if c not in cards]
    pairs = [(unseen[i], unseen[j]) for j in range(len(unseen)) for i in range(j)]
    value = [ref_best(list(p) + cards, spec) for p in pairs]
    out = np.zeros(len(pairs), np.int64)
    strength_row(np.array(cards + [0] * (5 - len(cards)), np.int64), len(cards), spec.n_cards,
                 get_tables(spec).kernel_args, row_scratch_kernel(spec.n_cards), out)
    for p, (a, b) in enumerate(pairs):
        expect = sum(2 if value[p] > value[q] else 1 if value[p] == value[q] else 0
                     for q, other in enumerate(pairs) if a not in other and b not in other)
        assert out[p] == expect, (p, a, b)
