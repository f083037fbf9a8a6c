"""One fold-vs-check spot: EV of folding now and of checking and playing on well, with the money
broken down, beside the fixed continuations and the best response's plan.

By default the hero checks and then plays a **best response** to the opponent
model. Small spots (river or turn, the hero's cards and the board given, 1 or 2
opponents dealing random holdings) are enumerated exactly, and the best response
is exact (every public history is its own information set). Elsewhere it is the
best response within an abstraction (decision level x opponents still in x the
hero's strength bucket), trained by backward induction on simulated deals and
evaluated on independent deals; the abstraction is stated in the manifest.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import pandas as pd

from analysis.core.io import provenance
from analysis.dilemma.decks import Deck
from analysis.dilemma.effects import street_code
from analysis.dilemma.settlement import Rules
from analysis.dilemma.spot import STREET_OF_BOARD, Spot
from analysis.dilemma.table import Table
from analysis.runners import Backend, Progress, run
from evaluator import parse_cards
from evaluator.strength import strength

from .cells import (
    BEST_RESPONSE,
    DEFAULT_BANK,
    FIXED_POLICIES,
    Cells,
    Question,
    SpotError,
    compile_spots,
    hero_spot,
    load_table,
    make_context,
    parse_position,
)
from .exact import solve_exact
from .layout import CE_POLICY, deals_random
from .plan import TRAIN_DEALS, FoldCheckPlan, TrainPlan, gap_schedule
from .results import comparisons, plan_table, summaries


def abstraction_text(buckets: int, deals: int) -> str:
    """How the Monte Carlo best response sees the game (stated in every output)."""
    return (f"best response within an abstraction: the hero's information at a later decision is "
            f"the street, whether it faces a bet, the opponents still in and its strength in "
            f"{buckets} buckets; trained by backward induction on {deals:,} simulated deals per "
            "spot and evaluated on independent deals")


EXACT_BUDGET_SECONDS = 5.0
"""Exact enumeration is the default only when its estimated time is within this budget."""
EXACT_DEALS_PER_SECOND = 100_000
"""A conservative rate of exact enumeration on the project's 2-core machine (a river spot with
two opponents, 245,520 deals: 3 s plus 1.4 s fixed at load 9; the turn with two opponents,
8,347,680 deals: 56-90 s in issue 23)."""


def exact_deal_count(spot: Spot, n_cards: int) -> int:
    """The deals exact enumeration visits: the opponents' holdings (in seat order) from the
    unseen cards, times the river cards left on the turn."""
    unseen = n_cards - 2 - len(spot.board.split()) if spot.board else n_cards - 2
    deals = 1
    for k in range(spot.players - 1):
        deals *= math.comb(unseen - 2 * k, 2)
    if street_code(spot.street) == 2:
        deals *= unseen - 2 * (spot.players - 1)
    return deals


EXACT_TEXT = ("exact best response: every deal enumerated, each public history an information "
              "set (the hero's cards and the board are known)")


@dataclass
class SpotResult:
    """EV of folding and of checking at one spot, their gap, its breakdown and the plan."""

    question: Question
    """The spot asked, with the opponents' strategy and the hero's continuation."""
    row: dict[str, Any]
    manifest: dict[str, Any]
    plan: pd.DataFrame = field(default_factory=pd.DataFrame)
    """The best response's plan (see :func:`.results.plan_table`); empty for a fixed policy."""
    others: pd.DataFrame = field(default_factory=pd.DataFrame)
    """The value of checking under the other continuations on the same deals."""

    @property
    def gap(self) -> float:
        return float(self.row["gap"])

    def to_frame(self) -> pd.DataFrame:
        """One row per branch: ev, se and the breakdown (pot, bonus, penalty, effects), each the
        signed change of the hero's chips: they add up to ev."""
        r = self.row
        return pd.DataFrame([
            {"action": a, "ev": r[f"ev_{a}"], "se": r[f"ev_{a}_se"], "pot": r[f"{a}_pot"],
             "bonus": r[f"{a}_bonus"], "penalty": r[f"{a}_penalty"], "effects": r[f"{a}_effects"]}
            for a in ("fold", "check")
        ])

    def to_dict(self) -> dict[str, Any]:
        """Everything as plain data (JSON output); ``ev_check`` is the main continuation's."""
        return {"spot": self.question.fields(), **{k: _plain(v) for k, v in self.row.items()},
                "ev_check_by_continuation": {
                    r.continuation: {"ev_check": _plain(r.ev_check), "se": _plain(r.ev_check_se)}
                    for r in self.others.itertuples()},
                "plan": [{k: _plain(v) for k, v in rec.items()}
                         for rec in self.plan.to_dict(orient="records")],
                "manifest": self.manifest}


