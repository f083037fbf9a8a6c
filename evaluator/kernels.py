"""The evaluator's kernels that other packages' kernels call: the public face of the private
kernel modules (``_kernels``, ``_kicker_kernels``, ``_brag_kernels``, ``_blackjack_kernels``).

Poker (a hand's cards as ids, ``tables`` the tuple ``EvalTables.kernel_args``, see
:mod:`evaluator._kernels`): :func:`score_cards` (``cards[:n]`` -> score), :func:`score_acc`
(a card-key accumulator plus the cards it holds -> score), :func:`hash_score` (an
accumulator without a flush -> score); :func:`top_kicker_key` (the ``kickers=top`` class
of a score). Three Card Brag: :func:`score3` (three cards and the Brag table -> score).
Bluffjack (``rules`` = ``BluffjackRules.kernel_args``): :func:`card_points`,
:func:`best_total`, :func:`is_charlie`, :func:`blackjack_strength`; ``ACE_RANK`` and the
rule column ``R_HOUSE``.

Importing this module loads numba: import it from kernel modules only.
"""

from ._blackjack_kernels import ACE_RANK, R_HOUSE, best_total, card_points, is_charlie
from ._blackjack_kernels import strength as blackjack_strength
from ._brag_kernels import score3
from ._kernels import hash_score, score_acc, score_cards
from ._kicker_kernels import top_kicker_key

__all__ = [
    "ACE_RANK",
    "R_HOUSE",
    "best_total",
    "blackjack_strength",
    "card_points",
    "hash_score",
    "is_charlie",
    "score3",
    "score_acc",
    "score_cards",
    "top_kicker_key",
]
