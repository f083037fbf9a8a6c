"""One fold-vs-check spot: EV of folding now and of checking and playing on, with the money broken down."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
import pandas as pd

from analysis.core.io import provenance
from analysis.dilemma.decks import Deck, load_deck
from analysis.dilemma.effects import street_code
from analysis.dilemma.settlement import Rules
from analysis.runners import Backend, Progress, run
from evaluator import parse_cards

from .cells import DEFAULT_BANK, Spot, SpotError, compile_spots, make_context
from .layout import deals_random
from .plan import FoldCheckPlan, gap_schedule, run_exact
from .results import summaries


@dataclass
class SpotResult:
    """EV of folding and of checking at one spot, their gap and its breakdown."""

    spot: Spot
    row: dict[str, Any]
    manifest: dict[str, Any]

    @property
    def gap(self) -> float:
        return float(self.row["gap"])

    def to_frame(self) -> pd.DataFrame:
        """One row per branch: ev, se and the breakdown (pot, bonus, penalty, effects)."""
        r = self.row
        return pd.DataFrame([
            {"action": a, "ev": r[f"ev_{a}"], "se": r[f"ev_{a}_se"], "pot": r[f"{a}_pot"],
             "bonus": r[f"{a}_bonus"], "penalty": -r[f"{a}_penalty"], "effects": r[f"{a}_effects"]}
            for a in ("fold", "check")
        ])

    def to_dict(self) -> dict[str, Any]:
        """Everything as plain data (JSON output)."""
        return {"spot": asdict(self.spot), **{k: _plain(v) for k, v in self.row.items()},
                "manifest": self.manifest}


def _plain(v: Any) -> Any:
    """A JSON-ready scalar (numpy scalars unwrapped, NaN as None)."""
    v = v.item() if hasattr(v, "item") else v
    return None if isinstance(v, float) and math.isnan(v) else v


def evaluate_spot(
    hand: str,
    *,
    board: str = "",
    street: str | None = None,
    opponents: int = 1,
    pot: int = 40,
    stack: int | None = None,
    model: str = "passive",
    policy: str = "check_down",
    deck: str | Deck = "reference",
    rules: Rules | None = None,
    bank: Sequence[int] = DEFAULT_BANK,
    level: int = 0,
    trials: int | None = None,
    stderr: float | None = 1.0,
    max_trials: int = 2_000_000,
    seed: int = 0,
    exact: bool | None = None,
    backend: Backend | None = None,
    progress: Progress | None = None,
) -> SpotResult:
    """EV(fold now) and EV(check and continue) for one spot.

    ``hand`` is two cards (``"As 10h"``) or a starting class (``"A10o"``); ``board``
    the cards so far (3 flop, 4 turn, 5 river) or empty for a random board of
    ``street``. A river spot with known cards against 1 or 2 opponents holding
    random cards is enumerated exactly (every holding; ``exact=False`` to sample);
    otherwise Monte Carlo stops at ``trials`` or when the gap's SE <= ``stderr``.
    """
    if street is None:
        n_board = len(parse_cards(board, load_deck(deck).spec)) if board else 3
        street = {3: "flop", 4: "turn", 5: "river"}.get(n_board)
        if street is None:
            raise SpotError(f"a board has 3, 4 or 5 cards; got {n_board} ({board})")
    ctx = make_context(deck, rules, bank, level)
    spot = Spot(hand, street, board, opponents, pot, stack, model, policy)
    compiled = compile_spots([spot], ctx, seed)
    compiled.strength_bins = False
    can_enumerate = (street_code(street) == 3 and bool(board) and compiled.combos[0] == 1
                     and spot.opponents <= 2 and deals_random(ctx.models[0], ctx.deck))
    if exact and not can_enumerate:
        raise SpotError("exact enumeration needs a river spot with the hero's cards and the board "
                        "given, 1 or 2 opponents, and a model dealing random holdings")
    exact = can_enumerate if exact is None else exact
    if exact:
        totals = run_exact(compiled)
    else:
        schedule = gap_schedule(stderr=stderr, trials=trials, max_trials=max_trials)
        totals = run(FoldCheckPlan(compiled, schedule), backend=backend, progress=progress,
                     label=f"spot {spot.label()}").totals
    frame = summaries(compiled, totals)
    if exact:  # every deal counted once: no sampling error
        for col in ("ev_fold_se", "ev_check_se", "gap_se"):
            frame[col] = 0.0
        gap = frame["gap"].to_numpy()
        frame["z"] = np.sign(gap) * np.inf
        frame["p_check_better"] = np.where(gap > 0, 1.0, np.where(gap < 0, 0.0, 0.5))
        frame["decision"] = np.where(gap > 0, "check", np.where(gap < 0, "fold", "equal"))
    frame["strength"] = np.nan  # not tallied for single spots (see Cells.strength_bins)
    row = frame.iloc[0].to_dict()
    manifest = provenance(
        study="fold-vs-check spot", game=ctx.deck.game, deck=ctx.deck.label, rules=ctx.rules.label,
        model=ctx.models[0].as_dict(), policy=ctx.policies[0].name, bank=list(ctx.bank),
        level=ctx.level, seed=None if exact else seed, trials=int(row["trials"]),
        stderr=float(row["gap_se"]), exact=bool(exact),
        method="exact enumeration of the opponents' holdings" if exact else "monte carlo",
    )
    return SpotResult(spot, row, manifest)
