"""The fold-vs-check grid: every starting class x street x opponents x pot x opponent model.

One runner plan with a cell per spot; the break-even lines (strength and equity
at which checking stops paying) and the penalty-vs-pot view come from the
statistics' bins.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from analysis.core.io import provenance, write_table
from analysis.dilemma.decks import Deck
from analysis.dilemma.settlement import Rules
from analysis.runners import Backend, Progress, run

from ..ranges import starting_classes
from .cells import DEFAULT_BANK, Spot, compile_spots, make_context
from .layout import N_PENALTY_BINS, N_STRENGTH_BINS, PENALTY_BASE, STRENGTH_BASE
from .plan import FoldCheckPlan, gap_schedule
from .results import bins_frame, break_even_table, summaries, weighted_bins


@dataclass(frozen=True)
class GridSpec:
    """What the grid covers and how precisely."""

    deck: str = "reference"
    models: tuple[str, ...] = ("passive", "threshold")
    policy: str = "check_down"
    streets: tuple[str, ...] = ("flop", "turn", "river")
    opponents: tuple[int, ...] = (1, 2, 3, 4, 5)
    pots: tuple[int, ...] = (40, 120, 300)
    hands: tuple[str, ...] = ()
    """Starting classes to cover (empty: all of the deck)."""
    stderr: float = 1.0
    max_trials: int = 400_000
    seed: int = 0
    rules: tuple[tuple[str, str], ...] = ()


@dataclass
class GridResult:
    """The grid's cells and the views derived from them."""

    cells: pd.DataFrame
    strength_curve: pd.DataFrame
    penalty_view: pd.DataFrame
    manifest: dict[str, Any]

    def to_frame(self) -> pd.DataFrame:
        return self.cells

    @classmethod
    def load(cls, folder: str | Path) -> GridResult:
        """A grid written by :meth:`write`, read back (e.g. to redraw its charts)."""
        folder = Path(folder)
        manifest = json.loads((folder / "fold_vs_check.manifest.json").read_text())
        return cls(pd.read_parquet(folder / "fold_vs_check.parquet"),
                   pd.read_parquet(folder / "fold_vs_check_strength.parquet"),
                   pd.read_parquet(folder / "fold_vs_check_penalty.parquet"), manifest)

    @property
    def break_even(self) -> pd.DataFrame:
        return break_even_table(self.cells, self.strength_curve)

    def write(self, out_dir: str | Path) -> list[Path]:
        """Write every table (CSV + Parquet + manifest)."""
        out = Path(out_dir)
        paths = []
        for name, df in (("fold_vs_check", self.cells), ("fold_vs_check_break_even", self.break_even),
                         ("fold_vs_check_strength", self.strength_curve),
                         ("fold_vs_check_penalty", self.penalty_view)):
            paths.extend(write_table(df, out, name, self.manifest).values())
        return paths


def grid_spots(spec: GridSpec, deck: Deck) -> list[Spot]:
    """The grid's spots in table order: model, street, opponents, then class and pot."""
    hands = spec.hands or tuple(c.name for c in starting_classes(deck.spec))
    return [Spot(h, street, "", opp, pot, None, model, spec.policy)
            for model in spec.models for street in spec.streets for opp in spec.opponents
            for h in hands for pot in spec.pots]


def run_grid(
    spec: GridSpec = GridSpec(),
    *,
    out_dir: str | Path | None = None,
    backend: Backend | None = None,
    progress: Progress | None = None,
    preview: bool = False,
) -> GridResult:
    """Run the fold-vs-check grid (one runner plan, one cell per spot); with ``out_dir`` the
    run is saved in ``out_dir/.partial/`` as it goes and a rerun resumes it."""
    ctx = make_context(spec.deck, Rules.parse(dict(spec.rules)), DEFAULT_BANK, 0)
    compiled = compile_spots(grid_spots(spec, ctx.deck), ctx, spec.seed)
    plan = FoldCheckPlan(compiled, gap_schedule(stderr=spec.stderr, trials=None,
                                                max_trials=spec.max_trials))
    result = run(plan, backend=backend, state_dir=out_dir, progress=progress, label="fold-vs-check grid")
    totals = result.totals
    cells = summaries(compiled, totals)
    keys = ["model", "policy", "street", "opponents", "pot"]
    strength = weighted_bins(cells, bins_frame(compiled, totals, STRENGTH_BASE, N_STRENGTH_BINS), keys)
    strength.insert(len(keys), "strength_lo", strength.pop("bin") / N_STRENGTH_BINS)
    strength.insert(len(keys) + 1, "strength_hi", strength["strength_lo"] + 1 / N_STRENGTH_BINS)
    penalty = weighted_bins(cells, bins_frame(compiled, totals, PENALTY_BASE, N_PENALTY_BINS), keys)
    penalty.insert(len(keys), "board_penalty", penalty.pop("bin") * 10)
    penalty.insert(len(keys) + 1, "penalty_over_pot", penalty["board_penalty"] / penalty["pot"])
    manifest = provenance(
        study="fold-vs-check", game=ctx.deck.game, deck=ctx.deck.label, rules=ctx.rules.label,
        models=[m.as_dict() for m in ctx.models], policy=spec.policy, seed=spec.seed,
        stderr=f"gap SE <= ${spec.stderr:g} per cell (max {spec.max_trials:,} trials)",
        trials=int(cells["trials"].sum()), method="monte carlo", preview=preview,
        max_gap_se=float(cells["gap_se"].max()), bank=list(DEFAULT_BANK),
        backend=result.backend, resumed=result.resumed,
    )
    return GridResult(cells, strength, penalty, manifest)
