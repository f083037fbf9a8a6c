"""Opponent models and hero continuation policies, as data (TOML files in ``data/``).

An opponent model gives, per street, a **bet** threshold (a player whose strength
reaches it bets), the **bet_size** (a fraction of the pot) and a **call**
threshold (facing a bet it calls at or above it, else folds), plus the **range**
its holdings are dealt from. Strength is the share of two-card holdings the
player's cards beat on the current board (ties half). Omitting ``bet`` means
never betting; ``call = 0`` calls everything. With ``relative = true`` the
thresholds apply to the player's strength *within its own range* after its
actions so far (a player who checked or called holds the weaker part of what it
could have had), the way a thinking player sizes up its hand.

A hero policy gives a call threshold per street (the hero never bets after
checking). Users add models by writing a TOML file and passing its path.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from evaluator.errors import LabError

DATA = Path(__file__).parent / "data"
STREET_NAMES = ("flop", "turn", "river")
NEVER = 2.0


class ModelError(LabError):
    """An opponent model or hero policy that cannot be used; names the file and the field."""


@dataclass(frozen=True)
class OpponentModel:
    """Per-street bet/size/call thresholds (index 0 preflop, unused) and the dealing range."""

    name: str
    description: str
    range: str
    params: tuple[tuple[float, float, float], ...]  # (bet, bet_size, call) for streets 0..3
    source: str = ""
    relative: bool = False
    """Thresholds are shares of the player's own range after its actions so far (which
    narrows when it checks or calls), not of every holding."""

    def kernel_params(self) -> np.ndarray:
        """float64[4, 3]: per street (bet threshold, bet size, call threshold)."""
        return np.array(self.params, dtype=np.float64)

    def as_dict(self) -> dict[str, Any]:
        """The model as plain data, for manifests."""
        return {
            "name": self.name,
            "range": self.range,
            "relative": self.relative,
            **{s: dict(zip(("bet", "bet_size", "call"), self.params[i + 1], strict=True))
               for i, s in enumerate(STREET_NAMES)},
        }


@dataclass(frozen=True)
class HeroPolicy:
    """The hero's call thresholds per street (index 0 preflop, unused) after checking."""

    name: str
    description: str
    call: tuple[float, float, float, float]


def _threshold(value: Any, where: str) -> float:
    if isinstance(value, str) and value.strip().lower() == "never":
        return NEVER
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0.0 <= value <= 1.0:
        raise ModelError(f"{where}: a threshold is a number from 0 to 1 or \"never\"; got {value!r}")
    return float(value)


def _read(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ModelError(f"{path}: cannot read ({exc.strerror})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ModelError(f"{path}: not valid TOML ({exc})") from None


def builtin_models() -> list[str]:
    """Names of the models shipped with the lab."""
    return sorted(p.stem for p in DATA.glob("*.toml") if p.stem != "policies")


def load_model(name_or_path: str | Path | OpponentModel) -> OpponentModel:
    """An opponent model by built-in name (``passive``, ``callers``, ``threshold``...) or TOML path."""
    if isinstance(name_or_path, OpponentModel):
        return name_or_path
    text = str(name_or_path)
    path = DATA / f"{text}.toml" if text in builtin_models() else Path(text)
    if not path.suffix == ".toml" or not path.exists():
        raise ModelError(
            f"unknown opponent model {text!r}: use one of {', '.join(builtin_models())} or a .toml path"
        )
    data = _read(path)
    head = data.get("model")
    if not isinstance(head, dict):
        raise ModelError(f"{path}: missing [model] table")
    extra = set(head) - {"name", "description", "range", "relative"}
    if extra:
        raise ModelError(f"{path} [model]: unknown field {sorted(extra)[0]!r}")
    relative = head.get("relative", False)
    if not isinstance(relative, bool):
        raise ModelError(f"{path} [model] relative: true or false; got {relative!r}")
    unknown = set(data) - {"model", "streets"}
    if unknown:
        raise ModelError(f"{path}: unknown table [{sorted(unknown)[0]}]")
    streets = data.get("streets", {})
    params = [(NEVER, 0.0, 0.0)]
    for s in STREET_NAMES:
        entry = streets.get(s, {})
        where = f"{path} [streets.{s}]"
        extra = set(entry) - {"bet", "bet_size", "call"}
        if extra:
            raise ModelError(f"{where}: unknown field {sorted(extra)[0]!r}")
        bet = _threshold(entry.get("bet", "never"), f"{where} bet")
        size = entry.get("bet_size", 0.5)
        if isinstance(size, bool) or not isinstance(size, int | float) or not 0 < size <= 10:
            raise ModelError(f"{where} bet_size: a fraction of the pot in (0, 10]; got {size!r}")
        params.append((bet, float(size), _threshold(entry.get("call", 0.0), f"{where} call")))
    return OpponentModel(
        name=str(head.get("name", path.stem)),
        description=str(head.get("description", "")),
        range=str(head.get("range", "random")),
        params=tuple(params),
        source=str(path),
        relative=relative,
    )


def load_policy(name: str | HeroPolicy) -> HeroPolicy:
    """A hero continuation policy by name: ``check_down``, ``check_fold`` or ``call_down``."""
    if isinstance(name, HeroPolicy):
        return name
    table = _read(DATA / "policies.toml")
    key = str(name).replace("-", "_")
    if key not in table:
        raise ModelError(f"unknown policy {name!r}: use one of {', '.join(sorted(table))}")
    entry = table[key]
    calls = tuple(_threshold(entry[s], f"policies.toml [{key}] {s}") for s in STREET_NAMES)
    return HeroPolicy(key, str(entry.get("description", "")), (NEVER, *calls))
