"""The postflop edge (solved EV less check-down EV per holding) and the pre-flop chart that adds it to
the check-down: each piece against a plain recomputation."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from analysis.dilemma.decks import load_deck
from analysis.solvers.card_level import solve_spot
from analysis.solvers.card_level.card_spot import CardSpot
from analysis.solvers.preflop_hu.continuation import checkdown_continuation
from analysis.solvers.preflop_hu.solve import PreflopSpot, holding_class_names
from analysis.studies.postflop_value import (
    PostflopValueError,
    check_fits,
    class_edges,
    edge_spot,
    edged_continuation,
    load_class_edges,
    seat_edges,
    solve_edges,
    state_levels,
    with_postflop_edge,
)
from analysis.studies.preflop_chart import solve_chart, solve_played_chart, state_table
from analysis.studies.ranges import starting_classes
from evaluator.api import evaluate_batch

RIVER = "4s 9h 3d 6c 2d"


def test_holding_values_average_to_the_players_values():
    spot = CardSpot.from_options(game="dilemma", deck="reference", board=RIVER, pot=120, stack=940,
                                 bank="300,700,500", level=0, oop="random", ip="AA,1010,A9s,87o",
                                 bets="100%, a", raises="a")
    sol = solve_spot(spot, target_pct=1.0)
    for p, ((_, ev), w) in enumerate(zip(sol.holding_values(), sol.holding_chances(), strict=True)):
        assert len(w) == len(ev) and (w > 0).all()
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
    rows = pd.DataFrame({"state": "start", "level": 20, "board": ["a", "b", "c"], "player": "oop", "hand": "AA",
                         "holdings": [6, 3, 3], "edge": [1.0, 4.0, 7.0], "solved_ev": 0.0, "checkdown_ev": 0.0})
    c = class_edges(rows).iloc[0]
    assert c["edge"] == pytest.approx((6 + 12 + 21) / 12) and c["holdings"] == 12 and c["flops"] == 3
    # by hand: mean 3.25; sum of n^2 (m_f - mean)^2 = 182.25 + 5.0625 + 126.5625 = 313.875; x 3/2, root, / 12
    assert c["edge_se"] == pytest.approx(1.808185, abs=1e-6)
    s = seat_edges(rows).iloc[0]
    assert s["edge"] == pytest.approx(4.0) and s["edge_se"] == pytest.approx(3.0 / np.sqrt(3))


def test_the_edge_is_added_to_each_players_own_holding_at_its_level():
    table = state_table("start", "reference")
    cont = checkdown_continuation(table, (20, 60, 1000), 1000, boards=20)
    spec = load_deck("reference").spec
    hands = [c.name for c in starting_classes(spec)]
    bump = {h: 0.5 * k for k, h in enumerate(hands)}
    classes = pd.DataFrame([{"level": 60, "player": seat, "hand": h, "edge": bump[h] * (1 if seat == "oop" else -2)}
                            for seat in ("oop", "ip") for h in hands])
    out = with_postflop_edge(cont, classes, spec)
    own = np.array([bump[h] for h in holding_class_names(spec, cont.holdings)])
    ok = cont.compatible
    assert np.array_equal(out.values[[0, 2]], cont.values[[0, 2]])  # no edge at levels 20 and all in
    assert np.allclose(out.values[1, 0][ok], (cont.values[1, 0] + own[:, None])[ok])
    assert np.allclose(out.values[1, 1][ok], (cont.values[1, 1] - 2 * own[None, :])[ok])
    assert not out.values[:, :, ~ok].any()
    with pytest.raises(PostflopValueError, match="no edge for class"):
        with_postflop_edge(cont, classes[classes["hand"] != "AA"], spec)


def _zero_edges(tmp_path=None, state="start"):
    zero = pd.DataFrame([{"level": lv, "player": seat, "hand": c.name, "edge": 0.0} for lv in (20, 60, 180, 540)
                         for seat in ("oop", "ip") for c in starting_classes(load_deck("reference").spec)])
    if tmp_path is not None:
        zero.to_csv(tmp_path / "zero.csv", index=False)
        (tmp_path / "zero.manifest.json").write_text(json.dumps({"deck": "reference", "state": state,
                                                                 "chips": 1000}))
    return zero


def test_the_cli_adds_an_edge_table_and_says_so(tmp_path, capsys):
    from analysis.cli import run

    argv = ["solve", "preflop", "--boards", "20", "-n", "10"]
    assert run(argv) == 0
    plain = capsys.readouterr().out
    _zero_edges(tmp_path)
    assert run([*argv, "--postflop-edge", str(tmp_path / "zero.csv")]) == 0
    edged = capsys.readouterr().out
    assert f"plus each class's postflop edge from {tmp_path / 'zero.csv'} (start state)" in edged
    assert edged.splitlines()[1:] == plain.splitlines()[1:]  # zero edges: the check-down's numbers


@pytest.mark.parametrize("state", ["start", "bank3-low"])
def test_zero_edges_give_the_check_down_chart(state):
    zero = _zero_edges().assign(state=state)
    played, row, _ = solve_played_chart(zero, boards=40, max_iterations=30, target_chips=None, state=state)
    checkdown = solve_chart(state, "reference", 0, boards=40, target_chips=None, max_iterations=30).chart()
    assert np.allclose(played["frequency"].to_numpy(), checkdown["frequency"].to_numpy())
    assert row["continuation"] == "check-down + solved-flop edge" and row["iterations"] == 30
    assert row["state"] == state and set(played["state"]) == {state}


def test_a_table_is_refused_when_it_is_not_one_edge_per_level_seat_and_class(tmp_path):
    zero = _zero_edges(tmp_path)
    loaded = load_class_edges(tmp_path / "zero.csv")  # no state column: the manifest's state
    assert loaded.attrs["game"] == {"deck": "reference", "chips": 1000} and set(loaded["state"]) == {"start"}
    bad = {"seat": zero.assign(player=zero["player"].map({"oop": "big blind", "ip": "small blind"})),
           "per-flop": pd.concat([zero, zero]), "NaN": zero.assign(edge=np.nan),
           "one seat": zero[zero["player"] == "oop"], "text": zero.assign(edge="x")}
    why = {"seat": "seat 'big blind'", "per-flop": "more than one edge", "NaN": "every edge a number",
           "one seat": "has edges for oop only", "text": "every edge a number"}
    for case, frame in bad.items():
        frame.to_csv(tmp_path / "zero.csv", index=False)
        with pytest.raises(PostflopValueError, match=why[case]):
            load_class_edges(tmp_path / "zero.csv")
    zero.to_csv(tmp_path / "bare.csv", index=False)
    with pytest.raises(PostflopValueError, match="no manifest"):
        load_class_edges(tmp_path / "bare.csv")


def test_a_table_measured_in_another_game_is_refused(tmp_path):
    _zero_edges(tmp_path, state="bank3-low")
    edges = load_class_edges(tmp_path / "zero.csv")
    with pytest.raises(PostflopValueError, match="bank3-low state"):
        check_fits(PreflopSpot(state_table("start", "reference")), edges)
    assert check_fits(PreflopSpot(state_table("bank3-low", "reference")), edges) == (60, 180, 540, 1000)
    _zero_edges(tmp_path)
    with pytest.raises(PostflopValueError, match="bare deck"):
        check_fits(PreflopSpot(state_table("start", "bare")), load_class_edges(tmp_path / "zero.csv"))


def test_a_spot_file_of_another_spot_is_solved_again(edges, monkeypatch, tmp_path):
    import shutil

    import analysis.studies.postflop_value as pv

    folder, rows, _ = edges
    shutil.copytree(folder / "flops", tmp_path / "flops")
    path = tmp_path / "flops" / f"start-540-{RIVER.replace(' ', '')}.parquet"
    assert '"raises": "a"' in pd.read_parquet(path).attrs["key"]["spot"]
    monkeypatch.setattr(pv, "RAISES", "100%")  # the same file, another bet tree: solved again, not read back
    solve_edges(tmp_path, [RIVER], levels=(540,))  # (at $540 a raise is all-in either way: the same numbers)
    assert '"raises": "100%"' in pd.read_parquet(path).attrs["key"]["spot"]


def test_each_game_state_is_solved_at_the_levels_its_blinds_give():
    assert state_levels("start") == (20, 60, 180, 540)
    assert state_levels("level2") == (40, 120, 360)
    assert state_levels("bank3-low") == (60, 180, 540)
    spot = edge_spot(RIVER, 120, state="level2")
    assert spot.describe()["table"]["bank"] == [0, 350, 500] and spot.describe()["table"]["level"] == 1
    with pytest.raises(PostflopValueError, match="no game state"):
        edge_spot(RIVER, 120, state="level9")


def test_a_state_is_solved_at_its_own_levels_and_kept_apart(tmp_path):
    rows, spots = solve_edges(tmp_path, [RIVER], states=("bank3-low",))
    assert spots[["state", "level"]].values.tolist() == [["bank3-low", 60], ["bank3-low", 180], ["bank3-low", 540]]
    assert set(rows["state"]) == {"bank3-low"} and (spots["exploitability_chips"] <= 1.0 + 1e-9).all()
    # the same flop and level in the start state is another spot: its own settlement (blinds, bank caps)
    start, _ = solve_edges(tmp_path, [RIVER], levels=(60,))
    here = rows[rows["level"] == 60].drop(columns="state").reset_index(drop=True)
    assert not np.allclose(here["checkdown_ev"], start.drop(columns="state")["checkdown_ev"])
    assert sorted(p.name for p in (tmp_path / "flops").iterdir())[0].startswith("bank3-low-180-")
    classes = class_edges(pd.concat([rows, start]))
    assert len(classes.groupby(["state", "level"])) == 4 and set(seat_edges(rows)["state"]) == {"bank3-low"}


def _state_edges(tmp_path):
    """Edges in two states, each its own constant per seat, written with a manifest."""
    spec = load_deck("reference").spec
    rows = [{"state": state, "level": lv, "player": seat, "hand": c.name, "edge": bump * (1 if seat == "oop" else -1)}
            for state, levels, bump in (("start", (20, 60, 180, 540), 1.0), ("bank3-low", (60, 180, 540), 5.0))
            for lv in levels for seat in ("oop", "ip") for c in starting_classes(spec)]
    pd.DataFrame(rows).to_csv(tmp_path / "edges.csv", index=False)
    (tmp_path / "edges.manifest.json").write_text(json.dumps({"deck": "reference", "states": ["start", "bank3-low"],
                                                              "chips": 1000}))
    return load_class_edges(tmp_path / "edges.csv")


def test_a_spot_takes_the_edges_of_its_own_game_state(tmp_path):
    edges = _state_edges(tmp_path)
    for state, bump in (("start", 1.0), ("bank3-low", 5.0)):
        spot = PreflopSpot(state_table(state, "reference"), boards=20)
        down = checkdown_continuation(spot.table, check_fits(spot, edges), spot.chips, spot.boards, spot.seed)
        out = edged_continuation(spot, edges, down)
        ok = down.compatible
        played = [lv for lv, put in enumerate(down.levels) if put < spot.chips]
        assert np.allclose((out.values - down.values)[played, 0][:, ok], bump)
        assert np.allclose((out.values - down.values)[played, 1][:, ok], -bump)
    with pytest.raises(PostflopValueError, match=r"measured in the bank3-low, start states \(start: --bank "
                                                 r"300,700,500 --level 0; bank3-low: --bank 0,0,40 --level 2\); this spot "
                                                 r"is the reference deck, bank 0/350/500 \(--level 1\)"):
        check_fits(PreflopSpot(state_table("level2", "reference")), edges)
    spec = load_deck("reference").spec
    with pytest.raises(PostflopValueError, match="2 game states"):  # the rows of one state only
        with_postflop_edge(checkdown_continuation(state_table("start", "reference"), (20, 1000), 1000, boards=4),
                           edges, spec)
    bad = pd.read_csv(tmp_path / "edges.csv")
    bad.assign(state="middle").to_csv(tmp_path / "edges.csv", index=False)
    with pytest.raises(PostflopValueError, match="game state 'middle'"):
        load_class_edges(tmp_path / "edges.csv")
    _zero_edges(tmp_path, state="middle")  # no state column: the manifest names an unknown one
    with pytest.raises(PostflopValueError, match="manifest's state.*game state 'middle'"):
        load_class_edges(tmp_path / "zero.csv")
    (tmp_path / "zero.manifest.json").write_text(json.dumps({"deck": "reference", "states": ["start"],
                                                             "chips": 1000}))
    with pytest.raises(PostflopValueError, match="no state column, and its manifest"):
        load_class_edges(tmp_path / "zero.csv")


def test_the_range_check_plays_the_flop_with_the_charts_ranges(edges, tmp_path):
    from analysis.studies.postflop_value import range_check, range_check_summary, reach_range
    from analysis.studies.ranges import parse_range

    _, rows, _ = edges
    chart = solve_played_chart(_zero_edges(), boards=40, max_iterations=30, target_chips=None)[2]
    spec = load_deck("reference").spec
    bb, sb = chart.reach_at("raise 60 / call")
    text = reach_range(spec, chart.continuation.holdings, sb)
    parsed = parse_range(text, spec)
    kept = sb / sb.max() > 1e-6
    assert len(parsed) == kept.sum() and np.isclose(parsed.weights.max(), 1.0)
    assert np.allclose(np.sort(parsed.weights), np.sort(sb[kept] / sb.max()), atol=1e-6)
    out = range_check(tmp_path, chart, [RIVER], rows, lines=("raise 60 / call",))
    assert out[["line", "level", "player"]].values.tolist() == [["raise 60 / call", 60, "oop"],
                                                                ["raise 60 / call", 60, "ip"]]
    assert np.allclose(out["range_share"], [bb.mean(), sb.mean()])
    assert (out["exploitability_chips"] <= 1.0 + 1e-9).all()
    # each seat plays the flop with its own range: the big blind first (oop), the small blind last (ip)
    (saved,) = (tmp_path / "ranges").iterdir()
    described = json.loads(pd.read_parquet(saved).attrs["key"]["spot"])
    assert described["ranges"] == [reach_range(spec, chart.continuation.holdings, bb), text]
    import analysis.studies.postflop_value as pv

    def no_solve(*_, **__):
        raise AssertionError("solved again")

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(pv, "solve_spot", no_solve)
        again = range_check(tmp_path, chart, [RIVER], rows, lines=("raise 60 / call",))  # read back
    pd.testing.assert_frame_equal(again, out)
    # credited edges of one value per seat: the abstraction credits exactly that (and the file is not reused)
    flat = rows.assign(edge=np.where(rows["player"] == "oop", 5.0, -3.0))
    credited = range_check(tmp_path, chart, [RIVER], flat, lines=("raise 60 / call",))
    assert np.allclose(credited["abstraction_edge"], [5.0, -3.0])
    assert np.allclose(credited["consistent_edge"], out["consistent_edge"])
    summary = range_check_summary(pd.concat([out, out.assign(board="x", difference=out["difference"] + 2.0)]))
    assert summary["flops"].tolist() == [2, 2] and np.allclose(summary["difference_se"], 1.0)
