"""RULES §1.8: one test per worked example, through the readable path and the numba core.

Stacks in the examples are chips *behind* after the betting, ``in`` what each
player put in the pot. The default board is ``4s 9h 3d 6c 10s``: flop bonus 40,
penalty 20; river bonus 70, penalty 50 (corners of §1.7). Examples A-H use the
``plain`` deck, the effect examples the ``reference`` deck.
"""

from __future__ import annotations

import json

import pytest

from analysis.dilemma.settlement import (
    HandState,
    PlayerState,
    Rules,
    check_expected,
    load_hand_record,
    settle,
    settle_fast,
    settle_record,
)
from analysis.dilemma.settlement import layout as L
from evaluator import parse_cards
from tests.conftest import ROOT

BOARD = "4s 9h 3d 6c 10s"
FLOP, TURN, RIVER, PREFLOP = 1, 2, 3, 0
EXAMPLES_DIR = ROOT / "examples"


def seat(name, stack, put_in, folded=None, hole=None, conceded=False):
    return PlayerState(
        name, stack, put_in, folded, tuple(parse_cards(hole)) if hole else (), conceded
    )


def state(players, board=BOARD, bank=(300, 700, 500), level=0, last=None):
    return HandState(
        players=tuple(players),
        board=tuple(parse_cards(board)),
        bank=bank,
        blind_level=level,
        last_round=last,
    )


def check(st, deck, stacks, bank, *, level=None, game_over=False, bankrupt=()):
    """Settle with both paths and compare with the example's published result."""
    result = settle(st, deck)
    assert result.stacks == tuple(stacks), result.to_text()
    assert result.bank == tuple(bank), result.to_text()
    assert result.game_over == game_over, result.to_text()
    assert tuple(result.names[i] for i in result.bankrupt) == tuple(bankrupt)
    if level is not None:
        assert result.blind_level == level
    fast = settle_fast(st, deck)
    assert fast["stacks"] == result.stacks
    assert fast["bank"] == result.bank
    assert fast["blind_level"] == result.blind_level
    assert fast["flags"] == result.flags
    assert st.total_money == sum(result.stacks) + sum(result.bank)
    return result


# ---------------------------------------------------------------- examples A-H (plain deck)


def test_example_A_heads_up_flop_fold_pays_the_flop_penalty():
    # P2 folds on the flop with nobody betting: the hand ends, P2 pays the 3-card penalty 20,
    # P1 takes the pot 40 and the flop bonus 40.  980+40+40 = 1060; 980-20 = 960; 300+20-40 = 280.
    st = state([seat("P1", 980, 20), seat("P2", 980, 20, FLOP, "2d 7c")], board="4s 9h 3d")
    r = check(st, "plain", [1060, 960], [280, 700, 500])
    assert r.totals["penalty"] == 20 and r.totals["bonus"] == 40


def test_example_B_multiway_flop_folder_escapes_when_the_hand_goes_on():
    # P2 folded on the flop, the hand went on to the river: only P1 (river participant) pays 50.
    # P3's straight (6-10) wins: 980+60+70 = 1110; P1 980-50 = 930; bank 300+50-70 = 280.
    st = state(
        [
            seat("P1", 980, 20, None, "As Ah"),
            seat("P2", 980, 20, FLOP),
            seat("P3", 980, 20, None, "7d 8d"),
        ]
    )
    check(st, "plain", [930, 980, 1110], [280, 700, 500])


def test_example_C_river_exception_only_the_showdown_loser_pays():
    # River: P2 bets 40, P1 and P3 fold, P4 calls; P2's straight beats P4's aces.
    # Non-winning river participants: P1, P3 (folded) and P4 (showdown loser): only P4 pays 50.
    # P2 940+160+70 = 1170; P4 940-50 = 890; bank 300+50-70 = 280.
    st = state(
        [
            seat("P1", 980, 20, RIVER),
            seat("P2", 940, 60, None, "7d 8d"),
            seat("P3", 980, 20, RIVER),
            seat("P4", 940, 60, None, "As Ah"),
        ]
    )
    r = check(st, "plain", [980, 1170, 980, 890], [280, 700, 500])
    assert r.flags & L.F_RIVER_EXCEPTION


