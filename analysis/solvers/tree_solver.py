"""The solver loop: settings, state (regrets, strategy sums, iteration) with save/resume, and results.

:class:`Solver` owns the flat arrays and calls the numba kernels in chunks;
:func:`solve` runs it to an iteration count or an exploitability target, records
the exploitability as it falls, checkpoints to an ``.npz`` file (written
atomically) and returns a :class:`SolveResult`. A saved state holds everything
the next iteration depends on, so a resumed run equals an uninterrupted one bit
for bit.
"""

from __future__ import annotations

import json
import time
import zipfile
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from analysis.core.io import atomic_path, provenance, write_table
from analysis.core.rng import derive_key
from analysis.runners.interrupt import Interrupted, interruptible

from . import _layout as L
from . import frames
from ._cfr_kernels import cfr_iterations, normalise_sums
from ._mccfr_kernels import es_iterations
from .errors import SolverError
from .evaluate import ProfileValue, profile_value
from .game_tree import GameTree, build_tree
from .methods import method_named

_STATE_FORMAT = 1


def write_state(path: str | Path, info: dict[str, Any], **arrays: Any) -> Path:
    """A solver's state as one ``.npz``: its arrays and a JSON ``info`` record (with the
    format number), written whole or not at all."""
    path = Path(path)
    record = json.dumps({"format": _STATE_FORMAT, **info}, sort_keys=True)
    with atomic_path(path) as tmp, open(tmp, "wb") as fh:
        np.savez(fh, info=np.array(record), **arrays)
    return path


def read_state(path: str | Path, keys: tuple[str, ...],
               error: type[Exception]) -> tuple[dict[str, Any], dict[str, np.ndarray], SolverSettings]:
    """The ``info`` record, the arrays named by ``keys`` and the settings of a file written by
    :func:`write_state`; anything unreadable is one ``error`` naming the file."""
    try:
        with np.load(Path(path), allow_pickle=False) as z:
            info = json.loads(str(z["info"]))
            arrays = {k: z[k] for k in keys}
    except (OSError, KeyError, ValueError, EOFError, zipfile.BadZipFile) as exc:
        raise error(f"cannot read solver state {path}: not a whole state file "
                    f"({type(exc).__name__}: {exc})") from None
    if not isinstance(info, dict) or info.get("format") != _STATE_FORMAT:
        found = info.get("format") if isinstance(info, dict) else None
        raise error(f"cannot read solver state {path}: written by another version of the lab "
                    f"(format {found}, this one reads {_STATE_FORMAT})")
    try:
        settings = SolverSettings(**info["settings"])
    except (TypeError, KeyError) as exc:
        raise error(f"solver state {path}: unreadable settings ({exc})") from None
    return info, arrays, settings
_HISTORY_COLUMNS = ["iteration", "exploitability", "nash_conv", "seconds"]

Progress = Callable[[int, int, float], None]


@dataclass(frozen=True)
class SolverSettings:
    """Method (``cfr``, ``cfr+``, ``dcfr``, ``mccfr``) and its options; what a saved state records.

    ``alternating``: update one player at a time (open_spiel's default for every
    CFR variant; MCCFR always alternates). ``alpha, beta, gamma``: DCFR's
    discounts. ``seed``: MCCFR's generator seed (the full-width methods are
    deterministic). Options a method does not use are reset to their defaults by
    :meth:`normalised`, so they never block a resume.
    """

    method: str = "cfr+"
    alternating: bool = True
    alpha: float = 1.5
    beta: float = 0.0
    gamma: float = 2.0
    seed: int = 0

    def normalised(self) -> SolverSettings:
        """The same settings with the method's canonical name, checked."""
        method = method_named(self.method, "game tree").name
        if int(self.seed) < 0:
            raise SolverError(f"seed must be a non-negative integer; got {self.seed}")
        for name in ("alpha", "beta", "gamma"):
            if not np.isfinite(getattr(self, name)):
                raise SolverError(f"{name} must be a finite number")
        out = replace(self, method=method, alternating=bool(self.alternating),
                      alpha=float(self.alpha), beta=float(self.beta), gamma=float(self.gamma),
                      seed=int(self.seed))
        default = SolverSettings()
        if method != "dcfr":
            out = replace(out, alpha=default.alpha, beta=default.beta, gamma=default.gamma)
        if method != "mccfr":
            out = replace(out, seed=default.seed)
        else:
            out = replace(out, alternating=True)
        return out


