"""The betting tree of a spot (postflop-solver's rules) and its expansion over dealt cards.

:func:`action_tree` builds the public betting tree once, with the rules of
postflop-solver's ``ActionTree`` (amounts rounded to whole chips, sizes clamped
between the minimum raise and all-in, actions sorted fold < check < call < bet <
raise < all-in and deduplicated). :func:`expand` writes it out with one child
per turn or river card at every chance node, in depth-first preorder (a
subtree is the range ``v .. END - 1``), as the int32 table the kernels read.

Node columns (``nodes[v, COL]``):

=========== ================================================================
``KIND``    ``FOLD``, ``SHOWDOWN``, ``CHANCE`` or ``DECISION``
``PLAYER``  the acting player (decision), the folder (fold), else -1
``FIRST``   first child (``v + 1``; child ``j + 1`` starts at child ``j``'s ``END``)
``COUNT``   number of children
``END``     one past the last node of the subtree
``DEPTH``   depth below the root
``IDX``     index of the node among its parent's children
``CARD``    the card dealt into this node by its parent chance node, else -1
``DEALT0``  the first and second card dealt since the root (-1 if none)
``DEALT1``
``BOARD``   river board number of a showdown (row of the strength tables)
``SLOT``    start of a decision node's regrets (``COUNT`` rows of the player's
            holdings)
``AMOUNT``  chips each player has put in since the root (matched amount)
``TASK``    first task number of a chance node whose children run in parallel
``PAY``     a fold's or showdown's row of the Dilemma payoff tables (its
            *situation*: cards dealt, amount, folder), else -1
``LOCK``    1 for a decision node whose strategy is locked (node locking), else 0
``ISO``     suit isomorphism below the first chance nodes (the river cards under
            a turn card of a flop spot): -1 for a child of such a chance node
            that mirrors a lower sibling (never walked, no storage), else the
            bits ``1 << k`` of the swaps ``k`` that map this child's card to a
            mirror sibling (its values stand in for theirs); 0 elsewhere
=========== ================================================================
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ..protocol import CHANCE as _P_CHANCE
from ..protocol import DECISION as _P_DECISION
from ..protocol import TERMINAL as _P_TERMINAL
from ..protocol import TreeShape, shape_from
from .card_spot import ALLIN, POT, PREV, CardSpot, SpotError

FOLD, SHOWDOWN, CHANCE, DECISION = 0, 1, 2, 3
(KIND, PLAYER, FIRST, COUNT, END, DEPTH, IDX, CARD, DEALT0, DEALT1, BOARD, SLOT, AMOUNT,
 TASK, PAY, LOCK, ISO) = range(17)
N_COLS = 17
_SHARED_KIND = {FOLD: _P_TERMINAL, SHOWDOWN: _P_TERMINAL, CHANCE: _P_CHANCE, DECISION: _P_DECISION}
"""This table's node kinds in the shared layout of :mod:`analysis.solvers.protocol`."""

A_FOLD, A_CHECK, A_CALL, A_BET, A_RAISE, A_ALLIN = 1, 2, 3, 4, 5, 6
ACTION_NAMES = {A_FOLD: "fold", A_CHECK: "check", A_CALL: "call", A_BET: "bet", A_RAISE: "raise",
                A_ALLIN: "allin"}
MAX_NODES = 60_000_000
"""Refuse trees beyond this many expanded nodes (a clear error instead of running out of memory)."""


def action_label(action: tuple[int, int]) -> str:
    """``fold``, ``check``, ``call``, ``bet 100``, ``raise 300``, ``allin 900``."""
    code, amount = action
    name = ACTION_NAMES[code]
    return name if code <= A_CALL else f"{name} {amount}"


@dataclass
class PublicNode:
    """A node of the public betting tree (no cards)."""

    kind: int
    street: int
    amount: int
    player: int = -1
    actions: list[tuple[int, int]] = field(default_factory=list)
    children: list[PublicNode] = field(default_factory=list)


