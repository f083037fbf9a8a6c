"""Bluffjack as a betting game (RULES §3): the referee's rules, histories, strategies, and the
numba kernel checked hand by hand against the referee."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from analysis.core.threads import numba_threads
from analysis.engine.bluffjack import _kernel as K
from analysis.engine.bluffjack.history import history_line, replay_history
from analysis.engine.bluffjack.play import (
    BluffjackTable,
    games_summary,
    hand_histories,
    history_from_log,
    play_games,
    play_hands,
)
from analysis.engine.bluffjack.referee import BluffjackHand
from analysis.engine.bluffjack.stakes import Stakes, StakesError, get_stakes
from analysis.engine.bluffjack.strategy import load_strategy
from analysis.engine.errors import HistoryError, IllegalActionError, PolicyError
from evaluator.blackjack import BLUFFJACK
from evaluator.cards import parse_cards
from tests.reference.bluffjack_betting import decide


def c(text: str) -> list[int]:
    return parse_cards(text, BLUFFJACK)


def hand2(down="Kh 5c", up="6d 9s", stacks=(50, 50), dealer=0, stakes=None, rules=None, n=None):
    d, u = c(down), c(up)
    n = n or len(d)
    return BluffjackHand([f"P{i + 1}" for i in range(n)], list(stacks), dealer, d, u, stakes, rules)


def random_hand(rng: random.Random, stakes, rules, n: int) -> BluffjackHand:
    """Every legal action equally likely, random stacks (short all-ins included)."""
    deck = list(range(52))
    rng.shuffle(deck)
    stacks = [rng.choice([1, 2, 3, 5, 8, 20, 100]) for _ in range(n)]
    h = BluffjackHand([f"P{i + 1}" for i in range(n)], stacks, rng.randrange(n), deck[:n], deck[n:2 * n],
                      stakes, rules)
    pos = 2 * n
    while h.result is None:
        legal = h.legal()
        opts: list[tuple[str, int | None]] = []
        if legal.hit:
            opts.append(("hit", None))
        if legal.stand:
            opts.append(("stand", None))
        if legal.betting:
            if legal.fold:
                opts.append(("fold", None))
            if not legal.forced:
                opts.append(("check" if legal.call == 0 else "call", None))
            if legal.min_to >= 0:
                opts.append(("bet" if h.level == 0 else "raise", rng.randint(legal.min_to, legal.max_to)))
        a, x = rng.choice(opts)
        if a == "hit":
            x = deck[pos]
            pos += 1
        h.act(a, x)
    return h


# ---------------------------------------------------------------- the referee, rule by rule
def test_rules_3_ante_and_forced_opening_with_the_minimum():
    h = hand2(dealer=0)
    assert h.pot == 2  # ante 1 each
    legal = h.legal()
    assert legal.player == 1 and legal.forced and legal.min_to == legal.max_to == 2
    for bad in (("check", None), ("fold", None), ("bet", 4)):
        with pytest.raises(IllegalActionError, match="P2.*minimum"):
            h.act(*bad)
    h.act("bet", 2)
    assert h.legal().call == 2 and h.legal().max_to == 4


def test_rules_3_fixed_limit_three_raises_a_round():
    h = hand2()
    h.act("bet", 2)
    for to in (4, 6, 8):
        h.act("raise", to)
    assert h.legal().min_to == -1
    with pytest.raises(IllegalActionError, match="at most 3 raises"):
        h.act("raise", 10)
    h.act("call")
    assert h.round == "play" and h.pot == 2 + 16


def test_rules_3_a_player_who_stood_cannot_hit_and_hits_are_face_up():
    h = hand2(down="Kh 5c 2d", up="6d 9s 3h", stacks=(50, 50, 50), dealer=2)
    h.act("bet", 2)
    h.act("call")
    h.act("call")
    assert h.round == "play" and h.to_act == 0
    h.act("stand")
    h.act("hit", c("7c")[0])
    with pytest.raises(IllegalActionError, match="already dealt"):
        h.act("hit", c("7c")[0])
    h.act("stand")
    assert h.to_act == 1  # P1 stood: turns skip it
    h.act("hit", c("4c")[0])
    h.act("stand")
    assert h.round == "final"


def test_rules_3_a_lone_survivor_wins_even_bust():
    h = hand2(down="Kh 5c", up="6d 9s")
    h.act("bet", 2)
    h.act("call")
    h.act("hit", c("Qc")[0])  # P2: 5 + 9 + 10 = 24, bust
    h.act("stand")
    h.act("stand")
    h.act("bet", 2)  # the bust P2 bets (a bluff)
    h.act("fold")
    assert h.result.stacks == (47, 53) and not h.result.showdown


def test_rules_3_all_bust_pot_goes_to_the_house_or_is_carried():
    for house, want in ((True, (6, 0)), (False, (0, 6))):
        h = hand2(down="Kh Kc", up="6d 9s", rules={"house": house})
        h.act("bet", 2)
        h.act("call")
        h.act("hit", c("Qc")[0])
        h.act("hit", c("Qd")[0])
        h.act("stand")
        h.act("stand")
        h.act("check")
        h.act("check")
        r = h.result
        assert (r.house, r.carry) == want and r.stacks == (47, 47)
        assert sum(r.stacks) + r.house + r.carry == 100


def test_rules_3_showdown_highest_total_not_over_21_and_charlie():
    def play(rules, p1_hits):
        h = hand2(down="9h 9c", up="Kd 9s", rules=rules)  # P1 9+K = 19, P2 9+9 = 18
        h.act("bet", 2)
        h.act("call")
        h.act("stand")  # P2 (left of the dealer) stands on 18
        for card in p1_hits:
            h.act("hit", c(card)[0])
        h.act("stand")
        h.act("check")
        h.act("check")
        return h.result

    assert play("source", []).stacks == (53, 47)  # 19 beats 18
    assert play("source", ["2d"]).stacks == (53, 47)  # 21 beats 18
    assert play("source", ["5d"]).stacks == (47, 53)  # 24: bust loses to 18


def test_rules_3_charlie_beats_any_total_but_21():
    for rules, want in (("source", (47, 53)), ("charlie5", (53, 47))):
        h = hand2(down="2h Kc", up="3d Qs", rules=rules)  # P2 holds 20
        h.act("bet", 2)
        h.act("call")
        h.act("stand")
        for card in ("2c", "3c", "4h"):  # P1: 2 3 2 3 4 = 14 in five cards
            h.act("hit", c(card)[0])
        h.act("stand")
        h.act("check")
        h.act("check")
        assert h.result.stacks == want, rules


def test_rules_3_extra_betting_a_stood_player_must_call_or_raise():
    h = hand2(stakes="extra_betting=true")
    h.act("bet", 2)
    h.act("call")
    h.act("stand")  # P2 stands, then bets
    assert h.legal().betting and not h.legal().fold
    h.act("bet", 2)
    h.act("hit", c("2c")[0])  # P1 hits, then faces the bet: fold, call or raise
    assert h.legal().fold
    h.act("raise", 4)
    legal = h.legal()  # P2 has stood and gets a turn: call or raise, no fold, no hit
    assert legal.player == 1 and not legal.fold and legal.call == 2
    with pytest.raises(IllegalActionError, match="stood.*call or raise"):
        h.act("fold")
    with pytest.raises(IllegalActionError, match="cannot hit"):
        h.act("hit", c("3c")[0])
    h.act("call")
    h.act("stand")
    h.act("check")
    assert h.round == "final"


def test_rules_3_second_initial_bet_round_before_the_up_card():
    h = hand2(stakes="second_initial_bet=true")
    assert h.round == "first" and h.legal().forced
    h.act("bet", 2)
    h.act("call")
    assert h.round == "initial" and h.legal().forced


def test_rules_3_pot_and_no_limit_sizes():
    h = hand2(stakes="pot")
    h.act("bet", 2)  # pot 4; P1 may raise to 2 + (4 + 2) = 8
    assert (h.legal().min_to, h.legal().max_to) == (4, 8)
    h = hand2(stakes="no")
    h.act("bet", 2)
    assert h.legal().max_to == 49


def test_rules_3_random_play_conserves_chips_and_replays():
    rng = random.Random(3)
    for stakes in ("fixed", "pot", "no", "extra_betting=true", "limit=pot,extra_betting=true,second_initial_bet=true",
                   "limit=fixed,bet=3,ante=2,max_raises=1"):
        for rules in ("source", "no-house", "charlie5", "order21"):
            for k in range(60):
                h = random_hand(rng, stakes, rules, rng.randint(2, 7))
                r = h.result
                assert sum(r.stacks) + r.house + r.carry == sum(h.start)
                line = json.loads(json.dumps(history_line(h, k)))
                _, again = replay_history(line)
                assert again == r


def test_history_errors_name_the_line_action_player_and_rule():
    h = hand2()
    h.act("bet", 2)
    h.act("fold")
    line = history_line(h, 1)
    bad = json.loads(json.dumps(line))
    bad["actions"][1] = ["initial", "P1", "check"]
    with pytest.raises(IllegalActionError, match=r"x, action 2: illegal action 'check' by P1: there is a bet"):
        replay_history(bad, "x")
    bad = json.loads(json.dumps(line))
    bad["result"]["stacks"]["P1"] = 0
    with pytest.raises(HistoryError, match="result differs"):
        replay_history(bad, "x")
    bad = json.loads(json.dumps(line))
    bad["actions"] = bad["actions"][:1]
    with pytest.raises(HistoryError, match="P1 is to act"):
        replay_history(bad, "x")


def test_stakes_options():
    assert get_stakes(None) == Stakes("fixed", 1, 2, 3)
    assert get_stakes("pot").max_raises == 0
    assert get_stakes("limit=no,bet=5,extra_betting=yes") == Stakes("no", 1, 5, 0, True)
    for bad, word in (("limit=spread", "limit"), ("bet=0", "bet"), ("nosuch=1", "unknown"),
                      ("extra_betting=maybe", "true or false"), ("max_raises=-1", "max_raises")):
        with pytest.raises(StakesError, match=word):
            get_stakes(bad)


def test_strategy_files(tmp_path):
    for name in ("stand17", "solid", "bluffer", "maniac", "random"):
        assert load_strategy(name).rules
    cases = [("[[rule]]\ndecision = 'hit'\nfold = 1\n", "not fold"),
             ("[[rule]]\ndecision = 'bet'\ncall = 0.5\n", "sum to 0.5"),
             ("[[rule]]\ndecision = 'bet'\ntotal = '21-17'\ncall = 1\n", "range"),
             ("[[rule]]\ndecision = 'bet'\nround = 'river'\ncall = 1\n", "round"),
             ("[[rule]]\ndecision = 'sometimes'\n", "decision"),
             ("[[rule]]\ndecision = 'bet'\nwhen = 1\ncall = 1\n", "unknown field"),
             ("[[rule]\n", "TOML")]
    for k, (text, word) in enumerate(cases):
        p = tmp_path / f"s{k}.toml"
        p.write_text(text)
        with pytest.raises(PolicyError, match=word):
            load_strategy(p)
    with pytest.raises(PolicyError, match="unknown Bluffjack strategy"):
        load_strategy("nosuch")


# ---------------------------------------------------------------- the kernel against the referee
KERNEL_CASES = [
    (["random", "maniac", "solid", "bluffer", "stand17"], 5, 20, "fixed", "source"),
    (["random", "maniac"], 2, 9, "fixed", "no-house"),
    (["random", "maniac", "random"], 3, 15, "pot", "charlie5"),
    (["random"], 6, 12, "no", "order21"),
    (["random", "maniac", "bluffer"], 4, 10, "extra_betting=true", "source"),
    (["random", "maniac"], 4, 25, "limit=pot,extra_betting=true,second_initial_bet=true", "no-house"),
    (["random"], 10, 6, "limit=fixed,ante=2,bet=3,max_raises=1", "charlie5-cards"),
]


@pytest.mark.parametrize("strategies, n, stack, stakes, rules", KERNEL_CASES)
def test_kernel_hands_replay_through_the_referee(strategies, n, stack, stakes, rules):
    table = BluffjackTable.make(strategies, n, stack, stakes, rules)
    lines = hand_histories(table, 400, seed=n)  # each line replayed through the referee inside
    for line in lines:
        after = line["result"]["stacks"]
        assert sum(after.values()) + line["result"]["house"] + line["result"]["carry"] == n * stack


@pytest.mark.parametrize("stakes", ["fixed", "pot", "no", "extra_betting=true,second_initial_bet=true"])
def test_kernel_follows_deterministic_strategies(stakes):
    """Every decision of a 0/1 strategy is the one the slow reference reads off the referee."""
    strategies = ["solid", "maniac", "stand17"]
    table = BluffjackTable.make(strategies, 5, 30, stakes)
    loaded = {s: load_strategy(s) for s in strategies}
    batch = play_hands(table, 300, seed=7)
    for h in range(300):
        line = history_from_log(table, h, batch)
        hand, _ = replay_history(line, check_result=False)
        ref = BluffjackHand(list(line["table"]["seats"]), list(table.stacks), h % 5,
                            [hand.seats[i].down for i in range(5)], [hand.seats[i].up for i in range(5)],
                            table.stakes, table.rules)
        for rnd, who, kind, *x in line["actions"]:
            want = decide(loaded[table.strategies[int(who[1:]) - 1]], ref)
            got = (kind, x[0] if x and kind != "hit" else None)
            assert got == want, (h, rnd, who)
            ref.act(kind, parse_cards(x[0], BLUFFJACK)[0] if kind == "hit" else (x[0] if x else None))
        assert ref.result == hand.result


def test_same_hands_whatever_the_thread_count():
    table = BluffjackTable.make(["random", "bluffer", "maniac"], 3, 20, "pot")
    with numba_threads(1):
        one = play_hands(table, 2000, seed=4)
    with numba_threads(2):
        two = play_hands(table, 2000, seed=4)
    assert np.array_equal(one.logs, two.logs) and np.array_equal(one.stacks, two.stacks)
    assert int(one.summary[:, K.HS_ACTIONS].max()) <= K.MAX_LOG
    part = play_hands(table, 500, seed=4, first=1500)  # a chunk is the same hands
    assert np.array_equal(part.logs, one.logs[1500:]) and np.array_equal(part.decks, one.decks[1500:])
    bare = play_hands(table, 2000, seed=4, log=False)
    assert bare.logs.shape[1] == 0 and np.array_equal(bare.stacks, one.stacks)


def test_whole_games_end_with_every_chip_in_one_hand():
    table = BluffjackTable.make(["solid", "bluffer", "maniac", "random"], stack=20, rules="no-house")
    games = play_games(table, 200, seed=2)
    chips = games[[f"P{i}_chips" for i in range(1, 5)]].to_numpy()
    assert (chips.sum(axis=1) + games["house"] + games["carry"] == 80).all()
    won = games["reason"] == "won"
    assert won.sum() > 150 and ((chips[won.to_numpy()] > 0).sum(axis=1) == 1).all()
    assert (games.loc[won, "carry"] == 0).all()  # the carried pots went to the winner
    summary = games_summary(table, games)
    assert summary["wins"].sum() == won.sum()
    with numba_threads(1):
        again = play_games(table, 200, seed=2)
    assert again.equals(games)


def test_whole_games_are_the_same_whatever_the_chunking():
    import threading

    table = BluffjackTable.make(["solid", "bluffer", "maniac"], stack=20)
    whole = play_games(table, 60, seed=5, chunk=60)
    seen = []
    for chunk in (1, 7, 25):
        assert play_games(table, 60, seed=5, chunk=chunk, progress=lambda d, t, _: seen.append((d, t))).equals(whole)
    assert seen[-1] == (60, 60) and [d for d, _ in seen[:3]] == [1, 2, 3]
    assert play_games(table, 60, seed=5).equals(whole)  # sized by time
    stop = threading.Event()

    def stop_at_14(done: int, total: int, label: str) -> None:
        if done >= 14:
            stop.set()

    part = play_games(table, 60, seed=5, chunk=7, progress=stop_at_14, stop=stop)
    assert part.equals(whole.iloc[:14])  # stopped: the first games of the whole run


def test_the_documented_history_replays():
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "hand_history.md").read_text()
    block = text.split("## Bluffjack: the betting game")[1].split("```json")[1].split("```")[0]
    hand, result = replay_history(json.loads(block), "docs")
    assert result.stacks == (47, 53) and not result.showdown
