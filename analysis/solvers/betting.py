"""Poker-like game trees from a small spec: streets, bet sizes, raise caps and a chance model.

A :class:`BettingSpec` says *how the betting goes* (players, antes or blinds,
streets with their bet sizes, raise cap and first seat, whether folding is
allowed when nobody has bet); a :class:`ChanceModel` says *what chance does and
who sees it* (the chance nodes before each street, their outcomes with
probabilities and each player's observation) and *what a finished hand pays*
(a payoff vector from the chance state and an :class:`Outcome` record). The
generic builder :func:`build_betting_tree` walks every betting sequence and
chance outcome and emits the flat tree.

:class:`CardDeal` is the chance model of card games such as Kuhn and Leduc
poker: one chance node per card dealt (players' cards first, round-robin, then
the board cards before each street), a pot-to-the-best-hand payoff. An abstracted
Dilemma Hold'em hand plugs in the same way: a chance model over strength-bucket
transitions whose ``payoff`` applies the settlement rules (bank bonus, penalty
for the losers of the last betting round, which :class:`Outcome` carries).

Information sets are keyed by (player, the player's observations, the betting
history by street); labels read ``"Qh Ks|rc/r"``: observations, then the
actions of each street (``f`` fold, ``c`` check/call, ``r`` bet/raise, ``r0``,
``r1``.. when a street has several sizes) separated by ``/``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from .errors import SolverError
from .game_tree import GameTree, TreeBuilder


@dataclass(frozen=True)
class Street:
    """One betting round: bet/raise sizes, how they are measured, the raise cap and the first seat.

    ``sizing="fixed"``: a bet or raise puts in ``size`` chips more than the bet to call
    (limit poker). ``sizing="pot"``: it adds ``size`` times the pot after calling.
    ``raise_cap`` counts the bet and every raise of the round. ``fold_when_unbet``
    makes folding legal when nothing is to call (Dilemma Hold'em: it escapes the
    penalty of later rounds).
    """

    name: str
    sizes: tuple[float, ...] = (1.0,)
    sizing: str = "fixed"
    raise_cap: int = 2
    first: int = 0
    fold_when_unbet: bool = False


@dataclass(frozen=True)
class Outcome:
    """How a hand ended, for the payoff: chips put in, fold streets, the last round, showdown."""

    contributions: tuple[float, ...]
    folded: tuple[int, ...]  # street index where each player folded, -1 if never
    last_street: int  # index of the last betting round that was played
    showdown: bool

    @property
    def in_last_round(self) -> tuple[bool, ...]:
        """Who took part in the last betting round (had not folded before it)."""
        return tuple(f == -1 or f >= self.last_street for f in self.folded)

    @property
    def live(self) -> tuple[bool, ...]:
        """Who never folded."""
        return tuple(f == -1 for f in self.folded)


@runtime_checkable
class ChanceModel(Protocol):
    """What chance does before each street and what a finished hand pays (see the module doc)."""

    n_players: int

    def initial_state(self) -> Any:
        """The chance state before anything is dealt (any hashable or plain value)."""

    def steps(self, street: int) -> int:
        """Number of chance nodes before the betting of ``street``."""

    def outcomes(self, street: int, step: int, state: Any) -> Sequence[tuple[float, Any, Sequence[str | None]]]:
        """The outcomes of one chance node: ``(probability, new state, observation per player)``;
        an observation is a short label seen by that player, or None."""

    def payoff(self, state: Any, outcome: Outcome) -> Sequence[float]:
        """Each player's net winnings at the end of a hand (any vector, not necessarily zero-sum)."""