@dataclass(frozen=True)
class _Info:
    prev_action: int = 0
    num_bets: int = 0
    allin: bool = False
    stacks: tuple[int, int] = (0, 0)
    prev_amount: int = 0

    def after(self, player: int, action: tuple[int, int]) -> _Info:
        code, amount = action
        stacks = list(self.stacks)
        num_bets, allin, prev = self.num_bets, self.allin, self.prev_amount
        if code == A_CALL:
            num_bets, prev = 0, 0
            stacks[player] = stacks[1 - player]
        elif code in (A_BET, A_RAISE, A_ALLIN):
            to_call = stacks[player] - stacks[1 - player]
            num_bets += 1
            allin = code == A_ALLIN
            stacks[player] -= amount - prev + to_call
            prev = amount
        return _Info(code, num_bets, allin, (stacks[0], stacks[1]), prev)


def action_tree(spot: CardSpot) -> PublicNode:
    """The public betting tree of ``spot`` (player 0 first on every street)."""
    root = PublicNode(DECISION, spot.street, 0, player=0)
    _build(spot, root, _Info(stacks=(spot.stack, spot.stack)))
    return root


def _build(spot: CardSpot, node: PublicNode, info: _Info) -> None:
    if node.kind in (FOLD, SHOWDOWN):
        return
    if node.kind == CHANCE:
        street = node.street + 1
        if not info.allin:
            child = PublicNode(DECISION, street, node.amount, player=0)
        elif street < 2:
            child = PublicNode(CHANCE, street, node.amount)
        else:
            child = PublicNode(SHOWDOWN, street, node.amount)
        node.children.append(child)
        _build(spot, child, _Info(0, 0, info.allin, info.stacks, 0))
        return
    for action in _actions(spot, node, info):
        node.actions.append(action)
        child = _child(node, info, action)
        node.children.append(child)
        _build(spot, child, info.after(node.player, action))


def _actions(spot: CardSpot, node: PublicNode, info: _Info) -> list[tuple[int, int]]:
    """The sorted, deduplicated actions at a decision node (postflop-solver's ``push_actions``)."""
    tree = spot.tree
    player = node.player
    own, opp = info.stacks[player], info.stacks[1 - player]
    prev = info.prev_amount
    to_call = own - opp
    pot = spot.pot + 2 * (node.amount + to_call)
    max_amount = opp + prev
    min_amount = min(max(prev + to_call, spot.min_bet), max_amount)
    unit = spot.chip_unit
    sizes = tree.sizes[node.street][player]
    actions: list[tuple[int, int]] = []
    if info.prev_action in (0, A_CHECK):
        actions += open_actions(tree, sizes, pot, max_amount, unit)
    else:
        actions += [(A_FOLD, 0), (A_CALL, 0)]
        capped = tree.raise_cap and info.num_bets >= tree.raise_cap
        if not info.allin and not capped:
            for size in sizes.raises:
                if size.kind == POT:
                    actions.append((A_RAISE, prev + _chips(pot * size.value, unit)))
                elif size.kind == PREV:
                    actions.append((A_RAISE, _chips(prev * size.value, unit)))
                else:
                    actions.append((A_ALLIN, max_amount))
            if max_amount <= prev + _chips(pot * tree.add_allin_threshold, unit):
                actions.append((A_ALLIN, max_amount))
    out = []
    for code, amount in actions:
        if code in (A_BET, A_RAISE):
            clamped = min(max(amount, min_amount), max_amount)
            new_pot = pot + 2 * (clamped - prev)
            if max_amount <= clamped + _chips(new_pot * tree.force_allin_threshold, unit):
                code, clamped = A_ALLIN, max_amount
            amount = clamped
        out.append((code, amount))
    return sorted(set(out))


def _child(node: PublicNode, info: _Info, action: tuple[int, int]) -> PublicNode:
    code = action[0]
    player = node.player
    to_call = info.stacks[player] - info.stacks[1 - player]
    after_call = SHOWDOWN if node.street == 2 else CHANCE
    if code == A_FOLD:
        return PublicNode(FOLD, node.street, node.amount, player=player)
    if code == A_CHECK:
        if player == 0:
            return PublicNode(DECISION, node.street, node.amount, player=1)
        return PublicNode(after_call, node.street, node.amount)
    if code == A_CALL:
        return PublicNode(after_call, node.street, node.amount + to_call)
    return PublicNode(DECISION, node.street, node.amount + to_call, player=1 - player)


def swap_suits(card: int, pair: tuple[int, int], n_suits: int) -> int:
    """``card`` with the two suits of ``pair`` swapped."""
    a, b = pair
    r, u = divmod(int(card), n_suits)
    return r * n_suits + (b if u == a else a if u == b else u)


