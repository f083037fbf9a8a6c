"""The Dilemma abstraction's chance and payoffs: deals are seeded and reproducible, buckets are
evaluator.strength's, and every terminal pays exactly what the readable settlement referee pays
on the real end state (pot, effects, penalty of the last round's losers, river exception, bonus),
both as the reference computes it and as the MCCFR walk is paid (fixed part + group value)."""

from __future__ import annotations

import numpy as np
import pytest

from analysis.dilemma.settlement import HandState, PlayerState, settle
from analysis.solvers._layout import WN_KEY
from analysis.solvers.abstracted import DilemmaError, DilemmaSpec, build_public_tree, sample_deals
from analysis.solvers.abstracted._deal_kernels import group_shares, group_values
from analysis.solvers.abstracted.public_tree import (
    CL_ALLIN,
    CL_FOLD0,
    CL_LAST,
    TC_CLASS,
    TC_NODE,
    class_text,
)
from evaluator.strength import strength
from tests.reference.dilemma_flat import utility

SPECS = {
    "heads-up flop": DilemmaSpec(players=2, street="flop", buckets=5, sizes="1,allin", raise_cap=2,
                                 deals=256, deals_per_board=16, seed=3),
    "three-handed turn": DilemmaSpec(players=3, street="turn", buckets=3, sizes="0.5,allin",
                                     raise_cap=2, deals=192, deals_per_board=16, seed=4),
}


def referee_utility(tree, deals, t: int, d: int) -> list[int]:
    """Net chips of every seat at terminal ``t`` on deal ``d``, by the readable referee."""
    spec = tree.spec
    row = tree.classes[int(tree.terms[t, TC_CLASS])]
    last, allin = int(row[CL_LAST]), bool(row[CL_ALLIN])
    rec = deals.records[d]
    n = spec.players
    live = [row[CL_FOLD0 + p] < 0 for p in range(n)]
    n_board = 5 if sum(live) >= 2 else last + 2
    players = []
    for p in range(n):
        put = int(tree.term_in[t, p])
        fold = int(row[CL_FOLD0 + p])
        players.append(PlayerState(f"P{p}", spec.stack - put, put, None if fold < 0 else fold,
                                   (int(rec[5 + 2 * p]), int(rec[6 + 2 * p]))))
    assert not allin or all(tree.term_in[t, p] == spec.stack for p in range(n) if live[p])
    state = HandState(tuple(players), tuple(int(c) for c in rec[:n_board]),
                      (1, 1, 1, 2, 3)[:n_board], last_round=last, bank=spec.bank, dealer=n - 1,
                      game=spec.deck_obj.game)
    res = settle(state, spec.deck_obj, spec.rules_obj)
    return [res.stacks[p] - spec.stack for p in range(n)]


@pytest.mark.parametrize("name", list(SPECS))
def test_terminal_payoffs_equal_the_referee(name: str) -> None:
    spec = SPECS[name]
    tree = build_public_tree(spec)
    deals = sample_deals(spec)
    rng = np.random.default_rng(0)
    picks = rng.choice(deals.n_deals, size=24 if spec.players == 2 else 8, replace=False)
    checked_classes = set()
    groups = tree.term_groups[1]
    walk_nodes, _, term_fixed = tree.walk_args
    term_group = walk_nodes[tree.terms[:, TC_NODE], WN_KEY]  # what the walk reads at each terminal
    group_value = np.zeros((groups.shape[0], spec.players))
    shares = np.zeros((groups.shape[0], 2 ** spec.players, spec.players), np.int64)
    group_shares(groups, spec.players, spec.rules_obj.kernel_args, shares)
    for d in picks:
        money, winners = deals.payoffs(tree, int(d))
        group_values(groups, shares, (money, winners), group_value)
        for t in range(tree.n_terminals):
            got = utility(tree, deals, t, int(d), money, winners)
            want = referee_utility(tree, deals, t, int(d))
            assert got == want, (name, class_text(tree, int(tree.terms[t, TC_CLASS])),
                                 tree.term_in[t].tolist(), got, want)
            walk = (term_fixed[t] + group_value[term_group[t]]).tolist()  # what the MCCFR walk is paid
            assert walk == want, (name, t, walk, want)
            checked_classes.add(int(tree.terms[t, TC_CLASS]))
    assert checked_classes == set(range(tree.classes.shape[0]))  # folds, showdowns, all-ins


