"""Strategies as data: a policy maps what a player sees to action probabilities.

A policy is an ordered list of **rules**; the first rule whose conditions all hold
decides, by its action probabilities (conditions on the features of
:mod:`.features`: street, facing a bet, players, position, strength, price, pot,
penalty so far ...). Two sources, one compiled form:

- hand-written strategies in TOML (``analysis/engine/data/*.toml``; format in
  ``docs/hand_history.md``, section "Strategies"), read by :func:`load_policy`;
- computed strategies in the shared policy-table format (the fold-vs-check best
  response, the equilibrium solver), read by :func:`policy_from_table`: one rule per
  information state, the most specific first (exact players/position before the
  0/-1 wildcards).

The **fold-for-free knob** (``fold_for_free``: ``never``, ``multiway``, ``always`` or
``rules``) decides what a player does with a weak hand when nobody has bet after the
flop: ``never`` checks, ``multiway`` folds below ``fold_for_free_below`` when three or
more players are in, ``always`` folds below it at any table; ``rules`` leaves the rules'
own fold and check probabilities alone (computed tables).

In play, actions that are illegal in the state are dropped and the rest renormalised
(a call of nothing is a check); a bet size the structure does not offer maps to the
nearest legal size; when nothing legal is left the player checks, else folds.
:func:`compile_policies` packs policies into the arrays the numba kernel reads.
"""

from __future__ import annotations

import json
import math
import re
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from analysis.core.actions import ACTION_NAMES

from .errors import PolicyError
from .features import (
    ACTION_KINDS,
    F_BEHIND,
    F_FACING,
    F_PLAYERS,
    F_POSITION,
    F_STREET,
    F_STRENGTH,
    FEATURE_INDEX,
    FEATURES,
    FF_RULES,
    FOLD_FOR_FREE,
    MAX_SLOTS,
    N_FEAT,
)

DATA = Path(__file__).parent / "data"
STREET_NAMES = ("preflop", "flop", "turn", "river")
_POLICY_KEYS = {"name", "description", "fold_for_free", "fold_for_free_below", "size"}
_RULE_KEYS = set(FEATURES) | {"do", "size", "comment"}

# policy kernel arrays: ints per policy, floats per policy
(PI_FIRST, PI_COUNT, PI_FF_MODE, PI_USES_STRENGTH) = range(4)
N_PI = 4
(PF_FF_BELOW,) = range(1)
N_PF = 1


@dataclass(frozen=True)
class Rule:
    """When all ``conditions`` hold (``lo <= feature < hi``), play ``actions``."""

    conditions: tuple[tuple[int, float, float], ...]
    actions: tuple[tuple[int, float, float], ...]
    """(kind, size as a fraction of the pot or NaN, probability), probabilities summing to 1."""
    text: str = ""


@dataclass(frozen=True)
class Policy:
    """A named strategy: ordered rules plus the fold-for-free knob."""

    name: str
    rules: tuple[Rule, ...]
    fold_for_free: str = "rules"
    fold_for_free_below: float = 0.0
    description: str = ""
    source: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def uses_strength(self) -> bool:
        """Whether any rule (or the knob) looks at the hand strength."""
        if self.fold_for_free in ("multiway", "always"):
            return True
        return any(f == F_STRENGTH for r in self.rules for f, _, _ in r.conditions)

    def probabilities(self, features: Sequence[float]) -> dict[str, float]:
        """The matching rule's action probabilities (legality not applied; for inspection)."""
        for rule in self.rules:
            if all(lo <= features[f] < hi for f, lo, hi in rule.conditions):
                out: dict[str, float] = {}
                for kind, size, p in rule.actions:
                    key = ACTION_NAMES[kind] + ("" if math.isnan(size) else f" {size:g}")
                    out[key] = out.get(key, 0.0) + p
                return out
        return {}


# ------------------------------------------------------------------ TOML strategies


def builtin_policies() -> list[str]:
    """Names of the shipped strategies."""
    return sorted(p.stem for p in DATA.glob("*.toml"))


