"""Result files written whole or not at all: tables (CSV + Parquet) with a provenance manifest.

Every writer goes to a temporary file in the target folder and renames it into
place (:mod:`.atomic`), so an interrupted run never leaves a half-written file.
"""

from __future__ import annotations

import json
import platform
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

import pandas as pd

from .atomic import atomic_path, remove_stale_temporaries

__all__ = ["atomic_path", "remove_stale_temporaries"]


def package_version() -> str:
    """The installed version of the lab (``0+unknown`` when run from a bare tree)."""
    try:
        return metadata.version("dilemma-lab")
    except metadata.PackageNotFoundError:  # pragma: no cover
        return "0+unknown"


def write_text(path: str | Path, text: str) -> Path:
    """Write a text file atomically."""
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding="utf-8")
    return Path(path)


def write_json(path: str | Path, data: Any) -> Path:
    """Write JSON atomically (sorted keys, indented, numpy scalars converted)."""
    return write_text(path, json.dumps(data, indent=2, sort_keys=True, default=_jsonable) + "\n")


def _jsonable(value: Any) -> Any:
    if hasattr(value, "item"):
        return value.item()
    if hasattr(value, "tolist"):
        return value.tolist()
    if isinstance(value, Path):
        return str(value)
    raise TypeError(f"not JSON serialisable: {type(value).__name__}")


def provenance(**fields: Any) -> dict[str, Any]:
    """A manifest dict: the given fields (game, deck, rules, trials/exact, seed, stderr...)
    plus the package version, Python version and a UTC timestamp."""
    return {
        **fields,
        "version": package_version(),
        "python": platform.python_version(),
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
    }


def write_table(
    df: pd.DataFrame, out_dir: str | Path, name: str, manifest: dict[str, Any]
) -> dict[str, Path]:
    """Write ``name.csv``, ``name.parquet`` and ``name.manifest.json`` into ``out_dir``.

    The manifest gets the file names, the row count and the columns added; each
    file is written atomically.
    """
    out = Path(out_dir)
    paths = {
        "csv": out / f"{name}.csv",
        "parquet": out / f"{name}.parquet",
        "manifest": out / f"{name}.manifest.json",
    }
    with atomic_path(paths["csv"]) as tmp:
        df.to_csv(tmp, index=False)
    with atomic_path(paths["parquet"]) as tmp:
        df.to_parquet(tmp, index=False)
    full = {
        **manifest,
        "table": name,
        "rows": len(df),
        "columns": list(map(str, df.columns)),
        "files": {k: v.name for k, v in paths.items() if k != "manifest"},
    }
    write_json(paths["manifest"], full)
    return paths


def read_manifest(path: str | Path) -> dict[str, Any]:
    """Load a manifest written by :func:`write_table` or :func:`write_json`."""
    return json.loads(Path(path).read_text(encoding="utf-8"))