def test_the_rules_reach_the_payoffs() -> None:
    """Heads-up, a flop folder pays the flop penalty; three-handed, an early folder pays nothing
    when the hand goes on (the penalty goes to the losers of the last round)."""
    spec = SPECS["three-handed turn"]
    tree = build_public_tree(spec)
    deals = sample_deals(spec)
    labels = [class_text(tree, c) for c in range(tree.classes.shape[0])]
    early = labels.index("river showdown after folds by P0")
    money = np.array([deals.payoffs(tree, d)[0][early] for d in range(64)])
    assert (money[:, 0] == 0).all()  # folded on the turn: not in the last round, pays nothing
    assert (money[:, 1:] < 0).any()  # the showdown loser pays the river penalty
    hu = SPECS["heads-up flop"]
    t2 = build_public_tree(hu)
    d2 = sample_deals(hu)
    flop_fold = [class_text(t2, c) for c in range(t2.classes.shape[0])].index("flop fold by P0")
    paid = np.array([d2.payoffs(t2, d)[0][flop_fold, 0] for d in range(64)])
    assert (paid <= 0).all() and (paid < 0).mean() > 0.5  # the folder pays the flop penalty


def test_buckets_are_evaluator_strength() -> None:
    spec = SPECS["heads-up flop"]
    deals = sample_deals(spec)
    for d in range(0, deals.n_deals, 37):
        rec = deals.records[d]
        for s in range(spec.n_streets):
            board = [int(c) for c in rec[: spec.first_street + 2 + s]]
            for p in range(2):
                x = strength([int(rec[5 + 2 * p]), int(rec[6 + 2 * p])], board, "dilemma")
                assert deals.buckets[d, s, p] == min(int(x * spec.buckets), spec.buckets - 1)
    assert np.array_equal(deals.hist[:, -1, 0] % spec.buckets, deals.buckets[:, -1, 0])


def test_deals_are_reproducible_and_seeded(tmp_path) -> None:
    spec = SPECS["heads-up flop"]
    a, b = sample_deals(spec), sample_deals(spec)
    assert np.array_equal(a.records, b.records)
    other = sample_deals(spec.with_options(seed=5))
    assert not np.array_equal(a.records, other.records)
    from analysis.runners import run
    from analysis.solvers.abstracted.deals import DealPlan

    small_tasks = run(DealPlan(spec), task_seconds=1e-6)  # many tiny tasks: same deals
    assert np.array_equal(small_tasks.records, a.records)
    # each record is a deal of distinct cards
    cards = a.records[:, :9]
    assert all(len(set(row)) == 9 for row in cards.tolist())


def test_tree_states_the_rules_of_betting() -> None:
    spec = DilemmaSpec(players=2, street="river", buckets=2, sizes="0.5,1,allin", raise_cap=2,
                       deals=100)
    tree = build_public_tree(spec)
    root = [tree.action_label(1 + a) for a in range(int(tree.nodes[0, 3]))]
    assert root == ["fold", "check", "bet 0.5 pot", "bet 1 pot", "allin"]  # fold for free is a move
    no_fold = build_public_tree(spec.with_options(free_fold=False))
    assert [no_fold.action_label(1 + a) for a in range(int(no_fold.nodes[0, 3]))][0] == "check"
    # every non-all-in contribution leaves at least the liability behind
    live_levels = tree.term_in[tree.term_in < spec.stack]
    assert (spec.stack - live_levels >= spec.liability).all()
    assert "2 players from the river" in spec.describe()


@pytest.mark.parametrize("options, message", [
    ({"players": 4}, "players must be 2 or 3"),
    ({"street": "preflop"}, "pre-flop is not modelled"),
    ({"sizes": "half"}, "bet size 'half'"),
    ({"buckets": 1}, "buckets must be"),
    ({"deck": "nosuch"}, "unknown deck"),
    ({"preflop_in": 15}, "multiple of $10"),
    ({"bank": (300, 0, 500)}, "bank 2 is empty but bank 1 holds 300"),
])
def test_bad_options_are_one_line_errors(options, message) -> None:
    with pytest.raises(DilemmaError, match=message.replace("$", r"\$")) as err:
        DilemmaSpec(**options)
    assert "\n" not in str(err.value)
