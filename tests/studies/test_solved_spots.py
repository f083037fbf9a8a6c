"""The solved-spots aggregates against a second, independent sample of boards: the mean over one
sample lies within its stated standard error (4 combined) of the mean over the other; the batch
resumes without solving again. (The quick study end to end and its strategy browser:
``tests/guide/test_guide.py``.)"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from analysis.solvers.card_level import CardSolver, load_solution
from analysis.studies.solved_spots import (
    FAMILIES,
    GAME_STATES,
    Family,
    sample_boards,
    solve_family,
    spot_tables,
)


def _aggregate(folder, seed: int):
    family = FAMILIES[0]  # the river
    boards = sample_boards(family, 4, seed, "reference")
    paths = solve_family(folder, family, boards, GAME_STATES[:1], "reference", 2.0, 2000)
    free = spot_tables(paths, "reference")["spots_fold_or_check"]
    return boards, free.groupby("line")[["regret_fold", "regret_check", "checks"]].agg(["mean", "sem"])


def test_a_second_board_sample_agrees_within_the_stated_standard_error(tmp_path):
    boards_a, a = _aggregate(tmp_path / "a", 11)
    boards_b, b = _aggregate(tmp_path / "b", 12)
    assert not set(boards_a) & set(boards_b)  # independent samples
    for col in ("regret_fold", "regret_check", "checks"):
        diff = (a[(col, "mean")] - b[(col, "mean")]).abs()
        se = np.sqrt(a[(col, "sem")] ** 2 + b[(col, "sem")] ** 2)
        assert (diff <= 4 * se + 1e-9).all(), (col, diff.to_dict(), se.to_dict())
    assert (a[("regret_fold", "mean")] > 2 * a[("regret_fold", "sem")]).all()  # a river free fold clearly costs


# ----------------------------------------------------------------------------- three-handed (small case)

R_FIRST = "AsAh, 9d9c, 8d7d, 4d4c, 10s9s, 5c5s, 2c2h"
R_SECOND = "AhAd, 9h9s, 10c10h, 3c3s, 7c7s, 8s7s"
R_THIRD = "AdAc, 8c8h, 4s4h, 10h9h, 6h6s"
BOARD3 = "9d 10d 3h 3d 6s"  # no active effect card, corner penalty $40


def _three_handed(folder):
    from analysis.solvers.card_level import load_solution
    from analysis.studies.solved_spots import Family
    from analysis.studies.spot_questions import question_tables

    family = Family("3-river", 5, 60, 200, oop=R_FIRST, ip=R_SECOND, third=R_THIRD, players=3)
    paths = solve_family(folder, family, [BOARD3], GAME_STATES[:1], "reference", 1.0, 60)
    return load_solution(paths[0]), spot_tables(paths, "reference"), question_tables(paths, "reference", 0, 1, ())


def test_three_handed_tables_follow_the_rules_and_the_solution(tmp_path):
    """The 3-river rows on a small three-handed spot: seats and players still in, the free-fold
    shares recomputed from the solution's action values with weights summed triple by triple, and
    the cost of folding where RULES §1.4 fixes it (two river folders without a showdown split the
    penalty, rounded down to $10; a folder whose two opponents show down escapes it)."""
    sol, tables, questions = _three_handed(tmp_path)
    spots, free, facing = tables["spots"], tables["spots_fold_or_check"], questions["spots_facing_bet"]
    assert spots.iloc[0]["players"] == 3 and np.isfinite(spots.iloc[0]["ev_third"])
    assert spots.iloc[0]["nash_conv_pct_pot"] == spots.iloc[0]["exploitability_pct_pot"]  # NashConv, exact
    assert len(tables["spots_summary"]) == 0 and len(questions["spots_versus_models"]) == 0  # heads-up only
    root = free.set_index("line").loc["(root)"]
    assert (root["player"], root["others_in"]) == ("first", 2)
    assert set(free["player"]) <= {"first", "second", "third"} and set(free["others_in"]) == {1, 2}
    # the root's shares from the action values, weights over every triple of holdings
    labels, ev = sol.action_values(())
    combos = [sol.spot.holdings(p) for p in range(3)]
    w = np.array([wa * sum(wb * wc for b, wb in zip(*combos[1], strict=True) for c, wc in zip(*combos[2], strict=True)
                           if len({*a, *b, *c}) == 6) for a, wa in zip(*combos[0], strict=True)])
    gap = ev[labels.index("fold")] - ev[labels.index("check")]
    assert root["folds_for_free"] == pytest.approx((w * (gap > sol.tolerance)).sum() / w.sum(), abs=1e-12)
    assert root["fold_cost"] == pytest.approx(-(w * ev[labels.index("fold")]).sum() / w.sum(), abs=1e-9)
    bet = facing.set_index("line")
    assert (bet.loc["bet 60", "player"], bet.loc["bet 60", "others_in"], bet.loc["bet 60", "to_call"]) == (
        "second", 2, 60)
    assert bet.loc["fold / bet 60", "fold_cost"] == pytest.approx(20.0)  # $40 split by two folders
    assert bet.loc["bet 60 / fold / allin 200", "to_call"] == 140 and bet.loc["bet 60 / fold / allin 200",
                                                                                  "pot"] == 320
    assert abs(free.set_index("line").loc["check / check", "fold_cost"]) < 1e-9  # the other two show down
    assert "spots_by_texture" in tables


def test_three_handed_turn_rows_are_the_turns_decisions_and_follow_the_rules(tmp_path):
    """The 3-turn rows on a small three-handed turn spot (exact DCFR over every river card): one row
    per turn decision (none past the river card), and the cost of folding where RULES §1.4 fixes it: a
    turn folder is a loser only if the turn is the last betting round, so it escapes the penalty when
    the other two play on to the river and two turn folders split the turn board's penalty (rounded
    down to $10)."""
    from analysis.solvers.card_level import load_solution
    from analysis.studies.solved_spots import Family, browser_spot
    from analysis.studies.spot_questions import question_tables

    family = Family("3-turn", 4, 60, 200, oop=R_FIRST, ip=R_SECOND, third=R_THIRD, players=3, bets="100%",
                    method="dcfr", keep_solutions=False, versus_models=False)
    paths = solve_family(tmp_path, family, [BOARD3[:-3]], GAME_STATES[:1], "reference", 1.0, 300)
    sol = load_solution(paths[0])
    assert len(sol.spot.board) == 4 and sol.exploitability_pct <= 1.0 and sol.solver.method == "dcfr"
    tables, questions = spot_tables(paths, "reference"), question_tables(paths, "reference", 0, 1, ())
    free, facing = tables["spots_fold_or_check"].set_index("line"), questions["spots_facing_bet"].set_index("line")
    turn = {" / ".join(ln) or "(root)" for ln in sol.lines()}
    assert set(free.index) <= turn and set(facing.index) <= turn and len(facing)
    np.testing.assert_allclose(free[["folds_for_free", "checks", "indifferent"]].sum(axis=1), 1.0, atol=1e-9)
    penalty = int(tables["spots"].iloc[0]["corner_penalty"])
    split = penalty // 2 // 10 * 10
    assert abs(free.loc["check / check", "fold_cost"]) < 1e-9  # the other two play the river: it escapes
    assert free.loc["fold / check", "fold_cost"] == pytest.approx(split)  # the hand ends on the turn
    assert facing.loc["fold / bet 60", "fold_cost"] == pytest.approx(split)
    bet = facing.loc["check / bet 60"]
    assert (bet["player"], bet["others_in"], bet["to_call"], bet["pot"]) == ("third", 2, 60, 120)
    entry = browser_spot(sol, family, GAME_STATES[0])  # the browser shows the turn's decisions
    assert entry["board"] == BOARD3[:-3] and len(entry["lines"]) == len(sol.lines()) and entry["seats"] == 3
    _check_three_handed_browser_entry(sol, entry)


def _unpack(line: dict, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A browser decision's frequencies and EVs (float[actions, holdings], EV NaN where missing) and reach."""
    import base64

    from analysis.studies.solved_spots import EV_MISSING, EV_SCALE, FREQ_SCALE

    k = len(line["actions"])
    raw = {key: base64.b64decode(line[key]) for key in ("freq", "ev", "reach")}
    freq = np.frombuffer(raw["freq"], np.uint8).reshape(k, n) / FREQ_SCALE
    ev = np.frombuffer(raw["ev"], np.int16).reshape(k, n).astype(float)
    ev = np.where(ev == EV_MISSING, np.nan, ev / EV_SCALE)
    return freq, ev, np.frombuffer(raw["reach"], np.uint8) / 255


