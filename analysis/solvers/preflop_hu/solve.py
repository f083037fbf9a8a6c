"""Solve the heads-up pre-flop game: CFR over every two-card holding, exact best responses.

Each player's holdings are all two-card holdings of the deck, dealt at random (card removal
exact: a pair of holdings that shares a card never meets). The tree is
:mod:`.bet_tree`'s; a fold ends the hand before the flop and is settled by the real rules
(:func:`._kernels.settle_end`: the blinds and raises, a winner's hand effects; no board, so
no penalty and no bonus); a terminal that sees the flop is worth the check-down continuation
(:mod:`.continuation`). The arithmetic is numpy over holdings: at a showdown terminal one
matrix-vector product per player, at a fold the opponent's reach summed per settlement class
with the card-removal correction (all, less the two cards' holdings, plus the holding itself).

The game is not zero-sum (the bank pays bonuses and takes penalties), so each player's
*exploitability* is its best response's gain over its value under the average strategies;
NashConv is their sum. Values are chips after the hand less chips before, averaged over the
deals.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from analysis.solvers.card_level.dilemma_terminals import DilemmaTable
from analysis.solvers.errors import SolverError
from analysis.solvers.methods import method_named
from analysis.solvers.protocol import DECISION
from analysis.studies.ranges import starting_classes

from ._kernels import payoff_rows, settle_end
from .bet_tree import PLAYER_NAMES, PreflopTree, PreflopTreeConfig, build_preflop_tree
from .continuation import Continuation, checkdown_continuation, setting_of

STACK = "pre-flop heads-up"
DCFR_ALPHA, DCFR_BETA, DCFR_GAMMA = 1.5, 0.0, 2.0


class PreflopError(SolverError):
    """A pre-flop spot or solve that cannot be run as asked."""


@dataclass(frozen=True)
class PreflopGame:
    """What every pre-flop question states, heads-up or three-handed: the game (deck, rules, bank,
    blind level), the chips each player has before the hand, the raise sizes, and the boards and
    seed of the continuation."""

    table: DilemmaTable = field(default_factory=DilemmaTable)
    chips: int = 1000
    opens: tuple[float, ...] = (3.0,)
    reraises: tuple[float, ...] = (3.0,)
    max_raises: int = 3
    boards: int = 2000
    seed: int = 0

    def __post_init__(self) -> None:
        if self.table.rules.kickers != "all":
            raise PreflopError("the pre-flop solver compares every kicker (rule kickers=all): its payoff "
                               "classes do not follow kickers=top")
        if self.boards < 10:
            raise PreflopError(f"boards must be at least 10, got {self.boards}")

    @property
    def tree_config(self) -> PreflopTreeConfig:
        """The bet tree at the table's blind level."""
        small, big = (int(x) for x in self.table.rules.blinds[self.table.level])
        return PreflopTreeConfig(small, big, self.chips, self.opens, self.reraises, self.max_raises)


@dataclass(frozen=True)
class PreflopSpot(PreflopGame):
    """A heads-up pre-flop question (:class:`PreflopGame`)."""

    def describe(self) -> dict[str, Any]:
        """The spot as plain data (manifests)."""
        return {**self.table.describe(), **self.tree_config.describe(), "continuation": "check-down",
                "boards": self.boards, "seed": self.seed}


