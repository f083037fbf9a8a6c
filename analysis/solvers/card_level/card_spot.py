"""A card-level spot as data: deck, board, two ranges, pot, stack and a bet tree.

The bet tree is stated the way postflop-solver's ``TreeConfig`` states it, so a
Texas Hold'em tree can be written identically for both solvers: per street, the
bet sizes (when nobody has bet) and the raise sizes (when facing a bet) of each
player, as fractions of the pot (``50%``), multiples of the last bet (``2.5x``,
raises only) or all-in (``a``); an all-in added when it is at most
``add_allin_threshold`` times the pot, a bet turned into an all-in when the
stack left behind would be at most ``force_allin_threshold`` times the pot, no
donk sizes and no merging. ``raise_cap`` (bets and raises per street, 0 = no
cap) is the lab's addition; postflop-solver has none.

Two games. ``holdem`` (Texas Hold'em rules, the default): terminal values are
the pot (a fold gives it to the other player, a showdown to the best hand, split
on a tie); decks ``holdem`` (52 cards) and ``dilemma`` (the 40-card deck played
for the pot). ``dilemma`` (Dilemma Hold'em, RULES §1): a :class:`DilemmaTable`
(deck with its corners and effects, rule options, bank, blind level) and every
terminal settled by the real settlement (:mod:`.dilemma_terminals`); amounts are whole $10
units, the smallest bet is the big blind of the level, and ``free_fold`` lets a
player fold when nobody has bet (RULES §1.2: legal, and the question of §1.6).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from analysis.dilemma.spot import Spot
from evaluator import GameSpec, get_game, parse_cards

from ..errors import SolverError
from .dilemma_terminals import DilemmaTable

__all__ = [
    "BetSize",
    "BetTree",
    "CardSpot",
    "SpotError",
    "StreetSizes",
    "parse_sizes",
]

STREETS = ("flop", "turn", "river")
SEATS = ("oop", "ip")
"""The heads-up seats by player index (order of action), as spot files, ``--lock`` and answers name them."""
SEATS3 = ("first", "second", "third")
"""The three-handed seats by player index (order of action; the third is the DEALER's)."""
BOARD_SIZES = {3: 0, 4: 1, 5: 2}
"""Board length -> index of the street the spot starts on."""


def seat_names(players: int) -> tuple[str, ...]:
    """The seats of a spot of ``players`` players (2 or 3)."""
    return SEATS3 if players == 3 else SEATS


POT, PREV, ALLIN = "pot", "prev", "allin"
CHIP_UNIT = 10
"""Dilemma Hold'em's chips come in $10 units (RULES §1.8)."""
_SIZE_RE = re.compile(r"^(\d+(?:\.\d*)?|\.\d+)(%|x)$")


class SpotError(SolverError):
    """A spot (board, ranges, amounts, bet sizes) that cannot be solved (one-line message)."""


@dataclass(frozen=True, order=True)
class BetSize:
    """One bet or raise size: ``pot`` fraction, ``prev`` multiple of the last bet, or ``allin``."""

    kind: str
    value: float = 0.0

    def __str__(self) -> str:
        if self.kind == ALLIN:
            return "a"
        if self.kind == PREV:
            return f"{self.value:g}x"
        return f"{100 * self.value:g}%"


def parse_sizes(text: str, *, raise_sizes: bool) -> tuple[BetSize, ...]:
    """Sizes from text such as ``"50%, a"`` or ``"2.5x"`` (``x`` only for raises)."""
    out: list[BetSize] = []
    for token in (t.strip() for t in str(text).split(",")):
        if not token:
            continue
        if token.lower() == "a":
            out.append(BetSize(ALLIN))
            continue
        m = _SIZE_RE.match(token.lower())
        if not m:
            raise SpotError(f"bad bet size {token!r}: use 50% (of the pot), 2.5x (of the last bet) or a (all-in)")
        value = float(m.group(1))
        if m.group(2) == "x":
            if not raise_sizes:
                raise SpotError(f"bet size {token!r}: a multiple of the last bet is for raises only")
            if value <= 1.0:
                raise SpotError(f"raise size {token!r} must be more than 1x the last bet")
            out.append(BetSize(PREV, value))
        else:
            if value <= 0.0:
                raise SpotError(f"bet size {token!r} must be positive")
            out.append(BetSize(POT, value / 100.0))
    return tuple(sorted(set(out)))


@dataclass(frozen=True)
class StreetSizes:
    """Bet sizes (nobody has bet yet) and raise sizes (facing a bet) on one street."""

    bets: tuple[BetSize, ...] = ()
    raises: tuple[BetSize, ...] = ()

    @classmethod
    def parse(cls, bets: str, raises: str) -> StreetSizes:
        """From texts such as ``("50%, a", "100%")``."""
        return cls(parse_sizes(bets, raise_sizes=False), parse_sizes(raises, raise_sizes=True))

    def describe(self) -> dict:
        """``{"bets": "50%, a", "raises": "100%"}`` (parses back with :meth:`parse`)."""
        return {"bets": ", ".join(map(str, self.bets)), "raises": ", ".join(map(str, self.raises))}


@dataclass(frozen=True)
class BetTree:
    """Sizes per street and player (``sizes[street][player]``) and the all-in rules."""

    sizes: tuple[tuple[StreetSizes, StreetSizes], ...]
    add_allin_threshold: float = 0.0
    force_allin_threshold: float = 0.0
    raise_cap: int = 0
    free_fold: bool = False
    """Allow folding when nobody has bet (a ``fold`` beside ``check``)."""

    def __post_init__(self) -> None:
        if len(self.sizes) != len(STREETS):
            raise SpotError("a bet tree has sizes for the flop, turn and river")
        if self.add_allin_threshold < 0 or self.force_allin_threshold < 0:
            raise SpotError("all-in thresholds must be non-negative")
        if self.raise_cap < 0:
            raise SpotError("the raise cap must be non-negative (0 = no cap)")

    @classmethod
    def uniform(cls, bets: str, raises: str, **options: float) -> BetTree:
        """The same sizes on every street for both players (postflop-solver's usual setup)."""
        street = StreetSizes.parse(bets, raises)
        return cls(tuple((street, street) for _ in STREETS), **options)  # type: ignore[arg-type]

    def describe(self) -> dict:
        """A JSON-able description (for manifests and solution files); ``free_fold`` only when set."""
        out = {
            "sizes": {s: [p.describe() for p in self.sizes[i]] for i, s in enumerate(STREETS)},
            "add_allin_threshold": self.add_allin_threshold,
            "force_allin_threshold": self.force_allin_threshold,
            "raise_cap": self.raise_cap,
        }
        if self.free_fold:
            out["free_fold"] = True
        return out

    @classmethod
    def from_dict(cls, d: dict) -> BetTree:
        """The tree :meth:`describe` wrote."""
        sizes = tuple(tuple(StreetSizes.parse(p["bets"], p["raises"]) for p in d["sizes"][s]) for s in STREETS)
        return cls(sizes, float(d["add_allin_threshold"]), float(d["force_allin_threshold"]),  # type: ignore[arg-type]
                   int(d["raise_cap"]), bool(d.get("free_fold", False)))


def _typed(value: object, kind: type, key: str):  # type: ignore[no-untyped-def]
    """``value`` as ``kind`` (int, float or bool), or a :class:`SpotError` naming ``key``."""
    if kind is bool:
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in ("true", "false"):
            return text == "true"
        raise SpotError(f"{key} = {value!r}: true or false")
    try:
        if isinstance(value, bool):
            raise ValueError
        number = float(value)  # type: ignore[arg-type]
        if not np.isfinite(number) or (kind is int and number != int(number)):
            raise ValueError
        return kind(number)
    except (TypeError, ValueError):
        raise SpotError(f"{key} = {value!r}: {'a whole number' if kind is int else 'a finite number'}") from None


def _sizes_text(value: object) -> str:
    """Sizes as text: ``"50%, a"``, or a TOML list ``["50%", "a"]``."""
    return ", ".join(map(str, value)) if isinstance(value, list | tuple) else str(value)


SIZE_KEYS = ("bets", "raises")
STREET_KEYS = (*SIZE_KEYS, "oop", "ip")


def bet_tree_from(tree: dict, game: str) -> BetTree:
    """The bet tree of a spot file's ``[tree]`` table (and the options given for it): ``bets`` and
    ``raises`` for every street and player; per street ``[tree.flop]`` etc. with ``bets`` and
    ``raises`` for both players, and per player ``[tree.flop.oop]``, ``[tree.flop.ip]`` (as
    postflop-solver's ``TreeConfig`` gives ``[oop, ip]`` sizes per street; three-handed, the first
    player's are ``oop``'s and the second's and third's ``ip``'s); a size not given is the one above
    it. Unknown keys and values of the wrong type are one error naming the key."""
    unknown = sorted(set(tree) - set(TREE_KEYS) - set(STREETS))
    if unknown:
        raise SpotError(f"unknown key 'tree.{unknown[0]}': the tree takes {', '.join(TREE_KEYS)} and the "
                        f"tables {', '.join(STREETS)}")
    default = {k: _sizes_text(tree.get(k, d)) for k, d in zip(SIZE_KEYS, ("50%, a", "100%"), strict=True)}
    sizes = []
    for street in STREETS:
        own = tree.get(street, {})
        if not isinstance(own, dict):
            raise SpotError(f"tree.{street} = {own!r}: a table of {', '.join(STREET_KEYS)}")
        bad = sorted(set(own) - set(STREET_KEYS))
        if bad:
            raise SpotError(f"unknown key 'tree.{street}.{bad[0]}': a street takes {', '.join(STREET_KEYS)}")
        both = {k: _sizes_text(own.get(k, default[k])) for k in SIZE_KEYS}
        pair = []
        for seat in ("oop", "ip"):
            mine = own.get(seat, {})
            if not isinstance(mine, dict) or set(mine) - set(SIZE_KEYS):
                raise SpotError(f"tree.{street}.{seat}: a table of bets and raises, e.g. {{ bets = \"50%, a\", "
                                "raises = \"2.5x\" }")
            texts = {k: _sizes_text(mine.get(k, both[k])) for k in SIZE_KEYS}
            try:
                pair.append(StreetSizes.parse(texts["bets"], texts["raises"]))
            except SpotError as exc:
                raise SpotError(f"tree.{street}.{seat}: {exc}") from None
        sizes.append(tuple(pair))
    return BetTree(tuple(sizes),  # type: ignore[arg-type]
                   _typed(tree.get("add_allin_threshold", 0.0), float, "add_allin_threshold"),
                   _typed(tree.get("force_allin_threshold", 0.0), float, "force_allin_threshold"),
                   _typed(tree.get("raise_cap", 0), int, "raise_cap"),
                   _typed(tree.get("free_fold", game == "dilemma"), bool, "free_fold"))


def tree_options(items: Sequence[str]) -> dict:
    """``--tree KEY=VALUE`` items (``flop.oop.bets=60%, a``, ``add_allin_threshold=1.5``) as the
    nested table a spot file's ``[tree]`` holds."""
    out: dict = {}
    for item in items:
        key, sep, value = item.partition("=")
        path = [k.strip() for k in key.split(".")]
        if not sep or not all(path):
            raise SpotError(f"--tree {item!r}: write KEY=VALUE, e.g. turn.ip.bets=\"33%, a\" or raise_cap=3")
        node = out
        for k in path[:-1]:
            node = node.setdefault(k, {})
            if not isinstance(node, dict):
                raise SpotError(f"--tree {item!r}: {k} is given a value and a table")
        node[path[-1]] = value.strip().strip('"')
    return out


def _merge(into: dict, extra: dict) -> dict:
    """``extra``'s keys over ``into``'s, tables merged key by key."""
    out = dict(into)
    for k, v in extra.items():
        out[k] = _merge(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


GAMES = ("holdem", "dilemma")
"""``holdem``: Texas Hold'em rules (the pot only); ``dilemma``: Dilemma Hold'em's settlement."""
SPOT_KEYS = ("game", "deck", "board", "oop", "ip", "pot", "stack", "bank", "level", "rules", "ranges", "players")
TREE_KEYS = ("bets", "raises", "add_allin_threshold", "force_allin_threshold", "raise_cap", "free_fold")


def _ranges_to_seats(data: dict) -> None:
    """``ranges`` (and ``players``) into ``oop``, ``ip`` and ``third`` (three-handed), in place."""
    ranges = data.pop("ranges", None)
    players = data.pop("players", None)
    if ranges is not None:
        if isinstance(ranges, str) or not isinstance(ranges, list | tuple):
            raise SpotError("ranges: a list of one range per player, e.g. [\"8s7s\", \"random\", \"random\"]")
        if "oop" in data or "ip" in data:
            raise SpotError("give the ranges once: either ranges (--range, once a player) or oop and ip (--oop, --ip)")
        data["oop"], data["ip"], *rest = [*ranges, None, None][: max(len(ranges), 2)]
        if rest:
            data["third"] = rest[0]
    count = 2 + ("third" in data) if ranges is None else len(ranges)
    if players is not None and int(players) != count or count not in (2, 3):
        raise SpotError(f"players {players if players is not None else count}: give one range per player, two or "
                        f"three (got {count})")


@dataclass(frozen=True)
class CardSpot:
    """A spot for the card-level solver: the situation (the shared
    :class:`analysis.dilemma.spot.Spot`, one range per player in the order of action: two
    heads-up, player 0 out of position and first on every street, or three, :mod:`.multiway`)
    with the solver's own parts, the bet tree and, in Dilemma Hold'em, the
    :class:`DilemmaTable` (the table with its rule options as given, for solution files).

    The cards are the table's deck (``table=None``: Texas Hold'em rules on the evaluator's
    ``spot.deck``, ``holdem`` by default). ``stack`` is what each player has behind at the root
    and ``pot`` what is in the middle (put in evenly). ``board`` (card ids) and ``ranges``
    (:class:`analysis.studies.ranges.Range`) are the spot's texts parsed.
    """

    spot: Spot
    tree: BetTree = field(default_factory=lambda: BetTree.uniform("50%, a", "100%"))
    table: DilemmaTable | None = None
    board: tuple[int, ...] = field(init=False, compare=False, repr=False)
    ranges: tuple = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        from analysis.studies.ranges import RangeError, parse_range

        if self.table is not None:
            object.__setattr__(self, "spot", replace(self.spot, table=self.table.table, deck=None))
        spec = self.spec
        if self.spot.stack is None:
            raise SpotError("a solver spot states the stack behind each player")
        try:
            board = tuple(parse_cards(self.spot.board, spec)) if self.spot.board else ()
        except ValueError as exc:
            raise SpotError(f"board {self.spot.board!r}: {exc}") from None
        ranges = []
        for p, text in enumerate(self.spot.hands):
            try:
                ranges.append(parse_range(str(text), spec))
            except (RangeError, ValueError) as exc:
                names = seat_names(len(self.spot.hands))
                seat = names[p] if p < len(names) else f"player {p}"
                raise SpotError(f"range of {seat} {str(text)!r}: {exc}") from None
        ranges = tuple(ranges)
        object.__setattr__(self, "board", board)
        object.__setattr__(self, "ranges", ranges)
        if len(self.board) not in BOARD_SIZES:
            raise SpotError(f"a board has 3, 4 or 5 cards; got {len(self.board)}")
        if not self.spot.street:
            object.__setattr__(self, "spot", replace(self.spot, street=STREETS[BOARD_SIZES[len(board)]]))
        if len(set(self.board)) != len(self.board) or not all(0 <= c < spec.n_cards for c in self.board):
            raise SpotError(f"board repeats a card or has a card outside the {spec.summary}")
        if len(self.ranges) not in (2, 3):
            raise SpotError("a spot has two ranges (heads-up) or three (three-handed)")
        for p, rng in enumerate(self.ranges):
            if not len(rng.without(self.board)):
                raise SpotError(f"range of player {p} ({rng.label}) has no holding left on this board")
        if self.pot <= 0 or self.stack < 0:
            raise SpotError(f"pot must be positive and stack non-negative (pot {self.pot}, stack {self.stack})")
        if self.table is not None:
            n = len(self.ranges)
            if self.pot % (n * CHIP_UNIT) or self.stack % CHIP_UNIT:
                raise SpotError(f"dilemma: chips come in ${CHIP_UNIT} units and the pot is put in evenly, so "
                                f"the pot is a multiple of {n * CHIP_UNIT} and the stack of {CHIP_UNIT} "
                                f"(pot {self.pot}, stack {self.stack})")
            if not self.stack:
                raise SpotError("dilemma: a player with no chips behind is bankrupt; give a positive stack")

    @classmethod
    def of(cls, deck: str, board: str | Sequence[int], ranges: Sequence, pot: int, stack: int,
           tree: BetTree | None = None, table: DilemmaTable | None = None) -> CardSpot:
        """A spot from parts: the evaluator's ``deck`` name, the board (text or card ids), the
        ranges (texts or parsed ranges, whose labels parse back to them), pot and stack."""
        spec = get_game(deck)
        text = board if isinstance(board, str) else " ".join(spec.card_name(c) for c in board)
        hands = tuple(r if isinstance(r, str) else r.label for r in ranges)
        situation = Spot(hands, text, "", int(pot), int(stack), None if table is None else table.table,
                         None if table is not None else spec.name)
        return cls(situation, tree if tree is not None else BetTree.uniform("50%, a", "100%"), table)

    @property
    def deck(self) -> str:
        """The evaluator's name of the cards (``holdem`` or ``dilemma``)."""
        return self.table.deck.game if self.table is not None else get_game(self.spot.deck or "holdem").name

    @property
    def pot(self) -> int:
        return self.spot.pot

    @property
    def stack(self) -> int:
        return int(self.spot.stack)  # type: ignore[arg-type]

    @property
    def players(self) -> int:
        """2 (heads-up) or 3 (three-handed: player 0, the small blind's seat, acts first and
        player 2, the DEALER's seat, last; see :mod:`.multiway`)."""
        return len(self.ranges)

    @property
    def game(self) -> str:
        """``holdem`` (Texas Hold'em rules) or ``dilemma``."""
        return "holdem" if self.table is None else "dilemma"

    @property
    def zero_sum(self) -> bool:
        """Texas Hold'em rules are zero-sum; Dilemma's bank pays and takes (NashConv then)."""
        return self.table is None

    @property
    def chip_unit(self) -> int:
        """Amounts are rounded to this many chips (1; $10 in Dilemma Hold'em)."""
        return 1 if self.table is None else CHIP_UNIT

    @property
    def min_bet(self) -> int:
        """The smallest bet (1 chip as postflop-solver; the big blind in Dilemma Hold'em)."""
        return 1 if self.table is None else self.table.big_blind

    @classmethod
    def holdem(cls, board: str, oop: str, ip: str, pot: int, stack: int, bets: str = "50%, a",
               raises: str = "100%", *, deck: str = "holdem", **tree_options: float) -> CardSpot:
        """A spot from texts, e.g. ``CardSpot.holdem("Td9d6h", "66+", "QQ-22", 200, 900)``."""
        try:
            spec = get_game(deck)
        except ValueError as exc:
            raise SpotError(str(exc)) from None
        return cls(Spot((oop, ip), board, "", int(pot), int(stack), None, spec.name),
                   BetTree.uniform(bets, raises, **tree_options))

    @classmethod
    def dilemma(cls, board: str, oop: str, ip: str, pot: int, stack: int, bets: str = "100%, a",
                raises: str = "a", *, deck: str = "reference", rules: Sequence[str] | dict | None = None,
                bank: str | Sequence[int] | None = None, level: int | None = None, free_fold: bool = True,
                **tree_options: float) -> CardSpot:
        """A Dilemma Hold'em spot from texts, e.g. ``CardSpot.dilemma("4s9h3d", "random", "random", 40, 980)``."""
        table = DilemmaTable.parse(deck, rules, bank, level)
        tree = replace(BetTree.uniform(bets, raises, **tree_options), free_fold=free_fold)
        return cls(Spot((oop, ip), board, "", int(pot), int(stack), table.table), tree, table)

    @classmethod
    def multiway(cls, board: str, ranges: Sequence[str], pot: int, stack: int, bets: str = "100%, a",
                 raises: str = "a", *, game: str = "dilemma", deck: str | None = None,
                 rules: Sequence[str] | dict | None = None, bank: str | Sequence[int] | None = None,
                 level: int | None = None, free_fold: bool | None = None, **tree_options: float) -> CardSpot:
        """A three-handed spot from texts, e.g. ``CardSpot.multiway("4s9h3d6c2h", ("8s7s", "random",
        "random"), 120, 980, bank="40,700,500")`` (ranges in the order of action; the free fold
        on by default in Dilemma Hold'em)."""
        if len(ranges) != 3:
            raise SpotError(f"a three-handed spot has three ranges, not {len(ranges)}")
        if game not in GAMES:
            raise SpotError(f"unknown game {game!r}: choose one of {', '.join(GAMES)}")
        table = DilemmaTable.parse(deck, rules, bank, level) if game == "dilemma" else None
        spec = get_game(table.deck.game if table is not None else deck or "holdem")
        tree = replace(BetTree.uniform(bets, raises, **tree_options),
                       free_fold=game == "dilemma" if free_fold is None else free_fold)
        return cls.of(spec.name, board, tuple(ranges), int(pot), int(stack), tree, table)

    @classmethod
    def from_dict(cls, d: dict) -> CardSpot:
        """The spot :meth:`describe` wrote (ranges re-parsed from their text)."""
        table = DilemmaTable.from_dict(d["table"]) if d.get("game") == "dilemma" else None
        return cls.of(d["deck"], d["board"], tuple(d["ranges"]), int(d["pot"]), int(d["stack"]),
                      BetTree.from_dict(d["tree"]), table)

    @classmethod
    def from_options(cls, path: str | Path | None = None, **given: object) -> CardSpot:
        """A spot from a TOML file and/or options (options win): ``game`` (``holdem`` or
        ``dilemma``), ``deck, board, oop, ip, pot, stack`` (or ``ranges``, one range per player in
        the order of action, two or three, and optionally ``players``); for the dilemma game ``bank``,
        ``level`` and ``rules`` (a table or ``["name=value", ...]``); and a ``[tree]`` table
        (``bets, raises, add_allin_threshold, force_allin_threshold, raise_cap, free_fold``; per
        street ``[tree.flop]`` etc. with ``bets`` and ``raises``, and per player ``[tree.flop.oop]``,
        ``[tree.flop.ip]``: :func:`bet_tree_from`), any key of which ``tree=["flop.ip.bets=75%", ...]``
        (``--tree``) also sets. A wrong key or value is one :class:`SpotError` naming it and the file."""
        data: dict = {}
        if path is not None:
            try:
                data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
                raise SpotError(f"cannot read spot file {path}: {exc}") from None
        file_data = bool(data)
        options = any(v not in (None, (), []) for v in given.values())
        tree = data.pop("tree", {}) or {}
        if not isinstance(tree, dict):
            raise SpotError(f"spot file {path}: tree = {tree!r}: a table ([tree])")
        unknown = set(data) - set(SPOT_KEYS)
        if unknown:
            raise SpotError(f"spot file {path}: unknown key {sorted(unknown)[0]!r}")
        tree = _merge(tree, tree_options(given.pop("tree", None) or ()))
        for key in TREE_KEYS:
            if given.get(key) is not None:
                tree[key] = given[key]
        for key in SPOT_KEYS:
            if given.get(key) is not None:
                data[key] = given[key]
        _ranges_to_seats(data)
        missing = [k for k in ("board", "oop", "ip", "pot", "stack") if k not in data]
        if missing:
            raise SpotError(f"a spot needs {', '.join(missing)} (options --{' --'.join(missing)} or a spot file)")
        try:
            return cls.build(data, tree)
        except SpotError as exc:
            if path is None:
                raise
            where = "the options" if not file_data else f"spot file {path}" + (" and the options" if options else "")
            raise SpotError(f"{where}: {exc}") from None

    @classmethod
    def build(cls, data: dict, tree: dict) -> CardSpot:
        """A spot from plain values (see :meth:`from_options`)."""
        game = str(data.get("game", "holdem")).strip().lower()
        if game not in GAMES:
            raise SpotError(f"game {game!r}: choose {' or '.join(GAMES)}")
        table = None
        if game == "dilemma":
            level = data.get("level")
            table = DilemmaTable.parse(data.get("deck"), data.get("rules"), data.get("bank"),
                                       None if level is None else _typed(level, int, "level"))
            deck = table.deck.game
        else:
            given = [k for k in ("bank", "level", "rules") if data.get(k) is not None]
            if given:
                raise SpotError(f"{given[0]} is an option of the dilemma game (game = \"dilemma\", "
                                "--game dilemma), not of Texas Hold'em rules")
            deck = str(data.get("deck", "holdem"))
            if deck not in ("holdem", "dilemma"):
                raise SpotError(f"deck {deck!r}: Texas Hold'em rules play the holdem (52) or dilemma (40) "
                                "cards; effect decks need --game dilemma")
        spec = get_game(deck)
        texts = [data["oop"], data["ip"]] + ([data["third"]] if data.get("third") is not None else [])
        bet_tree = bet_tree_from(tree, game)
        try:
            situation = Spot(tuple(str(t) for t in texts), str(data["board"]), "", _typed(data["pot"], int, "pot"),
                             _typed(data["stack"], int, "stack"), None if table is None else table.table,
                             None if table is not None else spec.name)
        except (ValueError, TypeError, AttributeError) as exc:
            raise SpotError(str(exc)) from None
        return cls(situation, bet_tree, table)

    @property
    def spec(self) -> GameSpec:
        """The evaluator's game of the cards."""
        return self.table.deck.spec if self.table is not None else get_game(self.spot.deck or "holdem")

    @property
    def street(self) -> int:
        """0 flop, 1 turn, 2 river: the street the spot starts on."""
        return BOARD_SIZES[len(self.board)]

    def holdings(self, player: int) -> tuple[np.ndarray, np.ndarray]:
        """The player's holdings that do not touch the board: (n, 2) uint8 cards and weights."""
        rng = self.ranges[player].without(self.board)
        return rng.combos, rng.weights

    def describe(self) -> dict:
        """A JSON-able description (for manifests and solution files)."""
        spec = self.spec
        out = {
            "game": "holdem-rules" if self.table is None else "dilemma",
            "deck": self.deck,
            "board": " ".join(spec.card_name(c) for c in self.board),
            "ranges": [r.label for r in self.ranges],
            "pot": self.pot,
            "stack": self.stack,
            "tree": self.tree.describe(),
        }
        if self.table is not None:
            out["table"] = self.table.describe()
        return out
