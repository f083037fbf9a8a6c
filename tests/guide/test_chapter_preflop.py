"""The pre-flop chapter's sentences say what its tables hold, and no more."""

from __future__ import annotations

import pandas as pd

from analysis.guide.chapter_preflop import _sample_text, _states_text


def test_second_sample_sentence_reads_its_table_and_claims_no_cause():
    table = pd.DataFrame({"node": [0, 2], "line": ["(root)", "call"], "player": ["small blind", "big blind"],
                          "classes": [100, 100], "mean_freq_diff": [0.01, 0.03], "max_freq_diff": [0.2, 0.76],
                          "mean_ev_diff": [1.0, 2.0]})
    text = _sample_text(table)[0].text
    assert "2.0 points" in text and "3.0 points at `call`" in text and "76 points" in text and "$1.50" in text
    assert "indifferent" not in text  # the table holds no regrets: it cannot say where actions are indifferent


def test_bare_deck_sentence_does_not_say_only_the_blinds_move():
    spots = pd.DataFrame({"state": ["start", "start"], "deck": ["reference", "bare"], "sample": [0, 0],
                          "blinds": ["10/20"] * 2, "bank": ["300/700/500"] * 2, "value_bb": [8.9, 1.1],
                          "value_sb": [10.1, -1.1]})
    rows = [(state, deck, 0, node, line, who, "AA", "none", 6, 1.0, act, f, 0.0, 0.0, True)
            for state, deck in (("start", "reference"), ("start", "bare"))
            for node, line, who, act, f in ((0, "(root)", "small blind", "fold", 0.1), (0, "(root)", "small blind",
                                                                                      "call", 0.9))]
    chart = pd.DataFrame(rows, columns=["state", "deck", "sample", "node", "line", "player", "hand", "green", "combos",
                                        "reach", "action", "frequency", "ev", "regret", "indifferent"])
    text = " ".join(b.text for b in _states_text(chart, spots, "reference"))
    assert "only the blinds" not in text and "$1.1 and -$1.1 on the bare deck" in text


def test_green_differences_are_counted_per_class_not_per_row(tmp_path):
    from analysis.guide.chapter_preflop import preflop

    rows = []
    for hand, green, kind in (("22", "none", "fold"), ("22", "insurance", "call"), ("22", "insurance+insurance", "call"),
                              ("32o", "none", "fold"), ("32o", "insurance", "call"), ("AA", "none", "raise 60")):
        for action in ("fold", "call", "raise 60"):
            rows.append(("start", "reference", 0, 0, "(root)", "small blind", hand, green, 6, 1.0, action,
                         float(action == kind), 0.0, 0.0, action == kind))
    cols = ["state", "deck", "sample", "node", "line", "player", "hand", "green", "combos", "reach", "action",
            "frequency", "ev", "regret", "indifferent"]
    pd.DataFrame(rows, columns=cols).to_csv(tmp_path / "preflop_chart.csv", index=False)
    pd.DataFrame([{"state": "start", "deck": "reference", "sample": 0, "boards": 60, "blinds": "10/20",
                   "bank": "300/700/500", "exploitability_bb": 0.1, "exploitability_sb": 0.1, "value_bb": 1.0,
                   "value_sb": 1.0}]).to_csv(tmp_path / "preflop_spots.csv", index=False)
    text = " ".join(b.text for b in preflop(tmp_path, {"manifest": {}}))
    assert "2 classes play otherwise with a green card" in text  # 22 (two rows) and 32o


def test_grid_puts_suited_above_and_offsuit_below_as_the_caption_says():
    from analysis.guide.chapter_preflop import grid

    rows = [("A2s", "call"), ("A2o", "fold")]
    chart = pd.DataFrame([{"node": 0, "hand": h, "green": "none", "reach": 1.0, "combos": 4, "action": a,
                           "frequency": float(a == want), "indifferent": a == want}
                          for h, want in rows for a in ("fold", "call")])
    g = grid(chart, 0).set_index("")
    assert g.loc["A", "2"] == "C 100%" and g.loc["2", "A"] == "F 100%"  # row A, column 2: A2s; row 2, column A: A2o


