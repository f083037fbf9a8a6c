"""Reading the lab's input files (decks, hand records, histories) with one-line errors.

Every reader decodes the bytes itself, so a file that is not UTF-8 text is reported
with the byte and line of the first bad byte (not a ``UnicodeDecodeError``), a
leading UTF-8 byte-order mark (as some Windows editors write) is dropped, and JSON
that is nested too deeply or holds a number too long for Python is refused cleanly.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from evaluator.errors import LabError

BOM = "\ufeff"


def decode_utf8(data: bytes, label: str, error: type[LabError]) -> str:
    """The text of a file's bytes, a leading byte-order mark dropped; raises ``error``
    naming ``label``, the byte offset and line of the first byte that is not UTF-8."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise error(
            f"{label}: not UTF-8 text: byte 0x{data[exc.start]:02x} at byte offset {exc.start} "
            f"(line {line}) is not valid UTF-8; save the file as UTF-8"
        ) from None
    return text.removeprefix(BOM)


def read_utf8(path: str | Path, label: str, error: type[LabError], what: str = "file") -> str:
    """Read a UTF-8 text file (see :func:`decode_utf8`); an unreadable file raises ``error``."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise error(f"cannot read {what} {str(path)!r}: {exc.strerror or exc}") from None
    return decode_utf8(data, label, error)


def load_json(text: str, label: str, error: type[LabError]) -> Any:
    """``json.loads`` with every failure as one ``error`` naming ``label``."""
    try:
        return json.loads(text.removeprefix(BOM))
    except json.JSONDecodeError as exc:
        raise error(f"{label}: not valid JSON: {exc}") from None
    except RecursionError:
        raise error(f"{label}: not usable JSON: arrays or objects nested too deeply") from None
    except ValueError:  # an integer longer than Python reads (4300 digits by default)
        limit = sys.get_int_max_str_digits()
        raise error(f"{label}: not usable JSON: a number has more than {limit} digits") from None
