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
