"""The pieces a guide page is made of (headings, paragraphs, tables, figures)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd


@dataclass
class Block:
    """One piece of the page: ``kind`` is h1, h2, h3, p, note, table, figure or files."""

    kind: str
    text: str = ""
    frame: pd.DataFrame | None = None
    path: str = ""  # figure: PNG path relative to the results folder
    caption: str = ""
    items: list[tuple[str, str]] = field(default_factory=list)


def study_table(folder: Path, name: str) -> pd.DataFrame | None:
    """A study's stored table ``folder/name.csv``, or None when the study did not write it."""
    path = folder / f"{name}.csv"
    return pd.read_csv(path) if path.exists() else None


def ms(v: float, e: float, scale: float = 1.0, digits: int = 1) -> str:
    """A mean with its standard error (the mean alone with one board, blank without)."""
    if not np.isfinite(v):
        return ""
    return f"{scale * v:.{digits}f} ± {scale * e:.{digits}f}" if np.isfinite(e) else f"{scale * v:.{digits}f}"
