"""The betting tree of a three-handed river or turn spot, and its node table for the kernels.

A turn spot's tree is the turn round, then (when two or three players are left) a
``CHANCE`` node for the river card, then the river round (pot and stacks as the
turn left them; straight to the showdown when everybody left is all-in). The
public tree has one child under a ``CHANCE`` node; :func:`expand3` copies the river
round under each river card.

Seats: player 0 (the small blind's seat) acts first, then player 1 (the big
blind's), then player 2 (the DEALER's), as after the flop (RULES §1.2). Every
player has the same ``stack`` behind at the root and has put ``pot / 3`` in.

Actions follow the heads-up tree (:mod:`.tree`, postflop-solver's rules) with
three players: when nobody has bet, ``fold`` (with ``BetTree.free_fold``),
``check`` and the bet sizes (fractions of the pot, all-in); facing a bet,
``fold``, ``call`` and the raise sizes (``B + fraction x (pot after the call)``,
``multiple x B``, all-in) unless the raise cap is reached or the bet is all-in.
Amounts are what a player has put in on the street (bet *to*), rounded to whole
chips (``$10`` in Dilemma Hold'em), clamped between the minimum bet or raise
(the big blind, then the last full raise increment) and all-in; a bet whose
stack left behind would be at most ``force_allin_threshold`` times the pot once
everybody calls becomes all-in. The first player uses the tree's ``sizes[street][0]``
(out of position), the others ``sizes[street][1]``.

A folding player leaves the hand; when one player is left the hand ends there
(``FOLD``: a *fold end*); the round ends when every player still in and not
all-in has acted since the last bet and matched it, then the hand goes to a
``SHOWDOWN`` between the players still in. As every stack is the same, an
all-in is always either matched or folded to: there are no side pots.

Node table columns (``nodes[v, COL]``, preorder, node 0 the root):
``KIND`` (``FOLD``, ``SHOWDOWN``, ``DECISION``), ``PLAYER`` (the actor, -1 at a
terminal), ``COUNT`` (children, listed in ``children[v, :COUNT]``), ``SLOT`` (start of
a decision's regrets: ``COUNT`` rows of the actor's holdings), ``PAY`` (a
terminal's *situation*, its row of the payoff table), ``LIVE`` (bit mask of the
players still in), ``CARD`` (the river card's index below a ``CHANCE`` node, -1 above),
``LOCK`` (1 at a locked decision: node locking, :meth:`.multiway.NodeTable3.lock`; 0 elsewhere).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..protocol import CHANCE as P_CHANCE
from ..protocol import DECISION as P_DECISION
from ..protocol import TERMINAL as P_TERMINAL
from ..protocol import TreeShape, shape_from
from .card_spot import POT, PREV, CardSpot, SpotError
from .tree import (
    A_ALLIN,
    A_BET,
    A_CALL,
    A_FOLD,
    A_RAISE,
    CHANCE,
    DECISION,
    FOLD,
    SHOWDOWN,
    _chips,
    open_actions,
)

__all__ = ["N_PLAYERS", "PublicNode3", "Tree3", "action_tree3", "expand3"]

N_PLAYERS = 3
KIND, PLAYER, COUNT, SLOT, PAY, LIVE, CARD, LOCK = range(8)
N_COLS = 8
ALL_LIVE = (1 << N_PLAYERS) - 1
MAX_NODES3 = 200_000
"""Refuse betting trees beyond this many nodes (a clear error, not an endless build)."""


@dataclass
class PublicNode3:
    """A node of the three-handed betting tree: chips put in by each player, who is still in."""

    kind: int
    put: tuple[int, int, int]
    live: int
    player: int = -1
    actions: list[tuple[int, int]] = field(default_factory=list)
    children: list[PublicNode3] = field(default_factory=list)
    street: int = 2
    """The spot's street the node is on (1 turn, 2 river)."""
    turn_folds: int = 0
    """Players who folded on the turn (bit mask; the settlement needs the street of a fold)."""


