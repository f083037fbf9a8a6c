"""Docs and docstrings name files that exist: every ``tests/…``, ``scripts/…``, ``docs/…`` or
``examples/…`` path written in the README, docs/ or the source is a file of the checkout."""

from __future__ import annotations

import re

from tests.conftest import ROOT

PATH = re.compile(r"\b((?:tests|scripts|docs|examples)/[A-Za-z0-9_./-]+\.(?:py|md|jsonl|json|toml))\b")


def test_every_path_the_docs_name_exists():
    sources = [ROOT / "README.md", *ROOT.joinpath("docs").rglob("*.md"),
               *ROOT.joinpath("analysis").rglob("*.py"), *ROOT.joinpath("evaluator").rglob("*.py"),
               *ROOT.joinpath("scripts").rglob("*.py")]
    missing = [f"{src.relative_to(ROOT)}: {m}" for src in sources
               for m in PATH.findall(src.read_text(encoding="utf-8"))
               if not (ROOT / m).exists()]
    assert not missing, "named but missing:\n" + "\n".join(sorted(set(missing)))
