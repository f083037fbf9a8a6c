"""Bluffjack stakes and betting options (RULES §3 [choice]): fixed limit by default.

The source leaves the ante, the minimum bet and the raise size to the table; the lab's
default is **fixed limit: ante 1, every bet and raise 2, at most 3 raises a round**.
Options: any fixed-limit sizes, ``limit=pot`` (a raise up to the pot after calling),
``limit=no`` (up to the whole stack); the source's **extra betting** (after each hit or
stand that player bets) and **second initial bet** (a betting round after the face-down
card and another after the face-up card).

Decisions where the source is silent (named here once, used by the referee and the kernel):

- every initial betting round is opened by the first player left of the dealer who still
  has chips, with exactly the minimum bet (all-in if short); the final round and the
  extra betting open freely (a player may check: a call of nothing);
- a fold is allowed only facing a bet (folding for free is never better);
- a raise adds at least the minimum bet and at least the last full raise (pot and no limit);
  an all-in short of that is allowed, and does not reopen the raising for players who
  already acted; in fixed limit every bet and raise is exactly ``bet`` (or all-in if short);
- ``max_raises`` caps the raises after the opening bet in each round (0: no cap); with extra
  betting, the hit-or-stand phase is one betting round for the cap;
- odd chips of a split pot go to the first winner clockwise from the dealer's left;
- a hit needs a card left in the deck.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

import numpy as np

from analysis.engine.errors import EngineError

__all__ = ["LIMITS", "Stakes", "StakesError", "get_stakes"]

LIMITS = ("fixed", "pot", "no")
"""Betting structures: fixed limit, pot limit, no limit."""

DEFAULT_RAISES = 3
"""The default cap on raises a round in fixed limit (RULES §3 [choice])."""


class StakesError(EngineError):
    """A Bluffjack stakes option that does not exist or has a value the rules do not allow."""


@dataclass(frozen=True)
class Stakes:
    """Ante, minimum bet, structure and the source's two betting options."""

    limit: str = "fixed"
    ante: int = 1
    bet: int = 2
    """The minimum bet (fixed limit: every bet and raise)."""
    max_raises: int | None = None
    """Raises after the opening bet in a round (0: no cap); default 3 in fixed limit, else 0."""
    extra_betting: bool = False
    second_initial_bet: bool = False

    def __post_init__(self) -> None:
        if self.limit not in LIMITS:
            raise StakesError(f"limit must be one of {', '.join(LIMITS)}; got {self.limit!r}")
        for name in ("ante", "bet"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 1:
                raise StakesError(f"{name} must be a whole number of chips, at least 1; got {value!r}")
        if self.max_raises is None:
            object.__setattr__(self, "max_raises", DEFAULT_RAISES if self.limit == "fixed" else 0)
        elif isinstance(self.max_raises, bool) or not isinstance(self.max_raises, int | np.integer) \
                or self.max_raises < 0:
            raise StakesError(f"max_raises must be 0 (no cap) or a positive count; got {self.max_raises!r}")
        for name in ("extra_betting", "second_initial_bet"):
            if not isinstance(getattr(self, name), bool):
                raise StakesError(f"{name} must be true or false; got {getattr(self, name)!r}")

    @property
    def name(self) -> str:
        """A short label, e.g. ``fixed 1/2 cap 3`` or ``pot 1/2 +extra``."""
        cap = f" cap {self.max_raises}" if self.max_raises else ""
        extras = "".join(f" +{n}" for n, on in (("extra", self.extra_betting),
                                                ("second-bet", self.second_initial_bet)) if on)
        return f"{self.limit} {self.ante}/{self.bet}{cap}{extras}"

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def kernel_args(self) -> np.ndarray:
        """int64 ``[limit, ante, bet, max_raises, extra_betting, second_initial_bet]`` (``SK_*``)."""
        return np.array([LIMITS.index(self.limit), self.ante, self.bet, self.max_raises,
                         self.extra_betting, self.second_initial_bet], dtype=np.int64)


SK_LIMIT, SK_ANTE, SK_BET, SK_MAX_RAISES, SK_EXTRA, SK_SECOND = range(6)
"""Columns of :attr:`Stakes.kernel_args`."""

_BOOLS = {"true": True, "yes": True, "1": True, "on": True,
          "false": False, "no": False, "0": False, "off": False}
_INTS = ("ante", "bet", "max_raises")


def get_stakes(stakes: Stakes | str | dict[str, Any] | None = None) -> Stakes:
    """Stakes from ``None`` (the default), a limit name (``pot``), options text
    (``"limit=pot,ante=1,bet=2,extra_betting=true"``), a dict, or stakes."""
    if stakes is None:
        return Stakes()
    if isinstance(stakes, Stakes):
        return stakes
    known = {f.name for f in fields(Stakes)}
    if isinstance(stakes, dict):
        unknown = sorted(set(stakes) - known)
        if unknown:
            raise StakesError(f"unknown stakes option {unknown[0]!r}: the options are {', '.join(sorted(known))}")
        return Stakes(**stakes)
    if not isinstance(stakes, str):
        raise StakesError(f"stakes must be a name, options text or a dict; got {type(stakes).__name__}")
    text = stakes.strip().lower()
    if text in LIMITS:
        return Stakes(limit=text)
    out: dict[str, Any] = {}
    for part in text.split(","):
        key, sep, value = (x.strip() for x in part.partition("="))
        if not key:
            continue
        if key not in known:
            raise StakesError(f"unknown stakes option {key!r}: the options are {', '.join(sorted(known))} "
                              f"(or a limit: {', '.join(LIMITS)})")
        if not sep:
            raise StakesError(f"stakes option {key!r} needs a value, e.g. {key}=...")
        if key in _INTS:
            try:
                out[key] = int(value)
            except ValueError:
                raise StakesError(f"{key} must be a whole number; got {value!r}") from None
        elif key == "limit":
            out[key] = value
        else:
            if value not in _BOOLS:
                raise StakesError(f"{key} must be true or false; got {value!r}")
            out[key] = _BOOLS[value]
    return Stakes(**out)
