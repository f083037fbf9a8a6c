"""Three-handed card-level river spots, solved exactly: DCFR or CFR+ and exact NashConv.

Typical use::

    from analysis.solvers.card_level import CardSpot
    from analysis.solvers.card_level.multiway import solve_multiway
    spot = CardSpot.multiway("4s9h3d6c2h", ("8s7s", "random", "random"), pot=120, stack=980, bank="40,700,500")
    solution = solve_multiway(spot, target_pct=0.3)
    solution.fold_or_check()                # the first player's 8s7s: folds for free, checks or indifferent

The tree is :mod:`.tree3` (player 0 first to act, player 2 the DEALER's seat), the
terminal values the real settlement per triple of holding classes (:mod:`._payoffs3`;
Texas Hold'em rules: the pot, split on a tie) and the iterations :mod:`._kernels3`.
Three players' payoffs do not sum to a constant, so the measure of how settled a
solution is, is NashConv: the sum of every player's best-response gain over its
value under the average strategies, computed exactly over every holding and every
triple of holdings ("exact" in every output). CFR on a three-player game has no
convergence guarantee; NashConv says how far from an equilibrium the result is.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from analysis.core.io import atomic_path
from evaluator import evaluate_batch

from ..methods import method_named
from . import _kernels3 as K3
from ._kernels import (
    C_INV_PAIRS,
    METHOD_CFR_PLUS,
    METHOD_DCFR,
    MODE_BR,
    MODE_CFR,
    MODE_EV,
    N_COEFS,
    strategy_into,
)
from ._layout import HD_CLASS, HD_N, pack_hands, pack_tree3
from ._payoffs import N_INTS, SP_BANK1, SP_BANK3, SP_LEVEL, SP_POT, SP_STACK
from ._payoffs3 import settle_situations3
from .card_spot import SEATS3, CardSpot, SpotError
from .dilemma_terminals import holding_classes
from .solution import DEFAULT_TOLERANCE_PCT, FORMAT3, decision_frame, fold_or_check_frame
from .solver import CHECK_EVERY, Progress, store_lock
from .summary import GroupsAt, check_by, group_order, summary_frame
from .tree import DECISION, action_label
from .tree3 import (
    CARD,
    COUNT,
    KIND,
    LOCK,
    N_PLAYERS,
    PLAYER,
    SIT_LIVE,
    SIT_PUT,
    SIT_STREET,
    SLOT,
    Tree3,
    action_tree3,
    expand3,
)

__all__ = ["FORMAT3", "MultiwaySolution", "MultiwaySolver", "load_multiway", "solve_multiway"]

METHODS = {"dcfr": METHOD_DCFR, "cfr+": METHOD_CFR_PLUS}
EMPTY_ROWS = np.zeros((N_PLAYERS, 0))
"""The root-value rows :func:`._kernels3.run` leaves alone (iterations, single traversals)."""
SEATS = SEATS3
"""Player names in outputs: the order of action (small blind's, big blind's, DEALER's seat)."""
MEASURE = "NashConv (exact)"


def build_hands(spot: CardSpot) -> tuple[tuple, np.ndarray, list[np.ndarray]]:
    """The kernels' holding arrays (see :mod:`._kernels3`), the weights ``float64[3, H]`` and
    each player's holdings."""
    held = [spot.holdings(p) for p in range(N_PLAYERS)]
    hands, weights = board_hands(spot, held, list(spot.board))
    return hands, weights, [c for c, _ in held]


def board_hands(spot: CardSpot, held: list[tuple[np.ndarray, np.ndarray]], board: list[int] | None,
                dead: int = -1) -> tuple[tuple, np.ndarray]:
    """The kernels' holding arrays of the holdings ``held`` (per player: combos and weights)
    scored on the five-card ``board`` (``None``: no scores, for ends without a showdown), and the
    weights. Holdings that hold the ``dead`` card keep their index with score 0 and weight 0 (a
    turn spot's holdings on a river that blocks them)."""
    n = np.array([len(c) for c, _ in held], dtype=np.int64)
    size = int(n.max())
    n_cards = spot.spec.n_cards
    hc = np.zeros((3, size, 2), dtype=np.int64)
    weights = np.zeros((3, size))
    score = np.zeros((3, size), dtype=np.int64)
    order = np.zeros((3, size), dtype=np.int64)
    pos = np.zeros((3, size), dtype=np.int64)
    cardn = np.zeros((3, n_cards), dtype=np.int64)
    cardpos = np.zeros((3, n_cards, n_cards), dtype=np.int64)
    before = np.zeros((3, n_cards, size + 1), dtype=np.int64)
    pairidx = np.full((3, n_cards, n_cards), -1, dtype=np.int64)
    for p, (combos, w) in enumerate(held):
        k = int(n[p])
        c = combos.astype(np.int64)
        hc[p, :k], weights[p, :k] = c, w
        if board is not None:
            alive = (c[:, 0] != dead) & (c[:, 1] != dead)
            rows = np.column_stack([c[alive], np.tile(board, (int(alive.sum()), 1))]).astype(np.uint8)
            score[p, :k][alive] = evaluate_batch(rows, spot.spec, threads=False)
            weights[p, :k][~alive] = 0.0
        order[p, :k] = np.argsort(score[p, :k], kind="stable")
        pos[p, order[p, :k]] = np.arange(k)
        pairidx[p, c[:, 0], c[:, 1]] = np.arange(k)
        pairidx[p, c[:, 1], c[:, 0]] = np.arange(k)
        for card in range(n_cards):
            at = np.sort(pos[p, :k][(c[:, 0] == card) | (c[:, 1] == card)])
            cardn[p, card] = len(at)
            cardpos[p, card, : len(at)] = at
            before[p, card] = np.searchsorted(at, np.arange(size + 1), side="left")
    lo = np.zeros((3, 3, size), dtype=np.int64)
    hi = np.zeros((3, 3, size), dtype=np.int64)
    for q in range(3):
        ranked = score[q, order[q, : n[q]]]
        for p in range(3):
            lo[p, q, : n[p]] = np.searchsorted(ranked, score[p, : n[p]], side="left")
            hi[p, q, : n[p]] = np.searchsorted(ranked, score[p, : n[p]], side="right")
    cls = np.zeros((3, size), dtype=np.int64)
    hands = pack_hands(n, hc, cls, score, order, pos, lo, hi, cardn, cardpos, before, pairidx)
    return hands, weights


def payoff_table3(spot: CardSpot, situations: np.ndarray, combos: list[np.ndarray], cls: np.ndarray,
                  board: Sequence[int] | None = None) -> np.ndarray:
    """``float64[S, 3, 8, K, K, K]``: each player's payoff per situation, winner set and triple of
    classes (:func:`._payoffs3.settle_situations3`) on ``board`` (default the spot's; five cards
    settle the situations that end on the river, four the fold ends on the turn); fills each
    holding's class into ``cls``. Texas Hold'em rules (one class): the pot split evenly between
    the winners."""
    s = len(situations)
    third = spot.pot / N_PLAYERS
    board = list(spot.board if board is None else board)
    ends = 2 if len(board) == 5 else 1
    if spot.table is None:
        tab = np.zeros((s, 3, 8, 1, 1, 1))
        for i, row in enumerate(situations.tolist()):
            live, put, street = row[SIT_LIVE], row[SIT_PUT : SIT_PUT + 3], row[SIT_STREET]
            if street != ends:
                continue
            total = spot.pot + sum(put)
            for w in range(1, 8):
                if w & live != w or (bin(live).count("1") == 1 and w != live):
                    continue
                share = total / bin(w).count("1")
                for p in range(3):
                    tab[i, p, w] = (share if w >> p & 1 else 0.0) - put[p] - third
        return tab
    table = spot.table
    classes, reps, _ = holding_classes(table.deck, combos)
    for p in range(3):
        cls[p, : len(classes[p])] = classes[p]
    k = len(reps)
    ints = np.zeros(N_INTS, dtype=np.int64)
    ints[SP_POT], ints[SP_STACK] = spot.pot, spot.stack
    ints[SP_BANK1 : SP_BANK3 + 1] = table.bank
    ints[SP_LEVEL] = table.level
    tab = np.zeros((s, 3, 8, k, k, k))
    padded = np.zeros(5, dtype=np.int64)
    padded[: len(board)] = board
    settle_situations3(ints, padded, len(board), reps, np.ascontiguousarray(situations, dtype=np.int64),
                       table.deck.kernel_args, table.rules.kernel_args, tab)
    return tab


class NodeTable3:
    """What a three-handed solver reads the same way on the river and the turn: a node by its line
    (``_by_line``: labels, and river cards past the turn), the average strategy of a decision, node
    locking, and each action's EV and each holding's weight at a decision from the solver's ``_mass``
    (its exact EV walk)."""

    spot: CardSpot
    tree: Tree3
    hands: tuple
    sums: tuple
    regrets: tuple
    _by_line: dict
    _nash_conv: float | None
    _ev_walks: dict

    def lock(self, node: int, strategy: np.ndarray) -> None:
        """Node locking: fix the strategy of decision ``node`` to ``strategy`` (float[actions,
        holdings of the actor], each holding's column a distribution). The node then plays it in
        every iteration and best response (the others best-respond to it, and the actor's best
        response keeps it); NashConv counts the gains at the free nodes only (as heads-up,
        :meth:`.solver.CardSolver.lock`)."""
        nodes = self.tree.nodes
        if not 0 <= node < nodes.shape[0] or nodes[node, KIND] != DECISION:
            raise SpotError(f"node {node} is not a decision")
        p, k = int(nodes[node, PLAYER]), int(nodes[node, COUNT])
        n = int(self.hands[HD_N][p])
        store_lock(self, node, strategy, (p, k, n, int(nodes[node, SLOT])))
        nodes[node, LOCK] = 1
        self._nash_conv = None
        self._ev_walks.clear()

    def lock_everywhere(self, player: int, strategy_of: Callable[[int], np.ndarray], label: str = "table") -> None:
        """Lock every decision node of ``player`` to ``strategy_of(node)`` (see :meth:`lock`);
        ``label`` names what it plays (saved with the solution, so a resume can refuse other locks)."""
        nodes = self.tree.nodes
        for v in self.tree.decisions:
            if nodes[v, PLAYER] == player:
                self.lock(int(v), strategy_of(int(v)))
        self.lock_labels[player] = label

    def action_values(self, v: int) -> np.ndarray:
        """EV (chips, less the stack at the root) of each action per holding of the actor at ``v``
        given that the holding reaches ``v`` (and, past the turn, that river card): float64[actions,
        holdings]; NaN where unreached (the node values and the mass from the solver's ``_mass``)."""
        nodes = self.tree.nodes
        m = int(self.hands[HD_N][int(nodes[v, PLAYER])])
        mass, vals = self._mass(v)
        kids = self.tree.children[v, : int(nodes[v, COUNT])]
        with np.errstate(invalid="ignore", divide="ignore"):
            ev = self.spot.pot / N_PLAYERS + vals[kids, :m] / mass
        ev[:, mass <= 0.0] = np.nan
        return ev

    def holding_weights(self, v: int) -> np.ndarray:
        """How likely each of the actor's holdings is at decision ``v``: its own reach (range weight
        times its average-strategy probabilities on the way) times the reach of the others' holdings
        it can meet, over the weighted triples (sums to the share of deals reaching ``v``; past the turn,
        among the deals with that river card)."""
        p = int(self.tree.nodes[v, PLAYER])
        m = int(self.hands[HD_N][p])
        mass, _ = self._mass(v)
        return self._ev_walks[p][0][v, p, :m] * mass

    @property
    def locked(self) -> list[int]:
        """The locked decision nodes."""
        return [int(v) for v in np.flatnonzero(self.tree.nodes[:, LOCK])]

    def board_at(self, v: int) -> list[int]:
        """The board's card ids at node ``v``: the spot's board and, below a turn spot's river-card
        node, the river card."""
        board = [int(c) for c in self.spot.board]
        i = int(self.tree.nodes[v, CARD])
        if i >= 0:
            board.append(int(self.tree.river_cards[i]))
        return board

    def node(self, line: Sequence[str] = ()) -> int:
        """The node reached by a line of action labels (and, past the turn, the river card's name)."""
        key = tuple(str(x).strip().lower() for x in line)
        if key not in self._by_line:
            raise SpotError(f"no decision or end after {' / '.join(line) or 'the root'}")
        return self._by_line[key]

    def strategy(self, v: int) -> np.ndarray:
        """The average strategy at decision ``v``: float64[actions, holdings of the actor]."""
        nodes = self.tree.nodes
        if nodes[v, KIND] != DECISION:
            raise SpotError(f"node {v} is not a decision")
        p, k = int(nodes[v, PLAYER]), int(nodes[v, COUNT])
        m = int(self.hands[HD_N][p])
        out = np.zeros((k, m))
        strategy_into(self.sums[p], int(nodes[v, SLOT]), k, m, out, np.zeros(m))
        return out


class MultiwaySolver(NodeTable3):
    """DCFR (postflop-solver's) or CFR+ on one three-handed river spot, with exact NashConv."""

    def __init__(self, spot: CardSpot, method: str = "dcfr") -> None:
        method = method_named(method, "card river three-handed", SpotError).name
        if spot.players != N_PLAYERS:
            raise SpotError(f"the three-handed solver needs three ranges, not {spot.players}")
        if spot.street == 0:
            raise SpotError("three-handed spots are solved on the turn or the river (a 4- or 5-card board), "
                            "not on the flop")
        if spot.street == 1:
            raise SpotError("the three-handed river solver takes a 5-card board; a turn spot is solved by "
                            "turn3.TurnSolver3 (solve_spot and dilemma solve spot pick it)")
        if spot.table is not None and spot.table.rules.kickers != "all":
            raise SpotError("three-handed spots compare every kicker (rule kickers=all)")
        self.spot = spot
        self.method = method
        self.public = action_tree3(spot)
        self.hands, self.weights, combos = build_hands(spot)
        n = self.hands[HD_N]
        self.tree: Tree3 = expand3(self.public, tuple(int(x) for x in n))
        self.pay = payoff_table3(spot, self.tree.situations, combos, self.hands[HD_CLASS])
        self.triples = float(K3.triples(self.hands, self.weights))
        if self.triples <= 0.0:
            raise SpotError("the three ranges have no triple of holdings that fit together on this board")
        t = self.tree
        self.regrets = tuple(np.zeros(max(s, 1)) for s in t.storage)
        self.sums = tuple(np.zeros(max(s, 1)) for s in t.storage)
        size = self.weights.shape[1]
        n_nodes = t.nodes.shape[0]
        self._work = (tuple(np.zeros(max(s, 1)) for s in t.storage), np.zeros((n_nodes, 3, size)),
                      np.zeros((n_nodes, size)))
        self._iopts = np.zeros(K3.N_IOPTS, dtype=np.int64)
        self._iopts[K3.O_METHOD] = METHODS[method]
        self._iopts[K3.O_PARALLEL_PAIRS] = K3.PARALLEL_PAIRS
        self._coefs = np.zeros(N_COEFS)
        self._coefs[C_INV_PAIRS] = 1.0 / self.triples  # three-handed: one over the triples
        self.iterations = 0
        self.history: list[tuple[int, float, float]] = []
        self._nash_conv: float | None = None
        self.lock_labels: dict[int, str] = {}  # player -> what its locked decisions play
        self._ev_walks: dict[int, tuple[np.ndarray, np.ndarray]] = {}  # player -> reach, values (EV walk)
        self._by_line = {line: v for v, line in t.lines.items()}

    @property
    def _tree_args(self) -> tuple:
        return pack_tree3(self.tree)

    def _args(self) -> tuple:
        """The kernels' (spot, weights, cfr, work) (tuples described in :mod:`._kernels3`)."""
        return ((self._tree_args, self.hands, self.pay), self.weights,
                (self.regrets, self.sums, self._iopts, self._coefs), self._work)

    def step(self, count: int = 1) -> None:
        """Run ``count`` more iterations."""
        K3.run(*self._args(), (MODE_CFR, -1, self.iterations, count), EMPTY_ROWS)
        self.iterations += count
        self._nash_conv = None
        self._ev_walks.clear()

    def root_values(self, mode: int) -> np.ndarray:
        """Every player's root value row (float64[3, H]) under the average strategies or best responses."""
        out = np.zeros((3, self.weights.shape[1]))
        K3.run(*self._args(), (mode, -1, 0, 1), out)
        return out

    def expected_values(self) -> np.ndarray:
        """Each player's expected chips at the end of the hand less its stack at the root (a third
        of the pot each at an even split), under the average strategies."""
        return (self.weights * self.root_values(MODE_EV)).sum(axis=1) + self.spot.pot / N_PLAYERS

    def best_response_values(self) -> np.ndarray:
        """The same when each player in turn best-responds to the others' average strategies."""
        return (self.weights * self.root_values(MODE_BR)).sum(axis=1) + self.spot.pot / N_PLAYERS

    @property
    def nash_conv(self) -> float:
        """The sum of the three players' best-response gains (chips), exact."""
        if self._nash_conv is None:
            self._nash_conv = float((self.best_response_values() - self.expected_values()).sum())
        return self._nash_conv

    exploitability = nash_conv
    exploitability_measure = MEASURE

    @property
    def exploitability_pct(self) -> float:
        """NashConv as a % of the starting pot."""
        return 100.0 * self.nash_conv / self.spot.pot

    def run(self, *, target_pct: float = 0.3, max_iterations: int = 1000, progress: Progress | None = None,
            check_every: int = CHECK_EVERY, stop=None) -> float:
        """Iterate until NashConv <= ``target_pct``% of the pot (checked every ``check_every``
        iterations) or ``max_iterations``; returns NashConv in chips. When ``stop`` (a
        ``threading.Event``) is set, returns after the current iteration (resumable bit for bit)."""
        start = time.perf_counter()
        target = self.spot.pot * target_pct / 100.0
        nc = self.nash_conv
        while self.iterations < max_iterations and nc > target:
            self.step(1)
            if stop is not None and stop.is_set():
                return nc
            if self.iterations % check_every == 0 or self.iterations == max_iterations:
                nc = self.nash_conv
                self.history.append((self.iterations, nc, time.perf_counter() - start))
                if progress is not None:
                    progress(self.iterations, nc)
        return nc

    def _mass(self, v: int) -> tuple[np.ndarray, np.ndarray]:
        """Per holding of the actor at ``v``, the reach of the other two players' holdings it can
        meet (over the weighted triples), and the EV walk's node values of the actor."""
        p = int(self.tree.nodes[v, PLAYER])
        m = int(self.hands[HD_N][p])
        if p not in self._ev_walks:  # one traversal per player gives every node's values
            K3.run(*self._args(), (MODE_EV, p, 0, 1), EMPTY_ROWS)
            self._ev_walks[p] = (self._work[1].copy(), self._work[2].copy())
        reach, vals = self._ev_walks[p]
        ones = np.ones((1, 3, 8, *self.pay.shape[3:]))
        mass = np.zeros(m)
        K3._terminal(v, p, self._tree_args, self.hands, ones, reach, 1.0 / self.triples, mass)
        return mass, vals

    @property
    def memory_bytes(self) -> int:
        """Bytes held by the tree, the tables and the solver state."""
        arrays = [self.tree.nodes, self.tree.children, *self.hands, self.pay, self.weights, *self.regrets,
                  *self.sums, *self._work[0], self._work[1], self._work[2]]
        return int(sum(a.nbytes for a in arrays))


class MultiwaySolution(GroupsAt):
    """A :class:`MultiwaySolver` read as answers (as :class:`.solution.SpotSolution` heads-up)."""

    def __init__(self, solver: MultiwaySolver, tolerance: float | None = None) -> None:
        self.solver = solver
        self.spot = solver.spot
        self.tolerance = self.spot.pot * DEFAULT_TOLERANCE_PCT / 100 if tolerance is None else float(tolerance)
        self._group_cache: dict[tuple, dict[str, list[str]]] = {}

    @property
    def exploitability(self) -> float:
        """NashConv in chips (exact, or sampled on a big turn tree: see ``exploitability_measure``)."""
        return self.solver.nash_conv

    @property
    def exploitability_pct(self) -> float:
        return self.solver.exploitability_pct

    @property
    def exploitability_measure(self) -> str:
        return self.solver.exploitability_measure

    @property
    def iterations(self) -> int:
        return self.solver.iterations

    def ev(self) -> dict[str, float]:
        """Each player's expected chips at the end of the hand less its stack at the root."""
        return dict(zip(SEATS, map(float, self.solver.expected_values()), strict=True))

    def holding_names(self, player: int) -> list[str]:
        spec = self.spot.spec
        return [spec.card_name(a) + spec.card_name(b) for a, b in self.spot.holdings(player)[0]]

    def _labels(self, v: int) -> list[str]:
        return [action_label(a) for a in self.solver.tree.actions[v]]

    def strategy(self, line: Sequence[str] = ()) -> pd.DataFrame:
        """Per holding of the actor at the decision ``line`` leads to, the frequency of each action."""
        v = self._decision(line)
        actor = int(self.solver.tree.nodes[v, PLAYER])
        return pd.DataFrame(self.solver.strategy(v).T, index=pd.Index(self.holding_names(actor), name="holding"),
                            columns=self._labels(v))

    def _decision(self, line: Sequence[str]) -> int:
        v = self.solver.node(line)
        if self.solver.tree.nodes[v, KIND] != DECISION:
            raise SpotError(f"the line {' / '.join(line) or '(root)'} does not end at a decision")
        return v

    def action_values(self, line: Sequence[str] = ()) -> tuple[list[str], np.ndarray]:
        """Action labels and the EV of each action per holding of the actor (float64[actions, holdings])."""
        v = self._decision(line)
        return self._labels(v), self.solver.action_values(v)

    def lines(self) -> list[tuple[str, ...]]:
        """The action lines of every decision."""
        t = self.solver.tree
        return [t.lines[int(v)] for v in t.decisions]

    def first_street_lines(self) -> list[tuple[str, ...]]:
        """The action lines of every decision before any card is dealt (all of them on the river;
        the turn's on a turn spot): the decisions of :meth:`to_frame` and of the CLI's summary table."""
        return self.lines()

    def board_at(self, v: int) -> list[int]:
        """The board's card ids at node ``v`` (:meth:`NodeTable3.board_at`)."""
        return self.solver.board_at(v)

    def summary(self, line: Sequence[str] = (), by: str = "made_hand") -> pd.DataFrame:
        """The actor's range at the decision ``line`` leads to, grouped ``by`` ``made_hand``,
        ``draw`` or ``class``: per group and action, the share of the range reaching the decision,
        the frequency, the action's EV (chips) and the group's value under its strategy
        (``group_ev``), each weighted by how likely the holding is there (its own reach times the
        reach of the other two players' holdings it can meet: :meth:`MultiwaySolver.holding_weights`).
        The columns and meaning of :meth:`.solution.SpotSolution.summary`; players are named by seat."""
        check_by(by)
        v = self._decision(line)
        actor = int(self.solver.tree.nodes[v, PLAYER])
        return summary_frame(" / ".join(line) or "(root)", SEATS[actor], by, group_order(by, self.spot),
                             self.groups_at(actor, v)[by], self._labels(v), self.solver.strategy(v),
                             self.solver.action_values(v), self.solver.holding_weights(v))

    def _rows(self, lines: Sequence[Sequence[str]] | None, fold_and_check: bool = False):
        for line in (self.lines() if lines is None else [tuple(x) for x in lines]):
            v = self._decision(line)
            if fold_and_check and not {"fold", "check"} <= set(self._labels(v)):
                continue
            actor = int(self.solver.tree.nodes[v, PLAYER])
            yield (" / ".join(line) or "(root)", SEATS[actor], self.holding_names(actor),
                   self.spot.holdings(actor)[1], self._labels(v), self.solver.strategy(v),
                   self.solver.action_values(v))

    def to_frame(self, lines: Sequence[Sequence[str]] | None = None) -> pd.DataFrame:
        """One row per decision, holding and action: frequency, EV, best action, gap, indifference, regret."""
        return pd.concat([decision_frame(*row, self.tolerance) for row in self._rows(lines)], ignore_index=True)

    def fold_or_check(self, lines: Sequence[Sequence[str]] | None = None) -> pd.DataFrame:
        """Per decision offering both ``fold`` and ``check`` and holding: the answer and each choice's regret."""
        frames = [fold_or_check_frame(*row, self.tolerance) for row in self._rows(lines, fold_and_check=True)]
        if not frames:
            raise SpotError("no decision offers both fold and check (is the free fold on?)")
        return pd.concat(frames, ignore_index=True)

    def save(self, path: str | Path) -> Path:
        """Write the solution file (whole or not at all)."""
        s = self.solver
        info = {"format": FORMAT3, "spot": self.spot.describe(), "method": s.method, "iterations": s.iterations,
                "storage": list(s.tree.storage), "history": s.history}
        if s.locked:  # (an unlocked solve's file stays byte for byte what it was)
            info["locked"] = s.locked
            info["locks"] = self.locks
        return write3(path, info, s, np.savez)

    @property
    def locks(self) -> dict[str, str]:
        """What each locked player plays, by seat (``{"third": "abc"}``; empty when nothing is locked)."""
        return {SEATS[p]: label for p, label in sorted(self.solver.lock_labels.items())}

    def manifest(self) -> dict:
        """The spot, tree, method, iterations and NashConv (for table manifests and JSON output)."""
        return {"spot": self.spot.describe(), "players": N_PLAYERS, "method": self.solver.method,
                "iterations": self.iterations, "exploitability": self.exploitability,
                "exploitability_pct_pot": self.exploitability_pct,
                "exploitability_measure": self.exploitability_measure,
                "exploitability_estimate": getattr(self.solver, "nash_conv_estimate", "exact"),
                "ev": self.ev(), "indifference_tolerance": self.tolerance,
                "nodes": int(self.solver.tree.nodes.shape[0]), "locked_nodes": len(self.solver.locked)}


def solve_multiway(spot: CardSpot, *, target_pct: float = 0.3, max_iterations: int = 1000, method: str = "dcfr",
                   progress: Progress | None = None, tolerance: float | None = None) -> MultiwaySolution:
    """Solve a three-handed river ``spot`` until NashConv <= ``target_pct``% of the pot or ``max_iterations``
    (:func:`.solution.solve_spot`, which also takes locks)."""
    from .solution import solve_spot

    return solve_spot(spot, target_pct=target_pct, max_iterations=max_iterations, method=method,  # type: ignore[return-value]
                      progress=progress, tolerance=tolerance)


def load_multiway(path: str | Path, info: dict, arrays: dict[str, np.ndarray]) -> MultiwaySolution:
    """The solution :meth:`MultiwaySolution.save` wrote (``info`` and ``arrays`` read from it)."""
    try:
        solver = MultiwaySolver(CardSpot.from_dict(info["spot"]), info["method"])
    except (KeyError, TypeError, ValueError) as exc:
        raise SpotError(f"solution file {path}: unreadable spot ({exc})") from None
    restore3(path, solver, info, arrays)
    solver.iterations = int(info["iterations"])
    decisions = set(solver.tree.decisions.tolist())
    for v in info.get("locked", []):
        if int(v) not in decisions:
            raise SpotError(f"solution file {path} does not match the tree of its spot")
        solver.tree.nodes[int(v), LOCK] = 1
        solver.lock_labels.setdefault(int(solver.tree.nodes[int(v), PLAYER]), "unrecorded")
    seats = {name: p for p, name in enumerate(SEATS)}
    solver.lock_labels.update({seats[k]: str(x) for k, x in info.get("locks", {}).items() if k in seats})
    return MultiwaySolution(solver)


def write3(path: str | Path, info: dict, solver: NodeTable3, savez: Callable) -> Path:
    """A three-handed solution file (whole or not at all): ``info`` and the solver's regrets and
    strategy sums, written by ``savez`` (``np.savez`` or ``np.savez_compressed``)."""
    path = Path(path)
    arrays = {f"regret{p}": solver.regrets[p] for p in range(3)} | {f"sum{p}": solver.sums[p] for p in range(3)}
    with atomic_path(path) as tmp, open(tmp, "wb") as fh:
        savez(fh, info=np.array(json.dumps(info)), **arrays)
    return path


def restore3(path: str | Path, solver: NodeTable3, info: dict, arrays: dict[str, np.ndarray]) -> None:
    """A three-handed solution file's regrets, strategy sums and history into ``solver`` (river or
    turn), checked against its tree (else a :class:`SpotError` naming the file)."""
    expected = [max(int(x), 1) for x in solver.tree.storage]
    names = [f"regret{p}" for p in range(3)] + [f"sum{p}" for p in range(3)]
    if [int(x) for x in info.get("storage", [])] != list(solver.tree.storage) or any(
            k not in arrays or arrays[k].shape != (expected[i % 3],) for i, k in enumerate(names)):
        raise SpotError(f"solution file {path} does not match the tree of its spot")
    solver.regrets = tuple(arrays[f"regret{p}"].astype(np.float64) for p in range(3))
    solver.sums = tuple(arrays[f"sum{p}"].astype(np.float64) for p in range(3))
    solver.history = [tuple(h) for h in info.get("history", [])]