def test_example_D_no_showdown_three_losers_split_with_truncation():
    # As C but P4 folds too: P2 wins without showdown (its uncalled 40 comes back in the pot).
    # Losers P1, P3, P4 share 50: floor(50/3/10)*10 = 10 each (30 paid, the 20 left is not owed).
    # P2 940+120+70 = 1130; others 980-10 = 970; bank 300+30-70 = 260.
    st = state(
        [
            seat("P1", 980, 20, RIVER),
            seat("P2", 940, 60, None, "7d 8d"),
            seat("P3", 980, 20, RIVER),
            seat("P4", 980, 20, RIVER),
        ]
    )
    r = check(st, "plain", [970, 1130, 970, 970], [260, 700, 500])
    assert not r.flags & L.F_RIVER_EXCEPTION and r.totals["penalty_paid"] == 30


def test_example_E_tie_with_remainders_to_the_bank_and_no_penalty():
    # P2 folded pre-flop after posting 10. P1 and P3 tie with the same straight (6-10):
    # pot 50 -> 20 each, 10 to the bank; bonus 70 -> 30 each, 10 stays; full tie: no penalty.
    # 980+20+30 = 1030 each; bank 300+10-60 = 250.
    st = state(
        [
            seat("P1", 980, 20, None, "7d 8d"),
            seat("P2", 990, 10, PREFLOP),
            seat("P3", 980, 20, None, "7h 8h"),
        ]
    )
    r = check(st, "plain", [1030, 990, 1030], [250, 700, 500])
    assert (
        r.totals["pot_remainder"] == 10
        and r.totals["penalty"] == 50
        and r.totals["penalty_paid"] == 0
    )


def test_example_F_bankrupt_loser_pays_what_they_have_and_the_game_ends():
    # P2 has 10 behind and owes 50: pays 10 and is bankrupt; one player left, the game ends.
    # P1 980+40+70 = 1090; bank 300+10-70 = 240.
    st = state([seat("P1", 980, 20, None, "7d 8d"), seat("P2", 10, 20, None, "As Ah")])
    check(st, "plain", [1090, 0], [240, 700, 500], game_over=True, bankrupt=("P2",))


def test_example_G_bank_tier_crossing_raises_the_blinds():
    # Bank 10/700/500: the penalty 50 goes into bank 1 (60); the bonus 70 is drawn 60 from bank 1
    # and 10 from bank 2 -> 0/690/500. Bank 1 is empty for the first time: blinds 20/40.
    st = state(
        [seat("P1", 980, 20, None, "7d 8d"), seat("P2", 980, 20, None, "As Ah")],
        bank=(10, 700, 500),
    )
    r = check(st, "plain", [1090, 930], [0, 690, 500], level=1)
    assert r.flags & L.F_BLINDS_UP and r.blinds == (20, 40)
    bonus = r.steps[5].transfers
    assert bonus[0].tiers == (60, 10, 0)


def test_example_H_bank_runs_dry_short_bonus_ends_the_game():
    # Bank 0/0/10 (banks 1 and 2 were emptied earlier: blinds already 30/60). The penalty 50
    # goes into bank 3 (60); the bonus 70 is paid short: 60. The game ends.
    st = state(
        [seat("P1", 980, 20, None, "7d 8d"), seat("P2", 980, 20, None, "As Ah")],
        bank=(0, 0, 10),
        level=2,
    )
    r = check(st, "plain", [1080, 930], [0, 0, 0], level=2, game_over=True)
    assert r.flags & L.F_SHORT and r.flags & L.F_BANK_EMPTY and r.totals["bonus_paid"] == 60


# ---------------------------------------------------------------- effect examples (reference deck)
# Heads-up, both in 20 with 980 behind, showdown on the river.


