"""The fold-vs-check grid: every starting class x street x opponents x position x pot x opponent model.

One runner plan with a cell per spot; the break-even lines (strength and equity
at which checking stops paying) and the penalty-vs-pot view come from the
statistics' bins.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from analysis.core.io import provenance, write_table
from analysis.dilemma.decks import Deck
from analysis.dilemma.settlement import Rules
from analysis.runners import Backend, Progress, run

from ..ranges import starting_classes
from .answer import abstraction_text
from .cells import (
    BEST_RESPONSE,
    DEFAULT_BANK,
    Cells,
    Context,
    Question,
    compile_spots,
    hero_spot,
    make_context,
    parse_position,
)
from .layout import (
    BOARD_CLASS_TEXT,
    CE_PLAN,
    M_BET,
    N_PENALTY_BINS,
    N_STRENGTH_BINS,
    PENALTY_BASE,
    STRENGTH_BASE,
)
from .plan import TABLE_CELLS, TRAIN_DEALS, FoldCheckPlan, TrainPlan, gap_schedule
from .results import (
    BREAK_EVEN_COLUMNS,
    MIN_CLASS_TRIALS,
    SPOT_KEYS,
    bins_frame,
    board_class_curve,
    break_even_by_board,
    break_even_table,
    comparisons,
    plan_table,
    summaries,
    weighted_bins,
)


@dataclass(frozen=True)
class GridSpec:
    """What the grid covers and how precisely."""

    deck: str = "reference"
    models: tuple[str, ...] = ("passive", "threshold")
    policy: str = BEST_RESPONSE
    """The continuation after checking: ``best_response`` or a fixed policy."""
    streets: tuple[str, ...] = ("flop", "turn", "river")
    opponents: tuple[int, ...] = (1, 2, 3, 4, 5)
    pots: tuple[int, ...] = (40, 120, 300)
    positions: tuple[str, ...] = ("first",)
    """The hero's places after the flop: ``first``, ``last`` or ``k`` opponents before it (a
    ``k`` beyond a cell's opponents is left out). Against a model that never bets the players
    before the hero tell nothing and the deals and money are those of ``first``: only
    ``first`` is played for it."""
    position_pots: tuple[int, ...] = ()
    """The pots at which positions after the first are played (empty: every pot)."""
    more_opponents: tuple[int, ...] = ()
    """Further opponent counts, played at ``more_pots`` only (large tables cost the most)."""
    more_pots: tuple[int, ...] = ()
    hands: tuple[str, ...] = ()
    """Starting classes to cover (empty: all of the deck)."""
    stderr: float = 1.0
    max_trials: int = 400_000
    seed: int = 0
    rules: tuple[tuple[str, str], ...] = ()
    bank: tuple[int, int, int] = DEFAULT_BANK
    """The bank's three stacks at every cell (RULES §1.5)."""
    level: int = 0
    """The blind level at every cell (0, 1, 2)."""
    buckets: int = 20
    """Strength buckets of the best response's information sets."""
    train_deals: int = TRAIN_DEALS
    """Training deals per cell of the best response."""
    compare: bool = False
    """Also play the fixed policies (and the best response without free folds) on every deal
    of every cell: the table ``fold_vs_check_continuations``."""


