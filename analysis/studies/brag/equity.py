"""The equity of one Brag hand against N random hands: exact heads-up, Monte Carlo beyond.

Against one opponent every one of the 18,424 hands the opponent can hold is
counted (``headsup.py``). Against 2-16 opponents the showdown is simulated through
the runner (``multiway.py``) with a seed and a standard-error target or a trial
count. ``equity`` is the share of the pot: a win counts 1 and a tie with ``k``
other hands ``1/(k+1)``; heads-up that is ``win + tie / 2``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from analysis.runners import Backend, Progress, run
from evaluator.brag import BRAG, BragRules, all_hands, describe, get_brag_rules, hand_class
from evaluator.cards import CardsLike, format_cards, parse_cards
from evaluator.errors import CardError

from .headsup import OPPONENT_HANDS, headsup_counts
from .multiway import BragCountError, MultiwayPlan, check_opponents, multiway_schedule, unpack

__all__ = ["BragEquity", "hand_equity", "hand_index"]

DEFAULT_STDERR = 0.001


@dataclass(frozen=True)
class BragEquity:
    """The answer for one hand: pot share, win and tie chances, and how they were found."""

    hand: str
    hand_class: str
    reads: str
    opponents: int
    rules: str
    equity: float
    win: float
    tie: float
    method: str
    """``exact`` or ``trials``."""
    trials: int
    """Opponent hands counted (exact) or deals simulated (trials)."""
    stderr: float
    seed: int | None
    seconds: float

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def hand_index(cards: CardsLike) -> int:
    """The row of a 3-card hand in :func:`evaluator.brag.all_hands`."""
    ids = sorted(parse_cards(cards, BRAG))
    if len(ids) != 3:
        raise CardError(f"a Brag hand has 3 cards; got {len(ids)} ({format_cards(ids, BRAG) or 'none'})")
    keys = all_hands().astype(np.int64) @ np.array([52 * 52, 52, 1])
    return int(np.searchsorted(keys, ids[0] * 2704 + ids[1] * 52 + ids[2]))


def hand_equity(cards: CardsLike, opponents: int = 1, rules: BragRules | str | None = None, *,
                seed: int = 0, stderr: float | None = None, trials: int | None = None,
                backend: Backend | None = None, progress: Progress | None = None,
                state_dir: str | Path | None = None) -> BragEquity:
    """Pot share, win and tie of ``cards`` against ``opponents`` random hands."""
    import time

    start = time.perf_counter()
    rules = get_brag_rules(rules)
    row = hand_index(cards)
    hand = all_hands()[row]
    (n,) = check_opponents([opponents])
    if stderr is not None and trials is not None:
        raise BragCountError("give a standard-error target or a trial count, not both")
    if trials is not None and int(trials) < 1:
        raise BragCountError(f"trials must be at least 1; got {trials}")
    if stderr is not None and not stderr > 0:
        raise BragCountError(f"the standard-error target must be positive; got {stderr}")
    text = format_cards(parse_cards(cards, BRAG), BRAG)
    common = {"hand": text, "hand_class": hand_class(hand), "reads": describe(hand, rules),
              "opponents": n, "rules": rules.name}
    if n == 1:
        counts = headsup_counts(rules)
        win = counts.win[row] / OPPONENT_HANDS
        tie = counts.tie[row] / OPPONENT_HANDS
        return BragEquity(**common, equity=float(win + tie / 2), win=float(win), tie=float(tie),
                          method="exact", trials=OPPONENT_HANDS, stderr=0.0, seed=None,
                          seconds=round(time.perf_counter() - start, 4))
    plan = MultiwayPlan((text,), np.array([0, 1]), hand.reshape(1, 3), (n,), rules, seed,
                        multiway_schedule(stderr=stderr or DEFAULT_STDERR, trials=trials))
    res = run(plan, backend=backend, progress=progress, state_dir=state_dir,
              label=f"brag: {text} vs {n}")
    stats = unpack(res.totals, 1)
    return BragEquity(**common, equity=float(stats["equity"][0, 0]), win=float(stats["win"][0, 0]),
                      tie=float(stats["tie"][0, 0]), method="trials", trials=int(res.trials[0]),
                      stderr=float(stats["stderr"][0, 0]), seed=seed,
                      seconds=round(time.perf_counter() - start, 4))
