"""Parse and format cards; card ids and 64-bit masks. Pure Python.

Accepted notation: a rank (``2``-``9``, ``10`` or ``T``, ``J``, ``Q``, ``K``,
``A``, any case) then a suit letter of the deck (``s h d c``, any case). Cards
may be separated by spaces or commas or run together (``AsKd``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import numpy as np

from .errors import CardError
from .spec import GameSpec, get_game

_RANK_RE = re.compile(r"10|[2-9TJQKA]", re.IGNORECASE)
_SEPARATORS = re.compile(r"[\s,]+")

CardsLike = str | Iterable[str | int] | np.ndarray


def _parse_token(token: str, spec: GameSpec) -> list[int]:
    """Parse one chunk (one or several run-together cards) into card ids."""
    out: list[int] = []
    pos = 0
    suits = "".join(spec.suits).lower()
    while pos < len(token):
        m = _RANK_RE.match(token, pos)
        end = m.end() if m else pos
        if not m or end >= len(token) or token[end].lower() not in suits:
            bad = token[pos : pos + 3] if pos else token
            raise CardError(
                f"malformed card {bad!r}: expected a rank ({'/'.join(spec.ranks)}) "
                f"followed by a suit ({'/'.join(spec.suits)})"
            )
        text = token[pos : end + 1]
        rank = spec.rank_index(m.group(0))
        if rank is None:
            raise CardError(f"card {text!r} is not in the {spec.summary}")
        out.append(spec.card_id(rank, suits.index(token[end].lower())))
        pos = end + 1
    return out


def parse_cards(
    text: CardsLike, game: str | GameSpec = "dilemma", *, allow_empty: bool = True
) -> list[int]:
    """Card ids of ``text`` (``"As 10h"``, ``"As,Th"``, ``"AsTh"`` or a list of such).

    Raises :class:`CardError` naming the token and the deck on a malformed card,
    a card not in the deck, or a duplicate.
    """
    spec = get_game(game)
    ids: list[int] = []
    if isinstance(text, str):
        chunks: Iterable[str | int] = [c for c in _SEPARATORS.split(text.strip()) if c]
    elif isinstance(text, np.ndarray):
        chunks = [int(x) for x in text.ravel()]
    else:
        chunks = list(text)
    for chunk in chunks:
        if isinstance(chunk, bool | np.bool_):
            raise CardError(
                f"card {chunk!r}: write a card as text like 'As' or as an id 0..{spec.n_cards - 1}"
            )
        if isinstance(chunk, int | np.integer):
            if not 0 <= int(chunk) < spec.n_cards:
                raise CardError(f"card id {int(chunk)} is not in the {spec.summary}")
            ids.append(int(chunk))
        else:
            for part in _SEPARATORS.split(str(chunk).strip()):
                if part:
                    ids.extend(_parse_token(part, spec))
    seen: set[int] = set()
    for card in ids:
        if card in seen:
            raise CardError(f"duplicate card {spec.card_name(card)!r}: a card can be dealt only once")
        seen.add(card)
    if not ids and not allow_empty:
        raise CardError("no cards given")
    return ids


def format_cards(cards: Iterable[int], game: str | GameSpec = "dilemma") -> str:
    """Cards as text, e.g. ``"As 10h"``."""
    spec = get_game(game)
    return " ".join(spec.card_name(c) for c in cards)


def cards_to_mask(cards: Iterable[int]) -> int:
    """The 64-bit mask with one bit per card id."""
    mask = 0
    for c in cards:
        mask |= 1 << int(c)
    return mask


def mask_to_cards(mask: int) -> list[int]:
    """Card ids of the set bits of ``mask``, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def full_deck(game: str | GameSpec = "dilemma") -> np.ndarray:
    """All card ids of the game's deck, ascending (uint8)."""
    return np.arange(get_game(game).n_cards, dtype=np.uint8)


def card_rows(hands: np.ndarray, sizes: tuple[int, ...], shape_text: str) -> np.ndarray:
    """``hands`` as a native-order, C-contiguous 2-D array of ``uint8`` or ``int64`` ids (no
    copy when it already is one), with rows of a length in ``sizes``; ``shape_text`` starts
    the error for a bad shape (``"hands must be an (n, 3) array of card ids"``).

    ``uint8`` (compact) and ``int64`` (what ``np.array`` of Python ints gives) pass as they
    are, at full speed; any other integer dtype is widened to ``int64`` in one pass, so the
    scoring kernels are compiled for two dtypes, not eight (about 20 CPU s each on a first
    run). Widening keeps every id's value (a ``uint64`` id past ``2**63`` turns negative,
    still off the deck), so the kernels name the same first invalid row."""
    arr = np.asarray(hands)
    if arr.ndim != 2 or arr.shape[1] not in sizes:
        raise CardError(f"{shape_text}; got shape {arr.shape}")
    if not np.issubdtype(arr.dtype, np.integer):  # bool and float arrays are refused here
        raise CardError(f"hands must hold integer card ids; got dtype {arr.dtype}")
    if arr.dtype != np.uint8 and arr.dtype != np.int64:  # (a big-endian int64 too)
        arr = arr.astype(np.int64)
    return np.ascontiguousarray(arr)


def invalid_row_error(arr: np.ndarray, bad: int, spec: GameSpec) -> CardError:
    """The error for row ``bad``, which a validating kernel found invalid."""
    row = arr[bad]
    if row.min() < 0 or row.max() >= spec.n_cards:
        return CardError(f"row {bad}: card ids must be in 0..{spec.n_cards - 1} for the {spec.summary}")
    return CardError(f"row {bad} repeats a card: {format_cards(row, spec)}")