class _Game:
    """The arrays a solve walks: the tree, each terminal's payoffs, the holdings' classes."""

    def __init__(self, spot: PreflopSpot, tree: PreflopTree, cont: Continuation) -> None:
        self.tree = tree
        self.cont = cont
        h = len(cont.holdings)
        self.h = h
        self.k = len(cont.reps)
        self.onehot = np.zeros((h, self.k))
        self.onehot[np.arange(h), cont.classes] = 1.0
        self.n_cards = int(cont.holdings.max()) + 1
        self.deals = float(cont.compatible.sum())
        # per level and player, the payoffs with the player's own holding as the row, in float32: a
        # matrix-vector product reads half the memory; the values are sample means whose standard
        # error is chips, far above float32's rounding
        self.show = [(np.ascontiguousarray(cont.values[lv, 0], dtype=np.float32),
                      np.ascontiguousarray(cont.values[lv, 1].T, dtype=np.float32)) for lv in range(len(cont.levels))]
        setting = setting_of(spot.table, spot.chips)
        self.fold = {}
        self.level = {}
        for v in tree.terminals():
            if tree.folder[v] >= 0:
                out = np.zeros((2, 3, self.k, self.k))
                end = np.array([*tree.ins[v], tree.folder[v]], np.int64)
                settle_end(end, np.zeros(0, np.int64), cont.reps, setting, spot.table.deck.kernel_args,
                           spot.table.rules.kernel_args, out)
                self.fold[v] = out[:, 0]  # [p, own-or-first class, second class]
            else:
                self.level[v] = cont.levels.index(tree.ins[v][0])
        self.edge = {v: cont.line_edges[tree.line[v]] for v in self.level if tree.line[v] in cont.line_edges}
        unknown = sorted(set(cont.line_edges) - {tree.line[v] for v in self.level})
        if unknown:
            raise PreflopError(f"the continuation has edges for {unknown[0]!r}, not a line of this tree that sees the flop")
        bare = [tree.line[v] for v in self.level if v not in self.edge and tree.ins[v][0] < spot.chips]
        if cont.line_edges and bare:  # one line without its edge would be played as a check-down, unsaid
            raise PreflopError(f"the continuation has line edges but none for {bare[0]!r}")

    def compatible_sums(self, reach: np.ndarray) -> np.ndarray:
        """``[H, K]``: per holding, the opponent's reach summed per class over compatible holdings."""
        by_class = reach[:, None] * self.onehot
        total = by_class.sum(axis=0)
        first, second = self.cont.holdings[:, 0], self.cont.holdings[:, 1]
        per_card = np.zeros((self.n_cards, self.k))  # [card, K]: reach of the holdings holding the card
        np.add.at(per_card, first, by_class)
        np.add.at(per_card, second, by_class)
        return total[None, :] - per_card[first] - per_card[second] + by_class

    def terminal(self, v: int, p: int, opp: np.ndarray) -> np.ndarray:
        """Counterfactual values of player ``p``'s holdings at terminal ``v`` against the opponent's
        reach ``opp``."""
        if v in self.fold:
            tab = self.fold[v][p]  # tab[first-seat class, second-seat class] for player p
            sums = self.compatible_sums(opp)
            own = tab if p == 0 else tab.T  # [own class, opponent class]
            return (own[self.cont.classes] * sums).sum(axis=1)
        out = np.empty(self.h)
        payoff_rows(self.show[self.level[v]][p], opp.astype(np.float32), out)
        if v in self.edge:
            out += self.edge[v][p] * self.compatible_mass(opp)
        return out

    def compatible_mass(self, reach: np.ndarray) -> np.ndarray:
        """``[H]``: per holding, the opponent's reach summed over the holdings sharing no card with it."""
        first, second = self.cont.holdings[:, 0], self.cont.holdings[:, 1]
        per_card = np.zeros(self.n_cards)
        np.add.at(per_card, first, reach)
        np.add.at(per_card, second, reach)
        return reach.sum() - per_card[first] - per_card[second] + reach