@dataclass(frozen=True)
class _State:
    put: tuple[int, int, int]  # chips put in on this street
    live: int  # players still in (bit mask)
    todo: int  # players who still have to act (bit mask)
    num_bets: int
    inc: int  # the last full raise increment (0 before any bet)
    street: int = 2
    prior: tuple[int, int, int] = (0, 0, 0)  # chips put in on earlier streets since the root
    turn_folds: int = 0

    @property
    def total(self) -> tuple[int, int, int]:
        return (self.prior[0] + self.put[0], self.prior[1] + self.put[1], self.prior[2] + self.put[2])


def _next(todo: int, after: int) -> int:
    for k in range(1, N_PLAYERS + 1):
        p = (after + k) % N_PLAYERS
        if todo >> p & 1:
            return p
    return -1


def action_tree3(spot: CardSpot) -> PublicNode3:
    """The public betting tree of a three-handed turn or river ``spot`` (see the module doc)."""
    if spot.players != N_PLAYERS:
        raise SpotError(f"a three-handed tree needs three ranges, not {spot.players}")
    if spot.street not in (1, 2):
        raise SpotError("three-handed spots start on the turn or the river (a 4- or 5-card board)")
    state = _State((0, 0, 0), ALL_LIVE, ALL_LIVE, 0, 0, spot.street)
    root = PublicNode3(DECISION, state.total, state.live, player=0, street=spot.street)
    count = [1]
    _build(spot, root, state, count)
    return root


def _round_over(spot: CardSpot, st: _State) -> PublicNode3:
    """The node after a betting round that leaves two or three players in: the river card
    (``CHANCE``, its one public child the river round) after the turn, else the showdown."""
    if st.street == 2:
        return PublicNode3(SHOWDOWN, st.total, st.live, street=2, turn_folds=st.turn_folds)
    total = st.total
    can_act = sum(1 << q for q in range(N_PLAYERS) if st.live >> q & 1 and total[q] < spot.stack)
    node = PublicNode3(CHANCE, total, st.live, street=1, turn_folds=st.turn_folds)
    if can_act == 0:  # everybody still in is all-in: the river card, then the showdown
        child = PublicNode3(SHOWDOWN, total, st.live, street=2, turn_folds=st.turn_folds)
    else:
        child = PublicNode3(DECISION, total, st.live, player=_next(can_act, N_PLAYERS - 1), street=2,
                            turn_folds=st.turn_folds)
    node.children.append(child)
    return node


def _build(spot: CardSpot, node: PublicNode3, st: _State, count: list[int]) -> None:
    for action in _actions(spot, node.player, st):
        child_state = _after(spot, node.player, st, action)
        count[0] += 1
        if count[0] > MAX_NODES3:
            raise SpotError(f"the three-handed tree has more than {MAX_NODES3:,} nodes: use fewer sizes "
                            "or a raise cap")
        node.actions.append(action)
        if bin(child_state.live).count("1") == 1:
            child = PublicNode3(FOLD, child_state.total, child_state.live, street=st.street,
                                turn_folds=child_state.turn_folds)
        elif child_state.todo == 0:
            child = _round_over(spot, child_state)
        else:
            child = PublicNode3(DECISION, child_state.total, child_state.live,
                                player=_next(child_state.todo, node.player), street=st.street,
                                turn_folds=child_state.turn_folds)
        node.children.append(child)
        if child.kind == DECISION:
            _build(spot, child, child_state, count)
        elif child.kind == CHANCE and child.children[0].kind == DECISION:
            river = child.children[0]
            total = child_state.total
            can_act = sum(1 << q for q in range(N_PLAYERS) if child_state.live >> q & 1 and total[q] < spot.stack)
            _build(spot, river, _State((0, 0, 0), child_state.live, can_act, 0, 0, 2, total,
                                       child_state.turn_folds), count)


