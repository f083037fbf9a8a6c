"""Solve a card-level spot: build the tree and tables, run DCFR or CFR+, measure exploitability.

Typical use::

    from analysis.solvers.card_level import CardSpot, CardSolver
    spot = CardSpot.holdem("Td9d6hQc", "66+, A8s+", "QQ-22, ATo+", pot=200, stack=900)
    solver = CardSolver(spot)
    solver.run(target_pct=0.3)              # iterate until exploitability <= 0.3% of the pot
    solver.exploitability                   # chips
    solver.expected_values()                # each player's expected share of the pot

Numbers are identical whatever the number of numba threads (see :mod:`._kernels`).

``precision``: ``float64`` (the default) walks the reach and value rows, the terminals and the
updates in float64; ``float32`` in float32 (twice the SIMD width, half the memory traffic; a
second numba specialisation of the same kernels, compiled only when asked). The cumulative
regrets and strategy sums are float32 in both. The exploitability checks run in the solve's
precision; their rows are summed in float64.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import numba
import numpy as np

from evaluator import evaluate_batch

from ..methods import method_named
from . import _kernels as K
from ._layout import IS_PERM, IS_WORK, new_pool, pack_iso, pack_tree
from ._precision import DEFAULT_PRECISION, PRECISIONS
from ._sweeps import sweep_tables
from .card_spot import CardSpot, SpotError
from .dilemma_terminals import payoff_tables
from .schedule import next_check
from .tree import (
    CARD,
    CHANCE,
    COUNT,
    DECISION,
    END,
    ISO,
    KIND,
    LOCK,
    PLAYER,
    SLOT,
    TASK,
    ExpandedTree,
    action_tree,
    expand,
    mirror_map,
    swap_suits,
)

METHODS = {"dcfr": K.METHOD_DCFR, "cfr+": K.METHOD_CFR_PLUS}
"""The kernel's code of each method it runs (names: :mod:`analysis.solvers.methods`)."""
def buffer_sets() -> int:
    """Scratch buffer sets for the parallel tasks: one per thread numba may run (each set is a
    worker taking tasks from a queue; results do not depend on the thread count)."""
    return max(1, int(numba.config.NUMBA_NUM_THREADS))

EXPLOITABILITY_MEASURE = "mean best-response gain (NashConv / 2)"
"""Texas Hold'em (zero-sum): postflop-solver's exploitability. Dilemma Hold'em (not zero-sum, the
bank pays and takes): half the sum of both players' gains, the lab's ``NashConv / players``."""
EMPTY_ROWS = np.zeros((2, 0))
"""Value rows :func:`._kernels.run` leaves alone (iterations, or the second row set unused)."""
CHECK_EVERY = 10
"""Iterations between two exploitability measurements in :meth:`CardSolver.run` (as postflop-solver)."""

Progress = Callable[[int, float], None]


@dataclass(frozen=True)
class Tables:
    """Holdings of both players (padded to the same length) and the showdown tables."""

    hands: np.ndarray  # int64[2, H, 2]
    weights: np.ndarray  # float64[2, H] (0 beyond a player's holdings)
    n_hands: np.ndarray  # int64[2]
    same: np.ndarray  # int64[2, H]: the identical holding of the other player, or -1
    strength: np.ndarray  # int32[2, B, H]: score on each river board, -1 if blocked
    showdown: tuple  # per player and board, the unblocked holdings by increasing score:
    # count int64[2, B], holding int16[2, B, H], score int32[2, B, H], cards uint8[2, B, H, 2]
    pairs: float  # weighted number of compatible holding pairs
    hclass: np.ndarray  # int64[2, H]: each holding's class in the Dilemma payoff tables (0 for Texas)
    fold_tab: np.ndarray  # float64[F, 2, K, K]: Dilemma fold payoffs (see .dilemma_terminals); empty for Texas
    showdown_tab: np.ndarray  # float64[S, 2, 3, K, K]: Dilemma showdown payoffs; empty for Texas
    fold_groups: np.ndarray  # int64[F, 2, 2K + 1]: opponent classes that pay alike (.dilemma_terminals.class_groups)
    showdown_groups: np.ndarray  # int64[S, 2, 2K + 1]
    sweeps: tuple = ()  # (idx, src, ends): the showdown sweeps' positions (see ._sweeps)

    @property
    def n_classes(self) -> int:
        """Holding classes of the payoff tables (1 for Texas Hold'em rules)."""
        return int(self.fold_tab.shape[2])


