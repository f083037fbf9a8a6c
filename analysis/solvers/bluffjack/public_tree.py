"""The public tree of a heads-up Bluffjack hand, built from the rules (RULES §3).

The face-down card is the only private information: everything else (the face-up
cards, the hits, the betting) both players see. So an information set is a *public
node* and the acting player's *hidden card*, and the hand splits into one independent
game per pair of face-up cards (both are seen before the first decision). This module
builds the public tree of one such game; the solver (:mod:`._kernels`) carries a vector
over the ten hidden-card classes at every node.

Abstraction (named in every manifest):

- cards by blackjack value class (2-9, ten-valued, ace), drawn **with replacement**
  (an infinite deck: no card removal; a ten-valued card 4/13, every other class 1/13);
- at most ``max_hits`` hits a player (then it stands); a player whose face-up cards
  are bust stands (a hit cannot change its hand's worth);
- deep stacks (nobody is all-in; the betting of a hand puts in at most 17 chips at the
  default stakes);
- heads-up: seat A (left of the dealer) opens the initial round with the forced minimum
  bet, acts first in the hit-or-stand phase and in the final round.

The stakes are fixed limit (``ante``, ``bet``, ``max_raises``: the lab's default 1, 2, 3)
or, with ``betting=False``, none at all: the ante only, every hand shows down (the
no-fold game of the hit-or-stand study, in the same abstraction). Showdown: the higher
total not over 21 wins; a tie splits (equal stakes: nobody wins); both bust: the pot
goes to the house (each loses what it put in) or, with ``house=False``, is set aside
for the game's last survivor (valued as an equal share: nobody wins).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np

from ..errors import SolverError
from ..protocol import CHANCE, DECISION, TERMINAL, TreeShape, shape_from

__all__ = ["CLASSES", "CLASS_NAMES", "CLASS_PROB", "BluffjackTreeSpec", "PublicTree", "build_public_tree"]

CLASSES = 10
CLASS_NAMES = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "A")
CLASS_POINTS = np.array([2, 3, 4, 5, 6, 7, 8, 9, 10, 1], dtype=np.int64)
"""Hard points of each class (an ace 1)."""
ACE = 9
CLASS_PROB = np.array([1, 1, 1, 1, 1, 1, 1, 1, 4, 1], dtype=np.float64) / 13.0

NT_FOLD, NT_SHOW, NT_DECISION, NT_CHANCE = range(4)  # NT_: a node type
ROUND_NAMES = ("initial", "play", "final")


@dataclass(frozen=True)
class BluffjackTreeSpec:
    """What decides the tree: stakes, hit cap, house rule, betting on or off."""

    ante: int = 1
    bet: int = 2
    max_raises: int = 3
    max_hits: int = 1
    house: bool = True
    betting: bool = True

    def __post_init__(self) -> None:
        for name, lo in (("ante", 1), ("bet", 1), ("max_raises", 0), ("max_hits", 0)):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v < lo:
                raise SolverError(f"{name} must be a whole number, at least {lo}; got {v!r}")
        if self.max_hits > 3:
            raise SolverError(f"max_hits above 3 makes the tree too large to solve here; got {self.max_hits}")

    @property
    def name(self) -> str:
        bet = f"fixed {self.ante}/{self.bet} cap {self.max_raises}" if self.betting else f"ante {self.ante}, no betting"
        return f"{bet}, hits <= {self.max_hits}" + ("" if self.house else ", no house")


@dataclass
class PublicTree:
    """Flat arrays of one public tree (preorder: parents before children) and decision labels."""

    kind: np.ndarray
    player: np.ndarray
    cstart: np.ndarray
    ccount: np.ndarray
    children: np.ndarray
    prob: np.ndarray
    put: np.ndarray
    """Chips each player has put in (terminals): ``int64[N, 2]``."""
    vhard: np.ndarray
    vace: np.ndarray
    dec: np.ndarray
    """Decision index of a decision node (-1 otherwise)."""
    labels: list[tuple] = field(default_factory=list)
    """Per decision: ``(round, player, actions, own visible total, opp visible total, facing, raises,
    hits taken, history)``."""

    n_players = 2

    @property
    def n(self) -> int:
        return int(self.kind.shape[0])

    @property
    def n_decisions(self) -> int:
        return len(self.labels)

    def shape(self) -> TreeShape:
        """The tree in the shared layout of :mod:`analysis.solvers.protocol` (printing, summaries)."""
        kind = np.array([(TERMINAL, TERMINAL, DECISION, CHANCE)[k] for k in self.kind.tolist()], dtype=np.int8)
        kids = [self.children[s:s + c].tolist() for s, c in zip(self.cstart.tolist(), self.ccount.tolist(), strict=True)]
        label = [""] * self.n
        for v, ch in enumerate(kids):
            if self.kind[v] == NT_DECISION:
                for name, c in zip(self.labels[int(self.dec[v])][2], ch, strict=True):
                    label[c] = str(name)
            elif self.kind[v] == NT_CHANCE:
                for c in ch:
                    label[c] = f"p={self.prob[c]:.4g}"
        return shape_from("bluffjack", self.n_players, kind, self.player, kids, label,
                          infosets=self.n_decisions * CLASSES)

    def kernel_args(self) -> tuple:
        return (self.kind, self.player, self.cstart, self.ccount, self.children, self.prob, self.put,
                self.vhard, self.vace, self.dec)


def visible_best(hard: int, ace: bool) -> int:
    """The best total of face-up cards."""
    return hard + 10 if ace and hard + 10 <= 21 else hard


@dataclass
class _State:
    put: list[int]
    hard: list[int]
    ace: list[bool]
    hits: list[int]
    stood: list[bool]
    history: str


class _Builder:
    def __init__(self, spec: BluffjackTreeSpec) -> None:
        self.spec = spec
        self.kind: list[int] = []
        self.player: list[int] = []
        self.kids: list[list[int]] = []
        self.prob: list[float] = []
        self.put: list[tuple[int, int]] = []
        self.vhard: list[tuple[int, int]] = []
        self.vace: list[tuple[int, int]] = []
        self.dec: list[int] = []
        self.labels: list[tuple] = []

    def node(self, kind: int, st: _State, parent: int | None, prob: float = 1.0, player: int = -1,
             label: tuple | None = None) -> int:
        k = len(self.kind)
        self.kind.append(kind)
        self.player.append(player)
        self.kids.append([])
        self.prob.append(prob)
        self.put.append((st.put[0], st.put[1]))
        self.vhard.append((st.hard[0], st.hard[1]))
        self.vace.append((int(st.ace[0]), int(st.ace[1])))
        if kind == NT_DECISION:
            self.dec.append(len(self.labels))
            self.labels.append(label)
        else:
            self.dec.append(-1)
        if parent is not None:
            self.kids[parent].append(k)
        return k

    # ---------------------------------------------------------------- betting rounds
    def betting(self, st: _State, parent: int | None, rnd: str, to_act: int, level: int, bets: list[int],
                raises: int, acted: list[bool], forced: bool, then) -> None:
        """A fixed-limit round between seats 0 (A) and 1 (B); ``then(st, parent)`` continues."""
        if forced:  # A opens with the minimum: not a decision
            st2 = _State([st.put[0] + self.spec.bet, st.put[1]], st.hard, st.ace, st.hits, st.stood,
                         st.history + "b")
            self.betting(st2, parent, rnd, 1, self.spec.bet, [self.spec.bet, 0], 0, [True, False], False, then)
            return
        p = to_act
        facing = level > bets[p]
        actions = (["fold", "call"] if facing else ["check"]) + (
            ["raise" if level > 0 else "bet"] if (raises < self.spec.max_raises or level == 0) else [])
        label = (rnd, p, tuple(actions), visible_best(st.hard[p], st.ace[p]),
                 visible_best(st.hard[1 - p], st.ace[1 - p]), int(facing), raises, st.hits[p], st.history)
        n = self.node(NT_DECISION, st, parent, player=p, label=label)
        for a in actions:
            if a == "fold":
                self.node(NT_FOLD, _State(st.put, st.hard, st.ace, st.hits, st.stood, st.history + "f"), n,
                          player=p)  # the folder, read by the kernel
                continue
            put, b = list(st.put), list(bets)
            if a == "call":
                put[p] += level - b[p]
                b[p] = level
                new_level, new_raises = level, raises
            elif a == "check":
                new_level, new_raises = level, raises
            else:
                new_level = level + self.spec.bet
                new_raises = raises + (1 if level > 0 else 0)
                put[p] += new_level - b[p]
                b[p] = new_level
            code = {"call": "c", "check": "k", "bet": "b", "raise": "r"}[a]
            st2 = _State(put, st.hard, st.ace, st.hits, st.stood, st.history + code)
            now = [acted[0], acted[1]]
            now[p] = True
            if now[1 - p] and b[1 - p] == new_level and b[p] == new_level:
                then(st2, n)
            else:
                self.betting(st2, n, rnd, 1 - p, new_level, b, new_raises, now, False, then)

    # ---------------------------------------------------------------- hit or stand
    def play(self, st: _State, parent: int, p: int) -> None:
        """Turns alternate from A; a player who stood, reached the cap or shows a bust stands."""
        for k in (p, 1 - p):
            if st.stood[k]:
                continue
            if st.hits[k] >= self.spec.max_hits or visible_best(st.hard[k], st.ace[k]) > 21:
                stood = list(st.stood)
                stood[k] = True
                st = _State(st.put, st.hard, st.ace, st.hits, stood, st.history)
                continue
            label = ("play", k, ("hit", "stand"), visible_best(st.hard[k], st.ace[k]),
                     visible_best(st.hard[1 - k], st.ace[1 - k]), 0, 0, st.hits[k], st.history)
            n = self.node(NT_DECISION, st, parent, player=k, label=label)
            ch = self.node(NT_CHANCE, st, n)
            for c in range(CLASSES):
                hard, ace, hits = list(st.hard), list(st.ace), list(st.hits)
                hard[k] += int(CLASS_POINTS[c])
                ace[k] = ace[k] or c == ACE
                hits[k] += 1
                st2 = _State(st.put, hard, ace, hits, st.stood, st.history + f"{'AB'[k]}{CLASS_NAMES[c]}")
                self.play(st2, self.node(NT_CHANCE, st2, ch, prob=float(CLASS_PROB[c])), 1 - k)
            stood = list(st.stood)
            stood[k] = True
            st2 = _State(st.put, st.hard, st.ace, st.hits, stood, st.history + f"{'AB'[k]}s")
            self.play(st2, self.node(NT_CHANCE, st2, n), 1 - k)  # a one-outcome link after "stand"
            return
        self.final(st, parent)

    def final(self, st: _State, parent: int) -> None:
        if not self.spec.betting:
            self.node(NT_SHOW, st, parent)
            return
        st2 = _State(st.put, st.hard, st.ace, st.hits, st.stood, st.history + "|")
        self.betting(st2, parent, "final", 0, 0, [0, 0], 0, [False, False], False,
                     lambda s, n: self.node(NT_SHOW, s, n))


def build_public_tree(spec: BluffjackTreeSpec, up: tuple[int, int]) -> PublicTree:
    """The public tree after the face-up cards ``up`` (classes of A's and B's)."""
    if not all(0 <= u < CLASSES for u in up):
        raise SolverError(f"up-card classes are 0-{CLASSES - 1}; got {up}")
    if not _same_shape_for_every_pair(spec):
        return _build(spec, up)
    return _with_up_cards(_template(spec), (int(up[0]), int(up[1])))


def _same_shape_for_every_pair(spec: BluffjackTreeSpec) -> bool:
    """Whether the face-up cards change only the visible totals, not the tree's shape: they could
    change it only by showing a bust before a player's last hit (it then stands), and one face-up
    card plus one hit shows at most 20 hard (21 with an ace), so with at most two hits never."""
    return spec.max_hits <= 2


_TEMPLATE_UP = 0
"""The face-up class the shared tree is built with ("2": not an ace, so its ace flags are the hits')."""


@functools.lru_cache(maxsize=8)
def _template(spec: BluffjackTreeSpec) -> PublicTree:
    return _build(spec, (_TEMPLATE_UP, _TEMPLATE_UP))


def _with_up_cards(t: PublicTree, up: tuple[int, int]) -> PublicTree:
    """The shared tree with face-up cards ``up``: hard totals shifted by the up cards' points, ace
    flags or-ed with theirs, the decision labels' visible totals recomputed (the building in Python
    is what a whole-hand solve of 100 pairs spent most of its time on)."""
    shift = CLASS_POINTS[list(up)] - CLASS_POINTS[_TEMPLATE_UP]
    vhard = t.vhard + shift[None, :]
    vace = t.vace | (np.array(up) == ACE)[None, :].astype(np.int64)
    nodes = np.flatnonzero(t.kind == NT_DECISION)  # in label order
    hard, ace, me, rows = vhard[nodes], vace[nodes], t.player[nodes], np.arange(len(nodes))
    best = np.where((ace != 0) & (hard + 10 <= 21), hard + 10, hard)  # [D, 2]: visible_best
    own, other = best[rows, me].tolist(), best[rows, 1 - me].tolist()
    labels = [(lab[0], lab[1], lab[2], o, x, *lab[5:]) for lab, o, x in zip(t.labels, own, other, strict=True)]
    return PublicTree(t.kind.copy(), t.player.copy(), t.cstart.copy(), t.ccount.copy(), t.children.copy(),
                      t.prob.copy(), t.put.copy(), vhard, vace, t.dec.copy(), labels)


def _build(spec: BluffjackTreeSpec, up: tuple[int, int]) -> PublicTree:
    """The public tree built node by node from the rules."""
    b = _Builder(spec)
    a = spec.ante
    st = _State([a, a], [int(CLASS_POINTS[up[0]]), int(CLASS_POINTS[up[1]])], [up[0] == ACE, up[1] == ACE],
                [0, 0], [False, False], "")
    root = b.node(NT_CHANCE, st, None)

    def after_initial(s: _State, n: int) -> None:
        b.play(_State(s.put, s.hard, s.ace, s.hits, s.stood, s.history + "|"), b.node(NT_CHANCE, s, n), 0)

    if spec.betting:
        b.betting(st, root, "initial", 0, 0, [0, 0], 0, [False, False], True, after_initial)
    else:
        after_initial(st, root)
    n = len(b.kind)
    counts = np.array([len(k) for k in b.kids], dtype=np.int64)
    start = np.zeros(n, dtype=np.int64)
    start[1:] = np.cumsum(counts)[:-1]
    kids = np.array([c for k in b.kids for c in k], dtype=np.int64)
    return PublicTree(np.array(b.kind, np.int64), np.array(b.player, np.int64), start, counts, kids,
                      np.array(b.prob), np.array(b.put, np.int64), np.array(b.vhard, np.int64),
                      np.array(b.vace, np.int64), np.array(b.dec, np.int64), b.labels)
