"""The kernel decorator compiles a called kernel once (no literal re-specialisations), and a
command says on a terminal, once, that it is compiling."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import numpy as np
from numba.core import event
from numba.core.caching import NullCache

from analysis import compile_notice
from evaluator.jit import Kernel, kernel


@kernel
def _callee(n, d, x):
    return n + d + x[0]


@kernel
def _caller(x, n0):
    """Counters set to 0 before a loop: numba first types them as Literal[int](0)."""
    t = 0
    h = 0
    while True:
        m = 0
        d = 0
        for i in range(n0):
            if x[i] > 0:
                if i == h:
                    d = m
                m += 1
        if m <= 1:
            break
        t += _callee(m, d, x)
        h += 1
        if h > 3:
            break
    return t


for _kernel in (_callee, _caller):  # compiled afresh whatever the on-disk cache holds
    _kernel._cache = NullCache()


class _Recorder(event.Listener):
    def __init__(self) -> None:
        self.compiled: list[tuple] = []

    def on_start(self, ev: event.Event) -> None:
        self.compiled.append((ev.data["dispatcher"], ev.data["args"]))

    def on_end(self, ev: event.Event) -> None:
        pass


def test_a_called_kernel_compiles_once_for_plain_types():
    recorder = _Recorder()
    x = np.arange(4, dtype=np.int64)
    with event.install_listener("numba:compile", recorder):
        got = _caller(x, 4)
    assert got == _caller.py_func(x, 4)
    assert isinstance(_caller, Kernel) and isinstance(_callee, Kernel)
    callee_sigs = [args for d, args in recorder.compiled if d is _callee]
    assert len(callee_sigs) == 1, callee_sigs  # plain numba: (0, 0), (int64, 0), (int64, int64)
    assert len(_callee.signatures) == 1
    assert "Literal" not in str(_callee.signatures[0])


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


class _Event:
    def __init__(self, dispatcher: object) -> None:
        self.data = {"dispatcher": dispatcher}


def test_the_compile_notice_is_one_line_on_a_terminal_only(monkeypatch):
    terminal = _Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    notice = compile_notice._Notice()
    notice.on_start(_Event(object()))  # numba's own helpers do not count
    assert terminal.getvalue() == ""
    notice.on_start(_Event(_callee))
    notice.on_start(_Event(_caller))
    assert terminal.getvalue() == compile_notice.NOTICE + "\n"

    piped = io.StringIO()
    monkeypatch.setattr("sys.stderr", piped)
    quiet = compile_notice._Notice()
    quiet.on_start(_Event(_callee))
    assert piped.getvalue() == ""


def test_the_command_line_starts_without_numba_and_hooks_run_once_it_loads():
    """The compile notice waits for the kernel decorator: a command that never compiles does
    not pay numba's import (about half a second), one that does still gets the notice."""
    probe = ("import sys, analysis.cli; from evaluator.jit_hooks import when_jit_loaded; "
             "seen = []; when_jit_loaded(lambda: seen.append('numba' in sys.modules)); "
             "print('numba' in sys.modules, seen); import evaluator.jit; print(seen); "
             "when_jit_loaded(lambda: seen.append('again')); print(seen)")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True).stdout.splitlines()
    assert out == ["False []", "[True]", "[True, 'again']"]


_STAMPS = """
import importlib, json, pkgutil, sys
targets = sys.argv[1:]
if targets == ["ALL"]:
    import analysis, evaluator
    for package in (analysis, evaluator):
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            importlib.import_module(info.name)
else:
    for name in targets:
        importlib.import_module(name)
from evaluator.jit import Kernel, _stamp, dependency_files
out = {}
for name, module in sorted(sys.modules.items()):
    path = getattr(module, "__file__", None) or ""
    if name.startswith(("analysis.", "evaluator.")) and path.endswith(".py") and any(
            isinstance(v, Kernel) and v.py_func.__module__ == name for v in vars(module).values()):
        out[name] = [_stamp(path, name), dependency_files(name)]
print(json.dumps(out))
"""


def _stamps(*modules: str) -> dict:
    """Each loaded kernel module's cache stamp and dependency files, in a fresh process."""
    import json

    run = subprocess.run([sys.executable, "-c", _STAMPS, *modules], capture_output=True, text=True,
                         check=True)
    return json.loads(run.stdout)


def _top_level_project_imports(module_file: str, package: str) -> set[str]:
    """The project modules a module's top-level import statements name (read with ``ast``)."""
    import ast
    import importlib.util

    names = set()
    for node in ast.parse(Path(module_file).read_text(encoding="utf-8")).body:
        if isinstance(node, ast.ImportFrom):
            names.add(importlib.util.resolve_name("." * node.level + (node.module or ""), package))
    return {n for n in names if n.split(".")[0] in ("analysis", "evaluator")}


def test_a_kernel_module_is_recompiled_when_any_module_it_imports_changes():
    """The cache stamp covers every project module a kernel module imports, constants-only
    imports included (``from .tree3 import PAY``: the column numbers are frozen into the
    compiled code; before, such a module was missing and an edited layout could run stale
    code), and is the same in every process whatever else it loaded (else every process
    would see the others' cache as stale and compile again)."""
    import importlib

    everything = _stamps("ALL")
    assert len(everything) > 30
    for name, (_, deps) in everything.items():
        module = importlib.import_module(name)
        for imported in _top_level_project_imports(module.__file__, module.__package__):
            target = importlib.import_module(imported)
            if hasattr(target, "__path__"):
                continue  # a package: what it re-exports is checked where it is defined
            assert target.__file__ in deps, (name, imported)
    for name in ("analysis.solvers.card_level._kernels3", "analysis.studies.fold_vs_check._kernels",
                 "analysis.engine._kernel", "evaluator._kernels"):
        alone = _stamps(name)
        assert alone[name] == everything[name], name


_NESTED = '''
import sys
import numpy as np
from numba import prange
from evaluator.jit import kernel


@kernel(parallel=True)
def inner(x, out):
    for i in prange(x.shape[0]):
        out[i] = x[i] * 2.0


@kernel
def outer(x):
    out = np.zeros_like(x)
    inner(x, out)
    return out.sum()


x = np.arange(1000.0)
if sys.argv[1] == "inner":
    out = np.zeros_like(x)
    inner(x, out)
    print(out.sum())
else:
    print(outer(x))
'''


def test_a_kernel_cached_over_a_cached_parallel_callee_loads_safely(tmp_path):
    """numba caches a kernel compiled while its ``parallel=True`` callee came from the cache
    without the callee's reload hook (numba issues #8578, #4807); a third process that loaded
    it crashed (exit -11: a three-handed turn solve did, after two test workers had compiled
    its kernels at once). The kernel decorator starts the threading layer before any load."""
    script = tmp_path / "nested.py"
    script.write_text(_NESTED)
    env = {**__import__("os").environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"),
           "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    for step in ("inner", "outer", "outer"):  # inner cached; outer compiled over it; outer loaded
        done = subprocess.run([sys.executable, str(script), step], capture_output=True, text=True, env=env,
                              timeout=300)
        assert done.returncode == 0 and float(done.stdout) == 999000.0, (step, done.returncode, done.stderr)
