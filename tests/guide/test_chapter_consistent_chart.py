"""The consistent-chart section says what its tables hold."""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis.guide.chapter_consistent_chart import consistent_chart, residual_size

LINES = ("call / check", "raise 60 / call")


def _tables(folder):
    pd.DataFrame({"round": [0, 1, 2], "iterations": [75, 100, 125], "exploitability_chips": [0.03, 0.04, 0.05],
                  "value_bb": [9.0, 11.5, 11.0], "value_sb": [22.4, 20.0, 20.5],
                  "p[call / check]": [0.52, 0.50, 0.505], "p[raise 60 / call]": [0.0165, 0.03, 0.028],
                  "move_first": [np.nan, 0.12, 0.02], "move_all": [np.nan, 0.08, 0.01]}).to_csv(
        folder / "consistent_rounds.csv", index=False)
    rows = []
    for k, scale in ((1, 1.0), (2, 0.25)):
        for line, level, p in ((LINES[0], 20, 0.5), (LINES[1], 60, 0.03)):
            for seat, d in (("oop", -4.0), ("ip", 6.0)):
                rows.append({"round": k, "line": line, "level": level, "player": seat, "probability": p,
                             "range_share": 0.6, "consistent_edge": 10.0 + d * scale, "credited_edge": 10.0,
                             "difference": d * scale, "difference_se": 1.0, "flops": 8})
    pd.DataFrame(rows).to_csv(folder / "consistent_residual.csv", index=False)
    pd.DataFrame([{"round": k, "line": line, "level": lv, "board": "9s 9c 6h", "probability": 0.5, "range_oop": 0.643,
                   "range_ip": 0.811, "iterations": it, "exploitability_chips": 0.5 + it / 1000, "seconds": 60.0}
                  for k in (1, 2) for (line, lv), it in zip(((LINES[0], 20), (LINES[1], 60)), (90, 60), strict=True)]
                 ).to_csv(folder / "consistent_spots.csv", index=False)
    pd.DataFrame([{"state": "start", "node": 0, "line": "(root)", "hand": h, "call_checkdown": a, "call_played": b,
                   "fold_checkdown": 1 - a, "fold_played": 1 - b, "largest_change": abs(b - a)}
                  for h, a, b in (("AA", 1.0, 0.9), ("72o", 0.2, 0.8), ("98s", 0.5, 0.45))]).to_csv(
        folder / "consistent_moves.csv", index=False)


def test_section_reads_the_rounds_the_residual_and_the_moves(tmp_path):
    _tables(tmp_path)
    info = {"manifest": {"boards": ["9s 9c 6h", "2s 10d 9d"], "target_chips": 1.0, "floor": 1e-4,
                         "chart_target_chips": 0.05, "chart_boards": 2000}}
    blocks = consistent_chart(tmp_path, info)
    text = " ".join(b.text for b in blocks if b.kind == "p")
    tables = [b.frame for b in blocks if b.kind == "table"]
    assert "in 2 rounds" in text and "(2 lines)" in text and "first 2 flops" in text
    assert "or 400 iterations (60-90 DCFR iterations, 0.59 chips at most; 4 minutes" in text
    lines = tables[0]
    assert lines.columns.tolist()[:5] == ["line", "level $", "round 0 %", "round 1 %", "round 2 %"]
    assert lines["round 1 %"].tolist() == ["50.00", "3.00"] and lines.iloc[0, -1] == "64.3 / 81.1"
    residual = tables[1]
    assert residual["difference $"].tolist()[:2] == ["-4.0 ± 1.0", "+6.0 ± 1.0"]
    assert "Round 1: Told from zero (beyond 2.36 standard errors, Student's t over 8 flops, 5%)" in text
    rounds = tables[2]
    assert rounds["moved: small blind's first action / every decision, points"].tolist() == ["", "12.0 / 8.0",
                                                                                           "2.0 / 1.0"]
    size = residual_size(pd.read_csv(tmp_path / "consistent_residual.csv"))
    assert size[1] == 5.0 and size[2] == 1.25
    assert rounds["its edges off by $ (next round's measure)"].tolist() == ["5.00", "1.25", "not measured"]
    assert ("The gap was $5.00 a line for round 0's chart (against random-range edges) and $1.25 for round 1's "
            "(against the line edges it was solved with): smaller.") in text
    assert "1 of 3 classes move 20 points or more; most: 72o (fold 80% -> call 80%)" in text


def test_section_without_tables_says_it_is_not_in_a_preview(tmp_path):
    assert "Not in a preview" in consistent_chart(tmp_path, {})[0].text


def test_section_sets_the_games_beside_round_zeros(tmp_path):
    folder = tmp_path / "consistent_chart"
    folder.mkdir()
    (tmp_path / "preflop").mkdir()
    _tables(folder)
    pd.DataFrame({"opponent": ["abc", "maniac"], "games": 200, "win_share": [0.55, 0.6],
                  "win_share_se": [0.02, 0.025]}).to_csv(folder / "consistent_games.csv", index=False)
    pd.DataFrame({"opponent": ["abc", "maniac"], "games": 200, "win_share": [0.505, 0.61],
                  "win_share_se": [0.0227, 0.02]}).to_csv(tmp_path / "preflop" / "preflop_played_games.csv", index=False)
    (tmp_path / "preflop" / "preflop_played_games.manifest.json").write_text('{"seed": 0}')
    blocks = consistent_chart(folder, {"manifest": {"boards": ["9s 9c 6h"], "seed": 0}})
    games = [b.frame for b in blocks if b.kind == "table"][-1]
    assert games["last round's chart wins %"].tolist() == ["55.0 ± 2.0", "60.0 ± 2.5"]
    assert games["round 0's chart wins % (the pre-flop chapter's)"].tolist() == ["50.5 ± 2.3", "61.0 ± 2.0"]
    assert "Beyond two standard errors (as if the runs were independent; they play the same deals): none." in " ".join(
        b.text for b in blocks if b.kind == "p")
    # games of another seed are not set beside these
    blocks = consistent_chart(folder, {"manifest": {"boards": ["9s 9c 6h"], "seed": 1}})
    games = [b.frame for b in blocks if b.kind == "table"][-1]
    assert games.columns.tolist() == ["opponent", "deals", "last round's chart wins %"]