def _check_three_handed_browser_entry(sol, entry: dict) -> None:
    """Every decision of a three-handed browser entry unpacks to the solution's frequencies, action
    EVs and weights (within the packing's steps), with seat names and each actor's holdings."""
    from analysis.studies.made_hands import MADE_HANDS

    assert entry["seats"] == 3 and entry["seat_names"] == ["first", "second", "third"]
    lines = [tuple(ln) for ln in sol.first_street_lines()]
    assert [x["line"] for x in entry["lines"]] == [" / ".join(ln) or "(root)" for ln in lines]
    assert {x["player"] for x in entry["lines"]} == {0, 1, 2}
    for steps, line in zip(lines, entry["lines"], strict=True):
        v = sol.solver.node(steps)
        actor = int(sol.solver.tree.nodes[v, 1])
        names = sol.holding_names(actor)
        player = entry["players"][str(actor)]
        assert line["player"] == actor and player["holdings"] == names
        assert [MADE_HANDS[i] for i in player["made"]] == sol.groups_at(actor, v)["made_hand"]
        labels, ev = sol.action_values(steps)
        freq, shown_ev, reach = _unpack(line, len(names))
        assert line["actions"] == labels == list(sol.strategy(steps).columns)
        np.testing.assert_allclose(freq, sol.strategy(steps).to_numpy().T, atol=0.5 / 200 + 1e-12)
        np.testing.assert_array_equal(np.isnan(shown_ev), np.isnan(ev))
        np.testing.assert_allclose(shown_ev[~np.isnan(ev)], ev[~np.isnan(ev)], atol=0.05 + 1e-9)
        weights = sol.solver.holding_weights(v)
        top = weights.max()  # 0 at a decision the strategies never reach
        np.testing.assert_allclose(reach, weights / top if top > 0 else weights, atol=0.5 / 255 + 1e-12)


