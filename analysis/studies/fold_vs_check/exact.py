"""Exact answers for small spots: every deal of a river or turn spot with the hero's cards and the
board known, 1 or 2 opponents holding random cards (each holding equally likely; on the turn,
every river card too). When opponents act before the hero, only the deals where they check
are the spot's (still equally likely).

The best response here is exact: its information sets are the public histories
(the hero's cards and the board are fixed), and backward induction over every
deal's decision chain picks, in each, the action with the larger total. The same
chains give the exact value of any other continuation, such as the abstract best
response trained by simulation, so the value the abstraction loses is measured.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analysis.core.threads import run_tasks
from evaluator.tables import get_tables

from . import _kernels as K
from ._play import CONTINUE, EXACT, FIXED, MAX_DECISIONS, TABLE
from .cells import Cells, SpotError
from .layout import CE_POSITION, N_STATS, n_infos, relative_models
from .plan import strength_sources


@dataclass
class ExactSpot:
    """The deals of a small spot, their decision chains and the exact best response."""

    compiled: Cells
    deals: np.ndarray
    chains: tuple
    fold_now: np.ndarray
    keys: np.ndarray
    """The exact information sets (sorted level-and-history keys)."""
    plan: np.ndarray
    plan_no_free: np.ndarray
    reach: np.ndarray
    """The share of deals that reach each exact information set."""

    def policy(self, no_free: bool = False) -> tuple:
        """The exact best response as a policy of the kernels."""
        policies = self.compiled.kernel_inputs()[2][1]
        return (EXACT, policies[0], self.plan_no_free if no_free else self.plan, self.keys)

    def value(self, policy: tuple, use_keys: bool = False) -> float:
        """The exact value of checking and continuing by ``policy``."""
        return float(K.chain_values(self.chains, policy, use_keys).mean())

    def fixed_value(self, index: int) -> float:
        """The exact value of checking and continuing by fixed policy ``index``."""
        policies = self.compiled.kernel_inputs()[2][1]
        return self.value((FIXED, policies[index], np.zeros(0), np.zeros(0, np.int64)))

    def abstract_value(self, plan: np.ndarray) -> float:
        """The exact value of an abstract best response (``plan`` over abstract information
        sets, e.g. trained by simulation)."""
        policies = self.compiled.kernel_inputs()[2][1]
        return self.value((TABLE, policies[0], plan, np.zeros(0, np.int64)))

    def abstract_reach(self) -> tuple[np.ndarray, np.ndarray]:
        """The exact best response seen through the abstraction: per abstract information set,
        the share of deals reaching it and the share of those where the plan continues."""
        n_dec, infos, keys = self.chains[0], self.chains[2], self.chains[3]
        width = n_infos(self.compiled.buckets)
        reach = np.zeros(width)
        go = np.zeros(width)
        on_path = np.ones(len(n_dec), bool)
        for k in range(int(n_dec.max(initial=0))):
            live = on_path & (n_dec > k)
            idx = np.searchsorted(self.keys, keys[live, k])
            act = self.plan[idx] > 0.5
            np.add.at(reach, infos[live, k], 1.0)
            np.add.at(go, infos[live, k], act.astype(float))
            stop = np.zeros(len(n_dec), bool)
            stop[np.nonzero(live)[0][~act]] = True
            on_path &= ~stop
        total = len(n_dec)
        with np.errstate(invalid="ignore"):
            return reach / total, np.where(reach > 0, go / np.maximum(reach, 1), -1.0)

    def stats(self, compare: bool = True, fixed: int | None = None) -> np.ndarray:
        """The statistics row of the spot with the exact best response, or with fixed policy
        ``fixed`` when given (and the comparisons)."""
        spots, opponents, table = self.compiled.kernel_inputs()
        stats = np.zeros(N_STATS)
        nofree = self.policy(no_free=True) if compare else (CONTINUE, table[1][0], self.plan,
                                                            self.keys)
        main = self.policy() if fixed is None else (FIXED, table[1][fixed], np.zeros(0),
                                                    np.zeros(0, np.int64))
        game = self.compiled.ctx.deck.game
        strength = (strength_sources(game, False), get_tables(game).kernel_args)
        rows = np.zeros((K.EXACT_BLOCKS, N_STATS))
        continuations, no_chains, relative = (main, nofree), _chains(0), relative_models(opponents)
        run_tasks(lambda b: K.exact_task((K.STATS, b, 0), self.deals, spots, opponents, table, strength,
                                         (no_chains, continuations, rows[b]), relative), K.EXACT_BLOCKS)
        for row in rows:  # a fixed order: the sum never depends on the thread count
            stats += row
        return stats


def _chains(total: int) -> tuple:
    """The decision-chain arrays of ``total`` deals (:func:`._kernels.exact_task`)."""
    width = MAX_DECISIONS
    return (np.zeros(total, np.int64), np.zeros((total, width), np.int64),
            np.zeros((total, width), np.int64), np.zeros((total, width), np.int64),
            np.zeros((total, width)), np.zeros((total, width)), np.zeros(total), np.zeros(total))


def solve_exact(compiled: Cells) -> ExactSpot:
    """Enumerate every deal of the spot (cell 0) and find the exact best response."""
    game = compiled.ctx.deck.game
    spots, opponents, table = compiled.kernel_inputs()
    deals = K.exact_deals(0, spots, table)
    strength = (strength_sources(game, False), get_tables(game).kernel_args)
    always = (CONTINUE, table[1][0], np.zeros(0), np.zeros(0, np.int64))
    relative = relative_models(opponents)
    if spots[0][0, CE_POSITION] > 0:  # the spot's deals: those where the players before check
        keep = np.zeros(len(deals))
        outs = (_chains(0), (always, always), keep)
        run_tasks(lambda b: K.exact_task((K.KEEP, b, 0), deals, spots, opponents, table, strength,
                                         outs, relative), K.EXACT_BLOCKS)
        deals = deals[keep > 0]
        if not len(deals):
            raise SpotError("the opponents before the hero never check on this board with this "
                            "model: the spot cannot happen")
    chains_out = _chains(len(deals))
    outs = (chains_out, (always, always), np.zeros(0))
    run_tasks(lambda b: K.exact_task((K.CHAINS, b, 0), deals, spots, opponents, table, strength, outs,
                                     relative), K.EXACT_BLOCKS)
    n_dec, levels, infos, keys, strengths, folds, cont, fold_now = chains_out
    used = np.arange(keys.shape[1])[None, :] < n_dec[:, None]
    uniq, inverse = np.unique(keys[used], return_inverse=True)
    dense = np.zeros_like(keys)
    dense[used] = inverse
    weight = np.ones(len(n_dec))
    plan = np.zeros(max(len(uniq), 1))
    counts = np.zeros(max(len(uniq), 1))
    training = (n_dec, levels, dense, folds, cont, weight)
    K.backward_induction(training, len(plan), True, plan, counts, False, 0)
    plan_nf = np.zeros_like(plan)
    K.backward_induction(training, len(plan), False, plan_nf, np.zeros_like(plan), False, 0)
    chains = (n_dec, levels, infos, keys, strengths, folds, cont)
    return ExactSpot(compiled, deals, chains, fold_now, uniq, plan, plan_nf,
                     counts / max(len(n_dec), 1))


def abstraction_loss(compiled: Cells, train_deals: int) -> dict[str, float]:
    """What the abstraction costs on a small spot: the exact value of checking with the exact
    best response, and with the abstract best response trained by simulation (its value
    computed exactly on every deal), and their difference (>= 0 up to training noise)."""
    from analysis.runners import run

    from .plan import TrainPlan

    exact = solve_exact(compiled)
    train = TrainPlan(compiled, train_deals)
    plans, _ = train.plans(run(train).totals, 1)
    best = exact.value(exact.policy(), use_keys=True)
    abstract = exact.abstract_value(plans[0])
    return {"exact_best_response": best, "abstract_best_response": abstract,
            "loss": best - abstract, "ev_fold": float(exact.fold_now.mean()),
            "check_down": exact.fixed_value(0), "check_fold": exact.fixed_value(1)}
