"""The Brag blind-play study: the kernel's betting model against a plain referee, Monte Carlo
heads-up against the exact counts, thread independence, bad settings."""

from __future__ import annotations

import numpy as np
import pytest

from analysis.runners import LocalBackend, run
from analysis.studies.brag import _kernels as K
from analysis.studies.brag.blind import (
    BlindError,
    BlindPlan,
    BlindSpec,
    blind_study,
    headsup_blind_exact,
    pack_model,
    threshold_scores,
)
from tests.reference.brag import ref_blind_hand


@pytest.mark.parametrize("open_sees_blind", [True, False])
def test_kernel_hand_equals_the_referee_and_money_is_conserved(open_sees_blind: bool) -> None:
    spec = BlindSpec(open_sees_blind=open_sees_blind)
    model = pack_model(spec)
    thresholds = list(model[K.M_THRESHOLDS:])
    rng = np.random.default_rng(7)
    paid = np.zeros(K.MAX_PLAYERS)
    for _ in range(3000):
        players = int(rng.integers(2, 9))
        scores = rng.choice(np.arange(0, 21000, 50), size=players).astype(np.int64)
        if rng.random() < 0.2:
            scores[rng.integers(players)] = scores[0]  # ties
        stake = float(rng.choice([0.5, 1.0, 3.0]))
        padded = np.zeros(K.MAX_PLAYERS, np.int64)
        padded[:players] = scores
        for blind_turns in (0, 1, 2, 1000):
            ref = ref_blind_hand(list(scores), stake, thresholds, blind_turns,
                                 open_sees_blind=open_sees_blind)
            assert abs(sum(ref)) < 1e-9
            got = K._play(padded, players, stake, model, len(thresholds), blind_turns, paid)
            assert got == pytest.approx(ref[0], abs=1e-12), (scores, stake, blind_turns)


def test_thresholds_name_the_weakest_hand_that_continues() -> None:
    scores, names = threshold_scores([0.0, 0.5, 0.9])
    assert names[0] == "532" and scores[0] < scores[1] < scores[2]


@pytest.mark.parametrize("open_sees_blind", [True, False])
def test_monte_carlo_heads_up_agrees_with_exact(open_sees_blind: bool) -> None:
    spec = BlindSpec(opponents=(1,), stakes=(1.0,), trials=200_000, seed=3,
                     strategies=("open", "blind_1", "blind_2", "blind"),
                     open_sees_blind=open_sees_blind)
    exact = headsup_blind_exact(spec, 1.0)
    assert exact["blind"] == exact["blind_2"]
    if open_sees_blind:
        assert exact["blind"] == exact["blind_1"]  # heads-up the opponent sees at once
    plan = BlindPlan(spec, [(1, 1.0), (1, 3.0)])
    u = plan.unpack(run(plan).totals)
    for j, name in enumerate(spec.strategies):
        z = (u["ev"][0, j] - exact[name]) / u["ev_se"][0, j]
        assert abs(z) < 4.5, (name, z)
    exact3 = headsup_blind_exact(spec, 3.0)
    z = (u["ev"][1, 0] - exact3["open"]) / u["ev_se"][1, 0]
    assert abs(z) < 4.5


def test_same_numbers_whatever_threads() -> None:
    spec = BlindSpec(opponents=(1, 3), stakes=(1.0, 2.0), stderr=0.05)
    a = blind_study(spec, backend=LocalBackend(1))
    b = blind_study(spec, backend=LocalBackend(2))
    assert a.frame.equals(b.frame) and a.summary.equals(b.summary)
    assert set(a.summary["verdict"]) <= {"blind", "open", "even"}
    mc = a.frame[~a.frame["exact"]]
    assert (mc["stderr"] <= 0.05 + 1e-12).all() and (mc["diff_stderr"] <= 0.05 + 1e-12).all()


@pytest.mark.parametrize(("options", "message"), [
    ({"opponents": (0,)}, "opponents must be 1-16"),
    ({"opponents": (17,)}, "opponents must be 1-16"),
    ({"stakes": (-1,)}, "stakes must be positive"),
    ({"thresholds": (1.2,)}, "shares of hands beaten"),
    ({"strategies": ("blind", "open")}, "first hero strategy must be 'open'"),
    ({"strategies": ("open", "peek")}, "unknown hero strategy 'peek'"),
    ({"rules": "house"}, "unknown Brag rules"),
    ({"open_sees_blind": False, "thresholds": (0.5,)}, "at least two rounds"),
    ({"stderr": 0.0}, "must be positive"),
])
def test_bad_settings(options: dict, message: str) -> None:
    with pytest.raises(BlindError if "rules" not in options else Exception, match=message):
        BlindSpec(**options)
