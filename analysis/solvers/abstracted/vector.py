"""Heads-up full-width CFR (CFR, CFR+, DCFR) and the exact best response in vector form.

The chance of the abstraction is the sample of deals; for two players it
collapses into one matrix per street and quantity over the pair of bucket
histories (:class:`PayoffMatrices`): the probability of the pair, the chance that
either player has the better river hand, and each player's non-pot money in
each terminal class (effects, penalty, bonus of the real settlement). A
terminal's counterfactual values for all of a player's histories are then a few
matrix products with the opponent's reach (numpy/BLAS), and the tree sweeps are
numba kernels (:mod:`._vector_kernels`). Results equal the flat-tree CFR on the
expanded game (tested). Each product runs on one BLAS thread and the products of
an iteration run side by side, so the numbers do not depend on the thread count.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numba
import numpy as np
from threadpoolctl import threadpool_limits

from analysis.dilemma.settlement.layout import new_arrays

from .. import _layout as L
from .._cfr_kernels import _apply_rule, iteration_weight, normalise_sums, regret_matching
from . import _vector_kernels as VK
from .deals import DealTable, game_args
from .public_tree import (
    CL_FOLD0,
    CL_LAST,
    DECISION,
    ND_COUNT,
    ND_INDEX,
    ND_KIND,
    ND_PLAYER,
    ND_STREET,
    ND_VEC,
    TC_CLASS,
    PublicTree,
)

MAT_P, MAT_W0, MAT_W1 = 0, 1, 2


def pot_share(p: int, winners: tuple[int, ...], pot: int, remainder_first: bool) -> int:
    """Player ``p``'s share of a pot won by ``winners`` ($10 units; see ``_deal_kernels``)."""
    if p not in winners:
        return 0
    k = len(winners)
    share = pot // (10 * k) * 10
    if remainder_first and p == min(winners):
        share += pot - share * k
    return share


def infos_of(tree: PublicTree) -> np.ndarray:
    """One ``(player, actions, offset)`` row per information set (decision node x history), in
    the order of the flat arrays: the layout the generic regret kernels take."""
    rows = []
    for v in np.flatnonzero(tree.nodes[:, ND_KIND] == DECISION):
        k = tree.nodes[v, ND_COUNT]
        hs = tree.hist_sizes[tree.nodes[v, ND_STREET]]
        base = tree.nodes[v, ND_INDEX]
        block = np.empty((hs, L.N_INFO_COLS), np.int32)
        block[:, L.I_PLAYER] = tree.nodes[v, ND_PLAYER]
        block[:, L.I_COUNT] = k
        block[:, L.I_OFFSET] = base + k * np.arange(hs)
        rows.append(block)
    return np.concatenate(rows) if rows else np.zeros((0, L.N_INFO_COLS), np.int32)


@dataclass(frozen=True, eq=False)
class PayoffMatrices:
    """Per street ``s``: ``mats[s]`` float64[K, H, H] (probability, P0 wins, P1 wins, then each
    class's money per player) and ``diff[s]`` = P0 wins - P1 wins; ``plans[i][s]``: for the
    traverser ``i``, a list of ``(matrix, terminal numbers, coefficients)``."""

    mats: tuple[np.ndarray, ...]
    diff: tuple[np.ndarray, ...]
    plans: tuple[tuple[tuple[tuple[np.ndarray, np.ndarray, np.ndarray], ...], ...], ...]