def test_three_handed_section_reads_its_tables(tmp_path):
    import json

    from analysis.guide.chapter_preflop import three_handed

    cols = ["state", "deck", "sample", "node", "line", "player", "hand", "green", "combos", "reach", "action",
            "frequency", "ev", "regret", "indifferent"]
    rows = [("start", "reference", 0, node, line, who, hand, "class mix", 6, 1.0, act, float(act == want), 0.0, 0.0,
             act == want)
            for node, line, who in ((0, "(root)", "button"), (1, "BTN fold", "small blind"),
                                    (9, "BTN raise 60 / SB fold", "big blind"))
            for hand, want in (("AA", "raise 60"), ("32o", "fold")) for act in ("fold", "call", "raise 60")]
    pd.DataFrame(rows, columns=cols).to_csv(tmp_path / "preflop3_chart.csv", index=False)
    start = {"state": "start", "deck": "reference", "sample": 0, "blinds": "10/20", "bank": "300/700/500",
             "chips": 1000, "boards": 1000, "deals_per_triple": 4, "iterations": 100, "nash_conv": 0.123,
             "nash_conv_pct_blinds": 0.41, "value_sb": 5.3, "value_bb": 5.4, "value_btn": 8.3,
             "continuation_se3_20": 33.0}
    # a state with more chips of NashConv but a smaller share of its larger blinds: the two maxima are not a pair
    other = {**start, "state": "bank3-low", "blinds": "30/60", "bank": "0/0/40", "nash_conv": 0.2,
             "nash_conv_pct_blinds": 0.22, "continuation_se3_20": float("nan")}
    pd.DataFrame([start, other]).to_csv(tmp_path / "preflop3_spots.csv", index=False)
    dec = [("start", "reference", 0, 0, "(root)", "button", 1.0, 0.5, 0.0, 0.3, 0.2, 0.0),
           ("start", "reference", 0, 1, "BTN fold", "small blind", 0.5, 0.05, 0.0, 0.8, 0.15, 0.0),
           ("start", "reference", 0, 9, "BTN raise 60 / SB fold", "big blind", 0.004, 0.25, 0.0, 0.7, 0.05, 0.0)]
    pd.DataFrame(dec, columns=["state", "deck", "sample", "node", "line", "player", "probability", "fold", "check",
                               "call", "raise", "allin"]).to_csv(tmp_path / "preflop3_decisions.csv", index=False)
    (tmp_path / "preflop3_chart.manifest.json").write_text(json.dumps({"tree": {"opens_bb": [3.0], "reraises_x": [3.0],
                                                                                 "max_raises": 3}}))
    blocks = three_handed(tmp_path, "reference")
    text = " ".join(b.text for b in blocks if b.kind == "p")
    assert "at most 0.200 chips a hand and at most 0.41% of the blinds' pot" in text and "$20 in each: $33" in text
    assert "opens to 3 big blinds, re-raises to 3x" in text and "$1,000 each" in text and "nan" not in text
    tables = [b.frame for b in blocks if b.kind == "table"]
    freq = tables[0]
    assert list(freq["decision"]) == ["(root)", "BTN fold"]  # reached in 0.4% of hands: not listed
    assert freq["fold %"].tolist() == ["50.0", "5.0"]
    assert len(tables) == 1 + 3 + 1  # frequencies, three grids (no SB facing the open here), the states
    states = tables[-1].iloc[0]
    assert states["button raises or shoves %"] == "20.0" and states["big blind defends an open %"] == "75.0"


def test_class_cost_sentence_reads_its_table():
    from analysis.guide.chapter_preflop import _class_cost

    table = pd.DataFrame({"plays per": ["holding", "class and hand effects", "class"], "gain_bb": [0.02, 0.1, 0.37],
                          "gain_sb": [0.04, 0.2, 1.27], "nash_conv": [0.06, 0.3, 1.64],
                          "nash_conv_pct_blinds": [0.2, 1.0, 5.45], "value_bb": [8.9] * 3, "value_sb": [10.1] * 3})
    text = _class_cost(table)[0].text
    assert "1.27 chips a hand from the small blind and 0.37" in text and "NashConv 1.64 chips, 5.5%" in text
    assert "against 0.060 for the solution" in text and "kept apart it is 0.30 chips" in text


def test_three_handed_grids_follow_the_open_in_the_tables():
    from analysis.guide.chapter_preflop import three_grids

    dec = pd.DataFrame({"line": ["(root)", "BTN fold", "BTN raise 120", "BTN raise 80", "BTN raise 80 / SB fold"]})
    grids = three_grids(dec)
    assert [g[0] for g in grids] == ["(root)", "BTN fold", "BTN raise 80", "BTN raise 80 / SB fold"]
    assert grids[2][1] == "the small blind facing the button's open to 80"
    assert len(three_grids(dec[~dec["line"].str.startswith("BTN raise")])) == 2  # no open: no grids facing it


