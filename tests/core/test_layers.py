"""Guard rails of the architecture (docs/architecture.md), read from the source with ``ast`` so
an import fails here wherever it hides (inside a function included):

* layers only point down: commands -> guide, charts -> studies, solvers, engine -> runners ->
  dilemma -> core and evaluator;
* no module reaches into another package's private parts: a ``_x`` module or a ``_x`` name
  belongs to the package that defines it (and that package's subpackages); every other
  package goes through a public facade (``evaluator.kernels``, ``analysis.dilemma.kernels``,
  ``analysis.dilemma.settlement.kernels``, ``analysis.studies.equity.scoring``). A parent
  package is another package to its subpackages' private parts.

The negative cases at the end prove each rule can fail."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import NamedTuple

import pytest

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
facade over every layer) and ``analysis.compile_notice`` are outside the order."""

PROJECT = ("analysis", "evaluator")
"""Top-level packages whose imports are checked (tests and benchmark scripts may reach
kernels: they measure and check them)."""


class Import(NamedTuple):
    """One imported module or name: ``target`` is the module, ``name`` the name taken from it
    (``None`` for ``import target``), ``line`` where."""

    target: str
    name: str | None
    line: int


def layer(module: str) -> int | None:
    """The layer of a dotted module name (``None``: outside the order)."""
    return next((level for prefix, level in LAYERS.items()
                 if module == prefix or module.startswith(prefix + ".")), None)


