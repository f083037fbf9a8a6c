"""JIT options for every kernel of the lab, and a numba cache that knows what a kernel inlines.

Every kernel is compiled through :func:`kernel` (``cache=True`` always), so the
options live here. numba's on-disk cache checks only the source file a function
is defined in, yet our kernels inline code and constants from other modules
(the evaluator's look-ups, the generator, the settlement core, array layouts).
:class:`DependencyStampLocator` makes the cache's *source stamp* a hash of the
module **and of every project module it depends on**, transitively: the project modules
its globals point at (modules, numba functions) and those its top-level import statements
name (a layout imported only for its constants leaves nothing in the globals, yet the
constants are frozen into the compiled code). Top-level only, so that every process,
whatever else it loaded, computes the same stamp.
A change to a dependency therefore changes the stamp and numba recompiles and
rewrites the index by itself. Nothing is ever deleted, and numba writes index
and data files by atomic rename, so several processes (Dask workers) starting
at once on a cold or stale cache are safe: at worst they all compile.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import importlib.util
import os
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import numba
from numba.core import caching, types
from numba.core.registry import CPUDispatcher
from numba.np.ufunc.parallel import _launch_threads

from evaluator.compile_log import install_from_env

ROOTS = tuple(str(Path(__file__).resolve().parent.parent / name) for name in ("evaluator", "analysis"))
"""Source folders whose modules take part in dependency stamps."""


class Kernel(CPUDispatcher):
    """A numba dispatcher that a calling kernel resolves on its arguments' plain types.

    numba types a caller by fixed-point iteration and resolves each call as soon as its
    argument types are known, *compiling the callee for every intermediate type*: a counter
    set to ``0`` before a loop is first ``Literal[int](0)``, then ``int64``, so the callee
    (and everything it calls) compiled two or three times, each version kept in the cache.
    Here literal arguments are widened first (``Literal[int](0)`` -> ``int64``); the call
    binds to that one compiled version. No kernel of the lab asks for literal values.
    """

    def get_call_template(self, args, kws):  # type: ignore[no-untyped-def]
        args = tuple(types.unliteral(a) for a in args)
        kws = {k: types.unliteral(v) for k, v in kws.items()}
        return super().get_call_template(args, kws)

    def compile(self, sig):  # type: ignore[no-untyped-def]
        """Numba's compile, with the parallel runtime started first (once per process, about 20 ms).

        A kernel compiled while a ``parallel=True`` callee came from the disk cache is cached
        without the callee's reload hook (numba issues #8578, #4807): a later process that loads
        it links the callee's scheduling calls before anything launched the threading layer, and
        crashes. Launching it before any kernel compiles or loads makes every cached kernel safe."""
        _launch_threads()  # (idempotent: a lock and a flag after the first call)
        return super().compile(sig)


def kernel(fn: Callable | None = None, *, parallel: bool = False, inline: bool = False,
           nogil: bool = False) -> Any:
    """Compile ``fn`` with numba, cached on disk: ``@kernel``, ``@kernel(parallel=True)``,
    ``@kernel(inline=True)`` (inlined into its callers), ``@kernel(nogil=True)`` (releases
    the GIL when called from Python, for :func:`analysis.core.threads.run_tasks`)."""
    options: dict[str, Any] = {"cache": True}
    if parallel:
        options["parallel"] = True
    if nogil:
        options["nogil"] = True
    if inline:
        options["inline"] = "always"
    jit = numba.njit(**options)

    def decorate(f: Callable) -> Any:
        dispatcher = jit(f)
        if type(dispatcher) is CPUDispatcher:  # not under NUMBA_DISABLE_JIT
            dispatcher.__class__ = Kernel
        return dispatcher

    return decorate if fn is None else decorate(fn)


def _in_project(path: str | None) -> bool:
    return bool(path) and os.path.abspath(path).startswith(ROOTS)  # type: ignore[arg-type]


@functools.cache
def _top_level_imports(path: str, package: str | None) -> tuple[tuple[str, str], ...]:
    """``(module, name)`` for each name ``path``'s top-level import statements bind
    (``from .layout import COLUMN`` -> ``(pkg.layout, COLUMN)``; ``import a.b`` -> ``(a.b, "")``).
    Constants are frozen into compiled code yet leave no module or function in the globals.
    Only top-level statements: they have all run before any kernel of the module compiles,
    so every process computes the same stamp (an import inside a function runs or not
    depending on what the process did before)."""
    try:
        body = ast.parse(Path(path).read_text(encoding="utf-8")).body
    except (OSError, SyntaxError, UnicodeDecodeError):
        return ()
    pairs: list[tuple[str, str]] = []
    for node in body:
        if isinstance(node, ast.Import):
            pairs.extend((alias.name, "") for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            try:
                base = importlib.util.resolve_name("." * node.level + (node.module or ""), package)
            except (ImportError, ValueError):
                continue
            pairs.extend((base, alias.name) for alias in node.names)
    return tuple(pairs)


def _defining_module(value: Any) -> str | None:
    """The module a global names: a module's own name, or where a function or class is defined."""
    if isinstance(value, ModuleType):
        return value.__name__
    target = getattr(value, "py_func", value)
    name = getattr(target, "__module__", None)
    return name if isinstance(name, str) and callable(target) else None


