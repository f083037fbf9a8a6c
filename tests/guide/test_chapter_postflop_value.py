"""The postflop-value section and the pre-flop chapter's played chart say what their tables hold."""

from __future__ import annotations

import pandas as pd

from analysis.guide.chapter_postflop_value import postflop_value
from analysis.guide.chapter_preflop import _played_text


def test_section_reads_seat_and_class_edges(tmp_path):
    pd.DataFrame({"state": ["start"] * 4 + ["bank3-low"] * 4, "level": [20, 20, 60, 60, 60, 60, 180, 180],
                  "player": ["oop", "ip"] * 4, "edge": [-4.5, 3.25, -6.0, 5.0, -2.0, 4.0, 10.0, 11.0],
                  "edge_se": [0.5, 0.25, 1.0, 1.0, 1.0, 1.0, 2.0, 2.0], "flops": 12}).to_csv(
        tmp_path / "postflop_edge_seats.csv", index=False)
    rows = [{"state": st, "level": lv, "player": seat, "hand": h, "edge": e, "edge_se": 2.0 * lv / 20}
            for st, levels in (("start", (20, 60)), ("bank3-low", (60, 180))) for lv in levels
            for seat in ("oop", "ip") for h, e in (("AA", 9.0), ("72o", -3.0), ("98s", 6.0))]
    pd.DataFrame(rows).to_csv(tmp_path / "postflop_edge.csv", index=False)
    pd.DataFrame({"iterations": [120, 60], "exploitability_pct_pot": [1.97, 0.2], "seconds": [150.0, 30.0]}).to_csv(
        tmp_path / "postflop_edge_spots.csv", index=False)
    pd.DataFrame({"line": ["call / check"] * 2, "level": 20, "player": ["oop", "ip"], "range_share": [0.643, 0.811],
                  "consistent_edge": [-22.4, 14.0], "abstraction_edge": [-16.5, 6.4], "difference": [-5.9, 7.6],
                  "difference_se": [1.5, 2.0], "flops": 4}).to_csv(tmp_path / "postflop_edge_ranges_summary.csv",
                                                                   index=False)
    info = {"manifest": {"levels": {"start": [20, 60], "bank3-low": [60, 180]}, "states": ["start", "bank3-low"],
                         "boards": ["9s 9c 6h", "2s 10d 9d"], "seed": 0, "chips": 1000, "target_chips": 1.0,
                         "range_flops": ["9s 9c 6h"]}}
    text = " ".join(b.text for b in postflop_value(tmp_path, info) if b.kind == "p")
    tables = [b.frame for b in postflop_value(tmp_path, info) if b.kind == "table"]
    assert "small blind, who acts last after the flop, gains +$3.2" in text and "big blind -$4.5" in text
    assert "120-120" not in text and "60-120 DCFR iterations" in text and "1.97% of the pot" in text
    assert "start $20, $60; bank3-low $60, $180" in text and "(start, bank3-low: the state's bank" in text
    assert "$2.0 at $20, $6.0 at $60" in text and "worth $7.8 a hand between them" in text
    assert "the bank): -$1.2 at $20, -$1.0 at $60." in text
    assert ("bank3-low: at $60 in the small blind gains +$4.0 and the big blind -$2.0 (position worth $6.0), and "
            "at $180 in the two seats together take +$21.0 from the bank") in text
    assert "(the widest at the start: ±$1.0)" in text
    assert "after `call / check` +$36.4 with the chart's ranges against +$22.9 credited" in text
    assert ("Told from zero (beyond 3.18 standard errors, Student's t over 4 flops, 5%): the big blind after "
            "`call / check` (-$5.9), the small blind after `call / check` (+$7.6).") in text
    assert "first 1 flops of the sample (9s 9c 6h)" in text
    ranges = next(t for t in tables if "difference $" in t.columns)
    assert ranges["difference $"].tolist() == ["-5.9 ± 1.5", "+7.6 ± 2.0"]
    assert ranges["range (share of holdings' weight) %"].tolist() == ["64.3", "81.1"]
    assert tables[0]["edge $"].tolist()[:4] == ["-4.5 ± 0.5", "+3.2 ± 0.2", "-6.0 ± 1.0", "+5.0 ± 1.0"]
    assert tables[0]["state"].tolist() == ["start"] * 4 + ["bank3-low"] * 4
    most = tables[1].set_index(["seat", "gains"])["classes (edge $ ± SE)"]
    assert most[("big blind (first after the flop)", "most")].startswith("AA +9.0 ± 2.0, 98s +6.0")


def test_section_without_tables_says_it_is_not_in_a_preview(tmp_path):
    assert "Not in a preview" in postflop_value(tmp_path, {})[0].text


