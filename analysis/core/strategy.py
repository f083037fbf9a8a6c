"""One strategy language: engine strategies and fold-vs-check opponent models are one kind,
:class:`Strategy`, loaded by one function, :func:`load_strategy`.

A strategy is an ordered list of **rules** (the first rule whose conditions on the decision
features of :mod:`.features` all hold decides, by its action probabilities) plus the
fold-for-free knob. Three sources give one:

- an engine strategy in TOML (``[policy]`` and ``[[rule]]``; shipped in
  ``analysis/engine/data/``, format in ``docs/hand_history.md``);
- an opponent model in TOML (``[model]`` and ``[streets.*]``: per street a bet threshold, a bet
  size and a call threshold on the hand's strength; shipped in
  ``analysis/studies/fold_vs_check/models/data/``), kept exactly as :class:`ThresholdModel` in
  ``Strategy.model`` and written as rules by :func:`rules_of_model` so it plays whole games;
- a policy table (``.parquet``/``.csv``, the shared format of computed strategies).

The fold-vs-check kernels and the card solver's node locks read thresholds; any strategy
gives them by :func:`threshold_model` (exact for a model, an adapter for rules: see there).
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

from evaluator.errors import LabError

from .actions import ACTION_NAMES, ALLIN, CALL, CHECK, FOLD, RAISE
from .features import (
    ACTION_KINDS,
    FEATURE_INDEX,
    FEATURES,
    FOLD_FOR_FREE,
    FT_BEHIND,
    FT_CALL_BB,
    FT_FACING,
    FT_PLAYERS,
    FT_POSITION,
    FT_POT_BB,
    FT_PRICE,
    FT_SPR,
    FT_STREET,
    FT_STRENGTH,
    MAX_SLOTS,
    N_FEAT,
)

_ANALYSIS = Path(__file__).resolve().parents[1]
ENGINE_DATA = _ANALYSIS / "engine" / "data"
MODEL_DATA = _ANALYSIS / "studies" / "fold_vs_check" / "models" / "data"
"""Where the shipped strategies live (data files, read by path: no import points up)."""
NOT_STRATEGIES = ("policies",)
"""TOML files in those folders that are not strategies (the hero's fixed continuations)."""

STREET_NAMES = ("preflop", "flop", "turn", "river")
MODEL_STREETS = ("flop", "turn", "river")
NEVER = 2.0
"""A threshold no strength reaches (strength is at most 1)."""
_POLICY_KEYS = {"name", "description", "fold_for_free", "fold_for_free_below", "size"}
_RULE_KEYS = set(FEATURES) | {"do", "size", "comment"}


class StrategyError(LabError):
    """A strategy, opponent model or policy table that cannot be used; one line naming the file
    (and the line and field where there is one)."""


# ------------------------------------------------------------------ the kind


@dataclass(frozen=True)
class Rule:
    """When all ``conditions`` hold (``lo <= feature < hi``), play ``actions``."""

    conditions: tuple[tuple[int, float, float], ...]
    actions: tuple[tuple[int, float, float], ...]
    """(kind, size as a fraction of the pot or NaN, probability), probabilities summing to 1."""
    text: str = ""


@dataclass(frozen=True)
class ThresholdModel:
    """An opponent model's exact form: per street (index 0 preflop, unused) a bet threshold, a
    bet size (fraction of the pot) and a call threshold on the strength, and the dealing range.

    Strength is the share of two-card holdings the player's cards beat on the board (ties
    half). With ``relative`` the thresholds are shares of the player's own range after its
    actions so far (which narrows when it checks or calls), not of every holding."""

    name: str
    description: str
    range: str
    params: tuple[tuple[float, float, float], ...]  # (bet, bet_size, call) for streets 0..3
    source: str = ""
    relative: bool = False

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
               for i, s in enumerate(MODEL_STREETS)},
        }


@dataclass(frozen=True)
class Strategy:
    """A named strategy: ordered rules plus the fold-for-free knob; an opponent model also
    keeps its exact thresholds in ``model`` (its rules are :func:`rules_of_model`)."""

    name: str
    rules: tuple[Rule, ...]
    fold_for_free: str = "rules"
    fold_for_free_below: float = 0.0
    description: str = ""
    source: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    model: ThresholdModel | None = None
    """The exact threshold form when the strategy was written as an opponent model."""

    @property
    def uses_strength(self) -> bool:
        """Whether any rule (or the knob) looks at the hand strength."""
        if self.fold_for_free in ("multiway", "always"):
            return True
        return any(f == FT_STRENGTH for r in self.rules for f, _, _ in r.conditions)

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


