"""The worked examples of RULES §1.2, §1.8 and §2 (the Dilemma and Texas seeds) played by the referee."""

from __future__ import annotations

import pytest

from analysis.engine import (
    Hand,
    IllegalActionError,
    TableSetup,
    build_pots,
    get_structure,
    make_table,
)
from analysis.engine.pots import award_pots
from evaluator import parse_cards


def cards(text: str, game: str = "dilemma") -> list[int]:
    return parse_cards(text, game)


def dilemma_table(n: int, dealer: int, deck: str = "plain", stacks=None) -> TableSetup:
    return TableSetup(names=tuple(f"P{i + 1}" for i in range(n)), stacks=tuple(stacks or [1000] * n),
                      dealer=dealer, deck=deck).validate()


def play(hand: Hand, script: list[tuple[str, str] | tuple[str, str, int]]) -> None:
    for step in script:
        who, kind, *to = step
        hand.act(kind, to[0] if to else None, player=who)


def run_board(hand: Hand, board: str) -> None:
    b = cards(board)
    hand.deal_board(b[:3])
    for c in b[3:]:
        hand.deal_board([c])


# ------------------------------------------------------------------ RULES §1.2 raises (seed 000, 補足説明1)

def test_a_bet_of_40_needs_a_raise_to_80():
    h = Hand(dilemma_table(3, dealer=2))
    play(h, [("P3", "call"), ("P1", "call"), ("P2", "check")])
    h.deal_board(cards("4s 9h 3d"))
    play(h, [("P1", "bet", 40)])
    assert h.legal().min_to == 80
    with pytest.raises(IllegalActionError, match=r"'raise to 70' by P2: the minimum is 80 \(RULES §1.2"):
        h.act("raise", 70)


def test_20_raised_to_100_needs_180_and_the_first_bettor_adds_160():
    h = Hand(dilemma_table(3, dealer=2))
    play(h, [("P3", "call"), ("P1", "call"), ("P2", "check")])
    h.deal_board(cards("4s 9h 3d"))
    play(h, [("P1", "bet", 20), ("P2", "raise", 100)])
    assert h.legal().min_to == 180  # P3
    h.act("fold")
    legal = h.legal()  # back to P1, who has 20 in
    assert legal.player == 0 and legal.min_to == 180
    h.act("raise", 180)
    assert h.seats[0].put_in == 20 + 180  # 160 added to the 20 already in this round


def test_blinds_heads_up_dealer_posts_the_small_blind_and_acts_first_preflop_last_after():
    h = Hand(dilemma_table(2, dealer=1))
    assert (h.seats[1].put_in, h.seats[0].put_in) == (10, 20)
    assert h.actor == 1
    h.act("call")
    assert h.actor == 0 and h.legal().check  # the big blind's option
    h.act("raise", 60)
    h.act("call")
    h.deal_board(cards("4s 9h 3d"))
    assert h.actor == 0  # the big blind (non-dealer) acts first after the flop


def test_the_big_blind_option_and_a_player_short_of_the_blind_posts_all():
    t = TableSetup(names=("A", "B", "C"), stacks=(1000, 1000, 10), dealer=0).validate()
    h = Hand(t)
    assert h.seats[2].put_in == 10 and h.seats[2].all_in  # short of the big blind: all-in
    assert h.legal().call == 20  # the amount to call is the full big blind
    h.act("call")
    h.act("call")
    assert h.round_over  # the big blind is all-in: no option left


def test_short_all_in_does_not_reopen_for_players_who_acted():
    t = TableSetup(names=("A", "B", "C"), stacks=(1000, 1000, 130), dealer=2).validate()
    h = Hand(t)
    play(h, [("C", "call"), ("A", "call"), ("B", "check")])
    h.deal_board(cards("4s 9h 3d"))
    play(h, [("A", "bet", 100), ("B", "call"), ("C", "allin")])  # C: 110 in all, +10 only
    legal = h.legal()
    assert legal.player == 0 and legal.min_to is None and legal.call == 10
    with pytest.raises(IllegalActionError, match="does not reopen"):
        h.act("raise", 300)
    # the option: every all-in reopens the betting
    t2 = TableSetup(names=("A", "B", "C"), stacks=(1000, 1000, 130), dealer=2,
                    structure=get_structure("dilemma", {"short_all_in": "reopens"})).validate()
    h2 = Hand(t2)
    play(h2, [("C", "call"), ("A", "call"), ("B", "check")])
    h2.deal_board(cards("4s 9h 3d"))
    play(h2, [("A", "bet", 100), ("B", "call"), ("C", "allin")])
    assert h2.legal().min_to == 210  # 110 + the last full increment (100)


