"""The strategy guide (issue 6): ``dilemma guide --quick`` end to end into a temporary
folder, the page lists every study, figures are marked as a preview, a rerun keeps
finished studies, the page rebuilds from results alone, and every image loads in a
real headless Chromium (``scripts/check_guide_browser.py``)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from analysis.guide import STUDIES
from tests.conftest import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
from check_guide_browser import check_page, find_chromium  # noqa: E402

needs_chromium = pytest.mark.skipif(find_chromium() is None, reason="Chromium not installed "
                                    "(.ci/run installs it: apt-get install chromium)")


@pytest.fixture(scope="module")
def quick_guide(tmp_path_factory) -> tuple[Path, str]:
    from tests.conftest import run_cli

    out = tmp_path_factory.mktemp("guide")
    run = run_cli("guide", "--quick", "--out", out, timeout=900)
    assert run.returncode == 0, run.stderr[-3000:]
    return out, run.stdout


@pytest.mark.slow
def test_quick_guide_writes_every_study_and_the_page(quick_guide):
    out, _ = quick_guide
    readme = (out / "README.md").read_text()
    html = (out / "guide.html").read_text()
    for study in STUDIES:
        index = json.loads((out / study.name / "study.json").read_text())
        assert index["settings"]["quick"] is True
        assert study.title in readme and study.title in html
        for table in index["tables"]:
            for ext in (".csv", ".parquet", ".manifest.json"):
                assert (out / study.name / f"{table}{ext}").exists()
        for chart in index["charts"]:
            assert (out / study.name / chart["png"]).exists() and (out / study.name / chart["svg"]).exists()
    assert "PREVIEW" in readme and html.count("data:image/png;base64,") >= len(STUDIES)
    captions = [line for line in readme.splitlines() if line.startswith("*") and "<sub>" in line]
    assert captions and all("PREVIEW" in c and "version=" in c for c in captions)
    assert not list(out.glob(".work-*")), "work folders are moved into place when a study finishes"
    chapter = _chapters(readme, ("equilibrium",))  # quick: three-handed from the turn, no flop share
    assert "| nan" not in chapter and "| not played |" in chapter and "| not computed |" in chapter


def _chapters(readme: str, names: tuple[str, ...]) -> str:
    """The text of the page's chapters of the studies ``names`` (each from its ``## title``
    to the next chapter's)."""
    titles = {s.name: s.title for s in STUDIES}
    parts = readme.split("\n## ")
    return "\n## ".join(p for p in parts if any(p.startswith(titles[n]) for n in names))


@pytest.mark.slow
def test_brag_and_bluffjack_chapters(quick_guide):
    """The Brag and Bluffjack chapters of the quick guide (written once, by the fixture):
    every table and chart, the page shows both chapters with their text and captions."""
    out, _ = quick_guide
    readme = (out / "README.md").read_text()
    for study, tables in (("brag", {"brag_categories", "brag_classes", "brag_multiway",
                                    "brag_thresholds", "brag_blind", "brag_blind_summary"}),
                          ("bluffjack", {"bluffjack_final_totals", "bluffjack_stand_on",
                                         "bluffjack_best", "bluffjack_rule_effects",
                                         "bluffjack_policy", "bluffjack_policy_summary",
                                         "bluffjack_eq_actions", "bluffjack_eq_bluffs", "bluffjack_eq_hit",
                                         "bluffjack_eq_hidden", "bluffjack_eq_pairs", "bluffjack3_actions",
                                         "bluffjack3_bluffs", "bluffjack3_results", "bluffjack3_settled"})):
        index = json.loads((out / study / "study.json").read_text())
        assert set(index["tables"]) == tables and index["title"] in readme
        assert len(index["charts"]) >= 4
        for chart in index["charts"]:
            assert (out / study / chart["svg"]).exists()
    readme = _chapters(readme, ("brag", "bluffjack"))
    assert "Blind play" in readme and "tight field" in readme and "3-2-A" in readme
    assert "The best response" in readme and "Rule options" in readme and "| nan" not in readme
    assert "The betting game played well" in readme and "Bluffs" in readme
    assert "Three-handed (Monte Carlo CFR)" in readme and "Bluffs three-handed" in readme
    captions = [line for line in readme.splitlines() if line.startswith("*") and "<sub>" in line]
    assert captions and all("PREVIEW" in c for c in captions)
    blind_captions = [c for c in captions if "blind minus open" in c]
    assert blind_captions and all("exact heads-up" in c for c in blind_captions)