def _plain(v: Any) -> Any:
    """A JSON-ready scalar (numpy scalars unwrapped, NaN as None)."""
    v = v.item() if hasattr(v, "item") else v
    return None if isinstance(v, float) and math.isnan(v) else v


def _with_others(row: dict[str, Any], others: pd.DataFrame) -> dict[str, Any]:
    """Add the fold-for-free option's value (best response minus the one that never folds
    for free) to a spot's row."""
    no_free = others.loc[others["continuation"] == "best_response_no_free_fold"]
    if len(no_free):
        row["ev_check_no_free_fold"] = float(no_free["ev_check"].iloc[0])
        row["fold_free_option_value"] = float(-no_free["minus_main"].iloc[0])
        row["fold_free_option_value_se"] = float(no_free["minus_main_se"].iloc[0])
    return row


def hero_strength(compiled: Cells) -> dict[str, Any]:
    """The hero's exact strength at the decision (share of the unseen two-card holdings its hand
    beats, ties half) and its bucket, when the board is known; for a class, the mean over its
    combos (``strength_min`` / ``strength_max`` give the spread). Empty for a random board."""
    spot = compiled.spots[0]
    if not spot.board:
        return {}
    spec = compiled.ctx.deck.spec
    board = [int(c) for c in parse_cards(spot.board, spec)]
    values = [strength([int(a), int(b)], board, spec) for a, b in compiled.hero_combos]
    mean = float(np.mean(values))
    return {"strength": mean, "strength_min": float(min(values)),
            "strength_max": float(max(values)),
            "strength_bucket": min(int(mean * compiled.buckets), compiled.buckets - 1),
            "buckets": compiled.buckets}


def _exact_answer(compiled: Cells) -> tuple[np.ndarray, pd.DataFrame, pd.DataFrame]:
    spot = compiled.spots[0]
    exact = solve_exact(compiled)
    if spot.policy == BEST_RESPONSE:
        totals = exact.stats(compare=True)[None, :]
        reach, go = exact.abstract_reach()
        plan = plan_table(np.where(go >= 0, (go > 0.5).astype(float), -1.0), reach,
                          compiled.buckets, spot.opponents)
    else:  # the row's EV(check) is the spot's own fixed continuation
        totals = exact.stats(compare=False, fixed=int(compiled.cells[0, CE_POLICY]))[None, :]
        plan = pd.DataFrame()
    rows = [{"cell": 0, "continuation": name, "ev_check": exact.fixed_value(i), "ev_check_se": 0.0,
             "minus_main": np.nan, "minus_main_se": 0.0} for i, name in enumerate(FIXED_POLICIES)]
    if spot.policy == BEST_RESPONSE:
        rows.append({"cell": 0, "continuation": "best_response_no_free_fold",
                     "ev_check": exact.value(exact.policy(no_free=True), use_keys=True),
                     "ev_check_se": 0.0, "minus_main": np.nan, "minus_main_se": 0.0})
    others = pd.DataFrame(rows)
    main = exact.value(exact.policy(), use_keys=True) if spot.policy == BEST_RESPONSE else None
    if main is not None:
        others["minus_main"] = others["ev_check"] - main
    return totals, plan, others


