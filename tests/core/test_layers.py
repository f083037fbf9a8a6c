"""Layers only point down (docs/architecture.md): commands -> guide, charts -> studies, solvers,
engine -> runners -> dilemma -> core and evaluator. Read from the source with ``ast``, so an
import that points up fails here, wherever it hides (inside a function included)."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import ROOT

LAYERS = {
    "analysis.cli": 6, "analysis.commands": 6,
    "analysis.guide": 5, "analysis.charts": 5,
    "analysis.studies": 4, "analysis.solvers": 4, "analysis.engine": 4,
    "analysis.runners": 3,
    "analysis.dilemma": 2,
    "analysis.core": 1, "evaluator": 1,
}
"""Higher may import lower or equal, never higher. ``analysis/__init__`` (the lazy public
facade over every layer) is outside the order."""


def layer(module: str) -> int | None:
    """The layer of a dotted module name (``None``: outside the order)."""
    return next((level for prefix, level in LAYERS.items()
                 if module == prefix or module.startswith(prefix + ".")), None)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> list[tuple[str, int]]:
    """Every project module ``path`` imports (relative imports resolved), with its line."""
    me = module_name(path)
    package = me if path.name == "__init__.py" else me.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found.append((target, node.lineno))
        elif isinstance(node, ast.Import):
            found.extend((alias.name, node.lineno) for alias in node.names)
    return [(t, line) for t, line in found if t.split(".")[0] in ("analysis", "evaluator")]


def test_no_import_points_up_a_layer():
    wrong = []
    for path in sorted([*ROOT.joinpath("analysis").rglob("*.py"),
                        *ROOT.joinpath("evaluator").rglob("*.py")]):
        mine = layer(module_name(path))
        for target, line in imports(path):
            theirs = layer(target)
            if mine is not None and theirs is not None and theirs > mine:
                wrong.append(f"{path.relative_to(ROOT)}:{line} imports {target}")
    assert not wrong, "imports that point up a layer:\n" + "\n".join(wrong)


def test_the_evaluator_never_imports_the_analysis_package():
    wrong = [f"{p.relative_to(ROOT)}:{line} imports {t}"
             for p in ROOT.joinpath("evaluator").rglob("*.py")
             for t, line in imports(p) if t.startswith("analysis")]
    assert not wrong, wrong

