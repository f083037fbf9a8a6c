"""Preflop strength for policies: each starting class's percentile by exact equity heads-up.

The percentile is the share of all starting combos in classes whose equity against one
random hand is at most this class's (AA = 1). Computing the equities takes about ten
seconds, so the shipped ``data/preflop_<game>.csv`` holds them
(:func:`compute_preflop_classes` rebuilds it; a slow test checks it is current); a game
without a shipped file (a variant defined as data) has them computed on first use.
Postflop strength is exact at each decision (:func:`evaluator.strength.board_strengths`).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np
import pandas as pd

from analysis.studies.ranges import starting_classes
from evaluator import get_game

DATA = Path(__file__).parent / "data"


def compute_preflop_classes(game: str) -> pd.DataFrame:
    """Starting classes with exact heads-up equity and percentile (slow: the source of the CSV)."""
    from analysis.studies.starting_hands import headsup_exact

    df = headsup_exact(game)[["hand", "combos", "equity"]].copy()
    order = df.sort_values("equity", kind="stable")
    cum = order["combos"].cumsum() / order["combos"].sum()
    df["percentile"] = cum.reindex(df.index).round(6)
    df["equity"] = df["equity"].round(6)
    return df


@cache
def preflop_strength(game: str) -> np.ndarray:
    """float64[n_cards, n_cards]: the preflop strength of every two-card holding (symmetric)."""
    spec = get_game(game)
    shipped = DATA / f"preflop_{spec.name}.csv"
    frame = pd.read_csv(shipped) if shipped.exists() else compute_preflop_classes(spec.name)
    pct = dict(zip(frame["hand"], frame["percentile"], strict=True))
    out = np.zeros((spec.n_cards, spec.n_cards))
    for cls in starting_classes(spec):
        for a, b in cls.combos:
            out[a, b] = out[b, a] = pct[cls.name]
    out.setflags(write=False)
    return out
