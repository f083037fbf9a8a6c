"""Bluffjack strategies as data: threshold rules on what a player sees, in TOML.

A strategy is an ordered list of rules; at each decision the first rule of the right
kind (``decision = "hit"`` for hit or stand, ``"bet"`` for fold / call / raise) whose
conditions all hold gives the action probabilities. Conditions are ranges on the
features of the decision (``"17-21"``, ``"17+"``, ``"-16"``, ``17``, or a word):

========== ==================================================================
round      ``first``, ``initial``, ``play``, ``final`` (or a list of them)
facing     ``none`` / ``bet`` (chips to call) / ``any``
total      the player's own best total, face-down card included (bust: over 21)
hidden     the face-down card's value: 2-10, ace 11
visible    the best total of the player's face-up cards (0 before the up card)
opp        the highest visible total, not over 21, among the other players in the
           hand (0 when every other player shows a bust)
players    players in the hand
raises     raises so far in this betting round
========== ==================================================================

Actions: ``hit``, ``stand`` (hit rules), ``fold``, ``call``, ``raise`` (bet rules; a call of
nothing is a check, a raise of nothing a bet) and ``size``, the raise as a fraction of the
pot after calling (pot and no limit; fixed limit has one size). When no rule matches a
player stands, or checks / calls. In play, actions the state does not allow are dropped
and the rest renormalised (nothing left: stand, or check / call); the opening bet of an
initial round is forced and is not a decision. :func:`compile_strategies` packs
strategies into the arrays the kernel reads.
"""

from __future__ import annotations

import math
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from analysis.engine.errors import PolicyError

from .referee import ROUNDS

__all__ = ["FEATURES", "Rule", "Strategy", "builtin_strategies", "compile_strategies", "load_strategy"]

DATA = Path(__file__).parent / "data"
FEATURES = ("round", "facing", "total", "hidden", "visible", "opp", "players", "raises")
FT_ROUND, FT_FACING, FT_TOTAL, FT_HIDDEN, FT_VISIBLE, FT_OPP, FT_PLAYERS, FT_RAISES = range(len(FEATURES))
N_FEAT = len(FEATURES)
HIT_ACTIONS = ("hit", "stand")
BET_ACTIONS = ("fold", "call", "raise")
DK_HIT, DK_BET = 0, 1
BIG = 1 << 30
"""An open upper end of a range."""


@dataclass(frozen=True)
class Rule:
    """One rule: its kind, ranges per feature, action probabilities (summing to 1) and size."""

    decision: int
    lo: tuple[int, ...]
    hi: tuple[int, ...]
    probs: tuple[float, float, float]
    """``(hit, stand, 0)`` or ``(fold, call, raise)``."""
    size: float = 1.0

    def matches(self, feats: list[int] | np.ndarray) -> bool:
        return all(self.lo[f] <= feats[f] <= self.hi[f] for f in range(N_FEAT))


@dataclass(frozen=True)
class Strategy:
    """A named list of rules."""

    name: str
    rules: tuple[Rule, ...]
    description: str = ""

    def rule_for(self, decision: int, feats: list[int] | np.ndarray) -> Rule | None:
        """The first rule of this kind that matches (``None``: the default)."""
        for r in self.rules:
            if r.decision == decision and r.matches(feats):
                return r
        return None


def _range(value: Any, where: str) -> tuple[int, int]:
    if isinstance(value, bool):
        raise PolicyError(f"{where}: a number or a range such as '17-21', '17+', '-16'; got {value!r}")
    if isinstance(value, int):
        return value, value
    if isinstance(value, str):
        m = re.fullmatch(r"\s*(\d*)\s*(-|\+)?\s*(\d*)\s*", value)
        if m and (m.group(1) or m.group(3)):
            a, sign, b = m.groups()
            if sign is None and a and not b:
                return int(a), int(a)
            if sign == "+" and a and not b:
                return int(a), BIG
            if sign == "-" and not a and b:
                return 0, int(b)
            if sign == "-" and a and b and int(a) <= int(b):
                return int(a), int(b)
    raise PolicyError(f"{where}: a number or a range such as '17-21', '17+', '-16'; got {value!r}")


def _condition(key: str, value: Any, where: str) -> tuple[int, int]:
    if key == "round":
        words = value if isinstance(value, list) else [value]
        if not words or any(w not in ROUNDS for w in words):
            raise PolicyError(f"{where}: round is one of {', '.join(ROUNDS)} (or a list); got {value!r}")
        idx = sorted(ROUNDS.index(w) for w in words)
        if idx != list(range(idx[0], idx[-1] + 1)):
            raise PolicyError(f"{where}: the rounds of a rule must be consecutive; got {value!r}")
        return idx[0], idx[-1]
    if key == "facing":
        table = {"none": (0, 0), "bet": (1, 1), "any": (0, 1)}
        if value not in table:
            raise PolicyError(f"{where}: facing is none, bet or any; got {value!r}")
        return table[value]
    return _range(value, where)


