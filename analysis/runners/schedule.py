"""When a cell has enough trials: a fixed count, or a standard-error target reached in rounds.

A schedule sets each cell's **target** (trials to have run) for the first round
and, after every round, from the statistics so far. A cell whose new target is
not above what it has run is finished. Decisions depend only on the statistics
(never on timing, threads or workers), so the same seed gives the same numbers.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from dataclasses import asdict, dataclass
from typing import Any, Literal

import numpy as np

from evaluator.errors import LabError


class ScheduleError(LabError):
    """A trial count or standard-error target that cannot be used."""


MAX_TRIALS = 10**12
"""The most trials a cell may ask for: hours of work at a hundred million trials a second."""


def _check_max(trials: int, what: str) -> None:
    if trials > MAX_TRIALS:
        raise ScheduleError(f"{what} of {trials:,} is more than the {MAX_TRIALS:,} a run may ask for "
                            f"(that many already take about {MAX_TRIALS / 1e8 / 3600:.0f} hours at 100 million "
                            "trials a second); use a standard-error target or fewer trials")


class Schedule(ABC):
    """Targets per cell: :meth:`first`, then :meth:`next` after each round."""

    @abstractmethod
    def first(self, n_cells: int, stream_size: int) -> np.ndarray:
        """Target trials of every cell in the first round."""

    @abstractmethod
    def next(self, done: np.ndarray, rounds: np.ndarray, se: np.ndarray | None,
             samples: np.ndarray | None, stream_size: int) -> np.ndarray:
        """New targets of the given unfinished cells after a round (``<= done``: finished)."""

    @property
    def needs_stderr(self) -> bool:
        """Whether :meth:`next` reads the standard errors."""
        return False

    def describe(self) -> dict[str, Any]:
        """The schedule as plain data (manifests, resume fingerprints)."""
        return {"kind": type(self).__name__, **asdict(self)}  # type: ignore[call-overload]

    def estimate(self, done: np.ndarray, targets: np.ndarray) -> int:
        """A guess of the total trials the run will need (for progress bars)."""
        return int(np.maximum(done, targets).sum())


@dataclass(frozen=True)
class FixedTrials(Schedule):
    """Exactly ``trials`` trials per cell."""

    trials: int

    def __post_init__(self) -> None:
        if isinstance(self.trials, bool) or not isinstance(self.trials, int | np.integer) or self.trials < 1:
            raise ScheduleError(f"trials must be a whole number >= 1; got {self.trials!r}")
        _check_max(int(self.trials), "a trial count")

    def first(self, n_cells: int, stream_size: int) -> np.ndarray:
        return np.full(n_cells, int(self.trials), np.int64)

    def next(self, done, rounds, se, samples, stream_size):  # noqa: D102 - see Schedule
        return done.copy()


@dataclass(frozen=True)
class StderrTarget(Schedule):
    """Rounds of trials until a cell's standard error is at most ``target`` (or ``max_trials``).

    The first round runs ``first`` trials. After it, ``growth="project"`` sizes the next
    round from the standard error: a cell with ``n`` samples and error ``se`` needs
    about ``n (se / target)^2 x margin`` trials (rounded up to whole streams), at least
    ``min_streams`` more and at most ``max_growth`` times what it has run;
    ``growth="double"`` adds ``first``, then twice as many each round, up to
    ``max_round_streams`` streams. ``stop="target"`` finishes a cell as soon as its
    error is at most the target; ``stop="projection"`` when the projection asks for no
    more trials than it has run. ``max_rounds`` caps the rounds.
    """

    target: float
    first_trials: int
    max_trials: int
    margin: float = 1.05
    growth: Literal["project", "double"] = "project"
    min_streams: int = 0
    max_growth: float | None = None
    max_round_streams: int | None = None
    stop: Literal["target", "projection"] = "target"
    max_rounds: int | None = None

    def __post_init__(self) -> None:
        if isinstance(self.target, bool) or not isinstance(self.target, int | float) \
                or not math.isfinite(self.target) or not self.target > 0:
            raise ScheduleError(f"the standard-error target must be a positive number; got {self.target!r}")
        if self.max_trials < 1 or self.first_trials < 1:
            raise ScheduleError(f"trial counts must be >= 1; got first {self.first_trials}, "
                                f"max {self.max_trials}")
        _check_max(int(self.max_trials), "a trial cap")

    @property
    def needs_stderr(self) -> bool:
        return True

    def first(self, n_cells: int, stream_size: int) -> np.ndarray:
        return np.full(n_cells, min(self.first_trials, self.max_trials), np.int64)

    def next(self, done, rounds, se, samples, stream_size):  # noqa: D102 - see Schedule
        size = stream_size
        done = done.astype(np.int64)
        streams_done = -(-done // size)
        if self.growth == "double":
            first_streams = max(1, -(-self.first_trials // size))
            more = first_streams * (2 ** np.minimum(rounds, 40))
            if self.max_round_streams is not None:
                more = np.minimum(more, self.max_round_streams)
            new = done + more * size
        else:
            with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                need = samples * (se / self.target) ** 2 * self.margin
            need = np.where(np.isfinite(need), need, float(self.max_trials))
            if self.stop == "projection":
                # the target in whole streams (legacy rule of the fold-vs-check grid)
                new = np.ceil(need / size).astype(np.int64) * size
                new = np.maximum(new, done)
            else:
                more = np.ceil((need - done) / size).astype(np.int64)
                more = np.maximum(more, self.min_streams)
                if self.max_growth is not None:
                    more = np.minimum(more, (self.max_growth * streams_done).astype(np.int64))
                new = done + np.maximum(more, 0) * size
        new = np.minimum(new, self.max_trials)
        if self.stop == "target":
            new = np.where(se <= self.target, done, new)
        if self.max_rounds is not None:
            new = np.where(rounds >= self.max_rounds, done, new)
        return np.where(done >= self.max_trials, done, new)