def test_three_handed_chart_with_postflop_play_reads_its_tables(tmp_path):
    """The section counts the classes that move per decision from the moves table, and reads the values, how
    hands end and each tree's situations from both charts' spots rows."""

    from analysis.guide.chapter_preflop import played3_text

    cols = ["state", "deck", "sample", "node", "line", "player", "hand", "green", "combos", "reach", "action",
            "frequency", "ev", "regret", "indifferent"]
    lines = ((0, "(root)", "button"), (1, "BTN fold", "small blind"), (8, "BTN raise 120", "small blind"),
             (9, "BTN raise 120 / SB fold", "big blind"))
    rows = [("start", "reference", 0, node, line, who, hand, "class mix", 6, 1.0, act, float(act == want), 0.0, 0.0,
             act == want)
            for node, line, who in lines for hand, want in (("AA", "raise 120"), ("32o", "fold"))
            for act in ("fold", "call", "raise 120")]
    pd.DataFrame(rows, columns=cols).to_csv(tmp_path / "preflop3_chart_played.csv", index=False)
    moves = [{"state": "start", "node": node, "line": line, "hand": hand, "largest_change": change}
             for node, line, _ in lines for hand, change in (("AA", 0.25 if node in (0, 9) else 0.1), ("32o", 0.19))]
    pd.DataFrame(moves).to_csv(tmp_path / "preflop3_played_moves.csv", index=False)
    spot = {"state": "start", "deck": "reference", "sample": 0, "nash_conv": 0.1, "nash_conv_pct_blinds": 0.33,
            "value_sb": 5.0, "value_bb": 6.0, "value_btn": 8.0, "share_fold_end": 0.2, "share_two_see_flop": 0.5,
            "share_three_see_flop": 0.3}
    played = {**spot, "nash_conv": 0.15, "nash_conv_pct_blinds": 0.5, "value_sb": 14.0, "share_three_see_flop": 0.1,
              "share_two_see_flop": 0.6, "share_fold_end": 0.3, "two_see_flop_edged": 26, "two_see_flop_all_in": 11,
              "three_see_flop_checkdown": 5}
    # another state: the larger NashConv in chips, the smaller share of its blinds
    other = {**played, "state": "level2", "nash_conv": 0.2, "nash_conv_pct_blinds": 0.4, "two_see_flop_edged": 15}
    pd.DataFrame([played, other]).to_csv(tmp_path / "preflop3_played_spots.csv", index=False)
    blocks = played3_text(tmp_path, pd.DataFrame([spot, {**spot, "sample": 1, "value_sb": 99.0}]))
    text = " ".join(b.text for b in blocks if b.kind == "p")
    assert "NashConv at most 0.200 chips a hand and at most 0.50% of the blinds' pot in every game state" in text
    states = [b.frame for b in blocks if b.kind == "table"][0]
    assert list(states["state"]) == ["start"]  # level2 has no check-down row here
    row = states.iloc[0]
    assert row["situations: two see the flop (edged) / two all in / three see it"] == "26 / 11 / 5"
    assert row["values SB / BB / button $"] == "5.0 / 6.0 / 8.0 -> 14.0 / 6.0 / 8.0"
    assert row["hands end %"] == "20.0 / 50.0 / 30.0 -> 30.0 / 60.0 / 10.0"
    assert [row[f"moved: {k}"] for k in ("button first in", "small blind first in", "small blind facing the open",
                                         "big blind facing the open, small blind out")] == ["1", "0", "0", "1"]
    assert row["NashConv $"] == "0.100 / 0.150"
    assert "button first in** (start state; 1 class moves 20 points or more from the check-down chart; most: AA)" \
        in text
    assert ("20.0% of hands end before the flop under the check-down chart and 30.0% under this one, and three see "
            "the flop in 30.0% and 10.0%") in text
    assert len([b for b in blocks if b.kind == "table"]) == 1 + 2  # the states, two grids


def test_both_three_handed_charts_in_whole_games_name_only_differences_beyond_two_errors(tmp_path):
    from analysis.guide.chapter_preflop import _played_games3_text

    base = pd.DataFrame({"opponent": ["abc", "maniac"], "win_share": [0.40, 0.30], "win_share_se": [0.01, 0.01]})
    base.to_csv(tmp_path / "preflop3_games.csv", index=False)
    base.assign(win_share=[0.45, 0.31]).to_csv(tmp_path / "preflop3_played_games.csv", index=False)
    blocks = _played_games3_text(tmp_path)
    text = " ".join(b.text for b in blocks if b.kind == "p")
    assert "two standard errors (as if the runs were independent; they play the same deals): abc (+5.0 points)." in text
    assert "wins less against 0 of the 2 opponents" in text
    table = [b.frame for b in blocks if b.kind == "table"][0]
    assert list(table["chart with postflop play wins %"]) == ["45.0 ± 1.0", "31.0 ± 1.0"]
    base.assign(opponent=["abc", "tight"]).to_csv(tmp_path / "preflop3_played_games.csv", index=False)
    assert _played_games3_text(tmp_path) == []


def test_chart3_nodes_follow_the_open_of_each_states_blinds():
    from analysis.studies.preflop_chart import chart3_nodes

    lines = {"(root)": 0, "BTN fold": 1, "BTN raise 180": 225, "BTN raise 180 / SB fold": 226,
             "BTN raise 540": 300, "BTN raise 180 / SB raise 540": 400}
    chart = pd.DataFrame({"line": list(lines), "node": list(lines.values())})
    assert chart3_nodes(chart) == {"preflop3_chart_button": 0, "preflop3_chart_sb_first": 1,
                                   "preflop3_chart_sb_vs_open": 225, "preflop3_chart_bb_vs_open": 226}
    assert chart3_nodes(chart[chart["line"].isin(["(root)", "BTN fold"])]) == {"preflop3_chart_button": 0,
                                                                               "preflop3_chart_sb_first": 1}