def mirror_map(cards: Sequence[int], fixed: Sequence[int], swaps: Sequence[tuple[int, int]],
               n_suits: int) -> dict[int, tuple[int, int]]:
    """Suit isomorphism at a chance node dealing ``cards``: ``{card: (lower card it mirrors, swap
    number)}`` under the ``swaps`` that leave every card of ``fixed`` (the cards dealt since the
    root) in place; cards in increasing order, and a lower card that mirrors is never a reference."""
    fixing = [k for k, pair in enumerate(swaps) if all(swap_suits(c, pair, n_suits) == c for c in fixed)]
    out: dict[int, tuple[int, int]] = {}
    for c in sorted(cards):
        for k in fixing:
            m = swap_suits(c, swaps[k], n_suits)
            if m < c and m not in out:
                out[c] = (m, k)
                break
    return out


def _round(x: float) -> int:
    """Round half away from zero, as Rust's ``f64::round``."""
    return int(np.floor(x + 0.5)) if x >= 0 else -int(np.floor(-x + 0.5))


def open_actions(tree, sizes, pot: int, allin: int, unit: int) -> list[tuple[int, int]]:
    """The actions when nobody has bet: the free fold if the tree allows it, check, each bet size
    (pot fractions rounded to ``unit``, all-in to ``allin``) and all-in below the add threshold
    (duplicates are removed by the caller's sort)."""
    actions = [(A_FOLD, 0)] if tree.free_fold else []
    actions.append((A_CHECK, 0))
    for size in sizes.bets:
        if size.kind == POT:
            actions.append((A_BET, _chips(pot * size.value, unit)))
        elif size.kind == ALLIN:
            actions.append((A_ALLIN, allin))
    if allin <= _chips(pot * tree.add_allin_threshold, unit):
        actions.append((A_ALLIN, allin))
    return actions


def _chips(x: float, unit: int) -> int:
    """``x`` rounded to a whole number of ``unit`` chips (half away from zero)."""
    return _round(x) if unit == 1 else unit * _round(x / unit)


@dataclass
class ExpandedTree:
    """The expanded tree of a spot: node table, regret sizes, river boards and parallel tasks."""

    nodes: np.ndarray  # int32[N, N_COLS]
    actions: list[list[tuple[int, int]]]  # per decision node (by SLOT order), its actions
    decision_nodes: np.ndarray  # int64[D]: node ids of the decision nodes
    storage: tuple[int, int]  # regret entries of player 0 and player 1
    boards: np.ndarray  # int8[B, 2]: the turn/river cards dealt (-1 if none) of each river board
    fold_keys: np.ndarray  # int64[F, 4]: per fold situation (PAY), cards dealt, amount, folder
    showdown_keys: np.ndarray  # int64[S, 3]: per showdown situation (PAY), cards dealt, amount
    tasks: np.ndarray  # int64[T]: root node of each parallel subtree (children of top chance nodes)
    max_depth: int
    max_actions: int
    n_players = 2

    def shape(self) -> TreeShape:
        """The tree in the shared layout of :mod:`analysis.solvers.protocol` (printing, summaries)."""
        nodes = self.nodes
        n = int(nodes.shape[0])
        kids: list[list[int]] = [[] for _ in range(n)]
        label = [""] * n
        which = {int(v): i for i, v in enumerate(self.decision_nodes.tolist())}
        for v in range(n):
            c = v + 1
            for _ in range(int(nodes[v, COUNT])):
                kids[v].append(c)
                c = int(nodes[c, END])
            if nodes[v, KIND] == DECISION:
                for c, action in zip(kids[v], self.actions[which[v]], strict=True):
                    label[c] = action_label(action)
            elif nodes[v, KIND] == CHANCE:
                for c in kids[v]:
                    label[c] = f"card {int(nodes[c, CARD])}"
        kind = np.array([_SHARED_KIND[k] for k in nodes[:, KIND].tolist()], dtype=np.int8)
        return shape_from("cards heads-up", 2, kind, nodes[:, PLAYER], kids, label,
                          infoset_actions=sum(self.storage))


