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
against it. With the tree the study plays (the hero never bets, the model's one bet
size) the best response equals the study's exact best response
(``tests/solvers/test_card_solver_locking.py``). Models with ``relative = true``
(thresholds within the player's own narrowed range) are refused: their strength depends
on the line, not only on the cards.
"""

from __future__ import annotations

import numpy as np

from analysis.core.strategy import Decision
from analysis.studies.fold_vs_check.models import OpponentModel, load_model
from evaluator.strength import holding_strengths

from .card_spot import SpotError
from .solver import CardSolver
from .tree import A_ALLIN, A_BET, A_CALL, A_CHECK, A_FOLD, AMOUNT, DEALT0, DEALT1, PLAYER

STREET_OF_BOARD = {3: 1, 4: 2, 5: 3}
"""Model street index (1 flop, 2 turn, 3 river) of a board of 3, 4 or 5 cards."""

PLAYERS = {"oop": 0, "ip": 1}


def model_table(solver: CardSolver, node: int, model: OpponentModel,
                cache: dict[tuple[int, ...], np.ndarray] | None = None) -> np.ndarray:
    """The locked strategy of ``model`` at decision ``node``: float64[actions, holdings]."""
    spot, nodes = solver.spot, solver.tree.nodes
    player = int(nodes[node, PLAYER])
    combos = spot.holdings(player)[0]
    board = [int(c) for c in spot.board] + [int(c) for c in nodes[node, [DEALT0, DEALT1]] if c >= 0]
    cache = {} if cache is None else cache
    key = (player, *board)
    if key not in cache:
        cache[key] = holding_strengths(combos, board, spot.spec)
    strength = np.nan_to_num(cache[key], nan=-1.0)  # a blocked holding never reaches the node
    bet, size, call = model.params[STREET_OF_BOARD[len(board)]]
    actions = solver.tree.actions[int(np.searchsorted(solver.tree.decision_nodes, node))]
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
    pot = spot.pot + 2 * int(nodes[node, AMOUNT])
    chosen = min(bets, key=lambda i: abs(actions[i][1] - size * pot))
    out[chosen] = strength >= bet
    out[check] = strength < bet
    return out


def lock_to_model(solver: CardSolver, player: int | str, model: str | OpponentModel) -> OpponentModel:
    """Lock every decision of ``player`` (0/``oop`` or 1/``ip``) to ``model`` (any shipped
    strategy's name, a TOML path of a model or strategy, or loaded thresholds); returns the
    thresholds it plays."""
    if isinstance(player, str):
        if player not in PLAYERS:
            raise SpotError(f"lock {player!r}: the player is oop or ip")
        player = PLAYERS[player]
    spot = solver.spot
    label = model if isinstance(model, str) else model.name
    model = load_model(model, Decision(players=spot.players, position=player, pot=float(spot.pot),
                                       stack=float(spot.stack), big_blind=float(spot.min_bet)))
    if model.relative:
        raise SpotError(f"model {model.name!r} is relative (thresholds within its narrowed range): "
                        "it cannot be locked into a card-level tree")
    cache: dict[tuple[int, ...], np.ndarray] = {}
    solver.lock_everywhere(player, lambda v: model_table(solver, v, model, cache), label=label)
    return model


def parse_locks(text: str | None) -> dict[str, str]:
    """``"ip=threshold"`` or ``"oop=abc, ip=path/model.toml"`` -> {player: strategy}."""
    out: dict[str, str] = {}
    for item in (text or "").replace(";", ",").split(","):
        if not item.strip():
            continue
        player, sep, model = item.partition("=")
        player = player.strip().lower()
        if not sep or player not in PLAYERS or not model.strip():
            raise SpotError(f"--lock {item.strip()!r}: write PLAYER=MODEL, PLAYER oop or ip, e.g. ip=threshold")
        out[player] = model.strip()
    return out
