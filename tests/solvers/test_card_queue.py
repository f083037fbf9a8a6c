"""The card solver's task queue: an atomic counter hands each task out once, largest subtrees
first, and the numbers do not depend on which thread walked what."""

from __future__ import annotations

import numba
import numpy as np
from numba import prange

from analysis.solvers.card_level import CardSolver, CardSpot
from analysis.solvers.card_level import _kernels as K
from analysis.solvers.card_level._atomic import fetch_add
from analysis.solvers.card_level._layout import IS_WORK
from analysis.solvers.card_level.tree import END


@numba.njit(parallel=True)
def _take_all(counter, n, taken, by):
    """Workers take indices from ``counter`` until ``n``; each marks what it took."""
    for w in prange(by.shape[0]):
        while True:
            i = fetch_add(counter, np.int64(0), np.int64(1))
            if i >= n:
                break
            taken[i] += 1
            by[w] += 1


def test_every_index_is_taken_exactly_once_on_two_threads():
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        counter, taken, by = np.zeros(1, dtype=np.int64), np.zeros(20_000, dtype=np.int64), np.zeros(8, dtype=np.int64)
        _take_all(counter, 20_000, taken, by)
    finally:
        numba.set_num_threads(before)
    assert (taken == 1).all()
    assert by.sum() == 20_000
    assert counter[0] == 20_000 + len(by)  # each worker's last take found the queue empty


def test_tasks_largest_first_and_rows_zero_past_the_holdings():
    spot = CardSpot.holdem("Td9d6hQc", "AA, KK, T9s, 76s, AKs", "QQ, JJ, AKs, 98s, 65s", 200, 900, "50%, a", "100%")
    solver = CardSolver(spot)
    nodes, tasks, work = solver.tree.nodes, solver.tree.tasks, solver._iso[IS_WORK]
    size = nodes[tasks[work], END] - tasks[work]
    assert len(set(size.tolist())) > 1 and (np.diff(size) <= 0).all()
    solver.step(3)
    n = solver.tables.n_hands
    assert n[0] != n[1]
    for rows in (solver.root_values(K.MODE_BR), solver.root_values(K.MODE_EV)):
        for p in range(2):
            assert (rows[p, n[p]:] == 0.0).all() and rows[p, : n[p]].any()
