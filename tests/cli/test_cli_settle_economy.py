"""``dilemma settle``, ``dilemma economy`` and ``dilemma deck`` from the command line."""

from __future__ import annotations

import json
import signal
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from analysis.cli import app, main
from analysis.dilemma.decks import load_deck, parse_deck
from tests.conftest import ROOT

EXAMPLES = ROOT / "examples"
runner = CliRunner()


def run_main(monkeypatch, capsys, *args: str) -> tuple[int, str, str]:
    """Run the real entry point (with its LabError handling) in-process. As the process's
    entry point, ``main`` ignores Ctrl-C once the work is done; the handler is put back."""
    monkeypatch.setattr(sys, "argv", ["dilemma", *args])
    code = 0
    handler = signal.getsignal(signal.SIGINT)
    try:
        main()
    except SystemExit as exc:
        code = int(exc.code or 0)
    finally:
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
        signal.signal(signal.SIGINT, handler)
    out = capsys.readouterr()
    return code, out.out, out.err


def write_record(tmp_path: Path, data: dict) -> Path:
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(data))
    return path


BASE = {
    "deck": "plain",
    "board": "4s 9h 3d",
    "players": [
        {"name": "P1", "stack": 980, "in": 20},
        {"name": "P2", "stack": 980, "in": 20, "folded": "flop", "hole": "2d 7c"},
    ],
}


def test_settle_prints_every_step_with_its_rule():
    result = runner.invoke(app, ["settle", str(EXAMPLES / "hand_example_C.json")])
    assert result.exit_code == 0, result.output
    text = result.output
    for rule in ("§1.4.1", "§1.4.2", "§1.4.3", "§1.4.4", "§1.4.5", "§1.4.6", "§1.5", "§1.4.8"):
        assert f"[{rule}]" in text
    assert "river exception" in text
    assert "P4 pays 50" in text
    assert "final: P1 980, P2 1170, P3 980, P4 890; bank 280/700/500; blinds 10/20" in text
    assert "expected result: matches" in text


