"""Effect-card decks as data: TOML files, a validating loader, and arrays for the kernels.

A deck file lists **every** card of its game once, with the corner values and the
effect printed on it (RULES §1.1, §1.7)::

    [deck]
    name = "mine"
    game = "dilemma"
    description = "the cards of my copy of the game"

    [cards]
    As = { plus = 10, minus = 0, colour = "green", effect = "dividend", amount = 30 }
    2s = { plus = 0, minus = 0, colour = "green", effect = "insurance" }
    4s = { plus = 20, minus = 10 }

``plus`` and ``minus`` are required (dollars, multiples of 10, may be 0);
``colour`` (none/green/blue/red) and ``effect`` default to none; ``amount`` is
dollars for dividend/levy/subsidy/crash/windfall, a factor for boom/slump/bubble,
and absent for insurance/rebate. ``[cards.As]`` tables work as well as the
one-line form. ``10s`` may also be written ``Ts``. Dollar figures are 0 to
:data:`MAX_DOLLARS`, factors 0 to :data:`MAX_FACTOR`. The file is UTF-8 text (a
leading byte-order mark is allowed).

Shipped decks (``load_deck("reference")``): ``reference`` (RULES §1.7, assumed
values), ``plain`` (same corners, no effects), ``bare`` (no corners, no effects:
pure poker on 40 cards) and ``holdem`` (the 52-card standard deck, nothing on it).

(Over 500 lines: the deck format's validation names the file, card, line and field
for every rule of the format; the loader, the checks and the arrays share one schema.)
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from analysis.core.text import decode_utf8
from evaluator.cards import parse_cards
from evaluator.errors import LabError
from evaluator.spec import GAMES, GameSpec, get_game

from ..effects import (
    COLOUR_BLUE,
    COLOUR_GREEN,
    COLOUR_RED,
    COLOURS,
    KIND_BY_NAME,
    KINDS,
    OP_NONE,
    AmountKind,
    colours_allowed,
)

BUILTIN_DECKS: tuple[str, ...] = ("reference", "plain", "bare", "holdem")
"""Names of the decks shipped inside the package (``analysis/decks/data/*.toml``)."""

MAX_DOLLARS = 10_000
"""Largest dollar figure on a card (corner or effect amount): ten starting stacks ($1,000,
RULES §1.1), more than the whole starting bank ($1,500) and nearly all the money of a full
ten-player table ($11,500); every payment is capped at what the payer holds anyway. The bound
also keeps every sum of the int64 settlement core far from overflow."""
MAX_FACTOR = 100
"""Largest multiplier (boom, slump, bubble): five of them on one board stay within int64."""

_CARD_FIELDS = ("plus", "minus", "colour", "effect", "amount")
_DECK_FIELDS = ("name", "game", "description", "assumed")


# rows of Deck.kernel_args (int64[N_DROWS, n_cards]), the ``deck`` argument of every kernel
D_COLOUR, D_PLUS, D_MINUS, D_OP, D_AMOUNT = range(5)
N_DROWS = 5


class DeckError(LabError):
    """A deck file or deck name that cannot be used; names the file, the card and the field."""


@dataclass(frozen=True, eq=False)
class Deck:
    """A validated deck: per card id its colour code, corner values, effect opcode and amount.

    Arrays are read-only and indexed by card id (``rank * 4 + suit``). Pass
    :attr:`kernel_args` to numba kernels.
    """

    name: str
    game: str
    description: str
    source: str
    colour: np.ndarray  # int8[n_cards]: 0 none, 1 green, 2 blue, 3 red
    plus: np.ndarray  # int64[n_cards]: bonus corner, dollars
    minus: np.ndarray  # int64[n_cards]: penalty corner, dollars
    opcode: np.ndarray  # int8[n_cards]: analysis.effects.OP_*
    amount: np.ndarray  # int64[n_cards]: dollars or factor, by kind
    assumed: bool = False
    fingerprint: str = ""

    @property
    def spec(self) -> GameSpec:
        """The game spec of the deck's cards."""
        return get_game(self.game)

    @property
    def n_cards(self) -> int:
        """Number of cards in the deck."""
        return int(self.colour.shape[0])

    def __post_init__(self) -> None:
        rows = {D_COLOUR: self.colour, D_PLUS: self.plus, D_MINUS: self.minus,
                D_OP: self.opcode, D_AMOUNT: self.amount}
        table = np.stack([np.asarray(rows[r], dtype=np.int64) for r in range(N_DROWS)])
        table.setflags(write=False)
        object.__setattr__(self, "_kernel_table", table)

    @property
    def kernel_args(self) -> np.ndarray:
        """The int64 array kernels take as ``deck``: rows colour, plus, minus, opcode, amount
        (``D_COLOUR .. D_AMOUNT`` above), one column per card id."""
        return self._kernel_table  # type: ignore[attr-defined]

    @property
    def label(self) -> str:
        """Name and fingerprint, for provenance (``reference@1a2b3c4d5e6f7a8b``)."""
        return f"{self.name}@{self.fingerprint}"

    def effect_cards(self) -> list[int]:
        """Card ids that carry an effect, ascending."""
        return [int(c) for c in np.nonzero(self.opcode != OP_NONE)[0]]

    def card_name(self, card: int) -> str:
        """The card's name, e.g. ``10s``."""
        return self.spec.card_name(card)

    def colour_name(self, card: int) -> str:
        """The colour name of a card (``none``, ``green``, ``blue``, ``red``)."""
        return COLOURS[int(self.colour[card])]

    def effect_text(self, card: int) -> str:
        """The card's effect in words (``"boom 2: the bonus is multiplied by 2"``), or ``""``."""
        op = int(self.opcode[card])
        return "" if op == OP_NONE else KINDS[op].describe(int(self.amount[card]))

    def effect_label(self, card: int) -> str:
        """The card's effect as written in a deck file (``"boom 2"``, ``"insurance"``), or ``""``."""
        op = int(self.opcode[card])
        if op == OP_NONE:
            return ""
        kind = KINDS[op]
        return (
            kind.name if kind.amount is AmountKind.NONE else f"{kind.name} {int(self.amount[card])}"
        )

    def suit_permutations(self) -> list[tuple[int, ...]]:
        """The suit permutations that leave every card's data (colour, corners, effect,
        amount) unchanged, identity first: only these may merge suit-symmetric deals in a
        computation whose money depends on the cards (derived from the data, see
        :func:`evaluator.suits.suit_permutations_preserving`)."""
        from evaluator.suits import suit_permutations_preserving

        return suit_permutations_preserving(self.kernel_args)

    def to_toml(self, template: bool = False) -> str:
        """The deck as a TOML file that :func:`load_deck` reads back to the same deck; with
        ``template``, a starting point for the user's own cards: named ``mine``, described as
        the user's, with what to edit and the effect vocabulary in comments."""
        name, description, assumed = self.name, self.description, self.assumed
        if template:
            name = "mine"
            description = (f"My copy of the game's cards (started from the {self.name} deck: "
                           "edit every value to match the printed cards)")
        lines = [
            *(_TEMPLATE_HEAD if template else []),
            "[deck]",
            f"name = {_toml_str(name)}",
            f"game = {_toml_str(self.game)}",
            f"description = {_toml_str(description)}",
        ]
        if template:
            lines.append(f"assumed = {'true' if assumed else 'false'}  # false once every value "
                         "below is from your printed cards")
        elif assumed:
            lines.append("assumed = true")
        lines += [
            "",
            "# One line per card: plus and minus are the corner values in dollars (0 allowed);",
            '# colour = "green" | "blue" | "red" and effect = "<kind>", amount = n for effect cards.',
            *(_vocabulary_lines() if template else []),
            "[cards]",
        ]
        for card in range(self.n_cards):
            fields = [f"plus = {int(self.plus[card])}", f"minus = {int(self.minus[card])}"]
            op = int(self.opcode[card])
            if op != OP_NONE:
                kind = KINDS[op]
                fields.append(f'colour = "{self.colour_name(card)}"')
                fields.append(f'effect = "{kind.name}"')
                if kind.amount is not AmountKind.NONE:
                    fields.append(f"amount = {int(self.amount[card])}")
            lines.append(f"{self.card_name(card)} = {{ {', '.join(fields)} }}")
        return "\n".join(lines) + "\n"


_TEMPLATE_HEAD = (
    "# Your deck: edit `name` and `description`, every card's plus and minus (the corner",
    "# values printed on your cards) and the effect cards, then set `assumed = false`.",
    "# Check it with `dilemma deck --deck THIS_FILE`; use it with --deck THIS_FILE.",
    "",
)


def _vocabulary_lines() -> list[str]:
    """The effect vocabulary as TOML comments (one line per kind, with its amount)."""
    out = ["# Effects (amount: dollars in $10 units, or a factor; none: no amount):"]
    for kind in KINDS[1:]:
        amount = {AmountKind.NONE: "no amount", AmountKind.DOLLARS: "amount = dollars",
                  AmountKind.FACTOR: "amount = factor"}[kind.amount]
        out.append(f"#   {kind.name:<10} ({amount}): {kind.meaning.format(n='n')}")
    return out


def _toml_str(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _key_line(text: str, key: str) -> int | None:
    """Line number (1-based) where a card key is defined in the raw TOML text, if found."""
    pattern = re.compile(
        rf'^\s*(\[\s*cards\s*\.\s*)?["\']?{re.escape(key)}["\']?\s*(=|\])', re.IGNORECASE
    )
    for number, line in enumerate(text.splitlines(), start=1):
        if pattern.match(line):
            return number
    return None


class _Reporter:
    """Builds one-line errors naming the file, the card, the field and the line."""

    def __init__(self, source: str, text: str) -> None:
        self.source = source
        self.text = text

    def fail(self, problem: str, card: str | None = None, field: str | None = None) -> DeckError:
        where = [self.source]
        if card is not None:
            line = _key_line(self.text, card)
            where.append(f"card {card}" + (f" (line {line})" if line else ""))
        if field is not None:
            where.append(f"field {field!r}")
        return DeckError(f"{', '.join(where)}: {problem}")


def _shown(value: Any) -> str:
    """``repr`` of a value, shortened if it is very long (a number of 4,000 digits)."""
    text = repr(value)
    if len(text) <= 24:
        return text
    if isinstance(value, int):
        return f"a number of {len(text.lstrip('-'))} digits"
    return text[:20] + "..."


def _dollars(value: Any, rep: _Reporter, card: str, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise rep.fail(f"must be a whole number of dollars, got {_shown(value)}", card, field)
    if value < 0:
        raise rep.fail(f"must not be negative, got {_shown(value)}", card, field)
    if value > MAX_DOLLARS:
        raise rep.fail(
            f"must be 0 to {MAX_DOLLARS} dollars (a multiple of 10), got {_shown(value)}",
            card,
            field,
        )
    if value % 10:
        raise rep.fail(f"must be a multiple of $10, got {value}", card, field)
    return value


def parse_deck(text: str, source: str = "<deck>") -> Deck:
    """Validate the text of a deck file and compile it to a :class:`Deck` (errors name the card)."""
    text = text.removeprefix("\ufeff")  # a byte-order mark, as some editors write
    rep = _Reporter(source, text)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DeckError(f"{source}: not valid TOML: {exc}") from None
    except RecursionError:
        raise DeckError(f"{source}: not valid TOML: nested too deeply") from None
    except ValueError:  # an integer longer than Python reads (4300 digits by default)
        raise DeckError(f"{source}: not valid TOML: a number has too many digits") from None
    unknown = sorted(set(data) - {"deck", "cards"})
    if unknown:
        raise rep.fail(f"unknown section {unknown[0]!r}: a deck file has [deck] and [cards]")
    head = data.get("deck", {})
    if not isinstance(head, dict):
        raise rep.fail("[deck] must be a table with name, game and description")
    for key in head:
        if key not in _DECK_FIELDS:
            raise rep.fail(f"unknown [deck] field {key!r}: use {', '.join(_DECK_FIELDS)}")
    name = head.get("name", Path(source).stem)
    game_name = head.get("game", "dilemma")
    description = head.get("description", "")
    assumed = head.get("assumed", False)
    if not isinstance(name, str) or not name.strip():
        raise rep.fail("[deck] name must be a non-empty string")
    if not isinstance(description, str):
        raise rep.fail("[deck] description must be a string")
    if not isinstance(assumed, bool):
        raise rep.fail("[deck] assumed must be true or false")
    try:
        spec = get_game(str(game_name))
    except LabError as exc:
        raise rep.fail(f"[deck] game: {exc}") from None
    cards = data.get("cards")
    if not isinstance(cards, dict) or not cards:
        raise rep.fail(f"no [cards] table: list all {spec.n_cards} cards of the {spec.name} deck")

    n = spec.n_cards
    colour = np.zeros(n, np.int8)
    plus = np.zeros(n, np.int64)
    minus = np.zeros(n, np.int64)
    opcode = np.zeros(n, np.int8)
    amount = np.zeros(n, np.int64)
    seen: dict[int, str] = {}
    for key, row in cards.items():
        try:
            ids = parse_cards(key, spec)
        except LabError as exc:
            raise rep.fail(f"unknown card: {exc}", key) from None
        if len(ids) != 1:
            raise rep.fail("each key must be exactly one card", key)
        card = ids[0]
        if card in seen:
            raise rep.fail(
                f"duplicate card: {spec.card_name(card)} is also listed as {seen[card]!r}", key
            )
        seen[card] = key
        if not isinstance(row, dict):
            raise rep.fail("must be a table like { plus = 10, minus = 0 }", key)
        row = dict(row)
        if "color" in row:
            if "colour" in row:
                raise rep.fail("give colour or color, not both", key, "color")
            row["colour"] = row.pop("color")
        for field in row:
            if field not in _CARD_FIELDS:
                raise rep.fail(f"unknown field: use {', '.join(_CARD_FIELDS)}", key, field)
        for field in ("plus", "minus"):
            if field not in row:
                raise rep.fail("missing: every card needs plus and minus (0 if blank)", key, field)
        plus[card] = _dollars(row["plus"], rep, key, "plus")
        minus[card] = _dollars(row["minus"], rep, key, "minus")
        colour_name = row.get("colour", "none")
        if not isinstance(colour_name, str) or colour_name.lower() not in COLOURS:
            raise rep.fail(f"bad colour {colour_name!r}: use {', '.join(COLOURS)}", key, "colour")
        colour_name = colour_name.lower()
        kind_name = row.get("effect", "none")
        if not isinstance(kind_name, str) or kind_name.lower() not in KIND_BY_NAME:
            raise rep.fail(
                f"unknown effect kind {kind_name!r}: use {', '.join(KIND_BY_NAME)}", key, "effect"
            )
        kind = KIND_BY_NAME[kind_name.lower()]
        allowed = colours_allowed(kind)
        if colour_name not in allowed:
            if kind.op == OP_NONE:
                raise rep.fail(f"a {colour_name} card needs an effect", key, "effect")
            raise rep.fail(
                f"effect {kind.name} needs colour {' or '.join(allowed)}, not {colour_name}",
                key,
                "colour",
            )
        value = row.get("amount")
        if kind.amount is AmountKind.NONE:
            if value is not None and (type(value) is not int or value != 0):
                raise rep.fail(f"effect {kind.name} takes no amount", key, "amount")
            value = 0
        elif value is None:
            unit = "dollars" if kind.amount is AmountKind.DOLLARS else "a factor"
            raise rep.fail(f"missing: effect {kind.name} needs an amount ({unit})", key, "amount")
        elif kind.amount is AmountKind.DOLLARS:
            value = _dollars(value, rep, key, "amount")
        else:
            if isinstance(value, bool) or not isinstance(value, int):
                raise rep.fail(f"must be a whole-number factor, got {_shown(value)}", key, "amount")
            if value < 0:
                raise rep.fail(f"must not be negative, got {_shown(value)}", key, "amount")
            if value > MAX_FACTOR:
                raise rep.fail(
                    f"must be a factor 0 to {MAX_FACTOR}, got {_shown(value)}", key, "amount"
                )
        colour[card] = COLOURS.index(colour_name)
        opcode[card] = kind.op
        amount[card] = value
    missing = [spec.card_name(c) for c in range(n) if c not in seen]
    if missing:
        shown = " ".join(missing[:8]) + (" ..." if len(missing) > 8 else "")
        raise rep.fail(
            f"missing card{'s' if len(missing) > 1 else ''} ({len(missing)} of {n}): {shown}; "
            "every card must be listed"
        )
    for arr in (colour, plus, minus, opcode, amount):
        arr.setflags(write=False)
    fingerprint = _fingerprint(spec.name, colour, plus, minus, opcode, amount)
    return Deck(
        name=name.strip(),
        game=spec.name,
        description=description,
        source=source,
        colour=colour,
        plus=plus,
        minus=minus,
        opcode=opcode,
        amount=amount,
        assumed=assumed,
        fingerprint=fingerprint,
    )


def _fingerprint(game: str, *arrays: np.ndarray) -> str:
    """A short hash of the game and the per-card data (not the name, description or file)."""
    h = hashlib.sha256(game.encode())
    for arr in arrays:
        h.update(np.ascontiguousarray(arr, dtype=np.int64).tobytes())
    return h.hexdigest()[:16]


def builtin_path(name: str) -> Path:
    """The file of a shipped deck (a path inside the installed package)."""
    return Path(str(resources.files(__name__).joinpath("data", f"{name}.toml")))


_CACHE: dict[tuple[str, float], Deck] = {}


def load_deck(name_or_path: str | Path | Deck = "reference") -> Deck:
    """A shipped deck by name (``reference``, ``plain``, ``bare``, ``holdem``), a TOML file by
    path, or the plain deck of a registered game without a deck of its own, by the game's name."""
    if isinstance(name_or_path, Deck):
        return name_or_path
    text_name = str(name_or_path).strip()
    game = GAMES.get(text_name.lower())
    if (text_name.lower() not in BUILTIN_DECKS and game is not None and not game.deck
            and not Path(text_name).is_file()):
        return plain_deck(game)
    if text_name.lower() in BUILTIN_DECKS and not Path(text_name).is_file():
        path = builtin_path(text_name.lower())
        label = f"{text_name.lower()}.toml (built in)"
    else:
        path = Path(text_name).expanduser()
        label = str(path)
        if not path.is_file():
            if path.suffix or "/" in text_name or "\\" in text_name:
                raise DeckError(f"deck file {text_name!r} not found")
            raise DeckError(
                f"unknown deck {text_name!r}: use one of {', '.join(BUILTIN_DECKS)} or a path to a TOML file"
            )
    try:
        stamp = path.stat().st_mtime
        key = (str(path.resolve()), stamp)
        if key in _CACHE:
            return _CACHE[key]
        data = path.read_bytes()
    except OSError as exc:
        raise DeckError(f"cannot read deck file {label}: {exc.strerror or exc}") from None
    deck = parse_deck(decode_utf8(data, label, DeckError), label)
    _CACHE[key] = deck
    return deck


@cache
def plain_deck(spec: GameSpec) -> Deck:
    """The cards of ``spec`` with no corner values and no effects, named after the game (the
    deck of a variant defined as data; ``holdem`` ships the same for the 52 cards)."""
    n = spec.n_cards
    zero = np.zeros(n, np.int64)
    tiny = np.zeros(n, np.int8)
    return Deck(name=spec.name, game=spec.name, description=f"The {n} cards of {spec.name}: no corner values, "
                "no effects.", source=f"{spec.name} (the plain deck of the game)", colour=tiny, plus=zero,
                minus=zero.copy(), opcode=tiny.copy(), amount=zero.copy(),
                fingerprint=_fingerprint(spec.name, tiny, zero, zero, tiny, zero))


def reference_corners(card: int) -> tuple[int, int]:
    """The reference deck's corner values of a 40-card id by the RULES §1.7 formula: (plus, minus)."""
    r, s = divmod(int(card), 4)
    return 10 * ((r + s) % 3), 10 * ((2 * r + s) % 3)


REFERENCE_EFFECTS: dict[str, tuple[str, str, int]] = {
    "As": ("green", "dividend", 30),
    "Ah": ("green", "dividend", 30),
    "2s": ("green", "insurance", 0),
    "2h": ("green", "insurance", 0),
    "7s": ("blue", "boom", 2),
    "7h": ("blue", "slump", 2),
    "8s": ("blue", "levy", 20),
    "8h": ("blue", "rebate", 0),
    "9s": ("blue", "subsidy", 10),
    "10s": ("red", "crash", 50),
    "10h": ("red", "bubble", 3),
    "Ad": ("red", "windfall", 100),
}
"""The twelve effect cards of the reference deck (RULES §1.7): card -> (colour, kind, amount)."""


def build_builtin(name: str) -> Deck:
    """Build a shipped deck from its definition in code (the generator of ``data/*.toml``)."""
    game = "holdem" if name == "holdem" else "dilemma"
    spec = get_game(game)
    n = spec.n_cards
    colour = np.zeros(n, np.int8)
    plus = np.zeros(n, np.int64)
    minus = np.zeros(n, np.int64)
    opcode = np.zeros(n, np.int8)
    amount = np.zeros(n, np.int64)
    descriptions = {
        "reference": "Reference deck of RULES 1.7: ASSUMED corner values (plus = 10*((r+s) mod 3), "
        "minus = 10*((2r+s) mod 3)) and 12 assumed effect cards; the real cards are not in the sources.",
        "plain": "The reference deck's corner values (ASSUMED, RULES 1.7) with no effect cards.",
        "bare": "No corner values and no effects: pure poker on the 40-card deck.",
        "holdem": "The 52-card standard deck: no corner values, no effects.",
    }
    if name not in descriptions:
        raise DeckError(f"unknown built-in deck {name!r}")
    if name in ("reference", "plain"):
        for card in range(n):
            plus[card], minus[card] = reference_corners(card)
    if name == "reference":
        for text, (col, kind, amt) in REFERENCE_EFFECTS.items():
            card = parse_cards(text, spec)[0]
            colour[card] = COLOURS.index(col)
            opcode[card] = KIND_BY_NAME[kind].op
            amount[card] = amt
    return Deck(
        name=name,
        game=game,
        description=descriptions[name],
        source=f"{name} (built from code)",
        colour=colour,
        plus=plus,
        minus=minus,
        opcode=opcode,
        amount=amount,
        assumed=name in ("reference", "plain"),
        fingerprint=_fingerprint(game, colour, plus, minus, opcode, amount),
    )


__all__ = [
    "BUILTIN_DECKS",
    "COLOUR_BLUE",
    "COLOUR_GREEN",
    "COLOUR_RED",
    "MAX_DOLLARS",
    "MAX_FACTOR",
    "Deck",
    "DeckError",
    "build_builtin",
    "builtin_path",
    "load_deck",
    "parse_deck",
    "plain_deck",
    "reference_corners",
]
