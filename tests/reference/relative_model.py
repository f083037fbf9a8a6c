"""A slow count of a relative (range-aware) opponent model's decisions, checked against the kernel.

Each opponent's range starts as every holding off the flop, equally likely. On
each street its relative strength is the share of its range its holding beats
(ties half, the holding itself counted once among the ties); it would bet from
the street's bet threshold up and call from the call threshold up; after the
round, the range keeps the holdings that would have acted as it did.
"""

from __future__ import annotations

import bisect
import itertools
import random

import numpy as np

from analysis.studies.fold_vs_check._deal import (
    DL_BOARD,
    DL_HOLES,
    DL_WOULD_BET,
    DL_WOULD_CALL,
    new_deal,
    relative_script,
)
from analysis.studies.fold_vs_check.models import load_model
from analysis.studies.fold_vs_check.plan import strength_sources
from evaluator.tables import get_tables
from tests.reference.fold_vs_check import strength


def slow_script(board, holes, model, street0=1):
    n = len(holes)
    params = model.params
    flop = set(board[: street0 + 2])
    ranges = {j: {p for p in itertools.combinations(range(40), 2) if not set(p) & flop}
              for j in range(1, n)}
    live = {j: True for j in range(1, n)}
    wb = np.zeros((4, n), bool)
    wc = np.zeros((4, n), bool)
    for s in range(street0, 4):
        seen = tuple(board[: s + 2])
        bet, _size, call = params[s]
        off = [c for c in range(40) if c not in seen]
        value = {p: strength(p, seen) for p in itertools.combinations(off, 2)}

        def rel(h, rng, value=value):
            mine = value[h]
            below = sum(1 for p in rng if value[p] < mine)
            equal = sum(1 for p in rng if value[p] == mine)
            return (below + 0.5 * equal) / len(rng)

        for j in range(1, n):
            if not live[j]:
                continue
            rng = [p for p in ranges[j] if not set(p) & set(seen)]
            r = rel(tuple(sorted(holes[j])), rng)
            wb[s, j] = bet <= 1.0 and r >= bet
            wc[s, j] = call <= 0.0 or (call <= 1.0 and r >= call)
        bettor = next((j for j in range(1, n) if live[j] and wb[s, j]), -1)
        for j in range(1, n):
            if not live[j]:
                continue
            first = bettor < 0 or j <= bettor
            faced = bettor >= 0 and j != bettor
            called = faced and wc[s, j]
            if faced and not called:
                live[j] = False
                continue
            rng = [p for p in ranges[j] if not set(p) & set(seen)]
            ordered = sorted(value[p] for p in rng)
            keep = set()
            for p in rng:
                v = value[p]
                r = (bisect.bisect_left(ordered, v)
                     + 0.5 * (bisect.bisect_right(ordered, v) - bisect.bisect_left(ordered, v))) / len(rng)
                would_bet = bet <= 1.0 and r >= bet
                would_call = call <= 0.0 or (call <= 1.0 and r >= call)
                if (first and would_bet != (j == bettor)) or (called and not would_call):
                    continue
                keep.add(p)
            ranges[j] = keep
        if not any(live.values()):
            break
    return wb, wc


def check_relative_script(seed: int, deals: int, model: str = "tight") -> None:
    """Assert that the kernel's would-bet/would-call match the slow count on random deals."""
    m = load_model(model)
    params = m.kernel_params()
    rng = random.Random(seed)
    tables = get_tables("dilemma").kernel_args
    n_pairs = 40 * 39 // 2
    for _ in range(deals):
        n = rng.choice((2, 3))
        cards = rng.sample(range(40), 5 + 2 * n)
        board, holes = cards[:5], [tuple(cards[5 + 2 * i: 7 + 2 * i]) for i in range(n)]
        dl = new_deal(n, 40)
        dl[DL_BOARD][:] = board
        dl[DL_HOLES][:] = np.array(holes)
        dl[DL_WOULD_BET][:] = False
        dl[DL_WOULD_CALL][:] = False
        relative_script(1, dl, n, params, (strength_sources("dilemma", False), tables), 40,
                        (np.zeros((n, n_pairs)), np.zeros(n_pairs, np.int64),
                         np.zeros(2 * n_pairs + 2)))
        wb, wc = slow_script(board, holes, m)
        assert ((dl[DL_WOULD_BET][1:, 1:] == wb[1:, 1:]).all()
                and (dl[DL_WOULD_CALL][1:, 1:] == wc[1:, 1:]).all()), (board, holes)
