"""Hand records: the JSON form of a hand's end state (``docs/settlement.md``), parsed and checked."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from analysis.core.text import load_json, read_utf8
from evaluator import get_game, parse_cards
from evaluator.errors import LabError

from ..effects import STREETS, street_code
from .errors import SettlementError
from .results import SettlementResult, bank_text
from .state import BOARD_SIZE_AFTER, HandState, PlayerState, default_streets

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
_EXPECTED_FIELDS = ("stacks", "bank", "game_over", "blind_level")


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
        if folded is False:  # "did not fold"; 0 is the pre-flop (0 == False in Python)
            folded = None
        conceded = raw.get("conceded", False)
        if not isinstance(conceded, bool):
            raise fail(f"{where}.conceded", "true or false")
        players.append(
            PlayerState(
                name=name.strip(),
                stack=raw["stack"],
                put_in=raw["in"],
                folded=None if folded is None else street(folded, f"{where}.folded"),
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
    if isinstance(level, bool) or not isinstance(level, int) or level not in (0, 1, 2):
        raise fail("blind_level", f"0, 1 or 2 (blinds 10/20, 20/40, 30/60), got {_brief(level)}")
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
    if expected is not None:
        expected = parse_expected(expected, [p.name for p in players], fail)
    return HandRecord(
        state=state,
        deck=deck,
        rules=rules,
        expected=expected,
        comment=str(data.get("comment", "")),
        source=source,
    )


def _brief(value: Any) -> str:
    """A value for an error message: short scalars and flat lists as JSON, else their kind."""
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list) and (
        len(value) > 8 or any(isinstance(v, list | dict) for v in value)
    ):
        return "a list"
    text = json.dumps(value)
    return text if len(text) <= 30 else f"{text[:24]}..."


def parse_expected(
    value: Any, names: list[str], fail: Callable[[str, str], LabError]
) -> dict[str, Any]:
    """Check an ``expected`` block (``{"stacks": {name: dollars}, "bank": [b1, b2, b3],
    "game_over": bool, "blind_level": 0..2}``, every part optional); ``fail(where, problem)``
    builds the error."""

    def whole(x: Any) -> bool:
        return isinstance(x, int) and not isinstance(x, bool)

    if not isinstance(value, dict):
        raise fail("expected", 'an object like {"stacks": {"P1": 1060}, "bank": [280, 700, 500]}')
    for key in value:
        if key not in _EXPECTED_FIELDS:
            raise fail(f"expected.{key}", f"unknown field; use {', '.join(_EXPECTED_FIELDS)}")
    stacks = value.get("stacks")
    if stacks is not None:
        if not isinstance(stacks, dict):
            raise fail("expected.stacks", 'an object of player name -> dollars, e.g. {"P1": 1060}')
        for who, want in stacks.items():
            if who not in names:
                raise fail(
                    f"expected.stacks.{who}", f"not a player; the players are {', '.join(names)}"
                )
            if not whole(want):
                raise fail(
                    f"expected.stacks.{who}", f"a whole number of dollars, got {_brief(want)}"
                )
    bank = value.get("bank")
    if bank is not None and (
        not isinstance(bank, list) or len(bank) != 3 or not all(whole(b) for b in bank)
    ):
        raise fail(
            "expected.bank",
            f"three stacks [bank 1, bank 2, bank 3], e.g. [280, 700, 500], got {_brief(bank)}",
        )
    over = value.get("game_over")
    if over is not None and not isinstance(over, bool):
        raise fail("expected.game_over", f"true or false, got {_brief(over)}")
    level = value.get("blind_level")
    if level is not None and (not whole(level) or level not in (0, 1, 2)):
        raise fail("expected.blind_level", f"0, 1 or 2, got {_brief(level)}")
    return value


def load_hand_record(path: str | Path) -> HandRecord:
    """Read and validate a JSON hand record file (see ``docs/settlement.md`` for the format)."""
    p = Path(path)
    text = read_utf8(p, p.name, SettlementError, "hand record")
    return parse_hand_record(load_json(text, p.name, SettlementError), p.name)


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
        problems.append(f"bank: expected {bank_text(bank)}, got {bank_text(result.bank)}")
    if "game_over" in expected and bool(expected["game_over"]) != result.game_over:
        problems.append(f"game_over: expected {expected['game_over']}, got {result.game_over}")
    if "blind_level" in expected and expected["blind_level"] != result.blind_level:
        problems.append(
            f"blind_level: expected {expected['blind_level']}, got {result.blind_level}"
        )
    return problems
