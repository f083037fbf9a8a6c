"""The strategy guide (issue 6): ``dilemma guide --quick`` end to end into a temporary
folder, the page lists every study, figures are marked as a preview, a rerun keeps
finished studies, the page rebuilds from results alone, and every image loads in a
real headless Chromium (``scripts/check_guide_browser.py``)."""

from __future__ import annotations

import json
import sys
import time
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


@pytest.mark.slow
def test_rerun_keeps_finished_studies_and_page_rebuilds_from_results(quick_guide):
    from tests.conftest import run_cli

    out, _ = quick_guide
    start = time.perf_counter()
    again = run_cli("guide", "--quick", "--out", out)
    assert again.returncode == 0, again.stderr
    assert again.stdout.count("finished earlier with the same settings, kept") == len(STUDIES)
    (out / "README.md").unlink()
    page = run_cli("guide", "--page-only", "--out", out)
    assert page.returncode == 0 and (out / "README.md").exists()
    assert time.perf_counter() - start < 120


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


def test_fresh_recomputes_a_finished_study(cli, tmp_path):
    first = cli("guide", "--only", "streets", "--out", tmp_path)
    kept = cli("guide", "--only", "streets", "--out", tmp_path)
    fresh = cli("guide", "--only", "streets", "--fresh", "--out", tmp_path)
    assert first.returncode == kept.returncode == fresh.returncode == 0
    assert "streets: done" in first.stdout and "kept" in kept.stdout
    assert "streets: done" in fresh.stdout and "kept" not in fresh.stdout
    assert "Made hands by street" in (tmp_path / "README.md").read_text()


def test_the_continuation_comparison_names_classes_of_the_deck():
    """The guide's comparison subset (only part of it runs in --quick) is all real classes."""
    from analysis.dilemma.decks import load_deck
    from analysis.guide.studies import COMPARE_HANDS
    from analysis.studies.ranges import starting_classes

    names = {c.name for c in starting_classes(load_deck("reference").spec)}
    assert set(COMPARE_HANDS) <= names