def test_three_handed_river_browser_data_is_the_solution(tmp_path):
    """The browser's entry for a three-handed river spot unpacks to the stored solution at every
    decision; the browser data lists every family with its number of players."""
    from analysis.studies.solved_spots import browser_data, browser_spots

    family = Family("3-river", 5, 60, 200, oop=R_FIRST, ip=R_SECOND, third=R_THIRD, players=3)
    paths = solve_family(tmp_path, family, [BOARD3], GAME_STATES[:1], "reference", 1.0, 60)
    data = browser_data(browser_spots(paths))
    assert len(data["spots"]) == 1 and data["spots"][0]["family"] == "3-river"
    _check_three_handed_browser_entry(load_solution(paths[0]), data["spots"][0])
    assert {name: f["players"] for name, f in data["families"].items()} == {f.name: f.players for f in FAMILIES}
    assert data["families"]["3-river"]["players"] == 3 and data["families"]["hu-river"]["players"] == 2


def test_street_state_and_the_weakest_tenth():
    from analysis.studies.solved_spots3 import street_state, weakest_mean

    assert street_state((), 60) == (0, [0, 0, 0], [False, False, False])
    assert street_state(("check", "bet 60", "fold"), 60) == (0, [0, 60, 0], [False, False, True])
    assert street_state(("fold", "bet 60", "allin 200"), 60) == (1, [0, 60, 200], [True, False, False])
    assert street_state(("bet 60", "call", "fold"), 60) == (0, [60, 60, 0], [False, False, True])
    values, scale = np.array([1.0, 2.0, 3.0, np.nan]), np.array([0.3, 0.1, 0.2, 0.0])
    assert weakest_mean(values, scale, np.array([1.0, 1.0, 8.0, 5.0])) == 2.0  # the weakest 10%: one holding
    assert weakest_mean(values, scale, np.array([1.0, 1.0, 1.0, 1.0]), 0.5) == 2.5


def test_by_texture_means_and_standard_errors():
    """Per texture: boards with and without it, the mean and the standard error across boards."""
    import pandas as pd

    from analysis.studies.solved_spots import by_texture

    boards = ["a", "b", "c"]
    spots = pd.DataFrame({"family": "f", "state": "start", "board": boards, "paired": [True, True, False],
                          "flush_possible": False, "straight_possible": True, "effect": ["none", "slump", "none"],
                          "corner_penalty": [40, 50, 60]})
    free = pd.DataFrame({"family": "f", "state": "start", "board": boards * 2, "line": ["(root)"] * 3 + ["x"] * 3,
                         "folds_for_free": [0.1, 0.3, 0.5, 9, 9, 9], "regret_fold": [1.0, 2.0, 3.0, 9, 9, 9],
                         "fold_cost": [40.0, 50.0, 60.0, 9, 9, 9]})
    table = by_texture(spots, free).set_index(["texture", "has"])
    paired = table.loc[("paired", True)]
    assert paired["boards"] == 2 and paired["folds_for_free"] == pytest.approx(0.2)
    assert paired["folds_for_free_se"] == pytest.approx(np.std([0.1, 0.3], ddof=1) / np.sqrt(2))
    assert table.loc[("paired", False), "boards"] == 1 and np.isnan(table.loc[("paired", False), "fold_cost_se"])
    assert table.loc[("effect card active", True), "regret_fold"] == 2.0
    assert table.loc[("penalty $50 or more", True), "fold_cost"] == 55.0
    assert table.loc[("flush possible", True), "boards"] == 0