# ------------------------------------------------------------------ the one loader


def builtin_strategies(kind: str = "all") -> list[str]:
    """Names of the shipped strategies: ``all``, ``engine`` (rule files) or ``model`` (threshold
    files)."""
    folders = {"all": (ENGINE_DATA, MODEL_DATA), "engine": (ENGINE_DATA,), "model": (MODEL_DATA,)}[kind]
    return sorted(p.stem for d in folders for p in d.glob("*.toml") if p.stem not in NOT_STRATEGIES)


def find_strategy(name_or_path: str | Path, what: str = "strategy") -> Path:
    """The file of a shipped strategy's name, or the given path; ``what`` names the kind in the
    error (``opponent model``, ``strategy``)."""
    text = str(name_or_path).strip()
    path = Path(text).expanduser()
    if path.is_file():
        return path
    for folder in (ENGINE_DATA, MODEL_DATA):
        if text not in NOT_STRATEGIES and (folder / f"{text}.toml").is_file():
            return folder / f"{text}.toml"
    if path.suffix or "/" in text:
        raise StrategyError(f"{what} file {text!r} not found")
    raise StrategyError(f"unknown {what} {text!r}: use one of {', '.join(builtin_strategies())} "
                        "or the path of a TOML strategy or model (or of a policy table)")


def load_strategy(name_or_path: str | Path | Strategy, what: str = "strategy") -> Strategy:
    """Any strategy by shipped name (``abc``, ``maniac``, ``threshold``, ``passive`` ...) or path:
    an engine strategy (``[policy]``) or an opponent model (``[model]``) in TOML, or a policy
    table (``.parquet``/``.csv`` with its manifest beside it). Refuses a bad file with one line
    (:class:`StrategyError`)."""
    if isinstance(name_or_path, Strategy):
        return name_or_path
    path = find_strategy(name_or_path, what)
    if path.suffix in (".parquet", ".csv"):
        frame = pd.read_parquet(path) if path.suffix == ".parquet" else pd.read_csv(path)
        manifest_path = path.with_name(path.stem + ".manifest.json")
        manifest = json.loads(manifest_path.read_text()) if manifest_path.is_file() else {}
        return policy_from_table(frame, manifest, source=path.name)
    if path.suffix != ".toml":
        raise StrategyError(f"{path}: a strategy is a .toml file or a policy table (.parquet, .csv)")
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise StrategyError(f"{path}: cannot read ({exc})") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise StrategyError(f"{path.name}: not valid TOML: {exc}") from None
    if "model" in data and "policy" not in data:
        return strategy_of_model(parse_model(data, path))
    return parse_policy_toml(text, path.name)


# ------------------------------------------------------------------ opponent models (thresholds)


def read_threshold(value: Any, where: str) -> float:
    """A threshold from TOML: a number from 0 to 1, or ``never`` (:data:`NEVER`)."""
    if isinstance(value, str) and value.strip().lower() == "never":
        return NEVER
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0.0 <= value <= 1.0:
        raise StrategyError(f"{where}: a threshold is a number from 0 to 1 or \"never\"; got {value!r}")
    return float(value)


