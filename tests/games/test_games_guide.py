"""The Brag and Bluffjack guide chapters (``dilemma guide --quick --only brag --only bluffjack``):
every table and chart is written, the page shows both chapters with their text and captions."""

from __future__ import annotations

import json

import pytest


@pytest.mark.slow
def test_quick_chapters(cli, tmp_path) -> None:
    r = cli("guide", "--quick", "--only", "brag", "--only", "bluffjack", "--out", tmp_path,
            timeout=900)
    assert r.returncode == 0, r.stderr[-3000:]
    readme = (tmp_path / "README.md").read_text()
    for study, tables in (("brag", {"brag_categories", "brag_classes", "brag_multiway",
                                    "brag_thresholds", "brag_blind", "brag_blind_summary"}),
                          ("bluffjack", {"bluffjack_final_totals", "bluffjack_stand_on",
                                         "bluffjack_best", "bluffjack_rule_effects",
                                         "bluffjack_policy", "bluffjack_policy_summary",
                                         "bluffjack_eq_actions", "bluffjack_eq_bluffs", "bluffjack_eq_hit",
                                         "bluffjack_eq_hidden", "bluffjack_eq_pairs", "bluffjack3_actions",
                                         "bluffjack3_bluffs", "bluffjack3_results", "bluffjack3_settled"})):
        index = json.loads((tmp_path / study / "study.json").read_text())
        assert set(index["tables"]) == tables and index["title"] in readme
        assert len(index["charts"]) >= 4
        for chart in index["charts"]:
            assert (tmp_path / study / chart["svg"]).exists()
    assert "Blind play" in readme and "tight field" in readme and "3-2-A" in readme
    assert "The best response" in readme and "Rule options" in readme and "| nan" not in readme
    assert "The betting game played well" in readme and "Bluffs" in readme
    assert "Three-handed (Monte Carlo CFR)" in readme and "Bluffs three-handed" in readme
    captions = [line for line in readme.splitlines() if line.startswith("*") and "<sub>" in line]
    assert captions and all("PREVIEW" in c for c in captions)
    blind_captions = [c for c in captions if "blind minus open" in c]
    assert blind_captions and all("exact heads-up" in c for c in blind_captions)
