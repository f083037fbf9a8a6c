"""The chart made consistent with its flops: line edges in the pre-flop solve, the flops of every line
solved with the chart's ranges, the residual a round measures, and the rounds themselves."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from analysis.dilemma.decks import load_deck
from analysis.solvers.preflop_hu.bet_tree import build_preflop_tree
from analysis.solvers.preflop_hu.continuation import checkdown_continuation
from analysis.solvers.preflop_hu.solve import (
    PreflopError,
    PreflopSpot,
    holding_class_names,
    solve_preflop,
)
from analysis.studies import consistent_chart as cc
from analysis.studies import postflop_value as pv
from analysis.studies.preflop_chart import solve_played_chart, state_table
from analysis.studies.ranges import starting_classes

RIVER = "4s 9h 3d 6c 2d"
SPEC = load_deck("reference").spec
CLASSES = [c.name for c in starting_classes(SPEC)]


def _spot(boards=40):
    return PreflopSpot(state_table("start", "reference"), boards=boards)


def _checkdown(spot):
    return checkdown_continuation(spot.table, tuple(build_preflop_tree(spot.tree_config).flop_levels()), spot.chips,
                                  spot.boards, spot.seed)


def _level_edges():
    """A different edge per level, seat and class."""
    return pd.DataFrame([{"state": "start", "level": lv, "player": seat, "hand": h,
                          "edge": (k % 7 - 3) * (1.5 if seat == "oop" else -0.5) + lv / 100}
                         for lv in (20, 60, 180, 540) for seat in pv.SEATS for k, h in enumerate(CLASSES)])


def test_line_edges_equal_to_the_level_edges_give_the_chart_with_the_edges_in_the_pair_values():
    """Two ways to add an edge: into every pair's value at a level (float32 matrices), or per own
    holding at each line's terminal times the opponent's compatible reach (float64): the same chart
    to float32's rounding."""
    spot = _spot()
    cd = _checkdown(spot)
    edges = _level_edges()
    baked = solve_preflop(spot, iterations=60, continuation=pv.with_postflop_edge(cd, edges, SPEC), check_every=60)
    per_line = pd.concat([edges[edges["level"] == lv].assign(line=line) for line, lv in cc.flop_lines(baked)])
    lined = solve_preflop(spot, iterations=60, continuation=cc.line_continuation(cd, per_line, SPEC), check_every=60)
    assert np.allclose(baked.values(), lined.values(), atol=1e-5)
    assert max(np.abs(baked.strategy(v) - lined.strategy(v)).max() for v in baked.strategy_sums) < 1e-4
    assert sorted(lined.continuation.line_edges) == sorted(line for line, _ in cc.flop_lines(baked))
    # every line needs its edge: one left out would be played as a check-down, unsaid
    one = per_line[per_line["line"] == "raise 60 / call"]
    with pytest.raises(PreflopError, match="the continuation has line edges but none for 'call / check'"):
        solve_preflop(spot, iterations=1, continuation=cc.line_continuation(cd, one, SPEC))


def test_the_compatible_mass_counts_the_opponents_holdings_that_share_no_card():
    spot = _spot()
    sol = solve_preflop(spot, iterations=1, continuation=_checkdown(spot))
    reach = np.random.default_rng(3).random(sol.game.h)
    brute = (sol.continuation.compatible * reach[None, :]).sum(axis=1)
    assert np.allclose(sol.game.compatible_mass(reach), brute)


def test_line_edges_must_name_lines_of_the_tree_and_every_class():
    spot = _spot()
    cd = _checkdown(spot)
    rows = pd.DataFrame([{"line": "call / check", "level": 20, "player": seat, "hand": h, "edge": 1.0}
                         for seat in pv.SEATS for h in CLASSES])
    with pytest.raises(PreflopError, match="'call / fold', not a line of this tree"):
        solve_preflop(spot, iterations=1, continuation=cc.line_continuation(cd, rows.assign(line="call / fold"), SPEC))
    with pytest.raises(pv.PostflopValueError, match="no edge for class AA"):
        cc.line_continuation(cd, rows[rows["hand"] != "AA"], SPEC)
    every = pd.concat([rows.assign(line=line) for line, _ in cc.flop_lines(solve_preflop(spot, iterations=1,
                                                                                          continuation=cd))])
    every.attrs["game"] = {"deck": "reference", "chips": 1000, "state": "start"}
    assert cc.check_line_fits(spot, every) == cd.levels
    short = every[(every["hand"] != "AA") | (every["player"] == "oop")]
    short.attrs = every.attrs
    with pytest.raises(pv.PostflopValueError, match="call / check, ip: no edge for class AA"):
        cc.check_line_fits(spot, short)  # (before the check-down is computed: the CLI's one line up front)


