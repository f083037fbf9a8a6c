"""Betting structures as data (RULES §1.2 and §2): no-limit, pot-limit and fixed-limit.

A :class:`Structure` says how much a player may bet or raise; every **[choice]** of
the rules is a named option. The defaults follow the rule sources (the Dilemma seed
for ``dilemma``, the Texas Hold'em seed for the three Texas structures); the common
casino rules are the named presets ``*-casino`` (and what pokerkit implements).
``Structure.kernel_args`` packs it into the int64 array the numba kernel reads
(``BS_*`` entries).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from typing import Any

import numpy as np

from .errors import TableError

NO_LIMIT, POT_LIMIT, FIXED_LIMIT = 0, 1, 2
KINDS = ("no_limit", "pot_limit", "fixed_limit")
LIMITS = ("fixed", "spread", "per_round")
"""Fixed-limit sizes (RULES §2): ``fixed`` raises exactly the hand's cap, ``spread`` any amount
from the minimum bet to it, ``per_round`` exactly the minimum bet on the first two rounds and
the cap (twice it) on the turn and river (the casino small bet / big bet)."""
LIMIT_FIXED, LIMIT_SPREAD, LIMIT_PER_ROUND = range(3)
SHORT_ALL_INS = ("no_reopen", "reopens", "never", "consecutive")
"""What a short all-in does to a player who already acted (RULES §1.2), see ``short_all_in``."""
SHORT_NO_REOPEN, SHORT_REOPENS, SHORT_NEVER, SHORT_CONSECUTIVE = range(4)

# entries of Structure.kernel_args
(BS_KIND, BS_MIN_RAISE_LAST, BS_POT_WHOLE, BS_LIMIT, BS_MAX_RAISES, BS_SHORT_ALL_IN,
 BS_UNIT, BS_FREE_FOLD, BS_CHECK_RAISE, BS_BIG_BET_FROM, BS_CAP, BS_SHORT_CAP_TABLE,
 BS_RAISES_PER_PLAYER) = range(13)
N_STRUCT = 13


@dataclass(frozen=True)
class Structure:
    """How much a player may bet or raise, and the raise rules of the table.

    The field defaults are the common casino rules (no cap on a player's raises); the
    source's rules are the presets ``nl``, ``pl`` and ``fl`` (:data:`PRESETS`).
    """

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
    limit: str = "fixed"
    """Fixed-limit only (RULES §2). The source has one cap for the hand, ``cap`` minimum bets:
    ``fixed``: a bet or raise adds exactly the cap; ``spread``: any amount from the minimum
    bet to the cap; ``per_round``: exactly the minimum bet on the first two rounds and the cap
    on the turn and river (the source's variant; the casino small bet / big bet)."""
    cap: int = 2
    """Fixed-limit only: the cap in minimum bets (the source: "about twice the minimum bet")."""
    short_cap: str = "player"
    """Fixed-limit only. ``player``: a player whose stack is below the cap is capped at their
    stack (all-in) (RULES §2 [choice]); ``table``: the smallest stack of the players who can
    still bet, taken at the start of the round (before the blinds pre-flop), caps every bet
    and raise of the round when it is below the cap (the other reading of the source)."""
    max_raises: int = 0
    """Bets and raises allowed per round, all players together (0: no cap). The casino fixed
    limit: 4 bets, the big blind counting as the first bet before the flop."""
    raises_per_player: int = 0
    """Bets and raises one player may make in a round (0: no limit). The source (RULES §2):
    1, a player raises once a round, that raise may be a re-raise over another's raise."""
    short_all_in: str = "no_reopen"
    """What an all-in short of a full raise does for a player who already acted (RULES §1.2):
    ``no_reopen`` (the [choice]): it does not reopen the betting for them, but several short
    all-ins that together add at least a full raise over what they last faced do (the
    tournament directors' rule); ``reopens``: every all-in reopens it; ``never``: short
    all-ins never reopen it, only a full bet or raise made after the player's last action
    does; ``consecutive``: pokerkit's rule (0.7): as ``no_reopen``, but a player who acted
    since the last full raise may raise only once the short all-ins made since that raise
    (or since they last added up) add up to a full raise."""
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
        "limit": LIMITS,
        "short_cap": ("player", "table"),
        "short_all_in": SHORT_ALL_INS,
    }
    COUNTS = {"cap": 1, "max_raises": 0, "raises_per_player": 0, "unit": 1}
    """Whole-number options and their smallest value."""

    def __post_init__(self) -> None:
        for name, allowed in self.CHOICES.items():
            if getattr(self, name) not in allowed:
                raise TableError(f"structure {name}={getattr(self, name)!r}: use {' or '.join(allowed)}")
        for name, low in self.COUNTS.items():
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                extra = " (0: no limit)" if low == 0 else ""
                raise TableError(f"structure {name}={value!r}: a whole number >= {low}{extra}")

    @property
    def name(self) -> str:
        """The preset this equals, else its base preset plus the options that differ from it."""
        for key, preset in PRESETS.items():
            if preset == self:
                return key
        base = PRESETS[{"no_limit": "nl", "pot_limit": "pl", "fixed_limit": "fl"}[self.kind]]
        diff = [f"{f.name}={str(getattr(self, f.name)).lower()}" for f in fields(self)
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
            key = key.strip().replace("-", "_")
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
            elif isinstance(value, str):
                value = value.strip().lower().replace("-", "_")
            values[key] = value
        return replace(self, **values)

    @property
    def kernel_args(self) -> np.ndarray:
        """The int64 array the numba kernel takes as ``structure`` (``BS_*`` entries)."""
        a = np.zeros(N_STRUCT, np.int64)
        a[BS_KIND] = KINDS.index(self.kind)
        a[BS_MIN_RAISE_LAST] = self.min_raise == "last_increment"
        a[BS_POT_WHOLE] = self.pot == "whole"
        a[BS_LIMIT] = LIMITS.index(self.limit)
        a[BS_MAX_RAISES] = self.max_raises
        a[BS_SHORT_ALL_IN] = SHORT_ALL_INS.index(self.short_all_in)
        a[BS_UNIT] = self.unit
        a[BS_FREE_FOLD] = self.free_fold
        a[BS_CHECK_RAISE] = self.check_raise
        a[BS_BIG_BET_FROM] = 2  # per_round: the big bet from the turn (street 2) on
        a[BS_CAP] = self.cap
        a[BS_SHORT_CAP_TABLE] = self.short_cap == "table"
        a[BS_RAISES_PER_PLAYER] = self.raises_per_player
        return a


PRESETS: dict[str, Structure] = {
    # Dilemma Hold'em (RULES §1.2): no-limit, raises of at least the last increment, $10 chips
    "dilemma": Structure("no_limit", "last_increment", unit=10),
    # Texas Hold'em as the source states it (RULES §2): raises of at least the minimum bet,
    # one raise per player a round; pot limit on this round's chips; fixed limit: one cap for
    # the hand, twice the minimum bet, every bet and raise exactly the cap
    "nl": Structure("no_limit", "min_bet", raises_per_player=1),
    "pl": Structure("pot_limit", "min_bet", pot="round", raises_per_player=1),
    "fl": Structure("fixed_limit", "min_bet", limit="fixed", cap=2, raises_per_player=1),
    # the common casino rules (pokerkit's): no cap on a player's raises, small bet / big bet
    "nl-casino": Structure("no_limit", "last_increment"),
    "pl-casino": Structure("pot_limit", "last_increment", pot="whole"),
    "fl-casino": Structure("fixed_limit", "last_increment", limit="per_round", max_raises=4),
}
"""Named structures: ``dilemma``, the Texas source's ``nl``, ``pl``, ``fl`` and the casino rules."""


def get_structure(name: str | Structure, options: Mapping[str, Any] | None = None) -> Structure:
    """A named structure (``dilemma``, ``nl``, ``pl``, ``fl``, ``*-casino``), with options.

    ``name`` may carry options after the preset, as :attr:`Structure.name` prints them:
    ``"fl,limit=spread,short_cap=table"``.
    """
    if isinstance(name, Structure):
        base = name
    else:
        preset, *parts = str(name).split(",")
        key = preset.strip().lower().replace("_", "-")
        aliases = {"no-limit": "nl", "pot-limit": "pl", "fixed-limit": "fl", "limit": "fl"}
        key = aliases.get(key, key)
        if key not in PRESETS:
            raise TableError(f"unknown betting structure {preset.strip()!r}: use {', '.join(PRESETS)}"
                             " (then options: nl,raises_per_player=0)")
        base = PRESETS[key]
        inline: dict[str, Any] = {}
        for part in parts:
            option, eq, value = part.partition("=")
            if not eq or not option.strip() or not value.strip():
                raise TableError(f"structure option {part.strip()!r}: write name=value, "
                                 "e.g. fl,limit=spread")
            inline[option.strip()] = value.strip()
        if inline:
            base = base.with_options(inline)
    return base.with_options(options) if options else base
