"""Hand histories: one hand a JSON line (``docs/hand_history.md``), written, read and replayed.

A line holds the table (seats, stacks before the blinds, DEALER, blinds, bank), the
cards, every action, the board and the result. :func:`replay` plays it through the
referee, so every action is checked (an illegal one raises
:class:`IllegalActionError` naming the line, the action, the player and the rule) and
the result is recomputed and compared with the recorded one. The kernel's logs become
histories with :func:`history_from_log`; ``dilemma settle`` settles a line's end state.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from analysis.core.actions import ACTION_NAMES
from analysis.dilemma.effects import STREETS
from analysis.dilemma.settlement import Rules
from evaluator import format_cards, get_game, parse_cards
from evaluator.errors import LabError

from ._layout import L_KIND, L_SEAT, L_STREET, L_TO
from .errors import HistoryError, IllegalActionError
from .referee import Hand, HandResult
from .structures import Structure, get_structure
from .table import TableSetup, engine_game

FORMAT = "dilemma-lab/hand-history/2"
"""2: the structure's fixed-limit ``limit_raise`` became ``limit`` (``fixed``/``spread``/``per_round``)
with ``cap``, ``short_cap`` and ``raises_per_player``; version-1 lines still read (:func:`structure_of`)."""
LEGACY_LIMIT = {"fixed": "per_round"}
"""Version 1's ``limit_raise``: its ``fixed`` was the small bet / big bet (``limit=per_round``);
its ``range`` (any amount up to the small or big bet) has no version-2 equivalent."""
_FIELDS = {"format", "hand", "game", "structure", "deck", "rules", "table", "holes", "actions",
           "board", "showdown", "result", "comment"}


def history_line(hand: Hand, result: HandResult, *, number: int | None = None,
                 mucked: Sequence[int] = ()) -> dict[str, Any]:
    """The JSON object of a finished hand (see ``docs/hand_history.md``)."""
    s = hand.setup
    names = list(s.names)
    game = s.game
    dilemma = s.spec.settlement == "dilemma"
    board = hand.board
    data: dict[str, Any] = {"format": FORMAT}
    if number is not None:
        data["hand"] = number
    data.update({
        "game": game,
        "structure": s.structure.name,
        "deck": s.deck,
        "table": {"seats": names, "stacks": list(s.stacks), "dealer": names[s.dealer],
                  "blinds": list(s.blinds)},
        "holes": {seat.name: format_cards(seat.hole, game) for seat in hand.seats if seat.hole},
        "actions": [[STREETS[st], names[a.player], a.kind] + ([a.to] if a.to is not None else [])
                    for st, a in hand.actions],
        "board": {k: format_cards(board[lo:hi], game)
                  for k, lo, hi in (("flop", 0, 3), ("turn", 3, 4), ("river", 4, 5)) if len(board) >= hi},
    })
    if dilemma:
        data["table"]["bank"] = list(s.bank)
        data["table"]["blind_level"] = s.blind_level
        if s.rules != Rules():
            data["rules"] = s.rules.as_dict()
    if result.showdown:
        data["showdown"] = {"order": [names[i] for i in result.showdown],
                            "mucked": [names[i] for i in mucked]}
    res: dict[str, Any] = {"stacks": dict(zip(names, (int(x) for x in result.stacks), strict=True)),
                           "winners": [names[i] for i in result.winners]}
    if dilemma:
        res["bank"] = list(result.bank or ())
        res["blind_level"] = result.blind_level
        res["game_over"] = result.game_over
    else:
        res["pots"] = [{"amount": p.amount, "eligible": [names[i] for i in p.eligible],
                        "won": {names[i]: a for i, a in p.shares}, **({"uncalled": True} if p.uncalled else {})}
                       for p in result.pots]
    data["result"] = res
    return data


def _fail(where: str, problem: str) -> HistoryError:
    return HistoryError(f"{where}: {problem}")


def structure_of(raw: dict[str, Any]) -> Structure:
    """The :class:`Structure` of a history's ``structure`` object (version 1's ``limit_raise``
    read as ``limit``)."""
    raw = dict(raw)
    if "limit_raise" in raw:
        old = raw.pop("limit_raise")
        if old not in LEGACY_LIMIT:
            raise TypeError(f"limit_raise={old!r} (hand-history/1) has no equivalent")
        raw.setdefault("limit", LEGACY_LIMIT[old])
    return Structure(**raw)


def setup_of(data: dict[str, Any], where: str = "<history>") -> TableSetup:
    """The :class:`TableSetup` of a history line (checked)."""
    if not isinstance(data, dict):
        raise _fail(where, "a hand is a JSON object with table, holes, actions, board")
    for key in data:
        if key not in _FIELDS:
            raise _fail(where, f"unknown field {key!r}; use {', '.join(sorted(_FIELDS))}")
    game = data.get("game", "dilemma")
    table = data.get("table")
    if not isinstance(table, dict):
        raise _fail(where, "field 'table': {seats, stacks, dealer, blinds[, bank, blind_level]}")
    seats = table.get("seats")
    stacks = table.get("stacks")
    if not isinstance(seats, list) or not isinstance(stacks, list):
        raise _fail(where, "field 'table': seats and stacks are lists, one per seat")
    dealer = table.get("dealer", seats[-1] if seats else 0)
    if isinstance(dealer, str):
        if dealer not in seats:
            raise _fail(where, f"field 'table.dealer': {dealer!r} is not a seat")
        dealer = seats.index(dealer)
    try:
        spec = engine_game(game)
    except LabError as exc:
        raise _fail(where, str(exc)) from None
    raw = data.get("structure", spec.structure)
    try:
        structure = get_structure(raw) if isinstance(raw, str) else structure_of(raw)
    except (TypeError, AttributeError):
        raise _fail(where, f"field 'structure': {raw!r}") from None
    except LabError as exc:
        raise _fail(where, f"field 'structure': {exc}") from None
    try:
        rules = Rules.parse(data.get("rules") or {})
    except LabError as exc:
        raise _fail(where, f"field 'rules': {exc}") from None
    blinds = table.get("blinds", list(spec.blinds))
    if not isinstance(blinds, list) or len(blinds) != 2:
        raise _fail(where, "field 'table.blinds': [small blind, big blind], e.g. [10, 20]")
    bank = table.get("bank", [300, 700, 500])
    if not isinstance(bank, list) or len(bank) != 3:
        raise _fail(where, "field 'table.bank': three stacks [bank 1, bank 2, bank 3], e.g. [300, 700, 500]")
    try:
        return TableSetup(names=tuple(str(s) for s in seats), stacks=tuple(stacks), dealer=dealer,
                          blinds=(blinds[0], blinds[1]), game=game, structure=structure,
                          bank=tuple(bank),  # type: ignore[arg-type]
                          blind_level=table.get("blind_level", 0),
                          deck=data.get("deck", spec.default_deck),
                          rules=rules).validate()
    except LabError as exc:
        raise _fail(where, str(exc)) from None


def replay(data: dict[str, Any], where: str = "<history>", *, check_result: bool = True
           ) -> tuple[Hand, HandResult]:
    """Play a history line through the referee; every action is checked, then the result."""
    setup = setup_of(data, where)
    spec = get_game(setup.game)
    hand = Hand(setup)
    names = list(setup.names)

    def cards(value: Any, field: str) -> list[int]:
        try:
            return parse_cards(value, spec)
        except LabError as exc:
            raise _fail(where, f"field {field!r}: {exc}") from None

    holes = data.get("holes", {})
    if holes:
        if not isinstance(holes, dict) or set(holes) - set(names):
            raise _fail(where, "field 'holes': an object of seat name -> two cards")
        got = [cards(holes.get(n, ""), f"holes.{n}") for n in names]
        if all(len(h) == 2 for h in got):
            hand.deal_holes(got)
        else:
            for seat, h in zip(hand.seats, got, strict=True):
                seat.hole = tuple(h)
    raw_board = data.get("board", {})
    if isinstance(raw_board, str):
        b = cards(raw_board, "board")
        raw_board = {"flop": b[:3], "turn": b[3:4], "river": b[4:5]}
    if not isinstance(raw_board, dict):
        raise _fail(where, "field 'board': {flop, turn, river}")
    streets = [cards(raw_board.get(k, ""), f"board.{k}") for k in ("flop", "turn", "river")]

    def deal_to(street: int) -> None:
        while hand.street < street:
            nxt = streets[hand.street]
            if not nxt:
                raise _fail(where, f"field 'board.{STREETS[hand.street + 1]}': the hand reached the "
                                   f"{STREETS[hand.street + 1]} but the card(s) are missing")
            try:
                hand.deal_board(nxt)
            except LabError as exc:
                raise _fail(where, str(exc)) from None

    actions = data.get("actions", [])
    if not isinstance(actions, list):
        raise _fail(where, "field 'actions': a list of [street, player, action(, to)]")
    for k, act in enumerate(actions):
        at = f"{where}, action {k + 1}"
        if not isinstance(act, list) or not 3 <= len(act) <= 4:
            raise _fail(at, f"{act!r}: write [street, player, action] or [street, player, action, to]")
        street_name, who, kind = act[0], act[1], act[2]
        if street_name not in STREETS:
            raise _fail(at, f"street {street_name!r}: use {', '.join(STREETS)}")
        street = STREETS.index(street_name)
        if street < hand.street:
            raise _fail(at, f"a {street_name} action after the {STREETS[hand.street]} was dealt")
        deal_to(street)
        to = act[3] if len(act) == 4 else None
        try:
            hand.act(str(kind), to, player=str(who))
        except IllegalActionError as exc:
            raise IllegalActionError(exc.action, exc.player, exc.rule, where=at) from None
    if not hand.over and sum(s.live for s in hand.seats) >= 2:
        if not hand.round_over:
            raise _fail(where, f"the actions stop but {hand.seats[hand.actor].name} is to act")  # type: ignore[index]
        if not hand.betting_done:
            raise _fail(where, f"the actions stop but the {STREETS[hand.street]} betting is not the last")
        deal_to(3)
    mucked = []
    show = data.get("showdown") or {}
    for name in show.get("mucked", []):
        if name not in names:
            raise _fail(where, f"field 'showdown.mucked': {name!r} is not a seat")
        mucked.append(names.index(name))
    try:
        result = hand.finish(mucked)
    except LabError as exc:
        raise _fail(where, str(exc)) from None
    if check_result and isinstance(data.get("result"), dict):
        want = data["result"].get("stacks")
        if isinstance(want, dict):
            got = dict(zip(names, result.stacks, strict=True))
            diff = [f"{n}: recorded {want[n]}, rules give {got[n]}" for n in names
                    if n in want and want[n] != got[n]]
            if diff:
                raise _fail(where, "result differs: " + "; ".join(diff))
        bank = data["result"].get("bank")
        if bank is not None and result.bank is not None and list(bank) != list(result.bank):
            raise _fail(where, f"result differs: bank recorded {bank}, rules give {list(result.bank)}")
    return hand, result


def read_history(path: str | Path) -> Iterator[tuple[str, dict[str, Any]]]:
    """``(where, data)`` for every non-empty line of a JSON-lines history file."""
    from analysis.core.text import BOM, read_utf8

    p = Path(path)
    text = read_utf8(p, p.name, HistoryError, "hand history").removeprefix(BOM)
    for k, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{p.name} line {k}"
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise HistoryError(f"{where}: not valid JSON: {exc.msg} (column {exc.colno})") from None
        except RecursionError:
            raise HistoryError(f"{where}: not usable JSON: nested too deeply") from None
        except ValueError:  # an integer of more than 4300 digits
            raise HistoryError(f"{where}: not usable JSON: a number has too many digits") from None
        yield where, data


def write_history(lines: Sequence[dict[str, Any]], path: str | Path) -> Path:
    """Write history lines atomically (one JSON object per line)."""
    from analysis.core.io import atomic_path

    p = Path(path)
    with atomic_path(p) as tmp:
        tmp.write_text("".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines),
                       encoding="utf-8")
    return p


def history_from_log(setup: TableSetup, cards: np.ndarray, log: np.ndarray, n_actions: int) -> dict[str, Any]:
    """A history line from a kernel hand: its cards (holes by seat, board) and action log."""
    game = setup.game
    spec = setup.spec
    n = setup.n
    h = spec.hole_cards
    names = list(setup.names)
    board = [int(c) for c in cards[h * n: spec.deal_size(n)]]
    actions = []
    for k in range(n_actions):
        row = log[k]
        kind = ACTION_NAMES[int(row[L_KIND])]
        act = [STREETS[int(row[L_STREET])], names[int(row[L_SEAT])], kind]
        if kind in ("bet", "raise"):
            act.append(int(row[L_TO]))
        actions.append(act)
    data = {
        "format": FORMAT, "game": game, "structure": setup.structure.as_dict(), "deck": setup.deck,
        "table": {"seats": names, "stacks": list(setup.stacks), "dealer": names[setup.dealer],
                  "blinds": list(setup.blinds), "bank": list(setup.bank),
                  "blind_level": setup.blind_level},
        "holes": {names[i]: format_cards(cards[h * i: h * (i + 1)], game) for i in range(n)},
        "actions": actions,
        "board": {"flop": format_cards(board[:3], game), "turn": format_cards(board[3:4], game),
                  "river": format_cards(board[4:5], game)},
    }
    if spec.settlement == "dilemma" and setup.rules != Rules():  # as the referee's lines carry them
        data["rules"] = setup.rules.as_dict()
    return data


def history_record(path: str | Path, line: int) -> Any:
    """The settlement record (``HandRecord``) of the Dilemma hand on ``line`` of a history file:
    the hand is replayed by the referee first, so an illegal action is reported."""
    from analysis.dilemma.settlement import HandRecord
    from analysis.dilemma.settlement.record import parse_expected

    for where, data in read_history(path):
        if where.endswith(f" line {line}"):
            setup = setup_of(data, where)
            if setup.spec.settlement != "dilemma":
                raise HistoryError(f"{where}: dilemma settle settles Dilemma hands, this is {setup.game}")
            hand, _ = replay(data, where, check_result=False)
            mucked = (data.get("showdown") or {}).get("mucked", [])
            for name in mucked:
                hand.seats[list(setup.names).index(name)].shown = False
            expected = None
            res = data.get("result")
            if isinstance(res, dict) and "stacks" in res:
                expected = {k: res[k] for k in ("stacks", "bank", "game_over", "blind_level") if k in res}

                def fail(at: str, problem: str, at_line: str = where) -> HistoryError:
                    return _fail(at_line, f"field 'result{at.removeprefix('expected')}': {problem}")

                expected = parse_expected(expected, list(setup.names), fail)
            return HandRecord(state=hand.hand_state().validate(), deck=setup.deck,
                              rules=setup.rules.as_dict(), expected=expected,
                              comment=str(data.get("comment", "")), source=where)
    raise HistoryError(f"{Path(path).name}: no hand on line {line}")
