"""Strategy profiles on a tree: on-policy values, exact best responses, NashConv and exploitability.

A *strategy* here is a flat float64 array of length ``tree.n_actions``: the
probabilities of each infoset's actions at ``infos[j, I_OFFSET] ..`` (every
player's infosets in one array, as the solvers produce it).

Definitions (named in every output):

- ``br_values[i]``: the value to player ``i`` of a best response to the others'
  strategies (``i`` chooses per information set, so it cannot see hidden cards);
- ``values[i]``: player ``i``'s expected payoff when everybody follows the profile;
- ``nash_conv = sum_i (br_values[i] - values[i])``: how much the players would
  gain in total by deviating; exactly 0 at a Nash equilibrium, for any game,
  zero-sum or not (the bank of Dilemma Hold'em makes the game general-sum);
- ``exploitability = nash_conv / n_players`` (open_spiel's definition). For a
  two-player zero-sum game the values cancel, so it equals
  ``(br_values[0] + br_values[1]) / 2``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import _layout as L
from ._br_kernels import best_response as _best_response_kernel
from ._br_kernels import expected_values as _expected_values_kernel
from .errors import SolverError
from .game_tree import GameTree


@dataclass(frozen=True)
class ProfileValue:
    """Best-response and on-policy values of a strategy profile, with NashConv and exploitability."""

    br_values: tuple[float, ...]
    values: tuple[float, ...]

    @property
    def gains(self) -> tuple[float, ...]:
        """Each player's gain from switching to a best response (>= 0 up to rounding)."""
        return tuple(b - v for b, v in zip(self.br_values, self.values, strict=True))

    @property
    def nash_conv(self) -> float:
        """Sum of the players' best-response gains; 0 exactly at a Nash equilibrium."""
        return float(sum(self.gains))

    @property
    def exploitability(self) -> float:
        """NashConv / players (open_spiel); for 2-player zero-sum games (BR0 + BR1) / 2."""
        return self.nash_conv / len(self.values)


def uniform_strategy(tree: GameTree) -> np.ndarray:
    """Every action of every infoset equally likely (a flat strategy array)."""
    counts = tree.infos[:, L.I_COUNT]
    return np.repeat(1.0 / counts, counts).astype(np.float64)


def check_strategy(tree: GameTree, strategy: np.ndarray) -> np.ndarray:
    """Return ``strategy`` as float64 after checking its length, signs and per-infoset sums."""
    s = np.ascontiguousarray(strategy, dtype=np.float64)
    if s.shape != (tree.n_actions,):
        raise SolverError(f"a strategy for '{tree.name}' needs {tree.n_actions} probabilities; "
                          f"got shape {s.shape}")
    if not np.all(np.isfinite(s)) or (s < -1e-12).any():
        raise SolverError(f"strategy for '{tree.name}': probabilities must be finite and >= 0")
    sums = np.add.reduceat(s, tree.infos[:, L.I_OFFSET]) if tree.n_infosets else np.zeros(0)
    bad = np.flatnonzero(np.abs(sums - 1.0) > 1e-6)
    if bad.size:
        j = int(bad[0])
        raise SolverError(f"strategy for '{tree.name}': infoset '{tree.infoset_labels[j]}' sums "
                          f"to {sums[j]:.6g}, not 1")
    return s


def expected_values(tree: GameTree, strategy: np.ndarray) -> np.ndarray:
    """Each player's expected payoff when all players follow ``strategy``."""
    s = check_strategy(tree, strategy)
    out = np.zeros(tree.n_players)
    _expected_values_kernel(tree.kernel_args, s, np.empty(tree.n_nodes), out)
    return out


def best_response(tree: GameTree, strategy: np.ndarray, player: int) -> tuple[float, np.ndarray]:
    """The value of ``player``'s best response to the others' ``strategy``, and its actions.

    The second item holds, per infoset, the index of the chosen action (-1 at the
    other players' infosets). Exact: one per-infoset backward pass.
    """
    if not 0 <= int(player) < tree.n_players:
        raise SolverError(f"player {player} out of range for '{tree.name}'")
    s = check_strategy(tree, strategy)
    return _br(tree, s, int(player))


def _br(tree: GameTree, s: np.ndarray, player: int) -> tuple[float, np.ndarray]:
    n, m = tree.n_nodes, tree.n_infosets
    best = np.full(m, -1, np.int64)
    value = _best_response_kernel(tree.kernel_args, s, player, np.empty(n), np.empty(n, np.int64),
                                  np.full(m, -1, np.int64), np.empty(max(tree.n_actions, 1)), best)
    return float(value), best


def profile_value(tree: GameTree, strategy: np.ndarray) -> ProfileValue:
    """Best-response values, on-policy values, NashConv and exploitability of a profile."""
    s = check_strategy(tree, strategy)
    values = np.zeros(tree.n_players)
    _expected_values_kernel(tree.kernel_args, s, np.empty(tree.n_nodes), values)
    br = tuple(_br(tree, s, p)[0] for p in range(tree.n_players))
    return ProfileValue(br, tuple(float(v) for v in values))


def exploitability(tree: GameTree, strategy: np.ndarray) -> float:
    """NashConv / players of ``strategy`` (in two-player zero-sum games: (BR0 + BR1) / 2)."""
    return profile_value(tree, strategy).exploitability


def nash_conv(tree: GameTree, strategy: np.ndarray) -> float:
    """Sum over players of the best-response gain; 0 exactly at a Nash equilibrium."""
    return profile_value(tree, strategy).nash_conv