@dataclass
class GridResult:
    """The grid's cells and the views derived from them."""

    cells: pd.DataFrame
    strength_curve: pd.DataFrame
    penalty_view: pd.DataFrame
    manifest: dict[str, Any]
    plans: pd.DataFrame = field(default_factory=pd.DataFrame)
    """The best responses' plans (see :func:`plans_frame`); empty for a fixed policy."""
    continuations: pd.DataFrame = field(default_factory=pd.DataFrame)
    """With ``GridSpec.compare``: each cell's value of checking under every other
    continuation, on the same deals (see :func:`continuations_frame`)."""
    board_curve: pd.DataFrame = field(default_factory=pd.DataFrame)
    """The strength curve by board class (see :func:`.results.board_class_curve`)."""

    def to_frame(self) -> pd.DataFrame:
        return self.cells

    @classmethod
    def load(cls, folder: str | Path) -> GridResult:
        """A grid written by :meth:`write`, read back (e.g. to redraw its charts)."""
        folder = Path(folder)
        manifest = json.loads((folder / "fold_vs_check.manifest.json").read_text())

        def optional(name: str) -> pd.DataFrame:
            path = folder / f"{name}.parquet"
            return pd.read_parquet(path) if path.exists() else pd.DataFrame()

        return cls(pd.read_parquet(folder / "fold_vs_check.parquet"),
                   pd.read_parquet(folder / "fold_vs_check_strength.parquet"),
                   pd.read_parquet(folder / "fold_vs_check_penalty.parquet"), manifest,
                   optional("fold_vs_check_plans"), optional("fold_vs_check_continuations"),
                   optional("fold_vs_check_board"))

    @property
    def break_even(self) -> pd.DataFrame:
        """Break-even per spot, over every board of the street (see ``BREAK_EVEN_COLUMNS``)."""
        return break_even_table(self.cells, self.strength_curve)

    @property
    def break_even_by_board(self) -> pd.DataFrame:
        """Break-even per spot and board class: what a player sees at the decision."""
        return break_even_by_board(self.board_curve)

    def write(self, out_dir: str | Path) -> list[Path]:
        """Write every table (CSV + Parquet + manifest)."""
        out = Path(out_dir)
        paths = []
        for name, df in (("fold_vs_check", self.cells), ("fold_vs_check_break_even", self.break_even),
                         ("fold_vs_check_board", self.board_curve),
                         ("fold_vs_check_break_even_by_board", self.break_even_by_board),
                         ("fold_vs_check_strength", self.strength_curve),
                         ("fold_vs_check_penalty", self.penalty_view),
                         ("fold_vs_check_plans", self.plans),
                         ("fold_vs_check_continuations", self.continuations)):
            if df.empty:
                continue
            manifest = self.manifest
            if name == "fold_vs_check_break_even":
                manifest = {**manifest, "columns": BREAK_EVEN_COLUMNS}
            elif name == "fold_vs_check_break_even_by_board":
                manifest = {**manifest, "columns": {
                    "board_class": "what the player sees at the decision: " + BOARD_CLASS_TEXT,
                    "break_even_strength": "per spot and board class: the hero's strength on "
                    "the board at which the mean gap on such boards crosses zero; check at or "
                    f"above it (empty: fewer than {MIN_CLASS_TRIALS:,} deals)"}}
            paths.extend(write_table(df, out, name, manifest).values())
        return paths


def grid_spots(spec: GridSpec, deck: Deck, ctx: Context | None = None) -> list[Question]:
    """The grid's questions in table order: model, street, opponents, position, then class and
    pot (with ``ctx``, positions after the first are left out for models that never bet)."""
    hands = spec.hands or tuple(c.name for c in starting_classes(deck.spec))
    tables = [(opp, spec.pots) for opp in spec.opponents]
    tables += [(opp, spec.more_pots) for opp in spec.more_opponents if opp not in spec.opponents]
    out = []
    for model in spec.models:
        bets = ctx is None or not never_bets(ctx, model)
        for street in spec.streets:
            for opp, pots in tables:
                places: list[int] = []
                for name in spec.positions:
                    p = _place(name, opp)
                    if p is not None and p not in places and (p == 0 or bets):
                        places.append(p)
                for p in places:
                    at = [x for x in pots if p == 0 or not spec.position_pots
                          or x in spec.position_pots]
                    out.extend(Question(hero_spot(h, street, "", opp, pot), model, spec.policy, p)
                               for h in hands for pot in at)
    return out


def _place(name: str, opponents: int) -> int | None:
    """A grid position at a table of ``opponents`` (None: ``k`` beyond them, left out)."""
    word = str(name).strip().lower()
    if word.isdigit() and int(word) > opponents:
        return None
    return parse_position(word, opponents)


def never_bets(ctx: Context, model: str) -> bool:
    """Whether a model bets on no street (its checks then say nothing about its cards)."""
    params = ctx.models[ctx.model_index(model)].kernel_params()
    return bool((params[1:, M_BET] > 1.0).all())