@pytest.fixture(scope="module")
def chart():
    zero = pd.DataFrame([{"level": lv, "player": seat, "hand": h, "edge": 0.0} for lv in (20, 60, 180, 540)
                         for seat in pv.SEATS for h in CLASSES])
    return solve_played_chart(zero, boards=40, max_iterations=30, target_chips=None)[2]


@pytest.fixture(scope="module")
def lines(chart, tmp_path_factory):
    folder = tmp_path_factory.mktemp("lines")
    return folder, *cc.solve_line_edges(folder, chart, [RIVER])


def test_every_line_that_sees_the_flop_is_solved_with_the_ranges_the_chart_leaves(chart, lines):
    folder, rows, spots = lines
    assert sorted(spots["line"]) == sorted(line for line, _ in cc.flop_lines(chart)) and len(spots) == 7
    assert spots["probability"].is_monotonic_decreasing  # the likeliest lines first
    assert (spots["exploitability_chips"] <= 1.0 + 1e-9).all()
    for s in spots.itertuples():
        bb, sb = chart.reach_at(s.line)
        assert (s.range_oop, s.range_ip) == pytest.approx((bb.mean(), sb.mean()))
        # the spot file's key is the spot with those ranges: every holding, at FLOOR of the largest at least
        spot = pv.edge_spot(RIVER, s.level, ranges=tuple(pv.reach_range(SPEC, chart.continuation.holdings, r,
                                                                          least=cc.FLOOR) for r in (bb, sb)))
        for r in spot.ranges:
            assert len(r) == len(chart.continuation.holdings) and r.weights.min() / r.weights.max() >= cc.FLOOR - 1e-6
        for seat in pv.SEATS:
            g = rows[(rows["line"] == s.line) & (rows["player"] == seat)]
            # classes cover every holding the river leaves, 35 cards (none dropped for a small weight)
            assert g["holdings"].sum() == 35 * 34 // 2
            assert np.allclose(g["edge"], g["solved_ev"] - g["checkdown_ev"])
    assert len(list(folder.iterdir())) == 7

    def no_solve(*_, **__):
        raise AssertionError("solved again")

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(pv, "solve_spot", no_solve)
        again, spots2 = cc.solve_line_edges(folder, chart, [RIVER])
    pd.testing.assert_frame_equal(again, rows)
    pd.testing.assert_frame_equal(spots2, spots)


def test_the_residual_weighs_the_credited_edges_by_each_class_chance(lines):
    _, rows, spots = lines
    flat = rows.assign(edge=np.where(rows["player"] == "oop", 5.0, -3.0))
    res = cc.residual(spots, rows, flat)
    assert np.allclose(res["credited_edge"], np.where(res["player"] == "oop", 5.0, -3.0))
    for r in res.itertuples():
        s = spots[spots["line"] == r.line].iloc[0]
        assert r.consistent_edge == pytest.approx(s[f"ev_{r.player}"] - s[f"checkdown_ev_{r.player}"])
    # credited by the spot's own class edges: the chance-weighted mean of the class edges
    own = cc.residual(spots, rows, rows)
    for r in own.itertuples():
        g = rows[(rows["line"] == r.line) & (rows["player"] == r.player)]
        assert r.credited_edge == pytest.approx((g["chance"] * g["edge"]).sum() / g["chance"].sum())
    with pytest.raises(pv.PostflopValueError, match="more than one edge for a flop, seat and class"):
        cc.residual(spots, rows, pd.concat([flat, flat.head(1)]))
    # the level's edges credit every line of the level alike
    by_level = rows.drop(columns="line").drop_duplicates(["level", "board", "player", "hand"])
    lv = cc.residual(spots, rows, by_level.assign(edge=by_level["level"] / 10.0))
    assert np.allclose(lv["credited_edge"], lv["level"] / 10.0)


def test_a_chart_that_does_not_change_has_not_moved(chart):
    assert cc.chart_movement(chart, chart) == {"move_first": 0.0, "move_all": 0.0}


