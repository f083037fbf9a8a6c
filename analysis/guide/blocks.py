"""The pieces a guide page is made of (headings, paragraphs, tables, figures)."""

from __future__ import annotations

from dataclasses import dataclass, field

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
