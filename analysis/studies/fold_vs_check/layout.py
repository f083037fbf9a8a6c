"""The fold-vs-check kernels' arrays: named columns and the packers that fill them.

The kernels take three tuples (plus the evaluator's tables):

- ``spots = (cells, keys, hero_combos, board_cards)``: ``cells`` int64[n, N_CCOLS]
  (``CE_*`` columns: the hero's combos and fixed board as slices of the other two
  arrays, street, opponents, pot, stack, model and policy index), ``keys``
  uint64[n] the generator key of each cell;
- ``opponents = (models, relative, range_lo, range_hi, range_combos, range_cumw)``: per
  model float64[4 streets, 3] (``M_*``), whether its thresholds are relative to its own
  range, and the slice of the range arrays it deals from (empty slice: any two cards,
  dealt from the deck);
- ``table = (game, policies, deck, rules)``: ``game`` int64[N_GCOLS] (``G_*``: bank,
  blind level, big blind, deck size, whether to tally strength bins, strength buckets of
  the best response, fixed policies to compare), the fixed hero policies' call
  thresholds float64[n_policies, 4], the deck and rule arrays;
- ``strength = (sources, eval_tables)``: how strengths are read, ``sources = (use_tables,
  flop, turn, river)`` the strength tables (or dummies), ``eval_tables`` the evaluator's;
- ``plans`` float64[n_plans, n_infos(buckets)]: best-response actions per information
  set (1 check/call, 0 fold, -1 never seen in training).

Statistics rows are float64[N_STATS] (``S_*`` sums, then the strength and penalty bins).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from analysis.dilemma.decks import Deck
from analysis.dilemma.settlement import Rules

from ..ranges import parse_range
from .models import HeroPolicy, OpponentModel

# cells: int64[n_cells, N_CCOLS]; CE_POLICY is a fixed hero policy (-1: the best response of
# plan row CE_PLAN); CE_PLAN_NOFREE a best response that never folds for free (-1: none);
# CE_POSITION the opponents who act before the hero after the flop (0: the hero first)
(CE_HERO_LO, CE_HERO_HI, CE_BOARD_LO, CE_BOARD_N, CE_STREET, CE_NOPP, CE_POT, CE_STACK, CE_MODEL,
 CE_POLICY, CE_PLAN, CE_PLAN_NOFREE, CE_POSITION) = range(13)
N_CCOLS = 13

# game: int64[N_GCOLS]; G_N_CMP fixed policies are also played on every deal (policies 0..n-1)
(G_BANK1, G_BANK2, G_BANK3, G_LEVEL, G_BIG_BLIND, G_N_CARDS, G_STRENGTH_BINS, G_BUCKETS,
 G_N_CMP) = range(9)
N_GCOLS = 9

MAX_OPP = 9
"""Most opponents a spot may have (the information sets are laid out for them)."""
N_LEVELS = 6
"""Hero decision levels after the study's decision: (flop, turn, river) x (nobody bet, facing a bet)."""


def n_infos(buckets: int) -> int:
    """Abstract information sets of the best response: levels x opponents still in x buckets."""
    return N_LEVELS * MAX_OPP * buckets

# models: float64[n_models, 4 streets, 3]
M_BET, M_SIZE, M_CALL = range(3)
NEVER = 2.0  # a threshold no strength reaches

# statistics per work item: float64[N_STATS]
(S_N, S_FOLD, S_FOLD2, S_CHECK, S_CHECK2, S_GAP, S_GAP2,
 S_CHECK_POT, S_CHECK_BONUS, S_CHECK_PENALTY, S_CHECK_EFFECT,
 S_FOLD_POT, S_FOLD_BONUS, S_FOLD_PENALTY, S_FOLD_EFFECT,
 S_EQUITY, S_BOARD_PENALTY, S_FOLD_PAYS, S_CHECK_SHOWDOWN, S_STRENGTH) = range(20)