def test_checks_fold_for_free_and_errors_name_the_player_and_rule():
    h = Hand(dilemma_table(3, dealer=2))
    with pytest.raises(IllegalActionError, match="'check' by P3: there is a bet of 20 to call"):
        h.act("check")
    with pytest.raises(IllegalActionError, match="by P1: it is P3's turn"):
        h.act("call", player="P1")
    play(h, [("P3", "call"), ("P1", "call"), ("P2", "check")])
    h.deal_board(cards("4s 9h 3d"))
    h.act("fold")  # folding for free is legal in Dilemma Hold'em (RULES §1.4)
    assert h.seats[0].folded == 1


# ------------------------------------------------------------------ RULES §1.8 examples A-E, played


def test_example_A_heads_up_fold_on_the_flop_pays_the_flop_penalty():
    h = Hand(dilemma_table(2, dealer=0))
    h.deal_holes([cards("As 5c"), cards("2d 7c")])
    play(h, [("P1", "call"), ("P2", "check")])
    h.deal_board(cards("4s 9h 3d"))
    play(h, [("P2", "fold")])
    res = h.finish()
    assert res.stacks == (1060, 960) and res.bank == (280, 700, 500)


def test_example_B_three_players_the_flop_folder_escapes():
    h = Hand(dilemma_table(3, dealer=2))
    h.deal_holes([cards("As Ah"), cards("2c 2h"), cards("7d 8d")])
    play(h, [("P3", "call"), ("P1", "call"), ("P2", "check")])
    h.deal_board(cards("4s 9h 3d"))
    play(h, [("P1", "check"), ("P2", "fold"), ("P3", "check")])
    for c in ("6c", "10s"):
        h.deal_board(cards(c))
        play(h, [("P1", "check"), ("P3", "check")])
    res = h.finish()
    assert res.stacks == (930, 980, 1110) and res.bank == (280, 700, 500)


@pytest.mark.parametrize("p4_calls, expected, bank", [
    (True, (980, 1170, 980, 890), (280, 700, 500)),   # example C: the river exception
    (False, (970, 1130, 970, 970), (260, 700, 500)),  # example D: no showdown, three losers
])
def test_examples_C_and_D(p4_calls, expected, bank):
    h = Hand(dilemma_table(4, dealer=0))
    h.deal_holes([cards("2c 3c"), cards("7d 8d"), cards("2h 3h"), cards("As Ah")])
    play(h, [("P4", "call"), ("P1", "call"), ("P2", "call"), ("P3", "check")])
    for street in ("4s 9h 3d", "6c"):
        h.deal_board(cards(street))
        play(h, [("P2", "check"), ("P3", "check"), ("P4", "check"), ("P1", "check")])
    h.deal_board(cards("10s"))
    play(h, [("P2", "bet", 40), ("P3", "fold"), ("P4", "call" if p4_calls else "fold"), ("P1", "fold")])
    res = h.finish()
    assert res.stacks == expected and res.bank == bank


def test_example_E_a_tie_splits_the_pot_in_tens():
    h2 = Hand(dilemma_table(3, dealer=0))
    h2.deal_holes([cards("7d 8d"), cards("2c 3c"), cards("7h 8h")])
    play(h2, [("P1", "call"), ("P2", "fold"), ("P3", "check")])
    for street in ("4s 9h 3d", "6c", "10s"):
        h2.deal_board(cards(street))
        play(h2, [("P3", "check"), ("P1", "check")])
    res = h2.finish()
    assert res.stacks == (1030, 990, 1030) and res.bank == (250, 700, 500)


# ------------------------------------------------------------------ the seeds' side pots (RULES §1.2, §2)


def test_texas_source_side_pots():
    # A 20, B 10, C 30, D 40 in (D bet 40 with 60; the others all-in)
    pots = build_pots([20, 10, 30, 40], [True] * 4)
    assert [(p.amount, p.eligible) for p in pots] == [(40, (0, 1, 2, 3)), (30, (0, 2, 3)),
                                                     (20, (2, 3)), (10, (3,))]
    assert pots[-1].uncalled  # D's unmatched 10 goes back
    won = award_pots(pots, [4, 3, 2, 1], dealer=3)  # A has the best hand
    assert won[0].shares == ((0, 40),) and won[1].shares == ((0, 30),) and won[2].shares == ((2, 20),)
    assert won[3].shares == ((3, 10),)


def test_dilemma_source_three_way_all_in():
    # seed 000, 補足説明2: 1500, 1000, 2000 all-in: main 3000, side 1000, 500 back to P3
    t = TableSetup(names=("P1", "P2", "P3"), stacks=(1500, 1000, 2000), dealer=2, deck="plain",
                   blinds=(10, 20)).validate()
    h = Hand(t)
    h.deal_holes([cards("As Ah"), cards("2c 3c"), cards("7d 8d")])
    play(h, [("P3", "call"), ("P1", "allin"), ("P2", "allin"), ("P3", "allin")])
    assert h.betting_done
    # P3's all-in is a call of 1500: nobody could call more, so the source's unmatched 500 stays behind
    assert [s.put_in for s in h.seats] == [1500, 1000, 1500]
    pots = build_pots([1500, 1000, 2000], [True] * 3)
    assert [(p.amount, p.eligible) for p in pots] == [(3000, (0, 1, 2)), (1000, (0, 2)), (500, (2,))]
    assert pots[-1].uncalled
    run_board(h, "4s 9h 3d 6c 10s")
    res = h.finish()
    assert sum(res.stacks) + sum(res.bank) == 4500 + 1500