def _after(spot: CardSpot, p: int, st: _State, action: tuple[int, int]) -> _State:
    code, amount = action
    put = list(st.put)
    live, todo, num_bets, inc = st.live, st.todo & ~(1 << p), st.num_bets, st.inc
    turn_folds = st.turn_folds
    top = max(put)
    if code == A_FOLD:
        live &= ~(1 << p)
        if st.street == 1:
            turn_folds |= 1 << p
    elif code == A_CALL:
        put[p] = top
    elif code in (A_BET, A_RAISE, A_ALLIN):
        inc = max(inc, amount - top)
        put[p] = amount
        num_bets += 1
        todo = live & ~(1 << p)
    for q in range(N_PLAYERS):  # an all-in player never acts again
        if st.prior[q] + put[q] >= spot.stack:
            todo &= ~(1 << q)
    return _State((put[0], put[1], put[2]), live, todo & live, num_bets, inc, st.street, st.prior, turn_folds)


def _actions(spot: CardSpot, p: int, st: _State) -> list[tuple[int, int]]:
    """The sorted, deduplicated actions of player ``p`` (see the module doc); amounts are the
    chips put in on the street (bet *to*), all-in is the stack left at the street's start."""
    tree = spot.tree
    stack, unit = spot.stack - st.prior[p], spot.chip_unit
    top = max(st.put)
    to_call = top - st.put[p]
    pot = spot.pot + sum(st.total)
    sizes = tree.sizes[st.street][min(p, 1)]
    min_amount = min(top + max(st.inc, spot.min_bet), stack)
    actions: list[tuple[int, int]] = []
    if to_call == 0:
        actions += open_actions(tree, sizes, pot, stack, unit)
    else:
        actions += [(A_FOLD, 0), (A_CALL, 0)]
        capped = tree.raise_cap and st.num_bets >= tree.raise_cap
        if top < stack and not capped:
            after_call = pot + to_call
            for size in sizes.raises:
                if size.kind == POT:
                    actions.append((A_RAISE, top + _chips(after_call * size.value, unit)))
                elif size.kind == PREV:
                    actions.append((A_RAISE, _chips(top * size.value, unit)))
                else:
                    actions.append((A_ALLIN, stack))
            if stack <= top + _chips(after_call * tree.add_allin_threshold, unit):
                actions.append((A_ALLIN, stack))
    out = []
    for code, amount in actions:
        if code in (A_BET, A_RAISE):
            amount = min(max(amount, min_amount), stack)
            called = pot + sum(amount - st.put[q] for q in range(N_PLAYERS) if st.live >> q & 1)
            if stack <= amount + _chips(called * tree.force_allin_threshold, unit):
                code, amount = A_ALLIN, stack
        out.append((code, amount))
    return sorted(set(out))


@dataclass
class Tree3:
    """The node table of a three-handed tree (see the module doc)."""

    nodes: np.ndarray  # int64[N, N_COLS]
    children: np.ndarray  # int64[N, max actions]
    actions: dict[int, list[tuple[int, int]]]  # decision node -> its actions
    lines: dict[int, tuple[str, ...]]  # node -> the action labels (and river cards) from the root
    storage: tuple[int, int, int]  # regret entries of each player
    situations: np.ndarray  # int64[S, N_SIT]: per terminal situation (see SIT_*)
    terminals: np.ndarray  # int64[T]: the terminal nodes
    decisions: np.ndarray  # int64[D]: the decision nodes (preorder)
    chances: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))  # the river-card nodes
    river_cards: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))  # card of each CARD index
    puts: np.ndarray = field(default_factory=lambda: np.zeros((0, N_PLAYERS), np.int64))
    """int64[N, 3]: the chips each player has put in since the root at each node (the pot at a
    node is the root's plus their sum: what an opponent model's bet size is a fraction of)."""
    n_players = N_PLAYERS

    def shape(self) -> TreeShape:
        """The tree in the shared layout of :mod:`analysis.solvers.protocol` (printing, summaries)."""
        from .tree import action_label

        count = self.nodes[:, COUNT].tolist()
        kids = [self.children[v, :k].tolist() for v, k in enumerate(count)]
        label = [""] * len(kids)
        for v, acts in self.actions.items():
            for c, action in zip(kids[v], acts, strict=True):
                label[c] = action_label(action)
        kind = np.select([self.nodes[:, KIND] == DECISION, self.nodes[:, KIND] == CHANCE],
                         [P_DECISION, P_CHANCE], P_TERMINAL)
        for v in self.chances.tolist():  # river cards below the chance nodes
            for c in kids[v]:
                label[c] = self.lines[c][-1] if self.lines.get(c) else label[c]
        return shape_from("cards three-handed", N_PLAYERS, kind, self.nodes[:, PLAYER], kids, label,
                          infoset_actions=sum(self.storage))


