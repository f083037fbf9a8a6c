"""The equity kernels' scoring pieces that other studies' kernels share: the public face of
:mod:`._scoring`.

- ``EMPTY_ACC``: the card-key accumulator of no cards (add ``key[c]`` per card);
- :func:`score_hole` ``(acc, board, a, b, tables)``: the score of ``board[:5]`` plus hole
  cards ``a``, ``b`` whose accumulator is ``acc``;
- ``N_BLOCKS``: accumulator rows of the exact kernels; ``SHARE_LCM``: a pot share ``1/k``
  (k <= 10 players) times this is an integer.
"""

from ._scoring import EMPTY_ACC, N_BLOCKS, SHARE_LCM, score_hole

__all__ = ["EMPTY_ACC", "N_BLOCKS", "SHARE_LCM", "score_hole"]