def build_tables(spot: CardSpot, tree: ExpandedTree) -> Tables:
    """Holding arrays; per river board, each holding's strength and the order by strength; for
    Dilemma Hold'em, the holdings' classes and the settled payoff of every terminal situation."""
    boards = tree.boards
    held = [spot.holdings(p) for p in range(2)]
    n = np.array([len(c) for c, _ in held], dtype=np.int64)
    size = int(n.max())
    hands = np.zeros((2, size, 2), dtype=np.int64)
    weights = np.zeros((2, size))
    same = np.full((2, size), -1, dtype=np.int64)
    index = []
    for p, (combos, w) in enumerate(held):
        hands[p, : n[p]] = combos
        weights[p, : n[p]] = w
        index.append({(int(a), int(b)): i for i, (a, b) in enumerate(combos)})
    for p in range(2):
        for i, (a, b) in enumerate(held[p][0]):
            same[p, i] = index[1 - p].get((int(a), int(b)), -1)
    n_boards = len(boards)
    strength = np.full((2, n_boards, size), -1, dtype=np.int32)
    base = list(spot.board)
    for b, dealt in enumerate(boards):
        board = base + [int(c) for c in dealt if c >= 0]
        bits = 0
        for c in board:
            bits |= 1 << c
        for p in range(2):
            combos = held[p][0].astype(np.int64)
            ok = ((1 << combos[:, 0]) | (1 << combos[:, 1])) & bits == 0
            rows = np.column_stack([combos[ok], np.tile(board, (int(ok.sum()), 1))]).astype(np.uint8)
            scores = evaluate_batch(rows, spot.spec, threads=False)
            strength[p, b, np.flatnonzero(ok)] = scores
    showdown = _showdown_tables(strength, hands)
    compatible = ((hands[0, : n[0], None, :, None] != hands[1, None, : n[1], None, :]).all(axis=(2, 3)))
    pairs = float(weights[0, : n[0]] @ compatible @ weights[1, : n[1]])
    if pairs <= 0.0:
        raise SpotError("the two ranges have no pair of holdings that fit together on this board")
    if spot.table is None:
        no_groups = np.zeros((0, 2, 3), dtype=np.int64)
        dilemma = (np.zeros((2, size), dtype=np.int64), np.zeros((0, 2, 1, 1)), np.zeros((0, 2, 3, 1, 1)),
                   no_groups, no_groups)
    else:
        dilemma = payoff_tables(spot, tree.fold_keys, tree.showdown_keys, [c for c, _ in held], size)
    holders = (np.zeros((2, 0), dtype=np.int64), same) if spot.table is None else (dilemma[0], same)
    sweeps = sweep_tables(showdown, np.int64(spot.spec.n_cards), holders)
    return Tables(hands, weights, n, same, strength, showdown, pairs, *dilemma, sweeps=sweeps)


def _showdown_tables(strength: np.ndarray, hands: np.ndarray) -> tuple:
    """Per player and river board, the holdings that do not touch the board sorted by score."""
    order = np.argsort(strength, axis=2, kind="stable")
    count = (strength >= 0).sum(axis=2).astype(np.int64)
    blocked = strength.shape[2] - count  # blocked and padding rows (score -1) sort first
    # compact types (8 bytes a row instead of 28): the sweeps read these rows at every showdown
    holding = np.zeros(order.shape, dtype=np.int16)
    score = np.zeros(order.shape, dtype=np.int32)
    cards = np.zeros((*order.shape, 2), dtype=np.uint8)
    for p in range(2):
        for b in range(order.shape[1]):
            k, first = int(count[p, b]), int(blocked[p, b])
            idx = order[p, b, first:]
            holding[p, b, :k] = idx
            score[p, b, :k] = strength[p, b, idx]
            cards[p, b, :k] = hands[p, idx]
    return count, holding, score, cards