@dataclass
class PreflopSolution:
    """A solved pre-flop spot: average strategies per decision node and holding, values, exploitability."""

    spot: PreflopSpot
    tree: PreflopTree
    continuation: Continuation
    method: str
    iterations: int
    strategy_sums: dict[int, np.ndarray]
    history: list[tuple[int, float, float]]
    """(iteration, exploitability of player 0, of player 1) in chips, at every check."""
    game: _Game = field(repr=False)

    def strategy(self, v: int) -> np.ndarray:
        """float64[H, A]: the average strategy of node ``v``'s actor per holding (uniform where never reached)."""
        return average_strategy(self.strategy_sums[v])

    @property
    def exploitability(self) -> tuple[float, float]:
        """Each player's best-response gain in chips (the last check)."""
        return self.history[-1][1], self.history[-1][2]

    @property
    def nash_conv(self) -> float:
        return sum(self.exploitability)

    def values(self) -> tuple[float, float]:
        """Each player's value per hand, in chips, under the average strategies."""
        return _root_values(self.game, self.strategy)

    def best_response_gains(self, strategy: Callable[[int], np.ndarray]) -> tuple[float, float]:
        """Each player's exact best-response gain (holding by holding) against ``strategy`` (node ->
        float64[H, A]), in chips a hand."""
        return _exploitability(self.game, strategy)

    def values_of(self, strategy: Callable[[int], np.ndarray]) -> tuple[float, float]:
        """Each player's value per hand, in chips, when both play ``strategy``."""
        return _root_values(self.game, strategy)

    def grouped_strategy(self, groups: Sequence[str]) -> dict[int, np.ndarray]:
        """The average strategy mixed within groups of holdings (``groups[i]``: holding ``i``'s group),
        each holding weighted by its reach of the node: the play of a player who tells holdings apart
        only by their group (for instance the starting class: the three-handed chart's abstraction)."""
        keys = np.asarray(groups)
        out = {}
        for v, reach in _reaches(self).items():
            s = self.strategy(v)
            own = reach[self.tree.player[v]]
            mixed = np.empty_like(s)
            for k in np.unique(keys):
                m = keys == k
                w = own[m]
                mixed[m] = (w @ s[m]) / w.sum() if w.sum() > 0 else s[m].mean(axis=0)
            out[v] = mixed
        return out

    def reach_at(self, line: str) -> tuple[np.ndarray, np.ndarray]:
        """Both players' reach of each of their holdings (``continuation.holdings``) at the node of
        ``line`` (e.g. ``"call / check"``, the limped flop) under the average strategies: the ranges the
        pre-flop play leaves there."""
        tree = self.tree
        v = tree.node_at(line)
        reaches = _reaches(self)
        if v in reaches:
            return reaches[v]
        u, a = next((u, a) for u in reaches for a, c in enumerate(tree.children[u]) if c == v)
        r = list(reaches[u])
        r[tree.player[u]] = r[tree.player[u]] * self.strategy(u)[:, a]
        return r[0], r[1]

    def reaches(self) -> dict[int, tuple[np.ndarray, np.ndarray]]:
        """Each decision node's reach of both players' holdings under the average strategies."""
        return _reaches(self)

    def node_frame(self) -> pd.DataFrame:
        """One row per decision node, holding and action: frequency, the holding's reach, and the
        expected value of the action (chips after the hand less chips before) given the holding
        reaches the node under the average strategies."""
        return _node_frame(self)

    def chart(self) -> pd.DataFrame:
        """One row per decision node, starting class, hand effects (``green``: the effects of the
        holding's green cards, which set suits apart) and action: the frequency of the action
        (weighted by each holding's reach), the action's mean EV and its regret against the best."""
        return _chart(self)


# ------------------------------------------------------------------ the walks


def regret_matching(r: np.ndarray) -> np.ndarray:
    """float64[n, A]: each row's positive regrets normalised (uniform where none is positive)."""
    pos = np.maximum(r, 0.0)
    tot = pos.sum(axis=1, keepdims=True)
    return np.where(tot > 0, pos / np.where(tot > 0, tot, 1), 1.0 / r.shape[1])


def average_strategy(sums: np.ndarray) -> np.ndarray:
    """float64[n, A]: each row's strategy sums normalised (uniform where never reached)."""
    tot = sums.sum(axis=1, keepdims=True)
    return np.where(tot > 0, sums / np.where(tot > 0, tot, 1), 1.0 / sums.shape[1])


def iteration_weights(method: str, t: int) -> tuple[float, float, float]:
    """Iteration ``t``'s (positive regrets' discount, negative regrets' discount, strategy sums' factor):
    DCFR's (t^a / (t^a + 1), t^b / (t^b + 1), (t / (t + 1))^g), each applied before the iteration's
    additions; CFR+'s (1, 1, t): regrets floored at zero, the average weighted linearly."""
    if method == "dcfr":
        pa, pb = t ** DCFR_ALPHA, t ** DCFR_BETA
        return pa / (pa + 1), pb / (pb + 1), (t / (t + 1)) ** DCFR_GAMMA
    return 1.0, 1.0, float(t)


def _cfr_walk(g: _Game, v: int, p: int, own: np.ndarray, opp: np.ndarray, regrets: dict, sums: dict,
              weights: tuple[float, float, float], method: str) -> np.ndarray:
    tree = g.tree
    if tree.kind[v] != DECISION:
        return g.terminal(v, p, opp)
    kids = tree.children[v]
    sigma = regret_matching(regrets[v])
    if tree.player[v] == p:
        child = np.stack([_cfr_walk(g, c, p, own * sigma[:, a], opp, regrets, sums, weights, method)
                          for a, c in enumerate(kids)], axis=1)
        value = (child * sigma).sum(axis=1)
        pos_w, neg_w, avg_w = weights
        r = regrets[v]
        if method == "dcfr":
            r *= np.where(r > 0, pos_w, neg_w)
            r += child - value[:, None]
            sums[v] *= avg_w
            sums[v] += own[:, None] * sigma
        else:  # cfr+: regrets floored at zero, linear averaging
            r += child - value[:, None]
            np.maximum(r, 0.0, out=r)
            sums[v] += avg_w * own[:, None] * sigma
        return value
    out = np.zeros(g.h)
    for a, c in enumerate(kids):
        out += _cfr_walk(g, c, p, own, opp * sigma[:, a], regrets, sums, weights, method)
    return out


