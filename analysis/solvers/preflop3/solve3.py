"""Solve the three-handed pre-flop game over starting classes: CFR with exact best responses.

Each player's private state is its starting class (the chart's 10 x 10 grid), the three classes
dealt jointly with card removal exact (:mod:`.deal3`); a player's green cards are not seen apart
from its class: their effects are averaged into the class's values (the chart is for a player who
plays a class alike whatever its suits). The tree is :mod:`.bet_tree3`'s; a fold end is settled by
the real rules and a terminal that sees the flop is worth the check-down (:mod:`.continuation3`).

The arithmetic is numpy over classes. A terminal's counterfactual value for player ``p`` of class
``a`` sums, over the opponents' classes ``b`` and ``c``, the deal's probability ``W[a, b, c]``, the
opponents' reaches and the payoff: where the payoff depends on ``a`` alone (a fold end) or on ``a``
and one opponent's class (two see the flop) ``W`` is contracted with the third player's reach, one
matrix product for all such terminals; where three see the flop ``W`` times the payoff is contracted.
Updates alternate between the players (DCFR or CFR+ as heads-up); BLAS runs on one thread, so the
numbers do not depend on the machine's thread count.

Three players make a game that is neither zero-sum nor two-player: CFR is not guaranteed to reach an
equilibrium, so every solve reports each player's *exploitability*, its exact best response's gain
over its value under the average strategies (over classes: the best response sees its own class,
not its suits), and NashConv, their sum, in chips and in % of the blinds' pot.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from analysis.solvers.methods import method_named
from analysis.solvers.preflop_hu.solve import (
    PreflopError,
    PreflopGame,
    average_strategy,
    iteration_weights,
    regret_matching,
)

from .bet_tree3 import PLAYER_NAMES3, PreflopTree3, build_preflop_tree3
from .continuation3 import Continuation3, checkdown3
from .deal3 import ClassDeal, class_deal

STACK3 = "pre-flop three-handed"
GREEN_MIX = "class mix"
"""The chart's ``green`` column three-handed: hand effects averaged into the class."""

__all__ = ["GREEN_MIX", "Preflop3Solution", "Preflop3Spot", "STACK3", "ClassGame3", "solve_preflop3"]


@dataclass(frozen=True)
class Preflop3Spot(PreflopGame):
    """A three-handed pre-flop question (:class:`PreflopGame`), with the continuation's deals of
    holdings per triple of classes (``deals``) beside its ``boards`` in the pool."""

    deals: int = 8

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.deals < 1:
            raise PreflopError(f"deals per triple of classes must be at least 1, got {self.deals}")

    def describe(self) -> dict[str, Any]:
        """The spot as plain data (manifests)."""
        return {**self.table.describe(), **self.tree_config.describe(), "players": 3, "continuation": "check-down",
                "boards": self.boards, "deals_per_triple": self.deals, "seed": self.seed,
                "private_states": "starting classes (hand effects averaged into the class)"}


