"""The hit-or-stand study: the kernel's hand against a plain referee, Monte Carlo against the
exact heads-up value, seats that do not matter to fixed thresholds, thread independence."""

from __future__ import annotations

import numpy as np
import pytest

from analysis.runners import FixedTrials, LocalBackend, run
from analysis.studies.bluffjack import _kernels as K
from analysis.studies.bluffjack.exact import headsup_threshold_equity
from analysis.studies.bluffjack.hit_stand import HitStandError, HitStandSpec, hit_stand_study
from analysis.studies.bluffjack.plan import EvaluatePlan, HitStandCell, threshold_policy
from analysis.studies.bluffjack.probabilities import OddsError
from evaluator.blackjack import BluffjackRules, get_bluffjack_rules
from tests.reference.bluffjack import ref_play


@pytest.mark.parametrize("rules", ["source", "charlie5", "charlie=5,charlie_rank=cards",
                                   "order21", "no-house"])
def test_kernel_hand_equals_the_referee(rules: str) -> None:
    r = get_bluffjack_rules(rules)
    rng = np.random.default_rng(11)
    players_arr = np.zeros((K.MAX_PLAYERS, K.N_P), np.int64)
    for trial in range(1500):
        n_players = int(rng.integers(2, 11))
        hero = int(rng.integers(n_players))
        deck = rng.permutation(52).astype(np.uint8)
        if trial % 3 == 0:  # small cards first: long hands, Charlies
            small = [c for c in deck if c < 24]
            deck = np.array(small + [c for c in deck if c >= 24], np.uint8)
        policy = (rng.random(K.N_STATES) < 0.5).astype(np.int8) if trial % 2 else \
            threshold_policy(int(rng.integers(12, 22)))
        threshold = int(rng.integers(12, 22))
        ptr = K._deal_start(players_arr, n_players, deck)
        share, _, _ = K._complete(players_arr, n_players, hero, 0, ptr, deck,
                                  (threshold, policy, r.kernel_args))

        def pol(total, soft, stood, waiting, policy=policy):
            return bool(policy[K.state_index(total, int(soft), stood, waiting)])

        ref = ref_play([int(c) for c in deck], n_players, hero, pol, threshold, r.charlie,
                       bool(r.charlie_exact), r.charlie_rank == "cards", r.order21, r.house)
        assert share == pytest.approx(ref), (trial, n_players, hero)


def _mc(hero_n: int, opp_t: int, rules: str, trials: int, position: int = 0):
    plan = EvaluatePlan([HitStandCell(opp_t, 1, position)], [get_bluffjack_rules(rules)],
                        threshold_policy(hero_n)[None, None, :], 9, FixedTrials(trials))
    u = plan.unpack(run(plan).totals)
    return u["equity"][0, 0, 0], u["stderr"][0, 0, 0]


@pytest.mark.parametrize(("hero_n", "opp_t", "rules"), [
    (12, 12, "source"), (13, 17, "charlie=5,charlie_rank=cards"),
])
def test_monte_carlo_heads_up_agrees_with_exact(hero_n: int, opp_t: int, rules: str) -> None:
    exact = headsup_threshold_equity(hero_n, opp_t, rules)["equity"]
    for position in (0, 1):
        mean, se = _mc(hero_n, opp_t, rules, 200_000, position)
        assert abs(mean - exact) < 4.5 * se, (position, mean, exact, se)


@pytest.mark.slow
def test_monte_carlo_heads_up_agrees_with_exact_stand_on_16_vs_17() -> None:
    for rules in ("source", "no-house"):
        exact = headsup_threshold_equity(16, 17, rules)["equity"]
        mean, se = _mc(16, 17, rules, 400_000, 1)
        assert abs(mean - exact) < 4.5 * se


def test_exact_heads_up_basics() -> None:
    assert headsup_threshold_equity(12, 12)["equity"] == pytest.approx(0.5)  # symmetric
    with pytest.raises(OddsError, match="order21"):
        headsup_threshold_equity(16, 17, "order21")


def test_study_tables_threads_and_seats() -> None:
    spec = HitStandSpec(opponents=(1, 3), rules=("source", "charlie5", "no-house"), stderr=0.006,
                        improve_trials=8_000, improve_rounds=2, min_visits=50)
    a = hit_stand_study(spec, backend=LocalBackend(1))
    b = hit_stand_study(spec, backend=LocalBackend(2))
    for name, frame in a.frames.items():
        assert frame.equals(b.frames[name]), name
    table = a.frames["bluffjack_stand_on"]
    assert set(table["stand_on"]) == set(range(12, 22)) and (table["stderr"] <= 0.006).all()
    # a fixed threshold ignores the table, so its seat does not matter (the deck is exchangeable)
    base = table[(table["rules"] == "source") & (table["opponents"] == 3)]
    by_seat = base.pivot_table(index="stand_on", columns="position", values="equity")
    se = base["stderr"].max()
    assert (by_seat.max(axis=1) - by_seat.min(axis=1)).max() < 6 * se
    best = a.frames["bluffjack_best"]
    br = best[best["rules"] == "source"]
    assert br["br_equity"].notna().all() and (br["gain"] > -4 * br["gain_stderr"] - 1e-9).all()
    effects = a.frames["bluffjack_rule_effects"].set_index(["rules", "opponents"])
    assert set(effects.index.get_level_values(0)) == {"source", "charlie5", "no-house"}
    assert (effects.loc["source", "change_at_base_stand_on"] == 0).all()
    # paired on the same deals: far tighter than the two pot shares' own errors
    assert (effects.loc["no-house", "change_at_base_stand_on_stderr"] < 0.5 * 0.006).all()
    # without a house an all-bust pot is shared instead of lost: never worse
    assert (effects.loc["no-house", "change_at_base_stand_on"] >= 0).all()
    policy = a.frames["bluffjack_policy"]
    assert set(policy["action"]) <= {"hit", "stand"} and (policy["visits"] >= 50).all()


@pytest.mark.parametrize(("options", "message"), [
    ({"opponents": (10,)}, "opponents must be 1-9"),
    ({"opponents": (0,)}, "opponents must be 1-9"),
    ({"opp_threshold": 25}, "2-21"),
    ({"stand_on": (12, 30)}, "2-21"),
    ({"rules": ("source", "jokers")}, "unknown Bluffjack rules"),
    ({"stderr": -1.0}, "must be positive"),
])
def test_bad_settings(options: dict, message: str) -> None:
    with pytest.raises((HitStandError, ValueError), match=message):
        HitStandSpec(**options)


def test_rules_object_round_trip() -> None:
    r = BluffjackRules(charlie=7, house=False)
    assert get_bluffjack_rules(r.name.replace("+", ",").replace("charlie7", "charlie=7")
                               .replace("no-house", "house=false")) == r
