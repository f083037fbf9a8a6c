"""The three-handed equilibrium as an engine strategy: the committed file is what the stored tables
make, the engine's features pick each decision's rule, the rules play the chart, and the engine plays
whole games with it."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from analysis.core.features import ACTION_KINDS, FEATURE_INDEX
from analysis.core.strategy import load_strategy
from analysis.engine.preflop import DATA as PREFLOP_DATA
from analysis.studies.preflop_chart import (
    EQUILIBRIUM3,
    PLAYED3_TABLES,
    chart3_start,
    equilibrium3_strategy_toml,
    features3,
    indistinct3,
    start_tree3,
    threehanded_games,
)

ROOT = Path(__file__).resolve().parents[2] / "results"
FILE = ROOT / "preflop" / f"{EQUILIBRIUM3}.toml"
POSTFLOP = ROOT / "equilibrium" / "equilibrium_three_policy.parquet"


@pytest.fixture(scope="module")
def stored():
    chart, decisions = chart3_start(ROOT / "preflop")
    return start_tree3(), chart, decisions, _matcher(load_strategy(FILE))


def _matcher(strategy):
    """The engine's lookup (``analysis.engine._decide.decide``): the first rule whose conditions hold."""
    lo = np.full((len(strategy.rules), len(FEATURE_INDEX)), -np.inf)
    hi = np.full_like(lo, np.inf)
    for r, rule in enumerate(strategy.rules):
        for f, a, b in rule.conditions:
            lo[r, f], hi[r, f] = max(lo[r, f], a), min(hi[r, f], b)

    def first(features: dict[str, float]):
        feat = np.zeros(len(FEATURE_INDEX))
        for k, x in features.items():
            feat[FEATURE_INDEX[k]] = x
        hits = np.flatnonzero(((feat >= lo) & (feat < hi)).all(axis=1))
        return strategy.rules[hits[0]] if len(hits) else None

    return first


def _preflop(tree, v: int, hand: str, pct: pd.Series, to_call: float | None = None, pot: float | None = None):
    players, position, facing, owe, in_pot = features3(tree, v)
    return {"street": 0, "players": players, "position": position, "behind": players - 1 - position,
            "facing": facing, "to_call": owe if to_call is None else to_call, "pot": in_pot if pot is None else pot,
            "strength": pct[hand]}


def test_the_committed_file_is_what_the_stored_tables_make():
    assert FILE.read_text() == equilibrium3_strategy_toml(ROOT / "preflop", POSTFLOP)
    played = ROOT / "preflop" / f"{EQUILIBRIUM3}-played.toml"  # the chart with postflop play where two see the flop
    text = played.read_text()
    assert text == equilibrium3_strategy_toml(ROOT / "preflop", POSTFLOP, name=f"{EQUILIBRIUM3}-played",
                                              tables=PLAYED3_TABLES)
    assert "preflop3_chart_played, preflop3_played_decisions" in text and text != FILE.read_text()
    assert load_strategy(played).name == f"{EQUILIBRIUM3}-played"


def test_the_features_are_what_the_engine_sees_at_hand_checked_decisions(stored):
    tree = stored[0]
    # (players still in, place in the order button-small blind-big blind, facing, to call and pot in big blinds)
    want = {"(root)": (3, 0, 1, 1.0, 1.5), "BTN fold": (2, 0, 1, 0.5, 1.5), "BTN raise 60": (3, 1, 1, 2.5, 4.5),
            "BTN raise 60 / SB fold": (2, 1, 1, 2.0, 4.5), "BTN call / SB call": (3, 2, 0, 0.0, 3.0),
            "BTN fold / SB raise 60": (2, 1, 1, 2.0, 4.0)}
    for line, features in want.items():
        assert features3(tree, tree.node_at(line)) == features, line


