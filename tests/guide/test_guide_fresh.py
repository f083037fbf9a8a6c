"""``--fresh`` recomputes every study but the stored bulk solves, which ``--fresh --only NAME`` recomputes."""

from __future__ import annotations

import json

import analysis.guide as guide
from analysis.guide import GuideOptions, run_guide
from analysis.guide.studies import Study


def _study(name: str, runs: list[str], stored: bool = False, depends: tuple[str, ...] = ()) -> Study:
    def run(folder, options, echo):
        runs.append(name)
        (folder / "x.txt").write_text(name)
        return {"manifest": {}, "tables": [], "charts": []}

    return Study(name, f"the {name} study", run, stored=stored, depends=depends)


def test_fresh_keeps_stored_bulk_solves_unless_named(tmp_path, monkeypatch):
    runs: list[str] = []
    studies = (_study("quick_one", runs), _study("bulk_one", runs, stored=True))
    monkeypatch.setattr(guide, "STUDIES", studies)
    monkeypatch.setattr("analysis.guide.page.write_page", lambda out: {"markdown": "m", "html": "h"})
    said: list[str] = []
    run_guide(tmp_path, GuideOptions(), echo=said.append)
    assert runs == ["quick_one", "bulk_one"]
    run_guide(tmp_path, GuideOptions(fresh=True), echo=said.append)
    assert runs[2:] == ["quick_one"]  # the bulk solve was kept
    assert any("bulk_one: finished earlier with the same settings, kept (a stored bulk solve" in s for s in said)
    run_guide(tmp_path, GuideOptions(fresh=True, only=("bulk_one",)), echo=said.append)
    assert runs[3:] == ["bulk_one"]
    assert json.loads((tmp_path / "bulk_one" / "study.json").read_text())["study"] == "bulk_one"


def test_a_study_reruns_when_a_study_it_reads_was_recomputed(tmp_path, monkeypatch):
    runs: list[str] = []
    studies = (_study("source", runs), _study("reader", runs, depends=("source",)), _study("other", runs))
    monkeypatch.setattr(guide, "STUDIES", studies)
    monkeypatch.setattr("analysis.guide.page.write_page", lambda out: {"markdown": "m", "html": "h"})
    run_guide(tmp_path, GuideOptions(), echo=lambda _: None)
    run_guide(tmp_path, GuideOptions(), echo=lambda _: None)
    assert runs == ["source", "reader", "other"]  # the second run kept everything
    run_guide(tmp_path, GuideOptions(fresh=True, only=("source",)), echo=lambda _: None)
    run_guide(tmp_path, GuideOptions(), echo=lambda _: None)
    assert runs[3:] == ["source", "reader"]  # the reader read old results: recomputed; the other kept