SIT_LIVE, SIT_PUT, SIT_TURN_FOLDS, SIT_STREET = 0, 1, 4, 5
N_SIT = 6
"""Situation columns: live mask, chips put in since the root by players 0-2 (``SIT_PUT + p``),
players who folded on the turn, the street the hand ends on (1: a fold on the turn, 2: the river)."""


def expand3(root: PublicNode3, n_holdings: tuple[int, ...], river_cards: tuple[int, ...] = (),
            card_names: tuple[str, ...] = ()) -> Tree3:
    """Number the nodes in preorder and write the node table (see the module doc). A turn tree's
    river-card node gets one child per card of ``river_cards`` (the river round copied under
    each, its decisions with their own regrets; ``CARD`` the card's index, -1 on the turn and at
    the river-card nodes); the card's name (``card_names``) joins the line."""
    from .tree import action_label

    rows: list[list[int]] = []
    kids: list[list[int]] = []
    acts: dict[int, list[tuple[int, int]]] = {}
    lines: dict[int, tuple[str, ...]] = {}
    storage = [0, 0, 0]
    puts: list[tuple[int, int, int]] = []
    index: dict[tuple[int, ...], int] = {}

    def emit(node: PublicNode3, line: tuple[str, ...], card: int) -> int:
        v = len(rows)
        row = [node.kind, node.player, len(node.children), -1, -1, node.live, card, 0]
        rows.append(row)
        puts.append(node.put)
        kids.append([])
        lines[v] = line
        if node.kind == DECISION:
            row[SLOT] = storage[node.player]
            storage[node.player] += len(node.actions) * n_holdings[node.player]
            acts[v] = list(node.actions)
            for action, child in zip(node.actions, node.children, strict=True):
                kids[v].append(emit(child, (*line, action_label(action)), card))
        elif node.kind == CHANCE:
            if not river_cards:
                raise SpotError("a turn tree needs its river cards")
            row[COUNT] = len(river_cards)
            for i in range(len(river_cards)):
                kids[v].append(emit(node.children[0], (*line, card_names[i] if card_names else str(i)), i))
        else:
            row[PAY] = index.setdefault((node.live, *node.put, node.turn_folds, node.street), len(index))
        return v

    emit(root, (), -1)
    nodes = np.array(rows, dtype=np.int64)
    width = max(1, max(len(k) for k in kids))
    children = np.full((len(rows), width), -1, dtype=np.int64)
    for v, k in enumerate(kids):
        children[v, : len(k)] = k
    terminal = (nodes[:, KIND] == FOLD) | (nodes[:, KIND] == SHOWDOWN)
    return Tree3(nodes, children, acts, lines, (storage[0], storage[1], storage[2]),
                 np.array(list(index), dtype=np.int64).reshape(-1, N_SIT),
                 np.flatnonzero(terminal).astype(np.int64),
                 np.flatnonzero(nodes[:, KIND] == DECISION).astype(np.int64),
                 np.flatnonzero(nodes[:, KIND] == CHANCE).astype(np.int64),
                 np.array(river_cards, dtype=np.int64), np.array(puts, dtype=np.int64).reshape(-1, N_PLAYERS))
