"""What seeing the flop is worth, per pair of holdings: the check-down continuation.

The pre-flop solve needs, at every terminal where both players see the flop, each
player's value for every pair of holdings. This module states that value as the
*check-down*: nobody bets after the flop, the five board cards come and the hand is
settled by the real rules (the pot, the bonus, the penalty of the river's losers, hand
and board effects, red cards from the turn, the bank's caps): the abstraction of the
pre-flop chart, stated wherever it is shown. It is exact at the all-in level (no betting
is left) and at every level it is what a player gets who never folds after the flop.

The values are means over ``boards`` boards drawn uniformly (seeded; five cards in deal
order, so a red card is the turn or river card as often as in play); each pair is averaged
over the boards that miss its four cards (about 57% of them), so every pair's value is a
sample mean with a standard error that :class:`Continuation` reports.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations

import numpy as np

from analysis.solvers.card_level.dilemma_terminals import DilemmaTable, holding_classes
from evaluator.api import evaluate_batch

from ._kernels import N_SETTING, checkdown_sums, settle_end


def all_holdings(n_cards: int) -> np.ndarray:
    """int64[H, 2]: every two-card holding of an ``n_cards`` deck, cards ascending, rows in order."""
    return np.array(list(combinations(range(n_cards), 2)), dtype=np.int64)


def setting_of(table: DilemmaTable, chips: int) -> np.ndarray:
    """The settlement setting of ``table`` with ``chips`` per player before the hand."""
    out = np.zeros(N_SETTING, np.int64)
    out[:] = (chips, *table.bank, table.level)
    return out


def sample_boards(n_cards: int, boards: int, seed: int) -> np.ndarray:
    """int64[boards, 5]: five distinct cards per board, in deal order, uniformly (seeded)."""
    rng = np.random.default_rng([seed, 0x9F10F])
    return np.argsort(rng.random((boards, n_cards)), axis=1)[:, :5].astype(np.int64)


def board_scores(holdings: np.ndarray, boards: np.ndarray, game: str) -> np.ndarray:
    """int32[B, H]: each holding's score on each board (-1 where they share a card)."""
    b, h = len(boards), len(holdings)
    rows = np.empty((b, h, 7), dtype=np.uint8)
    rows[:, :, :5] = boards[:, None, :]
    rows[:, :, 5:] = holdings[None, :, :]
    hit = (boards[:, :, None, None] == holdings[None, None, :, :]).any(axis=(1, 3))
    scores = np.full((b, h), -1, dtype=np.int32)
    scores[~hit] = evaluate_batch(rows[~hit], game)
    return scores


@dataclass(frozen=True)
class Continuation:
    """Each player's check-down value (chips after the hand less chips before) per pair of holdings,
    at each level of chips put in pre-flop; zero where two holdings share a card."""

    levels: tuple[int, ...]
    holdings: np.ndarray
    """int64[H, 2] card ids."""
    classes: np.ndarray
    """int64[H]: each holding's settlement class (its green cards)."""
    reps: np.ndarray
    """int64[K, 2]: a holding of each class."""
    values: np.ndarray
    """float64[L, 2, H, H]: ``values[l, p, i, j]``: player ``p``'s mean payoff when player 0 (the big
    blind) holds ``i``, player 1 ``j``, both having put ``levels[l]`` in."""
    counts: np.ndarray
    """int64[H, H]: boards averaged per pair."""
    boards: int
    seed: int
    se: tuple[float, ...]
    """Per level, the root mean square over pairs of the standard error of player 0's pair value."""
    line_edges: dict[str, np.ndarray] = field(default_factory=dict)
    """Per pre-flop line that sees the flop (``"call / check"``), float64[2, H]: each player's edge for its
    own holding there, added to its value of every pair at that line's terminal (a continuation whose
    postflop play depends on the line, not only on the level: :mod:`analysis.studies.consistent_chart`)."""

    @property
    def compatible(self) -> np.ndarray:
        """bool[H, H]: pairs of holdings without a shared card."""
        return self.counts > 0


def checkdown_continuation(table: DilemmaTable, levels: tuple[int, ...], chips: int, boards: int = 2000,
                           seed: int = 0) -> Continuation:
    """The check-down values of ``table`` at each level (chips put in by each player) over ``boards``
    seeded boards (see the module docstring)."""
    spec = table.deck.spec
    holdings = all_holdings(spec.n_cards)
    (cls,), reps, _ = holding_classes(table.deck, [holdings])
    drawn = sample_boards(spec.n_cards, boards, seed)
    scores = board_scores(holdings, drawn, spec.name)
    k, nl = len(reps), len(levels)
    tab = np.zeros((boards, nl, 2, 3, k, k))  # settle_end's layout, rearranged below
    setting = setting_of(table, chips)
    deck, rules = table.deck.kernel_args, table.rules.kernel_args
    for b in range(boards):
        for lv, put in enumerate(levels):
            settle_end(np.array([put, put, -1], np.int64), drawn[b], reps, setting, deck, rules, tab[b, lv])
    h = len(holdings)
    sums = np.zeros((2 * nl, h, h))
    counts = np.zeros((h, h), np.int64)
    rows = np.ascontiguousarray(tab.transpose(0, 4, 5, 3, 1, 2).reshape(boards, k, k, 3, 2 * nl))
    checkdown_sums((holdings, cls), (scores, rows), (sums, counts))
    sums = sums.reshape(nl, 2, h, h)
    with np.errstate(invalid="ignore", divide="ignore"):
        values = np.where(counts > 0, sums / np.maximum(counts, 1), 0.0)
    se = tuple(_level_se(tab[:, lv, 0], scores, cls, counts) for lv in range(nl))
    return Continuation(tuple(levels), holdings, cls, reps, values, counts, boards, seed, se)


def _level_se(tab0: np.ndarray, scores: np.ndarray, cls: np.ndarray, counts: np.ndarray, pairs: int = 400,
              seed: int = 7) -> float:
    """Root mean square standard error of player 0's pair mean at one level, over ``pairs`` pairs
    drawn at random (the sample standard deviation of the pair's payoffs over its boards)."""
    rng = np.random.default_rng(seed)
    h = counts.shape[0]
    out = []
    while len(out) < pairs:
        i, j = rng.integers(0, h, 2)
        if counts[i, j] < 2:
            continue
        si, sj = scores[:, i], scores[:, j]
        ok = (si >= 0) & (sj >= 0)
        o = np.where(si[ok] > sj[ok], 0, np.where(si[ok] == sj[ok], 1, 2))
        pay = tab0[ok][np.arange(ok.sum()), o, cls[i], cls[j]]
        out.append(pay.var(ddof=1) / len(pay))
    return float(np.sqrt(np.mean(out)))