@pytest.mark.slow
def test_rerun_keeps_finished_studies_and_page_rebuilds_from_results(quick_guide):
    from tests.conftest import run_cli

    out, _ = quick_guide
    again = run_cli("guide", "--quick", "--out", out)
    assert again.returncode == 0, again.stderr
    assert again.stdout.count("finished earlier with the same settings, kept") == len(STUDIES)
    (out / "README.md").unlink()
    page = run_cli("guide", "--page-only", "--out", out)
    assert page.returncode == 0 and (out / "README.md").exists()
    fresh = run_cli("guide", "--quick", "--only", "streets", "--fresh", "--out", out)
    assert fresh.returncode == 0, fresh.stderr
    assert "streets: done" in fresh.stdout and "kept" not in fresh.stdout
    assert "Made hands by street" in (out / "README.md").read_text()


@pytest.mark.slow
@needs_chromium
def test_every_image_of_the_quick_guide_loads_in_chromium(quick_guide, tmp_path):
    out, _ = quick_guide
    result = check_page(out / "guide.html", screenshot=tmp_path / "guide.png")
    assert result["images"] >= len(STUDIES) and result["broken"] == []
    assert (tmp_path / "guide.png").stat().st_size > 10_000


@needs_chromium
def test_committed_guide_loads_in_chromium():
    page = ROOT / "results" / "guide.html"
    assert page.exists(), "the generated default guide is committed under results/"
    result = check_page(page)
    assert result["images"] > 10 and result["broken"] == []


def test_committed_guide_lists_every_study():
    readme = (ROOT / "results" / "README.md").read_text()
    assert "PREVIEW" not in readme, "the committed guide is the full one"
    for study in STUDIES:
        assert study.title in readme
        assert json.loads((ROOT / "results" / study.name / "study.json").read_text())["settings"]["quick"] is False


def test_bad_guide_options_are_one_line(cli, tmp_path):
    bad = cli("guide", "--only", "nosuch", "--out", tmp_path)
    assert bad.returncode == 2
    assert bad.stderr.strip().splitlines() == ["error: unknown study 'nosuch' for --only: use "
                                               + ", ".join(s.name for s in STUDIES)]
    deck = cli("guide", "--deck", "missing.toml", "--out", tmp_path)
    assert deck.returncode == 2 and deck.stderr.startswith("error: ")


def test_the_continuation_comparison_names_classes_of_the_deck():
    """The guide's comparison subset (only part of it runs in --quick) is all real classes."""
    from analysis.dilemma.decks import load_deck
    from analysis.guide.studies import COMPARE_HANDS
    from analysis.studies.ranges import starting_classes

    names = {c.name for c in starting_classes(load_deck("reference").spec)}
    assert set(COMPARE_HANDS) <= names


def test_equilibrium_chapter_says_not_computed_where_the_table_has_no_nash_conv():
    """The three-handed rows of the equilibrium table (Monte Carlo CFR: no exact best response)
    keep a missing NashConv in the stored table; the page says "not computed", never nan."""
    from analysis.guide.sections import NOT_COMPUTED, equilibrium

    folder = ROOT / "results" / "equilibrium"
    stored = __import__("pandas").read_csv(folder / "equilibrium_summary.csv")
    missing = set(stored.loc[stored["nash_conv_pot"].isna(), "label"])
    assert missing and not set(stored.loc[stored["nash_conv_pot"].notna(), "label"]) & missing
    blocks = equilibrium(folder, json.loads((folder / "study.json").read_text()))
    table = next(b.frame for b in blocks if b.kind == "table" and "NashConv (% pot)" in b.frame.columns)
    shown = table.set_index("game")["NashConv (% pot)"]
    assert set(shown[shown == NOT_COMPUTED].index) == missing
    assert all(isinstance(v, float) and v == v for v in shown.drop(list(missing)))
    text = " ".join(b.text for b in blocks if b.kind == "p")
    assert "nan" not in text.split() and "it has no exact best response" in text


@pytest.mark.slow
def test_solved_spots_chapter_reads_the_three_handed_and_texture_tables(quick_guide):
    """The solved-spots chapter's three-handed answer and texture table, with numbers from the
    stored tables (recomputed here from the quick guide's CSVs)."""
    import pandas as pd

    out, _ = quick_guide
    chapter = _chapters((out / "README.md").read_text(), ("solved_spots",))
    folder = out / "solved_spots"
    facing = pd.read_csv(folder / "spots_facing_bet.csv")
    three = facing[(facing.family == "3-river") & (facing.state == "start") & ~facing.line.str.contains("allin")]
    assert set(three["others_in"]) == {1, 2}
    alone = three[three.others_in == 1]
    assert f"Once the other player has folded, folding costs ${alone['fold_cost'].mean():.1f}" in chapter
    assert "calling and losing is worse than folding by about" in chapter and "NashConv (exact)" in chapter
    texture = pd.read_csv(folder / "spots_by_texture.csv")
    assert set(texture["family"]) == {"hu-river", "hu-turn", "3-river"} and "By board texture" in chapter
    three_text = [line for line in chapter.splitlines() if line.startswith(("**Three-handed on the river",
                                                                            "**Facing a bet three-handed"))]
    assert len(three_text) == 2 and not any(" nan" in line for line in three_text)