class Solver:
    """Regrets and strategy sums of one method on one tree; ``run`` adds iterations in place."""

    def __init__(self, tree: GameTree, settings: SolverSettings | None = None) -> None:
        self.tree = tree
        self.settings = (settings or SolverSettings()).normalised()
        a = max(tree.n_actions, 1)
        self.regret = np.zeros(a)
        self.ssum = np.zeros(a)
        self.iteration = 0
        self.seconds = 0.0
        self.history: list[tuple[float, float, float, float]] = []
        self._strategy = np.zeros(a)
        n = tree.n_nodes
        if self.settings.method == "mccfr":
            self._key = derive_key(self.settings.seed, "mccfr")
            self._iwork = np.zeros((3, n), np.int64)
            self._value = np.zeros(n)
            self._sigma = np.zeros(tree.max_actions)
            self._deal = (np.zeros((1, tree.n_players), np.int64), np.zeros((1, tree.n_players)))
        else:
            self._work = np.zeros((3, n))
            self._opts = np.zeros(L.N_OPTS, np.int64)
            self._opts[L.O_METHOD] = L.METHOD_CODES[self.settings.method]
            self._opts[L.O_ALTERNATING] = int(self.settings.alternating)
            self._coefs = np.zeros(L.N_COEFS)
            self._coefs[L.C_ALPHA] = self.settings.alpha
            self._coefs[L.C_BETA] = self.settings.beta
            self._coefs[L.C_GAMMA] = self.settings.gamma

    def run(self, iterations: int) -> None:
        """Add ``iterations`` iterations (in one kernel call)."""
        n = int(iterations)
        if n <= 0:
            return
        t0 = time.perf_counter()
        tr = self.tree
        if self.settings.method == "mccfr":
            es_iterations(tr.walk_args, (self.regret, self.ssum), self._key, (self.iteration + 1, n),
                          (self._iwork, self._value, self._sigma, *self._deal))
        else:
            cfr_iterations(tr.kernel_args, (self.regret, self.ssum), self._strategy, self._work,
                           (self._opts, self._coefs), (self.iteration + 1, n))
        self.iteration += n
        self.seconds += time.perf_counter() - t0

    def average_strategy(self) -> np.ndarray:
        """The average strategy (flat array): what converges to an equilibrium."""
        out = np.zeros_like(self.ssum)
        normalise_sums(self.ssum, self.tree.infos, out)
        return out[: self.tree.n_actions]

    def evaluate(self) -> ProfileValue:
        """Exact best-response values, NashConv and exploitability of the average strategy."""
        return profile_value(self.tree, self.average_strategy())

    def record(self) -> ProfileValue:
        """Evaluate the average strategy and append it to the history."""
        pv = self.evaluate()
        self.history.append((self.iteration, pv.exploitability, pv.nash_conv, self.seconds))
        return pv

    def save(self, path: str | Path) -> Path:
        """Write the state (regrets, sums, iteration, history, settings, tree id) atomically."""
        return write_state(path, {"tree": self.tree.name, "fingerprint": self.tree.fingerprint,
                                  "settings": asdict(self.settings)},
                           regret=self.regret, ssum=self.ssum, iteration=np.int64(self.iteration),
                           seconds=np.float64(self.seconds),
                           history=np.array(self.history, np.float64).reshape(-1, 4))

    @classmethod
    def load(cls, path: str | Path, tree: GameTree) -> Solver:
        """Resume from a file written by :meth:`save` (on the same tree)."""
        info, z, settings = read_state(path, ("regret", "ssum", "iteration", "seconds", "history"),
                                       SolverError)
        regret, ssum = z["regret"], z["ssum"]
        iteration, seconds, history = int(z["iteration"]), float(z["seconds"]), z["history"]
        if info.get("fingerprint") != tree.fingerprint:
            raise SolverError(f"solver state {path} was saved for tree '{info.get('tree')}' "
                              f"({info.get('fingerprint')}), not '{tree.name}' ({tree.fingerprint})")
        solver = cls(tree, settings)
        if regret.shape != solver.regret.shape or ssum.shape != solver.ssum.shape:
            raise SolverError(f"solver state {path}: arrays do not fit tree '{tree.name}'")
        solver.regret[:] = regret
        solver.ssum[:] = ssum
        solver.iteration = iteration
        solver.seconds = seconds
        solver.history = [tuple(map(float, row)) for row in history]
        return solver


