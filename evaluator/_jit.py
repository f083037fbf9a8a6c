"""Numba cache hygiene shared by every kernel module.

numba's on-disk cache (``cache=True``) is invalidated only by changes to the file
a function is defined in. Kernels that inline code from other modules (the
evaluator's look-ups, the generator, the settlement core) would otherwise keep
stale machine code after those modules change. :func:`drop_stale_cache` keeps a
fingerprint of the dependencies' sources beside a module's cache and removes that
module's cache index when the fingerprint changes, so its kernels compile afresh.
"""

from __future__ import annotations

import hashlib
import inspect
from pathlib import Path
from types import ModuleType


def drop_stale_cache(module: ModuleType, dependencies: tuple[ModuleType, ...]) -> None:
    """Forget ``module``'s numba cache if any of ``dependencies`` changed since it was built."""
    name = module.__name__.rpartition(".")[2]
    try:
        folder = next(Path(obj._cache._cache_path) for obj in vars(module).values()
                      if hasattr(obj, "_cache") and hasattr(obj._cache, "_cache_path")
                      and getattr(obj.py_func, "__module__", None) == module.__name__)
        digest = hashlib.sha256()
        for dep in dependencies:
            digest.update(Path(inspect.getsourcefile(dep)).read_bytes())
        stamp = folder / f"{name}.deps"
        if stamp.exists() and stamp.read_text() == digest.hexdigest():
            return
        for index in folder.glob(f"{name}.*.nbi"):
            index.unlink(missing_ok=True)
        folder.mkdir(parents=True, exist_ok=True)
        stamp.write_text(digest.hexdigest())
    except (OSError, AttributeError, TypeError, StopIteration):  # no cache, read-only tree
        pass
