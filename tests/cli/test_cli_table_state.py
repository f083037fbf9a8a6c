"""The spot's whole state from the command line: --bank, --level, --rule reach the settlement;
no warning leaks into a command's output."""

from __future__ import annotations

import json
import warnings

from analysis.cli import run

SPOT = ["study", "spot", "--hand", "Ad Ac", "--board", "4s 9h 3d 6c 2h", "--pot", "120",
        "--format", "json"]


def _spot(capsys, *extra: str) -> dict:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a warning would fail the command, not print
        code = run([*SPOT, *extra])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert err == ""
    return json.loads(out)


def test_bank_level_and_rules_reach_the_spot(capsys) -> None:
    base = _spot(capsys)
    assert base["manifest"]["bank"] == [300, 700, 500] and base["manifest"]["level"] == 0
    poor = _spot(capsys, "--bank", "0,0,10")
    assert poor["manifest"]["bank"] == [0, 0, 10]
    assert poor["manifest"]["level"] == 2  # the lowest level the bank allows
    # an almost empty bank cannot pay the bonus: the money changes
    assert poor["ev_check"] != base["ev_check"]
    ruled = _spot(capsys, "--rule", "split_remainder=first_winner", "--level", "1",
                  "--bank", "0,700,500")
    assert ruled["manifest"]["rules"] == "split_remainder=first_winner"
    assert ruled["manifest"]["level"] == 1


def test_the_library_and_the_command_agree(capsys) -> None:
    from analysis.dilemma.settlement import Rules
    from analysis.studies.fold_vs_check import evaluate_spot

    cli = _spot(capsys, "--bank", "0,200,500", "--rule", "winners=any_pot")
    lib = evaluate_spot("Ad Ac", board="4s 9h 3d 6c 2h", pot=120, bank=(0, 200, 500), level=1,
                        rules=Rules.parse(["winners=any_pot"]))
    assert cli["ev_check"] == lib.row["ev_check"] and cli["ev_fold"] == lib.row["ev_fold"]


def test_the_grid_options_carry_bank_level_and_rules() -> None:
    from analysis.commands.study import grid_spec_from_options

    spec = grid_spec_from_options(deck="reference", models="passive", policy="best_response",
                                  streets="river", opponents="1", pots="120", hands="AA",
                                  stderr=1.0, max_trials=1000, seed=0,
                                  rules=["winners=any_pot"], bank="0,700,500", level=None)
    assert spec.bank == (0, 700, 500) and spec.level == 1
    assert spec.rules == (("winners", "any_pot"),)
