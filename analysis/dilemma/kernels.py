"""The Dilemma kernels that other packages' kernels call, in one place: the board rule's
:func:`card_acts` ``(deck, card, street)`` (whether a board card's effect acts, from
:mod:`._board`) and the settlement core's :func:`settle_core` and :func:`score_players`
(:mod:`.settlement.kernels` describes their arguments).

Importing this module loads numba: import it from kernel modules only.
"""

from ._board import card_acts
from .settlement.kernels import score_players, settle_core

__all__ = ["card_acts", "score_players", "settle_core"]
