"""Showdown sweeps without data-dependent branches: prefix sums read at precomputed positions.

A showdown's value for a holding is the opponent's reach below it (above it) in strength,
less the reach of the holdings that share one of its cards. The classic sweep
(postflop-solver's) walks both sorted lists together and scatters each opponent reach into
per-card totals: one chain of dependent additions at a time, inside an inner loop that runs a
data-dependent number of times per holding. The positions it stops at depend on the board
only, so they are computed once here (:func:`sweep_tables`): per holding, how many opponent
holdings lie below it, how many lie at or below it and, per card, how many of the opponent
holdings holding that card do. A showdown then forms prefix sums of the opponent's reach in
strength order, overall and per card (:func:`prefix_sums`, independent chains side by side),
and reads them at those positions. One direction is enough: the reach *above* a holding is
the compatible total (the per-card totals at each segment's end) less the reach *at or below*
it, so the sums run once, not up and down: one thread, an iteration of the Dilemma flop 4s9h3d
1.42 -> 1.23 s, of the Texas flop with every holding 2.09 -> 1.85 s (results/benchmarks.md, issue
17, twenty-third session). The reach above now carries rounding of the order of the total's last
bit rather than its own, which moves a solve's trajectory as any rounding change does (not its
accuracy: the same section). Before that the prefix sums had saved 4-9% of a Texas turn iteration
against the sweep, 11% of the Dilemma turn's (seventh session); a sweep that skips the opponent's
zero reach (postflop-solver's) was 21% slower than the two-direction sums on the Dilemma flop,
about 35% slower than these (twenty-third session).

Layout, per player ``p`` and river board ``b`` (``size`` holdings at most, ``n_cards`` cards):

- ``src[p, b, :]``: player ``p``'s holdings in per-card segments as an opponent, card ``c``'s
  segment at ``off[c] .. off[c] + m_c`` (``m_c`` holdings hold ``c``): a ``-1`` (the
  segment's start, a zero sum) then the holdings in increasing strength; ``2 count +
  n_cards`` slots used.
- ``ends[p, b, c]``: ``off[c] + m_c``, the slot of card ``c``'s total; ``ends[p, b, n_cards]``
  a segment start near the middle (the two halves are summed side by side).
- ``idx[p, b, i, k]`` for player ``p``'s ``i``-th holding by strength as the traverser (one
  row per holding: a showdown reads one short row, not eleven arrays): ``k = UP_N`` the number of
  weaker opponent holdings, ``UP_C1, UP_C2`` the slots of its two cards' sums over them;
  ``LE_*`` the same for the holdings at most as strong; ``RW_HOLDING`` the holding;
  ``RW_END1, RW_END2`` the slots of its cards' totals (``ends``); with Dilemma's columns
  (``classes`` given): ``RW_CLASS`` its payoff class and ``RW_SAME`` the opponent's identical
  holding (-1: none). Everything a showdown reads per holding apart from the reach sums
  depends on the board only, so it is gathered here once per spot (measured: 14-17% of a
  Dilemma showdown's time, results/benchmarks.md, issue 17, twelfth session).

With ``W`` the compatible reach below a holding, ``X0`` the compatible total (``T - e1 - e2``,
``e`` the per-card totals) and ``LE`` the reach at or below it less its cards' (the identical
holding, at equal strength and holding both cards, counts -1 in both ``X0`` and ``LE``), the
reach above it is ``X0 - LE``.
"""

from __future__ import annotations

import numpy as np

from evaluator.jit import kernel

from ._precision import like

UP_N, UP_C1, UP_C2, LE_N, LE_C1, LE_C2 = range(6)
RW_HOLDING, RW_END1, RW_END2, RW_CLASS, RW_SAME = range(6, 11)
N_RW_HOLDEM, N_RW_DILEMMA = 9, 11  # columns of ``idx``: Texas Hold'em reads the first nine
W_CARD, W_ALL = range(2)  # rows of the scratch ``work`` (real[N_WORK, slots]: the solver's precision)
N_WORK = 2


def slots(size: int, n_cards: int) -> int:
    """Scratch row length for ``size`` holdings a player and ``n_cards`` cards."""
    return 2 * size + n_cards + 1