def rank_multiset_strength(ranks: Sequence[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Hand strength of a few cards by rank multiplicities then ranks (pairs beat high cards)."""
    groups = sorted(((n, r) for r, n in Counter(ranks).items()), reverse=True)
    return tuple(n for n, _ in groups), tuple(r for _, r in groups)


@dataclass(frozen=True)
class CardDeal:
    """Deal cards one per chance node: hole cards round-robin, then each street's board cards.

    ``cards`` are labels, ``ranks`` their ranks; the best ``strength(ranks of hole +
    board)`` among live players takes the pot (split on ties). With
    ``suit_isomorphic`` players observe ranks only (Leduc: 288 infosets instead of 936).
    """

    n_players: int
    cards: tuple[str, ...]
    ranks: tuple[int, ...]
    hole: int = 1
    board: tuple[int, ...] = (0,)
    strength: Callable[[Sequence[int]], Any] = rank_multiset_strength
    suit_isomorphic: bool = False
    rank_names: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        if len(self.cards) != len(self.ranks):
            raise SolverError("CardDeal: one rank per card")
        need = self.n_players * self.hole + sum(self.board)
        if need > len(self.cards):
            raise SolverError(f"CardDeal: {need} cards needed, the deck has {len(self.cards)}")

    def initial_state(self) -> tuple[int, ...]:
        """Nothing dealt yet."""
        return ()

    def steps(self, street: int) -> int:
        """Hole cards before the first street, then that street's board cards."""
        return (self.n_players * self.hole if street == 0 else 0) + self.board[street]

    def _token(self, card: int) -> str:
        if self.suit_isomorphic:
            r = self.ranks[card]
            return self.rank_names[r] if self.rank_names else str(r)
        return self.cards[card]

    def outcomes(self, street: int, step: int, state: tuple[int, ...]) -> list[tuple[float, Any, list]]:
        """Every card still in the deck, equally likely; a hole card is seen by its owner only."""
        left = [c for c in range(len(self.cards)) if c not in state]
        n_hole = self.n_players * self.hole
        to = len(state) % self.n_players if len(state) < n_hole else None
        out = []
        for c in left:
            token = self._token(c)
            obs = [token if (to is None or p == to) else None for p in range(self.n_players)]
            out.append((1.0 / len(left), (*state, c), obs))
        return out

    def payoff(self, state: tuple[int, ...], outcome: Outcome) -> list[float]:
        """The pot to the best live hand (equal split on ties), minus what each player put in."""
        pot = sum(outcome.contributions)
        live = [p for p in range(self.n_players) if outcome.folded[p] == -1]
        if len(live) > 1:
            n_hole = self.n_players * self.hole
            board = [self.ranks[c] for c in state[n_hole:]]
            score = {p: self.strength([self.ranks[state[p + k * self.n_players]]
                                       for k in range(self.hole)] + board) for p in live}
            best = max(score.values())
            live = [p for p in live if score[p] == best]
        share = pot / len(live)
        return [(share if p in live else 0.0) - outcome.contributions[p] for p in range(self.n_players)]


@dataclass(frozen=True)
class BettingSpec:
    """A poker-like game: players, antes/blinds, streets and the chance model (see the module doc)."""

    name: str
    n_players: int
    streets: tuple[Street, ...]
    deal: ChanceModel
    ante: tuple[float, ...] | float = 1.0
    meta: tuple[tuple[str, Any], ...] = ()

    def antes(self) -> tuple[float, ...]:
        """Each player's forced contribution before the first street."""
        if isinstance(self.ante, int | float):
            return (float(self.ante),) * self.n_players
        return tuple(float(a) for a in self.ante)


@dataclass
class _Hand:
    """Mutable betting state while the builder walks a branch (copied at every branch)."""

    contrib: list[float]
    folded: list[int]
    obs: list[list[str]]
    history: list[list[str]]
    chance: Any
    street: int = 0
    raises: int = 0
    acted: set[int] = field(default_factory=set)

    def copy(self) -> _Hand:
        return _Hand(list(self.contrib), list(self.folded), [list(o) for o in self.obs],
                     [list(h) for h in self.history], self.chance, self.street, self.raises,
                     set(self.acted))


def _validate(spec: BettingSpec) -> None:
    if spec.n_players < 2:
        raise SolverError(f"'{spec.name}': a betting game needs at least 2 players")
    if not spec.streets:
        raise SolverError(f"'{spec.name}': no streets")
    if getattr(spec.deal, "n_players", spec.n_players) != spec.n_players:
        raise SolverError(f"'{spec.name}': the chance model is for {spec.deal.n_players} players")
    if len(spec.antes()) != spec.n_players:
        raise SolverError(f"'{spec.name}': one ante per player needed")
    for s in spec.streets:
        if s.sizing not in ("fixed", "pot"):
            raise SolverError(f"'{spec.name}': street '{s.name}' sizing must be 'fixed' or 'pot'")
        if s.raise_cap < 0 or (s.raise_cap > 0 and not s.sizes) or any(x <= 0 for x in s.sizes):
            raise SolverError(f"'{spec.name}': street '{s.name}' needs positive sizes and a cap >= 0")
        if not 0 <= s.first < spec.n_players:
            raise SolverError(f"'{spec.name}': street '{s.name}' first seat out of range")


def build_betting_tree(spec: BettingSpec) -> GameTree:
    """Expand a :class:`BettingSpec` into a :class:`GameTree` (every betting line, every deal)."""
    _validate(spec)
    builder = TreeBuilder(spec.n_players, spec.name)
    n = spec.n_players
    hand = _Hand(list(spec.antes()), [-1] * n, [[] for _ in range(n)], [[]], spec.deal.initial_state())
    _deal(builder, spec, hand, None, None, 0)
    meta = {"spec": spec.name, "streets": [s.name for s in spec.streets], **dict(spec.meta)}
    return builder.build(meta)


def _deal(b: TreeBuilder, spec: BettingSpec, hand: _Hand, parent: int | None,
          prob: float | None, step: int) -> None:
    """Chance nodes before the current street, then its first decision."""
    if step == spec.deal.steps(hand.street):
        _act(b, spec, hand, parent, prob, _first_seat(spec, hand))
        return
    node = b.chance(parent, prob=prob)
    outs = spec.deal.outcomes(hand.street, step, hand.chance)
    if not outs:
        raise SolverError(f"'{spec.name}': a chance node with no outcomes on street {hand.street}")
    for p_out, new_state, seen in outs:
        h = hand.copy()
        h.chance = new_state
        for p, token in enumerate(seen):
            if token is not None:
                h.obs[p].append(str(token))
        _deal(b, spec, h, node, p_out, step + 1)


def _first_seat(spec: BettingSpec, hand: _Hand) -> int:
    seat = spec.streets[hand.street].first
    while hand.folded[seat] != -1:
        seat = (seat + 1) % spec.n_players
    return seat


def _actions(spec: BettingSpec, hand: _Hand, p: int) -> list[tuple[str, str, float]]:
    """Legal actions at this point: (history token, label, new contribution of the actor)."""
    st = spec.streets[hand.street]
    top = max(hand.contrib)
    facing = top - hand.contrib[p]
    acts = []
    if facing > 0 or st.fold_when_unbet:
        acts.append(("f", "fold", hand.contrib[p]))
    acts.append(("c", "call" if facing > 0 else "check", top))
    if hand.raises < st.raise_cap:
        word = "raise" if (hand.raises or facing > 0) else "bet"
        seen: set[float] = set()
        for k, size in enumerate(st.sizes):
            add = size if st.sizing == "fixed" else size * (sum(hand.contrib) + facing)
            level = round(top + add, 9)
            if level in seen:
                continue
            seen.add(level)
            token = "r" if len(st.sizes) == 1 else f"r{k}"
            label = word if len(st.sizes) == 1 else f"{word} {size:g}{'' if st.sizing == 'fixed' else 'x pot'}"
            acts.append((token, label, level))
    return acts


def _act(b: TreeBuilder, spec: BettingSpec, hand: _Hand, parent: int | None,
         prob: float | None, p: int) -> None:
    acts = _actions(spec, hand, p)
    key = (" ".join(hand.obs[p]), "/".join("".join(h) for h in hand.history))
    node = b.decision(p, key, [label for _, label, _ in acts], parent, prob=prob)
    for token, _, level in acts:
        h = hand.copy()
        h.history[-1].append(token)
        if token == "f":
            h.folded[p] = h.street
        else:
            if token != "c":
                h.raises += 1
                h.acted = set()
            h.contrib[p] = level
        h.acted.add(p)
        _after(b, spec, h, node, p)


def _after(b: TreeBuilder, spec: BettingSpec, hand: _Hand, parent: int, p: int) -> None:
    """Next decision, next street, or the end of the hand."""
    n = spec.n_players
    live = [q for q in range(n) if hand.folded[q] == -1]
    if len(live) == 1:
        _terminal(b, spec, hand, parent, showdown=False)
        return
    top = max(hand.contrib)
    done = all(q in hand.acted and hand.contrib[q] == top for q in live)
    if not done:
        q = (p + 1) % n
        while hand.folded[q] != -1:
            q = (q + 1) % n
        _act(b, spec, hand, parent, None, q)
        return
    if hand.street + 1 == len(spec.streets):
        _terminal(b, spec, hand, parent, showdown=True)
        return
    h = hand.copy()
    h.street += 1
    h.raises = 0
    h.acted = set()
    h.history.append([])
    _deal(b, spec, h, parent, None, 0)


def _terminal(b: TreeBuilder, spec: BettingSpec, hand: _Hand, parent: int, showdown: bool) -> None:
    outcome = Outcome(tuple(hand.contrib), tuple(hand.folded), hand.street, showdown)
    b.terminal(spec.deal.payoff(hand.chance, outcome), parent)