N_SCALARS = 20
N_STRENGTH_BINS = 20
N_PENALTY_BINS = 21  # board penalty at the decision, $0 ... $200+ in $10 steps
STRENGTH_BASE = N_SCALARS
PENALTY_BASE = STRENGTH_BASE + 3 * N_STRENGTH_BINS
MAX_CMP = 4
"""Other continuations played on the same deals: up to three fixed policies and the best
response without the fold-for-free option (slot 3)."""
CMP_BASE = PENALTY_BASE + 3 * N_PENALTY_BINS
"""Per other continuation k: sum and sum of squares of its check value, and of its value
minus the main continuation's (4 entries at CMP_BASE + 4 k)."""
DEC_BASE = CMP_BASE + 4 * MAX_CMP
"""Per decision level of the main continuation: times reached, times folded."""
BOARD_CLASS_BASE = DEC_BASE + 2 * N_LEVELS
"""Per board class (``BOARD_CLASSES``) and strength bin: trials, sum and sum of squares of
the gap (3 entries per bin, ``N_STRENGTH_BINS`` bins per class), tallied with the strength
bins."""
BOARD_CLASSES = ("none", "crash", "slump", "rebate", "bubble", "other")
"""What a player sees on the board at the decision: the active effect card that decides the
class, first match in this order after ``none`` (crash, slump, rebate, bubble), ``other`` for
any other active effect (boom, levy, subsidy, windfall), ``none`` when no effect acts."""
BOARD_CLASS_TEXT = ("the active effect card on the board, the first of crash, slump, rebate, "
                    "bubble; other: any other active effect; none: no effect acts (a blue card "
                    "acts from the flop, a red one from the turn)")
N_STATS = BOARD_CLASS_BASE + 3 * len(BOARD_CLASSES) * N_STRENGTH_BINS




def cell_row(*, hero: tuple[int, int], board: tuple[int, int], street: int, opponents: int,
             pot: int, stack: int, model: int, policy: int, plan: int = -1,
             plan_nofree: int = -1, position: int = 0) -> np.ndarray:
    """One row of ``cells``: the hero's combo slice, the fixed board slice and the spot."""
    row = np.zeros(N_CCOLS, np.int64)
    row[CE_HERO_LO], row[CE_HERO_HI] = hero
    row[CE_BOARD_LO], row[CE_BOARD_N] = board
    row[CE_STREET] = street
    row[CE_NOPP] = opponents
    row[CE_POT] = pot
    row[CE_STACK] = stack
    row[CE_MODEL] = model
    row[CE_POLICY] = policy
    row[CE_PLAN] = plan
    row[CE_PLAN_NOFREE] = plan_nofree
    row[CE_POSITION] = position
    return row


def pack_opponents(models: Sequence[OpponentModel], deck: Deck) -> tuple:
    """``(models, relative, range_lo, range_hi, range_combos, range_cumw)`` for the models."""
    params = np.array([m.kernel_params() for m in models], dtype=np.float64)
    relative = np.array([m.relative for m in models], dtype=np.bool_)
    lo, hi, combos, cumw = [], [], [], []
    start = 0
    for m in models:
        lo.append(start)
        if not deals_random(m, deck):
            rng = parse_range(m.range, deck.game)
            combos.append(rng.combos.astype(np.int64))
            cumw.append(np.cumsum(rng.weights))
            start += len(rng)
        hi.append(start)
    range_combos = np.concatenate(combos) if combos else np.zeros((1, 2), np.int64)
    range_cumw = np.concatenate(cumw) if cumw else np.ones(1)
    return (params, relative, np.array(lo, np.int64), np.array(hi, np.int64), range_combos,
            range_cumw)


def relative_models(opponents: tuple) -> np.ndarray | None:
    """The kernels' ``relative`` argument: None when no model of ``opponents``
    (:func:`pack_opponents`) is relative to its range, so numba leaves the relative script
    out of the compiled code; else the per-model flags."""
    return opponents[1] if opponents[1].any() else None


def pack_table(*, bank: Sequence[int], level: int, big_blind: int, strength_bins: bool,
               policies: Sequence[HeroPolicy], deck: Deck, rules: Rules, buckets: int = 20,
               compare: int = 0) -> tuple:
    """``(game, policies, deck, rules)`` for the kernels; the first ``compare`` policies are
    also played on every deal."""
    game = np.zeros(N_GCOLS, np.int64)
    game[G_BANK1:G_BANK3 + 1] = bank
    game[G_LEVEL] = level
    game[G_BIG_BLIND] = big_blind
    game[G_N_CARDS] = deck.n_cards
    game[G_STRENGTH_BINS] = int(strength_bins)
    game[G_BUCKETS] = buckets
    game[G_N_CMP] = compare
    calls = np.array([p.call for p in policies], dtype=np.float64).reshape(-1, 4)
    return (game, calls, deck.kernel_args, rules.kernel_args)


def deals_random(model: OpponentModel, deck: Deck) -> bool:
    """Whether a model's holdings are every two cards, equally likely (dealt from the deck)."""
    rng = parse_range(model.range, deck.game)
    return rng.is_uniform and len(rng) == len(parse_range("random", deck.game))
