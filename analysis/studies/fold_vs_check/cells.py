"""Spots: what a fold-vs-check question is, validated and compiled to the kernels' arrays."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field

import numpy as np

from analysis.core.rng import derive_key
from analysis.core.strategy import Decision
from analysis.dilemma.decks import Deck
from analysis.dilemma.effects import STREETS, street_code
from analysis.dilemma.settlement import Rules
from analysis.dilemma.spot import RANDOM, Spot
from analysis.dilemma.table import DEFAULT_BANK, Table, TableError
from evaluator import CardError, format_cards, parse_cards
from evaluator.errors import LabError

from ..ranges import starting_classes
from .layout import CE_POLICY, M_BET, cell_row, pack_opponents, pack_table
from .models import HeroPolicy, OpponentModel, load_model, load_policy

MAX_PLAYERS = 10
BEST_RESPONSE = "best_response"
"""The continuation after checking that plays well: a best response to the opponent model."""
FIXED_POLICIES = ("check_down", "check_fold", "call_down")
"""The fixed continuations (kept as options and shown beside the best response)."""


class SpotError(LabError):
    """A spot that cannot exist (wrong board size, pot below the blinds, too many players...)."""


@dataclass(frozen=True)
class Question:
    """One fold-vs-check question: the spot (:class:`analysis.dilemma.spot.Spot`: the hero
    first, its opponents holding random cards), the opponents' strategy and the hero's
    continuation after checking. The spot's fields read through (``hand``, ``street``...)."""

    spot: Spot
    model: str = "passive"
    """The opponents' strategy: an opponent model or an engine strategy (name or path)."""
    policy: str = BEST_RESPONSE
    """The continuation after checking: ``best_response`` or a fixed policy."""
    position: int = 0
    """The opponents who act before the hero after the flop (0: the hero first, ``opponents``:
    last); at the decision street they have checked, by their model."""

    @property
    def hand(self) -> str:
        """The hero's two cards or starting class."""
        return self.spot.hands[0]

    @property
    def opponents(self) -> int:
        return self.spot.players - 1

    @property
    def street(self) -> str:
        return self.spot.street

    @property
    def board(self) -> str:
        return self.spot.board

    @property
    def pot(self) -> int:
        return self.spot.pot

    @property
    def stack(self) -> int | None:
        return self.spot.stack

    @property
    def players(self) -> int:
        return self.spot.players

    @property
    def behind(self) -> int:
        return self.spot.behind

    def fields(self) -> dict[str, object]:
        """The question's plain fields (the table apart), for JSON output."""
        return {k: getattr(self, k) for k in ("hand", "street", "board", "opponents", "pot", "stack",
                                              "model", "policy", "position")}

    def settings(self) -> dict[str, object]:
        """The fields a run's fingerprint hashes (the same as before the spot was shared, and
        before positions: the hero first adds nothing)."""
        table = self.spot.table
        fields = self.fields()
        if not self.position:
            del fields["position"]
        return {**fields, "table": None if table is None else asdict(table)}

    @property
    def position_name(self) -> str:
        """``first``, ``last`` or ``after k`` (k opponents act before the hero)."""
        return position_name(self.position, self.opponents)

    def label(self) -> str:
        board = self.board or "random"
        where = "" if not self.position else f" | acts {self.position_name}"
        return f"{self.hand} | {self.street} {board} | {self.opponents} opp{where} | pot {self.pot}"


def position_name(position: int, opponents: int) -> str:
    """The hero's place after the flop in words: ``first``, ``last`` or ``after k``."""
    if position == 0:
        return "first"
    return "last" if position == opponents else f"after {position}"


def parse_position(text: str | int, opponents: int) -> int:
    """The opponents acting before the hero from ``first``, ``last`` or a count ``k``
    (0 to ``opponents``): the CLI's ``--position``."""
    word = str(text).strip().lower()
    if word == "first":
        return 0
    if word == "last":
        return opponents
    try:
        k = int(word)
    except ValueError:
        raise SpotError(f"position is first, last or the number of opponents acting before the "
                        f"hero (0 to {opponents}); got {text!r}") from None
    if not 0 <= k <= opponents:
        raise SpotError(f"position: 0 to {opponents} opponents can act before the hero with "
                        f"{opponents} opponents; got {k}")
    return k


def hero_spot(hand: str, street: str = "flop", board: str = "", opponents: int = 1, pot: int = 40,
              stack: int | None = None, table: Table | None = None) -> Spot:
    """The spot of a fold-vs-check question: the hero's ``hand`` first, then ``opponents``
    players holding random cards."""
    if not 1 <= opponents <= MAX_PLAYERS - 1:
        raise SpotError(f"opponents must be 1 to {MAX_PLAYERS - 1}; got {opponents}")
    return Spot((hand,) + (RANDOM,) * opponents, board, street, pot, stack, table)


