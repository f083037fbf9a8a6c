"""Settlement invariants on random end states: money is conserved, no stack goes negative,
blinds never go down, and the numba core agrees with the readable path exactly."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analysis.dilemma.decks import Deck, load_deck
from analysis.dilemma.effects import KINDS, N_OPS, AmountKind, Scope
from analysis.dilemma.settlement import HandState, PlayerState, Rules, settle, settle_fast
from analysis.dilemma.settlement import _kernel as K
from analysis.dilemma.settlement import layout as L
from evaluator.tables import get_tables

RULE_CHOICES = {name: values for name, values in Rules.CHOICES.items()}


def legal_bank(bank: list[int]) -> tuple[int, int, int]:
    """A bank state that can arise in play (RULES §1.8): a bank that is empty empties the
    banks before it too (they are drawn from first and never refilled)."""
    b = list(bank)
    for t in (2, 1):
        if b[t] == 0:
            b[:t] = [0] * t
    return b[0], b[1], b[2]


def random_deck(rng: np.random.Generator, name: str = "stress") -> Deck:
    """A deck with many effect cards of every kind and random corners (effects fire often)."""
    n = 40
    colour = np.zeros(n, np.int8)
    plus = rng.integers(0, 4, n).astype(np.int64) * 10
    minus = rng.integers(0, 4, n).astype(np.int64) * 10
    opcode = np.zeros(n, np.int8)
    amount = np.zeros(n, np.int64)
    for k, card in enumerate(rng.choice(n, size=24, replace=False)):
        kind = KINDS[k + 1 if k + 1 < N_OPS else int(rng.integers(1, N_OPS))]  # every kind once
        opcode[card] = kind.op
        colour[card] = 1 if kind.scope is Scope.HAND else int(rng.integers(2, 4))
        if kind.amount is AmountKind.DOLLARS:
            amount[card] = int(rng.integers(1, 11)) * 10
        elif kind.amount is AmountKind.FACTOR:
            amount[card] = int(rng.integers(0, 4))
    return Deck(
        name,
        "dilemma",
        "random stress deck",
        "<test>",
        colour,
        plus,
        minus,
        opcode,
        amount,
        fingerprint=f"{name}-{int(rng.integers(1 << 30))}",
    )


DECKS = {name: load_deck(name) for name in ("reference", "plain", "bare")}
DECKS["stress"] = random_deck(np.random.default_rng(20240601))
DECKS["stress2"] = random_deck(np.random.default_rng(7), "stress2")


@st.composite
def end_states(draw) -> HandState:
    """Legal end states of a hand: 2-6 players, any last round, all-ins, side pots, concessions."""
    n = draw(st.integers(2, 6))
    last = draw(st.integers(0, 3))
    folds = [draw(st.one_of(st.none(), st.integers(0, last))) for _ in range(n)]
    if all(f is not None for f in folds):
        folds[draw(st.integers(0, n - 1))] = None
    live = [i for i, f in enumerate(folds) if f is None]
    showdown = len(live) >= 2
    n_board = 5 if showdown else (0, 3, 4, 5)[last]
    cards = draw(st.permutations(range(40)))
    board = tuple(cards[:n_board])
    holes = [tuple(cards[n_board + 2 * i : n_board + 2 * i + 2]) for i in range(n)]
    call = draw(st.integers(1, 40)) * 10  # what the players who were not all-in put in
    stacks = [draw(st.sampled_from([0, 0, 10, 20, 30, 50, 100, 500, 980, 2000])) for _ in range(n)]
    ins = []
    for i in range(n):
        if folds[i] is None:  # all-in players (0 behind) may have put in less than the call
            ins.append(call if stacks[i] else draw(st.integers(1, call // 10)) * 10)
        else:
            ins.append(draw(st.integers(0, call // 10)) * 10)
    top = max(ins[i] for i in live)
    conceded = [False] * n
    if showdown:
        for i in live:
            conceded[i] = draw(st.booleans()) and draw(st.booleans())
        if all(conceded[i] for i in live):
            conceded[live[0]] = False
    players = []
    for i in range(n):
        put_in = min(ins[i], top)
        stack = stacks[i] if stacks[i] or put_in else 10
        known = folds[i] is None and not conceded[i] and showdown
        hole = holes[i] if known or draw(st.booleans()) else ()
        players.append(PlayerState(f"P{i + 1}", stack, put_in, folds[i], hole, conceded[i]))
    bank = legal_bank([draw(st.sampled_from([0, 10, 20, 40, 60, 100, 300, 700])) for _ in range(3)])
    return HandState(
        players=tuple(players),
        board=board,
        last_round=last,
        bank=bank,  # type: ignore[arg-type]
        blind_level=draw(st.integers(0, 2)),
        dealer=draw(st.integers(0, n - 1)),
    ).validate()


rule_sets = st.builds(
    Rules,
    **{name: st.sampled_from(values) for name, values in RULE_CHOICES.items()},
)


def assert_agree(state: HandState, deck: Deck, rules: Rules):
    """The readable path and the numba core give the same money, roles, flags and tallies;
    returns the readable result (``scripts/soak.py`` checks it further)."""
    slow = settle(state, deck, rules)
    fast = settle_fast(state, deck, rules)
    out = fast["out"]
    assert fast["stacks"] == slow.stacks, slow.to_text()
    assert fast["bank"] == slow.bank, slow.to_text()
    assert fast["blind_level"] == slow.blind_level
    assert fast["flags"] == slow.flags, slow.to_text()
    roles = fast["roles"]
    assert tuple(i for i, r in enumerate(roles) if r & L.ROLE_WINNER) == slow.winners
    assert tuple(i for i, r in enumerate(roles) if r & L.ROLE_LOSER) == slow.losers
    assert tuple(i for i, r in enumerate(roles) if r & L.ROLE_BANKRUPT) == slow.bankrupt
    for key, idx in (
        ("pot_remainder", L.SO_POT_REMAINDER),
        ("penalty", L.SO_PENALTY),
        ("penalty_paid", L.SO_PENALTY_PAID),
        ("bonus", L.SO_BONUS),
        ("bonus_paid", L.SO_BONUS_PAID),
        ("effect_in", L.SO_EFFECT_IN),
        ("effect_out", L.SO_EFFECT_OUT),
        ("active_ops", L.SO_ACTIVE_OPS),
    ):
        assert slow.totals[key] == int(out[idx]), key
    return slow


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(end_states(), st.sampled_from(sorted(DECKS)), rule_sets)
def test_money_is_conserved_and_no_stack_goes_negative(state, deck_name, rules):
    result = settle(state, DECKS[deck_name], rules)
    before = state.total_money
    after = sum(result.stacks) + sum(result.bank)
    assert before == after
    assert min(result.stacks) >= 0 and min(result.bank) >= 0
    assert result.blind_level >= state.blind_level  # blinds never go down
    if sum(result.bank) == 0:
        assert result.game_over
    for i in result.losers:  # every loser took part in the last round
        folded = state.players[i].folded
        assert folded is None or folded >= state.last_round
    assert set(result.winners).isdisjoint(result.losers)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(end_states(), st.sampled_from(sorted(DECKS)), rule_sets)
def test_numba_core_agrees_with_the_readable_path(state, deck_name, rules):
    assert_agree(state, DECKS[deck_name], rules)


def _seeded_state(rng: np.random.Generator) -> HandState:
    n = int(rng.integers(2, 8))
    last = int(rng.integers(0, 4))
    folds = [None if rng.random() < 0.5 else int(rng.integers(0, last + 1)) for _ in range(n)]
    if all(f is not None for f in folds):
        folds[int(rng.integers(n))] = None
    live = [i for i, f in enumerate(folds) if f is None]
    showdown = len(live) >= 2
    n_board = 5 if showdown else (0, 3, 4, 5)[last]
    cards = rng.permutation(40)
    stacks = rng.choice([0, 10, 30, 60, 200, 980], n)
    call = int(rng.integers(1, 30)) * 10
    ins = [
        (call if stacks[i] else int(rng.integers(1, call // 10 + 1)) * 10)
        if folds[i] is None
        else int(rng.integers(0, call // 10 + 1)) * 10
        for i in range(n)
    ]
    top = max(ins[i] for i in live)
    players = []
    for i in range(n):
        put_in = min(ins[i], top)
        stack = int(stacks[i]) if stacks[i] or put_in else 20
        hole = tuple(int(c) for c in cards[n_board + 2 * i : n_board + 2 * i + 2])
        players.append(PlayerState(f"P{i + 1}", stack, put_in, folds[i], hole, False))
    bank = legal_bank([int(x) for x in rng.choice([0, 10, 30, 70, 300, 700], 3)])
    return HandState(
        tuple(players),
        tuple(int(c) for c in cards[:n_board]),
        last_round=last,
        bank=bank,
        blind_level=int(rng.integers(0, 3)),
        dealer=int(rng.integers(n)),
    ).validate()  # type: ignore[arg-type]


@pytest.mark.parametrize("deck_name", ["reference", "stress", "stress2"])
def test_numba_core_agrees_on_seeded_random_states(deck_name):
    rng = np.random.default_rng(12345)
    deck = DECKS[deck_name]
    for _ in range(400):
        rules = Rules(**{k: str(rng.choice(v)) for k, v in RULE_CHOICES.items()})
        assert_agree(_seeded_state(rng), deck, rules)


def test_batch_kernels_score_and_settle_like_one_by_one():
    """settle_batch (parallel) == settle_batch_serial == settle_fast, with the kernel scoring hands."""
    rng = np.random.default_rng(99)
    deck = DECKS["stress"]
    rules = Rules()
    states = [_seeded_state(rng) for _ in range(300)]
    n_max = max(len(s.players) for s in states)
    m = len(states)
    players = np.zeros((m, n_max, L.N_PCOLS), np.int64)
    n_seats = np.zeros(m, np.int64)
    board = np.zeros((m, 2, 5), np.int64)
    table = np.zeros((m, L.N_TCOLS), np.int64)
    for h, s in enumerate(states):
        p, n, b, t = s.to_kernel()
        players[h, :n] = p
        players[h, :n, L.P_SCORE] = 12345  # must be overwritten by score_players
        n_seats[h], board[h], table[h] = n, b, t
    tables = get_tables("dilemma").kernel_args
    outs = []
    for kernel in (K.settle_batch, K.settle_batch_serial):
        pl = players.copy()
        out = np.zeros((m, L.N_OUT), np.int64)
        kernel((pl, n_seats, board, table), (deck.kernel_args, rules.kernel_args, tables), out, True)
        outs.append((pl, out))
    assert np.array_equal(outs[0][0], outs[1][0]) and np.array_equal(outs[0][1], outs[1][1])
    pl, out = outs[0]
    for h, s in enumerate(states):
        fast = settle_fast(s, deck, rules)
        n = len(s.players)
        assert tuple(pl[h, :n, L.P_FINAL]) == fast["stacks"]
        assert tuple(out[h, L.SO_BANK1 : L.SO_BANK3 + 1]) == fast["bank"]


@pytest.mark.parametrize("deck_name", ["reference", "stress", "stress2"])
def test_kernel_breakdown_adds_up_to_the_result(deck_name):
    """P_POT + P_EFFECT - P_PENALTY + P_BONUS == P_FINAL - P_STACK on every seat; only losers
    pay a penalty and only winners take a bonus."""
    rng = np.random.default_rng(11)
    deck = DECKS[deck_name]
    for _ in range(300):
        rules = Rules(**{k: str(rng.choice(v)) for k, v in RULE_CHOICES.items()})
        players, n, board, table = _seeded_state(rng).to_kernel()
        out = np.zeros(L.N_OUT, np.int64)
        K.settle_core(players, n, board, table, deck.kernel_args, rules.kernel_args, out)
        p = players[:n]
        assert np.array_equal(
            p[:, L.P_POT] + p[:, L.P_EFFECT] - p[:, L.P_PENALTY] + p[:, L.P_BONUS],
            p[:, L.P_FINAL] - p[:, L.P_STACK],
        )
        assert (p[:, L.P_PENALTY] >= 0).all() and (p[:, L.P_BONUS] >= 0).all()
        assert not (p[:, L.P_PENALTY] > 0)[(p[:, L.P_ROLE] & L.ROLE_LOSER) == 0].any()
        assert not (p[:, L.P_BONUS] > 0)[(p[:, L.P_ROLE] & L.ROLE_WINNER) == 0].any()
