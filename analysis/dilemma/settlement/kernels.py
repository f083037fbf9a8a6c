"""The settlement core's kernels that other packages' kernels call: the public face of
:mod:`._kernel` (its docstring describes the arrays; their columns are in :mod:`.layout`,
the rule options in :mod:`.rules`).

- :func:`settle_core` ``(players, n, board, table, deck, rules, out)``: settle one finished
  hand in place and return its ``F_*`` flags;
- :func:`score_players` ``(players, n, board, table, eval_tables, hand)``: fill ``P_SCORE``
  of the live seats whose hole cards are known (``hand``: a uint8[7] scratch row).

Importing this module loads numba: import it from kernel modules only.
"""

from ._kernel import score_players, settle_core

__all__ = ["score_players", "settle_core"]
