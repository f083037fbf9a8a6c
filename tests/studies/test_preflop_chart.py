"""The pre-flop chart as an engine strategy: every decision and class has its rule, the engine's
features pick it, and the postflop policy table follows."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest

from analysis.core.features import FEATURE_INDEX
from analysis.core.strategy import load_strategy
from analysis.engine.preflop import DATA as PREFLOP_DATA
from analysis.solvers.preflop_hu.bet_tree import SMALL_BLIND, PreflopTreeConfig, build_preflop_tree
from analysis.solvers.preflop_hu.solve import PreflopError
from analysis.studies.preflop_chart import (
    _check_playable,
    class_mix,
    continuation_seed,
    equilibrium_strategy_toml,
    sample_agreement,
    solve_chart,
)


@pytest.fixture(scope="module")
def solved():
    sol = solve_chart("start", "reference", 0, boards=40, target_chips=None, max_iterations=20)
    return sol, sol.chart()


def _policy_table(tmp_path):
    rows = [(street, facing, 2, -1, b, act, np.nan, 1.0) for street in ("flop", "turn", "river")
            for facing, act in (("none", "check"), ("bet", "call")) for b in range(4)]
    frame = pd.DataFrame(rows, columns=["street", "facing", "players", "position", "bucket", "action", "size",
                                        "probability"])
    path = tmp_path / "post.parquet"
    frame.to_parquet(path)
    (tmp_path / "post.manifest.json").write_text(json.dumps({"n_buckets": 4}))
    return path


def _decide(strategy, features: dict[str, float]):
    feat = [math.nan] * len(FEATURE_INDEX)
    for k, x in features.items():
        feat[FEATURE_INDEX[k]] = x
    for rule in strategy.rules:
        if all(lo <= feat[f] < hi for f, lo, hi in rule.conditions):
            return rule
    return None


def test_the_strategy_plays_the_chart_before_the_flop(solved, tmp_path):
    sol, chart = solved
    path = tmp_path / "eq.toml"
    path.write_text(equilibrium_strategy_toml(sol, chart, _policy_table(tmp_path)))
    strategy = load_strategy(path)
    tree = sol.tree
    n_classes = chart["hand"].nunique()
    assert len(strategy.rules) == len(tree.decisions()) * n_classes + 24
    pct = pd.read_csv(PREFLOP_DATA / "preflop_dilemma.csv").set_index("hand")["percentile"]
    for v in tree.decisions():
        who = tree.player[v]
        to_call = (max(tree.ins[v]) - tree.ins[v][who]) / 20
        for hand in ("AA", "A10s", "72o", "32o"):
            rule = _decide(strategy, {"street": 0, "facing": float(to_call > 0), "players": 2,
                                      "position": 0 if who == SMALL_BLIND else 1, "strength": pct[hand],
                                      "to_call": to_call})
            assert rule is not None, (tree.line[v], hand)
            mix = class_mix(chart)
            want = mix[(mix["node"] == v) & (mix["hand"] == hand)]
            got = sorted(p for _, _, p in rule.actions)
            assert np.allclose(got, sorted(want["frequency"][want["frequency"] / want["frequency"].sum() > 1e-6]),
                               atol=2e-6)
    after = _decide(strategy, {"street": 2, "facing": 1, "players": 2, "position": 0, "strength": 0.9})
    assert after is not None and len(after.actions) == 1  # the policy table: call


def test_sample_agreement_compares_the_two_samples(solved):
    _, chart = solved
    both = pd.concat([chart.assign(state="start", deck="reference", sample=s) for s in (0, 1)])
    table = sample_agreement(both, "reference")
    assert len(table) == chart["node"].nunique()
    assert (table["mean_freq_diff"] == 0).all() and (table["max_freq_diff"] == 0).all()


def test_trees_the_engine_rules_cannot_play_are_refused():
    def check(config: PreflopTreeConfig) -> None:
        tree = build_preflop_tree(config)
        _check_playable(tree, {v: (max(tree.ins[v]) - tree.ins[v][tree.player[v]]) / config.big_blind
                               for v in tree.decisions()})

    check(PreflopTreeConfig())  # the study's tree: every decision has its own rule
    with pytest.raises(PreflopError, match="one raise size"):
        check(PreflopTreeConfig(opens=(2.0, 5.0)))
    # a limp and a raise to 3 big blinds, or an open to 3 and a re-raise to 5: the small blind owes 2 either way
    with pytest.raises(PreflopError, match="cannot tell"):
        check(PreflopTreeConfig(opens=(3.0,), reraises=(5 / 3,)))


def test_abstraction_cost_plays_the_solution_and_its_group_mixes(solved):
    from analysis.studies.preflop_chart import abstraction_cost

    sol, _ = solved
    cost = abstraction_cost(sol).set_index("plays per")
    assert cost.loc["holding", ["gain_bb", "gain_sb"]].tolist() == pytest.approx(list(sol.exploitability))
    assert cost.loc["holding", ["value_bb", "value_sb"]].tolist() == pytest.approx(list(sol.values()))
    own = sol.grouped_strategy([str(i) for i in range(sol.game.h)])  # a group per holding: the strategy itself
    for v in sol.tree.decisions():
        np.testing.assert_allclose(own[v], sol.strategy(v))
    by_class = sol.grouped_strategy(["one"] * sol.game.h)[0]  # one group: every holding plays the same mix
    np.testing.assert_allclose(by_class, by_class[0][None, :].repeat(len(by_class), axis=0))


def test_the_guide_seed_moves_the_continuation_boards():
    """Each guide seed draws its own two board samples (seed 0 keeps the committed samples 0 and 1)."""
    assert [continuation_seed(seed, k) for seed in (0, 1, 2) for k in (0, 1)] == [0, 1, 2, 3, 4, 5]
    second = solve_chart("start", "reference", 1, boards=40, target_chips=None, max_iterations=1)
    other_seed = solve_chart("start", "reference", 0, boards=40, target_chips=None, max_iterations=1, seed=1)
    assert second.spot.seed == 1 and other_seed.spot.seed == 2
    assert not np.array_equal(second.continuation.se, other_seed.continuation.se)  # other boards