def load_policy(name_or_path: str | Path | Policy) -> Policy:
    """A shipped strategy by name, a TOML strategy file, or a policy table (``.parquet``/``.csv``)."""
    if isinstance(name_or_path, Policy):
        return name_or_path
    text = str(name_or_path).strip()
    path = Path(text).expanduser()
    if not path.is_file():
        builtin = DATA / f"{text}.toml"
        if builtin.is_file():
            path = builtin
        elif path.suffix or "/" in text:
            raise PolicyError(f"strategy file {text!r} not found")
        else:
            raise PolicyError(f"unknown strategy {text!r}: use {', '.join(builtin_policies())} "
                              "or the path of a TOML strategy or a policy table")
    if path.suffix in (".parquet", ".csv"):
        frame = pd.read_parquet(path) if path.suffix == ".parquet" else pd.read_csv(path)
        manifest_path = path.with_name(path.stem + ".manifest.json")
        manifest = json.loads(manifest_path.read_text()) if manifest_path.is_file() else {}
        return policy_from_table(frame, manifest, source=path.name)
    return parse_policy_toml(path.read_text(encoding="utf-8"), path.name)


def parse_policy_toml(text: str, source: str = "<strategy>") -> Policy:
    """A strategy from TOML text; errors name the file, the line and the field."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PolicyError(f"{source}: not valid TOML: {exc}") from None
    lines = text.splitlines()

    def fail(field_name: str, problem: str, rule: int | None = None) -> PolicyError:
        line = _line_of(lines, field_name.split(".")[-1], rule)
        where = f"{source}, line {line}" if line else source
        return PolicyError(f"{where}, field {field_name!r}: {problem}")

    head = data.get("policy")
    if not isinstance(head, dict):
        raise PolicyError(f"{source}: needs a [policy] table with a name")
    for key in head:
        if key not in _POLICY_KEYS:
            raise fail(f"policy.{key}", f"unknown field; use {', '.join(sorted(_POLICY_KEYS))}")
    for key in data:
        if key not in ("policy", "rule"):
            raise fail(key, "unknown table; use [policy] and [[rule]]")
    name = head.get("name")
    if not isinstance(name, str) or not name.strip():
        raise fail("policy.name", "a non-empty string")
    ff = head.get("fold_for_free", "never")
    if ff not in FOLD_FOR_FREE:
        raise fail("policy.fold_for_free", f"{ff!r}: use {', '.join(FOLD_FOR_FREE)}")
    below = head.get("fold_for_free_below", 0.0)
    if not isinstance(below, int | float) or not 0 <= below <= 1:
        raise fail("policy.fold_for_free_below", f"a strength between 0 and 1, got {below!r}")
    default_size = head.get("size", 0.75)
    if not isinstance(default_size, int | float) or default_size <= 0:
        raise fail("policy.size", f"a bet size as a fraction of the pot (> 0), got {default_size!r}")
    raw_rules = data.get("rule", [])
    if not isinstance(raw_rules, list) or not raw_rules:
        raise PolicyError(f"{source}: needs at least one [[rule]]")
    rules = []
    for k, raw in enumerate(raw_rules):
        for key in raw:
            if key not in _RULE_KEYS:
                raise fail(f"rule[{k + 1}].{key}", f"unknown field; use {', '.join(sorted(_RULE_KEYS))}", k)
        conditions = []
        for key, value in raw.items():
            if key in FEATURES:
                try:
                    conditions.append(_condition(key, value))
                except ValueError as exc:
                    raise fail(f"rule[{k + 1}].{key}", str(exc), k) from None
        size = raw.get("size", default_size)
        if not isinstance(size, int | float) or size <= 0:
            raise fail(f"rule[{k + 1}].size", f"a fraction of the pot (> 0), got {size!r}", k)
        do = raw.get("do")
        if not isinstance(do, dict) or not do:
            raise fail(f"rule[{k + 1}].do", 'action probabilities, e.g. do = { call = 0.7, raise = 0.3 }', k)
        actions = []
        for act, p in do.items():
            if act not in ACTION_KINDS:
                raise fail(f"rule[{k + 1}].do.{act}", f"unknown action; use {', '.join(ACTION_KINDS)}", k)
            if isinstance(p, bool) or not isinstance(p, int | float) or p < 0:
                raise fail(f"rule[{k + 1}].do.{act}", f"a probability >= 0, got {p!r}", k)
            kind = ACTION_KINDS[act]
            actions.append((kind, float(size) if act in ("bet", "raise") else math.nan, float(p)))
        total = sum(p for _, _, p in actions)
        if not math.isclose(total, 1.0, abs_tol=1e-6):
            raise fail(f"rule[{k + 1}].do", f"probabilities sum to {total:g}, not 1", k)
        rules.append(Rule(tuple(conditions), tuple(actions), text=str(raw.get("comment", ""))))
    return Policy(name=name.strip(), rules=tuple(rules), fold_for_free=ff,
                  fold_for_free_below=float(below), description=str(head.get("description", "")),
                  source=source)


def _line_of(lines: list[str], key: str, rule: int | None) -> int | None:
    """The 1-based line of ``key`` (inside the ``rule``-th [[rule]] block when given)."""
    start, end = 0, len(lines)
    if rule is not None:
        heads = [i for i, line in enumerate(lines) if line.strip().startswith("[[rule]]")]
        if rule < len(heads):
            start = heads[rule]
            end = heads[rule + 1] if rule + 1 < len(heads) else len(lines)
    elif key in _POLICY_KEYS or key.startswith("policy"):
        pass
    pattern = re.compile(rf"(^|[{{,\s]){re.escape(key)}\s*=")
    for i in range(start, end):
        if pattern.search(lines[i]):
            return i + 1
    return start + 1 if rule is not None else None


_NUM = r"[-+]?\d+(?:\.\d+)?"


def _condition(key: str, value: Any) -> tuple[int, float, float]:
    """``(feature, lo, hi)`` with ``lo <= x < hi`` from a TOML value (see the module doc)."""
    f = FEATURE_INDEX[key]
    integer = key in ("street", "facing", "players", "position", "behind")
    if key == "street":
        if isinstance(value, str):
            v = value.strip().lower()
            if v in ("any", "all"):
                return f, -math.inf, math.inf
            if v == "postflop":
                return f, 1, math.inf
            m = re.fullmatch(r"(preflop|flop|turn|river)(\+)?", v)
            if m:
                s = STREET_NAMES.index(m.group(1))
                return f, s, (math.inf if m.group(2) else s + 1)
            m = re.fullmatch(r"(preflop|flop|turn|river)-(preflop|flop|turn|river)", v)
            if m:
                return f, STREET_NAMES.index(m.group(1)), STREET_NAMES.index(m.group(2)) + 1
        raise ValueError(f"{value!r}: preflop, flop, turn, river, postflop, flop+ or flop-turn")
    if key == "facing":
        if value in ("none", "bet", "any"):
            return (f, -math.inf, math.inf) if value == "any" else (f, float(value == "bet"),
                                                                     float(value == "bet") + 1)
        raise ValueError(f"{value!r}: none, bet or any")
    if key == "position" and value in ("first", "last"):
        return (F_POSITION, 0, 1) if value == "first" else (F_BEHIND, 0, 1)
    if isinstance(value, bool):
        raise ValueError(f"{value!r}: a number or a range like \"3+\", \"< 0.4\", \"0.3-0.6\"")
    if isinstance(value, int | float):
        return f, float(value), float(value) + 1 if integer else float(value) + 1e-12
    text = str(value).replace(" ", "")
    m = re.fullmatch(rf"({_NUM})\+", text)
    if m:
        return f, float(m.group(1)), math.inf
    m = re.fullmatch(rf"(<|<=|>|>=)({_NUM})", text)
    if m:
        x = float(m.group(2))
        step = 1.0 if integer else 1e-12
        return {"<": (f, -math.inf, x), "<=": (f, -math.inf, x + step),
                ">=": (f, x, math.inf), ">": (f, x + step, math.inf)}[m.group(1)]
    m = re.fullmatch(rf"({_NUM})-({_NUM})", text)
    if m:
        lo, hi = float(m.group(1)), float(m.group(2))
        if hi < lo:
            raise ValueError(f"{value!r}: the range is empty")
        return f, lo, hi + 1 if integer else hi
    raise ValueError(f"{value!r}: a number or a range like \"3+\", \"< 0.4\", \">= 0.6\", \"0.3-0.6\"")


# ------------------------------------------------------------------ policy tables (shared format)

TABLE_COLUMNS = ("street", "facing", "players", "position", "bucket", "action", "size", "probability")


def policy_from_table(frame: pd.DataFrame, manifest: dict[str, Any] | None = None, *,
                      source: str = "<table>") -> Policy:
    """A policy from the shared policy-table format (one row per information state and action)."""
    manifest = manifest or {}
    missing = [c for c in TABLE_COLUMNS if c not in frame.columns]
    if missing:
        raise PolicyError(f"{source}: policy table is missing column(s) {', '.join(missing)}")
    n_buckets = int(manifest.get("n_buckets", int(frame["bucket"].max()) + 1))
    if n_buckets < 1:
        raise PolicyError(f"{source}: n_buckets must be >= 1")
    keys = ["street", "facing", "players", "position", "bucket"]
    rules = []
    for row_no, (key, group) in enumerate(frame.groupby(keys, sort=False)):
        street, facing, players, position, bucket = key
        where = f"{source}, rows of {dict(zip(keys, key, strict=True))}"
        if street not in STREET_NAMES:
            raise PolicyError(f"{where}: street {street!r} is not preflop, flop, turn or river")
        if facing not in ("none", "bet"):
            raise PolicyError(f"{where}: facing {facing!r} is not none or bet")
        if not 0 <= int(bucket) < n_buckets:
            raise PolicyError(f"{where}: bucket {bucket} is outside 0..{n_buckets - 1}")
        total = float(group["probability"].sum())
        if not math.isclose(total, 1.0, abs_tol=1e-6) or (group["probability"] < 0).any():
            raise PolicyError(f"{where}: probabilities sum to {total:g}, not 1")
        s = STREET_NAMES.index(street)
        b = int(bucket)
        conds = [(F_STREET, s, s + 1), (F_FACING, float(facing == "bet"), float(facing == "bet") + 1),
                 (F_STRENGTH, b / n_buckets if b else -math.inf,
                  (b + 1) / n_buckets if b < n_buckets - 1 else math.inf)]
        if int(players) != 0:
            conds.append((F_PLAYERS, int(players), int(players) + 1))
        if int(position) != -1:
            conds.append((F_POSITION, int(position), int(position) + 1))
        actions = []
        for r in group.itertuples():
            if r.action not in ACTION_KINDS:
                raise PolicyError(f"{where}: action {r.action!r}; use {', '.join(ACTION_KINDS)}")
            size = float(r.size) if r.action in ("bet", "raise") else math.nan
            actions.append((ACTION_KINDS[r.action], size, float(r.probability)))
        if len(actions) > MAX_SLOTS:
            raise PolicyError(f"{where}: at most {MAX_SLOTS} actions per information state")
        specificity = (int(players) != 0) + (int(position) != -1)
        rules.append((-specificity, row_no, Rule(tuple(conds), tuple(actions))))
    rules.sort(key=lambda t: (t[0], t[1]))
    name = str(manifest.get("policy", Path(source).stem))
    return Policy(name=name, rules=tuple(r for _, _, r in rules), fold_for_free="rules",
                  description=str(manifest.get("source", "")), source=source,
                  extra={"n_buckets": n_buckets})


# ------------------------------------------------------------------ the kernel's arrays


def compile_policies(policies: Sequence[Policy]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(pol_int, pol_float, cond, acts)`` for the kernel: per policy its first rule, rule
    count, knob and whether it needs strength; per rule ``cond[r, f] = (lo, hi)`` and
    ``acts[r, slot] = (kind, size, probability)`` (kind -1: empty slot)."""
    n_rules = sum(len(p.rules) for p in policies)
    pol_int = np.zeros((len(policies), N_PI), np.int64)
    pol_float = np.zeros((len(policies), N_PF))
    cond = np.empty((max(n_rules, 1), N_FEAT, 2))
    cond[:, :, 0] = -np.inf
    cond[:, :, 1] = np.inf
    acts = np.full((max(n_rules, 1), MAX_SLOTS, 3), np.nan)
    acts[:, :, 0] = -1
    r = 0
    for k, p in enumerate(policies):
        pol_int[k] = (r, len(p.rules), FOLD_FOR_FREE.index(p.fold_for_free), p.uses_strength)
        pol_float[k, PF_FF_BELOW] = p.fold_for_free_below
        for rule in p.rules:
            for f, lo, hi in rule.conditions:
                cond[r, f, 0] = max(cond[r, f, 0], lo)
                cond[r, f, 1] = min(cond[r, f, 1], hi)
            if len(rule.actions) > MAX_SLOTS:
                raise PolicyError(f"{p.name}: at most {MAX_SLOTS} actions per rule")
            for s, (kind, size, prob) in enumerate(rule.actions):
                acts[r, s] = (kind, size, prob)
            r += 1
    return pol_int, pol_float, cond, acts


__all__ = ["FF_RULES", "F_PLAYERS", "Policy", "Rule", "builtin_policies", "compile_policies",
           "load_policy", "parse_policy_toml", "policy_from_table"]
