"""The board economics study: the numba enumeration against brute force, exact probabilities,
and the per-board formula against the settlement engine itself."""

from __future__ import annotations

from itertools import combinations
from math import comb

import numpy as np
import pytest

from analysis.dilemma.decks import load_deck
from analysis.dilemma.economy import arrangements, board_economy
from analysis.dilemma.settlement import HandState, PlayerState, Rules, settle
from tests.dilemma.test_settlement_properties import DECKS
from tests.reference.economy import board_values


@pytest.fixture(scope="module")
def reference():
    return board_economy("reference", max_losers=3)


@pytest.fixture(scope="module")
def reference_heads_up():
    return board_economy("reference", max_losers=1)


@pytest.fixture(scope="module")
def stress():
    return board_economy(DECKS["stress"], max_losers=2)


def brute_force(deck, street, max_losers):
    """Histograms and card counts of one street by plain-Python enumeration."""
    hists: list[dict[int, int]] = [dict() for _ in range(2 + 2 * max_losers)]
    on_board = np.zeros(deck.n_cards, np.int64)
    active = np.zeros(deck.n_cards, np.int64)
    size = (0, 3, 4, 5)[street]
    for board in combinations(range(deck.n_cards), size):
        later_sets = [()] if street == 1 else list(combinations(range(size), street - 1))
        for later in later_sets:
            streets = [2 if j in later else 1 for j in range(size)]
            for m in range(1, max_losers + 1):
                v = board_values(deck, list(board), streets, m)
                if m == 1:
                    for q, key in ((0, "bonus"), (1, "penalty")):
                        hists[q][v[key]] = hists[q].get(v[key], 0) + 1
                    on_board[list(board)] += 1
                    active[v["active"]] += 1
                for q, key in ((1 + m, "net_winner"), (1 + max_losers + m, "net_loser")):
                    hists[q][v[key]] = hists[q].get(v[key], 0) + 1
    return hists, on_board, active


def as_dict(tally, q):
    counts = tally.hist[q]
    nz = np.nonzero(counts)[0]
    return {int((i + tally.offsets[q]) * 10): int(counts[i]) for i in nz}


@pytest.mark.parametrize(
    ("which", "street"), [("reference", 1), ("reference_heads_up", 2), ("stress", 1)]
)
def test_enumeration_matches_brute_force_python(which, street, request):
    """Flop for two decks and every loser count; the turn once (365,560 boards in Python)."""
    result = request.getfixturevalue(which)
    tally = result.streets[street - 1]
    hists, on_board, active = brute_force(result.deck, street, result.max_losers)
    for q, expected in enumerate(hists):
        assert as_dict(tally, q) == expected, q
    assert np.array_equal(tally.on_board, on_board)
    assert np.array_equal(tally.active, active)


def test_counts_are_every_board_and_probabilities_sum_to_one(reference):
    assert [t.total for t in reference.streets] == [9880, 365_560, 6_580_080]
    assert comb(40, 5) == 658_008 and arrangements(3) == 10 * 658_008
    for t in reference.streets:
        assert (t.hist.sum(axis=1) == t.total).all()
    dist = reference.distribution_frame()
    sums = dist.groupby(["street", "quantity", "losers"])["probability"].sum()
    assert np.allclose(sums.to_numpy(), 1.0, atol=1e-12)
    summary = reference.to_frame()
    assert list(summary["boards"]) == [9880, 91_390, 658_008]


def test_effect_activity_probabilities_are_exact(reference):
    effects = reference.effects_frame().set_index(["street", "card"])
    size = {"flop": 3, "turn": 4, "river": 5}
    later = {"flop": 0, "turn": 1, "river": 2}
    for (street, _card), row in effects.iterrows():
        assert row["p_on_board"] == pytest.approx(size[street] / 40, abs=1e-15)
        expected = {"green": 0.0, "blue": size[street] / 40, "red": later[street] / 40}[
            row["colour"]
        ]
        assert row["p_active"] == pytest.approx(expected, abs=1e-15)
    summary = reference.to_frame().set_index("street")
    # 3 red cards: P(at least one among the turn and river cards)
    assert summary.loc["river", "p_red_active"] == pytest.approx(1 - comb(37, 2) / comb(40, 2))
    assert summary.loc["turn", "p_red_active"] == pytest.approx(3 / 40)
    assert summary.loc["flop", "p_red_active"] == 0
    # 5 blue cards: P(at least one on a flop)
    assert summary.loc["flop", "p_blue_active"] == pytest.approx(1 - comb(35, 3) / comb(40, 3))


def test_plain_deck_is_linear_and_bare_deck_is_zero():
    plain = board_economy("plain", max_losers=1).to_frame()
    mean_plus = load_deck("plain").plus.mean()
    assert np.allclose(plain["mean_bonus"], [3 * mean_plus, 4 * mean_plus, 5 * mean_plus])
    assert np.allclose(plain["mean_net_winner_heads_up"], plain["mean_bonus"])
    assert (plain["p_any_effect_active"] == 0).all()
    bare = board_economy("bare", max_losers=1).to_frame()
    assert (bare[["mean_bonus", "mean_penalty", "sd_bonus"]].to_numpy() == 0).all()


def test_transfers_frame_shape(reference):
    tr = reference.transfers_frame()
    assert len(tr) == 3 * 3
    heads_up = tr[tr["losers"] == 1].set_index("street")
    summary = reference.to_frame().set_index("street")
    assert np.allclose(heads_up["mean_net_winner"], summary["mean_net_winner_heads_up"])


@pytest.mark.parametrize("deck_name", ["reference", "stress"])
def test_board_values_agree_with_the_settlement_engine(deck_name):
    """On random boards the study's per-board net transfers are what settle() moves (no caps)."""
    deck = DECKS[deck_name]
    rng = np.random.default_rng(5)
    rules = Rules()
    non_green = [c for c in range(40) if deck.colour[c] != 1]
    checked = 0
    for _ in range(300):
        street = int(rng.integers(1, 4))
        losers = int(rng.integers(1, 4))
        size = (0, 3, 4, 5)[street]
        pool = rng.permutation(non_green)
        board = [int(c) for c in rng.permutation(40) if int(c) in set(pool[: size + 8].tolist())][
            :size
        ]
        holes = [c for c in pool if c not in board][: 2 * (losers + 1)]
        if len(board) < size:
            continue
        showdown = street == 3 and rng.random() < 0.5
        players = []
        for i in range(losers + 1):
            hole = (int(holes[2 * i]), int(holes[2 * i + 1]))
            folded = None if (showdown or i == 0) else street
            players.append(PlayerState(f"P{i + 1}", 10_000, 100, folded, hole))
        st = HandState(
            tuple(players), tuple(board), last_round=street, bank=(0, 0, 10**6), blind_level=2
        )
        res = settle(st, deck, rules)
        if len(res.winners) != 1:
            continue
        w = res.winners[0]
        v = board_values(deck, board, list(st.board_streets), losers)
        pot = st.pot
        assert res.stacks[w] - 10_000 - pot == v["net_winner"], res.to_text()
        for i in res.losers:
            assert res.stacks[i] - 10_000 == v["net_loser"], res.to_text()
        assert res.totals["bonus"] == v["bonus"] and res.totals["penalty"] == v["penalty"]
        checked += 1
    assert checked > 150