def test_settle_json_is_the_same_as_data():
    result = runner.invoke(
        app, ["settle", str(EXAMPLES / "hand_example_C.json"), "--format", "json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["final"]["stacks"] == {"P1": 980, "P2": 1170, "P3": 980, "P4": 890}
    assert data["final"]["bank"] == [280, 700, 500]
    assert [s["rule"] for s in data["steps"]][:2] == ["§1.4.1", "§1.4.2"]
    assert data["steps"][0]["transfers"] == [{"from": "pot", "to": "P2", "amount": 160}]
    assert data["expected"] == {"matches": True, "differences": []}
    assert data["deck"]["name"] == "plain"


def test_settle_deck_option_overrides_the_record_and_mismatch_exits_1():
    # With the reference deck, 10s (red crash 50, dealt on the river) is active.
    result = runner.invoke(
        app, ["settle", str(EXAMPLES / "hand_example_C.json"), "--deck", "reference"]
    )
    assert result.exit_code == 1
    assert "crash 50" in result.output and "DIFFERS" in result.output


def test_settle_rule_option(tmp_path):
    path = write_record(tmp_path, BASE)
    result = runner.invoke(app, ["settle", str(path), "--rule", "split_remainder=first_winner"])
    assert result.exit_code == 0, result.output
    assert "rules split_remainder=first_winner" in result.output
    assert "final: P1 1060, P2 960" in result.output


def test_settle_example_a_from_a_record(tmp_path):
    result = runner.invoke(app, ["settle", str(write_record(tmp_path, BASE)), "--format", "json"])
    data = json.loads(result.output)
    assert data["final"]["stacks"] == {"P1": 1060, "P2": 960}
    assert data["final"]["bank"] == [280, 700, 500]


@pytest.mark.parametrize(
    ("change", "fragments"),
    [
        ({"board": "4s 9h Jd"}, ["board", "Jd"]),
        ({"board": "4s 9h 9h"}, ["board", "duplicate card"]),
        (
            {"players": [{"name": "P1", "stack": 980}, BASE["players"][1]]},
            ["players[0].in", "missing"],
        ),
        (
            {"players": [{"name": "P1", "stack": 985, "in": 20}, BASE["players"][1]]},
            ["players[0]", "stack", "$10"],
        ),
        (
            {
                "players": [
                    {"name": "P1", "stack": 980, "in": 20, "folded": "flip"},
                    BASE["players"][1],
                ]
            },
            ["players[0].folded", "flip"],
        ),
        ({"bank": [300, 700]}, ["bank"]),
        ({"last_round": "river"}, ["board", "river", "needs 5"]),
        ({"colour": "x"}, ["colour", "unknown field"]),
        ({"deck": "nosuchdeck"}, ["unknown deck 'nosuchdeck'"]),
        ({"rules": {"winners": "everyone"}}, ["winners", "everyone"]),
    ],
)
def test_settle_bad_input_is_one_line_and_exit_2(tmp_path, monkeypatch, capsys, change, fragments):
    path = write_record(tmp_path, {**BASE, **change})
    code, out, err = run_main(monkeypatch, capsys, "settle", str(path))
    assert code == 2, (out, err)
    assert err.startswith("error: ") and err.count("\n") == 1, err
    for fragment in fragments:
        assert fragment in err


def test_settle_unreadable_files_exit_2(tmp_path, monkeypatch, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    for path in (bad, tmp_path / "missing.json"):
        code, _, err = run_main(monkeypatch, capsys, "settle", str(path))
        assert code == 2 and err.startswith("error: ") and err.count("\n") == 1
    code, _, err = run_main(
        monkeypatch, capsys, "settle", str(EXAMPLES / "hand_example_C.json"), "--rule", "nonsense"
    )
    assert code == 2 and "name=value" in err


def test_economy_writes_tables_manifests_and_charts(tmp_path):
    out = tmp_path / "econ"
    result = runner.invoke(
        app, ["economy", "--deck", "reference", "--out", str(out), "--losers", "2"]
    )
    assert result.exit_code == 0, result.output
    assert "river 6,580,080" in result.output
    for name in ("economy_summary", "economy_transfers", "economy_distribution", "economy_effects"):
        assert (out / f"{name}.csv").is_file() and (out / f"{name}.parquet").is_file()
        manifest = json.loads((out / f"{name}.manifest.json").read_text())
        assert manifest["deck"].startswith("reference@") and manifest["exact"] is True
        assert manifest["arrangements"]["river"] == 6_580_080
    for chart in (
        "economy_bonus",
        "economy_penalty",
        "economy_net_transfers",
        "economy_effect_activity",
    ):
        assert (out / f"{chart}.png").is_file() and (out / f"{chart}.svg").is_file()


def test_economy_with_a_user_deck_file(tmp_path):
    deck_file = tmp_path / "mine.toml"
    text = runner.invoke(app, ["deck", "--deck", "plain", "--toml"]).output
    deck_file.write_text(text.replace('name = "plain"', 'name = "mine"'))
    result = runner.invoke(
        app, ["economy", "--deck", str(deck_file), "--out", str(tmp_path / "o"), "--no-charts"]
    )
    assert result.exit_code == 0, result.output
    assert "deck mine@" in result.output
    assert not list((tmp_path / "o").glob("*.png"))


def test_deck_command_lists_effects_and_prints_a_template():
    result = runner.invoke(app, ["deck"])
    assert result.exit_code == 0
    assert "12 effect cards" in result.output and "ASSUMED" in result.output
    assert "10s  red" in result.output
    toml = runner.invoke(app, ["deck", "--deck", "reference", "--toml"]).output
    deck = parse_deck(toml, "x.toml")  # a template named and described as the user's
    assert deck.name == "mine" and deck.description.startswith("My copy")
    assert deck.fingerprint == load_deck("reference").fingerprint  # the same cards to edit
    assert "set `assumed = false`" in toml and "#   crash" in toml  # what to edit, the vocabulary


def test_deck_lists_every_corner_and_counts_in_words(tmp_path):
    out = runner.invoke(app, ["deck", "--deck", "plain"]).output
    deck = load_deck("plain")
    for card in range(deck.n_cards):
        name = deck.card_name(card)
        assert f"{name:<4}+{int(deck.plus[card]):<3}/-{int(deck.minus[card])}" in out
    assert "0 effect cards" in out
    one = tmp_path / "one.toml"
    text = runner.invoke(app, ["deck", "--deck", "plain", "--toml"]).output
    one.write_text(text.replace('As = { plus = 0, minus = 0 }',
                                'As = { plus = 0, minus = 0, colour = "blue", effect = "rebate" }'))
    out = runner.invoke(app, ["deck", "--deck", str(one)]).output
    assert "1 effect card\n" in out and "rebate" in out


def test_the_guide_follows_the_deck_label(tmp_path):
    from analysis.guide.page import deck_sentence

    assert "*assumed*" in deck_sentence("reference")
    mine = tmp_path / "mine.toml"
    text = runner.invoke(app, ["deck", "--deck", "plain", "--toml"]).output
    mine.write_text(text.replace("assumed = true", "assumed = false"))
    sentence = deck_sentence(str(mine))
    assert "assumed" not in sentence and "mine deck" in sentence
    assert "no corner values" in deck_sentence("bare")


def test_bad_deck_file_is_one_line_and_exit_2(tmp_path, monkeypatch, capsys):
    path = tmp_path / "broken.toml"
    path.write_text('[deck]\nname = "b"\n[cards]\nAs = { plus = 10, minus = 5 }\n')
    code, _, err = run_main(
        monkeypatch, capsys, "economy", "--deck", str(path), "--out", str(tmp_path)
    )
    assert code == 2 and err.count("\n") == 1
    assert "broken.toml" in err and "card As" in err and "'minus'" in err
