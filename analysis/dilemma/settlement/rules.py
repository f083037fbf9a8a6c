"""The settlement's rule options: the **[choice]** decisions of RULES.md as named, switchable options."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from .errors import SettlementError

# entries of Rules.kernel_args (int64[N_RULES]), the ``rules`` argument of every kernel
R_GREEN_ALL, R_WINNERS_ANY_POT, R_REMAINDER_FIRST, R_OTHERS_COVER, R_EXCEPTION = range(5)
R_KICKERS_TOP = 5
N_RULES = 6
EXC_RIVER, EXC_ANY_SHOWDOWN, EXC_NONE = 0, 1, 2


@dataclass(frozen=True)
class Rules:
    """The rule options of the settlement; defaults are the RULES.md **[choice]** decisions."""

    green_effects_for: str = "survivors"
    """``survivors``: green cards act only in the hands of players who did not fold
    (RULES §1.4 step 2 [choice]); ``all_dealt``: in every dealt hand."""
    winners: str = "main_pot"
    """``main_pot``: winners are the main-pot winners (§1.8 [choice]); ``any_pot``:
    a player who takes any contested pot is a winner too."""
    split_remainder: str = "bank"
    """``bank``: the remainder of a $10 split goes to the bank (§1.4 [choice]);
    ``first_winner``: to the first winner clockwise from the DEALER."""
    insolvent_loser: str = "pays_what_they_have"
    """``pays_what_they_have``: a loser short of their penalty share pays all they
    have (§1.4 step 5 [choice]); ``others_cover``: the other paying losers split
    the shortfall (shares rounded down to $10, capped at their chips)."""
    showdown_exception: str = "river"
    """``river``: at a river showdown, if the non-winning participants include both
    river folders and showdown losers, only the showdown losers pay (§1.4);
    ``any_showdown``: the same at any showdown (all-in run-outs); ``none``: never."""
    kickers: str = "all"
    """``all``: ties are broken by every card outside the made hand in order (§1.3
    [choice]); ``top``: the source's literal reading, only the highest one counts, then
    a split (``evaluator.kickers``)."""
    blinds: tuple[tuple[int, int], ...] = ((10, 20), (20, 40), (30, 60))
    """Small/big blinds by level: level 1 once bank 1 is first emptied, 2 for bank 2 (§1.5)."""

    CHOICES = {
        "green_effects_for": ("survivors", "all_dealt"),
        "winners": ("main_pot", "any_pot"),
        "split_remainder": ("bank", "first_winner"),
        "insolvent_loser": ("pays_what_they_have", "others_cover"),
        "showdown_exception": ("river", "any_showdown", "none"),
        "kickers": ("all", "top"),
    }
    LATER = {"kickers": "all"}
    """Options added after results were saved, with their defaults."""

    def __post_init__(self) -> None:
        for name, allowed in self.CHOICES.items():
            value = getattr(self, name)
            if value not in allowed:
                raise SettlementError(
                    f"rule {name}={value!r} is not an option: use {' or '.join(allowed)}"
                )
        if len(self.blinds) != 3:
            raise SettlementError("rule blinds needs three levels (small/big for levels 0, 1, 2)")

    @classmethod
    def parse(cls, options: Mapping[str, Any] | Sequence[str] | None = None) -> Rules:
        """Rules from a mapping or from ``["name=value", ...]`` (CLI ``--rule``)."""
        if options is None:
            return cls()
        if not isinstance(options, Mapping):
            options = parse_pairs(options)
        known = {f.name for f in fields(cls)}
        for key in options:
            if key not in known:
                raise SettlementError(
                    f"unknown rule option {key!r}: use {', '.join(sorted(known))}"
                )
        values = dict(options)
        if "blinds" in values:
            values["blinds"] = _parse_blind_levels(values["blinds"])
        return cls(**values)

    def as_dict(self) -> dict[str, Any]:
        """The options as plain data (for manifests and JSON output). Options added later
        (``LATER``) appear only when set, so the settings and fingerprints saved before
        them still match."""
        out: dict[str, Any] = {
            name: getattr(self, name) for name in self.CHOICES
            if name not in self.LATER or getattr(self, name) != self.LATER[name]
        }
        out["blinds"] = [list(b) for b in self.blinds]
        return out

    @property
    def label(self) -> str:
        """``default`` or the non-default options, e.g. ``winners=any_pot``."""
        base = Rules()
        diff = [
            f"{n}={getattr(self, n)}" for n in self.CHOICES if getattr(self, n) != getattr(base, n)
        ]
        if self.blinds != base.blinds:
            diff.append("blinds=" + ",".join(f"{s}/{b}" for s, b in self.blinds))
        return ",".join(diff) or "default"

    @property
    def kernel_args(self) -> np.ndarray:
        """The int64 array the numba core takes as ``rules``."""
        arr = np.zeros(N_RULES, np.int64)
        arr[R_GREEN_ALL] = self.green_effects_for == "all_dealt"
        arr[R_WINNERS_ANY_POT] = self.winners == "any_pot"
        arr[R_REMAINDER_FIRST] = self.split_remainder == "first_winner"
        arr[R_OTHERS_COVER] = self.insolvent_loser == "others_cover"
        arr[R_EXCEPTION] = ("river", "any_showdown", "none").index(self.showdown_exception)
        arr[R_KICKERS_TOP] = self.kickers == "top"
        return arr


def _parse_blind_levels(value: Any) -> tuple[tuple[int, int], ...]:
    if isinstance(value, str):
        value = [part for part in value.split(",") if part.strip()]
    try:
        levels = tuple(_parse_blinds(v) for v in value)
    except (TypeError, ValueError):
        raise SettlementError(f"rule blinds {value!r}: write 10/20,20/40,30/60") from None
    return levels


def _parse_blinds(value: Any) -> tuple[int, int]:
    if isinstance(value, str):
        small, big = value.split("/")
        return int(small), int(big)
    small, big = value
    return int(small), int(big)


def parse_pairs(items: Sequence[str]) -> dict[str, str]:
    """``["name=value", ...]`` as a dict (names may use dashes)."""
    out = {}
    for item in items:
        if "=" not in item:
            raise SettlementError(f"rule option {item!r}: write name=value")
        key, value = item.split("=", 1)
        out[key.strip().replace("-", "_")] = value.strip()
    return out

