"""The numba kernel against the referee: every logged action legal with the same menu, same stacks."""

from __future__ import annotations

import numpy as np
import pytest

from analysis.engine import Hand, TableSetup, get_structure
from analysis.engine._layout import (
    L_MENU,
    MN_ALLIN_TO,
    MN_CALL,
    MN_CHECK,
    MN_FOLD,
    MN_MAX_TO,
    MN_MIN_TO,
    MN_PLAYER,
    N_MENU,
    X_N_ACTIONS,
)
from analysis.engine.history import history_from_log, replay
from analysis.engine.simulate import play_hands

CASES = [
    ("dilemma", "dilemma", 6, ["abc", "maniac", "tight-aggressive", "calling-station", "random",
                               "fold-free-multiway"]),
    ("dilemma", "dilemma", 2, ["maniac", "fold-free-always"]),
    ("dilemma", "dilemma", 4, ["random", "maniac", "random", "abc"]),
    ("holdem", "nl", 4, ["random", "maniac", "abc", "random"]),
    ("holdem", "pl", 5, ["random", "maniac", "random", "abc", "maniac"]),
    ("holdem", "fl", 3, ["maniac", "random", "maniac"]),
    ("holdem", "nl-casino", 6, ["random"]),
    # the rule options of RULES §1.2 and §2
    ("holdem", "fl-casino", 4, ["maniac", "random", "maniac", "abc"]),
    ("holdem", "fl,limit=spread,short_cap=table", 5, ["random", "maniac", "random", "maniac", "abc"]),
    ("holdem", "fl,limit=per_round,raises_per_player=2,short_cap=table", 4, ["maniac", "random"] * 2),
    ("holdem", "nl,raises_per_player=0,max_raises=3", 4, ["random", "maniac"] * 2),
    ("holdem", "nl,raises_per_player=0,short_all_in=never", 6, ["random", "maniac"] * 3),
    ("holdem", "nl-casino,short_all_in=consecutive", 6, ["random", "maniac", "random"] * 2),
    ("holdem", "pl-casino,short_all_in=never", 5, ["random", "maniac", "random", "maniac", "abc"]),
]


def random_table(rng, game, structure, n):
    if game == "dilemma":
        stacks = [int(rng.choice([30, 60, 200, 1000, 1500])) for _ in range(n)]
        return TableSetup(names=tuple(f"P{i + 1}" for i in range(n)), stacks=tuple(stacks),
                          dealer=0, bank=(300, 700, 500)).validate()
    stacks = [int(rng.integers(3, 250)) for _ in range(n)]
    return TableSetup(names=tuple(f"P{i + 1}" for i in range(n)), stacks=tuple(stacks), dealer=0,
                      blinds=(1, 2), game="holdem", structure=get_structure(structure),
                      deck="holdem").validate()


@pytest.mark.parametrize("game, structure, n, policies", CASES)
def test_kernel_hands_replay_through_the_referee(game, structure, n, policies):
    rng = np.random.default_rng(len(policies) * 7 + n)
    for rep in range(12):
        setup = random_table(rng, game, structure, n)
        batch = play_hands(setup, policies, 60, seed=rep, log=True)
        for h in range(60):
            dealer = h % n
            hs = TableSetup(**{**setup.__dict__, "dealer": dealer}).validate()
            count = int(batch.summary[h, X_N_ACTIONS])
            line = history_from_log(hs, batch.cards[h], batch.logs[h], count)
            hand, result = replay(line, f"hand {h}", check_result=False)
            # the legal menus the kernel saw are the referee's
            check = TableSetup(**{**setup.__dict__, "dealer": dealer}).validate()
            ref = Hand(check)
            for k in range(count):
                row = batch.logs[h, k]
                menu = row[L_MENU: L_MENU + N_MENU]
                street, who, kind, *to = line["actions"][k]
                while ref.street < ["preflop", "flop", "turn", "river"].index(street):
                    ref.deal_board([0, 1, 2] if ref.street == 0 else [3 + ref.street])
                legal = ref.legal()
                assert legal.player == menu[MN_PLAYER]
                assert legal.call == menu[MN_CALL] and legal.check == bool(menu[MN_CHECK])
                assert legal.fold == bool(menu[MN_FOLD]) and legal.all_in_to == menu[MN_ALLIN_TO]
                want = (-1, -1) if legal.min_to is None else (legal.min_to, legal.max_to)
                assert want == (menu[MN_MIN_TO], menu[MN_MAX_TO]), (line, k)
                ref.act(kind, to[0] if to else None)
            # same final stacks, chips conserved
            assert list(result.stacks) == list(batch.stacks[h]), line
            money = sum(setup.stacks) + (sum(setup.bank) if game == "dilemma" else 0)
            assert sum(result.stacks) + (sum(result.bank) if game == "dilemma" else 0) == money


