"""When :meth:`CardSolver.run` measures exploitability: every few iterations, or adaptively.

A check costs about one iteration (two walks), so checking every 10 iterations adds some
10% to a long solve. The adaptive schedule checks every ``every`` iterations until two checks
have fallen, and again while the last check lies above an earlier one (a bump, as DCFR makes
after its restarts: two checks on a bump's slow way down once predicted a stall and doubled a
Dilemma flop solve, results/benchmarks.md, issue 17, twenty-third session); otherwise it jumps
part of the way to where the power law through the last two checks meets the target (rounded
down to a multiple of ``every``, at most doubling the iterations done). It reads measured
numbers only, so a run is as deterministic as the solver; a run stops at a check that met the
target, possibly a few multiples of ``every`` later than the fixed schedule would have.
"""

from __future__ import annotations

import math

SCHEDULES = ("fixed", "adaptive")
SHARE = 0.5
"""The share of the predicted remaining iterations the adaptive schedule skips at once."""


def next_check(done: int, checks: list[tuple[int, float]], every: int, target: float,
               schedule: str = "fixed") -> int:
    """The iteration of the next check after ``done`` iterations, from the measured
    ``checks`` (iteration, exploitability; increasing iterations)."""
    if schedule not in SCHEDULES:
        raise ValueError(f"unknown check schedule {schedule!r}: one of {', '.join(SCHEDULES)}")
    nxt = (done // every + 1) * every
    if schedule == "fixed" or len(checks) < 2:
        return nxt
    (t1, e1), (t2, e2) = checks[-2], checks[-1]
    if not (0 < t1 < t2 and e1 > e2 > target > 0.0) or e2 > min(e for _, e in checks[:-1]):
        return nxt
    power = math.log(e1 / e2) / math.log(t2 / t1)
    growth = min(math.log(e2 / target) / power, math.log(1.0 + 1.0 / SHARE))  # (the cap, unoverflowed)
    meet = t2 * math.exp(growth)
    jump = int(min(t2 + SHARE * (meet - t2), 2.0 * t2)) // every * every
    return max(nxt, jump)
