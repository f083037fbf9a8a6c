"""The heads-up pre-flop betting tree of Dilemma Hold'em (RULES §1.2), as data.

Heads-up the DEALER posts the small blind and acts first before the flop; the other
player posts the big blind and has the option when the small blind only calls. Player
0 is the big blind (first to act after the flop), player 1 the small blind (the
DEALER), the seat order of the card-level solver and of the settlement's payoff tables.
Raise sizes are data (:class:`PreflopTreeConfig`): the first raise as a raise-to in big
blinds, later raises as multiples of the last raise-to, all-in always, and a cap on the
number of raises after which a player may only call or fold. The hand ends in a *fold*
(no board: nobody pays a penalty) or the players *see the flop* with equal chips in:
a terminal whose value is the continuation (:mod:`.continuation`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from analysis.solvers.errors import SolverError
from analysis.solvers.protocol import DECISION, TERMINAL, TreeShape, shape_from

BIG_BLIND, SMALL_BLIND = 0, 1
PLAYER_NAMES = ("big blind", "small blind")
FOLD, CALL, RAISE, ALLIN, CHECK = "fold", "call", "raise", "allin", "check"


class PreflopTreeError(SolverError):
    """A pre-flop tree that cannot be built as asked."""


@dataclass(frozen=True)
class PreflopTreeConfig:
    """The pre-flop bet tree: blinds, chips before the hand and the raise sizes."""

    small_blind: int = 10
    big_blind: int = 20
    chips: int = 1000
    """Each player's chips before posting the blind (equal stacks)."""
    opens: tuple[float, ...] = (3.0,)
    """The first raise (the small blind's open, or the big blind's raise after a call), as the
    amount raised to, in big blinds."""
    reraises: tuple[float, ...] = (3.0,)
    """Every later raise, as a multiple of the last amount raised to."""
    max_raises: int = 3
    """Raises (all-ins included) after which a player may only call or fold."""
    unit: int = 10
    """Raise amounts are rounded to this many chips (the deck's money unit)."""

    def __post_init__(self) -> None:
        if not 0 < self.small_blind <= self.big_blind < self.chips:
            raise PreflopTreeError(f"blinds {self.small_blind}/{self.big_blind} need 0 < small <= big < chips "
                                   f"({self.chips})")
        if any(x <= 1 for x in self.opens) or any(x <= 1 for x in self.reraises):
            raise PreflopTreeError("raise sizes must be above 1 (big blinds for opens, multiples for re-raises)")
        if self.max_raises < 1:
            raise PreflopTreeError(f"max_raises must be at least 1, got {self.max_raises}")

    def raise_tos(self, last_to: int, inc: int, raises: int) -> list[int]:
        """The raise-to amounts below all-in facing a bet of ``last_to`` whose last raise added ``inc``,
        after ``raises`` raises: the sizes (opens in big blinds for the first raise, re-raises as multiples
        of ``last_to``) rounded to the unit, each at least the last increment more (RULES §1.2: never less
        than a big blind), increasing, distinct. Both pre-flop trees take their sizes from here."""
        sizes = [x * self.big_blind for x in self.opens] if raises == 0 else [x * last_to for x in self.reraises]
        min_to = last_to + max(inc, self.big_blind)
        out = sorted({max(int(round(s / self.unit)) * self.unit, min_to) for s in sizes})
        return [t for t in out if t < self.chips]

    def describe(self) -> dict:
        """The config as plain data (manifests)."""
        return {"blinds": [self.small_blind, self.big_blind], "chips": self.chips, "opens_bb": list(self.opens),
                "reraises_x": list(self.reraises), "max_raises": self.max_raises, "unit": self.unit}


class NodeLists:
    """What a pre-flop tree answers from its node lists (``kind``: DECISION or TERMINAL per node, in
    creation order, parents before children; ``player``, ``children``, ``actions``, ``line``): shared
    by the heads-up and three-handed trees, which name their ``STACK`` and ``n_players``."""

    STACK = ""
    kind: list[int]
    player: list[int]
    children: list[list[int]]
    actions: list[list[str]]
    line: list[str]
    n_players: int

    @property
    def n_nodes(self) -> int:
        """Nodes of every kind."""
        return len(self.kind)

    def decisions(self) -> list[int]:
        """Decision nodes, in creation order (parents before children)."""
        return [v for v in range(self.n_nodes) if self.kind[v] == DECISION]

    def terminals(self) -> list[int]:
        """Terminal nodes, in creation order."""
        return [v for v in range(self.n_nodes) if self.kind[v] == TERMINAL]

    def node_at(self, line: str) -> int:
        """The node reached by ``line`` (actions joined by ' / ', '' or '(root)': the root)."""
        want = "" if line in ("", "(root)") else line
        for v in range(self.n_nodes):
            if self.line[v] == want:
                return v
        raise PreflopTreeError(f"no node at line {line!r}")

    def shape(self) -> TreeShape:
        """The tree in the shared protocol's layout."""
        labels = [""] * self.n_nodes
        for v in range(self.n_nodes):
            for a, c in zip(self.actions[v], self.children[v], strict=True):
                labels[c] = a
        return shape_from(self.STACK, self.n_players, np.array(self.kind), np.array(self.player), self.children,
                          labels)


