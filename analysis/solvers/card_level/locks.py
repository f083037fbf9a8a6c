"""Lock a player of a card-level spot to any strategy: an opponent model or an engine strategy.

An engine strategy is first read as thresholds at the spot's table (every player in, the
locked player's place in the order, the root's pot and stacks, the smallest bet as the big
blind: :func:`analysis.core.strategy.threshold_model` says what that reading keeps and what
it cannot). An opponent model (``analysis.studies.fold_vs_check.models``: per street a bet
threshold, a bet size and a call threshold on the holding's *strength*, the share of
unseen holdings it beats on the board so far) becomes, at every decision of the
locked player, a table of action frequencies per holding, the way the fold-vs-check
study plays it:

- nobody has bet: bet (the tree's bet closest to the model's fraction of the pot) when
  the strength reaches the bet threshold, else check; never a free fold;
- facing a bet: call at or above the call threshold, else fold; never raise.

The other player then best-responds (``CardSolver.best_response_values``) or solves
against it. Three-handed spots (:class:`.multiway.MultiwaySolver` on the river,
:class:`.turn3.TurnSolver3` on the turn) lock the same way, their players named ``first``,
``second`` and ``third`` (the order of action); with both opponents locked to a model the
hero's best response equals the study's with two opponents
(``tests/solvers/test_card_solver_locking3.py``). With the tree the study plays (the hero never bets, the model's one bet
size) the best response equals the study's exact best response
(``tests/solvers/test_card_solver_locking.py``). Models with ``relative = true``
(thresholds within the player's own narrowed range) are refused: their strength depends
on the line, not only on the cards.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from analysis.core.strategy import Decision
from analysis.studies.fold_vs_check.models import OpponentModel, load_model
from evaluator.strength import holding_strengths

from .card_spot import SEATS, SEATS3, SpotError
from .tree import A_ALLIN, A_BET, A_CALL, A_CHECK, A_FOLD, AMOUNT, DEALT0, DEALT1, PLAYER

STREET_OF_BOARD = {3: 1, 4: 2, 5: 3}
"""Model street index (1 flop, 2 turn, 3 river) of a board of 3, 4 or 5 cards."""

PLAYERS = {name: p for p, name in enumerate(SEATS)}
PLAYERS3 = {name: p for p, name in enumerate(SEATS3)}
"""Three-handed players by name (:data:`.card_spot.SEATS3`: the order of action)."""
_NAMED = {2: (PLAYERS, "oop or ip"), 3: (PLAYERS3, "first, second or third")}
"""Per player count, the players by name and how a message lists them."""


def _node_view(solver, node: int) -> tuple[int, list[int], list[tuple[int, int]], int]:
    """The actor at decision ``node``, the board there, its actions and the pot before them (the
    root's pot plus every chip put in since): heads-up or three-handed."""
    spot, nodes = solver.spot, solver.tree.nodes
    if spot.players == 3:
        from .tree3 import PLAYER as PLAYER3

        return (int(nodes[node, PLAYER3]), solver.board_at(node), list(solver.tree.actions[node]),
                spot.pot + int(solver.tree.puts[node].sum()))
    player = int(nodes[node, PLAYER])
    board = [int(c) for c in spot.board] + [int(c) for c in nodes[node, [DEALT0, DEALT1]] if c >= 0]
    actions = solver.tree.actions[int(np.searchsorted(solver.tree.decision_nodes, node))]
    return player, board, actions, spot.pot + 2 * int(nodes[node, AMOUNT])


def model_table(solver, node: int, model: OpponentModel,
                cache: dict[tuple[int, ...], np.ndarray] | None = None) -> np.ndarray:
    """The locked strategy of ``model`` at decision ``node``: float64[actions, holdings] (a
    heads-up :class:`.solver.CardSolver` or a three-handed solver)."""
    spot = solver.spot
    player, board, actions, pot = _node_view(solver, node)
    combos = spot.holdings(player)[0]
    cache = {} if cache is None else cache
    key = (player, *board)
    if key not in cache:
        cache[key] = holding_strengths(combos, board, spot.spec)
    strength = np.nan_to_num(cache[key], nan=-1.0)  # a blocked holding never reaches the node
    bet, size, call = model.params[STREET_OF_BOARD[len(board)]]
    codes = [a[0] for a in actions]
    out = np.zeros((len(actions), len(combos)))
    if A_CALL in codes:
        yes, no = codes.index(A_CALL), codes.index(A_FOLD)
        out[yes] = strength >= call
        out[no] = strength < call
        return out
    bets = [i for i, c in enumerate(codes) if c in (A_BET, A_ALLIN)]
    check = codes.index(A_CHECK)
    if not bets:
        out[check] = 1.0
        return out
    chosen = min(bets, key=lambda i: abs(actions[i][1] - size * pot))
    out[chosen] = strength >= bet
    out[check] = strength < bet
    return out


def lock_to_model(solver, player: int | str, model: str | OpponentModel) -> OpponentModel:
    """Lock every decision of ``player`` (heads-up 0/``oop`` or 1/``ip``; three-handed 0/``first``,
    1/``second`` or 2/``third``) to ``model`` (any shipped strategy's name, a TOML path of a model
    or strategy, or loaded thresholds); returns the thresholds it plays."""
    spot = solver.spot
    label = model if isinstance(model, str) else model.name
    names, said = _NAMED[spot.players]
    if isinstance(player, str):
        if player not in names:
            raise SpotError(f"lock {player!r}: the player is {said}")
        player = names[player]
    elif spot.players == 3 and not 0 <= int(player) < 3:
        raise SpotError(f"lock player {player}: the player is {said} (0 to {spot.players - 1})")
    model = load_model(model, Decision(players=spot.players, position=player, pot=float(spot.pot),
                                       stack=float(spot.stack), big_blind=float(spot.min_bet)))
    if model.relative:
        raise SpotError(f"model {model.name!r} is relative (thresholds within its narrowed range): "
                        "it cannot be locked into a card-level tree")
    cache: dict[tuple[int, ...], np.ndarray] = {}
    solver.lock_everywhere(player, lambda v: model_table(solver, v, model, cache), label=label)
    return model


def parse_locks(text: str | Sequence[str] | None, players: int | None = None) -> dict[str, str]:
    """``"ip=threshold"`` or ``"oop=abc, ip=path/model.toml"`` -> {player: strategy}; three-handed
    ``"second=threshold, third=abc"``. A list of such texts (``--lock`` given more than once) is
    read as one. ``players`` (2 or 3) checks the names against the spot's (else either set)."""
    out: dict[str, str] = {}
    texts = [text] if text is None or isinstance(text, str) else list(text)
    names, said = _NAMED.get(players or 0, (PLAYERS | PLAYERS3,
                                             "oop or ip (heads-up), first, second or third (three-handed)"))
    for part in texts:
        for item in (part or "").replace(";", ",").split(","):
            if not item.strip():
                continue
            player, sep, model = item.partition("=")
            player = player.strip().lower()
            if not sep or player not in names or not model.strip():
                example = "second=threshold" if players == 3 else "ip=threshold"
                raise SpotError(f"--lock {item.strip()!r}: write PLAYER=MODEL, PLAYER {said}, e.g. {example}")
            if player in out:
                raise SpotError(f"--lock {player}: locked twice ({out[player]} and {model.strip()}); lock a player once")
            out[player] = model.strip()
    return out


def apply_locks(solver, locks: dict, node_of) -> None:  # type: ignore[no-untyped-def]
    """``solve_spot``'s ``locks`` on any card-level solver: ``{player: model}`` (a seat's name, the
    model's name or path: :func:`lock_to_model`) or ``{line: table}`` (a line of action labels,
    ``node_of(line)`` its node, and the table as the solver's ``lock`` takes it)."""
    for key, strategy in locks.items():
        if isinstance(key, str):
            lock_to_model(solver, key, strategy)  # (a name not the spot's seats: one SpotError listing them)
        else:
            solver.lock(node_of(tuple(key)), strategy)


def check_resumed_locks(solver, held: dict[str, str], locks: dict[str, str], path: object) -> None:  # type: ignore[no-untyped-def]
    """Refuse to resume a solution file (``path``) solved with other locks than ``locks``
    (``{player: model}``): ``held`` is what the file records. A file from before the labels were
    saved records ``unrecorded``: with the same players locked it takes ``locks``' word (its
    labels are set in ``solver``, so the next save records them)."""
    if held.keys() == locks.keys() and all(m == "unrecorded" for m in held.values()):
        names = _NAMED[solver.spot.players][0]
        solver.lock_labels.update({names[p]: m for p, m in locks.items()})
        return
    if held != locks:
        def said(d: dict[str, str]) -> str:
            return ", ".join(f"{p}={m}" for p, m in sorted(d.items())) or "nothing"

        raise SpotError(f"solution file {path} was solved with {said(held)} locked, and this command locks "
                        f"{said(locks)} (--lock); remove it or give another --state")
