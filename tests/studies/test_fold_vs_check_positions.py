"""The hero's place after the flop in the fold-vs-check study (issue 19): first, in the middle or
last, the opponents before it having checked at the decision, by their model.

- heads-up with the hero last, the exact answer equals the slow plain-Python reference
  (which plays the opponent first and keeps only the holdings with which it checks);
- with two opponents on the river, Monte Carlo (deals rejected unless the players before the
  hero check) agrees with exact enumeration (the deals where they check) within 4 standard
  errors, in the middle and last;
- against a model that never bets, a check says nothing: the hero last plays the same deals
  to the same money as the hero first;
- a position the spot cannot have is one clear error.
"""

from __future__ import annotations

import pytest

from analysis.studies.fold_vs_check import SpotError, evaluate_spot
from analysis.studies.fold_vs_check.cells import parse_position
from tests.reference.fold_vs_check import exact_answer, referee, small_spot

FIXED = ("check_down", "check_fold", "call_down")


def _answer(res) -> dict[str, float]:
    others = res.others.set_index("continuation")
    return {"ev_fold": res.row["ev_fold"], "ev_check": res.row["ev_check"],
            **{f"ev_check_{p}": float(others.loc[p, "ev_check"]) for p in FIXED}}


@pytest.mark.parametrize("hero, board, pot", [("As 7d", "4s 9h 3d 6c 10s", 120),
                                              ("7d 8d", "4s 9h 3d 6c 10s", 40)])
def test_heads_up_last_the_exact_answer_equals_the_slow_reference(hero, board, pot):
    res = evaluate_spot(hero, board=board, pot=pot, model="threshold", position="last")
    assert res.manifest["exact"] is True and res.manifest["position"] == "last"
    spot = small_spot(hero, board, pot, last=True)
    assert _answer(res) == exact_answer(spot, referee(spot))
    first = evaluate_spot(hero, board=board, pot=pot, model="threshold")
    assert first.row["ev_check"] != res.row["ev_check"]  # the opponent's check says something


@pytest.mark.parametrize("position", ["1", "last"])
def test_two_opponents_monte_carlo_agrees_with_exact_enumeration(position):
    """(The hero first is the study's older case; 20,000 trials: an SE of about $0.9.)"""
    kw = {"board": "4s 9h 3d 6c 10s", "opponents": 2, "pot": 120, "model": "threshold",
          "policy": "check_down", "position": position, "compare": False}
    exact = evaluate_spot("Ac 9c", exact=True, **kw)
    mc = evaluate_spot("Ac 9c", exact=False, trials=20_000, seed=3, **kw)
    assert mc.row["trials"] == 20_000
    # the exact row's EV(check) is the spot's fixed continuation (it was the best response's)
    assert exact.row["ev_check"] == float(exact.others.set_index("continuation").loc["check_down", "ev_check"])
    for key in ("ev_check", "ev_fold", "gap"):
        se = mc.row[f"{key}_se"]
        assert se > 0 or key == "ev_fold"
        assert abs(mc.row[key] - exact.row[key]) <= 4 * se + 1e-9, (key, mc.row[key], exact.row[key], se)


def test_against_a_model_that_never_bets_the_position_changes_nothing():
    kw = {"street": "turn", "opponents": 3, "pot": 120, "model": "passive", "trials": 3_000,
          "train_deals": 2_000, "seed": 5}
    first = evaluate_spot("98s", **kw)
    last = evaluate_spot("98s", position="last", **kw)
    middle = evaluate_spot("98s", position=2, **kw)
    for key in ("ev_fold", "ev_check", "gap", "trials"):
        assert first.row[key] == last.row[key] == middle.row[key], key


def test_positions_are_parsed_and_bad_ones_refused(tmp_path):
    assert parse_position("first", 4) == 0
    assert parse_position("LAST", 4) == 4
    assert parse_position("2", 4) == 2
    with pytest.raises(SpotError, match="0 to 4"):
        parse_position("5", 4)
    with pytest.raises(SpotError, match="first, last"):
        parse_position("button", 4)
    maniac = tmp_path / "maniac.toml"
    maniac.write_text('[model]\nname = "maniac"\nrange = "random"\n'
                      + "".join(f"[streets.{s}]\nbet = 0.0\nbet_size = 1.0\ncall = 0.0\n"
                                for s in ("flop", "turn", "river")))
    with pytest.raises(SpotError, match="never check"):
        evaluate_spot("98s", opponents=2, model=str(maniac), position="last", trials=10)
    with pytest.raises(SpotError, match="0 to 2"):
        evaluate_spot("98s", opponents=2, model="threshold", position=3, trials=10)