def test_each_round_is_solved_with_the_previous_rounds_line_edges(tmp_path, monkeypatch):
    random = _level_edges()
    flops = pd.DataFrame([{"state": "start", "level": lv, "board": RIVER, "player": seat, "hand": h, "edge": 0.0}
                          for lv in (20, 60, 180, 540) for seat in pv.SEATS for h in CLASSES])
    monkeypatch.setattr(cc, "CHART_MAX_ITERATIONS", 40)
    seen = []
    solve = cc.solve_line_edges

    def record(*args, **kwargs):
        seen.append(solve(*args, **kwargs))
        return seen[-1]

    monkeypatch.setattr(cc, "solve_line_edges", record)
    out = cc.consistent_rounds(tmp_path, random, flops, [RIVER], rounds=2, chart_boards=40)
    sols, edges, res = out["solutions"], out["edges"], out["residual"]
    assert out["summary"]["round"].tolist() == [0, 1, 2] and len(sols) == 3
    assert sols[0].continuation.line_edges == {}  # round 0: the level edges, in the pair values
    for k in (1, 2):
        classes = edges[edges["round"] == k]
        hand = holding_class_names(SPEC, sols[k].continuation.holdings)
        for line, e in sols[k].continuation.line_edges.items():
            oop = classes[(classes["line"] == line) & (classes["player"] == "oop")].set_index("hand")["edge"]
            assert np.allclose(e[0], oop.reindex(hand).to_numpy())
    # round 2 credits round 1's chart with round 1's per-flop line edges; round 1 credited round 0 with zeros
    assert np.allclose(res.loc[res["round"] == 1, "credited_edge"], 0.0)
    (rows1, _), (rows2, spots2) = seen
    pd.testing.assert_frame_equal(out["flops"], pd.concat([rows1.assign(round=1), rows2.assign(round=2)],
                                                          ignore_index=True))
    second = res[res["round"] == 2].reset_index(drop=True)
    assert np.allclose(second["credited_edge"], cc.residual(spots2, rows2, rows1)["credited_edge"])
    assert not np.allclose(second["credited_edge"], 0.0)
    # round 2's chart is solved with the mean of both rounds' measured edges
    one, two = (edges[edges["round"] == k].set_index(["line", "player", "hand"]) for k in (1, 2))
    assert np.allclose(one["edge"], one["measured"])
    assert np.allclose(two["edge"], (one["measured"] + two["measured"].reindex(one.index)) / 2)
    # rounds 1 and 2: the check-down values and the line edges, no level edge counted twice
    checkdown = _checkdown(_spot())
    for sol in sols[1:]:
        assert np.array_equal(sol.continuation.values, checkdown.values)
    assert len(list((tmp_path / "round1").iterdir())) == 7 and len(list((tmp_path / "round2").iterdir())) == 7
    # a later run seeds its rounds from these tables (the round folders are gone): nothing is solved again
    assert out["spots"]["key"].str.len().eq(64).all()

    def no_solve(*_, **__):
        raise AssertionError("solved again")

    monkeypatch.setattr(pv, "solve_spot", no_solve)
    again = cc.consistent_rounds(tmp_path / "later", random, flops, [RIVER], rounds=2, chart_boards=40,
                                 stored=(out["flops"], out["spots"]))
    for name in ("summary", "edges", "residual", "spots", "flops"):
        pd.testing.assert_frame_equal(again[name], out[name])
    assert cc.seed_round(tmp_path / "later" / "round1", (out["flops"], out["spots"][out["spots"]["round"] == 1]),
                         (pv.TARGET_CHIPS, pv.MAX_ITERATIONS)) == 0  # (files already there are kept)
    assert (out["summary"].loc[1:, "move_all"] >= 0).all()


def _line_table(folder, lines, rounds=(1, 2), state="start", name="lines.csv"):
    rows = pd.DataFrame([{"round": k, "line": line, "level": 20, "player": seat, "hand": h,
                          "edge": 0.0 if k == max(rounds) else 50.0}
                         for k in rounds for line in lines for seat in pv.SEATS for h in CLASSES])
    rows.to_csv(folder / name, index=False)
    (folder / name.replace(".csv", ".manifest.json")).write_text(
        f'{{"deck": "reference", "chips": 1000, "state": "{state}"}}')
    return folder / name


def test_the_cli_solves_the_chart_with_the_last_rounds_line_edges(chart, tmp_path, capsys):
    from analysis.cli import run

    lines = [line for line, _ in cc.flop_lines(chart)]
    argv = ["solve", "preflop", "--boards", "20", "-n", "10"]
    assert run(argv) == 0
    plain = capsys.readouterr().out
    path = _line_table(tmp_path, lines)  # round 1's 50-chip edges are not read: the last round's are zero
    assert cc.is_line_table(path) and not cc.is_line_table(tmp_path / "nothing.csv")
    assert run([*argv, "--postflop-edge", str(path)]) == 0
    edged = capsys.readouterr().out
    assert f"plus each class's postflop edge per line from {path} (start state)" in edged
    assert edged.splitlines()[1:] == plain.splitlines()[1:]
    short = _line_table(tmp_path, lines[:-1], name="short.csv")
    assert run([*argv, "--postflop-edge", str(short)]) == 2
    assert capsys.readouterr().err.strip() == f"error: the line edges lack the line {lines[-1]!r} (this tree's raise " \
                                             "sizes or chips differ from the table's)"
    assert run([*argv, "--postflop-edge", str(path), "--bank", "0,0,40", "--level", "2"]) == 2
    assert "in the start state; this spot is the reference deck, bank 0/0/40" in capsys.readouterr().err


