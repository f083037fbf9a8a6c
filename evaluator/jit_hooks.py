"""Run a function once the kernel decorator (:mod:`evaluator.jit`, and with it numba) is loaded.

The CLI wants a listener on numba's compile events, but importing numba at start-up costs
about half a second for commands that never compile anything. A hook given to
:func:`when_jit_loaded` runs at once if the kernel decorator is already loaded, else at the
end of its import: before any lab kernel can compile. No numba import here.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

_waiting: list[Callable[[], None]] = []


def when_jit_loaded(hook: Callable[[], None]) -> None:
    """Call ``hook`` now if :mod:`evaluator.jit` is loaded, otherwise right after it loads."""
    if getattr(sys.modules.get("evaluator.jit"), "_LOADED", False):
        hook()
    else:
        _waiting.append(hook)


def run_waiting() -> None:
    """Called by :mod:`evaluator.jit` at the end of its import."""
    while _waiting:
        _waiting.pop(0)()
