"""How showdowns read kickers (RULES §1.3): every kicker in order (``all``, the default) or,
the source's literal reading, only the highest card outside the made hand (``top``).

Under ``top`` the order of made hands is unchanged; hands that differ only below the top
kicker tie. The transform is a pure map of the evaluator's score: each score goes to the
lowest score of its class (same category, same made ranks, same top kicker), so the mapped
scores still compare with ``<`` and equal means a split. Categories and what counts:

* one pair: the pair, then the highest other card (``A A 10 9 7`` ties ``A A 10 8 7``);
* three of a kind: the three, then the highest other card;
* high card: no card makes a hand, so every card is "outside the made hand" and only the
  highest card counts (our reading of 「役を構成しない札で一番高い数」 for a hand with no
  役; RULES §1.3 is silent on high card);
* two pair and four of a kind have one kicker, which is the top one; straights, flushes,
  full houses and straight flushes have none: unchanged.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from .errors import LabError
from .spec import GameSpec, get_game
from .tables import CATEGORY_SHIFT, HIGH_CARD, ONE_PAIR, TRIPS, get_tables

KICKERS = ("all", "top")
"""The readings of kickers: ``all`` (Texas Hold'em, the default) and ``top`` (the source's)."""
N_SCORES = 9 << CATEGORY_SHIFT
KEPT_RANKS = {HIGH_CARD: 1, ONE_PAIR: 3, TRIPS: 4}
"""Under ``top``: how many of the five ranks (in reading order) still count, by category."""


class KickerError(LabError):
    """An unknown reading of kickers."""


def check_kickers(kickers: str) -> str:
    """``kickers`` if it is a reading (``all`` or ``top``), else a :class:`KickerError`."""
    if kickers not in KICKERS:
        raise KickerError(f"kickers={kickers!r} is not a reading: use {' or '.join(KICKERS)}")
    return kickers


@cache
def _top_map(spec: GameSpec) -> np.ndarray:
    tables = get_tables(spec)
    used = np.zeros(N_SCORES, bool)
    used[tables.values] = True
    used[tables.flush] = True
    out = np.arange(N_SCORES, dtype=np.int32)
    first: dict[tuple[int, ...], int] = {}
    for score in np.flatnonzero(used):  # increasing: the first score of a class is its lowest
        cat = int(score) >> CATEGORY_SHIFT
        kept = KEPT_RANKS.get(cat, 5)
        key = (cat, *(int(r) for r in tables.decode[score][:kept]))
        out[score] = first.setdefault(key, int(score))
    out.flags.writeable = False
    return out


@cache
def _identity_map() -> np.ndarray:
    out = np.arange(N_SCORES, dtype=np.int32)
    out.flags.writeable = False
    return out


def kicker_map(game: str | GameSpec = "dilemma", kickers: str = "all") -> np.ndarray:
    """int32 map of every score (``9 << 12`` of them) to the score a showdown compares under
    ``kickers``: the identity for ``all``, the lowest score of its class for ``top``. Both
    are read-only, so a kernel taking either compiles once (numba types the flag)."""
    spec = get_game(game)
    if check_kickers(kickers) == "all":
        return _identity_map()
    return _top_map(spec)


def showdown_score(score: int, game: str | GameSpec = "dilemma", kickers: str = "all") -> int:
    """The score a showdown compares for a hand scored ``score`` under ``kickers``."""
    return int(kicker_map(game, kickers)[int(score)])
