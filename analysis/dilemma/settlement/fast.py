"""The numba settlement core called from Python: one hand, no explanation (tests, spot checks)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..decks import Deck, load_deck
from . import _kernel as K
from .layout import N_OUT, P_FINAL, P_ROLE, SO_BANK1, SO_BANK3, SO_LEVEL
from .rules import Rules
from .state import HandState


def settle_fast(
    state: HandState, deck: Deck | str = "reference", rules: Rules | None = None
) -> dict[str, Any]:
    """Settle with the numba core (no explanation): final stacks, bank, level, flags, roles."""
    deck = load_deck(deck)
    rules = rules or Rules()
    players, n, board, table = state.validate().to_kernel()
    out = np.zeros(N_OUT, np.int64)
    flags = K.settle_core(players, n, board, table, deck.kernel_args, rules.kernel_args, out)
    return {
        "stacks": tuple(int(x) for x in players[:, P_FINAL]),
        "bank": tuple(int(x) for x in out[SO_BANK1 : SO_BANK3 + 1]),
        "blind_level": int(out[SO_LEVEL]),
        "flags": int(flags),
        "roles": tuple(int(x) for x in players[:, P_ROLE]),
        "out": out,
    }
