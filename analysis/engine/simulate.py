"""Batch play from Python: many single hands at one table, with or without action logs.

:func:`play_hands` runs the numba kernel on a table (:class:`TableSetup`) with one
policy per seat; each hand is seeded by its number alone (cards and action choices),
so results do not depend on the thread count. With ``log=True`` every action and the
legal menu the kernel saw are returned, which the tests replay through the referee.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from analysis.core.rng import derive_key
from analysis.core.threads import numba_threads, run_tasks
from analysis.dilemma.decks import load_deck
from evaluator.tables import get_tables

from . import _batch as B
from ._layout import CD_N_CARDS, MAX_LOG, N_LCOLS, N_XCOLS, X_N_ACTIONS, dilemma_arg
from .errors import TableError
from .policy import Policy, compile_policies, load_policy
from .preflop import preflop_strength
from .table import TableSetup

HAND_CHUNK = 256
"""Hands per task when playing on threads (each hand is seeded by its number alone)."""


@dataclass(frozen=True)
class HandBatch:
    """Results of :func:`play_hands`: per hand the final stacks and the kernel's summary row."""

    stacks: np.ndarray
    """int64[hands, n]: stacks after each hand (each hand starts from the table's stacks)."""
    summary: np.ndarray
    """int64[hands, N_XCOLS]: ``_kernel.X_*`` (last round, showdown, flags, penalty, bonus, ...)."""
    logs: np.ndarray | None
    """int64[hands, MAX_LOG, N_LCOLS] with logging: street, seat, kind, to, then the legal menu."""
    cards: np.ndarray | None
    """int64[hands, deal size]: the hole cards by seat then the board (with logging)."""


def kernel_inputs(setup: TableSetup, policies: Sequence[str | Policy]) -> tuple:
    """The grouped kernel inputs of a table: structure, compiled policies, cards data."""
    spec = setup.spec
    deck = load_deck(setup.deck)
    if deck.game != spec.name:
        raise TableError(f"the {deck.name} deck is for {deck.game}, the table plays {spec.name}")
    pols = [load_policy(p) for p in policies]
    cardsdata = (get_tables(spec).kernel_args, deck.kernel_args, preflop_strength(spec.name),
                 spec.n_cards, spec.settlement == "dilemma", setup.rules.kernel_args)
    return setup.structure.kernel_args, compile_policies(pols), cardsdata, pols


def play_hands(setup: TableSetup, policies: Sequence[str | Policy], hands: int, *, seed: int = 0,
               first: int = 0, log: bool = False, threads: int | None = None) -> HandBatch:
    """Play ``hands`` independent hands at ``setup`` (DEALER = hand number mod seats), one
    policy per seat (or one for all); seeded by ``seed`` and the hand number alone."""
    setup.validate()
    n = setup.n
    if len(policies) == 1:
        policies = list(policies) * n
    if len(policies) != n:
        raise TableError(f"policies: one per seat ({n}) or one for all, got {len(policies)}")
    structure, pols, cardsdata, _ = kernel_inputs(setup, policies)
    key_cards = derive_key(seed, "engine-cards")
    key_actions = derive_key(seed, "engine-actions")
    stacks0 = np.array(setup.stacks, np.int64)
    seat_pols = np.arange(n, dtype=np.int64)
    blinds = np.array(setup.blinds, np.int64)
    bank = np.array(setup.bank, np.int64)
    stacks = np.zeros((hands, n), np.int64)
    summary = np.zeros((hands, N_XCOLS), np.int64)
    keys, game = (key_cards, key_actions), (structure, pols, cardsdata)
    dilemma = dilemma_arg(cardsdata)
    seating, table = (n, stacks0, seat_pols), (blinds, bank, int(setup.blind_level))
    if log:
        logs = np.zeros((hands, MAX_LOG, N_LCOLS), np.int64)
        B.play_hands_serial(keys, (first, hands), seating, table, game, (stacks, summary, logs), dilemma)
        cards = np.zeros((hands, setup.spec.deal_size(n)), np.int64)
        B.hand_cards(key_cards, first, hands, n, cardsdata[CD_N_CARDS], cards)
        return HandBatch(stacks, summary, logs, cards)
    no_logs = np.zeros((0, 1, N_LCOLS), np.int64)

    def chunk(c: int) -> None:
        lo, hi = c * HAND_CHUNK, min(hands, (c + 1) * HAND_CHUNK)
        B.play_hands_serial(keys, (first + lo, hi - lo), seating, table, game,
                            (stacks[lo:hi], summary[lo:hi], no_logs), dilemma)

    with numba_threads(threads):
        run_tasks(chunk, -(-hands // HAND_CHUNK))
    return HandBatch(stacks, summary, None, None)


def hand_histories(setup: TableSetup, policies: Sequence[str | Policy], hands: int, *, seed: int = 0,
                   first: int = 0) -> list[dict]:
    """``hands`` kernel hands as hand-history lines: each replayed by the referee (every action
    checked), its result recomputed there and written with it (``docs/hand_history.md``)."""
    from dataclasses import replace

    from .history import history_from_log, history_line, replay

    batch = play_hands(setup, policies, hands, seed=seed, first=first, log=True)
    assert batch.logs is not None and batch.cards is not None
    lines = []
    for h in range(hands):
        table = replace(setup, dealer=(first + h) % setup.n)
        count = int(batch.summary[h, X_N_ACTIONS])
        if count > batch.logs.shape[1]:
            raise TableError(f"hand {first + h}: more than {batch.logs.shape[1]} actions to log")
        raw = history_from_log(table, batch.cards[h], batch.logs[h], count)
        hand, result = replay(raw, f"hand {first + h}", check_result=False)
        if list(result.stacks) != list(batch.stacks[h]):  # pragma: no cover - the kernel's twin test
            raise AssertionError(f"hand {first + h}: kernel and referee disagree")
        lines.append(history_line(hand, result, number=first + h))
    return lines
