"""Game trees as data: a builder that turns a game description into flat numpy arrays.

Any finite extensive-form game with perfect recall fits: chance nodes with any
number of outcomes, decision nodes grouped into information sets (keyed by any
hashable, for example ``(street, bucket, history)``), and terminal payoffs given
as one number per player (general sums: nothing assumes zero-sum).

Three ways in:

- :class:`TreeBuilder`, node by node (what the poker builder in
  :mod:`analysis.solvers.betting` uses);
- :func:`tree_from_dict`, a nested JSON-like description::

      {"players": 2, "name": "matching pennies", "root":
        {"player": 0, "infoset": "P1", "actions": [
          ["heads", {"player": 1, "infoset": "P2", "actions": [
              ["heads", {"payoff": [1, -1]}], ["tails", {"payoff": [-1, 1]}]]}],
          ["tails", {"player": 1, "infoset": "P2", "actions": [
              ["heads", {"payoff": [-1, 1]}], ["tails", {"payoff": [1, -1]}]]}]]}}

  chance nodes are ``{"chance": [[prob, label, node], ...]}``;
- :func:`build_tree`, which takes either of those or a betting spec.

The result, :class:`GameTree`, holds the arrays laid out in
:mod:`analysis.solvers._layout` plus the labels of infosets and actions.
"""

from __future__ import annotations

import hashlib
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from . import _layout as L
from .errors import SolverError
from .protocol import TreeShape, shape_from

_PROB_TOL = 1e-9