def parse_model(data: dict[str, Any], path: Path) -> ThresholdModel:
    """An opponent model from its parsed TOML (``[model]`` and ``[streets.flop|turn|river]``)."""
    head = data.get("model")
    if not isinstance(head, dict):
        raise StrategyError(f"{path}: missing [model] table")
    extra = set(head) - {"name", "description", "range", "relative"}
    if extra:
        raise StrategyError(f"{path} [model]: unknown field {sorted(extra)[0]!r}")
    relative = head.get("relative", False)
    if not isinstance(relative, bool):
        raise StrategyError(f"{path} [model] relative: true or false; got {relative!r}")
    unknown = set(data) - {"model", "streets"}
    if unknown:
        raise StrategyError(f"{path}: unknown table [{sorted(unknown)[0]}]")
    streets = data.get("streets", {})
    params = [(NEVER, 0.0, 0.0)]
    for s in MODEL_STREETS:
        entry = streets.get(s, {})
        where = f"{path} [streets.{s}]"
        extra = set(entry) - {"bet", "bet_size", "call"}
        if extra:
            raise StrategyError(f"{where}: unknown field {sorted(extra)[0]!r}")
        bet = read_threshold(entry.get("bet", "never"), f"{where} bet")
        size = entry.get("bet_size", 0.5)
        if isinstance(size, bool) or not isinstance(size, int | float) or not 0 < size <= 10:
            raise StrategyError(f"{where} bet_size: a fraction of the pot in (0, 10]; got {size!r}")
        params.append((bet, float(size), read_threshold(entry.get("call", 0.0), f"{where} call")))
    return ThresholdModel(
        name=str(head.get("name", path.stem)),
        description=str(head.get("description", "")),
        range=str(head.get("range", "random")),
        params=tuple(params),
        source=str(path),
        relative=relative,
    )


def rules_of_model(model: ThresholdModel) -> tuple[Rule, ...]:
    """An opponent model as rules, so it plays whole games. The model says nothing before the
    flop: there it checks when it can and calls any bet (it sees every flop; its ``range`` is
    not enforced: the engine deals it any two cards). After the flop, per street: nobody has
    bet, it bets ``bet_size`` of the pot at or above the bet threshold, else checks (never a
    free fold); facing a bet it calls at or above the call threshold, else folds (never raises).
    A ``relative`` model's thresholds are read on the plain strength (the engine does not
    narrow a player's range by its actions)."""
    rules = [
        Rule(((FT_STREET, 0, 1), (FT_FACING, 1, 2)), ((CALL, math.nan, 1.0),), "preflop: call"),
        Rule(((FT_STREET, 0, 1),), ((CHECK, math.nan, 1.0),), "preflop: check"),
    ]
    for s in (1, 2, 3):
        bet, size, call = model.params[s]
        street = (FT_STREET, s, s + 1)
        rules.append(Rule((street, (FT_FACING, 1, 2), (FT_STRENGTH, call, math.inf)),
                          ((CALL, math.nan, 1.0),), f"{STREET_NAMES[s]}: call at {call:g}+"))
        rules.append(Rule((street, (FT_FACING, 1, 2)), ((FOLD, math.nan, 1.0),),
                          f"{STREET_NAMES[s]}: fold below {call:g}"))
        rules.append(Rule((street, (FT_STRENGTH, bet, math.inf)), ((RAISE, size, 1.0),),
                          f"{STREET_NAMES[s]}: bet {size:g} pot at {bet:g}+"))
        rules.append(Rule((street,), ((CHECK, math.nan, 1.0),), f"{STREET_NAMES[s]}: check"))
    return tuple(rules)


def strategy_of_model(model: ThresholdModel) -> Strategy:
    """The strategy of an opponent model: its rules (:func:`rules_of_model`), no free folds, and
    the exact model kept for the threshold readers."""
    return Strategy(name=model.name, rules=rules_of_model(model), fold_for_free="never",
                    description=model.description, source=model.source, model=model)


@dataclass(frozen=True)
class Decision:
    """The table a threshold reading of a rule strategy assumes (:func:`threshold_model`):
    the players in the hand (the reader included), its place in the acting order, the pot
    and the chips behind, in units of the big blind's chips ``big_blind``."""

    players: int = 2
    position: int = 1
    pot: float = 40.0
    stack: float = 980.0
    big_blind: float = 20.0


GRID_TOP = 1.0


def _action_shares(strategy: Strategy, feat: np.ndarray, facing: bool, spr: float) -> tuple[float, float, float]:
    """(P(bet or raise), mean size of those bets, P(call or raise)) of the first matching rule
    at ``feat``, with the engine's legality: facing nothing a fold is a check and a call is a
    check; facing a bet a check is dropped (the rest renormalised; nothing left: fold)."""
    for rule in strategy.rules:
        if not all(lo <= feat[f] < hi for f, lo, hi in rule.conditions):
            continue
        put_in = sizes = keep = total = 0.0
        for kind, size, p in rule.actions:
            if facing and kind == CHECK:
                continue
            total += p
            if kind in (RAISE, ALLIN):  # a fold facing nothing counts as a check
                bet = min(spr, 10.0) if kind == ALLIN else size
                put_in += p
                sizes += p * bet
                keep += p
            elif kind == CALL:
                keep += p
        if total <= 0:
            return 0.0, 0.0, 0.0
        return put_in / total, (sizes / put_in if put_in else 0.0), keep / total
    return 0.0, 0.0, 0.0