@dataclass(frozen=True, eq=False)
class SolveResult:
    """What :func:`solve` returns: the average strategy, values, exploitability and its history."""

    tree: GameTree
    settings: SolverSettings
    iterations: int
    average: np.ndarray
    profile: ProfileValue
    history: pd.DataFrame
    seconds: float

    @property
    def game_value(self) -> tuple[float, ...]:
        """Each player's expected payoff under the average strategy (Kuhn: player 0 -> -1/18)."""
        return self.profile.values

    @property
    def exploitability(self) -> float:
        """NashConv / players of the average strategy (2-player zero-sum: (BR0 + BR1) / 2)."""
        return self.profile.exploitability

    @property
    def nash_conv(self) -> float:
        """Sum of the players' best-response gains against the average strategy."""
        return self.profile.nash_conv

    @property
    def strategy(self) -> pd.DataFrame:
        """The average strategy: one row per (infoset, action) with player, labels and probability."""
        return strategy_frame(self.tree, self.average)

    def manifest(self) -> dict[str, Any]:
        """Provenance for result files: game, tree size, method, settings, iterations, figures."""
        return provenance(game=self.tree.name, tree=self.tree.counts(),
                          fingerprint=self.tree.fingerprint, solver=asdict(self.settings),
                          iterations=self.iterations, exploitability=self.exploitability,
                          exploitability_definition="NashConv / players",
                          nash_conv=self.nash_conv, game_value=list(self.game_value),
                          seconds=self.seconds, exact="best responses exact")

    def write(self, out_dir: str | Path, name: str = "strategy") -> dict[str, Path]:
        """Write the strategy table and the exploitability history (CSV, Parquet, manifest)."""
        paths = write_table(self.strategy, out_dir, name, self.manifest())
        write_table(self.history, out_dir, f"{name}_history", self.manifest())
        return paths


def strategy_frame(tree: GameTree, strategy: np.ndarray) -> pd.DataFrame:
    """A flat strategy as a strategy frame (:mod:`.frames`): player, line, infoset label (the
    private part), action, probability, then the infoset's number. ``line`` is the label's
    public part, after its first ``|`` (betting specs label ``"Qh Ks|cc/r"``); "" if none."""
    counts = tree.infos[:, L.I_COUNT]
    info = np.repeat(np.arange(tree.n_infosets), counts)
    labels = [tree.infoset_labels[j] for j in info]
    return frames.strategy_frame(
        np.repeat(tree.infos[:, L.I_PLAYER], counts).astype(np.int64),
        [label.partition("|")[2] for label in labels], {"infoset": labels},
        [a for acts in tree.action_labels for a in acts], np.asarray(strategy[: tree.n_actions], np.float64),
        extra={"infoset_id": info})


