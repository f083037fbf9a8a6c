"""The settlement of one finished hand, step by step, in readable Python (RULES §1.4-1.5, §1.8).

This is the referee's path: :func:`settle` takes the end state of a hand (a
:class:`HandState`, usually read from a JSON hand record with
:func:`load_hand_record`) and a deck, and returns a :class:`SettlementResult`
whose steps say which rule applied, what moved where, and why. The numba twin
used by simulations is :mod:`analysis._settle_kernel`; tests check that both
agree on random end states and on every worked example of RULES §1.8.

Conventions: ``stack`` is the chips a player holds *behind* after the betting,
``in`` the chips they put in the pot; streets are 0 preflop, 1 flop, 2 turn,
3 river; board cards carry the street they were dealt on. Every payment by a
player is capped at their chips, every payment by the bank at what it holds.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import numpy as np

from evaluator import describe, evaluate, format_cards, get_game, parse_cards
from evaluator.errors import LabError

from . import _settle_kernel as K
from .decks import Deck, load_deck
from .effects import (
    COLOUR_BLUE,
    COLOUR_GREEN,
    COLOUR_RED,
    KINDS,
    OP_BOOM,
    OP_BUBBLE,
    OP_CRASH,
    OP_DIVIDEND,
    OP_INSURANCE,
    OP_LEVY,
    OP_REBATE,
    OP_SLUMP,
    OP_SUBSIDY,
    OP_WINDFALL,
    RIVER,
    STREETS,
    TURN,
    street_code,
)

BOARD_SIZE_AFTER = (0, 3, 4, 5)
"""Number of board cards once each street has been dealt."""


class SettlementError(LabError):
    """A hand record or end state that cannot be settled; names the field that is wrong."""


# --------------------------------------------------------------------------- rules


@dataclass(frozen=True)
class Rules:
    """The rule options of the settlement; defaults are the RULES.md **[choice]** decisions."""

    green_effects_for: str = "survivors"
    """``survivors``: green cards act only in the hands of players who did not fold
    (RULES §1.4 step 2 [choice]); ``all_dealt``: in every dealt hand."""
    winners: str = "main_pot"
    """``main_pot``: winners are the main-pot winners (§1.8 [choice]); ``any_pot``:
    a player who takes any contested pot is a winner too."""
    split_remainder: str = "bank"
    """``bank``: the remainder of a $10 split goes to the bank (§1.4 [choice]);
    ``first_winner``: to the first winner clockwise from the DEALER."""
    insolvent_loser: str = "pays_what_they_have"
    """``pays_what_they_have``: a loser short of their penalty share pays all they
    have (§1.4 step 5 [choice]); ``others_cover``: the other paying losers split
    the shortfall (shares rounded down to $10, capped at their chips)."""
    showdown_exception: str = "river"
    """``river``: at a river showdown, if the non-winning participants include both
    river folders and showdown losers, only the showdown losers pay (§1.4);
    ``any_showdown``: the same at any showdown (all-in run-outs); ``none``: never."""
    blinds: tuple[tuple[int, int], ...] = ((10, 20), (20, 40), (30, 60))
    """Small/big blinds by level: level 1 once bank 1 is first emptied, 2 for bank 2 (§1.5)."""

    CHOICES = {
        "green_effects_for": ("survivors", "all_dealt"),
        "winners": ("main_pot", "any_pot"),
        "split_remainder": ("bank", "first_winner"),
        "insolvent_loser": ("pays_what_they_have", "others_cover"),
        "showdown_exception": ("river", "any_showdown", "none"),
    }

    def __post_init__(self) -> None:
        for name, allowed in self.CHOICES.items():
            value = getattr(self, name)
            if value not in allowed:
                raise SettlementError(
                    f"rule {name}={value!r} is not an option: use {' or '.join(allowed)}"
                )
        if len(self.blinds) != 3:
            raise SettlementError("rule blinds needs three levels (small/big for levels 0, 1, 2)")

    @classmethod
    def parse(cls, options: Mapping[str, Any] | Sequence[str] | None = None) -> Rules:
        """Rules from a mapping or from ``["name=value", ...]`` (CLI ``--rule``)."""
        if options is None:
            return cls()
        if not isinstance(options, Mapping):
            options = _pairs(options)
        known = {f.name for f in fields(cls)}
        for key in options:
            if key not in known:
                raise SettlementError(
                    f"unknown rule option {key!r}: use {', '.join(sorted(known))}"
                )
        values = dict(options)
        if "blinds" in values:
            values["blinds"] = _parse_blind_levels(values["blinds"])
        return cls(**values)

    def as_dict(self) -> dict[str, Any]:
        """The options as plain data (for manifests and JSON output)."""
        out: dict[str, Any] = {name: getattr(self, name) for name in self.CHOICES}
        out["blinds"] = [list(b) for b in self.blinds]
        return out

    @property
    def label(self) -> str:
        """``default`` or the non-default options, e.g. ``winners=any_pot``."""
        base = Rules()
        diff = [
            f"{n}={getattr(self, n)}" for n in self.CHOICES if getattr(self, n) != getattr(base, n)
        ]
        if self.blinds != base.blinds:
            diff.append("blinds=" + ",".join(f"{s}/{b}" for s, b in self.blinds))
        return ",".join(diff) or "default"

    @property
    def kernel_args(self) -> np.ndarray:
        """The int64 array the numba core takes as ``rules``."""
        arr = np.zeros(K.N_RULES, np.int64)
        arr[K.R_GREEN_ALL] = self.green_effects_for == "all_dealt"
        arr[K.R_WINNERS_ANY_POT] = self.winners == "any_pot"
        arr[K.R_REMAINDER_FIRST] = self.split_remainder == "first_winner"
        arr[K.R_OTHERS_COVER] = self.insolvent_loser == "others_cover"
        arr[K.R_EXCEPTION] = ("river", "any_showdown", "none").index(self.showdown_exception)
        return arr


def _parse_blind_levels(value: Any) -> tuple[tuple[int, int], ...]:
    if isinstance(value, str):
        value = [part for part in value.split(",") if part.strip()]
    try:
        levels = tuple(_parse_blinds(v) for v in value)
    except (TypeError, ValueError):
        raise SettlementError(f"rule blinds {value!r}: write 10/20,20/40,30/60") from None
    return levels


def _parse_blinds(value: Any) -> tuple[int, int]:
    if isinstance(value, str):
        small, big = value.split("/")
        return int(small), int(big)
    small, big = value
    return int(small), int(big)


# --------------------------------------------------------------------------- end state


@dataclass(frozen=True)
class PlayerState:
    """One seat at the end of the betting: chips behind, chips in, fold street, cards."""

    name: str
    stack: int
    put_in: int
    folded: int | None = None
    """Street the player folded on (0 preflop .. 3 river), ``None`` if they did not."""
    hole: tuple[int, ...] = ()
    """Two card ids, or empty if unknown (a folder or a winner who did not show)."""
    conceded: bool = False
    """Did not fold but conceded at the showdown without showing (a showdown loser)."""

    @property
    def live(self) -> bool:
        """Still in the hand at the end (did not fold)."""
        return self.folded is None


@dataclass(frozen=True)
class HandState:
    """The end state of one hand: everything the settlement needs (RULES §1.4-1.5)."""

    players: tuple[PlayerState, ...]
    board: tuple[int, ...] = ()
    board_streets: tuple[int, ...] = ()
    last_round: int | None = None
    """The betting round the hand ended in; default: the street of the last board card."""
    bank: tuple[int, int, int] = (300, 700, 500)
    blind_level: int = 0
    dealer: int | None = None
    """Seat index of the DEALER; default the last seat, so transfers run in seat order."""
    game: str = "dilemma"

    def __post_init__(self) -> None:
        if not self.board_streets and self.board:
            object.__setattr__(self, "board_streets", default_streets(len(self.board)))
        if self.last_round is None:
            last = self.board_streets[-1] if self.board_streets else 0
            object.__setattr__(self, "last_round", int(last))

    @property
    def dealer_seat(self) -> int:
        """The DEALER seat (the last seat unless given)."""
        return len(self.players) - 1 if self.dealer is None else self.dealer

    @property
    def clockwise(self) -> list[int]:
        """Seat indices clockwise from the seat after the DEALER (the order of every transfer)."""
        n = len(self.players)
        return [(self.dealer_seat + 1 + k) % n for k in range(n)]

    @property
    def pot(self) -> int:
        """Total chips in the pot."""
        return sum(p.put_in for p in self.players)

    @property
    def total_money(self) -> int:
        """Players' chips + pot + bank: conserved by every settlement."""
        return sum(p.stack for p in self.players) + self.pot + sum(self.bank)

    def validate(self) -> HandState:
        """Raise :class:`SettlementError` if the state cannot come from a legal hand; return self."""
        spec = get_game(self.game)
        n = len(self.players)
        if not 2 <= n <= 10:
            raise SettlementError(f"players: a hand has 2 to 10 players, got {n}")
        names = [p.name for p in self.players]
        dup = {x for x in names if names.count(x) > 1}
        if dup:
            raise SettlementError(f"players: duplicate name {sorted(dup)[0]!r}")
        if self.last_round not in (0, 1, 2, 3):
            raise SettlementError(f"last_round: must be a street 0..3, got {self.last_round!r}")
        for i, p in enumerate(self.players):
            where = f"players[{i}] ({p.name})"
            for label, value in (("stack", p.stack), ("in", p.put_in)):
                _check_money(value, f"{where}.{label}")
            if p.stack == 0 and p.put_in == 0:
                raise SettlementError(
                    f"{where}: no chips and nothing in; a bankrupt player is not dealt in"
                )
            if p.folded is not None and not 0 <= p.folded <= self.last_round:
                raise SettlementError(
                    f"{where}.folded: {STREETS[p.folded] if 0 <= p.folded <= 3 else p.folded} "
                    f"is after the last round ({STREETS[self.last_round]})"
                )
            if p.hole and len(p.hole) != 2:
                raise SettlementError(f"{where}.hole: two cards or none, got {len(p.hole)}")
            if p.conceded and p.folded is not None:
                raise SettlementError(f"{where}.conceded: a player who folded cannot also concede")
        for t, value in enumerate(self.bank):
            _check_money(value, f"bank[{t}]")
        if len(self.bank) != 3:
            raise SettlementError("bank: three stacks (bank 1, bank 2, bank 3)")
        if self.blind_level not in (0, 1, 2):
            raise SettlementError(f"blind_level: 0, 1 or 2, got {self.blind_level!r}")
        if self.dealer is not None and not 0 <= self.dealer < n:
            raise SettlementError(f"dealer: seat index 0..{n - 1}, got {self.dealer}")
        live = [p for p in self.players if p.live]
        if not live:
            raise SettlementError("players: everybody folded; one player must be left in the hand")
        top_live = max(p.put_in for p in live)
        for i, p in enumerate(self.players):
            if p.live and p.put_in < top_live and p.stack > 0:
                raise SettlementError(
                    f"players[{i}] ({p.name}).in: {p.put_in} is less than another player's "
                    f"{top_live} but {p.stack} is left behind; only an all-in player (0 behind) "
                    "may stay in for less"
                )
            if not p.live and p.put_in > top_live:
                raise SettlementError(
                    f"players[{i}] ({p.name}).in: a folder put in {p.put_in}, more than any player "
                    f"left in the hand ({top_live})"
                )
        # the board
        if len(self.board) != len(self.board_streets):
            raise SettlementError("board: one street per board card")
        if len(self.board) not in BOARD_SIZE_AFTER:
            raise SettlementError(f"board: 0, 3, 4 or 5 cards, got {len(self.board)}")
        if tuple(self.board_streets) != default_streets(len(self.board)):
            raise SettlementError(
                "board: the flop is 3 cards (street 1), then one turn card (2), then one river card (3)"
            )
        need = BOARD_SIZE_AFTER[self.last_round]
        if len(self.board) < need:
            raise SettlementError(
                f"board: the hand reached the {STREETS[self.last_round]}, so it needs {need} cards, "
                f"got {len(self.board)}"
            )
        showdown = len(live) >= 2
        if len(self.board) > need and not showdown:
            raise SettlementError(
                f"board: {len(self.board)} cards but the hand ended on the "
                f"{STREETS[self.last_round]} without a showdown"
            )
        if showdown:
            if len(self.board) != 5:
                raise SettlementError(
                    "board: a showdown needs all 5 board cards (deal the rest out)"
                )
            shown = [p for p in live if not p.conceded]
            if not shown:
                raise SettlementError("players: at a showdown at least one player must show")
            for i, p in enumerate(self.players):
                if p.live and not p.conceded and not p.hole:
                    raise SettlementError(
                        f"players[{i}] ({p.name}).hole: needed at the showdown (or set conceded)"
                    )
        else:
            for i, p in enumerate(self.players):
                if p.conceded:
                    raise SettlementError(
                        f"players[{i}] ({p.name}).conceded: there was no showdown"
                    )
        seen: dict[int, str] = {}
        for label, cards in [("board", self.board)] + [
            (f"players[{i}] ({p.name}).hole", p.hole) for i, p in enumerate(self.players)
        ]:
            for c in cards:
                if not 0 <= c < spec.n_cards:
                    raise SettlementError(f"{label}: card id {c} is not in the {spec.summary}")
                if c in seen:
                    raise SettlementError(
                        f"{label}: card {spec.card_name(c)} is also in {seen[c]}; a card is dealt once"
                    )
                seen[c] = label
        return self

    def scores(self) -> list[int]:
        """Hand scores of the players who show at the showdown (-1 for everyone else)."""
        out = []
        for p in self.players:
            if p.live and not p.conceded and len(p.hole) == 2 and len(self.board) >= 3:
                out.append(evaluate(list(p.hole) + list(self.board), self.game))
            else:
                out.append(-1)
        return out

    def to_kernel(
        self, scores: Sequence[int] | None = None
    ) -> tuple[np.ndarray, int, np.ndarray, np.ndarray]:
        """The ``(players, n, board, table)`` arrays of :func:`analysis._settle_kernel.settle_core`."""
        n = len(self.players)
        scores = self.scores() if scores is None else list(scores)
        players = np.zeros((n, K.N_PCOLS), np.int64)
        for i, p in enumerate(self.players):
            players[i, K.P_STACK] = p.stack
            players[i, K.P_IN] = p.put_in
            players[i, K.P_FOLD] = -1 if p.folded is None else p.folded
            players[i, K.P_SCORE] = scores[i]
            players[i, K.P_HOLE0] = p.hole[0] if p.hole else -1
            players[i, K.P_HOLE1] = p.hole[1] if p.hole else -1
        board = np.zeros((2, 5), np.int64)
        board[0, : len(self.board)] = self.board
        board[1, : len(self.board)] = self.board_streets
        table = np.zeros(K.N_TCOLS, np.int64)
        table[K.T_BANK1 : K.T_BANK3 + 1] = self.bank
        table[K.T_LEVEL] = self.blind_level
        table[K.T_LAST] = self.last_round
        table[K.T_DEALER] = self.dealer_seat
        table[K.T_NBOARD] = len(self.board)
        return players, n, board, table