def test_the_rules_play_the_chart(stored):
    tree, chart, _, first = stored
    pct = pd.read_csv(PREFLOP_DATA / "preflop_dilemma.csv").set_index("hand")["percentile"]
    shared = {v for vs in indistinct3(tree, chart["node"].unique()) if len(vs) > 1 for v in vs}
    lines = ("(root)", "BTN fold", "BTN raise 60", "BTN raise 60 / SB fold", "BTN call / SB call")
    for line in lines:
        v = tree.node_at(line)
        assert v not in shared
        for hand in ("AA", "A10s", "A9o", "72o", "32o"):
            rule = first(_preflop(tree, v, hand, pct))
            assert rule is not None and rule.text == f"{line}: {hand}"
            rows = chart[(chart["node"] == v) & (chart["hand"] == hand)]
            kinds = rows.assign(kind=rows["action"].str.split().str[0]).groupby("kind")["frequency"].sum()
            kinds = kinds / kinds.sum()
            got = sorted(p for _, _, p in rule.actions)
            assert np.allclose(got, sorted(kinds[kinds > 1e-6]), atol=2e-6), (line, hand)
    # decisions the engine cannot tell apart share a rule: each action's probability lies between theirs
    names = {code: name for name, code in ACTION_KINDS.items() if name != "bet"}
    groups = [vs for vs in indistinct3(tree, chart["node"].unique()) if len(vs) > 1]
    assert groups
    for vs in groups:
        for hand in ("AA", "A9o", "32o"):
            rule = first(_preflop(tree, vs[0], hand, pct))
            assert rule.text == " | ".join(tree.line[v] for v in vs) + f": {hand}"
            each = chart[chart["node"].isin(vs) & (chart["hand"] == hand)]
            for kind, _, p in rule.actions:
                mine = each[each["action"].str.split().str[0] == names[kind]].groupby("node")["frequency"].sum()
                assert mine.min() - 2e-6 <= p <= mine.max() + 2e-6, (rule.text, names[kind])
    # the button's open to 60 over the blinds' 30: the engine's size is a share of the pot after calling
    opens = [s for kind, s, _ in first(_preflop(tree, 0, "AA", pct)).actions if not math.isnan(s)]
    assert opens == [pytest.approx(40 / 50)]
    # a raise the tree does not have (the button opens to 80: 3.5 big blinds to call) plays the open to 60's rule
    rule = first(_preflop(tree, tree.node_at("BTN raise 60"), "AA", pct, to_call=3.5, pot=5.5))
    assert rule.text == "BTN raise 60: AA"


def test_every_decision_has_a_rule_before_and_after_the_flop(stored):
    tree, chart, _, first = stored
    pct = pd.read_csv(PREFLOP_DATA / "preflop_dilemma.csv").set_index("hand")["percentile"]
    charted = set(chart["node"])
    for v in tree.decisions():  # those the chart leaves out play a charted decision with the same features' group
        rule = first(_preflop(tree, v, "98s", pct))
        assert rule is not None, tree.line[v]
        if v in charted:
            assert (tree.line[v] or "(root)") in rule.text.split(": ")[0].split(" | ")
    for street in (1, 2, 3):
        for players in (2, 3):
            for position in range(players):
                for facing in (0, 1):
                    for strength in (0.0, 0.3, 0.7, 0.999):
                        assert first({"street": street, "players": players, "position": position,
                                      "behind": players - 1 - position, "facing": facing,
                                      "strength": strength, "to_call": facing, "pot": 4.0}) is not None


def test_the_engine_plays_whole_three_handed_games_with_it_and_the_chapter_reads_them(tmp_path):
    from analysis.core.io import write_table
    from analysis.guide.chapter_preflop import _games3_text

    games, ends = threehanded_games(FILE, 2, seed=5, opponents=("abc",))
    row, (versus, alone) = games.iloc[0], (ends.iloc[0], ends.iloc[1])
    assert row["opponent"] == "abc" and row["games"] == 2 and 0 <= row["win_share"] <= 1
    assert versus["games"] == 6 and alone["games"] == 6  # three rotations of two deals; self-play as many games
    assert alone["strategies"] == ",".join([EQUILIBRIUM3] * 3)
    for e in (versus, alone):
        assert e["share_bank"] + e["share_one_left"] + e["share_cap"] == pytest.approx(1.0)
    folder = tmp_path / "preflop"
    folder.mkdir()
    write_table(games, folder, "preflop3_games", {"strategy": FILE.name, "seed": 5, "charted_decisions": 39,
                                                  "tree_decisions": 174})
    write_table(ends, folder, "preflop3_game_endings", {})
    text = " ".join(b.text or "" for b in _games3_text(folder))
    table = next(b.frame for b in _games3_text(folder) if b.frame is not None)
    assert table["equilibrium wins %"].iloc[0] == f"{100 * row['win_share']:.1f} ± {100 * row['win_share_se']:.1f}"
    assert len(table) == 1 and f"{alone['mean_hands']:.1f} ± {alone['mean_hands_se']:.1f} hands" in text
    assert "39 of the tree's 174" in text
