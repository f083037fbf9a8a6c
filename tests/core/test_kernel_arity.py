"""Kernel inputs are grouped (issue 18, item 4): no numba kernel takes more than
``MAX_POSITIONAL`` positional arguments; related inputs travel as tuples whose parts are
documented where the kernel is defined, and every kernel has a docstring. Read from the source with ``ast`` (every function
under ``analysis/`` and ``evaluator/`` decorated with ``kernel``, ``njit`` or ``jit``).

``WIDE`` lists the kernels still above the limit, each with its count today and why it is
still there; the test fails on a wide kernel that is not listed, on a listed one that grew, and
on a listed one that is gone or narrow now (take it off the list). The list only shrinks."""

from __future__ import annotations

import ast

import pytest

from tests.conftest import ROOT

MAX_POSITIONAL = 8
KERNEL_DECORATORS = {"kernel", "njit", "jit"}


WIDE = {
}
"""``"path::kernel": (positional arguments today, why it is still wide)``."""


def kernels_in(source: str) -> list[ast.FunctionDef]:
    """The functions of ``source`` decorated with ``kernel``, ``njit`` or ``jit``."""
    def decorator_name(node: ast.expr) -> str | None:
        node = node.func if isinstance(node, ast.Call) else node
        return node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", None)

    return [node for node in ast.walk(ast.parse(source)) if isinstance(node, ast.FunctionDef)
            and any(decorator_name(d) in KERNEL_DECORATORS for d in node.decorator_list)]


def kernel_arities(source: str) -> dict[str, int]:
    """Positional-argument counts of the kernels defined in ``source``, by name."""
    return {node.name: len(node.args.posonlyargs) + len(node.args.args) for node in kernels_in(source)}


def wide_kernels() -> dict[str, int]:
    """Every project kernel over the limit: ``"path::kernel" -> positional arguments``."""
    out = {}
    for package in ("analysis", "evaluator"):
        for path in sorted((ROOT / package).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            for name, n in kernel_arities(path.read_text(encoding="utf-8")).items():
                if n > MAX_POSITIONAL:
                    out[f"{rel}::{name}"] = n
    return out


def test_every_kernel_has_a_docstring() -> None:
    """Where a kernel is defined, it says what it does and what its arguments are."""
    bare = [f"{path.relative_to(ROOT).as_posix()}::{node.name}"
            for package in ("analysis", "evaluator") for path in sorted((ROOT / package).rglob("*.py"))
            for node in kernels_in(path.read_text(encoding="utf-8")) if not ast.get_docstring(node)]
    assert not bare, f"kernels without a docstring (say what each argument is): {bare}"


def test_no_new_wide_kernel() -> None:
    found = wide_kernels()
    new = {k: n for k, n in found.items() if k not in WIDE}
    assert not new, (f"kernels with more than {MAX_POSITIONAL} positional arguments: group related "
                     f"inputs into tuples and document them at the kernel: {new}")
    grown = {k: (WIDE[k][0], n) for k, n in found.items() if n > WIDE[k][0]}
    assert not grown, f"listed wide kernels that took more arguments (was, now): {grown}"


def test_the_list_of_wide_kernels_only_shrinks() -> None:
    found = wide_kernels()
    stale = sorted(k for k in WIDE if k not in found)
    assert not stale, f"grouped or gone: take these off WIDE in {__name__}: {stale}"
    narrower = {k: (WIDE[k][0], n) for k, n in found.items() if k in WIDE and n < WIDE[k][0]}
    assert not narrower, f"fewer arguments now: lower their count in WIDE (was, now): {narrower}"


@pytest.mark.parametrize("source, expected", [
    ("@kernel\ndef f(a, b, /, c, *, d): pass", {"f": 3}),
    ("@kernel(nogil=True)\ndef g(a): pass\ndef h(a, b): pass", {"g": 1}),
    ("@numba.njit(cache=True)\ndef k(a, b):\n    @njit\n    def inner(x): pass", {"k": 2, "inner": 1}),
])
def test_the_scan_finds_kernels_and_counts_positional_arguments(source: str, expected: dict) -> None:
    assert kernel_arities(source) == expected
