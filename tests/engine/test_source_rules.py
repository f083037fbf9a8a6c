"""The Texas source's betting rules (RULES §2) and the short all-in options (RULES §1.2),
each played by the referee, and the kernel kept to them (its menus equal the referee's:
``test_kernel.py``)."""

from __future__ import annotations

import pytest

from analysis.core.actions import BET, RAISE
from analysis.engine import (
    Hand,
    IllegalActionError,
    TableError,
    TableSetup,
    get_structure,
    make_table,
    texas_blinds,
)
from analysis.engine._layout import L_KIND, L_SEAT, L_STREET, X_N_ACTIONS
from analysis.engine.simulate import play_hands
from evaluator import parse_cards


def texas(stacks, structure: str, dealer: int = 0, blinds=(1, 2)) -> Hand:
    setup = TableSetup(names=tuple(f"P{i + 1}" for i in range(len(stacks))), stacks=tuple(stacks),
                       dealer=dealer, blinds=blinds, game="holdem", structure=get_structure(structure),
                       deck="holdem").validate()
    return Hand(setup)


def flop(h: Hand) -> None:
    h.deal_board(parse_cards("2s 3h 4d", "holdem"))


def play(h: Hand, script) -> None:
    for who, kind, *to in script:
        h.act(kind, to[0] if to else None, player=who)


# ------------------------------------------------------------------ RULES §2 raises per player


def test_rules_2_one_raise_per_player():
    """RULES §2: one raise per player per betting round (「賭金の上乗せは1ラウンドにつき1人1回」);
    that raise may be a re-raise over another's raise; the count starts again each round."""
    h = texas([100] * 3, "nl")  # DEALER P1: P2 small blind, P3 big blind, P1 first
    play(h, [("P1", "raise", 6), ("P2", "raise", 10), ("P3", "raise", 14)])  # re-raises allowed
    legal = h.legal()
    assert legal.player == 0 and legal.min_to is None and legal.call == 8  # P1 raised already
    with pytest.raises(IllegalActionError, match="one raise per player a round"):
        h.act("raise", 30)
    play(h, [("P1", "call"), ("P2", "call")])
    assert h.round_over  # P3 raised last; nobody may raise again
    flop(h)
    play(h, [("P2", "bet", 2), ("P3", "raise", 4), ("P1", "raise", 6)])  # a new round: one each
    assert h.legal().player == 1 and h.legal().min_to is None  # P2 bet: only call or fold
    # the options: unlimited, or a cap on the raises of a round (all players together)
    free = texas([100] * 3, "nl,raises_per_player=0")
    play(free, [("P1", "raise", 6), ("P2", "raise", 10), ("P3", "raise", 14), ("P1", "raise", 18)])
    capped = texas([100] * 3, "nl,raises_per_player=0,max_raises=3")
    play(capped, [("P1", "raise", 6), ("P2", "raise", 10)])  # the big blind counts as bet 1
    assert capped.legal().min_to is None
    two = texas([100] * 2, "nl,raises_per_player=2")
    play(two, [("P1", "raise", 4), ("P2", "raise", 6), ("P1", "raise", 8), ("P2", "raise", 10)])
    assert two.legal().min_to is None


def test_rules_2_the_kernel_lets_each_player_raise_once_a_round():
    """RULES §2: kernel hands of raise-happy strategies under the source's ``nl`` and ``fl``:
    no player bets or raises twice in a round."""
    for structure in ("nl", "fl"):
        setup = make_table(4, game="holdem", structure=structure, stack=120)
        batch = play_hands(setup, ["maniac", "random"] * 2, 400, seed=3, log=True)
        raises = 0
        for h in range(400):
            seen = set()
            for row in batch.logs[h, : batch.summary[h, X_N_ACTIONS]]:
                if row[L_KIND] in (BET, RAISE):
                    key = (int(row[L_STREET]), int(row[L_SEAT]))
                    assert key not in seen, (structure, h)
                    seen.add(key)
                    raises += 1
        assert raises > 400


def test_rules_2_a_raise_of_the_minimum_bet_is_a_full_raise():
    """RULES §2 (``min_raise=min_bet``): a raise of at least the minimum bet is a full raise, so
    it reopens the betting for a player who already acted (today's bug: the largest increment
    of the round was the measure, as under the casino rule)."""
    h = texas([100] * 3, "nl,raises_per_player=0")
    play(h, [("P1", "call"), ("P2", "call"), ("P3", "check")])
    flop(h)
    play(h, [("P2", "bet", 10), ("P3", "raise", 13)])  # adds 3 >= the minimum bet 2
    play(h, [("P1", "call")])
    legal = h.legal()
    assert legal.player == 1 and legal.call == 3 and legal.min_to == 15


# ------------------------------------------------------------------ RULES §2 fixed limit


def test_rules_2_fixed_limit_one_cap_for_the_hand():
    """RULES §2: the source's fixed limit has one cap for the hand, twice the minimum bet;
    ``limit=fixed`` raises exactly the cap on every round, ``limit=spread`` any amount from the
    minimum bet to the cap, ``limit=per_round`` the small bet then the big bet (casino)."""
    h = texas([100] * 3, "fl")
    assert (h.legal().min_to, h.legal().max_to) == (6, 6)  # 2 + the cap 4
    with pytest.raises(IllegalActionError, match="the minimum is 6"):
        h.act("raise", 4)
    play(h, [("P1", "call"), ("P2", "call"), ("P3", "check")])
    for _ in range(2):  # flop and turn: the same cap
        h.deal_board(parse_cards("2s 3h 4d", "holdem") if h.street == 0 else parse_cards("5c", "holdem"))
        assert (h.legal().min_to, h.legal().max_to) == (4, 4)
        play(h, [("P2", "check"), ("P3", "check"), ("P1", "check")])
    spread = texas([100] * 3, "fl,limit=spread")
    assert (spread.legal().min_to, spread.legal().max_to) == (4, 6)  # raise by 2 to 4
    play(spread, [("P1", "raise", 5)])
    assert (spread.legal().min_to, spread.legal().max_to) == (7, 9)
    wider = texas([100] * 2, "fl,limit=spread,cap=3")
    assert (wider.legal().min_to, wider.legal().max_to) == (4, 8)
    per_round = texas([100] * 2, "fl,limit=per_round")
    assert (per_round.legal().min_to, per_round.legal().max_to) == (4, 4)