def run_grid(
    spec: GridSpec = GridSpec(),
    *,
    out_dir: str | Path | None = None,
    backend: Backend | None = None,
    progress: Progress | None = None,
    preview: bool = False,
) -> GridResult:
    """Run the fold-vs-check grid (a cell per spot): train the best responses (when the
    continuation is ``best_response``), then evaluate on independent deals. With ``out_dir``
    both runs are saved in ``out_dir/.partial/`` as they go and a rerun resumes them."""
    ctx = make_context(spec.deck, Rules.parse(dict(spec.rules)), spec.bank, spec.level)
    is_br = spec.policy == BEST_RESPONSE
    compiled = compile_spots(grid_spots(spec, ctx.deck, ctx), ctx, spec.seed, buckets=spec.buckets,
                             no_free=is_br and spec.compare)
    compiled.compare = spec.compare
    tables = len(compiled.cells) >= TABLE_CELLS
    plans = None
    plan_frame = pd.DataFrame()
    resumed = False
    if is_br:
        train = TrainPlan(compiled, spec.train_deals, no_free=spec.compare, use_tables=tables)
        trained = run(train, backend=backend, state_dir=out_dir, progress=progress,
                      label="fold-vs-check: training best responses")
        plans, reach = train.plans(trained.totals, len(compiled.cells))
        plan_frame = plans_frame(compiled, plans, reach / max(spec.train_deals, 1))
        resumed = trained.resumed
    plan = FoldCheckPlan(compiled, gap_schedule(stderr=spec.stderr, trials=None,
                                                max_trials=spec.max_trials), plans, tables)
    result = run(plan, backend=backend, state_dir=out_dir, progress=progress,
                 label="fold-vs-check: evaluating")
    totals = result.totals
    cells = summaries(compiled, totals)
    keys = list(SPOT_KEYS)
    strength = weighted_bins(cells, bins_frame(compiled, totals, STRENGTH_BASE, N_STRENGTH_BINS), keys)
    strength.insert(len(keys), "strength_lo", strength.pop("bin") / N_STRENGTH_BINS)
    strength.insert(len(keys) + 1, "strength_hi", strength["strength_lo"] + 1 / N_STRENGTH_BINS)
    penalty = weighted_bins(cells, bins_frame(compiled, totals, PENALTY_BASE, N_PENALTY_BINS), keys)
    penalty.insert(len(keys), "board_penalty", penalty.pop("bin") * 10)
    penalty.insert(len(keys) + 1, "penalty_over_pot", penalty["board_penalty"] / penalty["pot"])
    continuation = (abstraction_text(spec.buckets, spec.train_deals) if spec.policy == BEST_RESPONSE
                    else f"fixed policy {spec.policy}")
    manifest = provenance(
        study="fold-vs-check", game=ctx.deck.game, deck=ctx.deck.label, rules=ctx.rules.label,
        models=[m.as_dict() for m in ctx.models], policy=spec.policy, continuation=continuation,
        seed=spec.seed, stderr=f"gap SE <= ${spec.stderr:g} per cell (max {spec.max_trials:,} trials)",
        trials=int(cells["trials"].sum()), method="monte carlo", preview=preview,
        max_gap_se=float(cells["gap_se"].max()), bank=list(ctx.bank), level=ctx.level,
        backend=result.backend, resumed=result.resumed and (resumed or plans is None),
    )
    others = continuations_frame(cells, comparisons(compiled, totals)) if spec.compare else None
    board = board_class_curve(compiled, totals, cells, keys)
    return GridResult(cells, strength, penalty, manifest, plan_frame,
                      pd.DataFrame() if others is None else others, board)


def continuations_frame(cells: pd.DataFrame, others: pd.DataFrame) -> pd.DataFrame:
    """The other continuations beside each cell's labels and main value of checking:
    ``minus_main`` is their value of checking minus the main continuation's (same deals)."""
    labels = cells[["hand", "street", "opponents", "position", "pot", "model", "policy", "ev_fold",
                    "ev_check", "strength"]].rename(columns={"policy": "main",
                                                            "ev_check": "ev_check_main"})
    frame = labels.iloc[others["cell"].to_numpy()].reset_index(drop=True)
    return pd.concat([frame, others.drop(columns="cell").reset_index(drop=True)], axis=1)


def plans_frame(compiled: Cells, plans: np.ndarray, reach: np.ndarray) -> pd.DataFrame:
    """Every best response's plan as strength thresholds: per cell, later street, nobody-bet or
    facing a bet, and opponents still in, the strength from which the hero checks or calls
    (below it: folds), and the share of deals reaching that decision."""
    frames = []
    for c, spot in enumerate(compiled.spots):
        if compiled.cells[c, CE_PLAN] < 0:
            continue
        table = plan_table(plans[c], reach[c], compiled.buckets, spot.opponents)
        if table.empty:
            continue
        go = table["action"].isin(["check", "call"])
        groups = table.assign(go=go).groupby(["street", "facing", "opponents_in"], sort=False)
        rows = groups.apply(lambda g: pd.Series({
            "threshold": float(g.loc[g["go"], "strength_from"].min()) if g["go"].any() else 1.0,
            "reach": float(g["reach"].sum())}), include_groups=False).reset_index()
        rows.insert(0, "pot", spot.pot)
        rows.insert(0, "position", spot.position_name)
        rows.insert(0, "opponents", spot.opponents)
        rows.insert(0, "decision_street", spot.street)
        rows.insert(0, "model", spot.model)
        rows.insert(0, "hand", compiled.class_names[c])
        frames.append(rows.rename(columns={"street": "later_street"}))
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
