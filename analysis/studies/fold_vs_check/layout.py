"""The fold-vs-check kernels' arrays: named columns and the packers that fill them.

The kernels take three tuples (plus the evaluator's tables):

- ``spots = (cells, keys, hero_combos, board_cards)``: ``cells`` int64[n, N_CCOLS]
  (``C_*`` columns: the hero's combos and fixed board as slices of the other two
  arrays, street, opponents, pot, stack, model and policy index), ``keys``
  uint64[n] the generator key of each cell;
- ``opponents = (models, range_lo, range_hi, range_combos, range_cumw)``: per model
  float64[4 streets, 3] (``M_*``) and the slice of the range arrays it deals from
  (empty slice: any two cards, dealt from the deck);
- ``table = (game, policies, deck, rules)``: ``game`` int64[N_GCOLS] (``G_*``: bank,
  blind level, big blind, deck size, whether to tally strength bins), the hero
  policies' call thresholds float64[n_policies, 4], the deck and rule arrays.

Statistics rows are float64[N_STATS] (``S_*`` sums, then the strength and penalty bins).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from analysis.dilemma.decks import Deck
from analysis.dilemma.settlement import Rules

from ..ranges import parse_range
from .models import HeroPolicy, OpponentModel

# cells: int64[n_cells, N_CCOLS]
(C_HERO_LO, C_HERO_HI, C_BOARD_LO, C_BOARD_N, C_STREET, C_NOPP, C_POT, C_STACK, C_MODEL,
 C_POLICY) = range(10)
N_CCOLS = 10

# game: int64[N_GCOLS]
G_BANK1, G_BANK2, G_BANK3, G_LEVEL, G_BIG_BLIND, G_N_CARDS, G_STRENGTH_BINS = range(7)
N_GCOLS = 7

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
N_STATS = PENALTY_BASE + 3 * N_PENALTY_BINS




def cell_row(*, hero: tuple[int, int], board: tuple[int, int], street: int, opponents: int,
             pot: int, stack: int, model: int, policy: int) -> np.ndarray:
    """One row of ``cells``: the hero's combo slice, the fixed board slice and the spot."""
    row = np.zeros(N_CCOLS, np.int64)
    row[C_HERO_LO], row[C_HERO_HI] = hero
    row[C_BOARD_LO], row[C_BOARD_N] = board
    row[C_STREET] = street
    row[C_NOPP] = opponents
    row[C_POT] = pot
    row[C_STACK] = stack
    row[C_MODEL] = model
    row[C_POLICY] = policy
    return row


def pack_opponents(models: Sequence[OpponentModel], deck: Deck) -> tuple:
    """``(models, range_lo, range_hi, range_combos, range_cumw)`` for the opponent models."""
    params = np.array([m.kernel_params() for m in models], dtype=np.float64)
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
    return (params, np.array(lo, np.int64), np.array(hi, np.int64), range_combos, range_cumw)


def pack_table(*, bank: Sequence[int], level: int, big_blind: int, strength_bins: bool,
               policies: Sequence[HeroPolicy], deck: Deck, rules: Rules) -> tuple:
    """``(game, policies, deck, rules)`` for the kernels."""
    game = np.zeros(N_GCOLS, np.int64)
    game[G_BANK1:G_BANK3 + 1] = bank
    game[G_LEVEL] = level
    game[G_BIG_BLIND] = big_blind
    game[G_N_CARDS] = deck.n_cards
    game[G_STRENGTH_BINS] = int(strength_bins)
    calls = np.array([p.call for p in policies], dtype=np.float64).reshape(-1, 4)
    return (game, calls, deck.kernel_args, rules.kernel_args)


def deals_random(model: OpponentModel, deck: Deck) -> bool:
    """Whether a model's holdings are every two cards, equally likely (dealt from the deck)."""
    rng = parse_range(model.range, deck.game)
    return rng.is_uniform and len(rng) == len(parse_range("random", deck.game))