def test_section_names_the_chart_closest_to_consistent(tmp_path):
    from analysis.guide.chapter_consistent_chart import second_best_regret

    _tables(tmp_path)
    chart = pd.DataFrame([{"round": r, "node": 0, "green": g, "hand": h, "action": a, "regret": x}
                          for r in (0, 1) for g in ("none", "dividend") for h, xs in (("AA", (0, 4, 9)), ("72o", (0, 2)))
                          for a, x in zip(("call", "raise", "fold"), xs, strict=False)])
    assert second_best_regret(chart).tolist() == [3.0, 3.0]  # (4 and 2: the median; green holdings left out)
    text = " ".join(b.text for b in consistent_chart(tmp_path, {"manifest": {"boards": ["9s 9c 6h"]}}) if b.kind == "p")
    assert ("**Which chart to use.** Of the charts measured, round 1's was closest to consistent ($1.25 a line "
            "against $5.00 for round 0's); round 2's is not measured yet") in text
    assert "rounds do not reach" not in text  # (moved 1-8 points)
    # gaps $5.00 and $1.25, each with a standard error of sqrt(2 (0.5^2 + 0.03^2)) / 1.06 = $0.668 a line
    assert ("round 1's chart is closer than round 0's by $3.75 a line, ± $0.95 (each gap's standard error") in text
    assert "more than twice that: the chart to prefer is round 1's (`consistent_chart`, round 1)" in text
    assert "the guide's chart stays" not in text
    residual = pd.read_csv(tmp_path / "consistent_residual.csv")
    residual.assign(difference_se=3.0).to_csv(tmp_path / "consistent_residual.csv", index=False)
    text = " ".join(b.text for b in consistent_chart(tmp_path, {"manifest": {"boards": ["9s 9c 6h"]}}) if b.kind == "p")
    assert "by $3.75 a line, ± $2.84" in text and "the flops cannot tell the two apart: the guide's chart stays round 0's" in text


def test_section_counts_the_signs_and_says_whether_the_values_settle(tmp_path):
    _tables(tmp_path)
    rounds = pd.read_csv(tmp_path / "consistent_rounds.csv")
    rounds["move_first"], rounds["move_all"] = [np.nan, 0.5, 0.4], [np.nan, 0.45, 0.3]
    rounds.to_csv(tmp_path / "consistent_rounds.csv", index=False)
    residual = pd.read_csv(tmp_path / "consistent_residual.csv")
    residual["difference"] = [-4.0, -6.0, -3.0, 2.9, -1.0, -2.5, 0.5, 0.5]  # round 1: all 4 told, 3 negative
    residual.to_csv(tmp_path / "consistent_residual.csv", index=False)
    text = " ".join(b.text for b in consistent_chart(tmp_path, {"manifest": {"boards": ["9s 9c 6h"]}}) if b.kind == "p")
    # t(7) = 2.36 with SE 1: told are -4, -6, -3, +2.9 (round 1) and -2.5 (round 2)
    assert "Of the 5 differences told from zero, 4 are negative: the charts credit seeing the flop" in text
    # values 9.0/22.4 -> 11.5/20.0 -> 11.0/20.5: moves 2.5/2.4 then 0.5/0.5, each smaller
    assert "the values per hand moved by $2.5 / $2.4, $0.5 / $0.5 (big / small blind)" in text
    assert "each move smaller than the one before" in text
    rounds["value_bb"] = [9.0, 11.5, 15.0]
    rounds.to_csv(tmp_path / "consistent_rounds.csv", index=False)
    text = " ".join(b.text for b in consistent_chart(tmp_path, {"manifest": {"boards": ["9s 9c 6h"]}}) if b.kind == "p")
    assert "$2.5 / $2.4, $3.5 / $0.5" in text and "each move smaller" not in text


def test_section_says_every_round_only_when_every_round_leans_negative(tmp_path):
    _tables(tmp_path)
    residual = pd.read_csv(tmp_path / "consistent_residual.csv")
    residual["difference"] = [-4.0, -6.0, -3.0, 2.9, 3.0, 2.5, 0.5, 0.5]  # round 1: 3 of 4 told negative; round 2: 2 of 2 positive
    residual.to_csv(tmp_path / "consistent_residual.csv", index=False)
    text = " ".join(b.text for b in consistent_chart(tmp_path, {"manifest": {"boards": ["9s 9c 6h"]}}) if b.kind == "p")
    assert "Of the 6 differences told from zero, 3 are negative." in text
    residual["difference"] = [-4.0, -6.0, -3.0, 2.9, -3.0, 2.5, 0.5, 0.5]  # round 2: 1 of 2 negative: no majority
    residual.to_csv(tmp_path / "consistent_residual.csv", index=False)
    text = " ".join(b.text for b in consistent_chart(tmp_path, {"manifest": {"boards": ["9s 9c 6h"]}}) if b.kind == "p")
    assert "Of the 6 differences told from zero, 4 are negative: the charts credit seeing the flop" in text
    assert "in every round" not in text