def test_the_by_street_paragraph_states_each_streets_means():
    """The chapter's heads-up by-street answer: each street's root means (start state), the standard
    error of the regret across boards, nothing from another state or decision."""
    import pandas as pd

    from analysis.guide.sections import _free_fold_by_street

    rows = [("hu-flop", "start", "f1", "(root)", 0.2, 0.1, 3.0, 40.0),
            ("hu-flop", "start", "f2", "(root)", 0.4, 0.3, 5.0, 60.0),
            ("hu-flop", "start", "f1", "check", 0.9, 0.0, 9.0, 9.0),  # another decision
            ("hu-flop", "level2", "f1", "(root)", 0.9, 0.0, 9.0, 9.0),  # another state
            ("hu-river", "start", "r1", "(root)", 0.0, 0.05, 12.5, 50.0)]
    free = pd.DataFrame(rows, columns=["family", "state", "board", "line", "folds_for_free", "indifferent",
                                       "regret_fold", "fold_cost"])
    text = _free_fold_by_street(free)[0].text
    se = np.std([3.0, 5.0], ddof=1) / np.sqrt(2)
    assert (f"on the flop 30.0% folds for free and 20.0% is indifferent; folding costs $50.0 and its regret "
            f"against the best choice is $4.00 ± {se:.2f} a hand (2 boards)") in text
    assert "on the river 0.0% folds for free and 5.0% is indifferent; folding costs $50.0" in text
    assert "$12.50 a hand (1 board)" in text and "turn" not in text.split("):")[1].split(". A free")[0]
    assert _free_fold_by_street(free[free.family == "hu-flop"]) == []  # one street: nothing to compare


def test_a_game_state_for_each_blind_level():
    """The issue asks for each blind level: the states cover levels 1-3 (0-based 0, 1, 2), each a
    spot the solver builds with its bank and level."""
    levels = {s.level for s in GAME_STATES}
    assert levels == {0, 1, 2}
    for state in GAME_STATES:
        table = FAMILIES[0].spot("9d 10d 3h 3d 6s", state, "reference").describe()["table"]
        assert (tuple(table["bank"]), table["level"]) == (state.bank, state.level)


def test_an_interrupted_batch_resumes_without_solving_again(tmp_path):
    from analysis.solvers.card_level import load_solution, solve_spot

    family, states = FAMILIES[0], GAME_STATES[:1]
    boards = sample_boards(family, 2, 5, "reference")
    first = solve_family(tmp_path, family, boards[:1], states, "reference", 5.0, 200)  # "interrupted" after one
    stamp = first[0].stat().st_mtime_ns
    paths = solve_family(tmp_path, family, boards, states, "reference", 5.0, 200)
    assert paths[0] == first[0] and paths[0].stat().st_mtime_ns == stamp  # kept, not solved again
    paths[1].write_bytes(paths[1].read_bytes()[:100])  # a damaged file is solved again
    again = solve_family(tmp_path, family, boards, states, "reference", 5.0, 200)
    assert load_solution(again[1]).iterations > 0 and again[0].stat().st_mtime_ns == stamp
    assert sample_boards(family, 2, 5, "reference") == boards  # the sample is seeded
    loose = load_solution(again[0])
    tighter = solve_family(tmp_path, family, boards[:1], states, "reference", 1.0, 2000)  # a stricter target
    resumed = load_solution(tighter[0])
    assert resumed.iterations > loose.iterations and resumed.exploitability_pct <= 1.0
    direct = solve_spot(family.spot(boards[0], states[0], "reference"), target_pct=1.0, max_iterations=2000)
    assert direct.iterations == resumed.iterations  # solving on from the file is the same as solving at once
    np.testing.assert_array_equal(direct.solver.sums[0], resumed.solver.sums[0])


# ----------------------------------------------------------------------------- the flop (small case)