def heads_up(board, p1, p2):
    return state([seat("P1", 980, 20, None, p1), seat("P2", 980, 20, None, p2)], board=board)


def test_effect_dividend_winner_draws_30():
    # Board bonus 70, penalty 60. P1 (As 7d, 7-high straight) wins and holds dividend 30.
    # P1 980+40+30+70 = 1120; P2 980-60 = 920; bank 300-30+60-70 = 260.
    check(heads_up("4s 9h 3d 6c 5d", "As 7d", "2c 3c"), "reference", [1120, 920], [260, 700, 500])


def test_effect_insurance_loser_pays_nothing():
    # P2 holds insurance (2s): no penalty. P1 980+40+70 = 1090; P2 980; bank 300-70 = 230.
    check(heads_up("4s 9h 3d 6c 5d", "7d 8d", "2s 3c"), "reference", [1090, 980], [230, 700, 500])


def test_effect_boom_doubles_the_bonus():
    # 7s (blue boom 2) on the flop: bonus 90 x 2 = 180; penalty 60.
    # P1 980+40+180 = 1200; P2 920; bank 300+60-180 = 180.
    check(heads_up("4s 9h 7s 6c 5d", "8d 8c", "2c 3c"), "reference", [1200, 920], [180, 700, 500])


def test_effect_slump_doubles_the_penalty():
    # 7h (blue slump 2): penalty 70 x 2 = 140; bonus 70.
    # P1 980+40+70 = 1090; P2 980-140 = 840; bank 300+140-70 = 370.
    check(heads_up("4s 9h 7h 6c 5d", "8d 8c", "2c 3c"), "reference", [1090, 840], [370, 700, 500])


def test_effect_levy_winner_pays_20():
    # 8s (blue levy 20): the winner pays 20 in step 3; penalty 50, bonus 70.
    # P1 980+40-20+70 = 1070; P2 980-50 = 930; bank 300+20+50-70 = 300.
    check(heads_up("4s 9h 8s 6c 5d", "7d 7c", "2c 3c"), "reference", [1070, 930], [300, 700, 500])


def test_effect_rebate_penalty_goes_to_the_winner():
    # 8h (blue rebate): the penalty 60 goes to P1; bonus 80.
    # P1 980+40+60+80 = 1160; P2 920; bank 300-80 = 220.
    check(heads_up("4s 9h 8h 6c 5d", "7d 7c", "2c 3c"), "reference", [1160, 920], [220, 700, 500])


def test_effect_subsidy_loser_receives_10():
    # 9s (blue subsidy 10): P2's 2-6 straight wins; loser P1 gets 10, pays the penalty 70; bonus 80.
    # P1 980+10-70 = 920; P2 980+40+80 = 1100; bank 300-10+70-80 = 280.
    check(heads_up("4s 9h 9s 6c 5d", "7d 7c", "2c 3c"), "reference", [920, 1100], [280, 700, 500])


def test_effect_crash_on_the_turn_every_participant_pays_50():
    # 10s (red crash 50) dealt on the turn: active. P2 (pair of 3s) wins. Both pay 50;
    # penalty 50, bonus 80. P1 980-50-50 = 880; P2 980+40-50+80 = 1050; bank 300+100+50-80 = 370.
    r = check(
        heads_up("4s 9h 3d 10s 5d", "7d 8d", "2c 3c"), "reference", [880, 1050], [370, 700, 500]
    )
    assert r.state.board_streets[3] == TURN


def test_effect_crash_on_the_flop_is_inactive():
    # 10s in the flop: red cards act only from the turn on. Penalty 60, bonus 70.
    # P1 980+40+70 = 1090; P2 920; bank 300+60-70 = 290.
    r = check(
        heads_up("10s 9h 3d 6c 5d", "7d 8d", "2c 3c"), "reference", [1090, 920], [290, 700, 500]
    )
    assert r.totals["active_ops"] == 0


