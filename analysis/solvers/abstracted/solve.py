"""Solving the abstracted Dilemma hand: the game (tree + deals), the solver state, the run loop.

- :func:`build_game` draws the deals (runner: seeded, resumable) and builds the
  public tree; heads-up it also builds the payoff matrices.
- :class:`DilemmaSolver` holds regrets and strategy sums and adds iterations:
  heads-up full width (``cfr``, ``cfr+``, ``dcfr``: :mod:`.vector`) or sampled
  (``mccfr``, any player count, linearly averaged: :mod:`._sampled_kernels`); its state saves to an
  ``.npz`` (atomically) and resumes bit for bit.
- :func:`solve_dilemma` runs to an iteration count or, heads-up, to a NashConv
  target, records NashConv (heads-up, exact) and the change of the average
  strategy per 1,000 iterations (every player count) as it goes.

The game is not zero-sum (the bank pays bonuses and takes penalties), so the
quality measure is NashConv: the sum of what each player would gain by
switching to a best response (0 exactly at an equilibrium).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from analysis.core.rng import derive_key
from analysis.dilemma.settlement.layout import new_arrays
from analysis.runners import Backend, Progress
from analysis.runners.interrupt import interruptible

from .. import _layout as L
from ..evaluate import ProfileValue
from ..tree_solver import SolverSettings, read_state, run_chunked, stop_and_save, write_state
from . import _sampled_kernels as SK
from ._deal_kernels import group_shares
from .deals import DealTable, game_args, sample_deals
from .public_tree import DECISION, ND_COUNT, ND_KIND, ND_STREET, PublicTree, build_public_tree
from .spec import DilemmaError, DilemmaSpec
from .vector import PayoffMatrices, VectorCFR, build_matrices, infos_of

HISTORY_COLUMNS = ["iteration", "nash_conv", "nash_conv_pot", "avg_change_per_1000", "seconds"]
CheckCallback = Callable[[int, int, float, float], None]
"""``check(iteration, total, nash_conv, change per 1000 iterations)`` (NaN where not defined)."""


@dataclass(frozen=True, eq=False)
class DilemmaGame:
    """A spec with its public tree and deal sample (and, heads-up, the payoff matrices)."""

    spec: DilemmaSpec
    tree: PublicTree
    deals: DealTable

    @cached_property
    def matrices(self) -> PayoffMatrices:
        if self.spec.players != 2:
            raise DilemmaError("payoff matrices (exact NashConv) are for two players")
        return build_matrices(self.tree, self.deals)

    @cached_property
    def infos(self) -> np.ndarray:
        return infos_of(self.tree)

    @cached_property
    def info_start(self) -> np.ndarray:
        """Per node, the number of its first information set (-1 if not a decision)."""
        t = self.tree
        out = np.full(t.n_nodes, -1, np.int64)
        dec = np.flatnonzero(t.nodes[:, ND_KIND] == DECISION)
        sizes = t.hist_sizes[t.nodes[dec, ND_STREET]]
        out[dec] = np.concatenate([[0], np.cumsum(sizes)[:-1]])
        return out

    @property
    def fingerprint(self) -> str:
        return f"{self.spec.fingerprint}-{self.deals.fingerprint}"

    def settle_args(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return (game_args(self.spec), self.spec.deck_obj.kernel_args, self.spec.rules_obj.kernel_args)

    def settle_scratch(self) -> tuple[np.ndarray, ...]:
        c = self.tree.classes.shape[0]
        return (np.zeros((c, self.spec.players), np.int64), np.zeros(c, np.int64),
                *new_arrays(self.spec.players))


def build_game(spec: DilemmaSpec, *, backend: Backend | None = None,
               state_dir: str | Path | None = None, progress: Progress | None = None) -> DilemmaGame:
    """Draw the deals and build the tree of ``spec``."""
    tree = build_public_tree(spec)
    deals = sample_deals(spec, backend=backend, state_dir=state_dir, progress=progress)
    return DilemmaGame(spec, tree, deals)


class DilemmaSolver:
    """Regrets and strategy sums of one method on one abstraction; ``run`` adds iterations."""

    def __init__(self, game: DilemmaGame, settings: SolverSettings | None = None) -> None:
        self.game = game
        self.settings = (settings or SolverSettings()).normalised()
        method = self.settings.method
        if method != "mccfr" and game.spec.players != 2:
            raise DilemmaError(f"{method} runs heads-up only (full width); use --method mccfr for "
                               f"{game.spec.players} players")
        a = game.tree.n_infoset_actions
        self.iteration = 0
        self.seconds = 0.0
        self.history: list[tuple[float, ...]] = []
        self._prev_avg: np.ndarray | None = None
        self._prev_iteration = 0
        if method == "mccfr":
            self._vector = None
            self.regret = np.zeros(a)
            self.ssum = np.zeros(a)
            self._key = derive_key(self.settings.seed, "dilemma-mccfr")
            self.sampled_opts = np.array([1, 0], np.int64)  # linear averaging, plain regrets
            t = game.tree
            max_k = int(t.nodes[:, ND_COUNT].max())
            groups = t.term_groups[1]
            shares = np.zeros((groups.shape[0], 2 ** game.spec.players, game.spec.players), np.int64)
            group_shares(groups, game.spec.players, game.spec.rules_obj.kernel_args, shares)
            self._tree_args = (t.walk_args, t.classes, groups, shares)
            self._scratch = (np.zeros((3, t.n_nodes), np.int64), np.zeros(t.n_nodes),
                             np.zeros(max_k), *game.settle_scratch(), np.zeros((groups.shape[0], game.spec.players)))
        else:
            coefs = np.zeros(L.N_COEFS)
            coefs[L.C_ALPHA] = self.settings.alpha
            coefs[L.C_BETA] = self.settings.beta
            coefs[L.C_GAMMA] = self.settings.gamma
            self._vector = VectorCFR(game.tree, game.matrices, L.METHOD_CODES[method],
                                     self.settings.alternating, coefs)
            self.regret = self._vector.regret
            self.ssum = self._vector.ssum

    def run(self, iterations: int) -> None:
        """Add ``iterations`` iterations."""
        n = int(iterations)
        if n <= 0:
            return
        t0 = time.perf_counter()
        if self._vector is not None:
            self._vector.run(self.iteration + 1, n)
        else:
            g = self.game
            SK.sampled_iterations(self._tree_args, (g.deals.records, g.deals.hist),
                                  g.settle_args(), (self.regret, self.ssum), self._key,
                                  (self.iteration + 1, n), self.sampled_opts, self._scratch)
        self.iteration += n
        self.seconds += time.perf_counter() - t0

    def average_strategy(self) -> np.ndarray:
        """The average strategy (flat, one block per decision node x history)."""
        from .._cfr_kernels import normalise_sums

        out = np.zeros_like(self.ssum)
        normalise_sums(self.ssum, self.game.infos, out)
        return out

    def evaluate(self) -> ProfileValue | None:
        """Heads-up: exact best-response and on-policy values of the average strategy."""
        if self.game.spec.players != 2:
            return None
        vec = self._vector or VectorCFR(self.game.tree, self.game.matrices, L.SM_CFR, True,
                                        np.zeros(L.N_COEFS))
        br, ev = vec.evaluate(self.average_strategy())
        return ProfileValue(br, ev)

    def record(self) -> tuple[float, float]:
        """Evaluate and append (iteration, NashConv, NashConv / pot, change per 1000, seconds)."""
        pv = self.evaluate()
        nc = pv.nash_conv if pv is not None else float("nan")
        avg = self.average_strategy()
        change = float("nan")
        if self._prev_avg is not None and self.iteration > self._prev_iteration:
            visited = self.ssum > 0
            diff = np.abs(avg - self._prev_avg)[visited]
            change = float(diff.mean() * 1000.0 / (self.iteration - self._prev_iteration)) if diff.size else 0.0
        self._prev_avg, self._prev_iteration = avg, self.iteration
        self.history.append((self.iteration, nc, nc / self.game.spec.pot, change, self.seconds))
        return nc, change

    def save(self, path: str | Path) -> Path:
        """Write the state (regrets, sums, iteration, history, settings, game id) atomically."""
        prev = self._prev_avg if self._prev_avg is not None else np.zeros(0)
        return write_state(path, {"game": self.game.fingerprint, "spec": self.game.spec.as_dict(),
                                  "settings": asdict(self.settings)},
                           regret=self.regret, ssum=self.ssum, iteration=np.int64(self.iteration),
                           seconds=np.float64(self.seconds), prev_avg=prev,
                           prev_iteration=np.int64(self._prev_iteration),
                           history=np.array(self.history, np.float64).reshape(-1, len(HISTORY_COLUMNS)))

    @classmethod
    def load(cls, path: str | Path, game: DilemmaGame) -> DilemmaSolver:
        """Resume from a file written by :meth:`save` (same abstraction, same deals)."""
        keys = ("regret", "ssum", "history", "prev_avg", "iteration", "seconds", "prev_iteration")
        info, arrays, settings = read_state(path, keys, DilemmaError)
        iteration, seconds = int(arrays["iteration"]), float(arrays["seconds"])
        prev_iteration = int(arrays["prev_iteration"])
        if info.get("game") != game.fingerprint:
            raise DilemmaError(f"solver state {path} was saved for another abstraction or deal "
                               f"sample ({info.get('game')}), not {game.fingerprint}")
        solver = cls(game, settings)
        if arrays["regret"].shape != solver.regret.shape:
            raise DilemmaError(f"solver state {path}: arrays do not fit the abstraction")
        solver.regret[:] = arrays["regret"]
        solver.ssum[:] = arrays["ssum"]
        solver.iteration, solver.seconds = iteration, seconds
        solver.history = [tuple(map(float, row)) for row in arrays["history"]]
        if arrays["prev_avg"].size:
            solver._prev_avg, solver._prev_iteration = arrays["prev_avg"].copy(), prev_iteration
        return solver


@dataclass(frozen=True, eq=False)
class DilemmaSolveResult:
    """The solved abstraction: average strategy, values, NashConv history, and the solver."""

    game: DilemmaGame
    settings: SolverSettings
    iterations: int
    average: np.ndarray
    profile: ProfileValue | None
    history: pd.DataFrame
    seconds: float

    @property
    def nash_conv(self) -> float:
        return self.profile.nash_conv if self.profile is not None else float("nan")

    @property
    def nash_conv_pot(self) -> float:
        """NashConv as a share of the starting pot."""
        return self.nash_conv / self.game.spec.pot

    def manifest(self) -> dict[str, Any]:
        from analysis.core.io import provenance

        spec = self.game.spec
        last_change = self.history["avg_change_per_1000"].dropna()
        return provenance(
            game="dilemma-abstraction", abstraction=spec.describe(), spec=spec.as_dict(),
            deck=spec.deck_obj.label, rules=spec.rules_obj.label, players=spec.players,
            method=self.settings.method, solver=asdict(self.settings), iterations=self.iterations,
            seed=spec.seed, trials=spec.deals, tree=self.game.tree.counts(),
            nash_conv=self.nash_conv, nash_conv_pot=self.nash_conv_pot,
            exploitability_definition=("NashConv = sum over players of (best-response value - "
                                       "value), exact on the abstraction (the game is not "
                                       "zero-sum: the bank pays and takes)"
                                       if spec.players == 2 else "not computed for 3 players: see "
                                       "avg_change_per_1000"),
            avg_change_per_1000=float(last_change.iloc[-1]) if len(last_change) else None,
            seconds=round(self.seconds, 3), fingerprint=self.game.fingerprint)


MAX_INFOSET_ACTIONS = 40_000_000
"""Largest abstraction a solver allocates (regrets and sums: 640 MB); a bigger one is an error."""


def check_run(spec: DilemmaSpec, method: str, target: float | None = None,
              tree: PublicTree | None = None) -> SolverSettings:
    """Raise :class:`DilemmaError` for a method, target or size that cannot run on ``spec``
    (called before the deals are drawn, so bad options fail at once)."""
    settings = SolverSettings(method).normalised()
    if settings.method != "mccfr" and spec.players != 2:
        raise DilemmaError(f"{settings.method} runs heads-up only (full width); use --method mccfr "
                           f"for {spec.players} players")
    if target is not None:
        if not target > 0:
            raise DilemmaError(f"target must be > 0 chips; got {target}")
        if spec.players != 2:
            raise DilemmaError("a NashConv target needs 2 players (3 players: no exact best "
                               "response; give --iterations)")
    tree = tree or build_public_tree(spec)
    size = tree.n_infoset_actions
    if size > MAX_INFOSET_ACTIONS:
        raise DilemmaError(f"the abstraction has {size:,} infoset-actions (limit "
                           f"{MAX_INFOSET_ACTIONS:,}): use fewer buckets, sizes or raises")
    return settings


def solve_dilemma(game: DilemmaGame, method: str = "cfr+", iterations: int = 1000, *,
                  target: float | None = None, check_every: int | None = None, seed: int = 0,
                  state: str | Path | None = None, check: CheckCallback | None = None,
                  alternating: bool = True) -> DilemmaSolveResult:
    """Run to ``iterations`` in total or, heads-up, until NashConv <= ``target`` (chips).

    With ``state`` an existing file is resumed and the state is saved at every check.
    ``check(iteration, total, nash_conv, change)`` is called at every check (every
    ``check_every`` iterations, default ``iterations // 20``).
    """
    check_run(game.spec, method, target, game.tree)
    settings = SolverSettings(method, alternating, seed=seed).normalised()
    total = int(iterations)
    if total < 0:
        raise DilemmaError(f"iterations must be >= 0; got {iterations}")
    every = int(check_every) if check_every is not None else max(1, total // 20)
    if every < 1:
        raise DilemmaError(f"check_every must be >= 1; got {check_every}")
    if state is not None and Path(state).exists():
        solver = DilemmaSolver.load(state, game)
        if solver.settings != settings:
            raise DilemmaError(f"solver state {state} was saved with {asdict(solver.settings)}, "
                               f"not {asdict(settings)}")
    else:
        solver = DilemmaSolver(game, settings)
    checked = False
    with interruptible() as stop:
        while solver.iteration < total:
            step = min(every - solver.iteration % every, total - solver.iteration)
            run_chunked(solver, step, stop, lambda: stop_and_save(solver, total, state))
            if solver.iteration % every == 0 or solver.iteration == total:
                nc, change = solver.record()
                checked = True
                if state is not None:
                    solver.save(state)
                if check is not None:
                    check(solver.iteration, total, nc, change)
                if target is not None and nc <= target:
                    break
    if not checked and (not solver.history or solver.history[-1][0] != solver.iteration):
        solver.record()
        if state is not None:
            solver.save(state)
    history = pd.DataFrame(solver.history, columns=HISTORY_COLUMNS).astype({"iteration": "int64"})
    return DilemmaSolveResult(game, settings, solver.iteration, solver.average_strategy(),
                              solver.evaluate(), history, solver.seconds)
