"""The strategy guide (issue 6): ``dilemma guide --quick`` end to end into a temporary
folder, the page lists every study, figures are marked as a preview, a rerun keeps
finished studies, the page rebuilds from results alone, and every image loads in a
real headless Chromium (``scripts/check_guide_browser.py``). The solved-spots study's
tables against its stored solutions, and the strategy browser clicked in Chromium, what it
shows compared with the solution files, read the same quick guide (one build, not two)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from analysis.guide import STUDIES
from analysis.solvers.card_level import load_solution
from analysis.studies.made_hands import made_hand
from analysis.studies.solved_spots import family_state
from tests.conftest import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
from check_guide_browser import check_page, click_browser, find_chromium  # noqa: E402

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


# ---------------------------------------------------------------- the solved-spots study and its browser
# (read from the quick guide's folder: one build of the quick guide serves both)


def test_tables_come_from_the_stored_solutions(quick_guide):
    study, _ = quick_guide
    folder = study / "solved_spots"
    spots = pd.read_csv(folder / "spots.csv")
    files = sorted((folder / "solutions").glob("*.npz"))
    assert sorted(spots.groupby("family").size().items()) == [("3-river", 1), ("hu-river", 4), ("hu-turn", 1)]
    assert len(files) == 4  # quick: river 2 boards x 2 game states kept; the turn's and the three-handed
    three = spots[spots.family == "3-river"].iloc[0]  # river's files dropped (large)
    assert three.players == 3 and three.iterations == 10  # quick: stopped after 10 iterations, NashConv stated
    assert three.nash_conv_pct_pot == three.exploitability_pct_pot > 0
    for path in files:
        sol = load_solution(path)
        family, state = family_state(path)
        row = spots[(spots.board == sol.spot.describe()["board"]) & (spots.state == state.name)
                    & (spots.family == family.name)]
        assert len(row) == 1 and sol.exploitability_pct <= (2.0 if family.name == "hu-river" else 3.0)
        assert row.ev_oop.iloc[0] == pytest.approx(sol.ev()["oop"]) and row.iterations.iloc[0] == sol.iterations
    summary = pd.read_csv(folder / "spots_summary.csv")
    one = summary[(summary.line == "(root)") & (summary.by == "made_hand")]
    shares = one.groupby(["state", "board", "group"]).share.first().groupby(["state", "board"]).sum()
    np.testing.assert_allclose(shares.to_numpy(), 1.0, atol=1e-9)


@needs_chromium
@pytest.mark.parametrize("spot, line, cls, made", [(0, 0, "AA", -1), (3, 1, "A9o", -1), (1, 2, "A10s", 9)])
def test_the_browser_shows_the_stored_solution(quick_guide, spot, line, cls, made):
    study, _ = quick_guide
    data = json.loads((study / "solved_spots" / "spots_browser.json").read_text())
    entry = data["spots"][spot]
    shown = click_browser(study / "guide.html", spot, line, cls, made)
    assert shown["ready"] and shown["selected"] == [cls] and shown["seats"] == 2
    assert (shown["spot"], shown["line"]) == (spot, line)
    assert entry["board"] in shown["info"] and entry["lines"][line]["line"] in shown["info"]
    path = next((study / "solved_spots" / "solutions").glob(f"{entry['family']}-{entry['state']}-"
                                                            f"{entry['board'].replace(' ', '')}.npz"))
    _check_shown(shown, load_solution(path), entry["lines"][line]["line"], cls, made, data["made_hands"])
    # speed in Chromium on this machine (recorded, not asserted: no timing assertions in unit tests)
    print(f"first view {shown['ready_ms']:.0f} ms, switch {shown['switch_ms']:.1f} ms, click {shown['click_ms']:.1f} ms")


@pytest.fixture(scope="module")
def three_handed_spot(quick_guide):
    """The quick guide's three-handed river spot: its index in the browser data, its entry and its
    solution (the file is dropped, large: solved again, the same deterministic 10 iterations)."""
    from analysis.solvers.card_level import solve_spot
    from analysis.studies.solved_spots import FAMILIES, GAME_STATES

    study, _ = quick_guide
    data = json.loads((study / "solved_spots" / "spots_browser.json").read_text())
    index = next(i for i, s in enumerate(data["spots"]) if s.get("seats") == 3)
    entry = data["spots"][index]
    family = next(f for f in FAMILIES if f.name == entry["family"])
    state = next(s for s in GAME_STATES if s.name == entry["state"])
    sol = solve_spot(family.spot(entry["board"], state, "reference"), target_pct=5.0, max_iterations=10)
    assert entry["family"] == "3-river" and sol.iterations == entry["iterations"]
    return index, entry, sol, data["made_hands"]


@needs_chromium
@pytest.mark.parametrize("seat, cls, filtered", [(0, "AA", False), (2, "A9o", False), (1, "99", True)])
def test_the_browser_shows_a_three_handed_spot(quick_guide, three_handed_spot, seat, cls, filtered):
    """Switched to 3 players, the browser shows the three-handed spot's decisions by seat (the first
    decision of ``seat``), and a class's holdings with the solution's frequencies and EVs (``filtered``:
    only the made hand of the class's first holding)."""
    study, _ = quick_guide
    index, entry, sol, made_hands = three_handed_spot
    line = next(i for i, x in enumerate(entry["lines"]) if x["player"] == seat)
    player = entry["players"][str(seat)]
    made = next(m for h, m in zip(player["holdings"], player["made"], strict=True) if _class(h) == cls) \
        if filtered else -1
    shown = click_browser(study / "guide.html", index, line, cls, made)
    assert shown["ready"] and shown["seats"] == 3 and (shown["spot"], shown["line"]) == (index, line)
    assert shown["selected"] == [cls] and entry["board"] in shown["info"]
    text = entry["lines"][line]["line"]
    assert f"{('first', 'second', 'third')[seat]} to act after {text}" in shown["info"]
    _check_shown(shown, sol, text, cls, made, made_hands)
    print(f"3 players: first view {shown['ready_ms']:.0f} ms, player-count switch {shown['seats_ms']:.1f} ms, "
          f"switch {shown['switch_ms']:.1f} ms, click {shown['click_ms']:.1f} ms")


def _check_shown(shown: dict, sol, text: str, cls: str, made: int, made_hands: list[str]) -> None:
    """The holdings table the browser shows for class ``cls`` (made-hand filter ``made``) at the
    decision ``text`` is the solution's: its holdings in order, made hands, frequencies and EVs."""
    steps = () if text == "(root)" else tuple(text.split(" / "))
    table = sol.strategy(steps)
    labels, ev = sol.action_values(steps)
    names = list(table.index)
    board = sol.board_at(sol.solver.node(steps) if sol.spot.players == 3 else sol.node(steps))
    assert shown["header"] == ["holding", "made hand", "reach", *[f"{a} {k}" for a in labels for k in ("%", "EV")]]
    expected = [h for h in names if _class(h) == cls
                and (made < 0 or made_hand(_ids(sol, h), board, sol.spot.spec) == made_hands[made])]
    assert [r[0] for r in shown["rows"]] == expected and expected
    for row in shown["rows"]:
        h = names.index(row[0])
        assert row[1] == made_hand(_ids(sol, row[0]), board, sol.spot.spec)
        for a in range(len(labels)):
            assert float(row[3 + 2 * a]) == pytest.approx(100 * table.iloc[h, a], abs=0.36)  # 0.5% steps, 1 decimal
            if np.isfinite(ev[a, h]):
                assert float(row[4 + 2 * a]) == pytest.approx(ev[a, h], abs=0.11)  # tenths, 1 decimal
            else:
                assert row[4 + 2 * a] == ""


def _ids(sol, name: str) -> tuple[int, int]:
    for player in range(sol.spot.players):
        for (a, b), n in zip(sol.spot.holdings(player)[0], sol.holding_names(player), strict=True):
            if n == name:
                return int(a), int(b)
    raise AssertionError(f"no holding {name}")


def _class(holding: str) -> str:
    import re

    order = ["A", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
    a, sa, b, sb = re.match(r"^(10|[2-9A])([shdc])(10|[2-9A])([shdc])$", holding).groups()
    if order.index(a) > order.index(b):
        a, sa, b, sb = b, sb, a, sa
    return a + b if a == b else a + b + ("s" if sa == sb else "o")


def test_the_turn_browser_data_is_the_solve_it_names(quick_guide):
    """The turn's solution file is dropped (large): solving the same spot again gives the stored data."""
    study, _ = quick_guide
    import base64

    from analysis.solvers.card_level import solve_spot
    from analysis.studies.solved_spots import FAMILIES, FREQ_SCALE, GAME_STATES

    data = json.loads((study / "solved_spots" / "spots_browser.json").read_text())
    entry = next(s for s in data["spots"] if s["family"] == "hu-turn")
    family = next(f for f in FAMILIES if f.name == "hu-turn")
    state = next(s for s in GAME_STATES if s.name == entry["state"])
    sol = solve_spot(family.spot(entry["board"], state, "reference"), target_pct=3.0, max_iterations=3000)
    assert sol.iterations == entry["iterations"]
    root = entry["lines"][0]
    freq = np.frombuffer(base64.b64decode(root["freq"]), np.uint8).reshape(len(root["actions"]), -1)
    np.testing.assert_allclose(freq / FREQ_SCALE, sol.solver.strategy(0), atol=0.5 / FREQ_SCALE + 1e-12)