def test_played_text_sets_both_charts_side_by_side(tmp_path):
    rows = []
    for state, shift in (("start", 0.0), ("bank3-low", 0.25)):
        for hand in ("AA", "72o"):
            for action, f_cd, f_pl in (("fold", 0.5, 0.0 + shift), ("call", 0.5, 0.25), ("raise 60", 0.0, 0.75 - shift)):
                rows.append((state, "reference", 0, 0, "(root)", "small blind", hand, "none", 6, 1.0, action, f_cd,
                             0.0, 0.0, False, f_pl))
        if state == "bank3-low":  # the big blind facing the raise: reached in both charts
            for action, f_cd, f_pl in (("fold", 1.0, 0.5), ("call", 0.0, 0.5)):
                rows.append((state, "reference", 0, 23, "raise 180", "big blind", "AA", "none", 6, 1.0, action,
                             f_cd, 0.0, 0.0, False, f_pl))
    cols = ["state", "deck", "sample", "node", "line", "player", "hand", "green", "combos", "reach", "action",
            "frequency", "ev", "regret", "indifferent", "played"]
    both = pd.DataFrame(rows, columns=cols)
    chart = both.drop(columns="played")
    base = chart[chart["state"] == "start"]
    both.drop(columns="frequency").rename(columns={"played": "frequency"}).to_csv(
        tmp_path / "preflop_chart_played.csv", index=False)
    pd.DataFrame([{"state": st, "deck": "reference", "exploitability_bb": 0.04, "exploitability_sb": e,
                   "value_bb": v, "value_sb": 20.0} for st, e, v in (("start", 0.05, 1.5), ("bank3-low", 0.07, 3.5))]
                 ).to_csv(tmp_path / "preflop_played_spots.csv", index=False)
    pd.DataFrame({"state": ["start"] * 4 + ["bank3-low"] * 4, "node": [0, 0, 22, 22, 0, 0, 23, 23],
                  "line": ["(root)", "(root)", "raise 60", "raise 60", "(root)", "(root)", "raise 180", "raise 180"],
                  "hand": ["AA", "72o"] * 4, "largest_change": [0.75, 0.1, 0.0, 0.0, 0.5, 0.5, 0.5, 0.0]}).to_csv(
        tmp_path / "preflop_played_moves.csv", index=False)
    for name, share in (("preflop_games", 0.45), ("preflop_played_games", 0.52)):
        pd.DataFrame({"opponent": ["abc"], "win_share": [share], "win_share_se": [0.02]}).to_csv(
            tmp_path / f"{name}.csv", index=False)
    start = pd.Series({"value_bb": 8.9, "value_sb": 10.1})
    spots = pd.DataFrame({"state": ["start", "bank3-low"], "deck": "reference", "sample": 0, "value_bb": [8.9, 2.0],
                          "value_sb": [10.1, 4.0]})
    blocks = _played_text(tmp_path, base, start, (chart, spots))
    text = " ".join(b.text for b in blocks if b.kind == "p")
    assert "big blind $1.5 (check-down $8.9), small blind $20.0 (check-down $10.1)" in text
    assert "0.050 chips" in text and "1 of 2 classes move" in text and "most: AA" in text
    shares = next(b.frame for b in blocks if b.kind == "table")
    assert shares.iloc[0]["fold"] == "50.0 / 0.0" and shares.iloc[0]["raise"] == "0.0 / 75.0"
    states = next(b.frame for b in blocks if b.kind == "table" and "state" in b.frame.columns).set_index("state")
    assert states.loc["bank3-low", "sb fold %"] == "50.0 / 25.0" and states.loc["start", "sb raise %"] == "0.0 / 75.0"
    assert states.loc["bank3-low", "sb allin %"] == "0.0 / 0.0"
    assert states.loc["bank3-low", "big blind facing"] == "raise 180"
    assert states.loc["bank3-low", "bb fold %"] == "100.0 / 50.0" and states.loc["bank3-low", "bb call %"] == "0.0 / 50.0"
    assert states.loc["start", "bb fold %"] == "- / -"  # never reached in these charts: no share, not 0
    assert states.loc["bank3-low", "values bb / sb $ (check-down)"] == "$2.0 / $4.0"
    assert states.loc["bank3-low", "values bb / sb $ (played)"] == "$3.5 / $20.0"
    assert states.loc["bank3-low", "classes moving 20+ points (sb / bb)"] == "2 / 1"
    assert states.loc["bank3-low", "exploitability chips"] == "0.070"
    games = [b.frame for b in blocks if b.kind == "table"][-1]
    assert games.iloc[0].tolist() == ["abc", "45.0 ± 2.0", "52.0 ± 2.0"]
    assert "against abc: +7.0 points, 2.5 standard errors if the two runs were independent" in text
    assert "Not in a preview" not in text and "not in a preview" in _played_text(tmp_path / "none", base,
                                                                                   start, (chart, spots))[0].text


def test_a_difference_within_students_bound_is_not_called_a_difference():
    from analysis.guide.chapter_postflop_value import _beyond

    rows = pd.DataFrame({"line": ["call / check"] * 2, "player": ["oop", "ip"], "difference": [-3.2, 3.4],
                         "difference_se": [1.1, 1.5], "flops": 4})
    assert _beyond(rows).endswith(": none.")  # 2.9 and 2.3 standard errors: within t(3)'s 3.18
    assert _beyond(rows.assign(flops=12)).endswith("the big blind after `call / check` (-$3.2), the small blind "
                                                   "after `call / check` (+$3.4).")  # t(11): 2
    assert _beyond(rows.assign(flops=1, difference_se=float("nan"))) == "With one flop no difference has a standard error."