class ClassGame3:
    """The arrays a solve walks: the tree, the joint deal of classes (``weights[a, b, c]``: players 0, 1,
    2 hold classes ``a, b, c``; a real deal's is symmetric, any other is read axis by axis), each
    terminal's payoffs."""

    def __init__(self, tree: PreflopTree3, weights: np.ndarray, cont: Continuation3) -> None:
        self.tree = tree
        self.cont = cont
        g = weights.shape[0]
        self.g = g
        self.weights = weights
        symmetric = all(np.array_equal(weights, weights.transpose(t)) for t in ((1, 0, 2), (0, 2, 1)))
        base = np.ascontiguousarray(weights).reshape(g * g, g)
        self._wflat: dict[tuple[int, int], np.ndarray] = {}
        for p in range(3):  # W with player p's axis first and player x's last, as a [G * G, G] matrix
            for x in (q for q in range(3) if q != p):
                self._wflat[(p, x)] = base if symmetric else \
                    np.ascontiguousarray(weights.transpose(p, 3 - p - x, x)).reshape(g * g, g)
        index = {s: i for i, s in enumerate(cont.situations)}
        self.sit = {v: index[tree.situation(v)] for v in tree.terminals()}
        self.decisions = tree.decisions()
        # per player: W-contracted groups {(s, o, x): terminals} and three-way groups {s: terminals}
        self.pairs: list[dict[tuple[int, int, int], list[int]]] = []
        self.threes: list[dict[int, list[int]]] = []
        self.pay: dict[tuple[int, int], np.ndarray] = {}
        self.mten: dict[tuple[int, int], np.ndarray] = {}
        for p in range(3):
            others = [q for q in range(3) if q != p]
            pairs: dict[tuple[int, int, int], list[int]] = {}
            threes: dict[int, list[int]] = {}
            for v in tree.terminals():
                s = self.sit[v]
                if (s, p) in cont.own:
                    key = (s, others[0], others[1])
                    self.pay[(s, p)] = np.repeat(cont.own[(s, p)][:, None], g, axis=1)
                    pairs.setdefault(key, []).append(v)
                elif (s, p) in cont.pair:
                    o, m = cont.pair[(s, p)]
                    key = (s, o, 3 - p - o)
                    self.pay[(s, p)] = m
                    pairs.setdefault(key, []).append(v)
                else:
                    if (s, p) not in self.mten:
                        self.mten[(s, p)] = np.ascontiguousarray(
                            (weights * cont.triple[(s, p)]).transpose(p, *others)).reshape(g * g, g)
                    threes.setdefault(s, []).append(v)
            self.pairs.append(pairs)
            self.threes.append(threes)

    def reaches(self, strategy: Callable[[int], np.ndarray]) -> np.ndarray:
        """``float64[3, N, G]``: each player's reach of every node, by class, under ``strategy``."""
        tree = self.tree
        r = np.zeros((3, tree.n_nodes, self.g))
        r[:, 0] = 1.0
        for v in self.decisions:
            sigma = strategy(v)
            a = tree.player[v]
            for k, c in enumerate(tree.children[v]):
                r[:, c] = r[:, v]
                r[a, c] = r[a, v] * sigma[:, k]
        return r

    def terminal_values(self, p: int, r: np.ndarray) -> dict[int, np.ndarray]:
        """Player ``p``'s counterfactual values at every terminal against the opponents' reaches."""
        g = self.g
        out: dict[int, np.ndarray] = {}
        by_x: dict[int, list[tuple[int, int, int, list[int]]]] = {}
        for (s, o, x), vs in self.pairs[p].items():
            by_x.setdefault(x, []).append((s, o, x, vs))
        for x, groups in by_x.items():
            vs_all = [v for *_, vs in groups for v in vs]
            y = (self._wflat[(p, x)] @ r[x, vs_all].T).reshape(g, g, len(vs_all))  # [a, b, m]: W summed over x
            at = 0
            for s, o, _, vs in groups:
                ym = y[:, :, at : at + len(vs)]
                at += len(vs)
                vals = np.einsum("ab,abm,mb->am", self.pay[(s, p)], ym, r[o, vs], optimize=True)
                for i, v in enumerate(vs):
                    out[v] = vals[:, i]
        others = [q for q in range(3) if q != p]
        for s, vs in self.threes[p].items():
            y = (self.mten[(s, p)] @ r[others[1], vs].T).reshape(g, g, len(vs))
            vals = np.einsum("abm,mb->am", y, r[others[0], vs])
            for i, v in enumerate(vs):
                out[v] = vals[:, i]
        return out

    def opponent_mass(self, p: int, r: np.ndarray, nodes: list[int]) -> np.ndarray:
        """``[len(nodes), G]``: per node, the probability of the opponents' classes and reaches given
        player ``p``'s class (the normaliser of an EV at the node)."""
        g = self.g
        q, x = (k for k in range(3) if k != p)
        y = (self._wflat[(p, x)] @ r[x, nodes].T).reshape(g, g, len(nodes))
        return np.einsum("abm,mb->ma", y, r[q, nodes])

    def values(self, p: int, r: np.ndarray, strategy: Callable[[int], np.ndarray], best: bool) -> np.ndarray:
        """``float64[N, G]``: player ``p``'s counterfactual values at every node, playing ``strategy``
        or its best response (``best``) against the others' ``strategy`` (reaches ``r``)."""
        tree = self.tree
        val = np.zeros((tree.n_nodes, self.g))
        for v, x in self.terminal_values(p, r).items():
            val[v] = x
        for v in reversed(self.decisions):
            kids = tree.children[v]
            if tree.player[v] == p:
                child = val[kids].T
                val[v] = child.max(axis=1) if best else (child * strategy(v)).sum(axis=1)
            else:
                val[v] = val[kids].sum(axis=0)
        return val


