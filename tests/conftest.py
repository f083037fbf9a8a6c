"""Test setup: the project root is importable, so tests reach the slow references as
``tests.reference.*``; the ``cli`` fixture runs the command line as a user would.

Every test runs inside :func:`process_state_kept`, which fails a test that leaves the
process different from how it found it (signal handlers, environment, working folder,
numba thread count): the suite must pass however it is started (foreground, in the
background with Ctrl-C ignored, under ``nohup``, with or without xdist) and in any file
order (``--shuffle-files SEED``).
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

# threadpoolctl sets KMP_DUPLICATE_LIB_OK in os.environ when first imported (by the solvers'
# vector module): import it before any test, so the process-state guard does not blame
# whichever test happens to import it first
import threadpoolctl  # noqa: F401, E402

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
_PYTEST_OWN = {"PYTEST_CURRENT_TEST"}
"""Environment variables pytest itself changes around every test."""


def as_at_a_terminal() -> None:
    """``preexec_fn`` for a child that must take Ctrl-C as a user's terminal delivers it,
    even where the suite itself was started with SIGINT ignored (children inherit that)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def cpu_seconds(proc: subprocess.Popen) -> float:
    """CPU time a child has used (user + system, all threads), from ``/proc``. A test that
    must interrupt a command at work waits for this, not for wall time: start-up's CPU time
    does not grow with the machine's load."""
    try:
        fields = Path(f"/proc/{proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run_cli(*args: str, timeout: float = 600) -> subprocess.CompletedProcess:
    """Run ``dilemma ARGS...`` in a subprocess (as a user would) and capture its output."""
    return subprocess.run(
        [sys.executable, "-m", "analysis.cli", *map(str, args)],
        capture_output=True, text=True, timeout=timeout, cwd=ROOT, preexec_fn=as_at_a_terminal,
    )


@pytest.fixture
def cli():
    """The ``run_cli`` function, as a fixture."""
    return run_cli


@pytest.fixture
def ctrl_c_raises() -> Iterator[None]:
    """Ctrl-C handled as in an interactive Python (``KeyboardInterrupt``) for this test only,
    whatever the suite inherited; the handler found is put back after."""
    found = signal.getsignal(signal.SIGINT)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, found)


def _numba_threads() -> int | None:
    numba = sys.modules.get("numba")
    return int(numba.get_num_threads()) if numba is not None else None


def _snapshot() -> dict[str, object]:
    return {"signals": {s: signal.getsignal(s) for s in _SIGNALS}, "environ": {k: v for k, v in os.environ.items() if k not in _PYTEST_OWN},
            "cwd": os.getcwd(), "numba_threads": _numba_threads()}


def _restore(found: dict[str, object]) -> None:
    for sig, handler in found["signals"].items():  # type: ignore[union-attr]
        if handler is not None:
            signal.signal(sig, handler)
    for key in set(os.environ) - set(found["environ"]) - _PYTEST_OWN:  # type: ignore[arg-type]
        del os.environ[key]
    os.environ.update(found["environ"])  # type: ignore[arg-type]
    os.chdir(found["cwd"])  # type: ignore[arg-type]
    if found["numba_threads"] is not None:
        sys.modules["numba"].set_num_threads(found["numba_threads"])


@pytest.fixture(autouse=True)
def process_state_kept() -> Iterator[None]:
    """Fail a test that changes process state it does not put back (and put it back, so one
    leak cannot fail the tests that happen to run after it in the same worker)."""
    found = _snapshot()
    yield
    after = _snapshot()
    if found["numba_threads"] is None:  # numba was first imported by this test
        after["numba_threads"] = None
    changed = [key for key in found if after[key] != found[key]]
    if changed:
        detail = {key: (found[key], after[key]) for key in changed if key != "environ"}
        if "environ" in changed:
            env_a, env_b = found["environ"], after["environ"]
            detail["environ"] = sorted(k for k in set(env_a) | set(env_b)  # type: ignore[arg-type]
                                       if env_a.get(k) != env_b.get(k))  # type: ignore[union-attr]
        _restore(found)
        pytest.fail(f"the test left process state changed: {detail}", pytrace=False)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--shuffle-files", type=int, default=None, metavar="SEED",
                     help="run the test files in an order shuffled with SEED (tests within a "
                          "file keep their order): proves the suite does not depend on it")
    parser.addoption("--run-long", action="store_true", default=False,
                     help="also run the tests marked long (minutes each; not in make test or CI)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not config.getoption("--run-long"):
        skip = pytest.mark.skip(reason="long (minutes): run with --run-long")
        for item in items:
            if "long" in item.keywords:
                item.add_marker(skip)
    seed = config.getoption("--shuffle-files")
    if seed is None:
        return
    files = list(dict.fromkeys(item.path for item in items))
    random.Random(seed).shuffle(files)
    rank = {path: i for i, path in enumerate(files)}
    items.sort(key=lambda item: rank[item.path])  # stable: a file's tests keep their order