def build_matrices(tree: PublicTree, deals: DealTable) -> PayoffMatrices:
    """The heads-up payoff matrices of the deal sample, and the terminal products' plan."""
    spec = tree.spec
    if spec.players != 2:
        raise ValueError("payoff matrices are for two players")
    n_streets = spec.n_streets
    hs = tree.hist_sizes
    cls_street = (tree.classes[:, CL_LAST] - spec.first_street).astype(np.int64)
    slot = np.zeros(len(cls_street), np.int64)
    count = np.zeros(n_streets, np.int64)
    for c, s in enumerate(cls_street):
        slot[c] = count[s]
        count[s] += 1
    n_mats = 3 + 2 * count
    sizes = n_mats * hs * hs
    mat_off = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
    flat = np.zeros(int(sizes.sum()))
    money = np.zeros((tree.classes.shape[0], 2), np.int64)
    winners = np.zeros(tree.classes.shape[0], np.int64)
    players, board, table, out = new_arrays(2)
    settle_args = (game_args(spec), spec.deck_obj.kernel_args, spec.rules_obj.kernel_args)
    VK.build_matrices((deals.records, deals.hist), settle_args, (tree.classes, cls_street, slot),
                      (mat_off, hs), 1.0 / deals.n_deals, flat, (money, winners, players, board, table, out))
    mats = tuple(flat[mat_off[s]: mat_off[s] + sizes[s]].reshape(n_mats[s], hs[s], hs[s])
                 for s in range(n_streets))
    diff = tuple(m[MAT_W0] - m[MAT_W1] for m in mats)
    first = spec.rules_obj.split_remainder == "first_winner"
    plans = []
    for i in range(2):
        per_street = []
        for s in range(n_streets):
            lo, hi = tree.street_terminals(s)
            entries: dict[object, tuple[list[int], list[float]]] = {}

            def add(key: object, t: int, coef: float, entries=entries, lo=lo) -> None:
                if coef != 0.0:
                    cols, coefs = entries.setdefault(key, ([], []))
                    cols.append(t - lo)
                    coefs.append(float(coef))

            for t in range(lo, hi):
                c = int(tree.terms[t, TC_CLASS])
                row = tree.classes[c]
                pot = int(tree.term_pot[t])
                put = int(tree.term_in[t, i])
                live = tuple(p for p in range(2) if row[CL_FOLD0 + p] < 0)
                if len(live) == 1:
                    add(MAT_P, t, pot_share(i, live, pot, first) - put)
                else:
                    tie = pot_share(i, (0, 1), pot, first)
                    a0 = pot_share(i, (0,), pot, first) - tie
                    a1 = pot_share(i, (1,), pot, first) - tie
                    add(MAT_P, t, tie - put)
                    if a1 == -a0:
                        add("diff", t, a0)
                    else:
                        add(MAT_W0, t, a0)
                        add(MAT_W1, t, a1)
                add(3 + 2 * int(slot[c]) + i, t, 1.0)
            plan = []
            for key, (cols, coefs) in entries.items():
                m = diff[s] if key == "diff" else mats[s][key]
                plan.append((m, np.array(cols, np.int64), np.array(coefs)))
            per_street.append(tuple(plan))
        plans.append(tuple(per_street))
    return PayoffMatrices(mats, diff, tuple(plans))


