"""The end-game study (issue 19): game states that differ for real reasons, the pot and stack
sweep and boards per effect class, its tables recomputed on a small case, and its chapter."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from analysis.studies.end_game import (
    RIVER,
    STATES,
    Plan,
    answers,
    changes,
    class_boards,
    end_tables,
    first_bet,
    solve_jobs,
    sweep_families,
)
from analysis.studies.fold_vs_check.layout import BOARD_CLASSES
from analysis.studies.fold_vs_check.results import classify_board
from analysis.studies.solved_spots import FAMILIES, Family, GameState

STATE = {s.name: s for s in STATES}
BOARD = "5d 10c 7d 4h 9s"  # corner bonus $60, penalty $70, subsidy active
BANK1_LOW = GameState("bank1-low", (10, 700, 500), 0, "bank 1 at $10")


def test_the_pot_and_stack_follow_the_blind_level():
    """Each player is in one big blind: $20, $40, $60 from the same $1,000 (RULES §1.5 blinds), in
    the end-game and the solved-spots families; a family not told so keeps its pot."""
    got = {s.name: RIVER.pot_stack(s, "reference") for s in STATES}
    assert got == {"start": (40, 980), "level2": (80, 960), "level3": (120, 940), "bank3-100": (120, 940),
                   "bank3-low": (120, 940)}
    for s in STATES:
        table = RIVER.spot(BOARD, s, "reference").describe()
        assert (table["pot"], tuple(table["table"]["bank"]), table["table"]["level"]) == (
            got[s.name][0], s.bank, s.level)
        assert FAMILIES[0].pot_stack(s, "reference") == got[s.name]  # the solved-spots families too
        assert Family("fixed", 5, 40, 980).pot_stack(s, "reference") == (40, 980)  # unless told otherwise
    pots = {(f.pot, f.stack + f.pot // 2) for f in sweep_families()}
    assert pots == {(p, c) for p in (40, 120, 240) for c in (1000, 200)}


def test_bank1_low_is_the_start_spot_and_a_short_bank_3_is_not():
    """Why ``bank1-low`` is dropped: solved the same way, its values equal the start's exactly;
    the same pot and blinds with bank 3 at $40 instead of $500 (the bonus of $60 capped) differs, so the
    check can fail."""
    from analysis.solvers.card_level import solve_spot

    def ev(state: GameState) -> list[float]:
        sol = solve_spot(RIVER.spot(BOARD, state, "reference"), target_pct=1e-9, max_iterations=30)
        return [*sol.ev().values(), *np.nan_to_num(sol.action_values(())[1]).ravel()]

    assert ev(BANK1_LOW) == ev(STATE["start"])
    assert not np.allclose(ev(STATE["bank3-low"]), ev(STATE["level3"]))  # the same pot, bank 3 at $40 or $500


def test_boards_per_effect_class_are_of_their_class_and_seeded():
    from analysis.dilemma.decks import load_deck
    from evaluator.cards import parse_cards

    d = load_deck("reference")
    boards = class_boards(3, 5, "reference")
    assert list(boards) == list(BOARD_CLASSES) and boards == class_boards(3, 5, "reference")
    for cls, names in boards.items():
        assert len(set(names)) == 3
        for name in names:
            assert classify_board(parse_cards(name, d.spec), d) == cls
    assert class_boards(3, 6, "reference") != boards


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    """Six river spots: two boards in start, one in level3 and bank3-low, one of the sweep (a pot
    bigger than the stack), one effect board."""
    plan = Plan(target_pct=5.0, max_iterations=200)
    other = "9d 10d 3h 3d 6s"
    todo = [("states", RIVER, STATE["start"], BOARD), ("states", RIVER, STATE["start"], other),
            ("states", RIVER, STATE["bank3-low"], BOARD), ("states", RIVER, STATE["level3"], BOARD), ("sweep", sweep_families()[-1], STATE["start"], BOARD),
            ("effects", RIVER, STATE["start"], other)]
    folder = tmp_path_factory.mktemp("end_game")
    paths = solve_jobs(folder, todo, "reference", plan)
    tables = end_tables(todo, paths, "reference")
    tables["end_answers"], tables["end_state_changes"] = answers(tables), changes(tables)
    return folder, todo, paths, tables


def test_end_tables_and_answers_recomputed(small):
    from analysis.solvers.card_level import load_solution

    folder, todo, paths, tables = small
    spots, free, ans = tables["end_spots"], tables["end_fold_or_check"], tables["end_answers"]
    assert list(spots["pot"]) == [40, 40, 120, 120, 240, 40]
    assert list(spots["stack"]) == [980, 980, 940, 940, 80, 980]
    # the root's shares from the made-hand summary (another path through the solution)
    sol = load_solution(paths[0])
    summary = sol.summary((), "made_hand")
    bets = summary[summary.action.str.startswith(("bet", "allin"))]
    assert spots.loc[0, "root_bets"] == pytest.approx((bets.share * bets.frequency).sum(), abs=1e-9)
    assert (spots[["root_bets", "root_checks", "root_folds"]].sum(axis=1)).to_numpy() == pytest.approx(1.0)
    # the start group's means and standard errors over its two boards
    start = ans[(ans["sample"] == "states") & (ans["state"] == "start")].iloc[0]
    root = free[(free["sample"] == "states") & (free.state == "start") & (free.line == "(root)")]
    assert start["boards"] == 2 and start["effect"] == "all"
    assert start["regret_fold"] == pytest.approx(root["regret_fold"].mean())
    assert start["regret_fold_se"] == pytest.approx(root["regret_fold"].std(ddof=1) / np.sqrt(2))
    after = free[(free["sample"] == "states") & (free.state == "start") & (free.line == "check")]
    assert start["ip_regret_fold"] == pytest.approx(after["regret_fold"].mean())
    facing = tables["end_facing_bet"]
    bet = facing[(facing["sample"] == "states") & (facing.state == "start") & (facing.line == "bet 40")]
    assert len(bet) == 2 and start["call_calls"] == pytest.approx(bet["calls"].mean())
    # one board: no standard error; the effects sample is grouped by its class
    short = ans[ans.state == "bank3-low"].iloc[0]
    assert short["boards"] == 1 and np.isnan(short["regret_fold_se"]) and short["pot"] == 120
    assert set(ans[ans["sample"] == "effects"]["effect"]) == {spots.iloc[-1]["effect"]}
    # the opening bet: pot-sized, or all-in where the stack is below the pot
    opening = first_bet(facing).set_index(["sample", "state", "board"])["line"]
    assert opening[("states", "start", BOARD)] == "bet 40" and opening[("sweep", "start", BOARD)] == "allin 80"
    assert ans[ans["sample"] == "sweep"].iloc[0]["call_pot_odds"] == pytest.approx(80 / 400)
    # the short bank against bank 3 full, board by board
    change = tables["end_state_changes"].set_index(["state", "base"])
    one = change.loc[("bank3-low", "level3")]
    by = free[(free["sample"] == "states") & (free.line == "(root)") & (free.board == BOARD)].set_index("state")
    assert one["boards"] == 1 and one["regret_fold"] == pytest.approx(
        by.loc["bank3-low", "regret_fold"] - by.loc["level3", "regret_fold"])
    ev = spots[spots["sample"] == "states"].set_index(["state", "board"])["ev_oop"]
    assert one["ev_oop"] == pytest.approx(ev[("bank3-low", BOARD)] - ev[("level3", BOARD)])
    assert ("level2", "start") not in change.index  # no level2 spot: no comparison
    # a river free fold heads-up pays the board's penalty (less subsidy's $10 here)
    assert free.loc[(free.board == BOARD) & (free.line == "(root)"), "fold_cost"].iloc[0] == pytest.approx(60.0)


def test_the_chapter_reads_the_stored_tables(small, tmp_path):
    from analysis.guide.chapter_end_game import end_game

    _, _, _, tables = small
    for name, frame in tables.items():
        frame.to_csv(tmp_path / f"{name}.csv", index=False)
    info = {"manifest": {"family": RIVER.description, "deck": "reference", "seed": 0,
                         "states": {s.name: s.description for s in STATES},
                         "dropped_states": {"bank1-low": "it is the start spot"},
                         "plan": {"state_boards": 2, "sweep_boards": 1, "class_boards": 1}}}
    blocks = end_game(tmp_path, json.loads(json.dumps(info)))
    text = " ".join(b.text for b in blocks)
    ans = pd.read_csv(tmp_path / "end_answers.csv")
    start = ans[(ans["sample"] == "states") & (ans.state == "start")].iloc[0]
    assert "Not solved: `bank1-low`, because it is the start spot." in text
    table = next(b.frame for b in blocks if b.kind == "table")
    assert list(table["state"]) == ["start", "bank3-low", "level3"]
    assert table.iloc[0]["regret of folding $"] == f"{start.regret_fold:.1f} ± {start.regret_fold_se:.1f}"
    assert " nan" not in text


def test_the_second_board_sample_and_its_agreement():
    """The states are solved again on an independent sample (seed + 1); ``agreement`` sets the two
    samples' means side by side with the gap in combined standard errors."""
    from analysis.studies.end_game import SECOND, agreement, jobs, second_jobs

    plan = Plan(state_boards=3, sweep_boards=1, class_boards=1)
    first = {b for sample, _, _, b in jobs(plan, 0, "reference") if sample == "states"}
    second = second_jobs(plan, 0, "reference")
    assert {j[0] for j in second} == {SECOND} and {j[2].name for j in second} == {s.name for s in STATES}
    assert len({j[3] for j in second}) == 3 and not first & {j[3] for j in second}
    ans = pd.DataFrame([{"sample": "states", "state": "start", "boards": 3, "regret_fold": 80.0,
                         "regret_fold_se": 3.0},
                        {"sample": SECOND, "state": "start", "boards": 4, "regret_fold": 76.0,
                         "regret_fold_se": 4.0}])
    row = agreement(ans, values=("regret_fold",)).iloc[0]
    assert (row["state"], row["boards"], row["boards_second"]) == ("start", 3, 4)
    assert row["z"] == pytest.approx(4.0 / 5.0)