@dataclass
class PreflopTree(NodeLists):
    """Nodes in creation order (node 0 the root). Per node: ``kind`` (DECISION or TERMINAL),
    ``player`` (the actor, -1 at a terminal), ``ins`` (chips each player has put in),
    ``children`` and ``actions`` (parallel lists), ``line`` (the actions from the root) and,
    at a terminal, ``folder`` (-1: both see the flop)."""

    STACK = "pre-flop heads-up"

    config: PreflopTreeConfig
    kind: list[int] = field(default_factory=list)
    player: list[int] = field(default_factory=list)
    ins: list[tuple[int, int]] = field(default_factory=list)
    children: list[list[int]] = field(default_factory=list)
    actions: list[list[str]] = field(default_factory=list)
    line: list[str] = field(default_factory=list)
    folder: list[int] = field(default_factory=list)
    raises: list[int] = field(default_factory=list)

    @property
    def n_players(self) -> int:
        """Heads-up."""
        return 2


    def flop_levels(self) -> list[int]:
        """The chips each player has in at every terminal that sees the flop, sorted, distinct."""
        return sorted({self.ins[v][0] for v in self.terminals() if self.folder[v] < 0})


    def _add(self, kind: int, player: int, ins: tuple[int, int], line: str, folder: int = -1, raises: int = 0) -> int:
        self.kind.append(kind)
        self.player.append(player)
        self.ins.append(ins)
        self.children.append([])
        self.actions.append([])
        self.line.append(line)
        self.folder.append(folder)
        self.raises.append(raises)
        return self.n_nodes - 1


def action_label(kind: str, to: int) -> str:
    """An action's label in a tree's lines: ``raise 60``, ``allin 1000``, ``call``, ``check``, ``fold``."""
    return f"{kind} {to}" if kind in (RAISE, ALLIN) else kind


def build_preflop_tree(config: PreflopTreeConfig | None = None) -> PreflopTree:
    """The heads-up pre-flop tree of ``config`` (default: opens to 3 big blinds, re-raises to 3x,
    all-in, three raises)."""
    cfg = config or PreflopTreeConfig()
    tree = PreflopTree(cfg)

    def grow(v: int, actor: int, facing: bool, last_to: int, inc: int, raises: int) -> None:
        ins = tree.ins[v]
        line = tree.line[v]
        join = (line + " / ") if line else ""
        other = 1 - actor
        opts: list[tuple[str, int]] = []
        if facing:
            opts.append((FOLD, 0))
            opts.append((CALL, ins[other]))
        else:
            opts.append((CHECK, ins[actor]))
        if raises < cfg.max_raises and ins[other] < cfg.chips:
            opts += [(RAISE, t) for t in cfg.raise_tos(last_to, inc, raises)]
            opts.append((ALLIN, cfg.chips))
        for kind, to in opts:
            label = action_label(kind, to)
            if kind == FOLD:
                c = tree._add(TERMINAL, -1, ins, join + label, folder=actor, raises=raises)
            elif kind in (CALL, CHECK):
                new = (to, to)
                if kind == CALL and line == "" and actor == SMALL_BLIND:
                    # the small blind completes: the big blind has the option
                    c = tree._add(DECISION, BIG_BLIND, new, join + label, raises=raises)
                    tree.children[v].append(c)
                    tree.actions[v].append(label)
                    grow(c, BIG_BLIND, False, cfg.big_blind, cfg.big_blind, raises)
                    continue
                c = tree._add(TERMINAL, -1, new, join + label, raises=raises)
            else:
                new = (to, ins[1]) if actor == BIG_BLIND else (ins[0], to)
                c = tree._add(DECISION, other, new, join + label, raises=raises + 1)
                tree.children[v].append(c)
                tree.actions[v].append(label)
                grow(c, other, True, to, max(to - last_to, inc), raises + 1)
                continue
            tree.children[v].append(c)
            tree.actions[v].append(label)

    root = tree._add(DECISION, SMALL_BLIND, (cfg.big_blind, cfg.small_blind), "")
    grow(root, SMALL_BLIND, True, cfg.big_blind, cfg.big_blind, 0)
    return tree