@dataclass(frozen=True, eq=False)
class GameTree:
    """A finite game as flat arrays (see :mod:`analysis.solvers._layout`) plus its labels."""

    name: str
    n_players: int
    nodes: np.ndarray  # int32[N, 5]
    prob: np.ndarray  # float64[N]
    cum: np.ndarray  # float64[N]
    utility: np.ndarray  # float64[T, P]
    infos: np.ndarray  # int32[M, 3]
    infoset_labels: tuple[str, ...]
    action_labels: tuple[tuple[str, ...], ...]
    meta: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for arr in (self.nodes, self.prob, self.cum, self.utility, self.infos):
            arr.flags.writeable = False  # trees are shared (kuhn() and leduc() are cached)

    @property
    def n_nodes(self) -> int:
        """Number of nodes (histories), terminals and chance nodes included."""
        return int(self.nodes.shape[0])

    @property
    def n_infosets(self) -> int:
        """Number of information sets over all players."""
        return int(self.infos.shape[0])

    @property
    def n_actions(self) -> int:
        """Length of the flat per-action arrays (sum of the infosets' action counts)."""
        return int(self.infos[:, L.I_COUNT].sum()) if self.n_infosets else 0

    @property
    def max_actions(self) -> int:
        """The largest number of actions at any infoset (at least 1)."""
        return int(self.infos[:, L.I_COUNT].max()) if self.n_infosets else 1

    @property
    def zero_sum(self) -> bool:
        """True when every terminal's payoffs add up to zero (within 1e-9)."""
        return bool(np.all(np.abs(self.utility.sum(axis=1)) <= 1e-9))

    def counts(self) -> dict[str, int]:
        """Node and infoset counts: nodes, terminal, chance, decision, infosets, per-player infosets."""
        kind = self.nodes[:, L.KIND]
        out = {
            "nodes": self.n_nodes,
            "terminal": int((kind == L.TERMINAL).sum()),
            "chance": int((kind == L.CHANCE).sum()),
            "decision": int((kind == L.DECISION).sum()),
            "infosets": self.n_infosets,
            "actions": self.n_actions,
        }
        for p in range(self.n_players):
            out[f"infosets_p{p}"] = int((self.infos[:, L.I_PLAYER] == p).sum())
        return out

    @property
    def fingerprint(self) -> str:
        """A sha256 of the arrays and labels: a saved solver state only resumes on the same tree."""
        h = hashlib.sha256()
        h.update(f"{self.n_players}|".encode())
        for arr in (self.nodes, self.prob, self.utility, self.infos):
            h.update(np.ascontiguousarray(arr).tobytes())
        h.update("\x1f".join(self.infoset_labels).encode())
        return h.hexdigest()[:16]

    def shape(self) -> TreeShape:
        """The tree in the shared layout of :mod:`analysis.solvers.protocol` (printing, summaries)."""
        nodes = self.nodes
        kids = [range(f, f + c) for f, c in zip(nodes[:, L.FIRST].tolist(), nodes[:, L.COUNT].tolist(), strict=True)]
        label = [""] * self.n_nodes
        for v, ch in enumerate(kids):
            if nodes[v, L.KIND] == L.DECISION:
                names = self.action_labels[int(nodes[v, L.INDEX])]
                for j, c in enumerate(ch):
                    label[c] = names[j]
            elif nodes[v, L.KIND] == L.CHANCE:
                for c in ch:
                    label[c] = f"p={self.prob[c]:.4g}"
        return shape_from(self.name, self.n_players, nodes[:, L.KIND], nodes[:, L.PLAYER], kids, label,
                          infosets=self.n_infosets, infoset_actions=self.n_actions)

    @cached_property
    def walk_args(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The tree as the shared MCCFR walk reads it (:mod:`._mccfr_kernels`): ``(nodes, cum,
        term_fixed)``: decision nodes keyed by their infoset's first action, chance drawn from
        ``cum``, every terminal its fixed payoff (all in group 0, worth zero)."""
        nodes = self.nodes
        kind = nodes[:, L.KIND]
        index = nodes[:, L.INDEX].astype(np.int64)
        dec = kind == L.DECISION
        index[dec] = self.infos[index[dec], L.I_OFFSET]
        table = L.walk_nodes(kind, nodes[:, L.PLAYER], nodes[:, L.FIRST], nodes[:, L.COUNT], 0, index)
        fixed = np.array(self.utility, np.float64)
        fixed.flags.writeable = False
        return table, self.cum, fixed

    @property
    def kernel_args(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The tree as the one tuple every kernel takes first: ``(nodes, prob, cum, utility, infos)``."""
        return self.nodes, self.prob, self.cum, self.utility, self.infos


class TreeBuilder:
    """Build a :class:`GameTree` node by node; children are listed in the order they are added.

    Every ``chance``/``decision``/``terminal`` call names its ``parent`` (None for
    the root) and, when the parent is a chance node, the outcome's ``prob``. A
    decision node's children correspond to its actions, in order.
    """

    def __init__(self, n_players: int, name: str = "game") -> None:
        if int(n_players) < 1:
            raise SolverError(f"a game needs at least one player; got {n_players}")
        self.n_players = int(n_players)
        self.name = name
        self._kind: list[int] = []
        self._player: list[int] = []
        self._info: list[int] = []  # infoset index (builder numbering) or terminal row
        self._prob: list[float] = []
        self._children: list[list[int]] = []
        self._parent: list[int] = []
        self._utility: list[tuple[float, ...]] = []
        self._info_index: dict[tuple[int, Hashable], int] = {}
        self._info_key: list[tuple[int, Hashable]] = []
        self._info_actions: list[tuple[str, ...]] = []
        self._root: int | None = None

    def _add(self, kind: int, player: int, index: int, parent: int | None, prob: float | None) -> int:
        node = len(self._kind)
        if parent is None:
            if self._root is not None:
                raise SolverError(f"game '{self.name}': a second root node (give a parent)")
            self._root = node
            p = 1.0
        else:
            if not 0 <= parent < node:
                raise SolverError(f"game '{self.name}': unknown parent node {parent}")
            pk = self._kind[parent]
            if pk == L.TERMINAL:
                raise SolverError(f"game '{self.name}': a terminal node cannot have children")
            if pk == L.CHANCE:
                if prob is None or not (float(prob) > 0.0):
                    raise SolverError(
                        f"game '{self.name}': chance outcomes need a positive probability; got {prob}")
                p = float(prob)
            else:
                if prob is not None:
                    raise SolverError(f"game '{self.name}': prob is only for children of chance nodes")
                p = 1.0
            self._children[parent].append(node)
        self._kind.append(kind)
        self._player.append(player)
        self._info.append(index)
        self._prob.append(p)
        self._children.append([])
        self._parent.append(-1 if parent is None else parent)
        return node

    def chance(self, parent: int | None = None, *, prob: float | None = None) -> int:
        """Add a chance node; its children (added later) carry their probabilities."""
        return self._add(L.CHANCE, -1, -1, parent, prob)

    def decision(self, player: int, infoset: Hashable, actions: Sequence[str],
                 parent: int | None = None, *, prob: float | None = None) -> int:
        """Add a decision node of ``player`` in information set ``infoset`` with these action labels."""
        if not 0 <= int(player) < self.n_players:
            raise SolverError(f"game '{self.name}': player {player} out of range 0..{self.n_players - 1}")
        actions = tuple(str(a) for a in actions)
        if not actions:
            raise SolverError(f"game '{self.name}': infoset {infoset!r} has no actions")
        key = (int(player), infoset)
        idx = self._info_index.get(key)
        if idx is None:
            idx = self._info_index[key] = len(self._info_key)
            self._info_key.append(key)
            self._info_actions.append(actions)
        elif self._info_actions[idx] != actions:
            raise SolverError(f"game '{self.name}': infoset {infoset!r} of player {player} has actions "
                              f"{list(actions)} here and {list(self._info_actions[idx])} elsewhere")
        return self._add(L.DECISION, int(player), idx, parent, prob)

    def terminal(self, payoff: Sequence[float], parent: int | None = None, *,
                 prob: float | None = None) -> int:
        """Add a terminal node paying ``payoff[p]`` to each player ``p``."""
        row = tuple(float(x) for x in payoff)
        if len(row) != self.n_players or not all(np.isfinite(row)):
            raise SolverError(f"game '{self.name}': a terminal needs {self.n_players} finite payoffs; "
                              f"got {list(payoff)}")
        self._utility.append(row)
        return self._add(L.TERMINAL, -1, len(self._utility) - 1, parent, prob)

    def build(self, meta: Mapping[str, Any] | None = None) -> GameTree:
        """Check the game (action counts, probabilities, perfect recall) and lay it out breadth-first."""
        if self._root is None:
            raise SolverError(f"game '{self.name}' has no nodes")
        order = self._bfs_order()
        new_id = np.empty(len(self._kind), np.int64)
        new_id[order] = np.arange(len(order))
        # infosets renumbered by their first node in breadth-first order
        info_new: dict[int, int] = {}
        for old in order:
            if self._kind[old] == L.DECISION and self._info[old] not in info_new:
                info_new[self._info[old]] = len(info_new)
        info_old = sorted(info_new, key=info_new.__getitem__)
        n_info = len(info_old)
        infos = np.zeros((n_info, L.N_INFO_COLS), np.int32)
        offset = 0
        for j, old in enumerate(info_old):
            k = len(self._info_actions[old])
            infos[j] = (self._info_key[old][0], k, offset)
            offset += k
        nodes = np.zeros((len(order), L.N_NODE_COLS), np.int32)
        prob = np.ones(len(order))
        for v, old in enumerate(order):
            kind = self._kind[old]
            ch = self._children[old]
            nodes[v, L.KIND] = kind
            nodes[v, L.PLAYER] = self._player[old]
            nodes[v, L.FIRST] = new_id[ch[0]] if ch else -1
            nodes[v, L.COUNT] = len(ch)
            nodes[v, L.INDEX] = info_new[self._info[old]] if kind == L.DECISION else self._info[old]
            prob[v] = self._prob[old]
        self._check_nodes(nodes, prob, infos)
        cum = _chance_cumulative(nodes, prob)
        utility = np.array(self._utility, np.float64).reshape(-1, self.n_players)
        labels = tuple(_label(self._info_key[old][1]) for old in info_old)
        actions = tuple(self._info_actions[old] for old in info_old)
        tree = GameTree(self.name, self.n_players, nodes, prob, cum, utility, infos,
                        labels, actions, dict(meta or {}))
        _check_perfect_recall(tree)
        return tree

    def _bfs_order(self) -> list[int]:
        order = [self._root]
        i = 0
        while i < len(order):
            order.extend(self._children[order[i]])
            i += 1
        return order

    def _check_nodes(self, nodes: np.ndarray, prob: np.ndarray, infos: np.ndarray) -> None:
        for v in range(nodes.shape[0]):
            kind, first, count = nodes[v, L.KIND], nodes[v, L.FIRST], nodes[v, L.COUNT]
            if kind == L.DECISION and count != infos[nodes[v, L.INDEX], L.I_COUNT]:
                raise SolverError(f"game '{self.name}': a node of infoset number {nodes[v, L.INDEX]} "
                                  f"has {count} children for {infos[nodes[v, L.INDEX], L.I_COUNT]} actions")
            if kind == L.CHANCE:
                if count == 0:
                    raise SolverError(f"game '{self.name}': a chance node has no outcomes")
                total = prob[first:first + count].sum()
                if abs(total - 1.0) > _PROB_TOL:
                    raise SolverError(f"game '{self.name}': chance probabilities sum to {total:.12g}, not 1")


def _chance_cumulative(nodes: np.ndarray, prob: np.ndarray) -> np.ndarray:
    cum = prob.copy()
    for v in np.flatnonzero(nodes[:, L.KIND] == L.CHANCE):
        f, k = nodes[v, L.FIRST], nodes[v, L.COUNT]
        cum[f:f + k] = np.cumsum(prob[f:f + k])
    return cum


def _label(key: Hashable) -> str:
    if isinstance(key, str):
        return key
    if isinstance(key, tuple):
        return "|".join(map(str, key))
    return str(key)


def _check_perfect_recall(tree: GameTree) -> None:
    """Every node of an infoset must follow the same own (infoset, action) sequence."""
    nodes, infos, n_players = tree.nodes, tree.infos, tree.n_players
    n = nodes.shape[0]
    last = np.full((n, n_players), -1, np.int64)  # flat action index of the last own move
    seen = np.full(infos.shape[0], -2, np.int64)
    for v in range(n):
        kind, first, count = nodes[v, L.KIND], nodes[v, L.FIRST], nodes[v, L.COUNT]
        if kind == L.TERMINAL:
            continue
        last[first:first + count] = last[v]
        if kind == L.DECISION:
            info, p = nodes[v, L.INDEX], nodes[v, L.PLAYER]
            if seen[info] == -2:
                seen[info] = last[v, p]
            elif seen[info] != last[v, p]:
                raise SolverError(f"game '{tree.name}': infoset '{tree.infoset_labels[info]}' breaks "
                                  "perfect recall (its nodes follow different own moves)")
            last[first:first + count, p] = infos[info, L.I_OFFSET] + np.arange(count)


def tree_from_dict(spec: Mapping[str, Any]) -> GameTree:
    """Build a tree from a nested description (players, root; see the module docstring)."""
    try:
        n_players = int(spec["players"])
        root = spec["root"]
    except (KeyError, TypeError, ValueError) as exc:
        raise SolverError(f"a game description needs 'players' and 'root' ({exc})") from None
    b = TreeBuilder(n_players, str(spec.get("name", "game")))
    stack: list[tuple[Any, int | None, float | None]] = [(root, None, None)]
    while stack:  # depth first, children pushed in reverse so they are added in order
        node, parent, prob = stack.pop()
        if not isinstance(node, Mapping):
            raise SolverError(f"game '{b.name}': a node must be a mapping; got {type(node).__name__}")
        if "payoff" in node:
            b.terminal(node["payoff"], parent, prob=prob)
        elif "chance" in node:
            v = b.chance(parent, prob=prob)
            outcomes = list(node["chance"])
            for item in reversed(outcomes):
                p, _label_, child = _triple(item, b.name)
                stack.append((child, v, float(p)))
        elif "actions" in node:
            acts = list(node["actions"])
            try:
                labels = [str(a) for a, _ in acts]
            except (TypeError, ValueError):
                raise SolverError(f"game '{b.name}': actions must be [label, node] pairs") from None
            key = node.get("infoset")
            if key is None:
                raise SolverError(f"game '{b.name}': a decision node needs an 'infoset'")
            key = tuple(key) if isinstance(key, list) else key
            v = b.decision(int(node.get("player", -1)), key, labels, parent, prob=prob)
            for _, child in reversed(acts):
                stack.append((child, v, None))
        else:
            raise SolverError(f"game '{b.name}': a node needs 'payoff', 'chance' or 'actions'")
    return b.build()


def _triple(item: Any, name: str) -> tuple[float, str, Any]:
    try:
        p, label, child = item
        return float(p), str(label), child
    except (TypeError, ValueError):
        raise SolverError(f"game '{name}': chance outcomes must be [prob, label, node]") from None


def build_tree(spec: Any) -> GameTree:
    """A :class:`GameTree` from a nested dict, a betting spec, or a tree (returned as is)."""
    if isinstance(spec, GameTree):
        return spec
    if isinstance(spec, Mapping):
        return tree_from_dict(spec)
    from .betting import BettingSpec, build_betting_tree

    if isinstance(spec, BettingSpec):
        return build_betting_tree(spec)
    raise SolverError(f"cannot build a game tree from a {type(spec).__name__}")
