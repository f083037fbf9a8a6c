"""A slow, plain-Python fold-vs-check reference for small spots (heads-up river and turn).

Written from the study's rules without its kernels: strengths by counting every
holding, opponents that bet by threshold, one bet per round, every hand settled by
the readable settlement referee or the settlement core (both proven on their own),
and the hero's exact best response found by backward induction over the public
histories (each history is an information set: the hero's cards and the board are
known), the latest decided first.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cache

import numpy as np

from analysis.dilemma.decks import load_deck
from analysis.dilemma.settlement import HandState, PlayerState, Rules, settle, settle_fast
from analysis.studies.fold_vs_check.models import load_model, load_policy
from evaluator import evaluate, get_game, parse_cards

STREETS = {"flop": 1, "turn": 2, "river": 3}


@dataclass
class SmallSpot:
    hero: tuple[int, int]
    board: tuple[int, ...]
    pot: int
    model: str = "threshold"
    deck: str = "reference"
    bank: tuple[int, int, int] = (300, 700, 500)
    last: bool = False
    """The hero acts after the opponent (who has checked at the decision street)."""

    @property
    def street(self) -> int:
        return len(self.board) - 2


@cache
def _board_scores(board: tuple[int, ...]) -> dict[tuple[int, int], int]:
    """The score of every holding off ``board`` (with the evaluator, proven on its own)."""
    rest = [c for c in range(40) if c not in board]
    return {p: evaluate(list(p) + list(board)) for p in itertools.combinations(rest, 2)}


@cache
def _board_strengths(board: tuple[int, ...]) -> dict[tuple[int, int], float]:
    """:func:`strength` of every holding off ``board`` at once: one row per holding, one column
    per other holding; a column counts if it shares no card with the row (1 beaten, 0.5 tied).
    Every count is a multiple of 0.5, so the sums are exact in any order."""
    scores = _board_scores(board)
    holes = np.array(list(scores))
    value = np.array(list(scores.values()))
    apart = ((holes[:, None, 0] != holes[None, :, 0]) & (holes[:, None, 0] != holes[None, :, 1])
             & (holes[:, None, 1] != holes[None, :, 0]) & (holes[:, None, 1] != holes[None, :, 1]))
    won = (value[:, None] > value[None, :]) + 0.5 * (value[:, None] == value[None, :])
    share = (won * apart).sum(axis=1) / apart.sum(axis=1)
    return {p: float(x) for p, x in zip(scores, share, strict=True)}


def strength(hole: tuple[int, int], board: tuple[int, ...]) -> float:
    """Share of the holdings off the board and off ``hole`` that ``hole`` beats (ties half)."""
    return _board_strengths(tuple(board))[tuple(sorted(hole))]


def slow_strength(hole: tuple[int, int], board: tuple[int, ...]) -> float:
    """:func:`strength` one holding at a time in plain Python (the definition; checks the above)."""
    scores = _board_scores(tuple(board))
    mine = scores[tuple(sorted(hole))]
    won = 0.0
    n = 0
    for p, other in scores.items():
        if p[0] in hole or p[1] in hole:
            continue
        n += 1
        won += 1.0 if mine > other else 0.5 if mine == other else 0.0
    return won / n


@cache
def _model(name: str):
    """The opponent model by name, read once (``load_model`` parses its TOML on every call)."""
    return load_model(name)


def play(spot: SmallSpot, opp: tuple[int, int], board: tuple[int, ...], decide, settle_fn) -> int:
    """The hero's money (relative to its stack at the decision) when it plays on per
    ``decide(key, facing, street)`` (True: check/call; at the decision street with an empty
    history: False folds now). The opponent follows the model; ``settle_fn(state)`` returns
    the final stacks."""
    model = _model(spot.model)
    behind = 1000 - spot.pot // 2
    share = spot.pot // 20 * 10
    dead = spot.pot - 2 * share
    stack = [behind, behind]
    put = [share, share]
    folded: list[int | None] = [None, None]
    history: tuple = ()
    last = spot.street
    for s in range(spot.street, 4):
        last = s
        if s > spot.street:
            history += (("card", board[s + 1]),)
        bet, size, call = model.params[s]
        opp_bets = bet <= 1.0 and stack[1] > 0 and strength(opp, board[: s + 2]) >= bet
        if spot.last and s == spot.street:
            assert not opp_bets, "a deal where the opponent acting first bets is not the spot's"
        if not (spot.last and opp_bets) and (
                (s == spot.street and not decide((), False, s)) or (
                s > spot.street and stack[0] > 0 and not decide(history, False, s))):
            folded[0] = s
            break
        if opp_bets:
            pot = sum(put) + dead
            amount = min(max(20, int((size * pot + 5.0) // 10.0) * 10), stack[1])
            stack[1] -= amount
            put[1] += amount
            history += (("bet", amount),)
            if stack[0] > 0:
                if decide(history, True, s):
                    pay = min(amount, stack[0])
                    stack[0] -= pay
                    put[0] += pay
                else:
                    folded[0] = s
                    break
    players = [PlayerState("hero", stack[0], put[0], folded[0], spot.hero),
               PlayerState("opp", stack[1], put[1], folded[1], opp)]
    if dead:
        players.append(PlayerState("dead", behind, dead, 0, ()))
    showdown = folded[0] is None
    state = HandState(tuple(players), tuple(board[:5] if showdown else board[: last + 2]),
                      last_round=last, bank=spot.bank, dealer=0 if spot.last else len(players) - 1)
    return settle_fn(state)[0] - behind


def referee(spot: SmallSpot):
    """Settle with the readable referee (slow, explains every step)."""
    deck = load_deck(spot.deck)
    return lambda state: settle(state, deck, Rules()).stacks


def core(spot: SmallSpot):
    """Settle with the numba core from Python (the settlement is proven on its own)."""
    deck = load_deck(spot.deck)
    return lambda state: settle_fast(state, deck, Rules())["stacks"]


def deals(spot: SmallSpot):
    """Every (opponent holding, full board) of the spot, equally likely; with the hero last,
    only the holdings with which the opponent checks at the decision (the spot's premise)."""
    used = set(spot.hero) | set(spot.board)
    free = [c for c in range(40) if c not in used]
    bet = _model(spot.model).params[spot.street][0]
    for opp in itertools.combinations(free, 2):
        if spot.last and bet <= 1.0 and strength(opp, spot.board) >= bet:
            continue
        if spot.street == 3:
            yield opp, spot.board
        else:
            for river in free:
                if river not in opp:
                    yield opp, spot.board + (river,)


def exact_answer(spot: SmallSpot, settle_fn) -> dict[str, float]:
    """EV of folding now, of checking with the exact best response (information sets are the
    public histories, latest decided first), and of checking with each fixed policy."""
    chains = []
    for opp, board in deals(spot):
        fold_now = play(spot, opp, board, lambda key, facing, s: key != (), settle_fn)
        seen: list[tuple] = []

        def always(key, facing, s, seen=seen):
            if key:
                seen.append((key, facing, s))
            return True
        cont = play(spot, opp, board, always, settle_fn)
        steps = []
        for key, facing, s in seen:
            money = play(spot, opp, board, lambda k, f, st, key=key: k != key, settle_fn)
            steps.append((key, facing, s, money, strength(spot.hero, board[: s + 2])))
        chains.append((fold_now, steps, cont))
    n = len(chains)

    def value(chain, decide) -> int:
        _fold, steps, cont = chain
        for key, facing, s, money, st in steps:
            if not decide(key, facing, s, st):
                return money
        return cont

    plan: dict = {}
    keys = sorted({step[0] for c in chains for step in c[1]}, key=len, reverse=True)
    for key in keys:
        go = stop = 0
        for chain in chains:
            for i, step in enumerate(chain[1]):
                if step[0] == key:
                    stop += step[3]
                    go += value((None, chain[1][i + 1:], chain[2]),
                                lambda k, f, s, st: plan.get(k, True))
        plan[key] = go >= stop
    out = {"ev_fold": sum(c[0] for c in chains) / n,
           "ev_check": sum(value(c, lambda k, f, s, st: plan.get(k, True)) for c in chains) / n}
    for name in ("check_down", "check_fold", "call_down"):
        calls = load_policy(name).call

        def fixed(k, facing, s, st, calls=calls):
            return not facing or calls[s] <= 0.0 or (calls[s] <= 1.0 and st >= calls[s])
        out[f"ev_check_{name}"] = sum(value(c, fixed) for c in chains) / n
    return out


def small_spot(hero: str, board: str, pot: int, **kw) -> SmallSpot:
    """A heads-up spot from card text."""
    spec = get_game("dilemma")
    return SmallSpot(tuple(parse_cards(hero, spec)), tuple(parse_cards(board, spec)), pot, **kw)