@contextmanager
def _chunk_size_one() -> Iterator[None]:
    """Call the kernels with numba's parallel chunk size at 1. It balances nothing (numba's layers
    hand a ``prange`` out statically: the task queue does that, see ``_kernels._run_tasks``), but
    the cached kernels crash (segfault) when called at the default 0 after one process compiled
    the entry kernel against a ``_run_tasks`` another process had cached (results/benchmarks.md,
    issue 17, eleventh session); at 1, as they always were called, they do not."""
    previous = numba.set_parallel_chunksize(1)
    try:
        yield
    finally:
        numba.set_parallel_chunksize(previous)


def suit_swaps(spot: CardSpot) -> list[tuple[int, int]]:
    """Pairs of suits whose swap leaves the board, both ranges (with their weights) and, in
    Dilemma Hold'em, every card's corners and effect unchanged."""
    spec = spot.spec
    ns = spec.n_suits
    out = []
    deck_perms = None if spot.table is None else set(spot.table.deck.suit_permutations())
    for a in range(ns):
        for b in range(a + 1, ns):
            if deck_perms is not None:
                perm = list(range(ns))
                perm[a], perm[b] = b, a
                if tuple(perm) not in deck_perms:
                    continue
            def swap(c: int, a: int = a, b: int = b) -> int:
                return swap_suits(c, (a, b), ns)

            if {swap(c) for c in spot.board} != set(spot.board):
                continue
            same = True
            for p in range(2):
                combos, w = spot.holdings(p)
                table = {(int(x), int(y)): float(v) for (x, y), v in zip(combos, w, strict=True)}
                for (x, y), v in table.items():
                    sx, sy = swap(x), swap(y)
                    if table.get((max(sx, sy), min(sx, sy))) != v:
                        same = False
                        break
            if same:
                out.append((a, b))
    return out


def mirror_cards(spot: CardSpot, swaps: list[tuple[int, int]]) -> dict[int, tuple[int, int]]:
    """Cards of the first chance nodes that mirror a lower card under a suit swap: ``{card:
    (reference card, swap number)}`` (cards in increasing order; a reference never mirrors)."""
    cards = [c for c in range(spot.spec.n_cards) if c not in spot.board]
    return mirror_map(cards, (), swaps, spot.spec.n_suits)