def threshold_model(strategy: Strategy | str | Path, decision: Decision | None = None) -> ThresholdModel:
    """The thresholds the fold-vs-check kernels and the card solver's locks read.

    An opponent model gives its own, exactly. A rule strategy is read at ``decision`` (default
    heads-up, second to act, pot $40, $980 behind, big blind $20) on every street: the adapter
    keeps its **frequencies** and gives them to the strongest holdings. With strength spread
    evenly on [0, 1] (the share of holdings beaten), ``bet = 1 - P(bet)`` when nobody has bet
    and ``call = 1 - P(call or raise)`` facing a bet of the strategy's own size (its price,
    ``size / (1 + 2 size)``; half the pot when it never bets), the probabilities integrated
    exactly over the rules' strength intervals; a frequency of 0 is ``never``. The bet size is
    the probability-weighted mean of its bet sizes (an all-in counts as ``stack / pot``, at
    most 10). What it cannot say: mixed play at one strength becomes a pure threshold, a raise
    becomes a call, a free fold (the knob) a check, and the range is any two cards."""
    strategy = load_strategy(strategy)
    if strategy.model is not None:
        return strategy.model
    d = decision or Decision()
    spr = d.stack / d.pot if d.pot > 0 else 1e9
    params = [(NEVER, 0.0, 0.0)]
    for s in (1, 2, 3):
        bet_share, size = _integrate(strategy, d, s, facing=False, price_size=0.0, spr=spr)[:2]
        own = size if bet_share > 0 else 0.5
        call_share = _integrate(strategy, d, s, facing=True, price_size=own, spr=spr)[2]
        params.append((1.0 - bet_share if bet_share > 1e-12 else NEVER, own,
                       1.0 - call_share if call_share > 1e-12 else NEVER))
    return ThresholdModel(name=strategy.name, description=strategy.description, range="random",
                          params=tuple((float(a), float(b), float(c)) for a, b, c in params),
                          source=strategy.source)


def _integrate(strategy: Strategy, d: Decision, street: int, *, facing: bool, price_size: float,
               spr: float) -> tuple[float, float, float]:
    """The rule strategy's (P(bet), mean bet size, P(call or raise)) over strength uniform on
    [0, 1], piecewise exact between the rules' strength bounds."""
    cuts = {0.0, GRID_TOP}
    for rule in strategy.rules:
        for f, lo, hi in rule.conditions:
            if f == FT_STRENGTH:
                cuts.update(x for x in (lo, hi) if 0.0 < x < GRID_TOP)
    points = sorted(cuts)
    feat = np.zeros(N_FEAT)
    feat[FT_STREET] = street
    feat[FT_FACING] = float(facing)
    feat[FT_PLAYERS] = d.players
    feat[FT_POSITION] = d.position
    feat[FT_BEHIND] = d.players - 1 - d.position
    owe = price_size * d.pot if facing else 0.0
    pot = d.pot + owe  # the bet faced is in the pot
    feat[FT_PRICE] = owe / (pot + owe) if pot + owe > 0 else 0.0
    feat[FT_SPR] = spr
    feat[FT_POT_BB] = pot / d.big_blind
    feat[FT_CALL_BB] = owe / d.big_blind
    bet = size = keep = 0.0
    for lo, hi in zip(points[:-1], points[1:], strict=True):
        feat[FT_STRENGTH] = 0.5 * (lo + hi)
        b, z, k = _action_shares(strategy, feat, facing, spr)
        bet += (hi - lo) * b
        size += (hi - lo) * b * z
        keep += (hi - lo) * k
    return bet, (size / bet if bet > 0 else 0.0), keep


# ------------------------------------------------------------------ rule strategies in TOML


