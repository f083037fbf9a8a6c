"""Betting structures as data (RULES §1.2 and §2): no-limit, pot-limit and fixed-limit.

A :class:`Structure` says how much a player may bet or raise; every **[choice]** of
the rules is a named option. The defaults follow the rule sources (the Dilemma seed
for ``dilemma``, the Texas Hold'em seed for the three Texas structures); the common
casino rules are the named presets ``*-casino`` (and what pokerkit implements).
``Structure.kernel_args`` packs it into the int64 array the numba kernel reads
(``S_*`` entries).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from typing import Any

import numpy as np

from .errors import TableError

NO_LIMIT, POT_LIMIT, FIXED_LIMIT = 0, 1, 2
KINDS = ("no_limit", "pot_limit", "fixed_limit")

# entries of Structure.kernel_args
(S_KIND, S_MIN_RAISE_LAST, S_POT_WHOLE, S_FL_RANGE, S_MAX_RAISES, S_SHORT_REOPENS,
 S_UNIT, S_FREE_FOLD, S_CHECK_RAISE, S_BIG_BET_FROM) = range(10)
N_STRUCT = 10


@dataclass(frozen=True)
class Structure:
    """How much a player may bet or raise, and the raise rules of the table."""

    kind: str = "no_limit"
    """``no_limit`` (cap: the whole stack), ``pot_limit`` (cap: pot + call) or ``fixed_limit``."""
    min_raise: str = "last_increment"
    """``last_increment``: a raise adds at least the previous bet or raise increment of the
    round (RULES §1.2, Dilemma; the casino rule); ``min_bet``: at least the minimum bet
    (the Texas source, RULES §2)."""
    pot: str = "round"
    """Pot-limit only. ``round``: the pot counts only the chips put in this round (the Texas
    source: the cap falls back to the minimum bet at the start of a round); ``whole``: the
    whole pot (casino)."""
    limit_raise: str = "fixed"
    """Fixed-limit only. ``fixed``: a bet or raise adds exactly the limit (the minimum bet on
    the first two rounds, twice it on the turn and river); ``range``: any amount between the
    minimum bet and that limit."""
    max_raises: int = 0
    """Bets and raises allowed per round (0: no cap). Fixed limit: 4 bets, the big blind
    counting as the first bet before the flop."""
    short_all_in: str = "no_reopen"
    """``no_reopen``: an all-in short of a full raise does not reopen the betting for players
    who already acted (RULES §1.2 [choice]); ``reopens``: every all-in reopens it."""
    unit: int = 1
    """Chip unit: every amount is a multiple of it ($10 in Dilemma Hold'em)."""
    free_fold: bool = True
    """Folding while a check is possible is allowed (essential in Dilemma Hold'em, RULES §1.4)."""
    check_raise: bool = True
    """A player who checked may raise later in the round (RULES §2; option: forbidden)."""

    CHOICES = {
        "kind": KINDS,
        "min_raise": ("last_increment", "min_bet"),
        "pot": ("round", "whole"),
        "limit_raise": ("fixed", "range"),
        "short_all_in": ("no_reopen", "reopens"),
    }

    def __post_init__(self) -> None:
        for name, allowed in self.CHOICES.items():
            if getattr(self, name) not in allowed:
                raise TableError(f"structure {name}={getattr(self, name)!r}: use {' or '.join(allowed)}")
        if isinstance(self.max_raises, bool) or not isinstance(self.max_raises, int) or self.max_raises < 0:
            raise TableError(f"structure max_raises={self.max_raises!r}: a whole number >= 0 (0: no cap)")
        if isinstance(self.unit, bool) or not isinstance(self.unit, int) or self.unit < 1:
            raise TableError(f"structure unit={self.unit!r}: a whole number >= 1")

    @property
    def name(self) -> str:
        """The preset this equals, else ``kind`` plus the options that differ from its default."""
        for key, preset in PRESETS.items():
            if preset == self:
                return key
        base = PRESETS[{"no_limit": "nl", "pot_limit": "pl", "fixed_limit": "fl"}[self.kind]]
        diff = [f"{f.name}={getattr(self, f.name)}" for f in fields(self)
                if getattr(self, f.name) != getattr(base, f.name)]
        return ",".join([base.name] + diff)

    def as_dict(self) -> dict[str, Any]:
        """Plain data for manifests and hand histories."""
        return asdict(self)

    def with_options(self, options: Mapping[str, Any]) -> Structure:
        """A copy with some options changed (names as the fields; strings are converted)."""
        known = {f.name: f.type for f in fields(self)}
        values: dict[str, Any] = {}
        for key, value in options.items():
            key = key.replace("-", "_")
            if key not in known:
                raise TableError(f"unknown structure option {key!r}: use {', '.join(sorted(known))}")
            current = getattr(self, key)
            if isinstance(current, bool) and isinstance(value, str):
                if value.lower() not in ("true", "false", "yes", "no", "1", "0"):
                    raise TableError(f"structure {key}={value!r}: true or false")
                value = value.lower() in ("true", "yes", "1")
            elif isinstance(current, int) and not isinstance(current, bool) and isinstance(value, str):
                try:
                    value = int(value)
                except ValueError:
                    raise TableError(f"structure {key}={value!r}: a whole number") from None
            values[key] = value
        return replace(self, **values)

    @property
    def kernel_args(self) -> np.ndarray:
        """The int64 array the numba kernel takes as ``structure`` (``S_*`` entries)."""
        a = np.zeros(N_STRUCT, np.int64)
        a[S_KIND] = KINDS.index(self.kind)
        a[S_MIN_RAISE_LAST] = self.min_raise == "last_increment"
        a[S_POT_WHOLE] = self.pot == "whole"
        a[S_FL_RANGE] = self.limit_raise == "range"
        a[S_MAX_RAISES] = self.max_raises
        a[S_SHORT_REOPENS] = self.short_all_in == "reopens"
        a[S_UNIT] = self.unit
        a[S_FREE_FOLD] = self.free_fold
        a[S_CHECK_RAISE] = self.check_raise
        a[S_BIG_BET_FROM] = 2  # fixed limit: the big bet from the turn (street 2) on
        return a


PRESETS: dict[str, Structure] = {
    # Dilemma Hold'em (RULES §1.2): no-limit, raises of at least the last increment, $10 chips
    "dilemma": Structure("no_limit", "last_increment", unit=10),
    # Texas Hold'em as the source states it (RULES §2)
    "nl": Structure("no_limit", "min_bet"),
    "pl": Structure("pot_limit", "min_bet", pot="round"),
    "fl": Structure("fixed_limit", "min_bet", limit_raise="fixed", max_raises=4),
    # the common casino rules (pokerkit's)
    "nl-casino": Structure("no_limit", "last_increment"),
    "pl-casino": Structure("pot_limit", "last_increment", pot="whole"),
    "fl-casino": Structure("fixed_limit", "last_increment", limit_raise="fixed", max_raises=4),
}
"""Named structures: ``dilemma``, the Texas source's ``nl``, ``pl``, ``fl`` and the casino rules."""


def get_structure(name: str | Structure, options: Mapping[str, Any] | None = None) -> Structure:
    """A named structure (``dilemma``, ``nl``, ``pl``, ``fl``, ``*-casino``), with options."""
    if isinstance(name, Structure):
        base = name
    else:
        key = str(name).strip().lower().replace("_", "-")
        aliases = {"no-limit": "nl", "pot-limit": "pl", "fixed-limit": "fl", "limit": "fl"}
        key = aliases.get(key, key)
        if key not in PRESETS:
            raise TableError(f"unknown betting structure {name!r}: use {', '.join(PRESETS)}")
        base = PRESETS[key]
    return base.with_options(options) if options else base