def test_rules_2_short_cap_table():
    """RULES §2 [choice]: a stack below the cap caps that player (all-in); option
    ``short_cap=table``: the short stack caps every bet and raise of the round (「その手持ちが
    少ないプレイヤーの持ち金額が上限になります」), taken at the start of the round."""
    player = texas([100, 100, 3], "fl")  # P3, the big blind, has 3 in all
    assert (player.legal().min_to, player.legal().max_to) == (6, 6)
    table = texas([100, 100, 3], "fl,short_cap=table")
    assert (table.legal().min_to, table.legal().max_to) == (5, 5)  # the cap becomes 3
    play(table, [("P1", "raise", 5), ("P2", "call"), ("P3", "call")])  # P3 all-in for 3
    flop(table)
    # the round starts with P3 all-in: the short stack of those who can bet is 95
    assert (table.legal().min_to, table.legal().max_to) == (4, 4)
    spread = texas([100, 100, 3], "fl,limit=spread,short_cap=table")
    assert (spread.legal().min_to, spread.legal().max_to) == (4, 5)


def test_rules_2_odd_big_blind_rounds_the_small_blind_down():
    """RULES §2 (seed 002: 「最低賭金額の半分(切捨て)」): the small blind is half the big blind,
    rounded down."""
    assert texas_blinds(5) == (2, 5) and texas_blinds(2) == (1, 2) and texas_blinds(1) == (0, 1)
    h = texas([100] * 3, "nl", blinds=texas_blinds(5))
    assert [s.put_in for s in h.seats] == [0, 2, 5] and h.legal().min_to == 10
    with pytest.raises(TableError, match="big blind 0"):
        texas_blinds(0)


# ------------------------------------------------------------------ RULES §1.2 short all-ins


def _two_short_all_ins(rule: str) -> Hand:
    """A bets 10 on the flop; B and C go all-in for 6 more each (short, 12 together)."""
    h = texas([200, 18, 24, 200], f"nl-casino,short_all_in={rule}", dealer=3)
    play(h, [("P3", "call"), ("P4", "call"), ("P1", "call"), ("P2", "check")])
    flop(h)
    play(h, [("P1", "bet", 10), ("P2", "raise", 16), ("P3", "raise", 22), ("P4", "call")])
    return h


def test_rules_1_2_short_all_ins_that_add_up_reopen_by_default():
    """RULES §1.2 [choice]: short all-ins that together add a full raise over what a player
    last faced reopen the betting for them (the tournament directors' rule, the default)."""
    for rule in ("no_reopen", "consecutive", "reopens"):
        legal = _two_short_all_ins(rule).legal()
        assert legal.player == 0 and legal.call == 12 and legal.min_to == 32, rule


def test_rules_1_2_short_all_ins_never_reopen():
    """RULES §1.2 option ``short_all_in=never``: short all-ins never reopen the betting for a
    player who already acted, even when they add up; a full raise after their action does."""
    h = _two_short_all_ins("never")
    legal = h.legal()
    assert legal.player == 0 and legal.call == 12 and legal.min_to is None
    with pytest.raises(IllegalActionError, match="never reopen"):
        h.act("raise", 40)
    full = texas([200, 200, 200], "nl-casino,short_all_in=never")
    play(full, [("P1", "call"), ("P2", "call"), ("P3", "check")])
    flop(full)
    play(full, [("P2", "bet", 10), ("P3", "raise", 20), ("P1", "call")])
    assert full.legal().player == 1 and full.legal().min_to == 30  # P3's full raise reopens


def test_rules_1_2_short_all_ins_consecutive_is_pokerkits_rule():
    """RULES §1.2, ``short_all_in=consecutive`` (pokerkit 0.7): once short all-ins have added
    up, a later short all-in is counted afresh: facing 15 (more than the full raise of 10)
    the tournament rule reopens, pokerkit's does not."""
    stacks = [200, 18, 24, 27, 200]

    def after(rule: str) -> Hand:
        h = texas(stacks, f"nl-casino,short_all_in={rule}", dealer=4)
        play(h, [("P3", "call"), ("P4", "call"), ("P5", "call"), ("P1", "call"), ("P2", "check")])
        flop(h)
        play(h, [("P1", "bet", 10), ("P2", "raise", 16), ("P3", "raise", 22), ("P4", "raise", 25),
                 ("P5", "call")])
        return h

    assert after("no_reopen").legal().min_to == 35
    assert after("consecutive").legal().min_to is None
    assert after("never").legal().min_to is None


@pytest.mark.parametrize("structure", ["nl", "fl", "pl", "fl,limit=spread,short_cap=table"])
def test_rules_2_source_structures_conserve_chips_in_the_kernel(structure):
    """RULES §2: whole kernel hands under each source structure keep every chip."""
    setup = make_table(5, game="holdem", structure=structure, stack=[5, 40, 120, 7, 300])
    batch = play_hands(setup, ["maniac", "random", "abc", "random", "maniac"], 300, seed=9, log=True)
    assert (batch.stacks.sum(axis=1) == sum(setup.stacks)).all()
    assert (batch.summary[:, X_N_ACTIONS] > 0).all()
