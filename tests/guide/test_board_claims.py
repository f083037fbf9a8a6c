"""Every claim the fold-vs-check chapter makes about a kind of board holds on boards of that
kind: the kernels classify boards as the readable rule does, and spots sampled on boards of
each class (the hero's strength below a stated break-even, or anywhere where the chapter says
check whatever you hold) agree with the sentence on average."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from analysis.dilemma.decks import load_deck
from analysis.guide import sections
from analysis.studies.fold_vs_check import GridSpec, evaluate_spot, run_grid
from analysis.studies.fold_vs_check import _kernels as K
from analysis.studies.fold_vs_check.layout import BOARD_CLASSES
from analysis.studies.fold_vs_check.results import classify_board
from evaluator import format_cards
from evaluator.strength import strength


def test_kernel_board_classes_match_the_readable_rule() -> None:
    """Every ordered flop of the reference deck, and 20,000 random turn and river boards."""
    deck = load_deck("reference")
    args = deck.kernel_args
    rng = np.random.default_rng(7)
    boards = [list(b) for b in itertools.permutations(range(deck.n_cards), 3)]
    boards += [list(rng.choice(deck.n_cards, size=n, replace=False)) for n in (4, 5)
               for _ in range(10_000)]
    seen = set()
    for board in boards:
        padded = np.array(board + [0] * (5 - len(board)), np.int64)
        name = BOARD_CLASSES[K.board_class(padded, len(board), args)]
        assert name == classify_board(board, deck), format_cards(board, "dilemma")
        seen.add(name)
    assert seen == set(BOARD_CLASSES)


def _boards_of(name: str, street: str, deck, rng, count: int) -> list[list[int]]:
    n = {"flop": 3, "turn": 4, "river": 5}[street]
    out = []
    while len(out) < count:
        board = [int(c) for c in rng.choice(deck.n_cards, size=n, replace=False)]
        if classify_board(board, deck) == name:
            out.append(board)
    return out


def _hand_below(board: list[int], limit: float, deck, rng) -> list[int] | None:
    left = [c for c in range(deck.n_cards) if c not in board]
    for _ in range(200):
        hand = [int(c) for c in rng.choice(left, size=2, replace=False)]
        if strength(hand, board, deck.spec) < limit:
            return hand
    return None


@pytest.mark.slow
def test_the_chapter_is_true_on_boards_of_every_class(tmp_path) -> None:
    spec = GridSpec(models=("passive",), streets=("turn",), opponents=(2,), pots=(120,),
                    stderr=4.0, max_trials=3_000, train_deals=1_000, seed=5)
    result = run_grid(spec)
    result.write(tmp_path)
    claims = sections.board_claims(result.break_even_by_board, "passive")
    assert {c.board_class for c in claims} <= set(BOARD_CLASSES) and len(claims) >= 4
    text = " ".join(b.text for b in sections.fold_vs_check(tmp_path, {"manifest": result.manifest}))
    deck = load_deck("reference")
    rng = np.random.default_rng(11)
    for claim in claims:
        assert claim.sentence in text
        gaps, ses = [], []
        for board in _boards_of(claim.board_class, "turn", deck, rng, 8):
            limit = claim.break_even / 2 if claim.break_even > 0 else 0.3  # the weak end
            hand = _hand_below(board, limit, deck, rng)
            if hand is None:
                continue
            r = evaluate_spot(format_cards(hand, "dilemma"), board=format_cards(board, "dilemma"),
                              opponents=2, pot=120, model="passive", trials=3_000,
                              train_deals=1_000, compare=False, seed=1).row
            gaps.append(r["gap"])
            ses.append(r["gap_se"])
        assert len(gaps) >= 4, claim
        mean, se = float(np.mean(gaps)), float(np.sqrt(np.sum(np.square(ses))) / len(gaps))
        if claim.break_even > 0:  # "weak holdings should fold for free": below it, folding wins
            assert mean < 2 * se, (claim.sentence, gaps)
        else:  # "checking is right whatever you hold"
            assert mean > -2 * se, (claim.sentence, gaps)
