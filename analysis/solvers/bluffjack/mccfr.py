"""Bluffjack for 2 or 3 players by external-sampling Monte Carlo CFR, and how settled it is.

The rules and the card abstraction are the heads-up solver's (:mod:`.public_tree`: cards by value class
drawn with replacement, at most one hit a player, deep stacks, fixed limit, seat A opening with
the forced minimum). What differs is the information abstraction three-handed needs:

- ``abstraction="exact"`` keys a decision by everything its player has seen (perfect recall, as
  in the heads-up tree). Three-handed that is about 3.5 million public decisions per face-up
  triple at the default stakes (56 initial-round decisions; 1,331 hit outcomes; 171 final-round
  decisions), 1,000 triples and 10 hidden classes: 3.5e10 information sets. It serves the
  heads-up check on one face-up pair.
- ``abstraction="buckets"`` (the three-handed default): phase, seat, own hidden class, own face-up
  hard total and ace, each other seat's visible best total in six buckets (folded, 2-6, 7-11,
  12-16, 17-18, 19-21), and this round's bet level and own bet. It forgets the earlier rounds'
  betting and which cards make a visible total (imperfect recall).

How settled: each player's best-response gain (NashConv = the sum over players) is computed
*exactly* within a face-up deal (a vector over every hidden class walked over every public
history, :func:`._mccfr.cf_values`; the best responder has perfect recall, whatever the key),
and averaged over face-up deals: all of them when ``deals=None`` is affordable (heads-up: 100
pairs), otherwise a seeded sample of deals, reported with its standard error.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass

import numpy as np
import pandas as pd
from numba import types
from numba.typed import Dict

from analysis.core.rng import derive_key

from ..errors import SolverError
from . import _mccfr as K
from .public_tree import CLASS_NAMES, CLASS_PROB, CLASSES

__all__ = ["MccfrSpec", "MccfrSolver", "settledness", "answer_tables"]

ABSTRACTIONS = {"exact": K.MODE_EXACT, "buckets": K.MODE_BUCKETS}
CHUNK_SECONDS = 0.5
"""Iterations go to the kernel in calls of about this long (Ctrl-C is seen within a second)."""
PHASES = ("initial", "play", "final")
ACTIONS = ("fold", "check/call", "bet/raise", "hit", "stand")
ABSTRACTION_NOTE = {
    "exact": "cards by value class drawn with replacement (infinite deck); at most one hit a player; deep "
             "stacks; information sets with perfect recall (everything the player has seen)",
    "buckets": "cards by value class drawn with replacement (infinite deck); at most one hit a player; deep "
               "stacks; information set = phase, seat, own hidden class, own face-up hard total and ace, each "
               "other seat's visible best total bucketed (folded, 2-6, 7-11, 12-16, 17-18, 19-21), this "
               "round's bet level and own bet (imperfect recall: earlier rounds' betting forgotten)"}
CATEGORIES = ("bust", "weak (<=16)", "middling (17-18)", "strong (19-21)")


@dataclass(frozen=True)
class MccfrSpec:
    """Players, fixed-limit stakes, the house rule, the information abstraction, fixed face-up cards."""

    players: int = 3
    ante: int = 1
    bet: int = 2
    max_raises: int = 1
    """Raises a round after the first bet: one by default (three, the heads-up stakes, make the
    three-handed hand about 25 times larger: 3.5 M public decisions per face-up deal against 137 k)."""
    house: bool = True
    abstraction: str = "buckets"
    up: tuple[int, ...] | None = None
    """Face-up classes of every seat (a game of one face-up deal), or None: dealt (chance)."""

    def __post_init__(self) -> None:
        for name, lo in (("players", 2), ("ante", 1), ("bet", 1), ("max_raises", 0)):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v < lo:
                raise SolverError(f"{name} must be a whole number, at least {lo}; got {v!r}")
        if self.players > K.MAX_PLAYERS:
            raise SolverError(f"the Monte Carlo solver plays 2 or 3 players; got {self.players}")
        if self.max_raises > 3:
            raise SolverError(f"max_raises above 3 does not fit the key's bet level; got {self.max_raises}")
        if self.abstraction not in ABSTRACTIONS:
            raise SolverError(f"abstraction is one of {', '.join(ABSTRACTIONS)}; got {self.abstraction!r}")
        if self.up is not None and (len(self.up) != self.players or not all(0 <= u < CLASSES for u in self.up)):
            raise SolverError(f"up needs one class 0-{CLASSES - 1} per seat; got {self.up}")

    @property
    def params(self) -> np.ndarray:
        return np.array([self.ante, self.bet, self.max_raises, int(self.house), ABSTRACTIONS[self.abstraction],
                         self.players], dtype=np.int64)

    @property
    def name(self) -> str:
        return (f"{self.players} players, fixed {self.ante}/{self.bet} cap {self.max_raises}, hits <= 1, "
                f"{self.abstraction} information sets" + ("" if self.house else ", no house"))


class MccfrSolver:
    """Regret and strategy-sum tables grown as information sets are met; iterations in kernel chunks."""

    def __init__(self, spec: MccfrSpec, seed: int = 0, rows: int = 1 << 18) -> None:
        """Empty tables of ``rows`` rows (grown by doubling when needed)."""
        self.spec = spec
        self.seed = seed
        self.key = derive_key(seed, "bluffjack-mccfr", spec.players)
        self.index = Dict.empty(key_type=types.int64, value_type=types.int64)
        self.regret = np.zeros((max(rows, 2 * K.RESERVE_ROWS), K.MAX_ACTIONS))
        self.ssum = np.zeros_like(self.regret)
        self.iteration = 0
        self.seconds = 0.0
        self._up = np.array(spec.up if spec.up is not None else (-1,) * spec.players, dtype=np.int64)

    @property
    def infosets(self) -> int:
        return len(self.index)

    def _grow(self) -> None:
        rows = 2 * self.regret.shape[0]
        for name in ("regret", "ssum"):
            old = getattr(self, name)
            new = np.zeros((rows, K.MAX_ACTIONS))
            new[: old.shape[0]] = old
            setattr(self, name, new)

    def run(self, n: int) -> None:
        """``n`` more iterations (the same numbers whatever the chunking)."""
        started = time.perf_counter()
        left = n
        while left > 0:
            done = K.iterations(self.spec.params, self._up, self.key, self.iteration + 1, left, self.index,
                                self.regret, self.ssum)
            self.iteration += done
            left -= done
            if left > 0:
                self._grow()
        self.seconds += time.perf_counter() - started

    def run_for(self, iterations: int, progress: Callable[[int, int, str], None] | None = None,
                stop: threading.Event | None = None) -> None:
        """Run up to ``iterations`` in all, in calls of about :data:`CHUNK_SECONDS`; stop early when
        ``stop`` is set after a call."""
        chunk = 1
        while self.iteration < iterations and not (stop is not None and stop.is_set()):
            k = min(chunk, iterations - self.iteration)
            started = time.perf_counter()
            self.run(k)
            seconds = time.perf_counter() - started
            if progress is not None:
                progress(self.iteration, iterations, "MCCFR iterations")
            chunk = max(1, min(4 * k, int(k * CHUNK_SECONDS / max(seconds, 1e-9))))

    def values(self, up: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
        """Exact expected result of each seat and its best-response value, face-up classes ``up``."""
        n = self.spec.players
        params = self.spec.params
        st = np.empty(K.HS_SIZE, np.int64)
        K.init_state(st, params, np.array(up, np.int64), np.zeros(n, np.int64))
        reach = np.tile(CLASS_PROB, (K.MAX_PLAYERS, 1))
        ev, br = np.zeros(n), np.zeros(n)
        for i in range(n):
            ev[i], br[i] = K.cf_values(st, params, i, reach, self.index, self.ssum) @ CLASS_PROB
        return ev, br


def _deals(spec: MccfrSpec, deals: int | None, seed: int) -> tuple[list[tuple[int, ...]], bool]:
    """The face-up deals to evaluate and whether they are all of them (weighted) or a sample."""
    if spec.up is not None:
        return [tuple(spec.up)], True
    if deals is None:
        grids = np.stack(np.meshgrid(*[np.arange(CLASSES)] * spec.players, indexing="ij"), -1)
        return [tuple(map(int, g)) for g in grids.reshape(-1, spec.players)], True
    rng = np.random.default_rng(np.random.SeedSequence([seed, 20, spec.players]))
    return [tuple(map(int, rng.choice(CLASSES, size=spec.players, p=CLASS_PROB))) for _ in range(deals)], False


def settledness(solver: MccfrSolver, deals: int | None = None, seed: int = 0,
                progress: Callable[[int, int, str], None] | None = None) -> dict:
    """Each seat's value and best-response gain, and NashConv (chips a hand): exact over every
    face-up deal (``deals=None``) or the mean over ``deals`` sampled deals with its standard error."""
    spec = solver.spec
    ups, whole = _deals(spec, deals, seed)
    ev = np.zeros((len(ups), spec.players))
    br = np.zeros_like(ev)
    started = time.perf_counter()
    for k, up in enumerate(ups):
        ev[k], br[k] = solver.values(up)
        if progress is not None:
            progress(k + 1, len(ups), "best responses (face-up deals)")
    gain = br - ev
    if whole:
        w = np.array([np.prod(CLASS_PROB[list(u)]) for u in ups])
        w /= w.sum()  # one fixed deal: weight 1
        mean = lambda x: float(w @ x)  # noqa: E731
        se = lambda x: 0.0  # noqa: E731
    else:
        mean = lambda x: float(x.mean())  # noqa: E731
        se = lambda x: float(x.std(ddof=1) / np.sqrt(len(x))) if len(x) > 1 else float("nan")  # noqa: E731
    nash = gain.sum(axis=1)
    return {"method": "exact over every face-up deal" if whole else f"mean over {len(ups)} sampled face-up deals "
                      "(exact within each deal), standard error of the mean",
            "deals": len(ups), "exact": whole,
            "value": [mean(ev[:, i]) for i in range(spec.players)],
            "value_se": [se(ev[:, i]) for i in range(spec.players)],
            "gain": [mean(gain[:, i]) for i in range(spec.players)],
            "gain_se": [se(gain[:, i]) for i in range(spec.players)],
            "nash_conv": mean(nash), "nash_conv_se": se(nash), "seconds": time.perf_counter() - started}


def answer_tables(solver: MccfrSolver, hands: int = 200_000, seed: int = 0) -> dict[str, pd.DataFrame]:
    """What each seat does with each hidden card, from ``hands`` hands played with the average
    strategy (action probabilities added up at every decision met): ``actions`` by phase, seat,
    hidden card, facing a bet and own visible total; ``bluffs``: the final round before any bet, how
    often each hand category bets and how often a bet then wins the pot alone (± 1 SE)."""
    spec = solver.spec
    n = spec.players
    acts = np.zeros((3, n, CLASSES, 2, 22, K.TALLY_COUNT + 1))
    bluff = np.zeros((n, K.N_CATEGORIES, 4))
    money = np.zeros((n, 2))
    K.tally(spec.params, derive_key(seed, "bluffjack-mccfr-tally", n), hands, solver.index, solver.ssum, acts,
            bluff, money)
    mean = money[:, 0] / hands
    sd = np.sqrt(np.maximum(money[:, 1] / hands - mean**2, 0.0))
    results = pd.DataFrame({"seat": list("ABC"[:n]), "hands": hands, "mean": mean,
                            "stderr": sd / np.sqrt(max(hands - 1, 1))})
    ph, seat, hid, facing, vis = np.nonzero(acts[..., K.TALLY_COUNT])
    cell = acts[ph, seat, hid, facing, vis]
    count = cell[:, K.TALLY_COUNT]
    actions = pd.DataFrame({"phase": np.array(PHASES)[ph], "seat": np.array(list("ABC"))[seat],
                            "hidden": np.array(CLASS_NAMES)[hid], "facing": facing, "own_visible": vis,
                            "decisions": count.astype(np.int64)})
    for a, name in enumerate(ACTIONS):
        actions[name] = cell[:, a] / count
    rows = []
    for s in range(n):
        for c, cat in enumerate(CATEGORIES):
            d, p, bets, won = bluff[s, c]
            q = won / bets if bets else np.nan
            rows.append({"seat": "ABC"[s], "category": cat, "decisions": int(d),
                         "share_of_spots": d / bluff[s, :, 0].sum() if bluff[s, :, 0].sum() else np.nan,
                         "bet": p / d if d else np.nan, "bets": int(bets), "bet_wins_alone": q,
                         "bet_wins_alone_se": float(np.sqrt(q * (1 - q) / bets)) if bets else np.nan})
    return {"actions": actions, "bluffs": pd.DataFrame(rows), "results": results}


def manifest(solver: MccfrSolver, settled: dict) -> dict:
    """What a run was: spec, seed, iterations, information sets, time, and how settled."""
    return {"abstraction": ABSTRACTION_NOTE[solver.spec.abstraction], "spec": asdict(solver.spec),
            "seed": solver.seed, "iterations": solver.iteration, "infosets": solver.infosets,
            "seconds": solver.seconds, "settled": settled}