@dataclass
class Context:
    """Everything shared by the cells of one run: deck, rules, models, policies, bank."""

    deck: Deck
    rules: Rules
    bank: tuple[int, int, int]
    level: int
    models: list[OpponentModel] = field(default_factory=list)
    policies: list[HeroPolicy] = field(
        default_factory=lambda: [load_policy(name) for name in FIXED_POLICIES])
    """Fixed hero policies by index; the built-in three come first (they are the comparisons)."""

    def model_index(self, name: str, spot: Question | None = None) -> int:
        """The index of the opponents' thresholds at ``spot`` (a model's own; an engine
        strategy read at the spot's table: :func:`analysis.core.strategy.threshold_model`)."""
        model = load_model(name, None if spot is None else self.decision(spot))
        for i, m in enumerate(self.models):
            if m == model:
                return i
        self.models.append(model)
        return len(self.models) - 1

    def decision(self, spot: Question) -> Decision:
        """The table an engine strategy is read at as an opponent of ``spot``: every player
        in, the opponent second to act, the spot's pot and stacks, this level's big blind."""
        return Decision(players=spot.players, position=1, pot=float(spot.pot),
                        stack=float(spot.behind), big_blind=float(self.rules.blinds[self.level][1]))

    def policy_index(self, name: str) -> int:
        """The index of a fixed policy, or -1 for the best response."""
        if name == BEST_RESPONSE:
            return -1
        policy = load_policy(name)
        for i, p in enumerate(self.policies):
            if p.name == policy.name:
                return i
        self.policies.append(policy)
        return len(self.policies) - 1


@dataclass
class Cells:
    """Spots compiled to the kernel's arrays (see :mod:`.layout`), with their labels."""

    ctx: Context
    spots: list[Question]
    cells: np.ndarray
    keys: np.ndarray
    hero_combos: np.ndarray
    board_cards: np.ndarray
    class_names: list[str]
    combos: list[int]
    kinds: list[str]
    train_keys: np.ndarray | None = None
    """Generator keys of the best responses' training deals (independent of ``keys``)."""
    strength_bins: bool = True
    """Tally the gap by the hero's exact strength at the decision (the grid's break-even
    curves); single spots skip it."""
    buckets: int = 20
    """Strength buckets of the best response's information sets."""
    compare: bool = False
    """Also play the fixed policies (and the best response without free folds) on every deal."""

    def kernel_inputs(self, train: bool = False) -> tuple[tuple, tuple, tuple]:
        """The ``(spots, opponents, table)`` tuples the kernels take (with the training keys
        when ``train``)."""
        ctx = self.ctx
        keys = self.train_keys if train else self.keys
        spots = (self.cells, keys, self.hero_combos, self.board_cards)
        opponents = pack_opponents(ctx.models, ctx.deck)
        table = pack_table(bank=ctx.bank, level=ctx.level, big_blind=ctx.rules.blinds[ctx.level][1],
                           strength_bins=self.strength_bins, policies=ctx.policies, deck=ctx.deck,
                           rules=ctx.rules, buckets=self.buckets,
                           compare=len(FIXED_POLICIES) if self.compare else 0)
        return spots, opponents, table

    @property
    def best_response(self) -> np.ndarray:
        """Whether each cell continues by a best response (else by a fixed policy)."""
        return self.cells[:, CE_POLICY] < 0


def resolve_hand(hand: str, deck: Deck, board: list[int]) -> tuple[list[tuple[int, int]], str, int, str]:
    """The hero's combos (exact cards or a starting class) less those that clash with the board,
    the class name, its combo count and kind."""
    spec = deck.spec
    try:
        cards = parse_cards(hand, spec)
    except CardError:
        cards = None
    if cards is not None:
        if len(cards) != 2:
            raise SpotError(f"the hero holds 2 cards; got {len(cards)} in {hand!r}")
        if set(cards) & set(board):
            raise SpotError(f"card {spec.card_name(sorted(set(cards) & set(board))[0])} is both in the hand and on the board")
        return [tuple(cards)], format_cards(cards, spec), 1, "cards"
    classes = {c.name.lower(): c for c in starting_classes(spec)}
    text = hand.strip().lower()
    cls = classes.get(text)
    for alias, rank in spec.rank_aliases:  # "t" for "10" on the 40 cards, "10" for "t" on 52
        cls = cls or classes.get(text.replace(alias.lower(), rank.lower()))
    if cls is None:
        raise SpotError(f"hand {hand!r} is neither two cards nor a starting class of the {spec.summary}")
    combos = [c for c in cls.combos if not set(c) & set(board)]
    if not combos:
        raise SpotError(f"no combo of {cls.name} is possible on the board {format_cards(board, spec)}")
    return combos, cls.name, cls.n_combos, cls.kind