def module_name(path: Path, root: Path = ROOT) -> str:
    """The dotted name of the module at ``path`` under ``root``."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def package_of(module: str, is_package: bool) -> str:
    """The package a module lives in (a package's ``__init__`` lives in itself)."""
    return module if is_package else module.rpartition(".")[0]


def imports(source: str, module: str, is_package: bool = False) -> list[Import]:
    """Every project module or name ``source`` (the text of ``module``) imports, relative
    imports resolved."""
    package = package_of(module, is_package)
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found.extend(Import(target, alias.name, node.lineno) for alias in node.names)
        elif isinstance(node, ast.Import):
            found.extend(Import(alias.name, None, node.lineno) for alias in node.names)
    return [i for i in found if i.target.split(".")[0] in PROJECT]


def _private(part: str) -> bool:
    return part.startswith("_") and not part.startswith("__")


def is_package(module: str) -> bool:
    """Whether a dotted project name is a package (a folder with ``__init__.py``)."""
    return ROOT.joinpath(*module.split("."), "__init__.py").exists()


def private_owner(item: Import) -> str | None:
    """The package that owns the first private part of an import (``None``: all public).

    A private module belongs to the package it is in (``from evaluator._kernels import x``,
    ``from evaluator import _kernels``: ``evaluator``); a private name of a module to that
    module's package (``from analysis.solvers.game_tree import _x``: ``analysis.solvers``)."""
    path = item.target.split(".")
    for i, part in enumerate(path):
        if _private(part):
            return ".".join(path[:i])
    if item.name is None or not _private(item.name):
        return None
    return item.target if is_package(item.target) else item.target.rpartition(".")[0]


def upward(source: str, module: str, is_package: bool = False) -> list[str]:
    """The imports of ``module`` that point up a layer."""
    mine = layer(module)
    if mine is None:
        return []
    return [f"{module}:{i.line} imports {i.target}" for i in imports(source, module, is_package)
            if (theirs := layer(i.target)) is not None and theirs > mine]


def reaching(source: str, module: str, is_package: bool = False) -> list[str]:
    """The imports of ``module`` that take another package's private module or name."""
    package = package_of(module, is_package)
    wrong = []
    for i in imports(source, module, is_package):
        owner = private_owner(i)
        if owner is not None and package != owner and not package.startswith(owner + "."):
            what = i.target + (f".{i.name}" if i.name else "")
            wrong.append(f"{module}:{i.line} imports {what} (private to {owner})")
    return wrong


def check_tree(root: Path, rule) -> list[str]:
    """``rule`` applied to every module of the project packages under ``root``."""
    wrong = []
    for top in PROJECT:
        for path in sorted(root.joinpath(top).rglob("*.py")):
            wrong += rule(path.read_text(encoding="utf-8"), module_name(path, root),
                          path.name == "__init__.py")
    return wrong


def test_no_import_points_up_a_layer():
    wrong = check_tree(ROOT, upward)
    assert not wrong, "imports that point up a layer:\n" + "\n".join(wrong)


def test_no_module_reaches_into_another_packages_private_parts():
    wrong = check_tree(ROOT, reaching)
    assert not wrong, "imports of another package's private parts:\n" + "\n".join(wrong)


def test_the_evaluator_never_imports_the_analysis_package():
    wrong = [f"{p.relative_to(ROOT)}:{i.line} imports {i.target}"
             for p in ROOT.joinpath("evaluator").rglob("*.py")
             for i in imports(p.read_text(encoding="utf-8"), module_name(p))
             if i.target.startswith("analysis")]
    assert not wrong, wrong


def test_every_project_package_has_a_layer():
    """A new top-level package of ``analysis`` must be placed in the order (or the rules skip it)."""
    packages = {p.name for p in ROOT.joinpath("analysis").iterdir()
                if p.is_dir() and p.joinpath("__init__.py").exists()}
    assert {f"analysis.{p}" for p in packages} <= set(LAYERS)


# --- the rules can fail -------------------------------------------------------------------

@pytest.mark.parametrize(("module", "source"), [
    ("analysis.dilemma.economy", "from analysis.engine import table"),
    ("analysis.dilemma.economy", "def f():\n    import analysis.runners.plan\n"),
    ("analysis.engine.simulate", "from ..guide import sections"),
    ("analysis.core.rng", "from analysis.dilemma.decks import load_deck"),
    ("evaluator.api", "from analysis.dilemma import decks"),
    ("analysis.runners.plan", "from analysis.commands._common import out_folder"),
])
def test_an_import_up_a_layer_is_caught(module, source):
    assert len(upward(source, module)) == 1


@pytest.mark.parametrize(("module", "source"), [
    ("analysis.engine.simulate", "from analysis.runners import plan"),
    ("analysis.commands.solve", "from analysis.guide import sections"),
    ("analysis.studies.ranges", "from ..solvers import tree"),
    ("analysis.dilemma.economy", "from evaluator.spec import GameSpec"),
])
def test_an_import_down_or_across_is_allowed(module, source):
    assert upward(source, module) == []


@pytest.mark.parametrize(("module", "source"), [
    ("analysis.engine._kernel", "from evaluator._kernels import score_cards"),
    ("analysis.engine._kernel", "from evaluator import _kernels"),
    ("analysis.engine._kernel", "import evaluator._kernels"),
    ("analysis.studies.x", "from .equity._scoring import N_BLOCKS"),
    ("analysis.studies.x", "from .equity.scoring import _helper"),
    ("analysis.engine.x", "def f():\n    from analysis.dilemma.settlement._kernel import settle_core\n"),
    ("analysis.dilemma.economy", "from .settlement._kernel import settle_core"),
    ("analysis.engine.x", "from .bluffjack._kernel import step"),
    ("analysis.engine.x", "from .bluffjack.stakes import _helper"),
])
def test_a_reach_into_a_private_part_is_caught(module, source):
    assert len(reaching(source, module)) == 1


@pytest.mark.parametrize(("module", "source"), [
    ("analysis.engine.x", "from evaluator.kernels import score_cards"),
    ("analysis.engine.x", "from ._kernel import play_hand"),
    ("analysis.dilemma.settlement.layout", "from .._board import N_BOARD"),
    ("analysis.solvers.abstracted.vector", "from .._cfr_kernels import regret_matching"),
    ("analysis.solvers.bluffjack._mccfr", "from analysis.solvers._mccfr_kernels import _match"),
    ("analysis.engine", "from ._layout import X_N_ACTIONS"),
    ("analysis.engine.x", "from analysis.dilemma import __name__"),
])
def test_a_package_may_use_its_own_private_parts(module, source):
    assert reaching(source, module, is_package=module == "analysis.engine") == []


def test_a_bad_module_on_disk_fails_the_tree_check(tmp_path):
    """The whole walk, on a tree with one upward import and one private reach."""
    bad = tmp_path / "analysis" / "dilemma" / "bad.py"
    bad.parent.mkdir(parents=True)
    for folder in (bad.parent.parent, bad.parent):
        folder.joinpath("__init__.py").write_text("")
    bad.write_text("from analysis.engine.table import Table\n"
                   "from evaluator._kernels import score_cards\n")
    assert check_tree(tmp_path, upward) == ["analysis.dilemma.bad:1 imports analysis.engine.table"]
    assert check_tree(tmp_path, reaching) == [
        "analysis.dilemma.bad:2 imports evaluator._kernels.score_cards (private to evaluator)"]
