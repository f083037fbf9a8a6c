"""The three-handed chart's continuation with the heads-up solved-flop edges where two see the flop."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from analysis.dilemma.decks import load_deck
from analysis.solvers.card_level.dilemma_terminals import DilemmaTable
from analysis.solvers.preflop3.bet_tree3 import build_preflop_tree3
from analysis.solvers.preflop3.continuation3 import FLOP2, checkdown3, situation_kind
from analysis.solvers.preflop3.deal3 import subset_deal
from analysis.solvers.preflop3.solve3 import Preflop3Spot, solve_preflop3
from analysis.studies.postflop_edge3 import (
    check_fits3,
    credited_situations,
    edged_continuation3,
    pair_levels,
    with_postflop_edge3,
)
from analysis.studies.postflop_value import PostflopValueError
from analysis.studies.ranges import starting_classes

NAMES = ("AA", "A2o", "72o")
SITUATIONS = [(0b111, 60, 60, 60), (0b011, 20, 20, 0), (0b110, 10, 60, 60), (0b101, 60, 20, 60),
              (0b011, 1000, 1000, 20), (0b100, 10, 20, 60)]


def _edges(levels=(20, 60, 180, 540), state="start") -> pd.DataFrame:
    """Edges that tell every level, seat and class apart: class k at level L, seat oop: L / 10 + k; ip: -2x."""
    hands = [c.name for c in starting_classes(load_deck("reference").spec)]
    return pd.DataFrame([{"state": state, "level": lv, "player": seat, "hand": h,
                          "edge": (lv / 10 + k) * (1 if seat == "oop" else -2)}
                         for lv in levels for seat in ("oop", "ip") for k, h in enumerate(hands)])


def _want(level: int, seat: str, name: str) -> float:
    k = [c.name for c in starting_classes(load_deck("reference").spec)].index(name)
    return (level / 10 + k) * (1 if seat == "oop" else -2)


def test_each_live_player_gains_its_class_edge_in_its_seat_after_the_flop():
    """Two see the flop below all-in: the first live seat left of the dealer (SB before BB before the
    button) is out of position; its value of every pair of classes gains its own class's edge. Three see
    the flop, two all in, fold ends and the folder: unchanged."""
    cont = checkdown3(DilemmaTable("reference", (), (300, 700, 500), 0), subset_deal(NAMES), SITUATIONS, 1000,
                      boards=40, deals=1, seed=0)
    out = with_postflop_edge3(cont, _edges().drop(columns="state"), NAMES, 1000)
    assert out.triple.keys() == cont.triple.keys()
    for key, x in cont.triple.items():
        assert np.array_equal(out.triple[key], x)
    for key, x in cont.own.items():
        assert np.array_equal(out.own[key], x)
    seen = set()
    for (s, p), (o, m) in cont.pair.items():
        live, *put = SITUATIONS[s]
        got_o, got = out.pair[(s, p)]
        assert got_o == o
        if max(put) >= 1000:
            assert np.array_equal(got, m)
            continue
        seat = "oop" if p < o else "ip"
        add = np.array([_want(max(put), seat, n) for n in NAMES])
        np.testing.assert_allclose(got, m + add[:, None], rtol=0, atol=1e-12)
        seen.add((s, seat))
    # the small blind out of position against the big blind and the button, the big blind against the button
    assert seen == {(1, "oop"), (1, "ip"), (2, "oop"), (2, "ip"), (3, "oop"), (3, "ip")}


def test_a_table_without_a_class_or_with_two_states_is_refused():
    cont = checkdown3(DilemmaTable("reference", (), (300, 700, 500), 0), subset_deal(NAMES), SITUATIONS, 1000,
                      boards=40, deals=1, seed=0)
    with pytest.raises(PostflopValueError, match="no edge for class AA"):
        with_postflop_edge3(cont, _edges().query("hand != 'AA'"), NAMES, 1000)
    with pytest.raises(PostflopValueError, match="2 game states"):
        with_postflop_edge3(cont, pd.concat([_edges(), _edges(state="level2")]), NAMES, 1000)


def test_the_spot_must_be_the_tables_game_and_levels():
    spot = Preflop3Spot(boards=40, deals=1)
    situations = build_preflop_tree3(spot.tree_config).situations()
    assert pair_levels(situations, spot.chips) == (20, 60, 180, 540)
    cont = checkdown3(spot.table, subset_deal(NAMES), situations, spot.chips, 40, 1, 0)
    # a table of three states: the spot's own rows are added
    three = pd.concat([_edges(state="level2").assign(edge=1e6), _edges(), _edges(state="bank3-low").assign(edge=-1e6)])
    got = edged_continuation3(spot, three, cont, NAMES)
    (s, p), (o, m) = next(((k, v) for k, v in cont.pair.items() if max(cont.situations[k[0]][1:]) == 60))
    add = np.array([_want(60, "oop" if p < o else "ip", n) for n in NAMES])
    np.testing.assert_allclose(got.pair[(s, p)][1], m + add[:, None], rtol=0, atol=1e-9)
    with pytest.raises(PostflopValueError, match="level 20, oop: no edge for class 72o"):
        check_fits3(spot, _edges().query("not (level == 20 and player == 'oop' and hand == '72o')"), situations,
                    NAMES)  # before any sampling
    with pytest.raises(PostflopValueError, match="also sees the flop at 540"):
        edged_continuation3(spot, _edges(levels=(20, 60, 180)), cont, NAMES)
    with pytest.raises(PostflopValueError, match="measured in the level2 state"):
        edged_continuation3(spot, _edges(state="level2"), cont, NAMES)
    counts = credited_situations(situations, spot.chips)
    assert counts["two_see_flop_edged"] + counts["two_see_flop_all_in"] == sum(
        situation_kind(s[0]) == FLOP2 for s in situations)
    assert counts["two_see_flop_edged"] == sum(situation_kind(s[0]) == FLOP2 and max(s[1:]) < 1000 for s in situations)


def test_zero_edges_give_the_check_down_chart_and_ending_shares_add_up():
    from analysis.solvers.preflop3.deal3 import class_deal

    spot = Preflop3Spot(boards=200, deals=1, max_raises=1)
    tree = build_preflop_tree3(spot.tree_config)
    deal = class_deal(spot.table.deck.spec)
    cont = checkdown3(spot.table, deal, tree.situations(), spot.chips, spot.boards, spot.deals, spot.seed)
    zero = _edges().assign(edge=0.0)
    plain = solve_preflop3(spot, iterations=20, continuation=cont)
    edged = solve_preflop3(spot, iterations=20, continuation=edged_continuation3(spot, zero, cont, deal.names))
    for v in plain.strategy_sums:
        np.testing.assert_allclose(edged.strategy_sums[v], plain.strategy_sums[v], rtol=1e-12, atol=0)
    shares = plain.ending_shares()
    assert sum(shares.values()) == pytest.approx(1.0, abs=1e-9)
    # against a plain sum over every terminal and triple of classes
    g = plain.game
    r = g.reaches(plain.strategy)
    want = {0: 0.0, 1: 0.0, 2: 0.0}
    for v in tree.terminals():
        want[situation_kind(tree.situation(v)[0])] += float(np.einsum("abc,a,b,c->", g.weights, r[0, v], r[1, v],
                                                                      r[2, v]))
    assert shares == pytest.approx({"fold_end": want[0], "two_see_flop": want[1], "three_see_flop": want[2]},
                                   rel=1e-9)


def test_the_cli_adds_an_edge_table_three_handed_and_says_so(tmp_path, capsys):
    import json

    from analysis.cli import run

    argv = ["solve", "preflop", "--players", "3", "--boards", "200", "--deals", "1", "--raise-cap", "1", "-n", "10"]
    assert run(argv) == 0
    plain = capsys.readouterr().out
    _edges().assign(edge=0.0).drop(columns="state").to_csv(tmp_path / "zero.csv", index=False)
    (tmp_path / "zero.manifest.json").write_text(json.dumps({"deck": "reference", "state": "start", "chips": 1000}))
    assert run([*argv, "--postflop-edge", str(tmp_path / "zero.csv"), "--out", str(tmp_path / "out")]) == 0
    edged = capsys.readouterr().out
    assert f"postflop class edge where two see the flop, from {tmp_path / 'zero.csv'}" in edged
    assert edged.splitlines()[1:4] == plain.splitlines()[1:4]  # zero edges: the check-down's numbers
    manifest = json.loads((tmp_path / "out" / "preflop3_chart.manifest.json").read_text())
    assert manifest["postflop_edge"] == str(tmp_path / "zero.csv")
    # an edge of $50 out of position and -$100 in position: the values move
    _edges().assign(edge=lambda d: np.where(d["player"] == "oop", 50.0, -100.0)).drop(columns="state").to_csv(
        tmp_path / "zero.csv", index=False)
    assert run([*argv, "--postflop-edge", str(tmp_path / "zero.csv")]) == 0
    moved = capsys.readouterr().out
    values = [ln for ln in moved.splitlines() if ln.startswith("values a hand")]
    assert values and values != [ln for ln in plain.splitlines() if ln.startswith("values a hand")]
