"""The hand-written per-block sum against numpy's axis sum."""

from __future__ import annotations

import numpy as np

from evaluator.block_sums import sum_blocks


def test_sum_blocks_is_the_axis_sum() -> None:
    rng = np.random.default_rng(3)
    for shape in ((5, 7), (4, 3, 6), (1, 9), (3, 1, 1)):
        ints = rng.integers(-1000, 1000, size=shape)
        np.testing.assert_array_equal(sum_blocks(ints), ints.sum(axis=0))
        reals = rng.random(shape)
        np.testing.assert_allclose(sum_blocks(reals), reals.sum(axis=0), rtol=1e-15, atol=0)
        assert sum_blocks(ints).shape == shape[1:]