@dataclass(frozen=True)
class RunSettings:
    """How to answer a spot (apart from the spot): ``trials`` or the gap's ``stderr`` target (up to
    ``max_trials``), the ``seed``, exact enumeration (``exact``: ``None`` when within budget), the
    best response's ``buckets`` and ``train_deals``, ``compare`` (the fixed policies on the same
    deals), the ``backend`` and ``progress``."""

    trials: int | None = None
    stderr: float | None = 1.0
    max_trials: int = 2_000_000
    seed: int = 0
    exact: bool | None = None
    buckets: int = 20
    train_deals: int = TRAIN_DEALS
    compare: bool = True
    backend: Backend | None = field(default=None, compare=False)
    progress: Progress | None = field(default=None, compare=False)


def evaluate_spot(
    hand: str,
    *,
    board: str = "",
    street: str | None = None,
    opponents: int = 1,
    pot: int = 40,
    stack: int | None = None,
    model: str = "passive",
    policy: str = BEST_RESPONSE,
    position: int | str = 0,
    deck: str | Deck = "reference",
    rules: Rules | None = None,
    bank: Sequence[int] = DEFAULT_BANK,
    level: int = 0,
    trials: int | None = None,
    stderr: float | None = 1.0,
    max_trials: int = 2_000_000,
    seed: int = 0,
    exact: bool | None = None,
    buckets: int = 20,
    train_deals: int = TRAIN_DEALS,
    compare: bool = True,
    backend: Backend | None = None,
    progress: Progress | None = None,
) -> SpotResult:
    """:func:`evaluate` from keywords: the spot's (``hand``, ``board`` ... ``stack``; ``deck`` ...
    ``level``, the table loaded once), the question's (``model``, ``policy``) and the run's
    (``trials`` ... ``progress``, see :class:`RunSettings`). ``street`` defaults to the board's
    (3 cards flop, 4 turn, 5 river; a random board: the flop); ``position`` is ``first``,
    ``last`` or the number of opponents who act before the hero (:func:`.cells.parse_position`)."""
    table = load_table(deck, rules, bank, level)
    spot = hero_spot(hand, street or "", board, opponents, pot, stack, table)
    return evaluate(spot, RunSettings(trials, stderr, max_trials, seed, exact, buckets, train_deals,
                                      compare, backend, progress), model=model, policy=policy,
                    position=parse_position(position, opponents))


