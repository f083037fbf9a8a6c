"""Constant prefixes mean one thing in the package (issue 18): ``S_`` names a statistics column
(the per-stream sums a runner plan returns), nothing else. Read from the source with ``ast``:
a module-level ``S_`` constant outside the statistics modules fails here, with the prefix it
should take instead (docs/architecture.md, "Kernel inputs are grouped")."""

from __future__ import annotations

import ast

import pytest

from tests.conftest import ROOT

STATISTICS_MODULES = {
    "analysis/engine/_batch.py": "a whole game's statistics",
    "analysis/studies/fold_vs_check/layout.py": "a fold-vs-check cell's statistics",
    "analysis/studies/brag/multiway.py": "a Brag showdown's statistics",
}
"""The modules whose ``S_*`` constants are statistics columns."""


def module_constants(source: str, prefix: str) -> list[str]:
    """Names starting with ``prefix`` bound at the top level of ``source`` (tuple unpacking
    included)."""
    found = []
    for node in ast.parse(source).body:
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, ast.AnnAssign) else []
        for target in targets:
            names = target.elts if isinstance(target, ast.Tuple) else [target]
            found.extend(n.id for n in names if isinstance(n, ast.Name) and n.id.startswith(prefix))
    return found


def test_s_prefix_means_statistics_only() -> None:
    stray = {}
    for package in ("analysis", "evaluator"):
        for path in sorted((ROOT / package).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            names = module_constants(path.read_text(encoding="utf-8"), "S_")
            if names and rel not in STATISTICS_MODULES:
                stray[rel] = names
    assert not stray, (f"S_ means a statistics column; rename these (W_ work arrays, BS_ betting "
                       f"structure, SK_ stakes, ST_ walk state, SD_ showdown outcome, O_ options): {stray}")
    for rel in STATISTICS_MODULES:
        assert module_constants((ROOT / rel).read_text(encoding="utf-8"), "S_"), rel


@pytest.mark.parametrize("source, expected", [
    ("S_A, S_B = range(2)\nX = 1", ["S_A", "S_B"]),
    ("S_N: int = 3\ndef f():\n    S_LOCAL = 1", ["S_N"]),
])
def test_the_scan_sees_tuples_and_annotations(source: str, expected: list[str]) -> None:
    assert module_constants(source, "S_") == expected
