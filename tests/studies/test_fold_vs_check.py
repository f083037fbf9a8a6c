"""The fold-vs-check study (RULES §1.4, §1.6): proofs the issue asks for.

- with the ``bare`` deck (no corners, no effects), checking is never worse than
  folding when nobody bets (the Texas Hold'em intuition);
- a heads-up river spot against a passive opponent matches the closed form built
  from the exact equity and the settlement rules;
- a multiway river spot where folding is right, checked by hand from RULES;
- Monte Carlo within 4 standard errors of exact enumeration;
- the same seed gives the same table whatever the number of threads;
- bad spots are refused with one clear line.
"""

from __future__ import annotations

import re
from fractions import Fraction
from itertools import combinations

import numba
import numpy as np
import pytest

from analysis.core.threads import numba_threads
from analysis.studies.equity import equity
from analysis.studies.fold_vs_check import GridSpec, SpotError, evaluate_spot, run_grid
from evaluator import evaluate_batch, parse_cards


@pytest.mark.parametrize(
    ("hand", "street", "opponents", "model", "policy"),
    [
        ("A10o", "flop", 1, "passive", "check_down"),
        ("72o", "turn", 3, "passive", "check_down"),
        ("55", "river", 2, "callers", "check_down"),
        ("98s", "flop", 4, "threshold", "check_fold"),
    ],
)
def test_bare_deck_checking_is_never_worse_when_nobody_bets(hand, street, opponents, model, policy):
    """No corners, no effects: folding wins and loses nothing; checking can only win the pot.

    (Against betting models the hero checks and folds to any bet, so it never puts
    more chips in: nobody bets *at the hero's expense*.)"""
    r = evaluate_spot(hand, street=street, opponents=opponents, pot=120, model=model,
                      policy=policy, deck="bare", trials=4000, seed=3).row
    assert r["ev_fold"] == 0 and r["fold_penalty"] == 0 and r["fold_effects"] == 0
    assert r["check_penalty"] == 0 and r["check_bonus"] == 0 and r["check_effects"] == 0
    assert r["ev_check"] >= 0 and r["gap"] >= 0
    assert r["gap"] > 0  # the pot is won some of the time


def test_heads_up_river_against_passive_matches_the_closed_form():
    """Plain deck, board 4s 9h 3d 6c 10s: bonus 70, penalty 50 (RULES §1.8), pot 40.

    Fold: the hand ends, the hero is the only loser and pays 50. Check: win +40 pot
    +70 bonus; tie +20 pot +30 bonus (⌊35/10⌋×10), nobody pays; lose -50.
    So gap = P(win)·160 + P(tie)·100, with P from the exact equity engine."""
    board = "4s 9h 3d 6c 10s"
    for hand in ("As 2h", "7d 8d", "2c 5d", "Ac 9d"):
        eq = equity(hand, "random", board=board, game="dilemma", exact=True).players[0]
        r = evaluate_spot(hand, board=board, opponents=1, pot=40, deck="plain")
        assert r.manifest["exact"] is True
        lose = 1 - eq.win - eq.tie
        assert r.row["ev_fold"] == pytest.approx(-50)
        assert r.row["ev_check"] == pytest.approx(eq.win * 110 + eq.tie * 50 - lose * 50, abs=1e-9)
        assert r.row["gap"] == pytest.approx(eq.win * 160 + eq.tie * 100, abs=1e-9)


def test_multiway_river_fold_is_right_hand_checked():
    """Plain deck, board 4s 9h 3d 6c 10s (penalty 50, bonus 70), pot 40 (10 from each live
    player and 10 of dead money from a pre-flop folder),
    hero 2c 8h against two passive opponents; every opponent holding enumerated.

    By RULES §1.4 and §1.8, with the outcome of the showdown:
    check — hero wins alone +40+70 = +110; hero ties one opponent: pot 20, bonus 30,
    the other pays 50: +50; three-way tie: pot 10 (10 to the bank), bonus 20, nobody
    pays: +30; hero loses to one winner: two losers share ⌊50/2/10⌋×10 = 20: -20;
    hero loses to two tied winners: sole loser: -50.
    fold — the opponents go to showdown; if one wins, the river exception excuses
    the hero (a river folder) and only the showdown loser pays: 0; if they tie, the
    hero is the only non-winning participant and pays 50: -50."""
    board = parse_cards("4s 9h 3d 6c 10s")
    hero = parse_cards("2c 8h")
    free = [c for c in range(40) if c not in board + hero]
    deals = [(a, b) for a in combinations(free, 2) for b in combinations(free, 2) if not set(a) & set(b)]
    hands = np.array([[*hero, *board]] + [[*h, *board] for d in deals for h in d], dtype=np.uint8)
    scores = evaluate_batch(hands, "dilemma")
    s0, s1, s2 = scores[0], scores[1::2], scores[2::2]
    best = np.maximum(s0, np.maximum(s1, s2))
    winners = (s0 == best).astype(int) + (s1 == best) + (s2 == best)
    check = np.select(
        [(s0 == best) & (winners == 1), (s0 == best) & (winners == 2), winners == 3,
         (s0 < best) & (winners == 1), (s0 < best) & (winners == 2)],
        [110, 50, 30, -20, -50],
    )
    fold = np.where(s1 == s2, -50, 0)
    n = len(deals)
    ev_check, ev_fold = Fraction(int(check.sum()), n), Fraction(int(fold.sum()), n)
    r = evaluate_spot("2c 8h", board="4s 9h 3d 6c 10s", opponents=2, pot=40, deck="plain").row
    assert r["trials"] == n == 528 * 465
    assert r["ev_check"] == pytest.approx(float(ev_check), abs=1e-9)
    assert r["ev_fold"] == pytest.approx(float(ev_fold), abs=1e-9)
    assert ev_check < ev_fold and r["decision"] == "fold"