def _rule(raw: Any, where: str) -> Rule:
    if not isinstance(raw, dict):
        raise PolicyError(f"{where}: a rule is a table of conditions and action probabilities")
    decision = raw.get("decision")
    if decision not in ("hit", "bet"):
        raise PolicyError(f"{where}: decision must be 'hit' (hit or stand) or 'bet' (fold / call / raise); "
                          f"got {decision!r}")
    actions = HIT_ACTIONS if decision == "hit" else BET_ACTIONS
    other = BET_ACTIONS if decision == "hit" else HIT_ACTIONS
    lo, hi = [0] * N_FEAT, [BIG] * N_FEAT
    probs = [0.0, 0.0, 0.0]
    size = 1.0
    for key, value in raw.items():
        at = f"{where}, field {key!r}"
        if key == "decision":
            continue
        if key in FEATURES:
            f = FEATURES.index(key)
            lo[f], hi[f] = _condition(key, value, at)
        elif key in actions:
            if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1 \
                    or not math.isfinite(value):
                raise PolicyError(f"{at}: a probability 0-1; got {value!r}")
            probs[actions.index(key)] = float(value)
        elif key == "size":
            if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value <= 100:
                raise PolicyError(f"{at}: a raise size as a fraction of the pot, 0-100; got {value!r}")
            size = float(value)
        elif key in other:
            raise PolicyError(f"{at}: a {decision} rule takes {', '.join(actions)}, not {key}")
        else:
            raise PolicyError(f"{at}: unknown field; conditions are {', '.join(FEATURES)}, actions "
                              f"{', '.join(actions)}" + (", size" if decision == "bet" else ""))
    total = sum(probs)
    if total <= 0:
        raise PolicyError(f"{where}: give at least one action probability ({', '.join(actions)})")
    if abs(total - 1) > 1e-9:
        raise PolicyError(f"{where}: the action probabilities sum to {total:g}, not 1")
    return Rule(DK_HIT if decision == "hit" else DK_BET, tuple(lo), tuple(hi), tuple(probs), size)  # type: ignore[arg-type]


def builtin_strategies() -> list[str]:
    """Names of the strategies shipped in ``data/``."""
    return sorted(p.stem for p in DATA.glob("*.toml"))


def load_strategy(source: str | Path) -> Strategy:
    """A strategy from a built-in name or a TOML path."""
    text_name = str(source)
    path = DATA / f"{text_name}.toml" if (DATA / f"{text_name}.toml").is_file() else Path(text_name)
    if not path.is_file():
        raise PolicyError(f"unknown Bluffjack strategy {text_name!r}: built-in ones are "
                          f"{', '.join(builtin_strategies())}, or give a TOML file")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise PolicyError(f"{path.name}: not valid TOML: {exc}") from None
    head = data.get("strategy", {})
    if not isinstance(head, dict):
        raise PolicyError(f"{path.name}: [strategy] must be a table (name, description)")
    unknown = sorted(set(data) - {"strategy", "rule"})
    if unknown:
        raise PolicyError(f"{path.name}: unknown section {unknown[0]!r}; use [strategy] and [[rule]]")
    raw_rules = data.get("rule", [])
    if not isinstance(raw_rules, list):
        raise PolicyError(f"{path.name}: write the rules as [[rule]] tables")
    rules = tuple(_rule(r, f"{path.name} rule {k + 1}") for k, r in enumerate(raw_rules))
    return Strategy(str(head.get("name", path.stem)), rules, str(head.get("description", "")))


def compile_strategies(strategies: list[Strategy]) -> dict[str, np.ndarray]:
    """Kernel arrays: ``n_rules[S]``, ``kind[S, R]``, ``lo/hi[S, R, F]``, ``cum[S, R, 3]``
    (cumulative probabilities), ``size[S, R]``."""
    s_n = len(strategies)
    r_n = max(1, max(len(s.rules) for s in strategies))
    out = {
        "n_rules": np.array([len(s.rules) for s in strategies], dtype=np.int64),
        "kind": np.zeros((s_n, r_n), dtype=np.int64),
        "lo": np.zeros((s_n, r_n, N_FEAT), dtype=np.int64),
        "hi": np.zeros((s_n, r_n, N_FEAT), dtype=np.int64),
        "cum": np.zeros((s_n, r_n, 3), dtype=np.float64),
        "size": np.ones((s_n, r_n), dtype=np.float64),
    }
    for s, strat in enumerate(strategies):
        for r, rule in enumerate(strat.rules):
            out["kind"][s, r] = rule.decision
            out["lo"][s, r] = rule.lo
            out["hi"][s, r] = rule.hi
            out["cum"][s, r] = np.cumsum(rule.probs)
            out["size"][s, r] = rule.size
    return out