def default_streets(n_board: int) -> tuple[int, ...]:
    """The streets of the first ``n_board`` board cards: 1, 1, 1 (flop), 2 (turn), 3 (river)."""
    return (1, 1, 1, 2, 3)[:n_board]


def _check_money(value: Any, where: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise SettlementError(f"{where}: must be a whole number of dollars, got {value!r}")
    if value < 0:
        raise SettlementError(f"{where}: must not be negative, got {value}")
    if value % 10:
        raise SettlementError(f"{where}: chips come in $10 units, got {value}")


# --------------------------------------------------------------------------- hand records (JSON)

_RECORD_FIELDS = {
    "players",
    "board",
    "last_round",
    "bank",
    "blind_level",
    "blinds",
    "dealer",
    "game",
    "deck",
    "rules",
    "comment",
    "expected",
}
_PLAYER_FIELDS = {"name", "stack", "in", "folded", "hole", "conceded", "comment"}


@dataclass(frozen=True)
class HandRecord:
    """A parsed hand record: the end state plus the deck and rule options it names."""

    state: HandState
    deck: str | None = None
    rules: dict[str, Any] = field(default_factory=dict)
    expected: dict[str, Any] | None = None
    comment: str = ""
    source: str = "<record>"


def parse_hand_record(data: Any, source: str = "<record>") -> HandRecord:
    """Validate a hand record (parsed JSON) into a :class:`HandRecord`; errors name the field."""

    def fail(where: str, problem: str) -> SettlementError:
        return SettlementError(f"{source}: {where}: {problem}")

    if not isinstance(data, dict):
        raise fail("record", "must be a JSON object with players, board, bank ...")
    for key in data:
        if key not in _RECORD_FIELDS:
            raise fail(key, f"unknown field; use {', '.join(sorted(_RECORD_FIELDS))}")
    game = data.get("game", "dilemma")
    try:
        spec = get_game(str(game))
    except LabError as exc:
        raise fail("game", str(exc)) from None

    def cards(value: Any, where: str) -> tuple[int, ...]:
        if value is None:
            return ()
        if not isinstance(value, str | list):
            raise fail(where, f'cards as text like "As 10h", got {value!r}')
        try:
            return tuple(parse_cards(value, spec))
        except LabError as exc:
            raise fail(where, str(exc)) from None

    def street(value: Any, where: str) -> int:
        try:
            return street_code(value)
        except LabError:
            raise fail(where, f"a street ({', '.join(STREETS)}), got {value!r}") from None

    # board
    raw_board = data.get("board", [])
    board: list[int] = []
    streets: list[int] = []
    if isinstance(raw_board, dict):
        for key in raw_board:
            if key not in ("flop", "turn", "river"):
                raise fail(f"board.{key}", "use flop, turn and river")
        for code, key in ((1, "flop"), (2, "turn"), (3, "river")):
            got = cards(raw_board.get(key), f"board.{key}")
            want = 3 if key == "flop" else 1
            if got and len(got) != want:
                raise fail(f"board.{key}", f"{want} card{'s' if want > 1 else ''}, got {len(got)}")
            if got and len(board) != BOARD_SIZE_AFTER[code - 1]:
                raise fail(f"board.{key}", "dealt before the earlier streets")
            board += got
            streets += [code] * len(got)
    else:
        board = list(cards(raw_board, "board"))
        streets = list(default_streets(len(board)))
        if len(board) not in BOARD_SIZE_AFTER:
            raise fail("board", f"0, 3, 4 or 5 cards, got {len(board)}")

    raw_players = data.get("players")
    if not isinstance(raw_players, list) or not raw_players:
        raise fail("players", "a list of players, one object per seat in clockwise order")
    players = []
    for i, raw in enumerate(raw_players):
        where = f"players[{i}]"
        if not isinstance(raw, dict):
            raise fail(where, 'an object like {"name": "P1", "stack": 980, "in": 20}')
        for key in raw:
            if key not in _PLAYER_FIELDS:
                raise fail(
                    f"{where}.{key}", f"unknown field; use {', '.join(sorted(_PLAYER_FIELDS))}"
                )
        for key in ("stack", "in"):
            if key not in raw:
                raise fail(
                    f"{where}.{key}", "missing (chips behind after the betting / chips put in)"
                )
        name = raw.get("name", f"P{i + 1}")
        if not isinstance(name, str) or not name.strip():
            raise fail(f"{where}.name", "a non-empty string")
        folded = raw.get("folded")
        conceded = raw.get("conceded", False)
        if not isinstance(conceded, bool):
            raise fail(f"{where}.conceded", "true or false")
        players.append(
            PlayerState(
                name=name.strip(),
                stack=raw["stack"],
                put_in=raw["in"],
                folded=None if folded in (None, False) else street(folded, f"{where}.folded"),
                hole=cards(raw.get("hole"), f"{where}.hole"),
                conceded=conceded,
            )
        )
    last = data.get("last_round")
    last_round = None if last is None else street(last, "last_round")
    bank = data.get("bank", [300, 700, 500])
    if not isinstance(bank, list) or len(bank) != 3:
        raise fail("bank", "three stacks [bank 1, bank 2, bank 3], e.g. [300, 700, 500]")
    level = data.get("blind_level", 0)
    if "blinds" in data:
        if "blind_level" in data:
            raise fail("blinds", "give blinds or blind_level, not both")
        text = str(data["blinds"]).replace(" ", "")
        options = ["10/20", "20/40", "30/60"]
        if text not in options:
            raise fail("blinds", f"one of {', '.join(options)}, got {data['blinds']!r}")
        level = options.index(text)
    dealer = data.get("dealer")
    if dealer is not None:
        names = [p.name for p in players]
        if isinstance(dealer, str) and dealer in names:
            dealer = names.index(dealer)
        elif isinstance(dealer, bool) or not isinstance(dealer, int):
            raise fail("dealer", f"a player's name or seat index, got {dealer!r}")
    rules = data.get("rules", {})
    if not isinstance(rules, dict):
        raise fail("rules", 'an object of rule options, e.g. {"winners": "any_pot"}')
    deck = data.get("deck")
    if deck is not None and not isinstance(deck, str):
        raise fail("deck", "a deck name or path")
    try:
        state = HandState(
            players=tuple(players),
            board=tuple(board),
            board_streets=tuple(streets),
            last_round=last_round,
            bank=tuple(bank),  # type: ignore[arg-type]
            blind_level=level,
            dealer=dealer,
            game=spec.name,
        ).validate()
    except SettlementError as exc:
        raise SettlementError(f"{source}: {exc}") from None
    expected = data.get("expected")
    if expected is not None and not isinstance(expected, dict):
        raise fail("expected", "an object with stacks and bank")
    return HandRecord(
        state=state,
        deck=deck,
        rules=rules,
        expected=expected,
        comment=str(data.get("comment", "")),
        source=source,
    )


def load_hand_record(path: str | Path) -> HandRecord:
    """Read and validate a JSON hand record file (see ``docs/settlement.md`` for the format)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise SettlementError(
            f"cannot read hand record {str(path)!r}: {exc.strerror or exc}"
        ) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SettlementError(f"{p.name}: not valid JSON: {exc}") from None
    return parse_hand_record(data, p.name)


# --------------------------------------------------------------------------- results


@dataclass(frozen=True)
class Transfer:
    """Money moving from one party to another (``pot``, ``bank``, ``penalty`` or a player)."""

    source: str
    target: str
    amount: int
    tiers: tuple[int, int, int] | None = None
    """For bank payments: how much came out of / went into bank 1, 2, 3."""

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON output."""
        out: dict[str, Any] = {"from": self.source, "to": self.target, "amount": self.amount}
        if self.tiers is not None:
            out["banks"] = list(self.tiers)
        return out


@dataclass(frozen=True)
class Step:
    """One settlement step: the rule that applied, what happened, and the transfers."""

    number: int
    rule: str
    title: str
    lines: tuple[str, ...]
    transfers: tuple[Transfer, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON output."""
        return {
            "step": self.number,
            "rule": self.rule,
            "title": self.title,
            "text": list(self.lines),
            "transfers": [t.to_dict() for t in self.transfers],
        }


@dataclass(frozen=True)
class SettlementResult:
    """Everything a settlement decided: steps, final stacks, bank, blinds and the end of the game."""

    state: HandState
    deck: Deck
    rules: Rules
    steps: tuple[Step, ...]
    stacks: tuple[int, ...]
    bank: tuple[int, int, int]
    blind_level: int
    winners: tuple[int, ...]
    losers: tuple[int, ...]
    bankrupt: tuple[int, ...]
    flags: int
    totals: dict[str, int]
    reasons: tuple[str, ...]

    @property
    def game_over(self) -> bool:
        """Whether the game ends after this settlement."""
        return bool(self.flags & K.F_GAME_OVER)

    @property
    def blinds(self) -> tuple[int, int]:
        """The small and big blind after the settlement."""
        return self.rules.blinds[self.blind_level]

    @property
    def names(self) -> list[str]:
        """Player names in seat order."""
        return [p.name for p in self.state.players]

    def final_stacks(self) -> dict[str, int]:
        """Final stacks by player name."""
        return dict(zip(self.names, self.stacks, strict=True))

    def to_dict(self) -> dict[str, Any]:
        """The settlement as plain data (``dilemma settle --format json``)."""
        s = self.state
        return {
            "deck": {"name": self.deck.name, "fingerprint": self.deck.fingerprint},
            "rules": self.rules.as_dict(),
            "start": {
                "players": [
                    {
                        "name": p.name,
                        "stack": p.stack,
                        "in": p.put_in,
                        "folded": None if p.folded is None else STREETS[p.folded],
                        "hole": format_cards(p.hole, s.game),
                        "conceded": p.conceded,
                    }
                    for p in s.players
                ],
                "pot": s.pot,
                "bank": list(s.bank),
                "blinds": list(self.rules.blinds[s.blind_level]),
                "board": format_cards(s.board, s.game),
                "last_round": STREETS[s.last_round],
            },
            "steps": [step.to_dict() for step in self.steps],
            "final": {
                "stacks": self.final_stacks(),
                "bank": list(self.bank),
                "blind_level": self.blind_level,
                "blinds": list(self.blinds),
                "winners": [self.names[i] for i in self.winners],
                "losers": [self.names[i] for i in self.losers],
                "bankrupt": [self.names[i] for i in self.bankrupt],
                "game_over": self.game_over,
                "reasons": list(self.reasons),
            },
            "totals": dict(self.totals),
        }

    def to_text(self) -> str:
        """A referee's printout: the start, each step with its rule and amounts, the end."""
        s = self.state
        sb, bb = self.rules.blinds[s.blind_level]
        out = [
            f"deck {self.deck.name} ({self.deck.fingerprint}), rules {self.rules.label}",
            "start: "
            + "; ".join(f"{p.name} {p.stack} behind + {p.put_in} in" for p in s.players)
            + f"; pot {s.pot}; bank {_bank_text(s.bank)}; blinds {sb}/{bb}",
            f"board: {format_cards(s.board, s.game) or '(none)'}; last betting round: {STREETS[s.last_round]}",
        ]
        for step in self.steps:
            out.append(f"{step.number}. {step.title} [{step.rule}]")
            out += [f"   {line}" for line in step.lines]
        out.append(
            "final: "
            + ", ".join(
                f"{name} {stack}" + (" (bankrupt)" if i in self.bankrupt else "")
                for i, (name, stack) in enumerate(zip(self.names, self.stacks, strict=True))
            )
            + f"; bank {_bank_text(self.bank)}; blinds {self.blinds[0]}/{self.blinds[1]}"
        )
        out.append(
            "the game ends: " + "; ".join(self.reasons) if self.game_over else "the game goes on"
        )
        return "\n".join(out)


def _bank_text(bank: Sequence[int]) -> str:
    return "/".join(str(int(b)) for b in bank)


# --------------------------------------------------------------------------- the settlement


class _Ledger:
    """Stacks and bank with every transfer recorded; payments are capped, money is conserved."""

    def __init__(self, state: HandState) -> None:
        self.names = [p.name for p in state.players]
        self.stacks = [p.stack for p in state.players]
        self.bank = list(state.bank)
        self.short = False
        self.moves: list[Transfer] = []

    def take(self) -> list[Transfer]:
        moves, self.moves = self.moves, []
        return moves

    def draw(self, i: int, amount: int) -> int:
        """Bank pays player ``i`` up to ``amount`` (bank 1 first); a short payment is noted."""
        tiers = [0, 0, 0]
        left = amount
        for t in range(3):
            tiers[t] = min(left, self.bank[t])
            self.bank[t] -= tiers[t]
            left -= tiers[t]
        paid = amount - left
        if left:
            self.short = True
        self.stacks[i] += paid
        if paid:
            self.moves.append(Transfer("bank", self.names[i], paid, tuple(tiers)))  # type: ignore[arg-type]
        return paid

    def deposit(self, source: str, amount: int) -> None:
        """``amount`` goes into the lowest-numbered non-empty bank (bank 3 if all are empty)."""
        if amount <= 0:
            return
        t = next((t for t in range(3) if self.bank[t] > 0), 2)
        self.bank[t] += amount
        tiers = [0, 0, 0]
        tiers[t] = amount
        self.moves.append(Transfer(source, "bank", amount, tuple(tiers)))  # type: ignore[arg-type]

    def pay_bank(self, i: int, amount: int) -> int:
        """Player ``i`` pays up to ``amount`` (capped at their chips) into the bank."""
        paid = min(amount, self.stacks[i])
        self.stacks[i] -= paid
        self.deposit(self.names[i], paid)
        return paid

    def pay_pool(self, i: int, amount: int) -> int:
        """Player ``i`` pays up to ``amount`` (capped at their chips) into the collected penalty."""
        paid = min(amount, self.stacks[i])
        self.stacks[i] -= paid
        if paid:
            self.moves.append(Transfer(self.names[i], "penalty", paid))
        return paid

    def give(self, source: str, i: int, amount: int) -> None:
        """``amount`` from ``source`` (the pot or the collected penalty) to player ``i``."""
        self.stacks[i] += amount
        if amount:
            self.moves.append(Transfer(source, self.names[i], amount))


def _names(state: HandState, seats: Sequence[int]) -> str:
    return ", ".join(state.players[i].name for i in seats) or "nobody"


def _split_amount(amount: int, k: int) -> tuple[int, int]:
    """Share per head in $10 units and the remainder: ``⌊amount/k/10⌋×10``."""
    share = amount // k // 10 * 10
    return share, amount - share * k


class _Referee:
    """The settlement of one hand, one method per step of RULES §1.4 (in order)."""

    def __init__(self, state: HandState, deck: Deck, rules: Rules) -> None:
        self.state = state
        self.deck = deck
        self.rules = rules
        self.spec = get_game(state.game)
        self.P = state.players
        self.n = len(self.P)
        self.name = [p.name for p in self.P]
        self.order = state.clockwise
        self.first_rest = rules.split_remainder == "first_winner"
        self.led = _Ledger(state)
        self.steps: list[Step] = []
        self.totals = dict.fromkeys(
            (
                "pot_remainder",
                "penalty",
                "penalty_paid",
                "bonus",
                "bonus_paid",
                "effect_in",
                "effect_out",
            ),
            0,
        )
        self.active_ops = 0
        self.flags = 0
        self.live = [i for i in range(self.n) if self.P[i].live]
        self.participants = [
            i
            for i in range(self.n)
            if self.P[i].folded is None or self.P[i].folded >= state.last_round
        ]
        self.showdown = len(self.live) >= 2
        if self.showdown:
            self.flags |= K.F_SHOWDOWN
        self.scores = state.scores()
        best = max(self.scores[i] for i in self.live)
        self.winners: set[int] = {i for i in self.live if self.scores[i] == best}
        self.losers: list[int] = []
        self.fold_losers: list[int] = []
        self.showdown_losers: list[int] = []
        self.exception = False
        self.insured: set[int] = set()
        self.bankrupt: list[int] = []
        self.sums = {"plus": 0, "minus": 0, "bonus_mult": 1, "penalty_mult": 1, "windfall": 0}
        self.rebate = False

    def record(self, number: int, rule: str, title: str, lines: list[str]) -> None:
        """Close a step: its explanation and the transfers made since the last step."""
        self.steps.append(Step(number, rule, title, tuple(lines), tuple(self.led.take())))

    def card(self, c: int) -> str:
        return self.spec.card_name(c)

    # step 1 ------------------------------------------------------------------
    def pots(self) -> None:
        """§1.4.1: each pot (smallest all-in first) to its best eligible hand; $10 splits."""
        P, name, lines = self.P, self.name, []
        if self.showdown:
            shown = [
                f"{name[i]} {describe(list(P[i].hole) + list(self.state.board), self.spec)}"
                for i in self.live
                if not P[i].conceded
            ]
            conceded = [name[i] for i in self.live if P[i].conceded]
            lines.append(
                "showdown: "
                + "; ".join(shown)
                + (f"; conceded: {', '.join(conceded)}" if conceded else "")
            )
        else:
            lines.append(f"everybody else folded: {name[self.live[0]]} wins without a showdown")
        levels = sorted({P[i].put_in for i in self.live if P[i].put_in > 0})
        prev = 0
        pot_takers: set[int] = set()
        for idx, level in enumerate(levels):
            last_level = idx == len(levels) - 1  # the last pot also takes any folded excess
            amount = sum(
                (p.put_in - min(p.put_in, prev))
                if last_level
                else (min(p.put_in, level) - min(p.put_in, prev))
                for p in P
            )
            eligible = [i for i in self.live if P[i].put_in >= level]
            pbest = max(self.scores[i] for i in eligible)
            takers = [i for i in self.order if i in eligible and self.scores[i] == pbest]
            label = "main pot" if prev == 0 else f"side pot {idx}"
            if len(eligible) == 1 and prev > 0:
                lines.append(
                    f"{label} {amount}: only {name[takers[0]]} put in that much; it goes back to them"
                )
            elif len(eligible) == 1:
                lines.append(f"{label} {amount} to {name[takers[0]]}")
            else:
                lines.append(
                    f"{label} {amount} between {_names(self.state, sorted(eligible))}: "
                    f"won by {_names(self.state, takers)}"
                )
            if len(eligible) >= 2 or prev == 0:
                pot_takers.update(takers)
            share, rest = _split_amount(amount, len(takers))
            for k, i in enumerate(takers):
                self.led.give("pot", i, share + (rest if self.first_rest and k == 0 else 0))
            if len(takers) > 1:
                where = (
                    f"to {name[takers[0]]} (first winner left of the DEALER)"
                    if self.first_rest
                    else "to the bank"
                )
                lines.append(
                    f"split {len(takers)} ways in $10 units: {share} each, remainder {rest} {where}"
                )
            if rest and not self.first_rest:
                self.led.deposit("pot", rest)
                self.totals["pot_remainder"] += rest
            prev = level
        if self.rules.winners == "any_pot":
            self.winners |= pot_takers
        text = f"winners: {_names(self.state, sorted(self.winners))}"
        if pot_takers - self.winners:
            text += f" (side pots only, not winners: {_names(self.state, sorted(pot_takers - self.winners))})"
        lines.append(text)
        self.record(1, "§1.4.1", "the winners take the pot", lines)

    def find_losers(self) -> None:
        """§1.4/§1.8: losers are last-round participants who are not winners (showdown exception)."""
        non_winners = [i for i in self.participants if i not in self.winners]
        self.fold_losers = [i for i in non_winners if not self.P[i].live]
        self.showdown_losers = [i for i in non_winners if self.P[i].live]
        mode = self.rules.showdown_exception
        self.exception = (
            self.showdown
            and bool(self.fold_losers)
            and bool(self.showdown_losers)
            and ((mode == "river" and self.state.last_round == RIVER) or mode == "any_showdown")
        )
        self.losers = self.showdown_losers if self.exception else non_winners
        if self.exception:
            self.flags |= K.F_RIVER_EXCEPTION

    # step 2 ------------------------------------------------------------------
    def hand_effects(self) -> None:
        """§1.4.2: green cards in the hands that count, clockwise from the DEALER."""
        deck, lines = self.deck, []
        for i in self.order:
            for c in (c for c in self.P[i].hole if deck.colour[c] == COLOUR_GREEN):
                op = int(deck.opcode[c])
                text = f"{self.name[i]} holds {self.card(c)} ({deck.effect_label(c)})"
                if not (self.P[i].live or self.rules.green_effects_for == "all_dealt"):
                    lines.append(
                        f"{text} but folded: no effect (green cards act only for players still in)"
                    )
                    continue
                self.active_ops |= 1 << op
                if op == OP_DIVIDEND:
                    if i in self.winners:
                        want = int(deck.amount[c])
                        paid = self.led.draw(i, want)
                        self.totals["effect_out"] += paid
                        short = f" (the bank could pay only {paid})" if paid < want else ""
                        lines.append(f"{text}: a winner, takes {want} from the bank{short}")
                    else:
                        lines.append(f"{text}: not a winner, no dividend")
                elif op == OP_INSURANCE:
                    self.insured.add(i)
                    lines.append(
                        f"{text}: pays no penalty" + ("" if i in self.losers else " (not a loser)")
                    )
        self.record(
            2, "§1.4.2", "hand effects (green)", lines or ["no green card in a hand that counts"]
        )

    # step 3 ------------------------------------------------------------------
    def board_effects(self) -> None:
        """§1.4.3: blue cards, and red ones dealt on the turn or river, in order of appearance."""
        deck, led, name, lines = self.deck, self.led, self.name, []
        for c, st in zip(self.state.board, self.state.board_streets, strict=True):
            self.sums["plus"] += int(deck.plus[c])
            self.sums["minus"] += int(deck.minus[c])
            col = int(deck.colour[c])
            if col not in (COLOUR_BLUE, COLOUR_RED):
                continue
            text = f"{self.card(c)} ({deck.colour_name(c)}, {deck.effect_label(c)}, dealt on the {STREETS[st]})"
            if col == COLOUR_RED and st < TURN:
                lines.append(f"{text}: red cards act only from the turn on; no effect")
                continue
            op, amount = int(deck.opcode[c]), int(deck.amount[c])
            self.active_ops |= 1 << op
            if op in (OP_LEVY, OP_CRASH):
                group = self.winners if op == OP_LEVY else set(self.participants)
                who = [i for i in self.order if i in group]
                paid = [led.pay_bank(i, amount) for i in who]
                self.totals["effect_in"] += sum(paid)
                role = "every winner" if op == OP_LEVY else "every participant of the last round"
                lines.append(
                    f"{text}: {role} pays {amount} to the bank: "
                    + ", ".join(
                        f"{name[i]} {p}" + (" (all they had)" if p < amount else "")
                        for i, p in zip(who, paid, strict=True)
                    )
                )
            elif op == OP_SUBSIDY:
                who = [i for i in self.order if i in self.losers]
                got = [led.draw(i, amount) for i in who]
                self.totals["effect_out"] += sum(got)
                lines.append(
                    f"{text}: every loser receives {amount} from the bank: "
                    + (
                        ", ".join(f"{name[i]} {g}" for i, g in zip(who, got, strict=True))
                        or "no loser"
                    )
                )
            elif op in (OP_BOOM, OP_BUBBLE):
                self.sums["bonus_mult"] *= amount
                lines.append(f"{text}: the bonus will be multiplied by {amount}")
            elif op == OP_SLUMP:
                self.sums["penalty_mult"] *= amount
                lines.append(f"{text}: the penalty will be multiplied by {amount}")
            elif op == OP_WINDFALL:
                self.sums["windfall"] += amount
                lines.append(f"{text}: {amount} will be added to the bonus")
            elif op == OP_REBATE:
                self.rebate = True
                lines.append(f"{text}: the penalty will go to the winner(s) instead of the bank")
            else:  # pragma: no cover - the loader forbids hand effects on board colours
                lines.append(f"{text}: {KINDS[op].name} has no board meaning")
        self.record(
            3,
            "§1.4.3",
            "board effects (blue, red from the turn)",
            lines or ["no blue or red card on the board"],
        )

    # step 4 ------------------------------------------------------------------
    def penalty(self) -> None:
        """§1.4.4: the losers share the minus corners (× slump), shares rounded down to $10."""
        state, led, name, lines = self.state, self.led, self.name, []
        minus_sum, mult = self.sums["minus"], self.sums["penalty_mult"]
        penalty = minus_sum * mult
        self.totals["penalty"] = penalty
        corner = (
            " + ".join(f"{self.card(c)} {int(self.deck.minus[c])}" for c in state.board)
            or "no board"
        )
        lines.append(
            f"board minus corners: {corner} = {minus_sum}"
            + (f", x{mult} = {penalty}" if mult != 1 else "")
        )
        if self.exception:
            lines.append(
                f"river exception: {_names(state, self.fold_losers)} folded in the last round and "
                f"{_names(state, self.showdown_losers)} lost the showdown: only the showdown losers pay"
            )
        excused = [i for i in range(self.n) if i not in self.participants]
        if excused:
            lines.append(
                f"folded before the last round ({STREETS[state.last_round]}), pay nothing: {_names(state, excused)}"
            )
        losers, collected = self.losers, 0
        if not losers:
            lines.append("no loser (every participant of the last round is a winner): nobody pays")
        elif penalty == 0:
            lines.append(f"losers: {_names(state, losers)}; the penalty is 0")
        else:
            share, _ = _split_amount(penalty, len(losers))
            each = " each" if len(losers) > 1 else ""
            lines.append(
                f"losers: {_names(state, losers)}; share ⌊{penalty}/{len(losers)}/10⌋×10 = {share}{each}"
            )
            shortfall = 0
            for i in (i for i in self.order if i in losers):
                if i in self.insured:
                    lines.append(f"{name[i]} is insured: pays nothing")
                    continue
                paid = led.pay_pool(i, share)
                collected += paid
                shortfall += share - paid
                lines.append(
                    f"{name[i]} pays {paid}"
                    + (f" (all they have; the share is {share})" if paid < share else "")
                )
            if shortfall and self.rules.insolvent_loser == "others_cover":
                payers = [
                    i
                    for i in self.order
                    if i in losers and i not in self.insured and led.stacks[i] > 0
                ]
                if payers:
                    extra, _ = _split_amount(shortfall, len(payers))
                    collected += sum(led.pay_pool(i, extra) for i in payers)
                    lines.append(
                        f"others cover the shortfall {shortfall}: up to {extra} more each from {_names(state, payers)}"
                    )
            if self.rebate:
                ws = [i for i in self.order if i in self.winners]
                share_w, rest = _split_amount(collected, len(ws))
                for k, i in enumerate(ws):
                    led.give("penalty", i, share_w + (rest if self.first_rest and k == 0 else 0))
                if not self.first_rest:
                    led.deposit("penalty", rest)
                where = "to the first winner" if self.first_rest else "to the bank"
                lines.append(
                    f"rebate: the {collected} collected goes to {_names(state, ws)} ({share_w} each"
                    + (f", remainder {rest} {where})" if rest else ")")
                )
            else:
                led.deposit("penalty", collected)
                lines.append(f"{collected} paid into the bank")
        self.totals["penalty_paid"] = collected
        self.record(4, "§1.4.4", "penalty", lines)

    # step 5 ------------------------------------------------------------------
    def bankruptcy(self) -> None:
        """§1.4.5: a player with no chips left is bankrupt and leaves the game."""
        self.bankrupt = [i for i in range(self.n) if self.led.stacks[i] == 0]
        text = (
            f"bankrupt, out of the game: {_names(self.state, self.bankrupt)}"
            if self.bankrupt
            else "nobody is out of chips"
        )
        self.record(5, "§1.4.5", "bankruptcy", [text])

    # step 6 ------------------------------------------------------------------
    def bonus(self) -> None:
        """§1.4.6/§1.4.8: the solvent winners share the plus corners (× boom, bubble, + windfall)."""
        led, lines = self.led, []
        plus_sum, mult, windfall = self.sums["plus"], self.sums["bonus_mult"], self.sums["windfall"]
        bonus = plus_sum * mult + windfall
        self.totals["bonus"] = bonus
        corner = (
            " + ".join(f"{self.card(c)} {int(self.deck.plus[c])}" for c in self.state.board)
            or "no board"
        )
        text = f"board plus corners: {corner} = {plus_sum}"
        if mult != 1:
            text += f", x{mult} = {plus_sum * mult}"
        if windfall:
            text += f", + windfall {windfall} = {bonus}"
        lines.append(text)
        takers = [i for i in self.order if i in self.winners and i not in self.bankrupt]
        paid_total = 0
        if bonus > 0 and takers:
            share, rest = _split_amount(bonus, len(takers))
            rest = rest if self.first_rest else 0
            held = sum(led.bank)
            if share * len(takers) + rest > held:
                led.short = True
                lines.append(f"the bank holds only {held}: the winners take what is left")
                share, rest = _split_amount(held, len(takers))
                rest = rest if self.first_rest else 0
            if len(takers) > 1:
                lines.append(
                    f"split {len(takers)} ways in $10 units: {share} each"
                    + (
                        f", remainder {rest} to {self.name[takers[0]]}"
                        if self.first_rest
                        else ", the remainder stays in the bank"
                    )
                )
            for k, i in enumerate(takers):
                paid_total += led.draw(i, share + (rest if k == 0 else 0))
            verb = "takes" if len(takers) == 1 else "take"
            lines.append(f"{_names(self.state, takers)} {verb} {paid_total} from the bank")
        elif bonus > 0:
            lines.append("no solvent winner: the bonus stays in the bank")
        self.totals["bonus_paid"] = paid_total
        self.record(6, "§1.4.6", "bonus", lines)

    # step 7 ------------------------------------------------------------------
    def blinds(self) -> int:
        """§1.5: blinds rise when bank 1 (then bank 2) is first emptied; they never go down."""
        level = self.state.blind_level
        if self.led.bank[0] == 0:
            level = max(level, 1)
        if self.led.bank[1] == 0:
            level = max(level, 2)
        sb, bb = self.rules.blinds[level]
        if level > self.state.blind_level:
            self.flags |= K.F_BLINDS_UP
            text = f"bank {level} is empty: blinds rise to {sb}/{bb} (they never go down)"
        else:
            text = f"blinds stay {sb}/{bb}"
        self.record(7, "§1.5", "blind-up check", [text])
        return level

    # step 8 ------------------------------------------------------------------
    def end_of_game(self) -> list[str]:
        """§1.4.8/§1.8: the game ends after a short bank payment, an empty bank, or one player left."""
        led, reasons = self.led, []
        if led.short:
            self.flags |= K.F_SHORT
            reasons.append("the bank could not pay in full")
        if sum(led.bank) == 0:
            self.flags |= K.F_BANK_EMPTY
            reasons.append("the bank is empty")
        if sum(1 for s in led.stacks if s > 0) <= 1:
            self.flags |= K.F_ONE_LEFT
            reasons.append("at most one player has chips")
        if reasons:
            self.flags |= K.F_GAME_OVER
            top = max(led.stacks)
            leaders = [self.name[i] for i in range(self.n) if led.stacks[i] == top]
            text = "; ".join(reasons) + f": the game ends, most chips: {', '.join(leaders)} ({top})"
        else:
            text = f"the bank holds {sum(led.bank)} ({_bank_text(led.bank)}): the game goes on"
        self.record(8, "§1.4.8", "end of the game?", [text])
        return reasons


def settle(
    state: HandState, deck: Deck | str = "reference", rules: Rules | None = None
) -> SettlementResult:
    """Settle one finished hand and explain every step (RULES §1.4 order, §1.5 bank and blinds)."""
    state.validate()
    deck = load_deck(deck)
    if deck.game != state.game:
        raise SettlementError(f"the {deck.name} deck is for {deck.game}, the hand is {state.game}")
    rules = rules or Rules()
    ref = _Referee(state, deck, rules)
    ref.pots()
    ref.find_losers()
    ref.hand_effects()
    ref.board_effects()
    ref.penalty()
    ref.bankruptcy()
    ref.bonus()
    level = ref.blinds()
    reasons = ref.end_of_game()
    ref.totals["active_ops"] = ref.active_ops
    result = SettlementResult(
        state=state,
        deck=deck,
        rules=rules,
        steps=tuple(ref.steps),
        stacks=tuple(ref.led.stacks),
        bank=tuple(ref.led.bank),  # type: ignore[arg-type]
        blind_level=level,
        winners=tuple(sorted(ref.winners)),
        losers=tuple(sorted(ref.losers)),
        bankrupt=tuple(ref.bankrupt),
        flags=ref.flags,
        totals=ref.totals,
        reasons=tuple(reasons),
    )
    if state.total_money != sum(result.stacks) + sum(result.bank):  # pragma: no cover - invariant
        raise AssertionError("settlement did not conserve money")
    return result


def settle_record(
    record: HandRecord, deck: Deck | str | None = None, rules: Sequence[str] | None = None
) -> SettlementResult:
    """Settle a parsed hand record; ``deck`` overrides the record's deck, ``rules`` add options."""
    chosen = deck if deck is not None else (record.deck or "reference")
    options = dict(record.rules)
    options.update(_pairs(rules or []))
    return settle(record.state, load_deck(chosen), Rules.parse(options))


def _pairs(items: Sequence[str]) -> dict[str, str]:
    """``["name=value", ...]`` as a dict (names may use dashes)."""
    out = {}
    for item in items:
        if "=" not in item:
            raise SettlementError(f"rule option {item!r}: write name=value")
        key, value = item.split("=", 1)
        out[key.strip().replace("-", "_")] = value.strip()
    return out


def check_expected(result: SettlementResult, expected: Mapping[str, Any]) -> list[str]:
    """Differences between a result and a record's ``expected`` block (empty if it matches)."""
    problems = []
    stacks = expected.get("stacks")
    if isinstance(stacks, Mapping):
        got = result.final_stacks()
        for who, want in stacks.items():
            if got.get(who) != want:
                problems.append(f"{who}: expected {want}, got {got.get(who)}")
    bank = expected.get("bank")
    if bank is not None and list(bank) != list(result.bank):
        problems.append(f"bank: expected {_bank_text(bank)}, got {_bank_text(result.bank)}")
    if "game_over" in expected and bool(expected["game_over"]) != result.game_over:
        problems.append(f"game_over: expected {expected['game_over']}, got {result.game_over}")
    if "blind_level" in expected and expected["blind_level"] != result.blind_level:
        problems.append(
            f"blind_level: expected {expected['blind_level']}, got {result.blind_level}"
        )
    return problems


def settle_fast(
    state: HandState, deck: Deck | str = "reference", rules: Rules | None = None
) -> dict[str, Any]:
    """Settle with the numba core (no explanation): final stacks, bank, level, flags, roles."""
    deck = load_deck(deck)
    rules = rules or Rules()
    players, n, board, table = state.validate().to_kernel()
    out = np.zeros(K.N_OUT, np.int64)
    flags = K.settle_core(players, n, board, table, deck.kernel_args, rules.kernel_args, out)
    return {
        "stacks": tuple(int(x) for x in players[:, K.P_FINAL]),
        "bank": tuple(int(x) for x in out[K.O_BANK1 : K.O_BANK3 + 1]),
        "blind_level": int(out[K.O_LEVEL]),
        "flags": int(flags),
        "roles": tuple(int(x) for x in players[:, K.P_ROLE]),
        "out": out,
    }


__all__ = [
    "HandRecord",
    "HandState",
    "PlayerState",
    "Rules",
    "SettlementError",
    "SettlementResult",
    "Step",
    "Transfer",
    "check_expected",
    "load_hand_record",
    "parse_hand_record",
    "settle",
    "settle_fast",
    "settle_record",
]
