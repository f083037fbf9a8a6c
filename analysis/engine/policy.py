"""Strategies for the engine: the one strategy language (:mod:`analysis.core.strategy`) and the
arrays the numba kernel reads.

A policy is a :class:`~analysis.core.strategy.Strategy`: an ordered list of **rules**; the first
rule whose conditions all hold decides, by its action probabilities (conditions on the features
of :mod:`analysis.core.features`: street, facing a bet, players, position, strength, price, pot,
penalty so far ...). :func:`load_policy` is :func:`~analysis.core.strategy.load_strategy`: a
shipped name or a path of a hand-written strategy (``analysis/engine/data/*.toml``; format in
``docs/hand_history.md``, section "Strategies"), of an opponent model (its thresholds written as
rules, :func:`~analysis.core.strategy.rules_of_model`) or of a computed policy table.

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

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from analysis.core.features import FF_RULES, FOLD_FOR_FREE, FT_PLAYERS, MAX_SLOTS, N_FEAT
from analysis.core.strategy import ENGINE_DATA as DATA
from analysis.core.strategy import (
    TABLE_COLUMNS,
    Rule,
    builtin_strategies,
    load_strategy,
    parse_policy_toml,
    policy_from_table,
)
from analysis.core.strategy import Strategy as Policy
from analysis.core.strategy import StrategyError as PolicyError

from ._layout import N_PF, N_PI, PF_FF_BELOW, PI_COUNT, PI_FF_MODE, PI_FIRST, PI_USES_STRENGTH


def builtin_policies() -> list[str]:
    """Names of the shipped engine strategies (rule files; every shipped opponent model plays
    too: :func:`analysis.core.strategy.builtin_strategies`)."""
    return builtin_strategies("engine")


def load_policy(name_or_path: str | Path | Policy) -> Policy:
    """Any strategy by shipped name or path (:func:`analysis.core.strategy.load_strategy`)."""
    return load_strategy(name_or_path)


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
        pol_int[k, PI_FIRST], pol_int[k, PI_COUNT] = r, len(p.rules)
        pol_int[k, PI_FF_MODE] = FOLD_FOR_FREE.index(p.fold_for_free)
        pol_int[k, PI_USES_STRENGTH] = p.uses_strength
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


__all__ = ["DATA", "FF_RULES", "FT_PLAYERS", "TABLE_COLUMNS", "Policy", "PolicyError", "Rule",
           "builtin_policies", "compile_policies", "load_policy", "parse_policy_toml",
           "policy_from_table"]
