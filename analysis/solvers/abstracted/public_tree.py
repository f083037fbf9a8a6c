"""The public betting tree of the abstracted hand: every betting line, no cards.

Private information (each player's bucket history) is *not* expanded into the
tree: the solvers keep, per public node, one vector over a player's bucket
histories (vector-form CFR) or look the history up from a sampled deal
(MCCFR). So the tree stays small (thousands of nodes) however many buckets.

Arrays (breadth-first: parents before children, siblings consecutive):

``nodes`` int64[N, N_NCOLS]: ``ND_KIND`` (DECISION, STREET: the next street's
buckets are dealt, TERMINAL), ``ND_PLAYER`` (actor), ``ND_FIRST``/``ND_COUNT``
(children), ``ND_STREET`` (abstraction street 0..), ``ND_INDEX`` (decision: offset of
its block of ``histories x actions`` in the flat regret arrays; terminal: terminal
number), ``ND_FACING`` (1 if a bet is to call), ``ND_POSITION`` (actor's place among
the players still in, in acting order), ``ND_LIVE`` (players still in), ``ND_VEC``
(offset of the node's per-history vector in flat reach/value arrays).

Terminals are numbered by street (so each street's terminals are one block):
``terms`` int64[T, N_TCOLS] (``TC_CLASS``, ``TC_STREET``, ``TC_NODE``) and
``term_in`` int64[T, players] (chips each player put in), ``term_pot``.
A *class* is what the settlement needs besides the cards and chips:
``classes`` int64[C, 2 + players]: ``CL_LAST`` (the last betting round, rules
street), ``CL_ALLIN`` (the live players are all-in: the board is dealt out) and
each player's fold street (-1 live; a fold before the last round is stored as
``CL_LAST - 1``: only "before" matters to the rules).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from analysis.core.actions import ACTION_NAMES, BET, CALL, CHECK, FOLD, RAISE
from analysis.core.actions import ALLIN as ALLIN_ACT  # ALLIN here is the spec's all-in size
from analysis.dilemma.effects import STREETS

from .._layout import PASS, walk_nodes
from ..protocol import TreeShape, shape_from
from .spec import ALLIN, DilemmaSpec

TERMINAL, STREET, DECISION = 0, 1, 2
# node columns (nodes[v, ND_*])
(ND_KIND, ND_PLAYER, ND_FIRST, ND_COUNT, ND_STREET, ND_INDEX, ND_FACING, ND_POSITION, ND_LIVE,
 ND_VEC) = range(10)
N_NCOLS = 10
TC_CLASS, TC_STREET, TC_NODE = range(3)  # TC_: a column of a terminal
N_TCOLS = 3
CL_LAST, CL_ALLIN, CL_FOLD0 = 0, 1, 2  # CL_: a column of a settlement class

_TOKENS = ("f", "x", "c", "b", "r", "a")


@dataclass
class _State:
    contrib: list[int]
    folded: list[int]
    street: int  # rules street
    raises: int = 0
    last_inc: int = 0
    acted: set[int] = field(default_factory=set)
    history: str = ""

    def copy(self) -> _State:
        return _State(list(self.contrib), list(self.folded), self.street, self.raises,
                      self.last_inc, set(self.acted), self.history)


@dataclass(frozen=True, eq=False)
class PublicTree:
    """The betting tree as arrays (see the module docstring) plus labels for tables."""

    spec: DilemmaSpec
    nodes: np.ndarray
    terms: np.ndarray
    term_in: np.ndarray
    term_pot: np.ndarray
    classes: np.ndarray
    action_kind: np.ndarray  # int64[N]: the action that led to each node (-1 root / after a deal)
    action_size: np.ndarray  # float64[N]: its size as a pot fraction (NaN if none)
    histories: tuple[str, ...]  # betting history of each node ("x/b0.5c/")
    hist_sizes: np.ndarray  # int64[streets]: bucket histories per street

    @property
    def n_players(self) -> int:
        return self.spec.players

    @property
    def n_nodes(self) -> int:
        return int(self.nodes.shape[0])

    @property
    def n_terminals(self) -> int:
        return int(self.terms.shape[0])

    @property
    def n_infoset_actions(self) -> int:
        """Length of the flat regret arrays (every decision node's histories x actions)."""
        dec = self.nodes[:, ND_KIND] == DECISION
        return int((self.hist_sizes[self.nodes[dec, ND_STREET]] * self.nodes[dec, ND_COUNT]).sum())

    @property
    def n_vector(self) -> int:
        """Length of the flat per-node vectors (reach, values)."""
        return int((self.hist_sizes[self.nodes[:, ND_STREET]]).sum())

    def street_terminals(self, s: int) -> tuple[int, int]:
        """Terminal numbers ``[lo, hi)`` whose payoffs are settled on abstraction street ``s``."""
        col = self.terms[:, TC_STREET]
        return int(np.searchsorted(col, s, "left")), int(np.searchsorted(col, s, "right"))

    def counts(self) -> dict[str, int]:
        """Sizes: public nodes, decision nodes, terminals, classes, infosets, infoset-actions."""
        dec = self.nodes[:, ND_KIND] == DECISION
        return {"public_nodes": self.n_nodes, "decision_nodes": int(dec.sum()),
                "terminals": self.n_terminals, "classes": int(self.classes.shape[0]),
                "infosets": int(self.hist_sizes[self.nodes[dec, ND_STREET]].sum()),
                "infoset_actions": self.n_infoset_actions}

    @property
    def kernel_args(self) -> tuple[np.ndarray, ...]:
        """``(nodes, terms, term_in, term_pot, classes, hist_sizes)`` for the kernels."""
        return (self.nodes, self.terms, self.term_in, self.term_pot, self.classes, self.hist_sizes)

    @cached_property
    def term_groups(self) -> tuple[np.ndarray, np.ndarray]:
        """``(term_group, groups)``: each terminal's group int64[T], and each group's ``(class,
        pot)`` int64[G, 2]: terminals of one group are paid the same on every deal, less the chips
        each player put in (a deal's payoffs are filled per group, not per terminal)."""
        pairs = np.stack([self.terms[:, TC_CLASS], self.term_pot], axis=1)
        groups, term_group = np.unique(pairs, axis=0, return_inverse=True)
        return term_group.reshape(-1).astype(np.int64), np.ascontiguousarray(groups, dtype=np.int64)

    @cached_property
    def walk_args(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The tree as the shared MCCFR walk reads it (:mod:`analysis.solvers._mccfr_kernels`):
        ``(nodes, cum, term_fixed)``: street deals are ``PASS`` nodes (the deal is drawn once per
        iteration); a terminal is keyed by its group and pays the group's value on the deal less
        ``term_in`` (``term_fixed``)."""
        nodes = self.nodes
        kind = np.where(nodes[:, ND_KIND] == STREET, PASS, nodes[:, ND_KIND])
        terminal = kind == TERMINAL
        key = nodes[:, ND_STREET].copy()
        key[terminal] = self.term_groups[0][nodes[terminal, ND_INDEX]]
        table = walk_nodes(kind, nodes[:, ND_PLAYER], nodes[:, ND_FIRST], nodes[:, ND_COUNT], key,
                           nodes[:, ND_INDEX])
        cum = np.zeros(self.n_nodes)
        fixed = (-self.term_in).astype(np.float64)
        for arr in (cum, fixed):
            arr.flags.writeable = False
        return table, cum, fixed

    def shape(self) -> TreeShape:
        """The tree in the shared layout of :mod:`analysis.solvers.protocol` (printing, summaries)."""
        nodes = self.nodes
        kids = [range(f, f + c) for f, c in zip(nodes[:, ND_FIRST].tolist(), nodes[:, ND_COUNT].tolist(), strict=True)]
        label = [""] + [self.action_label(c) if self.action_kind[c] >= 0 else "deal" for c in range(1, self.n_nodes)]
        c = self.counts()
        return shape_from(f"dilemma {self.n_players}-handed", self.n_players, nodes[:, ND_KIND], nodes[:, ND_PLAYER],
                          kids, label, infosets=c["infosets"], infoset_actions=c["infoset_actions"])

    def action_label(self, child: int) -> str:
        k = int(self.action_kind[child])
        if k in (BET, RAISE):
            return f"{ACTION_NAMES[k]} {self.action_size[child]:g} pot"
        return ACTION_NAMES[k]


def build_public_tree(spec: DilemmaSpec) -> PublicTree:
    """Expand every betting line of ``spec`` (see the module docstring for the rules)."""
    n = spec.players
    raw: list[dict] = []  # nodes in creation order

    def add(kind: int, parent: int | None, **info) -> int:
        raw.append({"kind": kind, "children": [], **info})
        v = len(raw) - 1
        if parent is not None:
            raw[parent]["children"].append(v)
        return v

    classes: dict[tuple, int] = {}

    def terminal(st: _State, parent: int, allin: bool, act: tuple) -> None:
        last = st.street
        folds = tuple(-1 if f < 0 else (f if f >= last else last - 1) for f in st.folded)
        key = (last, int(allin), *folds)
        cid = classes.setdefault(key, len(classes))
        add(TERMINAL, parent, street=last - spec.first_street, cls=cid, contrib=tuple(st.contrib),
            act=act, history=st.history)

    def live(st: _State) -> list[int]:
        return [p for p in range(n) if st.folded[p] < 0]

    def needs_to_act(st: _State, p: int) -> bool:
        top = max(st.contrib)
        return st.folded[p] < 0 and st.contrib[p] < spec.stack and (
            p not in st.acted or st.contrib[p] < top)

    def decision(st: _State, p: int, parent: int | None, act: tuple) -> None:
        lv = live(st)
        top = max(st.contrib)
        acts = _actions(spec, st, p)
        v = add(DECISION, parent, player=p, street=st.street - spec.first_street,
                facing=int(top > st.contrib[p]), position=lv.index(p), live=len(lv), act=act,
                history=st.history)
        for kind, size, level in acts:
            child = st.copy()
            child.history += _TOKENS[kind] + ("" if kind not in (BET, RAISE) else f"{size:g}")
            if kind == FOLD:
                child.folded[p] = st.street
            elif kind in (BET, RAISE, ALLIN_ACT):
                child.raises += 1
                child.last_inc = max(child.last_inc, level - top)
                child.acted = set()
                child.contrib[p] = level
            else:
                child.contrib[p] = top
            child.acted.add(p)
            after(child, p, v, (kind, size))

    def after(st: _State, p: int, parent: int, act: tuple) -> None:
        lv = live(st)
        if len(lv) == 1:
            terminal(st, parent, False, act)
            return
        for k in range(1, n + 1):
            q = (p + k) % n
            if needs_to_act(st, q):
                decision(st, q, parent, act)
                return
        allin = any(st.contrib[q] >= spec.stack for q in lv)
        if allin or st.street == 3:
            terminal(st, parent, allin, act)
            return
        nxt = st.copy()
        nxt.street += 1
        nxt.raises = 0
        nxt.last_inc = 0
        nxt.acted = set()
        nxt.history += "/"
        d = add(STREET, parent, street=st.street - spec.first_street, act=act, history=st.history)
        first = next(q for q in range(n) if needs_to_act(nxt, q))
        decision(nxt, first, d, (-1, math.nan))

    start = _State([int(spec.preflop_in)] * n, [-1] * n, spec.first_street)
    decision(start, 0, None, (-1, math.nan))
    return _lay_out(spec, raw, classes)


def _actions(spec: DilemmaSpec, st: _State, p: int) -> list[tuple[int, float, int]]:
    """Legal actions: (kind, size as a pot fraction or NaN, the actor's contribution after)."""
    top = max(st.contrib)
    facing = top - st.contrib[p]
    out: list[tuple[int, float, int]] = []
    if facing > 0 or spec.free_fold:
        out.append((FOLD, math.nan, st.contrib[p]))
    out.append((CALL if facing > 0 else CHECK, math.nan, top))
    if st.raises >= spec.raise_cap or top >= spec.stack:
        return out
    pot = sum(st.contrib)
    min_to = top + max(st.last_inc, spec.big_blind)
    seen = {top}
    for size in spec.sizes:
        if size == ALLIN:
            to, frac = spec.stack, math.nan
        else:
            frac = float(size)
            to = max(int(round((top + frac * (pot + facing)) / 10.0)) * 10, min_to)
        if to > spec.stack - spec.liability:
            to, frac = spec.stack, math.nan
        if to in seen:
            continue
        seen.add(to)
        kind = ALLIN_ACT if to >= spec.stack else (RAISE if st.raises else BET)
        out.append((kind, frac, to))
    return out


def _lay_out(spec: DilemmaSpec, raw: list[dict], classes: dict[tuple, int]) -> PublicTree:
    order = [0]
    i = 0
    while i < len(order):
        order.extend(raw[order[i]]["children"])
        i += 1
    new_id = {old: k for k, old in enumerate(order)}
    n_streets = spec.n_streets
    hist = np.array([spec.histories(s) for s in range(n_streets)], np.int64)
    # terminals numbered by (street, breadth-first order)
    term_old = sorted((old for old in order if raw[old]["kind"] == TERMINAL),
                      key=lambda o: (raw[o]["street"], new_id[o]))
    term_id = {old: k for k, old in enumerate(term_old)}
    nodes = np.zeros((len(order), N_NCOLS), np.int64)
    kinds = np.full(len(order), -1, np.int64)
    sizes = np.full(len(order), np.nan)
    histories = []
    base = 0
    vec = 0
    for v, old in enumerate(order):
        r = raw[old]
        ch = r["children"]
        s = r["street"]  # a STREET node's vector is over the histories before the deal
        nodes[v, ND_KIND] = r["kind"]
        nodes[v, ND_PLAYER] = r.get("player", -1)
        nodes[v, ND_FIRST] = new_id[ch[0]] if ch else -1
        nodes[v, ND_COUNT] = len(ch)
        nodes[v, ND_STREET] = s
        nodes[v, ND_FACING] = r.get("facing", 0)
        nodes[v, ND_POSITION] = r.get("position", -1)
        nodes[v, ND_LIVE] = r.get("live", 0)
        nodes[v, ND_VEC] = vec
        vec += hist[s]
        if r["kind"] == DECISION:
            nodes[v, ND_INDEX] = base
            base += hist[s] * len(ch)
        elif r["kind"] == TERMINAL:
            nodes[v, ND_INDEX] = term_id[old]
        else:
            nodes[v, ND_INDEX] = -1
        kinds[v], sizes[v] = r["act"]
        histories.append(r["history"])
    n = spec.players
    terms = np.zeros((len(term_old), N_TCOLS), np.int64)
    term_in = np.zeros((len(term_old), n), np.int64)
    for t, old in enumerate(term_old):
        terms[t] = (raw[old]["cls"], raw[old]["street"], new_id[old])
        term_in[t] = raw[old]["contrib"]
    cls = np.zeros((len(classes), 2 + n), np.int64)
    for key, c in classes.items():
        cls[c] = key
    for arr in (nodes, terms, term_in, cls, kinds, sizes):
        arr.flags.writeable = False
    return PublicTree(spec, nodes, terms, term_in, term_in.sum(axis=1), cls, kinds, sizes,
                      tuple(histories), hist)


def class_text(tree: PublicTree, c: int) -> str:
    """A readable class: ``river showdown``, ``flop fold by P1``, ``turn all-in``..."""
    row = tree.classes[c]
    folds = [p for p in range(tree.n_players) if row[CL_FOLD0 + p] >= 0]
    street = STREETS[int(row[CL_LAST])]
    if tree.n_players - len(folds) == 1:
        return f"{street} fold by " + ", ".join(f"P{p}" for p in folds)
    kind = "all-in" if row[CL_ALLIN] else "showdown"
    return f"{street} {kind}" + (" after folds by " + ", ".join(f"P{p}" for p in folds) if folds else "")
