"""Brag tables: the exact heads-up counts against the plain double loop on all 22,100 hands,
Monte Carlo against the exact heads-up figures, thread- and task-size independence."""

from __future__ import annotations

import numpy as np
import pytest

from analysis.runners import LocalBackend, run
from analysis.studies.brag.classes import brag_classes, class_index
from analysis.studies.brag.equity import hand_equity
from analysis.studies.brag.hand_tables import (
    brag_tables,
    category_table,
    class_table,
    weakest_ahead,
)
from analysis.studies.brag.headsup import OPPONENT_HANDS, class_headsup, headsup_counts
from analysis.studies.brag.multiway import BragCountError, MultiwayPlan, multiway_schedule, unpack
from evaluator import CardError
from evaluator.brag import all_hands
from tests.reference.brag import ref_headsup_counts


@pytest.mark.parametrize("rules", ["source", "a23-high"])
def test_headsup_counts_equal_the_double_loop_on_every_hand(rules: str) -> None:
    counts = headsup_counts(rules)
    win, tie, loss = ref_headsup_counts(all_hands(), brag_classes(rules).hand_scores)
    assert np.array_equal(counts.win, win) and np.array_equal(counts.tie, tie)
    assert np.array_equal(counts.loss, loss)
    assert (win + tie + loss == OPPONENT_HANDS).all()


def test_classes_and_exact_tables() -> None:
    classes = brag_classes()
    assert len(classes) == 741 and classes.names[-1] == "333" and classes.names[0] == "532"
    assert classes.combos.sum() == 22100 and set(classes.combos) == {4, 24, 60}
    assert class_index("AKQs") == len(classes) - 14  # the best running flush, under the 13 prials
    with pytest.raises(CardError, match="not a Brag hand class"):
        class_index("AKX")
    cats = category_table().set_index("category")
    assert cats.loc["prial", "hands"] == 52 and abs(cats["probability"].sum() - 1) < 1e-12
    table = class_table()
    assert table.iloc[0]["hand"] == "333" and table.iloc[0]["win"] == 1.0
    assert table.iloc[0]["percentile"] == 100.0 and table.iloc[-1]["beats"] == 0.0
    w, t, loss = class_headsup()
    assert np.allclose(w + t + loss, 1.0)
    # heads-up the whole table is a zero-sum game: the average equity of a random hand is 1/2
    assert abs(np.average(w + t / 2, weights=classes.combos) - 0.5) < 1e-12
    # A-2-3 high moves the run 3-2-A from the bottom of runs to the top
    high = class_table("a23-high").set_index("hand")
    low = table.set_index("hand")
    assert high.loc["A32", "rank"] < high.loc["AKQ", "rank"] and low.loc["A32", "rank"] > low.loc["432", "rank"]


def test_monte_carlo_heads_up_agrees_with_exact() -> None:
    classes = brag_classes()
    pick = [class_index(n) for n in ("AKQ", "QQ5", "KJ9s", "A75", "J84", "TT2")]
    plan = MultiwayPlan(tuple(classes.names[k] for k in pick), np.concatenate(
        [[0], np.cumsum(classes.combos[pick])]),
        np.concatenate([all_hands()[classes.members[classes.offsets[k]:classes.offsets[k + 1]]]
                        for k in pick]), (1, 3), classes.rules, 5, multiway_schedule(stderr=None, trials=60_000))
    res = run(plan)
    stats = unpack(res.totals, 2)
    w, t, _ = class_headsup()
    exact = (w + t / 2)[pick]
    z = (stats["equity"][:, 0] - exact) / stats["stderr"][:, 0]
    assert np.all(np.abs(z) < 4.5), z
    # more opponents never help
    assert np.all(stats["equity"][:, 1] <= stats["equity"][:, 0] + 1e-9)


def test_same_numbers_whatever_threads_and_task_size(tmp_path) -> None:
    a = brag_tables([2, 5], stderr=0.02, backend=LocalBackend(1)).frames["brag_multiway"]
    b = brag_tables([2, 5], stderr=0.02, backend=LocalBackend(2)).frames["brag_multiway"]
    assert a.equals(b)
    one = hand_equity("7s 7h Kd", 4, trials=20_000, seed=3, backend=LocalBackend(1))
    two = hand_equity("7s 7h Kd", 4, trials=20_000, seed=3, backend=LocalBackend(2))
    assert one == two.__class__(**{**two.to_dict(), "seconds": one.seconds})
    assert one.method == "trials" and one.trials == 20_000 and one.stderr > 0


def test_hand_equity_exact_heads_up_and_errors() -> None:
    r = hand_equity("As Ks Qs")
    assert r.method == "exact" and r.trials == OPPONENT_HANDS and r.stderr == 0.0
    assert r.hand_class == "AKQs" and r.equity == pytest.approx(r.win + r.tie / 2)
    assert hand_equity("3s 3h 3d").win == 1.0
    with pytest.raises(BragCountError, match="1-16 opponents; got 17"):
        hand_equity("As Ks Qs", 17)
    with pytest.raises(BragCountError, match="1-16 opponents; got 0"):
        hand_equity("As Ks Qs", 0)
    with pytest.raises(CardError, match="3 cards; got 2"):
        hand_equity("As Ks")
    with pytest.raises(BragCountError, match="not both"):
        hand_equity("As Ks Qs", 3, stderr=0.01, trials=10)


def test_weakest_ahead_picks_the_lowest_ranked_class_above_p() -> None:
    table = brag_tables([1]).frames
    th = weakest_ahead(table["brag_multiway"], [0.5])
    row = th.iloc[0]
    hu = table["brag_classes"]
    assert hu[hu["rank"] == row["rank"]]["win"].iloc[0] >= 0.5
    assert (hu[hu["rank"] > row["rank"]]["win"] < 0.5).all()
