"""Result files written whole or not at all: tables (CSV + Parquet) with a provenance manifest.

Every writer goes to a temporary file in the target folder and renames it into
place, so an interrupted run never leaves a half-written file.
"""

from __future__ import annotations

import contextlib
import json
import os
import platform
import tempfile
from collections.abc import Iterator
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

import pandas as pd


def _current_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


_UMASK = _current_umask()


def package_version() -> str:
    """The installed version of the lab (``0+unknown`` when run from a bare tree)."""
    try:
        return metadata.version("dilemma-lab")
    except metadata.PackageNotFoundError:  # pragma: no cover
        return "0+unknown"


@contextlib.contextmanager
def atomic_path(path: str | Path) -> Iterator[Path]:
    """Yield a temporary path beside ``path``; rename it onto ``path`` only on success."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    tmp_path = Path(tmp)
    try:
        yield tmp_path
        os.chmod(tmp_path, 0o666 & ~_UMASK)  # mkstemp makes 0600; results are ordinary files
        os.replace(tmp_path, path)
    finally:
        tmp_path.unlink(missing_ok=True)


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
