"""The postflop edge (solved EV less check-down EV per holding) and the pre-flop chart that adds it to
the check-down: each piece against a plain recomputation."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from analysis.dilemma.decks import load_deck
from analysis.solvers.card_level import solve_spot
from analysis.solvers.card_level.card_spot import CardSpot
from analysis.solvers.card_level.solution import _compatible_mass
from analysis.solvers.preflop_hu.continuation import checkdown_continuation
from analysis.studies.postflop_value import (
    PostflopValueError,
    class_edges,
    class_of_cards,
    edge_spot,
    seat_edges,
    solve_edges,
    with_postflop_edge,
)
from analysis.studies.preflop_chart import solve_chart, solve_played_chart, state_table
from evaluator.api import evaluate_batch

RIVER = "4s 9h 3d 6c 2d"


def test_holding_values_average_to_the_players_values():
    spot = CardSpot.from_options(game="dilemma", deck="reference", board=RIVER, pot=120, stack=940,
                                 bank="300,700,500", level=0, oop="random", ip="AA,1010,A9s,87o",
                                 bets="100%, a", raises="a")
    sol = solve_spot(spot, target_pct=1.0)
    s = sol.solver
    for p, (_, ev) in enumerate(sol.holding_values()):
        n = len(ev)
        w = s.tables.weights[p, :n] * _compatible_mass(s, p, s.tables.weights[1 - p])[:n]
        assert (w * ev).sum() / w.sum() == pytest.approx(sol.ev()[("oop", "ip")[p]], abs=1e-9)


def test_the_check_down_tree_on_the_bare_deck_is_the_pot_share_of_every_holding():
    """No bet, no fold, no corner values: a holding is worth the pot times its share of the showdowns
    against every holding it can meet (counted here by plain evaluation)."""
    spot = edge_spot(RIVER, 60, deck="bare", bets=False)
    sol = solve_spot(spot, target_pct=100.0, max_iterations=1)
    spec = load_deck("bare").spec
    board = list(spot.board)
    hands, ev = sol.holding_values()[0]
    rows = np.array([[*board, a, b] for a, b in hands], dtype=np.uint8)
    score = dict(zip(map(tuple, hands.tolist()), evaluate_batch(rows, spec.name), strict=True))
    for k in range(0, len(hands), 37):
        mine = tuple(hands[k].tolist())
        share = [1.0 if score[mine] > score[o] else 0.5 if score[mine] == score[o] else 0.0
                 for o in score if not set(o) & set(mine)]
        assert ev[k] == pytest.approx(spot.pot * np.mean(share), abs=1e-9)


@pytest.fixture(scope="module")
def edges(tmp_path_factory):
    folder = tmp_path_factory.mktemp("edges")
    return folder, *solve_edges(folder, [RIVER, "As 10h 5d 5c 8s"], levels=(60, 540))


def test_edges_are_the_solved_values_less_the_check_down_and_resume_from_their_files(edges):
    folder, rows, spots = edges
    assert len(spots) == 4 and (spots["exploitability_chips"] <= 1.0 + 1e-9).all()
    assert np.allclose(rows["edge"], rows["solved_ev"] - rows["checkdown_ev"])
    # per spot and seat, the holdings' mean edge is the spot's EV less its check-down EV
    for _, s in spots.iterrows():
        for seat in ("oop", "ip"):
            g = rows[(rows["level"] == s["level"]) & (rows["board"] == s["board"]) & (rows["player"] == seat)]
            mean = (g["edge"] * g["holdings"]).sum() / g["holdings"].sum()
            assert mean == pytest.approx(s[f"ev_{seat}"] - s[f"checkdown_ev_{seat}"], abs=1e-6)
    again, spots2 = solve_edges(folder, [RIVER, "As 10h 5d 5c 8s"], levels=(60, 540))
    pd.testing.assert_frame_equal(again, rows)
    assert spots2["seconds"].tolist() == spots["seconds"].tolist()  # read back, not solved again


def test_class_edges_weight_every_holding_and_spread_between_flops():
    rows = pd.DataFrame({"level": 20, "board": ["a", "b", "c"], "player": "oop", "hand": "AA",
                         "holdings": [6, 3, 3], "edge": [1.0, 4.0, 7.0], "solved_ev": 0.0, "checkdown_ev": 0.0})
    c = class_edges(rows).iloc[0]
    assert c["edge"] == pytest.approx((6 + 12 + 21) / 12) and c["holdings"] == 12 and c["flops"] == 3
    mean = c["edge"]
    se = np.sqrt(3 / 2 * (36 * (1 - mean) ** 2 + 9 * (4 - mean) ** 2 + 9 * (7 - mean) ** 2)) / 12
    assert c["edge_se"] == pytest.approx(se)
    s = seat_edges(rows).iloc[0]
    assert s["edge"] == pytest.approx(4.0) and s["edge_se"] == pytest.approx(3.0 / np.sqrt(3))


def test_the_edge_is_added_to_each_players_own_holding_at_its_level():
    table = state_table("start", "reference")
    cont = checkdown_continuation(table, (20, 60, 1000), 1000, boards=20)
    names = class_of_cards("reference")
    hands = sorted(set(names.values()))
    bump = {h: 0.5 * k for k, h in enumerate(hands)}
    classes = pd.DataFrame([{"level": 60, "player": seat, "hand": h, "edge": bump[h] * (1 if seat == "oop" else -2)}
                            for seat in ("oop", "ip") for h in hands])
    out = with_postflop_edge(cont, classes)
    own = np.array([bump[names[(int(a), int(b))]] for a, b in cont.holdings])
    ok = cont.compatible
    assert np.array_equal(out.values[[0, 2]], cont.values[[0, 2]])  # no edge at levels 20 and all in
    assert np.allclose(out.values[1, 0][ok], (cont.values[1, 0] + own[:, None])[ok])
    assert np.allclose(out.values[1, 1][ok], (cont.values[1, 1] - 2 * own[None, :])[ok])
    assert not out.values[:, :, ~ok].any()
    with pytest.raises(PostflopValueError, match="no edge for class"):
        with_postflop_edge(cont, classes[classes["hand"] != "AA"])


def _zero_edges(tmp_path=None):
    zero = pd.DataFrame([{"level": lv, "player": seat, "hand": h, "edge": 0.0} for lv in (20, 60, 180, 540)
                         for seat in ("oop", "ip") for h in set(class_of_cards("reference").values())])
    if tmp_path is not None:
        zero.to_csv(tmp_path / "zero.csv", index=False)
    return zero


def test_the_cli_adds_an_edge_table_and_says_so(tmp_path, capsys):
    from analysis.cli import run

    argv = ["solve", "preflop", "--boards", "20", "-n", "10"]
    assert run(argv) == 0
    plain = capsys.readouterr().out
    _zero_edges(tmp_path)
    assert run([*argv, "--postflop-edge", str(tmp_path / "zero.csv")]) == 0
    edged = capsys.readouterr().out
    assert f"plus each class's postflop edge from {tmp_path / 'zero.csv'}" in edged
    assert edged.splitlines()[1:] == plain.splitlines()[1:]  # zero edges: the check-down's numbers


def test_zero_edges_give_the_check_down_chart():
    zero = _zero_edges()
    played, row, _ = solve_played_chart(zero, boards=40, max_iterations=30, target_chips=None)
    checkdown = solve_chart("start", "reference", 0, boards=40, target_chips=None, max_iterations=30).chart()
    assert np.allclose(played["frequency"].to_numpy(), checkdown["frequency"].to_numpy())
    assert row["continuation"] == "check-down + solved-flop edge" and row["iterations"] == 30