def _value_walk(g: _Game, v: int, p: int, opp: np.ndarray, strategy: Callable[[int], np.ndarray],
                best: bool) -> np.ndarray:
    """Counterfactual values of player ``p`` against the opponent's ``strategy``; ``p`` plays its best
    response (``best``) or ``strategy`` too."""
    tree = g.tree
    if tree.kind[v] != DECISION:
        return g.terminal(v, p, opp)
    kids = tree.children[v]
    sigma = strategy(v)
    if tree.player[v] == p:
        child = np.stack([_value_walk(g, c, p, opp, strategy, best) for c in kids], axis=1)
        return child.max(axis=1) if best else (child * sigma).sum(axis=1)
    out = np.zeros(g.h)
    for a, c in enumerate(kids):
        out += _value_walk(g, c, p, opp * sigma[:, a], strategy, best)
    return out


def _root_values(g: _Game, strategy: Callable[[int], np.ndarray]) -> tuple[float, float]:
    ones = np.ones(g.h)
    return tuple(float(_value_walk(g, 0, p, ones, strategy, False).sum() / g.deals) for p in range(2))  # type: ignore[return-value]


def _exploitability(g: _Game, strategy: Callable[[int], np.ndarray]) -> tuple[float, float]:
    ones = np.ones(g.h)
    out = []
    for p in range(2):
        br = _value_walk(g, 0, p, ones, strategy, True).sum() / g.deals
        now = _value_walk(g, 0, p, ones, strategy, False).sum() / g.deals
        out.append(float(br - now))
    return out[0], out[1]


def solve_preflop(spot: PreflopSpot | None = None, *, method: str = "dcfr", iterations: int = 1000,
                  target_chips: float | None = None, check_every: int = 50,
                  continuation: Continuation | None = None,
                  progress: Callable[[int, float], None] | None = None) -> PreflopSolution:
    """Solve ``spot`` (default: the reference deck at the start) by ``method`` (``dcfr`` or ``cfr+``)
    for ``iterations``, or until the larger player's exploitability is below ``target_chips``
    (checked every ``check_every`` iterations and at the end). ``continuation``: reuse one already
    computed for the same table, chips and levels. ``progress(iteration, exploitability)``."""
    spot = spot or PreflopSpot()
    m = method_named(method, STACK, PreflopError).name
    if check_every < 1:
        raise PreflopError(f"check_every must be at least 1, got {check_every}")
    tree = build_preflop_tree(spot.tree_config)
    levels = tuple(tree.flop_levels())
    if continuation is None:
        continuation = checkdown_continuation(spot.table, levels, spot.chips, spot.boards, spot.seed)
    elif continuation.levels != levels:
        raise PreflopError(f"the continuation's levels {continuation.levels} are not the tree's {levels}")
    g = _Game(spot, tree, continuation)
    shape = {v: (g.h, len(tree.children[v])) for v in tree.decisions()}
    regrets = {v: np.zeros(s) for v, s in shape.items()}
    sums = {v: np.zeros(s) for v, s in shape.items()}
    ones = np.ones(g.h)
    history: list[tuple[int, float, float]] = []
    sol = PreflopSolution(spot, tree, continuation, m, 0, sums, history, g)
    for t in range(1, iterations + 1):
        weights = iteration_weights(m, t)
        for p in range(2):
            _cfr_walk(g, 0, p, ones, ones, regrets, sums, weights, m)
        sol.iterations = t
        if t % check_every == 0 or t == iterations:
            e = _exploitability(g, sol.strategy)
            history.append((t, *e))
            if progress is not None:
                progress(t, max(e))
            if target_chips is not None and max(e) <= target_chips:
                break
    return sol


# ------------------------------------------------------------------ tables