@dataclass
class Preflop3Solution:
    """A solved three-handed pre-flop spot: average strategies per decision and class, exploitability."""

    spot: Preflop3Spot
    tree: PreflopTree3
    deal: ClassDeal
    continuation: Continuation3
    method: str
    iterations: int
    strategy_sums: dict[int, np.ndarray]
    history: list[tuple[int, float, float, float]]
    """(iteration, exploitability of the small blind, the big blind, the button) in chips, per check."""
    game: ClassGame3 = field(repr=False)
    seconds: float = 0.0
    continuation_seconds: float = 0.0

    def strategy(self, v: int) -> np.ndarray:
        """float64[G, A]: the average strategy at node ``v`` per class (uniform where never reached)."""
        return average_strategy(self.strategy_sums[v])

    @property
    def exploitability(self) -> tuple[float, float, float]:
        """Each player's best-response gain in chips (the last check)."""
        return self.history[-1][1], self.history[-1][2], self.history[-1][3]

    @property
    def nash_conv(self) -> float:
        return float(sum(self.exploitability))

    @property
    def blinds_pot(self) -> int:
        """The pot before anyone acts: the blinds."""
        cfg = self.spot.tree_config
        return cfg.small_blind + cfg.big_blind

    def values(self) -> tuple[float, float, float]:
        """Each player's value per hand, in chips, under the average strategies."""
        with threadpool_limits(1):  # as in the solve: the same numbers whatever the machine's threads
            return _values(self.game, self.strategy)

    def ending_shares(self) -> dict[str, float]:
        """How hands end under the average strategies: the share of hands that end before the flop (one
        player left), with two players seeing the flop and with three (card removal in the deal's weights)."""
        from .continuation3 import FLOP2, FLOP3, FOLD_END, situation_kind

        g, tree = self.game, self.tree
        with threadpool_limits(1):
            r = g.reaches(self.strategy)
            w = g.weights.reshape(g.g * g.g, g.g)
            out = dict.fromkeys((FOLD_END, FLOP2, FLOP3), 0.0)
            for v in tree.terminals():
                y = (w @ r[2, v]).reshape(g.g, g.g)
                out[situation_kind(tree.situation(v)[0])] += float(r[0, v] @ y @ r[1, v])
        return {"fold_end": out[FOLD_END], "two_see_flop": out[FLOP2], "three_see_flop": out[FLOP3]}

    def decisions(self) -> pd.DataFrame:
        """One row per decision node: how likely the line is (every player's part of it, the deal's card
        removal included) and the share of each kind of action (fold, check, call, raise, all-in) over
        the classes that reach it, each weighted by its probability of being there."""
        with threadpool_limits(1):
            return _decisions(self)

    def chart(self) -> pd.DataFrame:
        """One row per decision node, starting class and action (the heads-up chart's columns; ``green``
        is :data:`GREEN_MIX`): the class's reach of the node, the action's frequency, its EV (chips
        after the hand less chips before, given the class reaches the node) and its regret against the
        best action."""
        with threadpool_limits(1):
            return _chart(self)


def _values(g: ClassGame3, strategy: Callable[[int], np.ndarray]) -> tuple[float, float, float]:
    r = g.reaches(strategy)
    return tuple(float(g.values(p, r, strategy, False)[0].sum()) for p in range(3))  # type: ignore[return-value]


def exploitability3(g: ClassGame3, strategy: Callable[[int], np.ndarray]) -> tuple[float, float, float]:
    """Each player's exact best-response gain (over classes) against ``strategy``, in chips a hand."""
    r = g.reaches(strategy)
    out = []
    for p in range(3):
        br = g.values(p, r, strategy, True)[0].sum()
        now = g.values(p, r, strategy, False)[0].sum()
        out.append(float(br - now))
    return out[0], out[1], out[2]


def solve_class_game3(g: ClassGame3, *, method: str = "dcfr", iterations: int = 1000,
                      target_chips: float | None = None, check_every: int = 50,
                      progress: Callable[[int, float], None] | None = None, order: Sequence[int] = (0, 1, 2)
                      ) -> tuple[dict[int, np.ndarray], list[tuple[int, float, float, float]], int]:
    """CFR on a class game: the average strategy sums, the exploitability history and the iterations
    run (``target_chips``: stop when every player's best-response gain is at most that). ``order``: the
    players' order of update within an iteration (the heads-up solver updates the big blind first)."""
    m = method_named(method, STACK3, PreflopError).name
    if check_every < 1:
        raise PreflopError(f"check_every must be at least 1, got {check_every}")
    tree = g.tree
    regrets = {v: np.zeros((g.g, len(tree.children[v]))) for v in g.decisions}
    sums = {v: np.zeros((g.g, len(tree.children[v]))) for v in g.decisions}
    history: list[tuple[int, float, float, float]] = []

    def average(v: int) -> np.ndarray:
        return average_strategy(sums[v])

    def current(v: int) -> np.ndarray:
        return regret_matching(regrets[v])

    done = 0
    with threadpool_limits(1):
        for t in range(1, iterations + 1):
            pos_w, neg_w, avg_w = iteration_weights(m, t)
            for p in order:
                sigma = {v: current(v) for v in g.decisions}
                r = g.reaches(sigma.__getitem__)
                val = g.values(p, r, sigma.__getitem__, False)
                for v in g.decisions:
                    if tree.player[v] != p:
                        continue
                    child = val[tree.children[v]].T
                    reg = regrets[v]
                    if m == "dcfr":
                        reg *= np.where(reg > 0, pos_w, neg_w)
                        reg += child - val[v][:, None]
                        sums[v] *= avg_w
                        sums[v] += r[p, v][:, None] * sigma[v]
                    else:
                        reg += child - val[v][:, None]
                        np.maximum(reg, 0.0, out=reg)
                        sums[v] += avg_w * r[p, v][:, None] * sigma[v]
            done = t
            if t % check_every == 0 or t == iterations:
                e = exploitability3(g, average)
                history.append((t, *e))
                if progress is not None:
                    progress(t, max(e))
                if target_chips is not None and max(e) <= target_chips:
                    break
    return sums, history, done


