"""Files written whole or not at all: a temporary file beside the target, renamed into place.

The temporary file's name carries the writer's process id. A run killed outright
(SIGKILL, a power cut) leaves one behind; the next run into the folder removes those
whose writer is gone (:func:`remove_stale_temporaries`), never a live writer's, so two
runs writing into one folder at once never touch each other's files. Light on imports:
the CLI's start-up uses it.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path


def _current_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


_UMASK = _current_umask()


TEMP_SUFFIX = ".tmp"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's live process
        return True
    return True


def remove_stale_temporaries(folder: str | Path) -> list[Path]:
    """Delete the temporary files in ``folder`` (not below it) left by writers that no
    longer run; return them. Files of live writers and of other programs are kept."""
    removed = []
    try:
        candidates = list(Path(folder).glob(f".*{TEMP_SUFFIX}"))
    except OSError:
        return removed
    for path in candidates:
        parts = path.name[: -len(TEMP_SUFFIX)].split(".")  # "", name..., pid, random
        pid = int(parts[-2]) if len(parts) >= 4 and parts[-2].isdigit() else None
        if pid is not None and pid != os.getpid() and not _alive(pid):
            path.unlink(missing_ok=True)
            removed.append(path)
    return removed


@contextlib.contextmanager
def atomic_path(path: str | Path) -> Iterator[Path]:
    """Yield a temporary path beside ``path``; rename it onto ``path`` only on success."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.{os.getpid()}.", suffix=TEMP_SUFFIX,
                               dir=path.parent)
    os.close(fd)
    tmp_path = Path(tmp)
    try:
        yield tmp_path
        os.chmod(tmp_path, 0o666 & ~_UMASK)  # mkstemp makes 0600; results are ordinary files
        os.replace(tmp_path, path)
    except OSError as exc:
        if exc.filename is None:  # e.g. a full disk inside a library's writer: say which file
            raise OSError(exc.errno, exc.strerror or str(exc), str(path)) from exc
        raise
    finally:
        tmp_path.unlink(missing_ok=True)


