"""A game variant defined only by data (issue 18, item 1): Texas Hold'em on a 36-card deck (6 to
A, A-6-7-8-9 the lowest straight) is one :class:`GameSpec` value. Registered by name, it plays
hands in the engine (every hand replayed by the referee), computes exact equities (checked
against plain enumeration) and solves a river spot with the card-level solver (checked against
the pairwise reference) without a line of code of its own."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest

from analysis import equity, solve_spot
from analysis.dilemma.decks import load_deck
from analysis.engine import make_table
from analysis.engine.errors import TableError
from analysis.engine.games import GameConfig, simulate_games
from analysis.engine.simulate import hand_histories, play_hands
from analysis.solvers.card_level import CardSolver, CardSpot
from analysis.solvers.card_level import _kernels as K
from analysis.solvers.card_level.tree import DECISION, KIND
from analysis.studies.equity import EquityError
from evaluator import CardError, evaluate, parse_cards
from evaluator.spec import GAMES, HOLDEM, GameSpec, register_game
from tests.reference.card_solver import counterfactual_values

SHORT36 = GameSpec(
    name="short36",
    ranks=("6", "7", "8", "9", "T", "J", "Q", "K", "A"),
    rank_aliases=(("10", "T"),),
    description="Texas Hold'em on 36 cards (6 to A); A-6-7-8-9 is the lowest straight.",
)
"""The whole definition: Texas Hold'em's deal, hand rule, structure and settlement are the
defaults of a spec, so the variant names only its cards."""


@pytest.fixture
def short36():
    """The variant, known by name for one test."""
    register_game(SHORT36)
    try:
        yield SHORT36
    finally:
        del GAMES[SHORT36.name]


def test_the_definition_is_data(short36):
    assert short36.n_cards == 36
    assert short36.straights[-1] == (3, 2, 1, 0, 8)  # 9 8 7 6 A, the wheel of this deck
    assert (short36.hole_cards, short36.board_sizes, short36.deal_size(3)) == (2, (0, 3, 4, 5), 11)
    assert (short36.structure, short36.settlement, short36.default_deck) == ("nl", "pot", "short36")
    deck = load_deck("short36")
    assert deck.n_cards == 36 and not deck.plus.any() and not deck.opcode.any()
    assert register_game(SHORT36) is SHORT36  # the same definition again: a no-op
    with pytest.raises(CardError, match="already defined differently"):
        register_game(GameSpec("short36", ranks=HOLDEM.ranks))
    with pytest.raises(CardError, match="hole_cards: at least one"):
        GameSpec("no-holes", ranks=HOLDEM.ranks, hole_cards=0)
    assert evaluate("6s 7h 8d 9c As", "short36") > evaluate("Ks Kh Kd 9c As", "short36")  # a straight


def test_the_engine_plays_it_and_the_referee_agrees(short36):
    table = make_table(3, game="short36")
    assert (table.stacks, table.blinds, table.deck, table.structure.name) == ((200,) * 3, (1, 2), "short36", "nl")
    batch = play_hands(table, ["calling-station", "tight-aggressive", "random"], 40, seed=5, log=True)
    assert batch.cards is not None and batch.cards.shape == (40, 11)
    for cards in batch.cards:
        assert len(set(cards.tolist())) == 11 and cards.max() < 36
    assert (batch.stacks.sum(axis=1) == 600).all()  # plain pots: chips only change hands
    assert (batch.stacks != 200).any()
    # every hand replayed by the readable referee, which scores the showdowns itself
    lines = hand_histories(table, ["calling-station", "tight-aggressive", "random"], 40, seed=5)
    assert all(line["game"] == "short36" for line in lines)
    assert sum("showdown" in line for line in lines) > 0


def test_whole_cash_sessions_run_through_the_runner(short36):
    cfg = GameConfig(strategies=("calling-station", "maniac", "tight-aggressive"), game="short36",
                     max_hands=30, seed=2)
    res = simulate_games(cfg, 4)
    assert res.manifest["game"] == "short36" and res.manifest["deck"].startswith("short36@")
    assert (res.games["hands"] == 30).all() and "net_chips" in res.seats
    assert (res.seats.groupby("game")["net_chips"].sum() == 0).all()  # plain pots: zero-sum


def test_the_engine_refuses_a_deal_it_cannot_play():
    omaha = GameSpec("omaha-like", ranks=HOLDEM.ranks, hole_cards=4)
    with pytest.raises(TableError, match="the engine deals 2 hole cards and a 3-1-1 board"):
        make_table(2, game=omaha)
    with pytest.raises(EquityError, match="equity deals 2 hole cards"):
        equity("As Ks", "random", game=omaha)


def _brute_equity(hero: list[int], villain: list[int], board: list[int], spec: GameSpec) -> float:
    rest = [c for c in range(spec.n_cards) if c not in {*hero, *villain, *board}]
    total = 0.0
    runs = list(combinations(rest, 5 - len(board)))
    for run in runs:
        full = board + list(run)
        a, b = evaluate(hero + full, spec), evaluate(villain + full, spec)
        total += 1.0 if a > b else 0.5 if a == b else 0.0
    return total / len(runs)


def test_exact_equity_equals_plain_enumeration(short36):
    for hero, villain, board in (("As Kd", "Qh Qc", "6s 9d Tc"), ("Ah 6h", "Jd Tc", "7h 8h Ks 9c")):
        res = equity(hero, villain, board=board, game="short36")
        assert res.exact
        want = _brute_equity(parse_cards(hero, short36), parse_cards(villain, short36),
                             parse_cards(board, short36), short36)
        assert res.players[0].equity == pytest.approx(want, abs=1e-12)


def test_the_card_solver_solves_a_river_spot(short36):
    spot = CardSpot.holdem("Td9d6hAc7s", "AA, KK, T9s, 87s, AKs", "QQ, JJ, AKs, 98s", 60, 200, "100%, a", "a",
                       deck="short36")
    assert spot.spec is short36
    solver = CardSolver(spot)
    solver.step(4)
    values = solver.root_values(K.MODE_BR)
    strategies = {int(v): solver.strategy(int(v)) for v in np.flatnonzero(solver.tree.nodes[:, KIND] == DECISION)}
    for p in range(2):
        ref = counterfactual_values(solver, strategies, p, best_response=True)
        np.testing.assert_allclose(values[p, : solver.tables.n_hands[p]], ref, rtol=0, atol=1e-9)
    solution = solve_spot(spot, target_pct=0.5, max_iterations=600)
    assert solution.exploitability_pct <= 0.5
