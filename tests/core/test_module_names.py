"""A module or package name says its job, once (issue 18, item 5; docs/architecture.md,
"Names").

Two modules (or packages) under ``analysis/`` and ``evaluator/`` may share a name only when
they do the same job in parallel places: one topic in each layer (``commands/economy.py``,
``charts/economy.py``, ``dilemma/economy.py``), one game in each layer (``engine/bluffjack/``,
``studies/bluffjack/``, ``solvers/bluffjack/``), or one role that every package has (its
``errors.py``, its private ``_kernels.py``). ``SHARED`` names each such name's common job and
every path that has it; ``TO_RENAME`` lists the repeats still doing different jobs (it only
shrinks). The test fails on a repeated name in neither, on a new path under a listed name
(add it to ``SHARED`` only if it does that job), and on entries that are no longer true."""

from __future__ import annotations

from collections import defaultdict

from tests.conftest import ROOT

SHARED: dict[str, tuple[str, set[str]]] = {
    "_kernel": ("a package's private numba kernels (one module)", {
        "analysis/engine/_kernel.py", "analysis/engine/bluffjack/_kernel.py",
        "analysis/dilemma/settlement/_kernel.py"}),
    "_kernels": ("a package's private numba kernels", {
        "analysis/solvers/bluffjack/_kernels.py", "analysis/solvers/card_level/_kernels.py",
        "analysis/studies/bluffjack/_kernels.py", "analysis/studies/fold_vs_check/_kernels.py",
        "analysis/studies/brag/_kernels.py", "evaluator/_kernels.py", "analysis/solvers/preflop_hu/_kernels.py"}),
    "_layout": ("a package's kernel array columns, next to their packers", {
        "analysis/solvers/_layout.py", "analysis/engine/_layout.py",
        "analysis/solvers/card_level/_layout.py"}),
    "layout": ("a package's kernel array columns, next to their packers", {
        "analysis/studies/fold_vs_check/layout.py", "analysis/dilemma/settlement/layout.py"}),
    "kernels": ("the kernels of a package that other packages' kernels may call", {
        "analysis/dilemma/kernels.py", "analysis/dilemma/settlement/kernels.py",
        "evaluator/kernels.py"}),
    "errors": ("a package's exception types", {
        "analysis/solvers/errors.py", "analysis/engine/errors.py",
        "analysis/dilemma/settlement/errors.py", "evaluator/errors.py"}),
    "api": ("a package's public functions", {
        "analysis/studies/equity/api.py", "evaluator/api.py"}),
    "data": ("a package's data files", {
        "analysis/engine/data/", "analysis/engine/bluffjack/data/",
        "analysis/studies/fold_vs_check/models/data/", "analysis/dilemma/decks/data/"}),
    "bluffjack": ("the game Bluffjack, in each layer", {
        "analysis/solvers/bluffjack/", "analysis/engine/bluffjack/", "analysis/studies/bluffjack/",
        "analysis/commands/bluffjack.py", "analysis/charts/bluffjack.py"}),
    "brag": ("the game Brag, in each layer", {
        "analysis/studies/brag/", "analysis/commands/brag.py", "analysis/charts/brag.py",
        "evaluator/brag.py"}),
    "economy": ("the board economics, in each layer", {
        "analysis/dilemma/economy.py", "analysis/commands/economy.py",
        "analysis/charts/economy.py"}),
    "engine": ("the betting engine, in each layer", {
        "analysis/engine/", "analysis/charts/engine.py"}),
    "equilibrium": ("the equilibrium chapter, in each layer", {
        "analysis/studies/equilibrium.py", "analysis/charts/equilibrium.py"}),
    "equity": ("equities, in each layer (Brag's own in its game package)", {
        "analysis/studies/equity/", "analysis/studies/brag/equity.py",
        "analysis/commands/equity.py", "analysis/charts/equity.py"}),
    "guide": ("the strategy guide, in each layer", {
        "analysis/guide/", "analysis/commands/guide.py"}),
    "studies": ("the studies, in each layer", {
        "analysis/studies/", "analysis/guide/studies.py"}),
    "study": ("the study command and its charts", {
        "analysis/commands/study.py", "analysis/charts/study.py"}),
    "solve": ("solving a game: its run loop, and the command", {
        "analysis/solvers/bluffjack/solve.py", "analysis/solvers/abstracted/solve.py",
        "analysis/solvers/preflop_hu/solve.py", "analysis/commands/solve.py"}),
    "public_tree": ("a game's public betting tree for its solver", {
        "analysis/solvers/bluffjack/public_tree.py",
        "analysis/solvers/abstracted/public_tree.py"}),
    "referee": ("a game's readable betting referee", {
        "analysis/engine/referee.py", "analysis/engine/bluffjack/referee.py"}),
    "history": ("a game's hand histories", {
        "analysis/engine/history.py", "analysis/engine/bluffjack/history.py"}),
    "strategy": ("strategies as data", {
        "analysis/engine/bluffjack/strategy.py", "analysis/core/strategy.py"}),
    "spec": ("a game's definition as data", {
        "analysis/solvers/abstracted/spec.py", "evaluator/spec.py"}),
    "plan": ("runner plans (the protocol and a study's plans)", {
        "analysis/studies/bluffjack/plan.py", "analysis/studies/fold_vs_check/plan.py",
        "analysis/runners/plan.py"}),
    "exact": ("a study's exact computation", {
        "analysis/studies/bluffjack/exact.py", "analysis/studies/fold_vs_check/exact.py"}),
    "multiway": ("a package's three-or-more-player part", {
        "analysis/solvers/card_level/multiway.py", "analysis/studies/brag/multiway.py"}),
    "results": ("a package's result values and tables", {
        "analysis/studies/fold_vs_check/results.py", "analysis/dilemma/settlement/results.py"}),
    "schedule": ("when a run checks its progress or stops", {
        "analysis/solvers/card_level/schedule.py", "analysis/runners/schedule.py"}),
    "table": ("the table a hand or spot is played at", {
        "analysis/engine/table.py", "analysis/dilemma/table.py"}),
}
"""name -> (the job its modules share, every path with that name)."""

