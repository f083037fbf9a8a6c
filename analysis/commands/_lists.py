"""Comma lists and ranges on the command line (``1-9``, ``1,3,5``, ``0.5,1,2``), read with errors
that name the option."""

from __future__ import annotations

from evaluator.errors import LabError


class OptionListError(LabError):
    """A list option that cannot be read."""


def int_list(text: str, option: str) -> tuple[int, ...]:
    """``"1-5"``, ``"1,3,5"`` or ``"2"`` to ints (ranges inclusive)."""
    out: list[int] = []
    for part in text.replace(" ", "").split(","):
        if not part:
            continue
        lo, sep, hi = part.partition("-")
        try:
            out.extend(range(int(lo), int(hi) + 1) if sep else [int(part)])
        except ValueError:
            raise OptionListError(f"{option}: cannot read {part!r} (use e.g. 1-5 or 1,3,5)") from None
    if not out:
        raise OptionListError(f"{option}: empty list")
    return tuple(out)


def float_list(text: str, option: str) -> tuple[float, ...]:
    """``"0.5,1,2"`` to floats."""
    out: list[float] = []
    for part in text.replace(" ", "").split(","):
        if not part:
            continue
        try:
            out.append(float(part))
        except ValueError:
            raise OptionListError(f"{option}: cannot read {part!r} (use e.g. 0.5,1,2)") from None
    if not out:
        raise OptionListError(f"{option}: empty list")
    return tuple(out)


def word_list(text: str, option: str) -> tuple[str, ...]:
    """``"a, b"`` to ``("a", "b")``."""
    out = tuple(w.strip() for w in text.split(",") if w.strip())
    if not out:
        raise OptionListError(f"{option}: empty list")
    return out