def compile_spots(spots: Sequence[Question], ctx: Context, seed: int, *, buckets: int = 20,
                  no_free: bool = False) -> Cells:
    """Validate spots and compile them to kernel arrays; each cell gets its generator keys
    (deals, and the best response's training deals). A best-response cell ``i`` plays plan
    row ``i`` (and, with ``no_free``, row ``n + i``: the best response without free folds)."""
    deck = ctx.deck
    if not 2 <= buckets <= 100:
        raise SpotError(f"buckets must be between 2 and 100; got {buckets}")
    rows, keys, train, hero, boards, names, n_combos, kinds = [], [], [], [], [], [], [], []
    for spot in spots:
        street = street_code(spot.street)
        if street not in (1, 2, 3):
            raise SpotError(f"the decision street is flop, turn or river; got {spot.street!r}")
        board = parse_cards(spot.board, deck.spec) if spot.board else []
        if board and len(board) != street + 2:
            raise SpotError(
                f"a {STREETS[street]} board has {street + 2} cards; got {len(board)} ({spot.board})"
            )
        if not 1 <= spot.opponents <= MAX_PLAYERS - 1:
            raise SpotError(f"opponents must be 1 to {MAX_PLAYERS - 1}; got {spot.opponents}")
        if any(h != RANDOM for h in spot.spot.hands[1:]):
            raise SpotError("the fold-vs-check study deals its opponents random cards (their "
                            f"strategy is the model); got hands {', '.join(spot.spot.hands[1:])}")
        if 2 * spot.players + 5 > deck.n_cards:
            raise SpotError(f"{spot.players} players cannot be dealt from the {deck.n_cards}-card deck")
        sb, bb = ctx.rules.blinds[ctx.level]
        if spot.pot < sb + bb:
            raise SpotError(f"pot ${spot.pot} is smaller than the blinds (${sb} + ${bb})")
        if spot.pot % 10 or (spot.stack is not None and spot.stack % 10):
            what, value = ("pot", spot.pot) if spot.pot % 10 else ("stack", spot.stack)
            raise SpotError(f"{what} must be a multiple of $10 (chips are $10 units); got {value}")
        if spot.stack is not None and spot.stack <= 0:
            raise SpotError(f"stack must be more than $0 (a player with no chips behind has no "
                            f"decision left: all in, or out of the game); got {spot.stack}")
        if spot.behind <= 0:
            raise SpotError(f"pot ${spot.pot} is too large: {spot.players} players starting with "
                            f"$1,000 each would have nothing behind (all in, no decision left); "
                            f"at most ${1000 * spot.players - 10 * spot.players:,} (or give --stack)")
        if not 0 <= spot.position <= spot.opponents:
            raise SpotError(f"position: 0 to {spot.opponents} opponents can act before the hero; "
                            f"got {spot.position}")
        combos, name, count, kind = resolve_hand(spot.hand, deck, board)
        policy = ctx.policy_index(spot.policy)
        model = ctx.model_index(spot.model, spot)
        if spot.position and ctx.models[model].kernel_params()[street][M_BET] <= 0.0:
            raise SpotError(f"model {ctx.models[model].name} bets every holding on the "
                            f"{STREETS[street]}: the opponents before the hero never check, so "
                            "the hero cannot act after them with nobody having bet")
        i = len(rows)
        rows.append(cell_row(hero=(len(hero), len(hero) + len(combos)),
                             board=(len(boards), len(board)), street=street,
                             opponents=spot.opponents, pot=spot.pot, stack=spot.behind,
                             model=model, policy=policy, plan=i if policy < 0 else -1,
                             plan_nofree=len(spots) + i if policy < 0 and no_free else -1,
                             position=spot.position))
        hero.extend(combos)
        boards.extend(board)
        # Deals depend on the hand, board, street and opponents only: pots, models,
        # policies, positions and decks share them (common random numbers across the grid;
        # a later position keeps the deals where the players before the hero check).
        keys.append(derive_key(seed, "fold-vs-check", name, spot.board or "-", street, spot.opponents))
        train.append(derive_key(seed, "fold-vs-check-train", name, spot.board or "-", street,
                                spot.opponents, spot.pot, str(spot.model)))
        names.append(name)
        n_combos.append(count)
        kinds.append(kind)
    return Cells(ctx, list(spots), np.array(rows, np.int64), np.array(keys, np.uint64),
                 np.array(hero, np.int64).reshape(-1, 2), np.array(boards or [0], np.int64),
                 names, n_combos, kinds, train_keys=np.array(train, np.uint64), buckets=buckets)


def load_table(deck: str | Deck = "reference", rules: Rules | None = None,
               bank: Sequence[int] = DEFAULT_BANK, level: int = 0) -> Table:
    """The table of a spot or grid, loaded once and validated (a bad bank or level: SpotError)."""
    try:
        return Table.load(deck, rules, bank, level)
    except TableError as exc:
        raise SpotError(str(exc)) from None


def make_context(table: str | Deck | Table, rules: Rules | None = None, bank: Sequence[int] = DEFAULT_BANK,
                 level: int = 0) -> Context:
    """The shared context of a run on a table (given, or loaded from its parts)."""
    if not isinstance(table, Table):
        table = load_table(table, rules, bank, level)
    return Context(table.deck, table.rules, table.bank, table.level)