def solve_preflop3(spot: Preflop3Spot | None = None, *, method: str = "dcfr", iterations: int = 1000,
                   target_chips: float | None = None, check_every: int = 25,
                   continuation: Continuation3 | None = None,
                   progress: Callable[[int, float], None] | None = None) -> Preflop3Solution:
    """Solve ``spot`` (default: the reference deck at the start) by ``method`` (``dcfr`` or ``cfr+``)
    for ``iterations``, or until every player's exploitability is at most ``target_chips`` (checked
    every ``check_every`` iterations and at the end). ``continuation``: reuse one already computed
    for the same table, chips and tree. ``progress(iteration, largest exploitability)``."""
    spot = spot or Preflop3Spot()
    method_named(method, STACK3, PreflopError)
    if check_every < 1:
        raise PreflopError(f"check_every must be at least 1, got {check_every}")
    tree = build_preflop_tree3(spot.tree_config)
    deal = class_deal(spot.table.deck.spec)
    t0 = time.perf_counter()
    if continuation is None:
        continuation = checkdown3(spot.table, deal, tree.situations(), spot.chips, spot.boards, spot.deals, spot.seed)
    elif set(continuation.situations) != set(tree.situations()):
        raise PreflopError("the continuation's situations are not the tree's")
    t1 = time.perf_counter()
    game = ClassGame3(tree, deal.weights, continuation)
    sums, history, done = solve_class_game3(game, method=method, iterations=iterations, target_chips=target_chips,
                                            check_every=check_every, progress=progress)
    return Preflop3Solution(spot, tree, deal, continuation, method_named(method, STACK3, PreflopError).name, done,
                            sums, history, game, time.perf_counter() - t1, t1 - t0)


def _chart(sol: Preflop3Solution) -> pd.DataFrame:
    g, tree = sol.game, sol.tree
    r = g.reaches(sol.strategy)
    names = list(sol.deal.names)
    sizes = sol.deal.sizes
    rows = []
    for p in range(3):
        nodes = [v for v in g.decisions if tree.player[v] == p]
        if not nodes:
            continue
        val = g.values(p, r, sol.strategy, False)
        mass = g.opponent_mass(p, r, nodes)
        for i, v in enumerate(nodes):
            sigma = sol.strategy(v)
            norm = mass[i]
            ev = np.where(norm > 0, val[tree.children[v]] / np.where(norm > 0, norm, 1), np.nan)  # [A, G]
            best = np.nanmax(ev, axis=0) if np.isfinite(ev).any() else np.full(g.g, np.nan)
            for a, label in enumerate(tree.actions[v]):
                rows.append(pd.DataFrame({"node": v, "line": tree.line[v] or "(root)", "player": PLAYER_NAMES3[p],
                                          "hand": names, "green": GREEN_MIX, "combos": sizes, "reach": r[p, v],
                                          "action": label, "frequency": sigma[:, a], "ev": ev[a],
                                          "regret": best - ev[a]}))
    return pd.concat(rows, ignore_index=True).sort_values("node", kind="stable").reset_index(drop=True)


KINDS = ("fold", "check", "call", "raise", "allin")


def _decisions(sol: Preflop3Solution) -> pd.DataFrame:
    g, tree = sol.game, sol.tree
    r = g.reaches(sol.strategy)
    rows = []
    for p in range(3):
        nodes = [v for v in g.decisions if tree.player[v] == p]
        if not nodes:
            continue
        mass = g.opponent_mass(p, r, nodes)
        for i, v in enumerate(nodes):
            here = r[p, v] * mass[i]  # each class's probability of being dealt and at the node
            total = float(here.sum())
            sigma = sol.strategy(v)
            share = dict.fromkeys(KINDS, 0.0)
            for a, label in enumerate(tree.actions[v]):
                share[label.split()[0]] += float(here @ sigma[:, a]) / total if total > 0 else np.nan
            rows.append({"node": v, "line": tree.line[v] or "(root)", "player": PLAYER_NAMES3[p],
                         "probability": total, **share})
    return pd.DataFrame(rows).sort_values("node", kind="stable").reset_index(drop=True)