@kernel
def sweep_tables(showdown, n_cards, holders):
    """``(idx, src, ends)`` (see the module) from the holdings sorted by strength per board
    (``showdown`` = (count, holding, score, cards)); ``holders`` = (classes, same): each
    player's holdings' payoff classes and identical opponent holdings (int64[2, H]), or
    empty ``(2, 0)`` arrays (Texas Hold'em: no Dilemma columns)."""
    count, holding, score, cards = showdown
    classes, same = holders
    n_b = count.shape[1]
    size = holding.shape[2]
    n_rw = N_RW_DILEMMA if classes.shape[1] > 0 else N_RW_HOLDEM
    idx = np.zeros((2, n_b, size, n_rw), dtype=np.int16)
    src = np.full((2, n_b, 2 * size + n_cards), -1, dtype=np.int16)
    ends = np.zeros((2, n_b, n_cards + 1), dtype=np.int16)
    off = np.zeros(n_cards + 1, dtype=np.int64)
    cnt = np.zeros(n_cards, dtype=np.int64)
    for o in range(2):
        t = 1 - o
        for b in range(n_b):
            no = count[o, b]
            so, co, ho = score[o, b], cards[o, b], holding[o, b]
            cnt[:] = 0
            for j in range(no):
                cnt[co[j, 0]] += 1
                cnt[co[j, 1]] += 1
            for c in range(n_cards):
                off[c + 1] = off[c] + cnt[c] + 1
                ends[o, b, c] = off[c] + cnt[c]
            half = 0  # a segment start near the middle: the two halves are summed side by side
            while off[half] * 2 < off[n_cards]:
                half += 1
            ends[o, b, n_cards] = off[half]
            cnt[:] = 0
            for j in range(no):
                for e in range(2):
                    c = co[j, e]
                    cnt[c] += 1
                    src[o, b, off[c] + cnt[c]] = ho[j]
            nt = count[t, b]
            st, ct = score[t, b], cards[t, b]
            cnt[:] = 0
            j = 0
            for i in range(nt):
                while j < no and so[j] < st[i]:
                    cnt[co[j, 0]] += 1
                    cnt[co[j, 1]] += 1
                    j += 1
                idx[t, b, i, UP_N] = j
                idx[t, b, i, UP_C1] = off[ct[i, 0]] + cnt[ct[i, 0]]
                idx[t, b, i, UP_C2] = off[ct[i, 1]] + cnt[ct[i, 1]]
                h = holding[t, b, i]
                idx[t, b, i, RW_HOLDING] = h
                idx[t, b, i, RW_END1] = ends[o, b, ct[i, 0]]
                idx[t, b, i, RW_END2] = ends[o, b, ct[i, 1]]
                if n_rw > N_RW_HOLDEM:
                    idx[t, b, i, RW_CLASS] = classes[t, h]
                    idx[t, b, i, RW_SAME] = same[t, h]
            cnt[:] = 0
            j = no - 1
            for i in range(nt - 1, -1, -1):
                while j >= 0 and so[j] > st[i]:
                    cnt[co[j, 0]] += 1
                    cnt[co[j, 1]] += 1
                    j -= 1
                idx[t, b, i, LE_N] = j + 1
                idx[t, b, i, LE_C1] = ends[o, b, ct[i, 0]] - cnt[ct[i, 0]]
                idx[t, b, i, LE_C2] = ends[o, b, ct[i, 1]] - cnt[ct[i, 1]]
    return idx, src, ends


@kernel(inline=True)
def prefix_sums(opp_src, ho, no, opp_ends, reach, work):
    """The opponent's reach summed in strength order into ``work``: overall (``W_ALL``: the
    ``k`` weakest) and per card (``W_CARD``, laid out as ``src``).

    ``opp_src``, ``opp_ends``: ``src[opp, b]``, ``ends[opp, b]``; ``ho``: the opponent's
    holdings by strength on that board. The sums are independent chains of additions, run side
    by side (the overall sum and the two halves of the per-card segments) so that the processor
    overlaps their latencies.
    """
    pu = work[W_ALL]
    gu = work[W_CARD]
    zero = like(work, 0.0)  # (sums in the solver's precision)
    n_cards = opp_ends.shape[0] - 1
    n_slots = 2 * no + n_cards
    mid = opp_ends[n_cards]
    a = zero
    a1 = zero
    a2 = zero
    pu[0] = 0.0
    k2 = mid
    for k in range(mid):  # the first half beside the second, and the overall sum beside both
        if k < no:  # (all of it: mid >= no)
            a += reach[ho[k]]
            pu[k + 1] = a
        x = opp_src[k]
        a1 = a1 + reach[x] if x >= 0 else zero
        gu[k] = a1
        if k2 < n_slots:
            x = opp_src[k2]
            a2 = a2 + reach[x] if x >= 0 else zero
            gu[k2] = a2
            k2 += 1
    while k2 < n_slots:  # (mid >= no: the first half holds at least half of 2 no + n_cards slots)
        x = opp_src[k2]
        a2 = a2 + reach[x] if x >= 0 else zero
        gu[k2] = a2
        k2 += 1
