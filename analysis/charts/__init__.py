"""Charts for the guide: matplotlib figures drawn from DataFrames only (plots never simulate).

Every chart has a title, axis labels with units and a provenance caption, and is
saved as PNG and SVG atomically with :func:`save_figure`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
matplotlib.rcParams["text.parse_math"] = False  # "$" means dollars in this lab, never math
import matplotlib.pyplot as plt  # noqa: E402

from analysis.core.io import atomic_path  # noqa: E402


def caption_text(manifest: dict[str, Any]) -> str:
    """One provenance line from a manifest: game, deck, rules, exact or trials, seed, stderr, version."""
    keys = ("game", "deck", "rules", "method", "trials", "seed", "stderr", "version")
    parts = [f"{k}={manifest[k]}" for k in keys if manifest.get(k) not in (None, "", False)]
    if manifest.get("exact") is True:
        parts.insert(0, "exact")
    if manifest.get("preview"):
        parts.insert(0, "PREVIEW (--quick, small trial counts)")
    return " · ".join(parts)


def new_figure(width: float = 8.0, height: float = 5.0) -> tuple[plt.Figure, Any]:
    """A figure with one axes, sized for a guide page."""
    fig, ax = plt.subplots(figsize=(width, height), layout="constrained")
    return fig, ax


def save_figure(fig: plt.Figure, out_dir: str | Path, name: str, manifest: dict[str, Any]) -> dict[str, Path]:
    """Add the provenance caption, write ``name.png`` and ``name.svg``, close the figure."""
    engine = fig.get_layout_engine()
    if engine is not None and hasattr(engine, "set"):  # keep the bottom strip for the caption
        engine.set(rect=(0, 0.035, 1, 0.965))
    fig.text(0.005, 0.002, caption_text(manifest), fontsize=7, color="0.35", ha="left", va="bottom")
    out = Path(out_dir)
    paths = {ext: out / f"{name}.{ext}" for ext in ("png", "svg")}
    for ext, path in paths.items():
        with atomic_path(path) as tmp:
            fig.savefig(tmp, format=ext, dpi=130 if ext == "png" else None)
        if engine is not None:  # laid out once, by the first save: the SVG keeps the PNG's positions
            fig.set_layout_engine("none")
            engine = None
    plt.close(fig)
    return paths
