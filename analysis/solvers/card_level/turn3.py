"""Three-handed card-level turn spots: Monte Carlo CFR over river cards, NashConv exact.

Typical use::

    from analysis.solvers.card_level import CardSpot
    from analysis.solvers.card_level.turn3 import solve_turn3
    spot = CardSpot.multiway("4s9h3d6c", ("8s7s", "random", "random"), pot=120, stack=980, bank="40,700,500")
    solution = solve_turn3(spot, method="mccfr", seed=1, target_pct=1.0)
    solution.manifest()["exploitability_measure"]     # "NashConv (exact)"

The tree is :mod:`.tree3`'s turn round, a river-card node, then the river round under
every river card (its own regrets per card). ``mccfr`` draws ``per_walk`` river cards (default one)
per walk (:mod:`._mccfr3`: Monte Carlo CFR with the chance event sampled, every action and
every holding still enumerated in vectors; linear CFR updates; seeded, the same numbers on
any thread count);
``dcfr`` and ``cfr+`` walk every river card each iteration (exact CFR on the whole turn
tree, the slow reference). How settled a solution is, is NashConv, the sum of the three
players' best-response gains, computed exactly over every river card, holding and
triple of holdings ("exact") unless the tree is too big for that (:data:`EXACT_LIMIT`): then
estimated by sampling each player's holdings (:meth:`TurnSolver3.nash_conv_sampled`, seeded:
"sampled" and its standard error in every output).

A solution file (:meth:`TurnSolution3.save`, format :data:`.solution.FORMAT3_TURN`) holds the
spot, method, seed, river cards per walk, the iterations, the regrets and strategy sums and the
sampler's state; :func:`.solution.load_solution` reads it back (:func:`load_turn3`) and the solve
resumes bit for bit. :meth:`TurnSolution3.summary` groups a decision's range by made hand, draw
or starting class (on the turn, or past it on the river card's board).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from analysis.core.rng import derive_key

from ..methods import method_named
from . import _kernels3 as K3
from . import _mccfr3 as M3
from ._kernels import (
    C_INV_PAIRS,
    METHOD_CFR_PLUS,
    METHOD_DCFR,
    MODE_BR,
    MODE_CFR,
    MODE_EV,
    N_COEFS,
)
from ._layout import CH_KEEP, HD_CLASS, HD_N, pack_chance, pack_tree3
from .card_spot import CardSpot, SpotError
from .multiway import (
    EMPTY_ROWS,
    MultiwaySolution,
    NodeTable3,
    board_hands,
    payoff_table3,
    restore3,
    write3,
)
from .solution import FORMAT3_TURN
from .solver import CHECK_EVERY, Progress
from .tree import CHANCE, DECISION
from .tree3 import CARD, KIND, N_PLAYERS, PLAYER, Tree3, action_tree3, expand3

__all__ = ["FORMAT3_TURN", "METHODS", "TurnSolution3", "TurnSolver3", "load_turn3", "solve_turn3"]

METHODS = {"mccfr": K3.METHOD_LINEAR, "dcfr": METHOD_DCFR, "cfr+": METHOD_CFR_PLUS}
"""Method -> the regret update. ``mccfr`` sums sampled values linearly (linear CFR, the average
weighted by the player's reach): no floor or discount that would turn noise into bias."""
CHECK_SAMPLED = 500
"""Iterations between two exact NashConv measurements of ``mccfr`` (one costs about as much as
``C / per_walk`` iterations)."""
MEASURE = "NashConv (exact)"
MEASURE_SAMPLED = "NashConv (sampled ± SE)"
EXACT_LIMIT = 40_000_000
"""NashConv is exact when the tree's terminals times the three ranges' holdings stay within this
(the work of one exact measurement: the issue's turn spot 2.4e7, three random ranges 3.6e7, about
10-30 s), else sampled (``nash_conv="auto"``)."""
SAMPLED_HOLDINGS = 64
"""Holdings drawn per player (by weight, with replacement) for a sampled NashConv."""
_STACKED = (3, 4, 5, 6, 7, 8, 9, 10)
"""Slots of the holding arrays that depend on the board (one per river card, then the turn's)."""


def build_turn_hands(spot: CardSpot, river_cards: Sequence[int]) -> tuple[tuple, np.ndarray, np.ndarray]:
    """The holding arrays with a leading axis per river card (the last for the turn's fold ends,
    unscored), the turn weights and ``alive`` (float64[C, 3, H]: 0 where a holding holds the card)."""
    held = [spot.holdings(p) for p in range(N_PLAYERS)]
    board = list(spot.board)
    per = [board_hands(spot, held, [*board, c], dead=c)[0] for c in river_cards]
    turn, weights = board_hands(spot, held, None)
    per.append(turn)
    hands = tuple(np.ascontiguousarray(np.stack([h[i] for h in per])) if i in _STACKED else turn[i]
                  for i in range(len(turn)))
    hc, n = turn[1], turn[0]
    alive = np.zeros((len(river_cards), 3, weights.shape[1]))
    for i, c in enumerate(river_cards):
        for p in range(3):
            alive[i, p, : n[p]] = (hc[p, : n[p], 0] != c) & (hc[p, : n[p], 1] != c)
    return hands, weights, alive


class TurnSolver3(NodeTable3):
    """Monte Carlo CFR (``mccfr``: one river card per walk) or exact CFR (``dcfr``, ``cfr+``: every
    river card) on a three-handed turn spot, with exact NashConv."""

    def __init__(self, spot: CardSpot, method: str = "mccfr", seed: int = 0, per_walk: int = 1,
                 nash_conv: str = "auto") -> None:
        method = method_named(method, "card turn three-handed", SpotError).name
        if spot.players != N_PLAYERS or spot.street != 1:
            raise SpotError("the three-handed turn solver needs three ranges and a 4-card board")
        if spot.table is not None and spot.table.rules.kickers != "all":
            raise SpotError("three-handed spots compare every kicker (rule kickers=all)")
        self.spot, self.method, self.seed = spot, method, int(seed)
        spec = spot.spec
        self.river_cards = tuple(c for c in range(spec.n_cards) if c not in spot.board)
        n_river = len(self.river_cards)
        if not 1 <= per_walk <= n_river:
            raise SpotError(f"river cards per walk: 1 to {n_river}, not {per_walk}")
        self.per_walk = int(per_walk) if method == "mccfr" else n_river
        """River cards drawn per walk (all of them: exact CFR)."""
        self.sampled = self.per_walk < n_river
        self.hands, self.weights, alive = build_turn_hands(spot, self.river_cards)
        n = self.hands[HD_N]
        self.tree: Tree3 = expand3(action_tree3(spot), tuple(int(x) for x in n), self.river_cards,
                                   tuple(spec.card_name(c) for c in self.river_cards))
        combos = [spot.holdings(p)[0] for p in range(N_PLAYERS)]
        board = list(spot.board)
        tables = [payoff_table3(spot, self.tree.situations, combos, self.hands[HD_CLASS], [*board, c])
                  for c in self.river_cards]
        tables.append(payoff_table3(spot, self.tree.situations, combos, self.hands[HD_CLASS], board))
        # river cards that settle alike share one table (the reference deck: 18 tables for 37)
        self._pay_index = np.zeros(len(tables), dtype=np.int64)
        """Table of each river card index (the last: the turn's fold ends) in ``pay``."""
        distinct: dict[bytes, int] = {}
        for k, tab in enumerate(tables):
            self._pay_index[k] = distinct.setdefault(tab.tobytes(), len(distinct))
        self.pay = np.ascontiguousarray(np.stack([tables[int(np.flatnonzero(self._pay_index == i)[0])]
                                                  for i in range(len(distinct))]))
        self.triples = float(K3.triples(M3._card_hands(self.hands, n_river), self.weights))
        if self.triples <= 0.0:
            raise SpotError("the three ranges have no triple of holdings that fit together on this board")
        unseen = spec.n_cards - len(board) - 2 * N_PLAYERS  # river cards left for any triple
        factors = np.zeros(M3.N_FACTORS)
        factors[M3.SF_EXACT] = 1.0 / unseen
        size = self.weights.shape[1]
        self._chance = pack_chance(alive, factors, np.ones((3, size), dtype=np.bool_), self._pay_index)
        t = self.tree
        if nash_conv not in ("auto", "exact", "sampled"):
            raise SpotError(f"NashConv {nash_conv!r}: exact, sampled or auto")
        work = len(t.terminals) * int(n.sum())
        sampled = nash_conv == "sampled" or (nash_conv == "auto" and work > EXACT_LIMIT)
        self.nash_conv_estimate = "sampled" if sampled else "exact"
        """How NashConv is measured: ``exact``, or ``sampled`` (:meth:`nash_conv_sampled`)."""
        self.nash_conv_se = 0.0
        """The standard error of the last NashConv (0 when exact)."""
        self._tree_args = pack_tree3(t, np.flatnonzero(np.isin(t.nodes[:, KIND], (CHANCE, DECISION))).astype(np.int64))
        self.regrets = tuple(np.zeros(max(s, 1)) for s in t.storage)
        self.sums = tuple(np.zeros(max(s, 1)) for s in t.storage)
        n_nodes = t.nodes.shape[0]
        self._work = (tuple(np.zeros(max(s, 1)) for s in t.storage), np.zeros((n_nodes, 3, size)),
                      np.zeros((n_nodes, size)))
        self._iopts = np.zeros(K3.N_IOPTS, dtype=np.int64)
        self._iopts[K3.O_METHOD] = METHODS[method]
        self._iopts[K3.O_PARALLEL_PAIRS] = K3.PARALLEL_PAIRS
        self._iopts[K3.O_REACH_AVERAGE] = self.sampled
        self._coefs = np.zeros(N_COEFS)
        self._coefs[C_INV_PAIRS] = 1.0 / self.triples
        self._key = derive_key(self.seed, "three-handed turn")
        self.iterations = 0
        self.history: list[tuple[int, float, float]] = []
        self._nash_conv: float | None = None
        self.lock_labels: dict[int, str] = {}  # player -> what its locked decisions play
        self._ev_walks: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self._by_line = {tuple(x.lower() for x in line): v for v, line in t.lines.items()}

    def _args(self) -> tuple:
        """The kernels' (spot, weights, chance, cfr, work) (tuples described in :mod:`._mccfr3`)."""
        return ((self._tree_args, self.hands, self.pay), self.weights, self._chance,
                (self.regrets, self.sums, self._iopts, self._coefs), self._work)

    def step(self, count: int = 1) -> None:
        """Run ``count`` more iterations."""
        M3.run(*self._args(), (MODE_CFR, -1, self.iterations, count, self._key, self.per_walk),
               np.arange(len(self.river_cards)), EMPTY_ROWS)
        self.iterations += count
        self._nash_conv = None
        self._ev_walks.clear()

    def root_values(self, mode: int, cards: Sequence[int] | None = None) -> np.ndarray:
        """Every player's root value row (float64[3, H]) under the average strategies (``MODE_EV``)
        or best responses (``MODE_BR``): exact (``cards`` None) or the estimate of a walk on the
        river card indices ``cards`` (distinct) only."""
        chosen = np.arange(len(self.river_cards)) if cards is None else np.asarray(cards, dtype=np.int64)
        out = np.zeros((3, self.weights.shape[1]))
        M3.run(*self._args(), (mode, -1, 0, 1, self._key, self.per_walk), chosen, out)
        return out

    def expected_values(self) -> np.ndarray:
        """Each player's expected chips at the end of the hand less its stack at the root."""
        return (self.weights * self.root_values(MODE_EV)).sum(axis=1) + self.spot.pot / N_PLAYERS

    def best_response_values(self) -> np.ndarray:
        """The same when each player in turn best-responds to the others' average strategies."""
        return (self.weights * self.root_values(MODE_BR)).sum(axis=1) + self.spot.pot / N_PLAYERS

    @property
    def nash_conv(self) -> float:
        """The sum of the three players' best-response gains (chips): exact over every river card,
        holding and triple of holdings, or (a big tree) the sampled estimate, its SE in ``nash_conv_se``."""
        if self._nash_conv is None:
            if self.nash_conv_estimate == "sampled":
                self._nash_conv, self.nash_conv_se = self.nash_conv_sampled()
            else:
                self._nash_conv = float((self.best_response_values() - self.expected_values()).sum())
        return self._nash_conv

    def nash_conv_sampled(self, holdings: int = SAMPLED_HOLDINGS, seed: int | None = None) -> tuple[float, float]:
        """NashConv estimated from ``holdings`` holdings per player drawn by weight (with replacement,
        seeded by ``seed`` (default the solver's) and the iteration count: the same state gives the
        same estimate) and its standard error. Each drawn holding's best-response gain is exact
        (every river card and pair of opponent holdings), so the estimate is unbiased; the walks
        compute the terminals for the drawn holdings only."""
        if holdings < 2:
            raise SpotError(f"a sampled NashConv needs at least 2 holdings per player, not {holdings}")
        key = derive_key(self.seed if seed is None else int(seed), "nash conv", self.iterations)
        rng = np.random.default_rng(int(key))
        keep = self._chance[CH_KEEP]
        n = self.hands[HD_N]
        drawn, mass = [], []
        keep[:] = False
        for p in range(N_PLAYERS):
            w = self.weights[p, : n[p]]
            mass.append(float(w.sum()))
            drawn.append(rng.choice(int(n[p]), size=holdings, p=w / w.sum()))
            keep[p, drawn[-1]] = True
        try:
            gain = self.root_values(MODE_BR) - self.root_values(MODE_EV)
        finally:
            keep[:] = True
        total, var = 0.0, 0.0
        for p in range(N_PLAYERS):
            g = mass[p] * gain[p, drawn[p]]
            total += float(g.mean())
            var += float(g.var(ddof=1)) / holdings
        return total, float(np.sqrt(var))

    exploitability = nash_conv

    @property
    def exploitability_measure(self) -> str:
        """How NashConv is measured: exact or sampled with its standard error."""
        return MEASURE_SAMPLED if self.nash_conv_estimate == "sampled" else MEASURE

    @property
    def exploitability_pct(self) -> float:
        """NashConv as a % of the starting pot."""
        return 100.0 * self.nash_conv / self.spot.pot

    def run(self, *, target_pct: float = 0.3, max_iterations: int = 1000, progress: Progress | None = None,
            check_every: int | None = None, stop=None) -> float:
        """Iterate until NashConv <= ``target_pct``% of the pot (checked every ``check_every``
        iterations, default :data:`CHECK_SAMPLED` sampled, else 10) or ``max_iterations``; returns
        NashConv in chips. When ``stop`` (a ``threading.Event``) is set, returns after the current
        iteration (it then runs one iteration a call: resumable bit for bit, the draws and updates
        of iteration ``t`` being a function of ``t`` alone)."""
        if check_every is None:
            check_every = CHECK_SAMPLED if self.sampled else CHECK_EVERY
        start = time.perf_counter()
        target = self.spot.pot * target_pct / 100.0
        nc = self.nash_conv
        while self.iterations < max_iterations and nc > target:
            if stop is not None and stop.is_set():
                return nc
            chunk = min(check_every - self.iterations % check_every, max_iterations - self.iterations)
            self.step(1 if stop is not None else chunk)
            if self.iterations % check_every == 0 or self.iterations == max_iterations:
                nc = self.nash_conv
                self.history.append((self.iterations, nc, time.perf_counter() - start))
                if progress is not None:
                    progress(self.iterations, nc)
        return nc

    def _mass(self, v: int) -> tuple[np.ndarray, np.ndarray]:
        """Per holding of the actor at ``v``, the reach of the other two players' holdings it can
        meet (over the weighted triples, on the node's board), and the exact EV walk's node values."""
        nodes = self.tree.nodes
        p = int(nodes[v, PLAYER])
        m = int(self.hands[HD_N][p])
        if p not in self._ev_walks:  # one exact walk per player gives every node's values
            M3.run(*self._args(), (MODE_EV, p, 0, 1, self._key, self.per_walk), np.arange(len(self.river_cards)),
                   EMPTY_ROWS)
            self._ev_walks[p] = (self._work[1].copy(), self._work[2].copy())
        reach, vals = self._ev_walks[p]
        i = int(nodes[v, CARD])
        k = i if i >= 0 else len(self.river_cards)
        ones = np.ones((1, 3, 8, *self.pay.shape[4:]))
        mass = np.zeros(m)
        K3._terminal(v, p, pack_tree3(self.tree), M3._card_hands(self.hands, k), ones, reach, 1.0 / self.triples,
                     mass)
        return mass, vals

    @property
    def memory_bytes(self) -> int:
        """Bytes held by the tree, the tables and the solver state."""
        arrays = [self.tree.nodes, self.tree.children, *self.hands, self.pay, self.weights, *self._chance,
                  *self.regrets, *self.sums, *self._work[0], self._work[1], self._work[2]]
        return int(sum(a.nbytes for a in arrays))


class TurnSolution3(MultiwaySolution):
    """A :class:`TurnSolver3` read as answers (lines past the turn name the river card)."""

    def lines(self) -> list[tuple[str, ...]]:
        """The action lines of the turn's decisions (the river's, per card, through :meth:`strategy`)."""
        t = self.solver.tree
        return [t.lines[int(v)] for v in t.decisions if t.nodes[v, CARD] < 0]

    def manifest(self) -> dict:
        out = super().manifest()
        s = self.solver
        if s.nash_conv_estimate == "sampled":
            out.update(exploitability_se=s.nash_conv_se,
                       exploitability_se_pct_pot=100.0 * s.nash_conv_se / s.spot.pot,
                       exploitability_sample=f"{SAMPLED_HOLDINGS} holdings per player drawn by weight")
        out.update(method=s.method, seed=s.seed, sampled=s.sampled, river_cards_per_walk=s.per_walk,
                   chance=f"{s.per_walk} of {len(s.river_cards)} river cards drawn per walk (Monte Carlo CFR)"
                   if s.sampled else "every river card each iteration (exact CFR)",
                   river_cards=len(s.river_cards))
        return out

    def save(self, path: str | Path) -> Path:
        """Write the solution file (whole or not at all): the spot, method, seed, river cards per
        walk, how NashConv is measured, the iterations, the regrets and strategy sums, and the
        river-card sampler's state (its key and the next iteration's counter: the draws of
        iteration ``t`` are a function of both alone), so :func:`load_turn3` resumes bit for bit."""
        s = self.solver
        if s.locked:
            raise SpotError("a locked three-handed turn solve is not saved yet (its locks would be lost)")
        info = {"format": FORMAT3_TURN, "spot": self.spot.describe(), "method": s.method, "seed": s.seed,
                "river_cards_per_walk": s.per_walk, "nash_conv": s.nash_conv_estimate, "iterations": s.iterations,
                "storage": list(s.tree.storage), "history": s.history,
                "rng": {"key": int(s._key), "next_iteration": s.iterations}}
        return write3(path, info, s, np.savez_compressed)


def solve_turn3(spot: CardSpot, *, method: str = "mccfr", seed: int = 0, per_walk: int = 1, target_pct: float = 1.0,
                max_iterations: int = 10_000, check_every: int | None = None,
                progress: Progress | None = None, nash_conv: str = "auto") -> TurnSolution3:
    """Solve a three-handed turn ``spot`` until NashConv <= ``target_pct``% of the pot or ``max_iterations``."""
    solver = TurnSolver3(spot, method, seed, per_walk, nash_conv)
    solver.run(target_pct=target_pct, max_iterations=max_iterations, check_every=check_every, progress=progress)
    return TurnSolution3(solver)


def load_turn3(path: str | Path, info: dict, arrays: dict[str, np.ndarray]) -> TurnSolution3:
    """The solution :meth:`TurnSolution3.save` wrote (``info`` and ``arrays`` read from it): the
    solver rebuilt from the spot, method, seed and river cards per walk, its arrays and the
    sampler's state checked against the tree and the seed."""
    try:
        rng = info["rng"]
        solver = TurnSolver3(CardSpot.from_dict(info["spot"]), info["method"], int(info["seed"]),
                             int(info["river_cards_per_walk"]), str(info["nash_conv"]))
        key, iterations = int(rng["key"]), int(info["iterations"])
        follows = int(rng["next_iteration"]) == iterations
    except (KeyError, TypeError, ValueError) as exc:
        raise SpotError(f"solution file {path}: unreadable spot or solver settings ({exc})") from None
    if key != int(solver._key) or not follows:
        raise SpotError(f"solution file {path}: its sampler state does not follow from its seed and iterations")
    restore3(path, solver, info, arrays)
    solver.iterations = iterations
    return TurnSolution3(solver)