def evaluate(spot: Spot, settings: RunSettings = RunSettings(), *, model: str = "passive",
             policy: str = BEST_RESPONSE, position: int = 0) -> SpotResult:
    """EV(fold now) and EV(check and continue) for one spot against ``model``.

    The spot's first hand is the hero's: two cards (``"As 10h"``) or a starting class
    (``"A10o"``); the others are ``random`` (:func:`.cells.hero_spot` builds it). ``spot.board``
    is the cards so far (3 flop, 4 turn, 5 river) or empty for a random board of
    ``spot.street`` (``""``: the board's). After checking the hero plays ``policy``:
    ``best_response`` (default) or a fixed policy (``check_down``, ``check_fold``,
    ``call_down``); with ``settings.compare``
    the fixed policies and the best response without free folds are played on the same
    deals. A river or turn spot with known cards against 1 or 2 opponents holding
    random cards is enumerated exactly when that is estimated to take at most
    ``EXACT_BUDGET_SECONDS`` (``settings.exact=True`` insists, ``False`` samples; a sampled
    spot that could have been enumerated says so in ``manifest["note"]``); otherwise
    Monte Carlo stops at ``settings.trials`` or when the gap's SE <= ``settings.stderr``.
    ``position`` opponents act before the hero after the flop and have checked at the
    decision (by their model: the deals are those where they would).
    """
    ctx = make_context(spot.table or Table.load())
    if not spot.street:
        n_board = len(parse_cards(spot.board, ctx.deck.spec)) if spot.board else 3
        if n_board not in STREET_OF_BOARD:
            raise SpotError(f"a board has 3, 4 or 5 cards; got {n_board} ({spot.board})")
        spot = replace(spot, street=STREET_OF_BOARD[n_board])
    question = Question(spot, model, policy, position)
    street, board = spot.street, spot.board
    trials, stderr, max_trials, seed = settings.trials, settings.stderr, settings.max_trials, settings.seed
    exact, buckets, train_deals, compare = settings.exact, settings.buckets, settings.train_deals, settings.compare
    backend, progress = settings.backend, settings.progress
    is_br = policy == BEST_RESPONSE
    compiled = compile_spots([question], ctx, seed, buckets=buckets, no_free=is_br and compare)
    compiled.strength_bins = False
    compiled.compare = compare
    can_enumerate = (street_code(street) in (2, 3) and bool(board) and compiled.combos[0] == 1
                     and question.opponents <= 2 and deals_random(ctx.models[0], ctx.deck))
    if exact and not can_enumerate:
        raise SpotError("exact enumeration needs a river or turn spot with the hero's cards and the "
                        "board given, 1 or 2 opponents, and a model dealing random holdings")
    note = ""
    if exact is None and can_enumerate:
        seconds = exact_deal_count(spot, ctx.deck.n_cards) / EXACT_DEALS_PER_SECOND
        exact = seconds <= EXACT_BUDGET_SECONDS
        if not exact:
            note = (f"sampled: exact enumeration of {exact_deal_count(spot, ctx.deck.n_cards):,} "
                    f"deals would take about {seconds:.0f} s, over the {EXACT_BUDGET_SECONDS:g} s "
                    "budget (--exact to insist)")
    exact = bool(exact and can_enumerate)
    if exact:
        totals, plan, others = _exact_answer(compiled)
        method = "exact enumeration of every deal"
        abstraction = EXACT_TEXT if is_br else None
    else:
        schedule = gap_schedule(stderr=stderr if trials is None else None, trials=trials,
                                max_trials=max_trials)  # before any training: a bad target is one line at once
        plans = None
        plan = pd.DataFrame()
        if is_br:
            train = TrainPlan(compiled, train_deals, no_free=compare)
            trained = run(train, backend=backend, progress=progress, label="training the best response")
            plans, reach = train.plans(trained.totals, 1)
            plan = plan_table(plans[0], reach[0] / max(train_deals, 1), buckets, question.opponents)
        totals = run(FoldCheckPlan(compiled, schedule, plans), backend=backend, progress=progress,
                     label=f"spot {question.label()}").totals
        others = comparisons(compiled, totals)
        method = "monte carlo"
        abstraction = abstraction_text(buckets, train_deals) if is_br else None
    frame = summaries(compiled, totals)
    if exact:  # every deal counted once: no sampling error
        for col in ("ev_fold_se", "ev_check_se", "gap_se"):
            frame[col] = 0.0
        gap = frame["gap"].to_numpy()
        frame["z"] = np.where(gap > 0, np.inf, np.where(gap < 0, -np.inf, 0.0))
        frame["p_check_better"] = np.where(gap > 0, 1.0, np.where(gap < 0, 0.0, 0.5))
        frame["decision"] = np.where(gap > 0, "check", np.where(gap < 0, "fold", "equal"))
    frame["strength"] = np.nan  # not tallied for single spots (see Cells.strength_bins) ...
    row = _with_others(frame.iloc[0].to_dict(), others)
    row.update(hero_strength(compiled))  # ... but exact where the board is known
    manifest = provenance(
        study="fold-vs-check spot", game=ctx.deck.game, deck=ctx.deck.label, rules=ctx.rules.label,
        model=ctx.models[0].as_dict(), policy=policy, position=question.position_name,
        continuation=abstraction or
        f"fixed policy {policy}", bank=list(ctx.bank), level=ctx.level,
        seed=None if exact else seed, trials=int(row["trials"]), stderr=float(row["gap_se"]),
        exact=bool(exact), method=method, **({"note": note} if note else {}),
    )
    return SpotResult(question, row, manifest, plan, others)