def isomorphic_tasks(spot: CardSpot, tree: ExpandedTree, tables: Tables, task_parent: np.ndarray,
                     swaps: list[tuple[int, int]], mirrors: dict[int, tuple[int, int]],
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The tasks to walk (largest subtree first), each task's reference task (-1 if walked) and
    swap, and the holding permutation of each swap (see :func:`._kernels._run_tasks`)."""
    n_tasks = len(tree.tasks)
    iso_ref = np.full(n_tasks, -1, dtype=np.int64)
    iso_swap = np.zeros(n_tasks, dtype=np.int64)
    ns = spot.spec.n_suits
    size = tables.hands.shape[1]
    perm = np.zeros((max(len(swaps), 1), 2, size), dtype=np.int64)
    for k, pair in enumerate(swaps):
        card_map = [swap_suits(c, pair, ns) for c in range(spot.spec.n_cards)]
        for p in range(2):
            n = int(tables.n_hands[p])
            index = {(int(x), int(y)): i for i, (x, y) in enumerate(tables.hands[p, :n])}
            for i, (x, y) in enumerate(tables.hands[p, :n]):
                sx, sy = int(card_map[x]), int(card_map[y])
                perm[k, p, i] = index[(max(sx, sy), min(sx, sy))]
    cards = tree.nodes[tree.tasks, CARD] if n_tasks else np.zeros(0, dtype=np.int64)
    task_of = {(int(task_parent[t]), int(cards[t])): t for t in range(n_tasks)}
    for t in range(n_tasks):
        if int(cards[t]) in mirrors:
            image, k = mirrors[int(cards[t])]
            iso_ref[t], iso_swap[t] = task_of[(int(task_parent[t]), image)], k
    work = np.flatnonzero(iso_ref < 0).astype(np.int64)
    # largest subtrees first (ties in task order): the threads taking them from the queue finish together
    nodes = tree.nodes
    size = nodes[tree.tasks[work], END] - tree.tasks[work] if n_tasks else np.zeros(0, dtype=np.int64)
    work = work[np.argsort(-size, kind="stable")]
    return work, iso_ref, iso_swap, perm


def store_lock(solver, node: int, strategy: np.ndarray, at: tuple[int, int, int, int]) -> None:  # type: ignore[no-untyped-def]
    """The heads-up and the three-handed solvers' ``lock``, once the node is found: ``strategy``
    checked (float[k actions, n holdings], each holding's column a distribution; else a
    :class:`SpotError` saying so) and written as player ``p``'s strategy sums at ``slot``, its
    regrets zeroed and the player labelled (``at`` = (p, k, n, slot)); the caller sets its tree's
    lock column."""
    p, k, n, slot = at
    table = np.asarray(strategy, dtype=np.float64)
    if table.shape != (k, n) or (table < 0).any() or not np.allclose(table.sum(axis=0), 1.0, atol=1e-6):
        raise SpotError(f"a locked strategy at node {node} is {k} actions x {n} holdings, each holding's "
                        "frequencies non-negative and summing to 1")
    solver.sums[p][slot : slot + k * n] = table.reshape(-1)
    solver.regrets[p][slot : slot + k * n] = 0.0
    solver.lock_labels.setdefault(p, "table")


class CardSolver:
    """DCFR (postflop-solver's) or CFR+ on one heads-up spot, with exact exploitability."""

    def __init__(self, spot: CardSpot, method: str = "dcfr", isomorphism: bool = True,
                 precision: str = DEFAULT_PRECISION) -> None:
        method = method_named(method, "card heads-up", SpotError).name
        if precision not in PRECISIONS:
            raise SpotError(f"precision {precision!r}: choose {' or '.join(PRECISIONS)}")
        if precision != DEFAULT_PRECISION and spot.table is not None:
            raise SpotError(f"precision {precision} is for Texas Hold'em spots (the like-for-like comparison with "
                            "postflop-solver): on the Dilemma turn float32 needed 840 iterations where float64 needed "
                            "710 to 0.1% of the pot, and gained nothing measurable")
        if spot.table is not None and spot.table.rules.kickers != "all":
            raise SpotError("the card-level solver compares every kicker (rule kickers=all): its strengths and "
                            "payoff classes do not follow kickers=top yet")
        self.spot = spot
        self.method = method
        self.precision = precision
        self._dtype = PRECISIONS[precision]
        self.public = action_tree(spot)
        sizes = tuple(len(spot.holdings(p)[0]) for p in range(2))
        swaps = suit_swaps(spot) if isomorphism else []
        mirrors = mirror_cards(spot, swaps)
        self.tree: ExpandedTree = expand(spot, self.public, sizes, frozenset(mirrors), swaps)  # type: ignore[arg-type]
        self.tables = build_tables(spot, self.tree)
        t = self.tables
        self.regrets = tuple(np.zeros(max(s, 1), dtype=np.float32) for s in self.tree.storage)
        self.sums = tuple(np.zeros(max(s, 1), dtype=np.float32) for s in self.tree.storage)
        self.iterations = 0
        self.history: list[tuple[int, float, float]] = []  # iteration, exploitability, seconds
        self.lock_labels: dict[int, str] = {}
        """What each locked player plays (a model's name, or ``table``): saved with the solution, so a
        resumed solve can refuse other locks."""
        self._exploitability: float | None = None
        nodes = self.tree.nodes
        self._task_parent = np.zeros(len(self.tree.tasks), dtype=np.int64)
        for v in np.flatnonzero((nodes[:, KIND] == CHANCE) & (nodes[:, TASK] >= 0)):
            t0, k = nodes[v, TASK], nodes[v, COUNT]
            self._task_parent[t0 : t0 + k] = t0
        self._iso = pack_iso(self._task_parent, *isomorphic_tasks(spot, self.tree, t, self._task_parent, swaps,
                                                                   mirrors))
        h = t.hands.shape[1]
        # layer 1: the average strategy's task values beside the best response's (run in MODE_BR_EV)
        layers = 1 if spot.zero_sum else 2
        self._task_vals = np.zeros((layers, max(len(self.tree.tasks), 1), h), self._dtype)
        self._chance_reach = np.zeros((max(len(self.tree.tasks), 1), h), self._dtype)
        self._weights = t.weights.astype(self._dtype, copy=False)  # the kernels' root reach
        self._packed = pack_tree(self.tree.nodes, t, self._iso[IS_PERM], self._dtype)
        self._iopts = np.zeros(K.N_IOPTS, dtype=np.int64)
        self._iopts[K.O_N_CARDS] = spot.spec.n_cards
        self._iopts[K.O_BOARD_LEN] = len(spot.board)
        self._iopts[K.O_METHOD] = METHODS[method]
        self._iopts[K.O_GAME] = K.GAME_HOLDEM if spot.table is None else K.GAME_DILEMMA
        self._dilemma = None if spot.table is None else True
        """The kernels' game switch: None compiles Texas Hold'em's terminals only, True Dilemma's."""
        self._coefs = np.zeros(K.N_COEFS)
        self._coefs[K.C_HALF_POT] = spot.pot / 2.0
        self._coefs[K.C_INV_PAIRS] = 1.0 / t.pairs
        self._pool = self._buffers(buffer_sets())

    def _buffers(self, n_sets: int) -> tuple:
        d, a, h = self.tree.max_depth, self.tree.max_actions, self.tables.hands.shape[1]
        n_sets = max(1, min(n_sets, len(self._iso[IS_WORK])))
        # acc2, vals2: the average strategy's rows of a check walk (run in MODE_BR_EV), not zero-sum games only
        d2, a2, h2 = (1, 1, 1) if self.spot.zero_sum else (d, max(a, 1), h)
        return new_pool(n_sets, (d, max(a, 1), h), (d2, a2, h2), max(self.tables.n_classes, 2),
                        self.spot.spec.n_cards, self._dtype)

    @property
    def _tree_args(self) -> tuple:
        return self._packed

    def _args(self) -> tuple:
        """The kernels' (tree, cfr, pool, subtrees, weights) (tuples described in :mod:`._kernels`)."""
        return (self._tree_args, (self.regrets, self.sums, self._iopts, self._coefs), self._pool,
                (self.tree.tasks, self._iso, self._task_vals, self._chance_reach), self._weights)

    def step(self, count: int = 1) -> None:
        """Run ``count`` more iterations."""
        with _chunk_size_one():
            K.run(*self._args(), (K.MODE_CFR, self.iterations, count), (EMPTY_ROWS, EMPTY_ROWS), self._dilemma)
        self.iterations += count
        self._exploitability = None

    def root_values(self, mode: int) -> np.ndarray:
        """Both players' root value rows (float64[2, H]) under the average strategy or best responses."""
        out = np.zeros((2, self.tables.hands.shape[1]))
        with _chunk_size_one():
            K.run(*self._args(), (mode, 0, 1), (out, EMPTY_ROWS), self._dilemma)
        return out

    def check_values(self) -> tuple[np.ndarray, np.ndarray]:
        """Both players' root value rows under best responses and under the average strategies,
        in one walk per player (not zero-sum games: the rows :meth:`root_values` gives, bit for bit)."""
        if self.spot.zero_sum:
            return self.root_values(K.MODE_BR), self.root_values(K.MODE_EV)
        best = np.zeros((2, self.tables.hands.shape[1]))
        average = np.zeros_like(best)
        with _chunk_size_one():
            K.run(*self._args(), (K.MODE_BR_EV, 0, 1), (best, average), self._dilemma)
        return best, average

    def expected_values(self) -> np.ndarray:
        """Each player's expected share of the pot under the average strategies: the chips it ends
        the hand with less what it had behind at the root (they sum to the pot in Texas Hold'em;
        in Dilemma Hold'em the bank's payments and takings are in them too)."""
        vals = self.root_values(K.MODE_EV)
        w = self.tables.weights
        return (w * vals).sum(axis=1) + self.spot.pot / 2.0

    def best_response_values(self) -> np.ndarray:
        """Each player's expected share of the pot when it best-responds to the other's average strategy."""
        vals = self.root_values(K.MODE_BR)
        w = self.tables.weights
        return (w * vals).sum(axis=1) + self.spot.pot / 2.0

    @property
    def exploitability(self) -> float:
        """The mean of both players' best-response gains over their average-strategy values
        (NashConv / 2, chips; 0 at an equilibrium): postflop-solver's measure, and the lab's
        ``NashConv / players``. Targets in % of the pot (:meth:`run`) are read on it in both games."""
        if self._exploitability is None:
            if self.spot.zero_sum:  # the values sum to the pot: the gains need the best responses only
                br = self.best_response_values()
                self._exploitability = float((br.sum() - self.spot.pot) / 2.0)
            else:  # best responses and average-strategy values in one walk per player
                w = self.tables.weights
                best, average = self.check_values()
                br = (w * best).sum(axis=1) + self.spot.pot / 2.0
                ev = (w * average).sum(axis=1) + self.spot.pot / 2.0
                self._exploitability = float((br - ev).sum() / 2.0)
        return self._exploitability

    @property
    def nash_conv(self) -> float:
        """The sum of both players' best-response gains over their average-strategy values (chips)."""
        return 2.0 * self.exploitability

    @property
    def exploitability_measure(self) -> str:
        """What :attr:`exploitability` measures (the same in both games)."""
        return EXPLOITABILITY_MEASURE

    @property
    def exploitability_pct(self) -> float:
        """Exploitability as a % of the starting pot."""
        return 100.0 * self.exploitability / self.spot.pot

    def run(self, *, target_pct: float = 0.3, max_iterations: int = 1000,
            progress: Progress | None = None, check_every: int = CHECK_EVERY, stop=None,
            schedule: str = "fixed") -> float:
        """Iterate until exploitability <= ``target_pct``% of the pot (checked every ``check_every``
        iterations, or fewer times while far from the target with ``schedule="adaptive"``: see
        :mod:`.schedule`) or ``max_iterations``; returns the exploitability in chips.

        One iteration per kernel call: when ``stop`` (a ``threading.Event``) is set, the run
        returns after the current iteration (the state stays resumable bit for bit).
        """
        start = time.perf_counter()
        target = self.spot.pot * target_pct / 100.0
        expl = self.exploitability
        checks = [(i, e) for i, e, _ in self.history]  # (a resumed run schedules as one run)
        due = next_check(self.iterations, checks, check_every, target, schedule)
        while self.iterations < max_iterations and expl > target:
            self.step(1)
            if stop is not None and stop.is_set():
                return expl
            if self.iterations >= due or self.iterations == max_iterations:
                expl = self.exploitability
                checks.append((self.iterations, expl))
                due = next_check(self.iterations, checks, check_every, target, schedule)
                self.history.append((self.iterations, expl, time.perf_counter() - start))
                if progress is not None:
                    progress(self.iterations, expl)
        return expl

    def lock(self, node: int, strategy: np.ndarray) -> None:
        """Node locking: fix the strategy of decision ``node`` to ``strategy`` (float[actions,
        holdings of the actor], each holding's column a distribution). The node then plays it
        in every iteration and best response (the other player best-responds to it, and the
        actor's best response keeps it); :attr:`exploitability` counts the gains at the free
        nodes only. Needs a solver without suit isomorphism (a lock may break the symmetry)."""
        nodes = self.tree.nodes
        if not 0 <= node < nodes.shape[0] or nodes[node, KIND] != DECISION:
            raise SpotError(f"node {node} is not a decision")
        if len(self._iso[IS_WORK]) < len(self.tree.tasks):
            raise SpotError("node locking needs a solver built with isomorphism=False")
        p, k = int(nodes[node, PLAYER]), int(nodes[node, COUNT])
        n = int(self.tables.n_hands[p])
        store_lock(self, node, strategy, (p, k, n, int(nodes[node, SLOT])))
        nodes[node, LOCK] = 1
        self._exploitability = None

    def lock_everywhere(self, player: int, strategy_of: Callable[[int], np.ndarray],
                        label: str = "table") -> None:
        """Lock every decision node of ``player`` to ``strategy_of(node)`` (see :meth:`lock`);
        ``label`` names what it plays (:attr:`lock_labels`)."""
        nodes = self.tree.nodes
        for v in self.tree.decision_nodes:
            if nodes[v, PLAYER] == player:
                self.lock(int(v), strategy_of(int(v)))
        self.lock_labels[player] = label

    @property
    def locked(self) -> list[int]:
        """The locked decision nodes."""
        return [int(v) for v in np.flatnonzero(self.tree.nodes[:, LOCK])]

    def strategy(self, node: int) -> np.ndarray:
        """The average strategy at decision node ``node``: float64[actions, holdings of the actor]."""
        nodes = self.tree.nodes
        if nodes[node, KIND] != DECISION:
            raise SpotError(f"node {node} is not a decision")
        if nodes[node, SLOT] < 0:
            raise SpotError(f"node {node} mirrors another card's subtree (suit isomorphism): ask for that card")
        p, k = int(nodes[node, PLAYER]), int(nodes[node, COUNT])
        n = int(self.tables.n_hands[p])
        out = np.zeros((k, n))
        K.strategy_into(self.sums[p], int(nodes[node, SLOT]), k, n, out, np.zeros(n))
        return out

    @property
    def walked_nodes(self) -> int:
        """Nodes a walk visits: suit isomorphism skips the task subtrees that mirror another task and,
        below a task's root, the dealt cards whose values a lower card's stand in for (``ISO``)."""
        nodes = self.tree.nodes
        skip = np.zeros(len(nodes) + 1, np.int64)
        walked = set(int(t) for t in self._iso[IS_WORK])
        for t, root in enumerate(self.tree.tasks):
            end = nodes[root, END]
            if t not in walked:
                skip[root] += 1
                skip[end] -= 1
                continue
            inner = root + 1 + np.flatnonzero(nodes[root + 1 : end, ISO] < 0)
            np.add.at(skip, inner, 1)
            np.add.at(skip, nodes[inner, END], -1)
        return int((np.cumsum(skip[:-1]) == 0).sum())

    @property
    def memory_bytes(self) -> int:
        """Bytes held by the tree, the tables and the solver state."""
        t = self.tables
        arrays = [self.tree.nodes, *self.regrets, *self.sums, t.strength, *t.showdown, t.hclass, t.fold_tab,
                  t.showdown_tab, t.fold_groups, t.showdown_groups, *t.sweeps, *self._pool, self._task_vals, self._chance_reach]
        return int(sum(a.nbytes for a in arrays))
