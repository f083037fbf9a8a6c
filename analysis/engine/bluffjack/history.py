"""Bluffjack hand histories: one JSON line a hand, replayed through the referee.

Format ``dilemma-lab/bluffjack-history/1`` (``docs/hand_history.md``, section "Bluffjack")::

    {"format": "dilemma-lab/bluffjack-history/1", "hand": 1, "game": "bluffjack",
     "table": {"seats": ["P1", "P2"], "stacks": [100, 100], "dealer": "P1"},
     "stakes": {"limit": "fixed", "ante": 1, "bet": 2, ...}, "rules": {"house": true, ...},
     "down": {"P1": "Kh", "P2": "5c"}, "up": {"P1": "6d", "P2": "9s"},
     "actions": [["initial", "P2", "bet", 2], ["initial", "P1", "raise", 4], ["initial", "P2", "call"],
                 ["play", "P2", "hit", "7c"], ["play", "P1", "stand"], ["play", "P2", "stand"],
                 ["final", "P2", "check"], ["final", "P1", "bet", 2], ["final", "P2", "fold"]],
     "result": {"stacks": {"P1": 106, "P2": 94}, "winners": ["P1"], "house": 0, "carry": 0,
                "showdown": false}}

``table.stacks`` are the chips before the ante; ``bet``/``raise`` amounts are the player's
total for the round ("raise to"); a hit names the card dealt. Rounds: ``first`` (the
second initial bet, an option), ``initial``, ``play`` (hit or stand, and the extra
betting when on), ``final``.
"""

from __future__ import annotations

from typing import Any

from analysis.engine.errors import HistoryError, IllegalActionError
from evaluator.blackjack import BLUFFJACK
from evaluator.cards import format_cards, parse_cards
from evaluator.errors import LabError

from .referee import ROUNDS, BluffjackHand, BluffjackResult

__all__ = ["FORMAT", "history_line", "replay_history"]

FORMAT = "dilemma-lab/bluffjack-history/1"


def _card(c: int) -> str:
    return format_cards([c], BLUFFJACK)


def history_line(hand: BluffjackHand, number: int | None = None) -> dict[str, Any]:
    """The JSON-ready history of a finished hand."""
    if hand.result is None:
        raise HistoryError("the hand is not over: a history holds whole hands")
    names = [s.name for s in hand.seats]
    res = hand.result
    line: dict[str, Any] = {"format": FORMAT}
    if number is not None:
        line["hand"] = number
    line |= {
        "game": "bluffjack",
        "table": {"seats": names, "stacks": list(hand.start), "dealer": names[hand.dealer]},
        "stakes": hand.stakes.as_dict(),
        "rules": hand.rules.as_dict(),
        "down": {s.name: _card(s.down) for s in hand.seats},
        "up": {s.name: _card(s.up) for s in hand.seats},
        "actions": [[r, names[i], a] + ([] if x is None else [_card(x) if a == "hit" else x])
                    for r, i, a, x in hand.history],
        "result": {"stacks": dict(zip(names, res.stacks, strict=True)),
                   "winners": [names[i] for i in res.winners], "house": res.house, "carry": res.carry,
                   "showdown": res.showdown},
    }
    return line


def _fail(where: str, problem: str) -> HistoryError:
    return HistoryError(f"{where}: {problem}")


def replay_history(data: Any, where: str = "<history>", *, check_result: bool = True
                   ) -> tuple[BluffjackHand, BluffjackResult]:
    """Play a history line through the referee: every action checked, then the result."""
    if not isinstance(data, dict):
        raise _fail(where, "a hand is a JSON object")
    if data.get("format", FORMAT) != FORMAT:
        raise _fail(where, f"field 'format': expected {FORMAT!r}; got {data.get('format')!r}")
    table = data.get("table")
    if not isinstance(table, dict):
        raise _fail(where, "field 'table': an object with seats, stacks and dealer")
    names, stacks = table.get("seats"), table.get("stacks")
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise _fail(where, "field 'table.seats': a list of player names")
    if not isinstance(stacks, list) or not all(isinstance(s, int) and not isinstance(s, bool) for s in stacks):
        raise _fail(where, "field 'table.stacks': a list of whole chip counts")
    dealer = table.get("dealer", 0)
    if isinstance(dealer, str):
        if dealer not in names:
            raise _fail(where, f"field 'table.dealer': {dealer!r} is not a seat")
        dealer = names.index(dealer)

    def cards(value: Any, field: str, count: int) -> list[int]:
        try:
            got = parse_cards(value, BLUFFJACK)
        except LabError as exc:
            raise _fail(where, f"field {field!r}: {exc}") from None
        if len(got) != count:
            raise _fail(where, f"field {field!r}: {count} card(s) expected; got {len(got)}")
        return got

    down, up = data.get("down"), data.get("up")
    if not isinstance(down, dict) or not isinstance(up, dict) or set(down) != set(names) or set(up) != set(names):
        raise _fail(where, "fields 'down' and 'up': an object of seat name -> one card each")
    try:
        hand = BluffjackHand(names, stacks, dealer, [cards(down[n], f"down.{n}", 1)[0] for n in names],
                             [cards(up[n], f"up.{n}", 1)[0] for n in names],
                             stakes=data.get("stakes"), rules=data.get("rules"))
    except HistoryError:
        raise
    except LabError as exc:
        raise _fail(where, str(exc)) from None
    actions = data.get("actions", [])
    if not isinstance(actions, list):
        raise _fail(where, "field 'actions': a list of [round, player, action(, amount or card)]")
    for k, act in enumerate(actions):
        at = f"{where}, action {k + 1}"
        if not isinstance(act, list) or not 3 <= len(act) <= 4:
            raise _fail(at, f"{act!r}: write [round, player, action] or [round, player, action, amount]")
        rnd, who, kind = act[0], act[1], act[2]
        if rnd not in ROUNDS:
            raise _fail(at, f"round {rnd!r}: use {', '.join(ROUNDS)}")
        if hand.result is not None:
            raise _fail(at, "an action after the end of the hand")
        legal = hand.legal()
        actor = hand.seats[legal.player].name
        if who != actor:
            raise IllegalActionError(f"{kind}", str(who), f"it is {actor}'s turn (RULES §3)", where=at)
        if rnd != hand.round:
            raise _fail(at, f"a {rnd} action in the {hand.round} round")
        x = act[3] if len(act) == 4 else None
        if kind == "hit" and x is not None:
            x = cards(x, f"actions[{k}]", 1)[0]
        try:
            hand.act(str(kind), x)
        except IllegalActionError as exc:
            raise IllegalActionError(exc.action, exc.player, exc.rule, where=at) from None
    if hand.result is None:
        raise _fail(where, f"the actions stop but {hand.seats[hand.to_act].name} is to act "
                           f"in the {hand.round} round")
    if check_result and isinstance(data.get("result"), dict):
        want = data["result"]
        got = dict(zip(names, hand.result.stacks, strict=True))
        diff = [f"{n}: recorded {want['stacks'][n]}, rules give {got[n]}" for n in names
                if isinstance(want.get("stacks"), dict) and n in want["stacks"] and want["stacks"][n] != got[n]]
        for key in ("house", "carry"):
            if key in want and want[key] != getattr(hand.result, key):
                diff.append(f"{key}: recorded {want[key]}, rules give {getattr(hand.result, key)}")
        if diff:
            raise _fail(where, "result differs: " + "; ".join(diff))
    return hand, hand.result
