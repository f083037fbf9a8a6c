"""The three-handed pre-flop betting tree of Dilemma Hold'em (RULES §1.2), as data.

Three-handed the seat left of the DEALER posts the small blind, the next seat the big blind, and
the DEALER (the button) acts first before the flop, then the small blind, then the big blind, who
has the option when nobody raised. Players are numbered as after the flop and in the settlement's
three-handed tables (:func:`analysis.solvers.card_level.dilemma_terminals.situation_payoffs3`): 0 the small blind, 1 the big
blind, 2 the button (the DEALER). Raise sizes are the heads-up tree's data
(:class:`~analysis.solvers.preflop_hu.bet_tree.PreflopTreeConfig`): the first raise as a raise-to in
big blinds, later raises as multiples of the last raise-to, all-in always, and a cap on the number
of raises after which a player may only call or fold. A hand ends in a *fold end* (one player left:
no board, nobody pays a penalty) or the players still in *see the flop* with equal chips in (two or
three of them; a folder's chips stay in the pot): a terminal whose value is the check-down
continuation (:mod:`.continuation3`). Stacks are equal, so an all-in is a full raise and there are
no side pots.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from analysis.solvers.preflop_hu.bet_tree import (
    ALLIN,
    CALL,
    CHECK,
    FOLD,
    RAISE,
    NodeLists,
    PreflopTreeConfig,
    action_label,
)
from analysis.solvers.protocol import DECISION, TERMINAL

SB, BB, BTN = 0, 1, 2
PLAYER_NAMES3 = ("small blind", "big blind", "button")
SEAT_TAGS = ("SB", "BB", "BTN")
ORDER = (BTN, SB, BB)
"""The order of action before the flop (RULES §1.2: left of the big blind first)."""
ALL_LIVE = 0b111

__all__ = ["ALL_LIVE", "BB", "BTN", "ORDER", "PLAYER_NAMES3", "PreflopTree3", "SB", "SEAT_TAGS",
           "build_preflop_tree3"]


@dataclass
class PreflopTree3(NodeLists):
    """Nodes in creation order (node 0 the root, parents before children). Per node: ``kind``
    (DECISION or TERMINAL), ``player`` (the actor, -1 at a terminal), ``ins`` (chips each player has
    put in), ``live`` (bit mask of the players still in), ``children`` and ``actions`` (parallel
    lists), ``line`` (the actions from the root, each with its seat: ``BTN raise 60 / SB fold``)."""

    STACK = "pre-flop three-handed"

    config: PreflopTreeConfig
    kind: list[int] = field(default_factory=list)
    player: list[int] = field(default_factory=list)
    ins: list[tuple[int, int, int]] = field(default_factory=list)
    live: list[int] = field(default_factory=list)
    children: list[list[int]] = field(default_factory=list)
    actions: list[list[str]] = field(default_factory=list)
    line: list[str] = field(default_factory=list)
    raises: list[int] = field(default_factory=list)

    @property
    def n_players(self) -> int:
        """Three-handed."""
        return 3

    def situation(self, v: int) -> tuple[int, int, int, int]:
        """A terminal's settlement situation: the live mask and the chips each player put in."""
        return (self.live[v], *self.ins[v])

    def situations(self) -> list[tuple[int, int, int, int]]:
        """Every distinct terminal situation, in order of first appearance."""
        return list(dict.fromkeys(self.situation(v) for v in self.terminals()))

    def _add(self, kind: int, player: int, ins: tuple[int, int, int], live: int, line: str, raises: int) -> int:
        self.kind.append(kind)
        self.player.append(player)
        self.ins.append(ins)
        self.live.append(live)
        self.children.append([])
        self.actions.append([])
        self.line.append(line)
        self.raises.append(raises)
        return self.n_nodes - 1


def build_preflop_tree3(config: PreflopTreeConfig | None = None) -> PreflopTree3:
    """The three-handed pre-flop tree of ``config`` (default: opens to 3 big blinds, re-raises to 3x,
    all-in, three raises)."""
    cfg = config or PreflopTreeConfig()
    tree = PreflopTree3(cfg)

    def next_actor(actor: int, need: frozenset[int]) -> int:
        k = ORDER.index(actor)
        for step in range(1, 4):
            p = ORDER[(k + step) % 3]
            if p in need:
                return p
        raise AssertionError("no player left to act")

    def grow(v: int, actor: int, need: frozenset[int], last_to: int, inc: int, raises: int) -> None:
        ins, live, line = tree.ins[v], tree.live[v], tree.line[v]
        join = (line + " / ") if line else ""
        tag = SEAT_TAGS[actor] + " "
        opts: list[tuple[str, int]] = [(FOLD, 0), (CALL, last_to)] if ins[actor] < last_to else [(CHECK, last_to)]
        if raises < cfg.max_raises and last_to < cfg.chips:
            opts += [(RAISE, t) for t in cfg.raise_tos(last_to, inc, raises)]
            opts.append((ALLIN, cfg.chips))
        for kind, to in opts:
            label = action_label(kind, to)
            new = list(ins)
            new_live = live
            if kind == FOLD:
                new_live = live & ~(1 << actor)
                rest = need - {actor}
                n_to, n_inc, n_raises = last_to, inc, raises
            elif kind in (CALL, CHECK):
                new[actor] = to
                rest = need - {actor}
                n_to, n_inc, n_raises = last_to, inc, raises
            else:
                new[actor] = to
                rest = frozenset(p for p in range(3) if new_live >> p & 1 and p != actor and new[p] < cfg.chips)
                n_to, n_inc, n_raises = to, max(to - last_to, inc), raises + 1
            ins3 = (new[0], new[1], new[2])
            if bin(new_live).count("1") == 1 or not rest:
                c = tree._add(TERMINAL, -1, ins3, new_live, join + tag + label, n_raises)
                tree.children[v].append(c)
                tree.actions[v].append(label)
                continue
            nxt = next_actor(actor, rest)
            c = tree._add(DECISION, nxt, ins3, new_live, join + tag + label, n_raises)
            tree.children[v].append(c)
            tree.actions[v].append(label)
            grow(c, nxt, rest, n_to, n_inc, n_raises)

    start = [0, 0, 0]
    start[SB], start[BB] = cfg.small_blind, cfg.big_blind
    root = tree._add(DECISION, BTN, (start[0], start[1], start[2]), ALL_LIVE, "", 0)
    grow(root, BTN, frozenset((SB, BB, BTN)), cfg.big_blind, cfg.big_blind, 0)
    return tree