def solve(game: Any, method: str = "cfr+", iterations: int = 1000, *,
          target_exploitability: float | None = None, check_every: int | None = None,
          seed: int = 0, state: str | Path | None = None, progress: Progress | None = None,
          alternating: bool = True, alpha: float = 1.5, beta: float = 0.0,
          gamma: float = 2.0) -> SolveResult:
    """Run a solver to ``iterations`` in total (or until the exploitability target) and report.

    ``game`` is a :class:`GameTree` or anything :func:`build_tree` takes. With
    ``state``, an existing file is resumed (same tree and settings) and the state
    is saved at every check and at the end, so ``iterations`` is the total count.
    ``progress(iteration, iterations, exploitability)`` is called at every check
    (every ``check_every`` iterations; default ``iterations // 20``).
    """
    tree = build_tree(game)
    settings = SolverSettings(method, alternating, alpha, beta, gamma, seed).normalised()
    total = int(iterations)
    if total < 0:
        raise SolverError(f"iterations must be >= 0; got {iterations}")
    every = int(check_every) if check_every is not None else max(1, total // 20)
    if every < 1:
        raise SolverError(f"check_every must be >= 1; got {check_every}")
    if target_exploitability is not None and not target_exploitability > 0:
        raise SolverError(f"target_exploitability must be > 0; got {target_exploitability}")
    solver = _start(tree, settings, state)
    pv = None
    with interruptible() as stop:
        while solver.iteration < total:
            step = min(every - solver.iteration % every, total - solver.iteration)
            run_chunked(solver, step, stop, lambda: stop_and_save(solver, total, state))
            if solver.iteration % every == 0 or solver.iteration == total:
                pv = solver.record()
                if state is not None:
                    solver.save(state)
                if progress is not None:
                    progress(solver.iteration, total, pv.exploitability)
                if target_exploitability is not None and pv.exploitability <= target_exploitability:
                    break
    if pv is None:  # nothing to run (0 iterations, or a finished state resumed)
        pv = solver.evaluate()
        if not solver.history or solver.history[-1][0] != solver.iteration:
            solver.history.append((solver.iteration, pv.exploitability, pv.nash_conv, solver.seconds))
        if state is not None:
            solver.save(state)
    history = pd.DataFrame(solver.history, columns=_HISTORY_COLUMNS).astype({"iteration": "int64"})
    return SolveResult(tree, settings, solver.iteration, solver.average_strategy(), pv, history,
                       solver.seconds)


CHUNK_SECONDS = 0.5
"""Iterations go to the kernels in calls of about this long, so Ctrl-C is seen within a second."""


def run_chunked(solver: Any, n: int, stop: Any, stopped: Any) -> None:
    """Run ``n`` iterations of ``solver`` in kernel calls of about :data:`CHUNK_SECONDS`
    (the kernels take the absolute iteration number, so the result is the same as one
    call); when ``stop`` is set after a call, ``stopped()`` saves and raises."""
    done, chunk = 0, 1
    while done < n:
        k = min(chunk, n - done)
        start = time.perf_counter()
        solver.run(k)
        seconds = time.perf_counter() - start
        done += k
        if stop.is_set():
            stopped()
        chunk = max(1, min(4 * k, int(k * CHUNK_SECONDS / max(seconds, 1e-9))))


def stop_and_save(solver: Any, total: int, state: str | Path | None) -> None:
    """Ctrl-C: save the solver's state (when there is a state file) and say so."""
    if state is not None:
        solver.save(state)
        where = f"the solver state is saved in {state}; run the same command again to resume"
    else:
        where = "nothing was saved (give --state FILE to keep the progress)"
    raise Interrupted(f"stopped after {solver.iteration:,} of {total:,} iterations; {where}")


def _start(tree: GameTree, settings: SolverSettings, state: str | Path | None) -> Solver:
    if state is None or not Path(state).exists():
        return Solver(tree, settings)
    solver = Solver.load(state, tree)
    if solver.settings != settings:
        raise SolverError(f"solver state {state} was saved with {asdict(solver.settings)}, "
                          f"not {asdict(settings)}")
    return solver
