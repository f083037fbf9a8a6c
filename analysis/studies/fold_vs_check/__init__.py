"""The fold-vs-check study (RULES §1.4, §1.6): is checking worth it, or should I fold for free?

At a decision street (flop, turn or river) with nobody having bet, the hero
either **folds** (and escapes the penalty only if the hand goes on without it)
or **checks** and plays on. Both branches are played on the same deals and
settled by the settlement engine; the answer is the expected money of each and
their gap, with standard errors.

- :func:`evaluate` answers one spot, the shared :class:`~analysis.dilemma.spot.Spot` value
  (the hero's cards first, the opponents' random ones, board, pot, stacks and the
  :class:`~analysis.dilemma.table.Table`; :func:`hero_spot` builds it) against an opponent
  model, with the run's :class:`RunSettings` apart; :func:`evaluate_spot` is its keyword form
  (:mod:`.answer`);
- :func:`run_grid` runs every starting class x street x opponents x pot x model
  (:mod:`.grid`) and derives the break-even lines and the penalty-vs-pot view.

Spots are compiled to arrays in :mod:`.cells` / :mod:`.layout`, simulated by the
kernels of :mod:`._kernels` through the runner (:mod:`.plan`), and turned into
tables by :mod:`.results`. Opponent models and hero policies are data (:mod:`.models`).
"""

from analysis.dilemma.spot import Spot

from .answer import RunSettings, SpotResult, evaluate, evaluate_spot
from .cells import Question, SpotError, hero_spot
from .grid import GridResult, GridSpec, run_grid
from .results import break_even_table

__all__ = ["GridResult", "GridSpec", "Question", "RunSettings", "Spot", "SpotError", "SpotResult",
           "break_even_table", "evaluate", "evaluate_spot", "hero_spot", "run_grid"]
