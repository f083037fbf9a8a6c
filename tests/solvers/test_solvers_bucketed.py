"""The hooks part 2 (an abstracted Dilemma Hold'em hand) needs, on a toy game: three players,
strength buckets that move between streets (chance nodes with many joint outcomes), folding
when nobody has bet, a bank that pays a bonus and takes a penalty from the losers of the last
betting round (not zero-sum), and infosets keyed by (player, buckets so far, action history)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from analysis.solvers import BettingSpec, Outcome, Street, build_tree, solve, uniform_strategy
from analysis.solvers import profile_value as value_of


class BucketDeal:
    """Each player's bucket (0 weak, 1 strong) is drawn on street 0 and may move on street 1."""

    def __init__(self, n_players: int, stay: float = 0.7, bonus: float = 2.0, penalty: float = 1.0):
        self.n_players = n_players
        self.stay, self.bonus, self.penalty = stay, bonus, penalty

    def initial_state(self):
        return ()

    def steps(self, street: int) -> int:
        return 1

    def outcomes(self, street, step, state):
        out = []
        for joint in itertools.product((0, 1), repeat=self.n_players):
            if street == 0:
                p = 0.5 ** self.n_players
            else:
                p = float(np.prod([self.stay if b == a else 1 - self.stay
                                   for a, b in zip(state, joint, strict=True)]))
            out.append((p, joint, [f"b{b}" for b in joint]))
        return out

    def payoff(self, state, outcome: Outcome):
        n = self.n_players
        live = [p for p in range(n) if outcome.live[p]]
        if outcome.showdown:
            best = max(state[p] for p in live)
            winners = [p for p in live if state[p] == best]
        else:
            winners = live
        losers = [p for p in range(n) if outcome.in_last_round[p] and p not in winners]
        pot = sum(outcome.contributions)
        pay = []
        for p in range(n):
            u = -outcome.contributions[p]
            if p in winners:
                u += (pot + self.bonus) / len(winners)  # the bank's bonus
            if p in losers:
                u -= self.penalty  # paid to the bank
            pay.append(u)
        return pay


def _spec(players: int) -> BettingSpec:
    streets = tuple(Street(name, sizes=(1.0,), sizing="pot", raise_cap=1, fold_when_unbet=True)
                    for name in ("flop", "turn"))
    return BettingSpec(f"bank-{players}p", players, streets, BucketDeal(players), ante=1.0)


def test_tree_shape_and_labels() -> None:
    t = build_tree(_spec(3))
    assert not t.zero_sum
    assert t.counts()["chance"] > 1 and t.nodes[0, 3] == 8  # 2^3 joint buckets at the root
    labels = dict(zip(t.infoset_labels, t.action_labels, strict=True))
    assert labels["b1|"] == ("fold", "check", "bet")  # folding with nothing to call is a move
    assert "b1 b0|ccc/" in labels  # buckets by street, then the history by street


@pytest.mark.parametrize("players, method, iterations", [(2, "cfr+", 2000), (3, "mccfr", 100_000)])
def test_solvers_drive_nash_conv_down(players: int, method: str, iterations: int) -> None:
    t = build_tree(_spec(players))
    start = value_of(t, uniform_strategy(t)).nash_conv
    r = solve(t, method, iterations, seed=2, check_every=iterations // 4)
    assert r.nash_conv < start / 50
    # general sum: the players' values no longer cancel (the bank pays and takes)
    assert abs(sum(r.game_value)) > 0.05
