"""The solved-spots aggregates against a second, independent sample of boards: the mean over one
sample lies within its stated standard error (4 combined) of the mean over the other."""

from __future__ import annotations

import numpy as np

from analysis.studies.solved_spots import (
    FAMILIES,
    GAME_STATES,
    sample_boards,
    solve_family,
    spot_tables,
)


def _aggregate(folder, seed: int):
    family = FAMILIES[0]  # the river
    boards = sample_boards(family, 4, seed, "reference")
    paths = solve_family(folder, family, boards, GAME_STATES[:1], "reference", 2.0, 2000)
    free = spot_tables(paths, "reference")["spots_fold_or_check"]
    return boards, free.groupby("line")[["regret_fold", "regret_check", "checks"]].agg(["mean", "sem"])


def test_a_second_board_sample_agrees_within_the_stated_standard_error(tmp_path):
    boards_a, a = _aggregate(tmp_path / "a", 11)
    boards_b, b = _aggregate(tmp_path / "b", 12)
    assert not set(boards_a) & set(boards_b)  # independent samples
    for col in ("regret_fold", "regret_check", "checks"):
        diff = (a[(col, "mean")] - b[(col, "mean")]).abs()
        se = np.sqrt(a[(col, "sem")] ** 2 + b[(col, "sem")] ** 2)
        assert (diff <= 4 * se + 1e-9).all(), (col, diff.to_dict(), se.to_dict())
    assert (a[("regret_fold", "mean")] > 2 * a[("regret_fold", "sem")]).all()  # a river free fold clearly costs
