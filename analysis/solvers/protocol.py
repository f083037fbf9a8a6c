"""One small protocol that every solver tree exposes, and the shared code that reads it.

The lab's solvers keep their own node tables, each laid out for its kernels
(:class:`~analysis.solvers.game_tree.GameTree` for Kuhn/Leduc and any game written as
data, the abstracted Dilemma hand's public tree, Bluffjack's public tree, the
card-level solver's heads-up and three-handed trees). What the layers above the
kernels need from a tree is the same everywhere: how many nodes of each kind, who
acts, which node follows which action. A tree provides that by one method,
``shape()``, returning a :class:`TreeShape`: flat arrays in one layout, whatever
the kernels' layout is. Tree summaries and printing go through it
(:func:`summary`, :func:`render`); method lookup goes through
:mod:`analysis.solvers.methods` (each stack declares the methods it runs).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np

__all__ = ["CHANCE", "DECISION", "KIND_NAMES", "TERMINAL", "SolverTree", "TreeShape", "describe", "render",
           "shape_from", "summary"]

TERMINAL = 0
CHANCE = 1
DECISION = 2
KIND_NAMES = ("terminal", "chance", "decision")


@dataclass(frozen=True, eq=False)
class TreeShape:
    """A tree in the shared layout: per node its kind, actor and children, per edge its label.

    Children are stored compressed: node ``v``'s children are
    ``children[start[v]:start[v + 1]]`` in the order of its actions (or chance outcomes);
    ``label[c]`` names the action or outcome leading into node ``c`` (``""`` at the root).
    ``infosets`` and ``infoset_actions`` count information sets and their actions over
    every private state (None where the tree alone does not know the private states).
    """

    name: str
    n_players: int
    kind: np.ndarray  # int8[N]: TERMINAL, CHANCE or DECISION
    player: np.ndarray  # int32[N]: the actor of a decision node, -1 otherwise
    start: np.ndarray  # int64[N + 1]: offsets into ``children``
    children: np.ndarray  # int64[E]
    label: tuple[str, ...]  # per node: the edge into it
    infosets: int | None = None
    infoset_actions: int | None = None

    @property
    def n_nodes(self) -> int:
        """Number of nodes, terminals and chance nodes included."""
        return int(self.kind.shape[0])

    def children_of(self, v: int) -> np.ndarray:
        """The children of node ``v``, in action order."""
        return self.children[self.start[v]:self.start[v + 1]]

    def depth(self) -> np.ndarray:
        """Depth of every node below the root (node 0)."""
        depth = np.zeros(self.n_nodes, dtype=np.int64)
        stack = [0]
        while stack:
            v = stack.pop()
            kids = self.children_of(v)
            depth[kids] = depth[v] + 1
            stack.extend(int(c) for c in kids)
        return depth


@runtime_checkable
class SolverTree(Protocol):
    """What every solver tree exposes to the layers above its kernels."""

    @property
    def n_players(self) -> int: ...

    def shape(self) -> TreeShape: ...


def shape_from(name: str, n_players: int, kind: np.ndarray, player: np.ndarray,
               kids: Sequence[Sequence[int]] | np.ndarray, label: Sequence[str], *,
               infosets: int | None = None, infoset_actions: int | None = None) -> TreeShape:
    """Build a :class:`TreeShape` from per-node child lists (what each tree's ``shape()`` calls)."""
    counts = np.fromiter((len(k) for k in kids), dtype=np.int64, count=len(kids))
    start = np.zeros(len(kids) + 1, dtype=np.int64)
    np.cumsum(counts, out=start[1:])
    flat = np.fromiter((int(c) for k in kids for c in k), dtype=np.int64, count=int(start[-1]))
    player = np.where(np.asarray(kind) == DECISION, np.asarray(player), -1).astype(np.int32)
    return TreeShape(name, int(n_players), np.asarray(kind, dtype=np.int8), player, start, flat,
                     tuple(label), infosets, infoset_actions)


def _shape(tree: SolverTree | TreeShape) -> TreeShape:
    return tree if isinstance(tree, TreeShape) else tree.shape()


def summary(tree: SolverTree | TreeShape) -> dict[str, int | str | None]:
    """Sizes of any solver tree: nodes by kind, decision nodes per player, depth, widest node."""
    s = _shape(tree)
    out: dict[str, int | str | None] = {"name": s.name, "players": s.n_players, "nodes": s.n_nodes}
    for k, name in enumerate(KIND_NAMES):
        out[name] = int((s.kind == k).sum())
    for p in range(s.n_players):
        out[f"decision_p{p}"] = int(((s.kind == DECISION) & (s.player == p)).sum())
    out["depth"] = int(s.depth().max()) if s.n_nodes else 0
    out["max_actions"] = int(np.diff(s.start)[s.kind == DECISION].max(initial=0))
    out["infosets"] = s.infosets
    out["infoset_actions"] = s.infoset_actions
    return out


def render(tree: SolverTree | TreeShape, max_depth: int = 3, max_lines: int = 200) -> str:
    """The top of any solver tree as indented text, one node a line (``P0 decision``, ``chance``...)."""
    s = _shape(tree)
    lines: list[str] = []
    stack = [(0, 0)]
    while stack and len(lines) < max_lines:
        v, d = stack.pop()
        kind = int(s.kind[v])
        who = f"P{int(s.player[v])} " if kind == DECISION else ""
        edge = f"{s.label[v]} -> " if s.label[v] else ""
        n = s.start[v + 1] - s.start[v]
        tail = f" ({n} children)" if n else ""
        lines.append(f"{'  ' * d}{edge}{who}{KIND_NAMES[kind]}{tail}")
        if d < max_depth:
            stack.extend((int(c), d + 1) for c in reversed(s.children_of(v)))
    if stack:
        lines.append("...")
    return "\n".join(lines)


def describe(tree: SolverTree | TreeShape) -> str:
    """One line of sizes for any solver tree: ``58 nodes, 12 infosets, 24 infoset-actions``."""
    out = summary(tree)
    parts = [f"{out['nodes']:,} nodes"]
    if out["infosets"] is not None:
        parts.append(f"{out['infosets']:,} infosets")
    if out["infoset_actions"] is not None:
        parts.append(f"{out['infoset_actions']:,} infoset-actions")
    return ", ".join(parts)