def test_same_hands_whatever_the_thread_count():
    setup = random_table(np.random.default_rng(1), "dilemma", "dilemma", 6)
    one = play_hands(setup, ["abc", "maniac", "random"] * 2, 3000, seed=5, threads=1)
    two = play_hands(setup, ["abc", "maniac", "random"] * 2, 3000, seed=5, threads=2)
    assert np.array_equal(one.stacks, two.stacks) and np.array_equal(one.summary, two.summary)


def test_the_fold_for_free_knob_and_exact_strength_in_the_kernel():
    from analysis.core.actions import CHECK, FOLD
    from analysis.engine._layout import L_KIND, L_SEAT, L_STREET, MN_CHECK
    from evaluator.strength import strength

    setup = TableSetup(names=tuple(f"P{i + 1}" for i in range(4)), stacks=(1000,) * 4).validate()
    policies = ["fold-free-always", "abc", "fold-free-multiway", "calling-station"]
    batch = play_hands(setup, policies, 300, seed=11, log=True)
    seen = {"always": 0, "never": 0, "multiway": 0}
    for h in range(300):
        cards = batch.cards[h]
        for row in batch.logs[h, : batch.summary[h, X_N_ACTIONS]]:
            street, seat, kind = int(row[L_STREET]), int(row[L_SEAT]), int(row[L_KIND])
            if street == 0 or not row[L_MENU + MN_CHECK] or kind not in (FOLD, CHECK):
                continue
            nb = street + 2
            s = strength(list(cards[2 * seat: 2 * seat + 2]), list(cards[8: 8 + nb]))
            if seat == 0:  # always: fold below 0.4, check otherwise
                assert (kind == FOLD) == (s < 0.4)
                seen["always"] += 1
            elif seat in (1, 3):  # never folds for free
                assert kind == CHECK
                seen["never"] += 1
            else:
                seen["multiway"] += kind == FOLD
    assert min(seen.values()) > 0


def test_rules_1_3_kickers_top_in_the_kernel_replays_through_the_referee():
    """RULES §1.3 kickers=top in the engine: the kernel's Dilemma showdowns (the settlement
    core) and the referee's (the readable settlement) give the same stacks hand by hand,
    and some hands end differently from the default reading."""
    from analysis.dilemma.settlement import Rules

    n = 4
    base = TableSetup(names=tuple(f"P{i + 1}" for i in range(n)), stacks=(1000,) * n, dealer=0,
                      bank=(300, 700, 500)).validate()
    top = TableSetup(**{**base.__dict__, "rules": Rules(kickers="top")}).validate()
    policies = ["calling-station", "maniac", "calling-station", "maniac"]
    batch = play_hands(top, policies, 300, seed=5, log=True)
    default = play_hands(base, policies, 300, seed=5, log=True)
    for h in range(300):
        hs = TableSetup(**{**top.__dict__, "dealer": h % n}).validate()
        line = history_from_log(hs, batch.cards[h], batch.logs[h], int(batch.summary[h, X_N_ACTIONS]))
        _, result = replay(line, f"hand {h}", check_result=False)
        assert list(result.stacks) == list(batch.stacks[h]), line
    assert (batch.stacks != default.stacks).any(axis=1).sum() > 0


def test_scratch_slots_are_named_in_packing_order():
    """The W_* names of analysis.engine._layout cover every slot new_scratch_arrays packs, with the
    shapes their docstring states (a new slot must get a name)."""
    from analysis.engine import _layout as EL

    scratch = EL.new_scratch_arrays(40)
    names = sorted((v, k) for k, v in vars(EL).items() if k.startswith("W_") and isinstance(v, int))
    assert [v for v, _ in names] == list(range(len(scratch)))
    assert scratch[EL.W_ROUND].shape == (EL.N_RCOLS,) and scratch[EL.W_MENU].shape == (EL.N_MENU,)
    assert scratch[EL.W_PAIR_SCORE].shape == (40, 40) and scratch[EL.W_FLAT].shape == (1600,)
    assert scratch[EL.W_HOLES].shape == (EL.MAX_SEATS, 2) and scratch[EL.W_DECISION].shape == (2,)
    assert scratch[EL.W_HAND7].dtype == scratch[EL.W_HAND].dtype == np.uint8