def expand(spot: CardSpot, root: PublicNode, n_holdings: tuple[int, int],
           mirrored: frozenset[int] = frozenset(), swaps: Sequence[tuple[int, int]] = ()) -> ExpandedTree:
    """Write the tree out with every turn and river card (see the module doc).

    The subtrees below the first chance nodes whose card is in ``mirrored`` (suit
    isomorphism: never walked) get no regret storage (``SLOT`` -1). Below them, at a
    chance node, a card that ``swaps`` (pairs of suits that leave the board and both
    ranges unchanged) map to a lower card while fixing the cards dealt so far mirrors it
    (``ISO``): its subtree is not walked and gets no storage either.
    """
    spec = spot.spec
    deck = [c for c in range(spec.n_cards) if c not in spot.board]
    rows: list[list[int]] = []
    actions: list[list[tuple[int, int]]] = []
    decisions: list[int] = []
    storage = [0, 0]
    board_index: dict[tuple[int, int], int] = {}
    fold_index: dict[tuple[int, int, int, int], int] = {}
    showdown_index: dict[tuple[int, int, int], int] = {}
    tasks: list[int] = []
    depth_max = [0]

    def emit(node: PublicNode, depth: int, idx: int, card: int, dealt: tuple[int, ...], in_chance: bool,
             stored: bool = True) -> int:
        if len(rows) >= MAX_NODES:
            raise SpotError(f"the tree has more than {MAX_NODES:,} nodes: use fewer sizes or a later street")
        v = len(rows)
        d0, d1 = (dealt + (-1, -1))[:2]
        row = [node.kind, node.player, -1, 0, 0, depth, idx, card, d0, d1, -1, -1, node.amount, -1, -1, 0, 0]
        rows.append(row)
        depth_max[0] = max(depth_max[0], depth)
        if node.kind == SHOWDOWN:
            row[BOARD] = board_index.setdefault((d0, d1), len(board_index))
            row[PAY] = showdown_index.setdefault((d0, d1, node.amount), len(showdown_index))
        elif node.kind == FOLD:
            row[PAY] = fold_index.setdefault((d0, d1, node.amount, node.player), len(fold_index))
        elif node.kind == DECISION:
            if stored:
                row[SLOT] = storage[node.player]
                storage[node.player] += len(node.actions) * n_holdings[node.player]
            decisions.append(v)
            actions.append(list(node.actions))
            row[COUNT] = len(node.children)
            row[FIRST] = v + 1
            for j, child in enumerate(node.children):
                emit(child, depth + 1, j, -1, dealt, in_chance, stored)
        elif node.kind == CHANCE:
            cards = [c for c in deck if c not in dealt]
            row[COUNT] = len(cards)
            row[FIRST] = v + 1
            if not in_chance:
                row[TASK] = len(tasks)
            inner = mirror_map(cards, dealt, swaps, spec.n_suits) if in_chance else {}
            child_of: dict[int, int] = {}
            for j, c in enumerate(cards):
                if not in_chance:
                    tasks.append(len(rows))
                child_of[c] = len(rows)
                emit(node.children[0], depth + 1, j, c, dealt + (c,), True,
                     stored and (in_chance or c not in mirrored) and c not in inner)
            for c, (image, k) in inner.items():
                rows[child_of[c]][ISO] = -1
                rows[child_of[image]][ISO] |= 1 << k
        row[END] = len(rows)
        return v

    emit(root, 0, 0, -1, (), False)
    nodes = np.array(rows, dtype=np.int64)
    boards = np.array(sorted(board_index, key=board_index.get), dtype=np.int8).reshape(-1, 2)
    return ExpandedTree(
        nodes=nodes.astype(np.int32),
        actions=actions,
        decision_nodes=np.array(decisions, dtype=np.int64),
        storage=(storage[0], storage[1]),
        boards=boards,
        fold_keys=np.array(list(fold_index), dtype=np.int64).reshape(-1, 4),
        showdown_keys=np.array(list(showdown_index), dtype=np.int64).reshape(-1, 3),
        tasks=np.array(tasks, dtype=np.int64),
        max_depth=depth_max[0] + 1,
        max_actions=max((len(a) for a in actions), default=1),
    )


__all__ = ["ACTION_NAMES", "ExpandedTree", "PublicNode", "action_label", "action_tree", "expand", "mirror_map",
           "swap_suits"]
