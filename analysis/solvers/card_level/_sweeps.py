"""Showdown sweeps without data-dependent branches: prefix sums read at precomputed positions.

A showdown's value for a holding is the opponent's reach below it (above it) in strength,
less the reach of the holdings that share one of its cards. The classic sweep
(postflop-solver's) walks both sorted lists together and scatters each opponent reach into
per-card totals: one chain of dependent additions at a time, inside an inner loop that runs a
data-dependent number of times per holding. The positions it stops at depend on the board
only, so they are computed once here (:func:`sweep_tables`): per holding, how many opponent
holdings lie below (above) it and, per card, how many of the opponent holdings holding that
card. A showdown then forms prefix sums of the opponent's reach in strength order, overall and
per card, four chains side by side (:func:`prefix_sums`: the same additions in the same order
as the sweep; the sweep skipped zero reach, and adding 0.0 to a non-negative sum changes
nothing), and reads them at those positions: the same numbers bit for bit. Measured: 4-9% of
a Texas turn iteration, 11% of the Dilemma turn's (results/benchmarks.md, issue 17, seventh
session).

Layout, per player ``p`` and river board ``b`` (``size`` holdings at most, ``n_cards`` cards):

- ``src[p, b, 0 | 1, :]``: player ``p``'s holdings in per-card segments as an opponent,
  card ``c``'s segment at ``off[c] .. off[c] + m_c`` (``m_c`` holdings hold ``c``): a ``-1``
  (the segment's start, a zero sum) then the holdings in increasing (``0``) or decreasing
  (``1``) strength; ``2 count + n_cards`` slots used.
- ``ends[p, b, c]``: ``off[c] + m_c``, the slot of card ``c``'s total.
- ``idx[p, b, i, k]`` for player ``p``'s ``i``-th holding by strength as the traverser (one
  row per holding: a showdown reads one short row, not eleven arrays): ``k = UP_N`` the number of
  weaker opponent holdings, ``UP_C1, UP_C2`` the slots of its two cards' sums over them;
  ``DN_*`` the same for the stronger ones; ``RW_HOLDING`` the holding; with Dilemma's columns
  (``classes`` given): ``RW_END1, RW_END2`` the slots of its cards' totals (``ends``),
  ``RW_CLASS`` its payoff class and ``RW_SAME`` the opponent's identical holding (-1: none).
  Everything a showdown reads per holding apart from the reach sums depends on the board only,
  so it is gathered here once per spot (measured: 14-17% of a Dilemma showdown's time, results/
  benchmarks.md, issue 17, twelfth session).
"""

from __future__ import annotations

import numpy as np

from evaluator.jit import kernel

from ._precision import like

UP_N, UP_C1, UP_C2, DN_N, DN_C1, DN_C2 = range(6)
RW_HOLDING, RW_END1, RW_END2, RW_CLASS, RW_SAME = range(6, 11)
N_RW_HOLDEM, N_RW_DILEMMA = 7, 11  # columns of ``idx``: Texas Hold'em reads the first seven
W_CARD_UP, W_CARD_DN, W_ALL_UP, W_ALL_DN = range(4)  # rows of the scratch ``work`` (real[N_WORK, slots]: the solver's precision)
N_WORK = 4


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
    src = np.full((2, n_b, 2, 2 * size + n_cards), -1, dtype=np.int16)
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
            for layer in range(2):
                cnt[:] = 0
                for jj in range(no):
                    j = jj if layer == 0 else no - 1 - jj
                    for e in range(2):
                        c = co[j, e]
                        cnt[c] += 1
                        src[o, b, layer, off[c] + cnt[c]] = ho[j]
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
                if n_rw > N_RW_HOLDEM:
                    idx[t, b, i, RW_END1] = ends[o, b, ct[i, 0]]
                    idx[t, b, i, RW_END2] = ends[o, b, ct[i, 1]]
                    idx[t, b, i, RW_CLASS] = classes[t, h]
                    idx[t, b, i, RW_SAME] = same[t, h]
            cnt[:] = 0
            j = no - 1
            for i in range(nt - 1, -1, -1):
                while j >= 0 and so[j] > st[i]:
                    cnt[co[j, 0]] += 1
                    cnt[co[j, 1]] += 1
                    j -= 1
                idx[t, b, i, DN_N] = no - 1 - j
                idx[t, b, i, DN_C1] = off[ct[i, 0]] + cnt[ct[i, 0]]
                idx[t, b, i, DN_C2] = off[ct[i, 1]] + cnt[ct[i, 1]]
    return idx, src, ends


@kernel(inline=True)
def prefix_sums(opp_src, ho, no, opp_ends, reach, work):
    """The opponent's reach summed in strength order into ``work``: overall (``W_ALL_UP``, ``W_ALL_DN``:
    the ``k`` weakest, strongest) and per card (``W_CARD_UP``, ``W_CARD_DN``, laid out as ``src``).

    ``opp_src``, ``opp_ends``: ``src[opp, b]``, ``ends[opp, b]``; ``ho``: the opponent's
    holdings by strength on that board. Each sum starts at 0.0 and adds in sweep order, so it
    equals the sweep's running total. The sums are independent chains of additions, run side
    by side (up and down, and the two halves of the per-card segments) so that the processor
    overlaps their latencies.
    """
    pu = work[W_ALL_UP]
    pd = work[W_ALL_DN]
    zero = like(work, 0.0)  # (sums in the solver's precision)
    a = zero
    z = zero
    pu[0] = 0.0
    pd[0] = 0.0
    for j in range(no):
        a += reach[ho[j]]
        z += reach[ho[no - 1 - j]]
        pu[j + 1] = a
        pd[j + 1] = z
    n_cards = opp_ends.shape[0] - 1
    n_slots = 2 * no + n_cards
    mid = opp_ends[n_cards]
    gu = work[W_CARD_UP]
    gd = work[W_CARD_DN]
    su = opp_src[0]
    sd = opp_src[1]
    a1 = zero
    a2 = zero
    z1 = zero
    z2 = zero
    k2 = mid
    for k in range(mid):  # the first half beside the second
        x = su[k]
        a1 = a1 + reach[x] if x >= 0 else zero
        gu[k] = a1
        x = sd[k]
        z1 = z1 + reach[x] if x >= 0 else zero
        gd[k] = z1
        if k2 < n_slots:
            x = su[k2]
            a2 = a2 + reach[x] if x >= 0 else zero
            gu[k2] = a2
            x = sd[k2]
            z2 = z2 + reach[x] if x >= 0 else zero
            gd[k2] = z2
            k2 += 1
    while k2 < n_slots:
        x = su[k2]
        a2 = a2 + reach[x] if x >= 0 else zero
        gu[k2] = a2
        x = sd[k2]
        z2 = z2 + reach[x] if x >= 0 else zero
        gd[k2] = z2
        k2 += 1