def parse_policy_toml(text: str, source: str = "<strategy>") -> Strategy:
    """A rule strategy from TOML text; errors name the file, the line and the field."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise StrategyError(f"{source}: not valid TOML: {exc}") from None
    lines = text.splitlines()

    def fail(field_name: str, problem: str, rule: int | None = None) -> StrategyError:
        line = _line_of(lines, field_name.split(".")[-1], rule)
        where = f"{source}, line {line}" if line else source
        return StrategyError(f"{where}, field {field_name!r}: {problem}")

    head = data.get("policy")
    if not isinstance(head, dict):
        raise StrategyError(f"{source}: needs a [policy] table with a name (a strategy) or a "
                            "[model] table (an opponent model)")
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
        raise StrategyError(f"{source}: needs at least one [[rule]]")
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
    return Strategy(name=name.strip(), rules=tuple(rules), fold_for_free=ff,
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
        return (FT_POSITION, 0, 1) if value == "first" else (FT_BEHIND, 0, 1)
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
                      source: str = "<table>") -> Strategy:
    """A strategy from the shared policy-table format (one row per information state and action)."""
    manifest = manifest or {}
    missing = [c for c in TABLE_COLUMNS if c not in frame.columns]
    if missing:
        raise StrategyError(f"{source}: policy table is missing column(s) {', '.join(missing)}")
    n_buckets = int(manifest.get("n_buckets", int(frame["bucket"].max()) + 1))
    if n_buckets < 1:
        raise StrategyError(f"{source}: n_buckets must be >= 1")
    keys = ["street", "facing", "players", "position", "bucket"]
    rules = []
    for row_no, (key, group) in enumerate(frame.groupby(keys, sort=False)):
        street, facing, players, position, bucket = key
        where = f"{source}, rows of {dict(zip(keys, key, strict=True))}"
        if street not in STREET_NAMES:
            raise StrategyError(f"{where}: street {street!r} is not preflop, flop, turn or river")
        if facing not in ("none", "bet"):
            raise StrategyError(f"{where}: facing {facing!r} is not none or bet")
        if not 0 <= int(bucket) < n_buckets:
            raise StrategyError(f"{where}: bucket {bucket} is outside 0..{n_buckets - 1}")
        total = float(group["probability"].sum())
        if not math.isclose(total, 1.0, abs_tol=1e-6) or (group["probability"] < 0).any():
            raise StrategyError(f"{where}: probabilities sum to {total:g}, not 1")
        s = STREET_NAMES.index(street)
        b = int(bucket)
        conds = [(FT_STREET, s, s + 1), (FT_FACING, float(facing == "bet"), float(facing == "bet") + 1),
                 (FT_STRENGTH, b / n_buckets if b else -math.inf,
                  (b + 1) / n_buckets if b < n_buckets - 1 else math.inf)]
        if int(players) != 0:
            conds.append((FT_PLAYERS, int(players), int(players) + 1))
        if int(position) != -1:
            conds.append((FT_POSITION, int(position), int(position) + 1))
        actions = []
        for r in group.itertuples():
            if r.action not in ACTION_KINDS:
                raise StrategyError(f"{where}: action {r.action!r}; use {', '.join(ACTION_KINDS)}")
            size = float(r.size) if r.action in ("bet", "raise") else math.nan
            actions.append((ACTION_KINDS[r.action], size, float(r.probability)))
        if len(actions) > MAX_SLOTS:
            raise StrategyError(f"{where}: at most {MAX_SLOTS} actions per information state")
        specificity = (int(players) != 0) + (int(position) != -1)
        rules.append((-specificity, row_no, Rule(tuple(conds), tuple(actions))))
    rules.sort(key=lambda t: (t[0], t[1]))
    name = str(manifest.get("policy", Path(source).stem))
    return Strategy(name=name, rules=tuple(r for _, _, r in rules), fold_for_free="rules",
                    description=str(manifest.get("source", "")), source=source,
                    extra={"n_buckets": n_buckets})


__all__ = ["Decision", "Rule", "Strategy", "StrategyError", "ThresholdModel", "builtin_strategies",
           "load_strategy", "parse_policy_toml", "policy_from_table", "rules_of_model",
           "strategy_of_model", "threshold_model"]