def test_effect_bubble_on_the_river_triples_the_bonus():
    # 10h (red bubble 3) on the river: bonus 50 x 3 = 150; penalty 60.
    # P1 980+40+150 = 1170; P2 920; bank 300+60-150 = 210.
    check(heads_up("4s 9h 3d 6c 10h", "7d 8d", "2c 3c"), "reference", [1170, 920], [210, 700, 500])


def test_effect_windfall_on_the_river_adds_100_to_the_bonus():
    # Ad (red windfall 100) on the river: bonus 70 + 100 = 170; penalty 60. P2 (pair of 3s) wins.
    # P1 980-60 = 920; P2 980+40+170 = 1190; bank 300+60-170 = 190.
    check(heads_up("4s 9h 3d 6c Ad", "7d 8d", "2c 3c"), "reference", [920, 1190], [190, 700, 500])


# ---------------------------------------------------------------- the shipped example records


@pytest.mark.parametrize("path", sorted(EXAMPLES_DIR.glob("hand_*.json")), ids=lambda p: p.stem)
def test_example_record_files_match_their_expected_block(path):
    record = load_hand_record(path)
    assert record.expected, f"{path.name} should carry an expected block"
    result = settle_record(record)
    assert check_expected(result, record.expected) == []
    assert json.loads(path.read_text())["players"]


# ---------------------------------------------------------------- side pots, concessions, rule options
# Hand-computed cases beyond §1.8 (plain deck unless said; river board bonus 70, penalty 50).


def check_rules(st, deck, rules, stacks, bank):
    result = settle(st, deck, rules)
    assert result.stacks == tuple(stacks), result.to_text()
    assert result.bank == tuple(bank), result.to_text()
    fast = settle_fast(st, deck, rules)
    assert (fast["stacks"], fast["bank"], fast["flags"]) == (
        result.stacks,
        result.bank,
        result.flags,
    )
    return result


def side_pot_state():
    # P1 all-in for 100 with the straight; P2 (aces) and P3 (trip 9s) put in 300 each.
    # Main pot 300 -> P1; side pot 400 between P2 and P3 -> P3.
    return state(
        [
            seat("P1", 0, 100, None, "7d 8d"),
            seat("P2", 900, 300, None, "As Ah"),
            seat("P3", 900, 300, None, "9c 9d"),
        ]
    )


def test_side_pot_winner_is_not_a_winner_by_default():
    # Winners = main-pot winners [choice]: P1 only. Losers P2, P3 share 50: 20 each.
    # P1 0+300+70 = 370; P2 900-20 = 880; P3 900+400-20 = 1280; bank 300+40-70 = 270.
    r = check_rules(side_pot_state(), "plain", Rules(), [370, 880, 1280], [270, 700, 500])
    assert "side pot 1 400 between P2, P3: won by P3" in r.to_text()


def test_rule_winners_any_pot_makes_the_side_pot_winner_a_winner():
    # Winners P1, P3; P2 pays 50; bonus 70 split: 30 each, 10 stays in the bank.
    # P1 300+30 = 330; P2 850; P3 1300+30 = 1330; bank 300+50-60 = 290.
    check_rules(
        side_pot_state(), "plain", Rules(winners="any_pot"), [330, 850, 1330], [290, 700, 500]
    )


def test_rule_split_remainder_first_winner():
    # Example E with the remainders to the first winner left of the DEALER (P3 is DEALER: P1).
    # P1 980+30+40 = 1050; P3 980+20+30 = 1030; bank 300-70 = 230.
    st = state(
        [
            seat("P1", 980, 20, None, "7d 8d"),
            seat("P2", 990, 10, PREFLOP),
            seat("P3", 980, 20, None, "7h 8h"),
        ]
    )
    check_rules(
        st, "plain", Rules(split_remainder="first_winner"), [1050, 990, 1030], [230, 700, 500]
    )