def test_a_line_table_is_refused_when_it_is_not_one_edge_per_line_seat_and_class(tmp_path):
    path = _line_table(tmp_path, ["call / check"], rounds=(1,))
    assert len(cc.load_line_edges(path)) == 2 * len(CLASSES)
    frame = pd.read_csv(path)
    pd.concat([frame, frame.head(1)]).to_csv(path, index=False)
    with pytest.raises(pv.PostflopValueError, match="more than one edge for a line, seat and class"):
        cc.load_line_edges(path)
    frame[frame["player"] == "oop"].to_csv(path, index=False)
    with pytest.raises(pv.PostflopValueError, match="line 'call / check' has edges for oop only"):
        cc.load_line_edges(path)
    frame.assign(round=np.where(frame.index == 3, np.nan, 1.0)).to_csv(path, index=False)
    with pytest.raises(pv.PostflopValueError, match="every round must be a whole number"):
        cc.load_line_edges(path)
    frame.drop(columns="line").to_csv(path, index=False)
    with pytest.raises(pv.PostflopValueError, match="not a line-edge table"):
        cc.load_line_edges(path)
    frame.to_csv(path, index=False)
    (tmp_path / "lines.manifest.json").unlink()
    with pytest.raises(pv.PostflopValueError, match="no manifest beside it"):
        cc.load_line_edges(path)


def test_a_changed_chart_is_solved_again(lines, monkeypatch):
    folder, _, _ = lines
    other = solve_played_chart(pd.DataFrame([{"level": lv, "player": s, "hand": h, "edge": 1.0}
                                             for lv in (20, 60, 180, 540) for s in pv.SEATS for h in CLASSES]),
                               boards=40, max_iterations=20, target_chips=None)[2]

    def no_solve(*_, **__):
        raise RuntimeError("solved again")

    monkeypatch.setattr(pv, "solve_spot", no_solve)
    with pytest.raises(RuntimeError, match="solved again"):
        cc.solve_line_edges(folder, other, [RIVER])


def test_line_ranges_keep_every_holding_and_weigh_each_line_by_the_pairs_that_reach_it(chart):
    held = chart.continuation.holdings
    compatible = ~(held[:, None, :, None] == held[None, :, None, :]).any(axis=(2, 3))
    total = 0.0
    for line, info in cc.line_ranges(chart, "reference").items():
        r0, r1 = chart.reach_at(line)
        assert info["probability"] == pytest.approx((np.outer(r0, r1) * compatible).sum() / compatible.sum())
        total += info["probability"]
        for text in info["ranges"]:
            w = np.array([float(x.split(":")[1]) for x in text.split(", ")])
            assert len(w) == len(held) and w.min() >= cc.FLOOR - 1e-9 and w.max() == 1.0
    assert 0.0 < total < 1.0  # (the rest: folds and all-ins)


def test_a_line_the_chart_never_reaches_is_not_solved_and_keeps_its_earlier_edges(chart, lines, monkeypatch):
    folder, rows, _ = lines
    reach_at = chart.reach_at

    def never(line):
        r0, r1 = reach_at(line)
        return (r0, 0.0 * r1) if line == "raise 60 / call" else (r0, r1)

    monkeypatch.setattr(chart, "reach_at", never)
    info = cc.line_ranges(chart, "reference")
    assert info["raise 60 / call"]["ranges"] is None and info["raise 60 / call"]["probability"] == 0.0
    again, spots = cc.solve_line_edges(folder, chart, [RIVER])  # (the other lines resume from their files)
    assert "raise 60 / call" not in set(spots["line"]) and len(spots) == 6
    # averaged with an earlier round that measured it, every line keeps an edge
    both = cc.averaged([rows, again])
    assert set(both["line"]) == set(rows["line"])
    kept = both[both["line"] == "raise 60 / call"].reset_index(drop=True)
    assert np.allclose(kept["edge"], rows[rows["line"] == "raise 60 / call"]["edge"])