TO_RENAME: dict[str, tuple[str, set[str]]] = {}
"""name -> (what differs, its paths): repeats for different jobs, still to rename (only shrinks)."""


def repeated_names() -> dict[str, set[str]]:
    """Names (module stems and package folders) found more than once, with their paths."""
    found: dict[str, set[str]] = defaultdict(set)
    for package in ("analysis", "evaluator"):
        for path in (ROOT / package).rglob("*"):
            if "__pycache__" in path.parts:
                continue
            rel = path.relative_to(ROOT).as_posix()
            if path.is_file() and path.suffix == ".py" and path.name != "__init__.py":
                found[path.stem].add(rel)
            elif path.is_dir() and any(p.name != "__pycache__" for p in path.iterdir()):
                found[path.name].add(rel + "/")  # not a folder left holding only bytecode
    return {name: paths for name, paths in found.items() if len(paths) > 1}


def test_a_repeated_module_name_does_one_job() -> None:
    listed = {**SHARED, **TO_RENAME}
    found = repeated_names()
    new = {name: sorted(paths) for name, paths in found.items() if name not in listed}
    assert not new, ("module names used for more than one module: give each a name that says "
                     f"its job, or list them in SHARED if they do the same job: {new}")
    grown = {name: sorted(paths - listed[name][1]) for name, paths in found.items()
             if paths - listed[name][1]}
    assert not grown, f"new modules under a listed name: is it the same job? {grown}"


def test_the_lists_hold_only_what_is_there() -> None:
    found = repeated_names()
    stale = {name: sorted(paths - found.get(name, set()))
             for name, (_, paths) in {**SHARED, **TO_RENAME}.items()
             if paths - found.get(name, set())}
    assert not stale, f"paths gone or renamed: take them off the lists: {stale}"
    assert not set(SHARED) & set(TO_RENAME)