def test_texas_pot_limit_source_example():
    # minimum bet 2; A, B, C (SB), D (BB): A may raise by 2-5, B by 2-7, C by 2-18, D by 2-17
    t = TableSetup(names=("A", "B", "C", "D"), stacks=(100,) * 4, dealer=1, blinds=(1, 2),
                   game="holdem", structure=get_structure("pl"), deck="holdem").validate()
    h = Hand(t)
    la = h.legal()
    assert la.player == 0 and (la.min_to - 2, la.max_to - 2) == (2, 5)
    h.act("call")
    lb = h.legal()
    assert (lb.min_to - 2, lb.max_to - 2) == (2, 7)
    h.act("raise", 7)  # raises by 5, puts in 7
    lc = h.legal()
    assert lc.call == 6 and (lc.min_to - 7, lc.max_to - 7) == (2, 18)
    h.act("fold")
    ld = h.legal()
    assert ld.call == 5 and (ld.min_to - 7, ld.max_to - 7) == (2, 17)
    h.act("call")
    h.act("call")  # A
    h.deal_board(parse_cards("2s 3h 4d", "holdem"))
    # the source counts only this round's chips: the cap falls back to the minimum bet
    lf = h.legal()
    assert lf.bet and (lf.min_to, lf.max_to) == (2, 2)
    casino = TableSetup(names=("A", "B"), stacks=(100, 100), dealer=0, blinds=(1, 2), game="holdem",
                        structure=get_structure("pl-casino"), deck="holdem").validate()
    hc = Hand(casino)
    hc.act("call")
    hc.act("check")
    hc.deal_board(parse_cards("2s 3h 4d", "holdem"))
    assert hc.legal().max_to == 4  # the whole pot


def test_casino_fixed_limit_raises_the_small_or_big_bet_with_a_cap_of_four_bets():
    t = make_table(3, game="holdem", structure="fl-casino", stack=100)
    h = Hand(t)
    assert (h.legal().min_to, h.legal().max_to) == (4, 4)
    h.act("raise", 4)
    h.act("raise", 6)
    h.act("raise", 8)  # the big blind counted as the first bet: 4 bets now
    legal = h.legal()
    assert legal.min_to is None and legal.call == 4
    with pytest.raises(IllegalActionError, match="cap of 4 bets"):
        h.act("raise", 10)
    h.act("call")
    h.act("call")
    h.deal_board(parse_cards("2s 3h 4d", "holdem"))
    for _ in range(3):
        h.act("check")
    h.deal_board(parse_cards("5s", "holdem"))
    assert (h.legal().min_to, h.legal().max_to) == (4, 4)  # the big bet on the turn


def test_check_raise_can_be_forbidden():
    st = get_structure("nl", {"check_raise": "false"})
    t = TableSetup(names=("A", "B"), stacks=(100, 100), dealer=0, blinds=(1, 2), game="holdem",
                   structure=st, deck="holdem").validate()
    h = Hand(t)
    h.act("call")
    h.act("check")
    h.deal_board(parse_cards("2s 3h 4d", "holdem"))
    h.act("check")
    h.act("bet", 2)
    with pytest.raises(IllegalActionError, match="check-raise"):
        h.act("raise", 10)


def test_showdown_order_last_aggressor_first_then_clockwise():
    h = Hand(dilemma_table(4, dealer=0))
    play(h, [("P4", "call"), ("P1", "call"), ("P2", "call"), ("P3", "check")])
    for street in ("4s 9h 3d", "6c"):
        h.deal_board(cards(street))
        play(h, [("P2", "check"), ("P3", "check"), ("P4", "check"), ("P1", "check")])
    h.deal_board(cards("10s"))
    play(h, [("P2", "check"), ("P3", "bet", 40), ("P4", "call"), ("P1", "fold"), ("P2", "call")])
    assert [h.seats[i].name for i in h.showdown_order()] == ["P3", "P4", "P2"]
    quiet = Hand(dilemma_table(3, dealer=1))
    play(quiet, [("P2", "call"), ("P3", "call"), ("P1", "check")])
    for street in ("4s 9h 3d", "6c", "10s"):
        quiet.deal_board(cards(street))
        play(quiet, [("P3", "check"), ("P1", "check"), ("P2", "check")])
    assert [quiet.seats[i].name for i in quiet.showdown_order()] == ["P3", "P1", "P2"]