def test_rule_green_effects_for_all_dealt_lets_a_folder_use_insurance():
    # Reference deck, board without effect cards (bonus 70, penalty 60). P2 wins without a
    # showdown; P1 (holding 2s, insurance), P3, P4 folded on the river: 20 each.
    def d_like():
        return state(
            [
                seat("P1", 980, 20, RIVER, "2s 3c"),
                seat("P2", 940, 60, None, "7d 8d"),
                seat("P3", 980, 20, RIVER),
                seat("P4", 980, 20, RIVER),
            ],
            board="4s 9h 3d 6c 5d",
        )

    check_rules(d_like(), "reference", Rules(), [960, 1130, 960, 960], [290, 700, 500])
    check_rules(
        d_like(),
        "reference",
        Rules(green_effects_for="all_dealt"),
        [980, 1130, 960, 960],
        [270, 700, 500],
    )


def test_rule_insolvent_loser_others_cover():
    # P2 (10 behind) owes a 20 share of 50 and pays 10; by default P3 pays only 20,
    # with others_cover P3 also pays the missing 10.
    def three():
        return state(
            [
                seat("P1", 980, 20, None, "7d 8d"),
                seat("P2", 10, 20, None, "As Ah"),
                seat("P3", 980, 20, None, "2c 3c"),
            ]
        )

    check_rules(three(), "plain", Rules(), [1110, 0, 960], [260, 700, 500])
    check_rules(
        three(), "plain", Rules(insolvent_loser="others_cover"), [1110, 0, 950], [270, 700, 500]
    )


def test_rule_showdown_exception_after_an_all_in_run_out():
    # All-in on the flop (last round: flop), board run out. P3 folded on the flop, P2 lost
    # the showdown. Default (river only): both pay 20; any_showdown: only P2 pays 50.
    def run_out():
        return state(
            [
                seat("P1", 0, 200, None, "7d 8d"),
                seat("P2", 500, 200, None, "As Ah"),
                seat("P3", 980, 20, FLOP, "2c 3c"),
            ],
            last=FLOP,
        )

    check_rules(run_out(), "plain", Rules(), [490, 480, 960], [270, 700, 500])
    check_rules(
        run_out(),
        "plain",
        Rules(showdown_exception="any_showdown"),
        [490, 450, 980],
        [280, 700, 500],
    )


def test_rule_showdown_exception_none_makes_river_folders_pay():
    # Example C without the river exception: P1, P3, P4 share 50 -> 10 each.
    st = state(
        [
            seat("P1", 980, 20, RIVER),
            seat("P2", 940, 60, None, "7d 8d"),
            seat("P3", 980, 20, RIVER),
            seat("P4", 940, 60, None, "As Ah"),
        ]
    )
    check_rules(
        st, "plain", Rules(showdown_exception="none"), [970, 1170, 970, 930], [260, 700, 500]
    )


def test_a_conceding_player_is_a_showdown_loser():
    # Example C with P4 conceding without showing: the same result.
    st = state(
        [
            seat("P1", 980, 20, RIVER),
            seat("P2", 940, 60, None, "7d 8d"),
            seat("P3", 980, 20, RIVER),
            seat("P4", 940, 60, None, None, conceded=True),
        ]
    )
    check_rules(st, "plain", Rules(), [980, 1170, 980, 890], [280, 700, 500])


def test_rule_kickers_top_splits_pairs_equal_to_the_top_kicker():
    """RULES §1.3 [choice] kickers=top: P1 (10s, 9 8 6) and P3 (10s, 9 7 6) differ only below
    the top kicker, so the literal reading splits as example E does; the default gives P1
    the pot and the bonus and makes P3 pay the penalty."""
    def hand():
        return state(
            [
                seat("P1", 980, 20, None, "10d 8h"),
                seat("P2", 990, 10, PREFLOP),
                seat("P3", 980, 20, None, "10c 7h"),
            ]
        )

    default = settle(hand(), "plain")
    assert default.winners == (0,) and default.stacks[0] > 1030 > default.stacks[2]
    r = check_rules(hand(), "plain", Rules(kickers="top"), [1030, 990, 1030], [250, 700, 500])
    assert r.winners == (0, 2)
    assert Rules.parse(["kickers=top"]).kernel_args[5] == 1 and Rules().kickers == "all"