def _imported_module(base: str, name: str) -> str:
    """The module that defines what ``from base import name`` binds: a submodule, the module
    a re-exported function comes from (not the package that re-exports it), or ``base``."""
    if name and f"{base}.{name}" in sys.modules:
        return f"{base}.{name}"
    source = sys.modules.get(base)
    if name and source is not None and hasattr(source, "__path__"):
        return _defining_module(getattr(source, name, None)) or base
    return base


def _referenced_modules(module: ModuleType) -> set[str]:
    """Names of the project modules ``module``'s globals point at (modules, numba functions,
    functions and classes defined elsewhere in the project) or its top-level imports name."""
    candidates = [_defining_module(value) for value in list(vars(module).values())]
    path = getattr(module, "__file__", None)
    if _in_project(path):
        candidates += [_imported_module(base, name) for base, name in _top_level_imports(path, module.__package__)]
    names = set()
    for name in candidates:
        other = sys.modules.get(name) if name else None
        if other is not None and other is not module and _in_project(getattr(other, "__file__", None)):
            names.add(name)
    return names


def dependency_files(module_name: str) -> list[str]:
    """The source files of every project module ``module_name`` depends on, transitively."""
    seen: set[str] = set()
    todo = [module_name]
    while todo:
        name = todo.pop()
        module = sys.modules.get(name)
        if module is None:
            continue
        for dep in _referenced_modules(module):
            if dep not in seen and dep != module_name:
                seen.add(dep)
                todo.append(dep)
    return sorted(sys.modules[n].__file__ for n in seen)  # type: ignore[misc]


def _stamp(py_file: str, module_name: str) -> str:
    digest = hashlib.sha256()
    for path in [py_file, *dependency_files(module_name)]:
        digest.update(path.encode())
        digest.update(Path(path).read_bytes())
    return digest.hexdigest()


class _StampMixin:
    """Source stamp = hash of the module's file and its project dependencies' files."""

    _dep_stamp: str = ""

    def get_source_stamp(self) -> str:
        return self._dep_stamp

    @classmethod
    def from_function(cls, py_func: Callable, py_file: str):  # type: ignore[no-untyped-def]
        if not _in_project(py_file):
            return None
        self = super().from_function(py_func, py_file)  # type: ignore[misc]
        if self is not None:
            self._dep_stamp = _stamp(py_file, py_func.__module__)
        return self


class UserProvidedDependencyStampLocator(_StampMixin, caching.UserProvidedCacheLocator):
    """The cache in ``NUMBA_CACHE_DIR`` when the user set it, stamped with the dependencies."""


class DependencyStampLocator(_StampMixin, caching.InTreeCacheLocator):
    """The cache beside the source (``__pycache__``), stamped with the dependencies."""


class UserWideDependencyStampLocator(_StampMixin, caching.UserWideCacheLocator):
    """The same in the user's cache folder, for a read-only source tree."""


def _install() -> None:
    locators = caching.CacheImpl._locator_classes
    for cls in (UserWideDependencyStampLocator, DependencyStampLocator,
                UserProvidedDependencyStampLocator):
        if cls not in locators:
            locators.insert(0, cls)


_install()
install_from_env()
_LOADED = True
"""Set last: :mod:`evaluator.jit_hooks` runs its waiting hooks only on a finished module."""

from evaluator.jit_hooks import run_waiting  # noqa: E402

run_waiting()