def test_a_flop_family_tabulates_every_flop_decision(tmp_path):
    """A heads-up flop family on small ranges: a free-fold row for every flop decision offering fold and
    check (shares summing to one, computed from the solution), facing-bet rows on strength, no solves
    against the models when the family asks for none, browser data per flop decision."""
    from analysis.solvers.card_level import load_solution
    from analysis.studies.solved_spots import (
        Family,
        browser_data,
        browser_spots,
        heads_up_free_rows,
    )
    from analysis.studies.spot_questions import question_tables

    family = Family("hu-flop", 3, 40, 200, oop=R_FIRST, ip=R_SECOND, bets="a", keep_solutions=False,
                    versus_models=False)  # all-in or check: a small flop tree
    paths = solve_family(tmp_path, family, ["9d 10d 3h"], GAME_STATES[:1], "reference", 2.0, 300)
    sol = load_solution(paths[0])
    assert sol.exploitability_pct <= 2.0 and len(sol.spot.board) == 3
    tables = spot_tables(paths, "reference")
    questions = question_tables(paths, "reference", 0, 1, ("threshold",))
    assert len(questions["spots_versus_models"]) == 0  # the family asks for no best responses to models
    free = tables["spots_fold_or_check"]
    assert free.to_dict("records") == [{"family": "hu-flop", "state": "start", "board": "9d 10d 3h", **row}
                                       for row in heads_up_free_rows(sol)]
    offering = [" / ".join(ln) or "(root)" for ln in sol.first_street_lines()
                if {"fold", "check"} <= {str(a).lower() for a in sol.strategy(ln).columns}]
    assert list(free["line"]) == offering and offering
    np.testing.assert_allclose(free[["folds_for_free", "checks", "indifferent"]].sum(axis=1), 1.0, atol=1e-9)
    facing = questions["spots_facing_bet"]
    assert len(facing) and set(facing["scale"]) == {"strength"}
    data = browser_data(browser_spots(paths))
    assert [x["line"] for x in data["spots"][0]["lines"]] == [" / ".join(ln) or "(root)"
                                                              for ln in sol.first_street_lines()]
    assert data["spots"][0]["family"] == "hu-flop" and "hu-flop" in data["families"]


# ----------------------------------------------------------------------------- the stated exploitability, node-locked
STORED = Path(__file__).resolve().parents[2] / "results" / "solved_spots"


@pytest.mark.parametrize("state, board", [("start", "5d 10c 7d 4h 9s"), ("bank3-low", "4h 8s 3c 3s 9c")])
def test_a_node_locked_best_response_to_a_stored_solution_gains_at_most_its_stated_exploitability(state, board):
    """Issue 19's proof on the committed guide's own solutions: lock one player to its stored
    strategy at every decision and let CFR re-solve the other (a route independent of the exact
    best-response walk). Each player's gain over its equilibrium EV is at most the spot's stated
    NashConv and their mean at most its stated exploitability; each equals the exact best
    response's gain within the locked solve's own residual."""
    equilibrium = load_solution(STORED / "solutions" / f"hu-river-{state}-{board.replace(' ', '')}.npz")
    spots = pd.read_parquet(STORED / "spots.parquet")
    row = spots[(spots.family == "hu-river") & (spots.state == state) & (spots.board == board)].iloc[0]
    pot = equilibrium.spot.pot
    assert equilibrium.exploitability_pct == pytest.approx(row.exploitability_pct_pot, abs=1e-9)
    ev = equilibrium.solver.expected_values()
    exact = equilibrium.solver.best_response_values() - ev  # the exact walk's gains
    target_pct = 0.005
    tol = 1e-4  # chips: a lock stores the strategy in the float32 sums (6e-8 relative, stakes up to $1,000)
    gains = []
    for seat in (0, 1):
        locked = CardSolver(equilibrium.spot, "dcfr", isomorphism=False)
        assert locked.tree.nodes.shape == equilibrium.solver.tree.nodes.shape
        locked.lock_everywhere(seat, equilibrium.solver.strategy)
        # with one player locked, the exploitability is half the free player's best-response gap
        gap = 2 * locked.run(target_pct=target_pct, max_iterations=5000)
        assert gap <= 2 * target_pct * pot / 100.0
        gain = locked.expected_values()[1 - seat] - ev[1 - seat]
        assert exact[1 - seat] - gap - tol <= gain <= exact[1 - seat] + tol
        gains.append(gain)
    assert min(gains) >= -tol
    assert max(gains) <= row.nash_conv_pct_pot * pot / 100.0 + tol
    assert sum(gains) / 2 <= row.exploitability_pct_pot * pot / 100.0 + tol