class VectorCFR:
    """Regrets and strategy sums of a heads-up abstraction; full-width iterations in place."""

    def __init__(self, tree: PublicTree, matrices: PayoffMatrices, method: int, alternating: bool,
                 coefs: np.ndarray) -> None:
        self.tree = tree
        self.m = matrices
        self.method = method
        self.alternating = alternating
        self.coefs = coefs
        self.infos = infos_of(tree)
        a = tree.n_infoset_actions
        self.regret = np.zeros(a)
        self.ssum = np.zeros(a)
        self.strategy = np.zeros(a)
        v = tree.n_vector
        self.reach = np.zeros((2, v))
        self.value = np.zeros(v)
        tsz = tree.hist_sizes[tree.terms[:, 1]] if tree.n_terminals else np.zeros(0, np.int64)
        self.toff = np.concatenate([[0], np.cumsum(tsz)]).astype(np.int64)
        self.term_reach = np.zeros(int(self.toff[-1]))
        self.term_value = np.zeros(int(self.toff[-1]))
        self._pool: ThreadPoolExecutor | None = None

    # ------------------------------------------------------------------ pieces

    def _terminal_values(self, trav: int) -> None:
        """Counterfactual values of ``trav`` at every terminal from the opponent's gathered reach."""
        t = self.tree
        for s in range(t.spec.n_streets):
            lo, hi = t.street_terminals(s)
            if hi == lo:
                continue
            h = int(t.hist_sizes[s])
            r = self.term_reach[self.toff[lo]: self.toff[hi]].reshape(hi - lo, h)
            out = self.term_value[self.toff[lo]: self.toff[hi]].reshape(hi - lo, h)
            out[:] = 0.0
            live = r.any(axis=1)  # lines the opponent never plays have zero values: skipped
            jobs = []
            for mat, cols, coefs in self.m.plans[trav][s]:
                keep = live[cols]
                if keep.any():
                    jobs.append((mat, cols[keep], coefs[keep]))

            def product(job, r=r):
                mat, cols, coefs = job
                return (r[cols] * coefs[:, None]) @ (mat.T if trav == 0 else mat)

            # each product on one BLAS thread, products side by side, summed in plan order:
            # the same bits with any number of threads
            results = self._pool.map(product, jobs) if self._pool is not None else map(product, jobs)
            for (_, cols, _), y in zip(jobs, results, strict=True):
                out[cols] += y

    def _values(self, strategy: np.ndarray, trav: int, mode: int, weight: float = 0.0,
                do_forward: bool = True) -> float:
        t = self.tree
        nodes, terms = t.nodes, t.terms
        if do_forward:
            VK.forward(nodes, t.hist_sizes, t.spec.buckets, strategy, self.reach)
        VK.gather_terminals(nodes, terms, t.hist_sizes, self.toff, self.reach[1 - trav], self.term_reach)
        self._terminal_values(trav)
        return VK.backward((nodes, t.hist_sizes, t.spec.buckets, self.toff), strategy,
                           (self.regret, self.ssum), self.reach[trav], (self.term_value, self.value),
                           (trav, mode, weight))

    def run(self, first_iteration: int, n_iterations: int) -> None:
        """Iterations ``first_iteration ..`` (1-based), as ``cfr_iterations`` orders them."""
        with self._threads():
            self._run(first_iteration, n_iterations)

    @contextlib.contextmanager
    def _threads(self) -> Iterator[None]:
        """BLAS on one thread (many small products: its threads only wait for each other, six
        times slower on a busy machine, and rounding would change with their number); the
        products run side by side on a pool of ``numba.get_num_threads()`` threads instead."""
        n = numba.get_num_threads()
        with threadpool_limits(limits=1, user_api="blas"):
            if n > 1:
                with ThreadPoolExecutor(n) as pool:
                    self._pool = pool
                    try:
                        yield
                    finally:
                        self._pool = None
            else:
                yield

    def _run(self, first_iteration: int, n_iterations: int) -> None:
        regret_matching(self.regret, self.infos, self.strategy, -1)
        for it in range(first_iteration, first_iteration + n_iterations):
            w = iteration_weight(self.method, it, self.coefs)
            for i in range(2):
                self._values(self.strategy, i, VK.MODE_CFR, w)
                if self.alternating:
                    _apply_rule(self.regret, self.infos, i, self.method, it, self.coefs)
                    regret_matching(self.regret, self.infos, self.strategy, i)
            if not self.alternating:
                _apply_rule(self.regret, self.infos, -1, self.method, it, self.coefs)
                regret_matching(self.regret, self.infos, self.strategy, -1)

    def average(self, ssum: np.ndarray | None = None) -> np.ndarray:
        out = np.zeros_like(self.ssum)
        normalise_sums(self.ssum if ssum is None else ssum, self.infos, out)
        return out

    def evaluate(self, strategy: np.ndarray) -> tuple[tuple[float, float], tuple[float, float]]:
        """Exact best-response values and on-policy values of both players under ``strategy``."""
        with self._threads():
            return self._evaluate(strategy)

    def _evaluate(self, strategy: np.ndarray) -> tuple[tuple[float, float], tuple[float, float]]:
        t = self.tree
        VK.forward(t.nodes, t.hist_sizes, t.spec.buckets, strategy, self.reach)
        br, ev = [], []
        for i in range(2):
            br.append(self._values(strategy, i, VK.MODE_BR, do_forward=False))
            ev.append(VK.backward((t.nodes, t.hist_sizes, t.spec.buckets, self.toff), strategy,
                                  (self.regret, self.ssum), self.reach[i], (self.term_value, self.value),
                                  (i, VK.MODE_EV, 0.0)))
        return (br[0], br[1]), (ev[0], ev[1])

    def reach_probabilities(self, strategy: np.ndarray) -> np.ndarray:
        """Probability of reaching every information set (decision node x actor's history) when
        everyone plays ``strategy``: own reach x sum over the opponent's histories of chance x
        opponent's reach. One entry per row of ``infos``."""
        with threadpool_limits(limits=1, user_api="blas"):
            return self._reach_probabilities(strategy)

    def _reach_probabilities(self, strategy: np.ndarray) -> np.ndarray:
        t = self.tree
        VK.forward(t.nodes, t.hist_sizes, t.spec.buckets, strategy, self.reach)
        out = []
        for v in np.flatnonzero(t.nodes[:, ND_KIND] == DECISION):
            s = int(t.nodes[v, ND_STREET])
            h = int(t.hist_sizes[s])
            o = int(t.nodes[v, ND_VEC])
            p = int(t.nodes[v, ND_PLAYER])
            own = self.reach[p, o:o + h]
            opp = self.reach[1 - p, o:o + h]
            prob = self.m.mats[s][MAT_P]
            out.append(own * (prob @ opp if p == 0 else prob.T @ opp))
        return np.concatenate(out) if out else np.zeros(0)