def test_monte_carlo_is_within_four_standard_errors_of_exact():
    for hand, board, opp in (("As 10h", "7s 8d 2c 9h 10s", 1), ("2d 7c", "4s 9h 3d 6c Ad", 2)):
        exact = evaluate_spot(hand, board=board, opponents=opp, pot=120).row
        mc = evaluate_spot(hand, board=board, opponents=opp, pot=120, exact=False,
                           trials=30_000, seed=11).row
        for key in ("gap", "ev_check", "ev_fold"):
            se = mc[f"{key}_se"] if key != "gap" else mc["gap_se"]
            assert abs(mc[key] - exact[key]) <= 4 * se + 1e-9, (hand, key)


def test_same_seed_same_table_whatever_the_threads():
    spec = GridSpec(models=("passive", "threshold"), streets=("flop", "river"), opponents=(1, 3),
                    pots=(40,), hands=("A10o", "72o"), stderr=20.0, max_trials=3000, seed=5,
                    train_deals=2000)  # the best response trained on 2,000 deals: 1.4 CPU s a run, not 3.8
    frames = []
    for threads in (1, numba.config.NUMBA_NUM_THREADS):
        with numba_threads(threads):
            frames.append(run_grid(spec).cells)
    assert frames[0].equals(frames[1])


def test_grid_resumes_from_its_saved_run(tmp_path):
    spec = GridSpec(models=("passive",), streets=("turn",), opponents=(1, 2), pots=(40, 300),
                    hands=("AA", "32o"), stderr=50.0, max_trials=2000, seed=1)
    first = run_grid(spec, out_dir=tmp_path)
    assert not first.manifest["resumed"] and list((tmp_path / ".partial").glob("*.npz"))
    again = run_grid(spec, out_dir=tmp_path)
    assert again.manifest["resumed"]  # the finished run was loaded, nothing recomputed
    assert first.cells.equals(again.cells)
    assert {"break_even_strength", "break_even_equity", "share_check"} <= set(again.break_even.columns)
    assert not again.penalty_view.empty and not again.strength_curve.empty


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"board": "7s 8d 2c 9h", "street": "flop"}, "a flop board has 3 cards; got 4"),
        ({"pot": 20}, "pot $20 is smaller than the blinds"),
        ({"opponents": 10}, "opponents must be 1 to 9"),
        ({"model": "nobody"}, "unknown opponent model 'nobody'"),
        ({"policy": "shove"}, "unknown policy 'shove'"),
        ({"board": "As 8d 2c"}, "both in the hand and on the board"),
        ({"bank": (300, 0, 500)}, "bank 2 is empty but bank 1 holds 300"),
    ],
)
def test_impossible_spots_are_refused(kwargs, message):
    with pytest.raises(SpotError if "model" not in kwargs and "policy" not in kwargs else ValueError,
                       match=re.escape(message)):
        evaluate_spot("As 10h", **{"trials": 100, **kwargs})


def test_cli_spot_and_bad_input(cli):
    out = cli("study", "spot", "--hand", "2c 8h", "--board", "4s 9h 3d 6c 10s", "--opponents", "2",
              "--pot", "40", "--deck", "plain")
    assert out.returncode == 0, out.stderr
    assert "FOLD" in out.stdout and "exact" in out.stdout
    # one bad spot in a real process; the others (pot under the blinds, 12 opponents, an
    # unknown model, a card off the deck) are cases of tests/cli/test_bad_inputs.py's table
    bad = cli("study", "spot", "--hand", "As 10h", "--board", "7s 8d", "--street", "flop")
    assert bad.returncode == 2, bad.stderr
    assert bad.stderr.startswith("error: ") and len(bad.stderr.strip().splitlines()) == 1
    assert "a flop board has 3 cards; got 2" in bad.stderr


def test_the_exact_policys_key_lookup_is_searchsorted() -> None:
    from analysis.studies.fold_vs_check._play import _first_at_least

    rng = np.random.default_rng(5)
    for n in (0, 1, 2, 7, 50):
        keys = np.sort(rng.integers(0, 20, size=n))
        for key in range(-1, 22):
            assert _first_at_least(keys, key) == np.searchsorted(keys, key, side="left"), (keys, key)