def _reaches(sol: PreflopSolution) -> dict[int, tuple[np.ndarray, np.ndarray]]:
    """Each decision node's reach of both players' holdings under the average strategies."""
    tree = sol.tree
    out: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    stack = [(0, np.ones(sol.game.h), np.ones(sol.game.h))]
    while stack:
        v, r0, r1 = stack.pop()
        if tree.kind[v] != DECISION:
            continue
        out[v] = (r0, r1)
        sigma = sol.strategy(v)
        for a, c in enumerate(tree.children[v]):
            if tree.player[v] == 0:
                stack.append((c, r0 * sigma[:, a], r1))
            else:
                stack.append((c, r0, r1 * sigma[:, a]))
    return out


def _node_frame(sol: PreflopSolution) -> pd.DataFrame:
    g, tree = sol.game, sol.tree
    names = [f"{a}{b}" for a, b in _card_names(sol)]
    rows = []
    for v, (r0, r1) in _reaches(sol).items():
        p = tree.player[v]
        own, opp = (r0, r1) if p == 0 else (r1, r0)
        norm = g.compatible_sums(opp).sum(axis=1)
        sigma = sol.strategy(v)
        for a, c in enumerate(tree.children[v]):
            cfv = _value_walk(g, c, p, opp, sol.strategy, False)
            ev = np.where(norm > 0, cfv / np.where(norm > 0, norm, 1), np.nan)
            rows.append(pd.DataFrame({"node": v, "line": tree.line[v] or "(root)", "player": PLAYER_NAMES[p],
                                      "holding": names, "reach": own, "action": tree.actions[v][a],
                                      "frequency": sigma[:, a], "ev": ev}))
    return pd.concat(rows, ignore_index=True)


def _card_names(sol: PreflopSolution) -> list[tuple[str, str]]:
    spec = sol.spot.table.deck.spec
    return [(spec.card_name(int(a)), spec.card_name(int(b))) for a, b in sol.continuation.holdings]


def holding_class_names(sol_or_spec: Any, holdings: np.ndarray) -> list[str]:
    """The starting class (``AA``, ``A10s``, ``75o`` ...) of each holding (its two cards in either order)."""
    spec = sol_or_spec.spot.table.deck.spec if isinstance(sol_or_spec, PreflopSolution) else sol_or_spec
    of = {}
    for cls in starting_classes(spec):
        for a, b in cls.combos:
            of[(min(a, b), max(a, b))] = cls.name
    return [of[(min(int(a), int(b)), max(int(a), int(b)))] for a, b in holdings]


def green_labels(sol: PreflopSolution) -> list[str]:
    """Each holding's hand effects (its green cards' effect names joined by ``+``; ``none``)."""
    from analysis.dilemma.effects import COLOUR_GREEN, KINDS

    deck = sol.spot.table.deck
    names = {k.op: k.name for k in KINDS}
    return ["+".join(sorted(names[int(deck.opcode[c])] for c in (int(a), int(b)) if deck.colour[c] == COLOUR_GREEN))
            or "none" for a, b in sol.continuation.holdings]


def _chart(sol: PreflopSolution) -> pd.DataFrame:
    frame = _node_frame(sol)
    reps = len(frame) // sol.game.h
    frame["hand"] = np.tile(holding_class_names(sol, sol.continuation.holdings), reps)
    frame["green"] = np.tile(green_labels(sol), reps)
    frame["w"] = frame["reach"]
    frame["wf"] = frame["reach"] * frame["frequency"]
    frame["wev"] = frame["reach"] * frame["ev"]
    keys = ["node", "line", "player", "hand", "green", "action"]
    agg = frame.groupby(keys, sort=False).agg(reach=("w", "sum"), wf=("wf", "sum"), wev=("wev", "sum"),
                                               combos=("w", "size")).reset_index()
    agg["frequency"] = np.where(agg["reach"] > 0, agg["wf"] / agg["reach"].where(agg["reach"] > 0, 1), np.nan)
    agg["ev"] = np.where(agg["reach"] > 0, agg["wev"] / agg["reach"].where(agg["reach"] > 0, 1), np.nan)
    best = agg.groupby(["node", "hand", "green"])["ev"].transform("max")
    agg["regret"] = best - agg["ev"]
    agg["reach"] = agg["reach"] / agg["combos"]  # the mean reach per holding
    return agg[["node", "line", "player", "hand", "green", "combos", "reach", "action", "frequency", "ev", "regret"]]
