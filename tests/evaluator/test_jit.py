"""The kernel decorator compiles a called kernel once (no literal re-specialisations), and a
command says on a terminal, once, that it is compiling."""

from __future__ import annotations

import io
import subprocess
import sys

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
