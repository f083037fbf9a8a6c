"""The Bluffjack public tree is built once per rule set and given each pair's face-up cards:
equal, array by array and label by label, to the tree built node by node for that pair."""

from __future__ import annotations

import numpy as np
import pytest

from analysis.solvers.bluffjack.public_tree import (
    ACE,
    BluffjackTreeSpec,
    _build,
    _same_shape_for_every_pair,
    build_public_tree,
)

PAIRS = [(a, b) for a in (0, 4, 8, ACE) for b in (0, 5, 8, ACE)]
"""Face-up classes with and without an ace, the template's own class (0) and a ten."""


@pytest.mark.parametrize("spec", [BluffjackTreeSpec(), BluffjackTreeSpec(max_raises=1, house=False),
                                  BluffjackTreeSpec(max_hits=2, betting=False)], ids=str)
def test_the_shared_tree_with_each_pairs_up_cards_equals_the_tree_built_for_that_pair(spec):
    assert _same_shape_for_every_pair(spec)
    for up in PAIRS:
        built, shared = _build(spec, up), build_public_tree(spec, up)
        for name in ("kind", "player", "cstart", "ccount", "children", "prob", "put", "vhard", "vace", "dec"):
            np.testing.assert_array_equal(getattr(shared, name), getattr(built, name), err_msg=f"{name} {up}")
            assert getattr(shared, name).dtype == getattr(built, name).dtype
        assert shared.labels == built.labels, up
        assert [tuple(map(type, lab)) for lab in shared.labels] == [tuple(map(type, lab)) for lab in built.labels]


def test_three_hits_build_every_pair_node_by_node():
    """With three hits a face-up bust before the last hit (10 + 10 + 2) makes that player stand:
    the shape depends on the pair, so each pair's tree is built node by node."""
    assert not _same_shape_for_every_pair(BluffjackTreeSpec(max_hits=3))
