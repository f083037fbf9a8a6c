"""Vector-form CFR over a spot's expanded tree: one value per holding at every node.

A traversal for player ``trav`` walks a subtree in depth-first preorder with one
buffer row per depth (no per-node value arrays): ``reach[d]`` is the
opponent's reach of each of its holdings at the open node of depth ``d``
(chance probabilities included; left unwritten below a node the opponent never reaches, where
every value is 0: see :func:`walk`), ``acc[d, a]`` the traverser's counterfactual
values of that node's children, ``vals[d]`` the value of the node just closed.
Values are counterfactual: they carry the opponent's reach and the chance
probability, and are divided by the number of (weighted) holding pairs, so
``sum_h w(h) v_root(h) + pot / 2`` is the player's expected share of the pot.

Terminals cost O(n) per node (postflop-solver's structure): a fold pays a
constant, so a holding's value is the opponent's total reach minus the reach of
holdings sharing one of its cards (per-card totals, the identical holding added
back); a showdown needs, per holding, the opponent's reach below (then above) it in
the order of strength of the river board with the same per-card corrections: the
sweep's running totals, taken here as prefix sums read at positions computed once
per river board (:mod:`._sweeps`: no data-dependent branches, one direction: the reach above a
holding is the compatible total less the reach at or below it).
Holdings are sorted once per river board (O(n log n)).

Iterations follow postflop-solver's DCFR (0-based ``t``): cumulative regrets
times ``t'^1.5 / (t'^1.5 + 1)`` (``t' = max(t - 1, 0)``) where non-negative and
times 0.5 where negative, then plus the new regrets; the cumulative strategy
times ``((t - p) / (t - p + 1))^3`` (``p`` the power of 4 at or below ``t``, so
it restarts at 1, 4, 16, ...) plus the current strategy. CFR+ clips regrets at
zero and averages the strategy linearly. Updates alternate between players.

Exploitability checks: in ``MODE_BR_EV`` one walk per player gives both the best response's
values and the average strategy's (:func:`run` in ``MODE_BR_EV``): the opponent plays its average
strategy in both, so the reach rows and the terminals are shared and only the traverser's
decisions differ (a maximum beside a mix). Dilemma Hold'em needs both (it is not zero-sum):
two walks a check instead of four, the same numbers bit for bit.

Node locking: a decision node whose ``LOCK`` column is set plays the strategy held in
its strategy sums (written there by :meth:`CardSolver.lock`) as both its current and
its average strategy, is never updated, and does not best-respond in a best response.

Parallel: the children of the first chance nodes below the root (the turn
cards of a flop spot, the river cards of a turn spot) are *tasks*; threads take
them one at a time from a queue (:func:`_run_tasks`), each walked with the taking
worker's buffers, and the value rows are summed in task order afterwards, so the
numbers do not depend on the thread count or on who walked what. Suit
isomorphism (postflop-solver's): when swapping two suits leaves the board and
both ranges unchanged, a task whose card is the swapped image of an earlier
task's card is not walked; its values are that task's with the holdings'
suits swapped (exact: the strategies above it stay symmetric). Below a task's
root, a dealt card that a swap fixing the cards dealt so far maps to a lower card
is skipped the same way (``ISO``; postflop-solver does so at every chance node):
the lower card's values, permuted, stand in for its.

Kernel inputs (tuples, one numba type each; the solver's ``_args`` packs them):

- ``tree``: the spot's arrays (:func:`._layout.pack_tree`), read as ``tree[TT_*]``: the
  nodes, each player's holdings, the showdown orders, Dilemma's payoff classes and tables,
  the suit swaps' holding permutations and the sweep positions (:mod:`._layout` names each).
- ``cfr`` = (regrets, sums, iopts, coefs): the solve's state, a float32 row per player of
  cumulative regrets and of strategy sums, and this call's settings (``O_*`` ints, ``C_*``
  floats, both written by the kernels: the traverser, the mode, the DCFR discounts).
- ``bufs`` = (reach, acc, vals, strat, opened, minus, acc2, vals2, work) (``BF_*`` of
  :mod:`._layout`, :func:`._layout.new_pool`): one set of a
  walk's per-depth buffers (see above; ``minus`` the per-card sums of the fold terminals,
  ``work`` the sweeps' prefix sums, ``acc2``/``vals2`` the average strategy's in
  ``MODE_BR_EV``); ``pool``: the same nine arrays with a leading axis of buffer sets
  (``pool[BF_*][c]``: set ``c``'s).
- ``subtrees`` = (tasks, iso, task_vals, chance_reach): the task subtrees' roots, their
  isomorphism (see :func:`_run_tasks`), their value rows (real[layers, tasks, H]) and the
  opponent's reach at their chance nodes (real[tasks, H]).

Precision: ``real`` above is the solver's precision, float64 (the default) or float32, the dtype
of every reach and value row, scratch buffer and payoff table; numba compiles one specialisation
per dtype, and every scalar a kernel computes with follows its arrays (:func:`._precision.like`),
so the float32 one computes in float32 (the cumulative regrets and strategy sums are float32 in
both; ``coefs`` stay float64 and are cast where used).
"""

from __future__ import annotations

import numpy as np
from numba import prange

from evaluator.jit import kernel

from ._atomic import fetch_add
from ._layout import (
    BF_ACC,
    BF_ACC2,
    BF_MINUS,
    BF_OPENED,
    BF_REACH,
    BF_STRAT,
    BF_VALS,
    BF_VALS2,
    BF_WORK,
    IS_NEXT,
    IS_PARENT,
    IS_PERM,
    IS_REF,
    IS_SWAP,
    IS_WORK,
    TT_CARDS,
    TT_COUNT,
    TT_ENDS,
    TT_FOLD_GROUPS,
    TT_FOLD_TAB,
    TT_HANDS,
    TT_HCLASS,
    TT_HOLDING,
    TT_IDX,
    TT_N_HANDS,
    TT_NODES,
    TT_PERM,
    TT_SAME,
    TT_SCORE,
    TT_SHOWDOWN_GROUPS,
    TT_SHOWDOWN_TAB,
    TT_SRC,
)
from ._payoffs import SD_LOSE_MINUS_TIE, SD_TIE, SD_WIN_MINUS_TIE
from ._precision import like
from ._sweeps import (
    LE_C1,
    LE_C2,
    LE_N,
    RW_CLASS,
    RW_END1,
    RW_END2,
    RW_HOLDING,
    RW_SAME,
    UP_C1,
    UP_C2,
    UP_N,
    W_ALL,
    W_CARD,
    prefix_sums,
)
from .tree import AMOUNT as AMT
from .tree import BOARD as BRD
from .tree import (
    CARD,
    CHANCE,
    COUNT,
    DEALT0,
    DEALT1,
    DECISION,
    DEPTH,
    END,
    FOLD,
    IDX,
    ISO,
    KIND,
    LOCK,
    PAY,
    PLAYER,
    SLOT,
    TASK,
)

MODE_CFR, MODE_EV, MODE_BR, MODE_BR_EV = 0, 1, 2, 3
METHOD_DCFR, METHOD_CFR_PLUS = 0, 1
# coefs: float64 per call
C_ALPHA, C_BETA, C_GAMMA, C_HALF_POT, C_INV_PAIRS, C_WEIGHT = range(6)
N_COEFS = 6
# iopts: int64 per call
O_N_CARDS, O_BOARD_LEN, O_METHOD, O_TRAV, O_MODE, O_GAME = range(6)
N_IOPTS = 6
GAME_HOLDEM, GAME_DILEMMA = 0, 1


@kernel
def dcfr_coefs(t, coefs):
    """Fill postflop-solver's DCFR discounts of 0-based iteration ``t`` into ``coefs``."""
    p4 = 0
    if t > 0:
        p4 = 1
        while p4 * 4 <= t:
            p4 *= 4
    ta = float(max(t - 1, 0))
    pa = ta * np.sqrt(ta)
    tg = float(t - p4)
    coefs[C_ALPHA] = pa / (pa + 1.0)
    coefs[C_BETA] = 0.5
    coefs[C_GAMMA] = (tg / (tg + 1.0)) ** 3
    coefs[C_WEIGHT] = float(t + 1)


@kernel
def strategy_into(table, slot, k, n, out, total):
    """A node's strategy into ``out[:k, :n]``: the positive parts of ``table`` normalised (uniform if none).

    On regrets this is regret matching (the current strategy); on strategy sums, the average strategy.
    ``total`` is a scratch row of ``n``. Loops run along holdings (contiguous: they vectorise).
    """
    zero = like(out, 0.0)
    for h in range(n):
        total[h] = zero
    for a in range(k):
        row = table[slot + a * n : slot + (a + 1) * n]  # (a slice: contiguous loads, not a gather)
        for h in range(n):
            x = row[h]
            x = x if x > 0.0 else zero
            out[a, h] = x
            total[h] += x
    u = like(out, 1.0 / k)
    for a in range(k):
        for h in range(n):
            t = total[h]
            out[a, h] = out[a, h] / t if t > 0.0 else u


@kernel
def _dealt_bits(nodes, v):
    """The cards dealt since the root at node ``v`` as a 64-bit mask."""
    bits = np.int64(0)
    if nodes[v, DEALT0] >= 0:
        bits |= np.int64(1) << nodes[v, DEALT0]
    if nodes[v, DEALT1] >= 0:
        bits |= np.int64(1) << nodes[v, DEALT1]
    return bits


@kernel(inline=True)
def terminal_tables(tree):
    """The arrays of ``tree`` the terminals read, as (held, classes, order, strength): (hands,
    same, n_hands), (hclass, fold tables, fold groups, showdown tables, showdown groups), (count,
    holding, idx, src, ends) and (score, cards) (see :func:`fold_value`, :func:`showdown_value`,
    :func:`dilemma_fold_value`, :func:`dilemma_showdown_value`)."""
    held = (tree[TT_HANDS], tree[TT_SAME], tree[TT_N_HANDS])
    classes = (tree[TT_HCLASS], tree[TT_FOLD_TAB], tree[TT_FOLD_GROUPS], tree[TT_SHOWDOWN_TAB],
               tree[TT_SHOWDOWN_GROUPS])
    order = (tree[TT_COUNT], tree[TT_HOLDING], tree[TT_IDX], tree[TT_SRC], tree[TT_ENDS])
    return held, classes, order, (tree[TT_SCORE], tree[TT_CARDS])


@kernel
def fold_value(nodes, v, held, trav, reach, coefs, minus, out):
    """Counterfactual values of the traverser's holdings at fold terminal ``v`` (``held`` = (hands,
    same, n_hands) of ``tree``; ``minus``: real[cards] scratch for the opponent's per-card reach)."""
    hands, same, n_hands = held
    opp = 1 - trav
    pay = like(out, (coefs[C_HALF_POT] + nodes[v, AMT]) * coefs[C_INV_PAIRS])
    if nodes[v, PLAYER] == trav:
        pay = -pay
    total = _card_sums(n_hands[opp], hands[opp], reach, minus)
    dead = _dealt_bits(nodes, v)
    for h in range(n_hands[trav]):
        c1 = hands[trav, h, 0]
        c2 = hands[trav, h, 1]
        if ((np.int64(1) << c1) | (np.int64(1) << c2)) & dead:
            out[h] = 0.0
            continue
        x = total - minus[c1] - minus[c2]
        s = same[trav, h]
        if s >= 0:
            x += reach[s]
        out[h] = pay * x


@kernel(inline=True)
def _card_sums(n, hands, reach, minus):
    """The total of ``reach[:n]`` (returned) and ``minus[card]``, the reach of the holdings holding
    each card. A run of holdings with one first card (holdings come sorted by it) adds into a
    register instead of memory: the same additions in the same order (no holding of the run holds
    that card second), without a store-to-load chain through ``minus`` per holding."""
    minus[:] = 0.0
    total = like(minus, 0.0)
    run_card = hands[0, 0] if n > 0 else 0
    run = like(minus, 0.0)
    for o in range(n):
        r = reach[o]
        if r != 0.0:  # (reach is never negative: skipping zeros changes no sum)
            c1 = hands[o, 0]
            if c1 != run_card:
                minus[run_card] = run
                run_card = c1
                run = minus[c1]
            total += r
            run += r
            minus[hands[o, 1]] += r
    if n > 0:
        minus[run_card] = run
    return total


@kernel
def showdown_value(nodes, v, order, trav, reach, coefs, work, out):
    """Counterfactual values of the traverser's holdings at showdown ``v``: the opponent's reach
    below less above in strength, per-card corrections, read from prefix sums (see :mod:`._sweeps`).

    ``order`` = (count, holding, idx, src, ends) of ``tree``: per player and river board, the
    count of holdings that do not touch the board and those holdings in increasing order of
    strength; their sweep positions (idx, src, ends; ``idx``: one row per holding in that order); ``work``
    real[N_WORK, slots] scratch. Holdings the board blocks get 0.
    """
    count, holding, idx_all, src, ends = order
    opp = 1 - trav
    b = nodes[v, BRD]
    pay = like(out, (coefs[C_HALF_POT] + nodes[v, AMT]) * coefs[C_INV_PAIRS])
    nt = count[trav, b]
    no = count[opp, b]
    prefix_sums(src[opp, b], holding[opp, b], no, ends[opp, b], reach, work)
    idx = idx_all[trav, b]
    gu, pu = work[W_CARD], work[W_ALL]
    total = pu[no]
    out[:] = 0.0
    for i in range(nt):
        q = idx[i]
        below = pu[q[UP_N]] - gu[q[UP_C1]] - gu[q[UP_C2]]
        above = (total - gu[q[RW_END1]] - gu[q[RW_END2]]) - (pu[q[LE_N]] - gu[q[LE_C1]] - gu[q[LE_C2]])
        out[q[RW_HOLDING]] = pay * (below - above)


@kernel(inline=True)
def _class_sums(n_opp, opp_hands, opp_class, groups, reach, sums):
    """Per group ``g`` of the opponent's classes (``groups``: a row of
    :func:`analysis.solvers.card_level.dilemma_terminals.class_groups`): ``sums[g, card]`` the reach of its
    holdings holding ``card`` and ``sums[g, -1]`` its total reach."""
    k = (groups.shape[0] - 1) // 2
    if groups[2 * k] == 1:  # one group: the per-card sums of :func:`fold_value`, the total last
        sums[0, sums.shape[1] - 1] = _card_sums(n_opp, opp_hands, reach, sums[0, : sums.shape[1] - 1])
        return
    for g in range(groups[2 * k]):
        sums[g, :] = 0.0
    for o in range(n_opp):
        r = reach[o]
        if r != 0.0:
            _sweep_add(r, groups[opp_class[o]], opp_hands[o, 0], opp_hands[o, 1], sums)


@kernel(inline=True)
def _sweep_add(r, g, c1, c2, sums):
    """Add reach ``r`` of a holding of group ``g`` with cards ``c1, c2`` to the sums (nothing for 0)."""
    if r == 0.0:
        return
    sums[g, sums.shape[1] - 1] += r
    sums[g, c1] += r
    sums[g, c2] += r


@kernel(inline=True)
def _class_dot(tab, a, groups, sums, c1, c2):
    """``sum_g tab[a, class of g] * (reach of group-g holdings sharing no card with (c1, c2))``,
    the identical holding counted -1 times (callers add it back)."""
    k = (groups.shape[0] - 1) // 2
    last = sums.shape[1] - 1
    x = like(sums, 0.0)
    for g in range(groups[2 * k]):
        t = sums[g, last]
        if t != 0.0:
            x += tab[a, groups[k + g]] * (t - sums[g, c1] - sums[g, c2])
    return x


@kernel
def dilemma_fold_value(nodes, v, tables, trav, reach, coefs, sums, out):
    """Dilemma Hold'em: counterfactual values of the traverser's holdings at fold ``v``.

    ``tab[own class, opponent class]``, the settled payoff of the fold's situation, is
    weighted by the opponent's reach per group of classes that pay alike, with the per-card
    corrections of :func:`fold_value` (O(n x groups)). ``tables``: :func:`terminal_tables`'s (it
    reads ``held`` and ``classes``)."""
    held, classes, _, _ = tables
    hands, same, n_hands = held
    hclass, fold_tab, fold_groups, _, _ = classes
    opp = 1 - trav
    f = nodes[v, PAY]
    tab = fold_tab[f, trav]
    groups = fold_groups[f, trav]
    _class_sums(n_hands[opp], hands[opp], hclass[opp], groups, reach, sums)
    dead = _dealt_bits(nodes, v)
    inv = like(out, coefs[C_INV_PAIRS])
    k = (groups.shape[0] - 1) // 2
    if groups[2 * k] == 1:  # every opponent class pays alike: scalar sums, as Texas Hold'em
        rep = groups[k]
        minus = sums[0]
        total = minus[minus.shape[0] - 1]
        for h in range(n_hands[trav]):
            c1 = hands[trav, h, 0]
            c2 = hands[trav, h, 1]
            if ((np.int64(1) << c1) | (np.int64(1) << c2)) & dead:
                out[h] = 0.0
                continue
            x = total - minus[c1] - minus[c2]
            s = same[trav, h]
            if s >= 0:
                x += reach[s]
            out[h] = tab[hclass[trav, h], rep] * x * inv
        return
    for h in range(n_hands[trav]):
        c1 = hands[trav, h, 0]
        c2 = hands[trav, h, 1]
        if ((np.int64(1) << c1) | (np.int64(1) << c2)) & dead:
            out[h] = 0.0
            continue
        a = hclass[trav, h]
        x = _class_dot(tab, a, groups, sums, c1, c2)
        s = same[trav, h]
        if s >= 0:
            x += tab[a, hclass[opp, s]] * reach[s]
        out[h] = x * inv


@kernel
def dilemma_showdown_value(nodes, v, tables, trav, reach, coefs, scratch, out):
    """Dilemma Hold'em: counterfactual values of the traverser's holdings at showdown ``v``.

    The win payoff less the tie's over the weaker holdings (sweep up by strength), the tie
    payoff against every compatible holding (the sums once that sweep is through, as a fold)
    and the loss payoff less the tie's over the stronger ones (sweep down), each with
    per-group, per-card sums. Holdings the board blocks keep 0. One group (the usual case):
    scalar prefix sums upwards with a payoff per own class, the reach above a holding read
    as the compatible total less the reach at or below it (:func:`_one_group_showdown`). ``tables``:
    :func:`terminal_tables`'s (held, classes, order, (score, cards)); ``scratch`` = ``(sums,
    work)``: the per-group sums and the prefix-sum rows (:func:`prefix_sums`)."""
    sums, work = scratch
    held, classes, order, strength = tables
    same = held[1]
    hclass, _, _, showdown_tab, showdown_groups = classes
    count, holding, idx_all, src, ends = order
    score, cards = strength
    opp = 1 - trav
    b = nodes[v, BRD]
    sid = nodes[v, PAY]
    tab = showdown_tab[sid, trav]
    groups = showdown_groups[sid, trav]
    tie, win, lose = tab[SD_TIE], tab[SD_WIN_MINUS_TIE], tab[SD_LOSE_MINUS_TIE]
    nt = count[trav, b]
    no = count[opp, b]
    ht, st, ct = holding[trav, b], score[trav, b], cards[trav, b]
    ho, so, co = holding[opp, b], score[opp, b], cards[opp, b]
    tc, oc = hclass[trav], hclass[opp]
    k = (groups.shape[0] - 1) // 2
    n_groups = groups[2 * k]
    inv = like(out, coefs[C_INV_PAIRS])
    out[:] = 0.0
    if n_groups == 1:
        prefix_sums(src[opp, b], ho, no, ends[opp, b], reach, work)
        _one_group_showdown(tab, groups[k], (nt, idx_all[trav, b]), (no, reach, work), inv, out)
        return
    # wins: opponent holdings strictly weaker
    for g in range(n_groups):
        sums[g, :] = 0.0
    j = 0
    for i in range(nt):
        sc = st[i]
        while j < no and so[j] < sc:
            o = ho[j]
            _sweep_add(reach[o], groups[oc[o]], co[j, 0], co[j, 1], sums)
            j += 1
        out[ht[i]] = _class_dot(win, tc[ht[i]], groups, sums, ct[i, 0], ct[i, 1])
    # ties, as if against every compatible holding: the finished sweep holds them all
    while j < no:
        o = ho[j]
        _sweep_add(reach[o], groups[oc[o]], co[j, 0], co[j, 1], sums)
        j += 1
    for i in range(nt):
        h = ht[i]
        a = tc[h]
        x = _class_dot(tie, a, groups, sums, ct[i, 0], ct[i, 1])
        s = same[trav, h]
        if s >= 0:
            x += tie[a, oc[s]] * reach[s]
        out[h] += x
    # losses: opponent holdings strictly stronger
    for g in range(n_groups):
        sums[g, :] = 0.0
    j = no - 1
    for i in range(nt - 1, -1, -1):
        sc = st[i]
        while j >= 0 and so[j] > sc:
            o = ho[j]
            _sweep_add(reach[o], groups[oc[o]], co[j, 0], co[j, 1], sums)
            j -= 1
        h = ht[i]
        out[h] = (out[h] + _class_dot(lose, tc[h], groups, sums, ct[i, 0], ct[i, 1])) * inv


@kernel(inline=True)
def _one_group_showdown(tab, rep, mine, theirs, inv, out):
    """:func:`dilemma_showdown_value` when every opponent class pays alike (class ``rep``): the
    win, tie and loss terms from the prefix sums in ``work`` (:func:`._sweeps.prefix_sums`),
    the tie's (against every compatible holding) at the per-card totals.

    ``mine`` = (nt, idx): the traverser's count of holdings clear of the board and their rows by
    strength (:mod:`._sweeps`: sweep positions, the holding, the slots of its cards' totals, its
    class and the opponent's identical holding); ``theirs`` = (no, reach, work): the opponent's
    count, reach and prefix sums."""
    nt, idx = mine
    no, reach, work = theirs
    gu, pu = work[W_CARD], work[W_ALL]
    all_total = pu[no]
    for i in range(nt):
        q = idx[i]
        a = q[RW_CLASS]
        win = tab[SD_WIN_MINUS_TIE, a, rep] * (pu[q[UP_N]] - gu[q[UP_C1]] - gu[q[UP_C2]])
        x = all_total - gu[q[RW_END1]] - gu[q[RW_END2]]
        above = x - (pu[q[LE_N]] - gu[q[LE_C1]] - gu[q[LE_C2]])
        s = q[RW_SAME]
        if s >= 0:
            x += reach[s]
        out[q[RW_HOLDING]] = (win + tab[SD_TIE, a, rep] * x + tab[SD_LOSE_MINUS_TIE, a, rep] * above) * inv


@kernel
def _deposit(nodes, u, d, perm, trav, trav_n, acc, vals):
    """Hand the closed node's values (``vals[d]``) to its parent's accumulator at depth ``d - 1``
    (a dealt card's child also stands in for the siblings that mirror it: ``ISO`` bits; ``perm``
    the suit swaps' holding permutations, ``trav_n`` the traverser's count of holdings).

    Helpers of :func:`walk` take the few arrays they read, not the ``tree`` tuple: numba passes a
    tuple of arrays as every field of every array, and that copying cost 17-28% of a Texas
    turn iteration."""
    if d == 0:
        return
    if nodes[u, CARD] >= 0:
        for h in range(trav_n):
            acc[d - 1, 0, h] += vals[d, h]
        bits = nodes[u, ISO]
        if bits > 0:
            for k in range(perm.shape[0]):
                if bits & (1 << k):
                    for h in range(trav_n):
                        acc[d - 1, 0, h] += vals[d, perm[k, trav, h]]
    else:
        a = nodes[u, IDX]
        for h in range(trav_n):
            acc[d - 1, a, h] = vals[d, h]


@kernel(inline=True)
def _rows(reg, cs, start, n):
    """One action's rows of cumulative regrets and strategy sums, as slices: the loops over them
    then load and store contiguously (indexed as ``reg[start + h]``, numba's negative-index wrap
    made LLVM gather and write element by element)."""
    return reg[start : start + n], cs[start : start + n]


@kernel(inline=True)
def _dcfr_update(rows, gained, value, played, discounts):
    """DCFR's update of one action's rows (``rows`` = (regrets, sums)): regrets discounted by
    ``alpha`` where non-negative and ``beta`` where negative plus the action's gain over the
    node's value, sums discounted by ``gamma`` plus the current strategy ``played``."""
    ra, ca = rows
    alpha, beta, gamma = discounts
    for h in range(ra.shape[0]):
        r = ra[h]
        coef = alpha if r >= 0.0 else beta
        ra[h] = r * coef + (gained[h] - value[h])
        ca[h] = ca[h] * gamma + played[h]


@kernel
def _close(nodes, u, d, perm, n, own, rows):
    """Finish the open node ``u`` at depth ``d``: its value from its children's, and the updates.

    ``own`` = (reg, cs, iopts, coefs): the traverser's cumulative regrets and strategy sums and
    the call's settings; ``rows`` = (acc, vals, strat, acc2, vals2) of the walk's buffers; ``n``
    the traverser's count of holdings; ``perm`` the suit swaps' holding permutations (for :func:`_deposit`)."""
    reg, cs, iopts, coefs = own
    acc, vals, strat, acc2, vals2 = rows
    trav = iopts[O_TRAV]
    mode = iopts[O_MODE]
    kind = nodes[u, KIND]
    k = nodes[u, COUNT]
    v = vals[d]
    if mode == MODE_BR_EV:  # the average-strategy values beside the best response's
        _close_ev(nodes, u, d, n, trav, cs, (strat, acc2, vals2))
        _deposit(nodes, u, d, perm, trav, n, acc2, vals2)
    if kind == CHANCE:
        for h in range(n):
            v[h] = acc[d, 0, h]
    elif nodes[u, PLAYER] != trav:
        for h in range(n):
            v[h] = 0.0
        for a in range(k):
            for h in range(n):
                v[h] += acc[d, a, h]
    elif mode >= MODE_BR and nodes[u, LOCK] == 0:  # MODE_BR or MODE_BR_EV: best response
        for h in range(n):
            v[h] = acc[d, 0, h]
        for a in range(1, k):
            for h in range(n):
                if acc[d, a, h] > v[h]:
                    v[h] = acc[d, a, h]
    else:
        slot = nodes[u, SLOT]
        s = strat[d]
        locked = nodes[u, LOCK] != 0
        if mode != MODE_CFR or locked:
            strategy_into(cs, slot, k, n, s, v)
        else:
            strategy_into(reg, slot, k, n, s, v)
        for h in range(n):
            v[h] = 0.0
        for a in range(k):
            for h in range(n):
                v[h] += s[a, h] * acc[d, a, h]
        if mode == MODE_CFR and not locked:
            if iopts[O_METHOD] == METHOD_DCFR:
                alpha = like(v, coefs[C_ALPHA])
                beta = like(v, coefs[C_BETA])
                gamma = like(v, coefs[C_GAMMA])
                for a in range(k):
                    rows_a = _rows(reg, cs, slot + a * n, n)
                    _dcfr_update(rows_a, acc[d, a], v, s[a], (alpha, beta, gamma))
            else:
                w = like(v, coefs[C_WEIGHT])
                zero = like(v, 0.0)
                for a in range(k):
                    ra, ca = _rows(reg, cs, slot + a * n, n)
                    aa, sa = acc[d, a], s[a]
                    for h in range(n):
                        r = ra[h] + (aa[h] - v[h])
                        ra[h] = r if r > 0.0 else zero
                        ca[h] += w * sa[h]
    _deposit(nodes, u, d, perm, trav, n, acc, vals)


@kernel
def _close_ev(nodes, u, d, n, trav, cs, rows):
    """:func:`_close`'s average-strategy (``MODE_EV``) value of node ``u`` from ``acc2[d]`` into
    ``vals2[d]`` (``rows`` = (strat, acc2, vals2); ``cs`` the traverser's strategy sums), the same
    operations in the same order (bit-identical to an EV traversal)."""
    strat, acc, vals = rows
    kind = nodes[u, KIND]
    k = nodes[u, COUNT]
    v = vals[d]
    if kind == CHANCE:
        for h in range(n):
            v[h] = acc[d, 0, h]
    elif nodes[u, PLAYER] != trav:
        for h in range(n):
            v[h] = 0.0
        for a in range(k):
            for h in range(n):
                v[h] += acc[d, a, h]
    else:
        s = strat[d]
        strategy_into(cs, nodes[u, SLOT], k, n, s, v)
        for h in range(n):
            v[h] = 0.0
        for a in range(k):
            for h in range(n):
                v[h] += s[a, h] * acc[d, a, h]


@kernel(inline=True)
def _reached(row, n):
    """Whether any of the first ``n`` entries of a reach row is not 0."""
    for h in range(n):  # noqa: SIM110 (numba: an early exit, no generator)
        if row[h] != 0.0:
            return True
    return False


@kernel
def _unseen(nodes, u, iopts):
    """Cards a chance node at ``u`` can deal for a given pair of holdings (deck - board - 4)."""
    dealt = (1 if nodes[u, DEALT0] >= 0 else 0) + (1 if nodes[u, DEALT1] >= 0 else 0)
    return iopts[O_N_CARDS] - iopts[O_BOARD_LEN] - dealt - 4


@kernel
def _child_reach(nodes, v, d, u, opp, rows, iopts):
    """The opponent's reach at node ``v`` (depth ``d``) from its parent ``u``'s (``opp`` = (cards
    of the opponent's holdings, their count); ``rows`` = (reach, strat) of the walk's buffers)."""
    opp_hands, n = opp
    reach, strat = rows
    trav = iopts[O_TRAV]
    if nodes[u, KIND] == CHANCE:
        c = nodes[v, CARD]
        inv = like(reach, 1.0 / _unseen(nodes, u, iopts))
        for h in range(n):
            if opp_hands[h, 0] == c or opp_hands[h, 1] == c:
                reach[d, h] = 0.0
            else:
                reach[d, h] = reach[d - 1, h] * inv
    elif nodes[u, PLAYER] == trav:
        for h in range(n):
            reach[d, h] = reach[d - 1, h]
    else:
        a = nodes[v, IDX]
        for h in range(n):
            reach[d, h] = reach[d - 1, h] * strat[d - 1, a, h]


@kernel
def walk(tree, cfr, bufs, root, reach0, phase, subtrees, dilemma):
    """Traverse the subtree at ``root`` (opponent reach ``reach0``); the root's values end in ``bufs[BF_VALS][0]``.

    With ``top``, the chance nodes that own tasks are leaves: their values are the
    sums of ``task_vals[0]`` rows (``values``), or their reach is stored in
    ``chance_reach`` (``values`` false: a forward pass only; both in ``subtrees``). In ``MODE_BR_EV`` the
    best response's values run in ``acc``/``vals`` (``task_vals[0]``) and the average
    strategy's beside them in ``acc2``/``vals2`` (``task_vals[1]``): one walk, terminals
    evaluated once (the opponent's reach is the same in both). ``phase = (top, values)``.
    ``dilemma`` is None for Texas Hold'em (numba then compiles no Dilemma terminal, and for
    Dilemma, typed bool, no Texas one).

    Below a node the opponent reaches with none of its holdings (regret matching gives many
    actions exactly 0), every value is 0: the walk evaluates no terminal and no opponent
    strategy there (its reach and strategy rows stay unwritten), and only the traverser's updates
    run (how many terminals that spares: results/benchmarks.md). The same sums, values, exploitability
    and EVs bit for bit, and equal regrets: a DCFR regret decayed to zero may now be +0.0 where a
    fold into no opponent holding used to leave -0.0.
    """
    nodes, n_hands = tree[TT_NODES], tree[TT_N_HANDS]
    top, values = phase
    regrets, sums, iopts, coefs = cfr
    _, _, task_vals, chance_reach = subtrees
    reach, acc, vals, strat, opened, minus, acc2, vals2, work = bufs
    trav = iopts[O_TRAV]
    opp = 1 - trav
    mode = iopts[O_MODE]
    dual = mode == MODE_BR_EV
    nt = n_hands[trav]
    no = n_hands[opp]
    perm, opp_hands = tree[TT_PERM], tree[TT_HANDS][opp]
    own = (regrets[trav], sums[trav], iopts, coefs)
    rows = (acc, vals, strat, acc2, vals2)
    tables = terminal_tables(tree)
    held, _, order, _ = tables
    base = nodes[root, DEPTH]
    for h in range(no):
        reach[0, h] = reach0[h]
    live = np.empty(reach.shape[0], np.bool_)  # (per depth: does the opponent reach the node at all?)
    live[0] = _reached(reach[0], no)
    n_open = 0
    v = root
    end = nodes[root, END]
    while v < end:
        d = nodes[v, DEPTH] - base
        while n_open > d:
            n_open -= 1
            if values:
                _close(nodes, opened[n_open], n_open, perm, nt, own, rows)
        if d > 0:
            if nodes[v, ISO] < 0:  # mirrors a sibling that stands in for it (see _deposit)
                v = nodes[v, END]
                continue
            u = opened[d - 1]
            if not live[d - 1]:  # below a node the opponent never reaches: nor does it reach this one
                live[d] = False
            else:
                _child_reach(nodes, v, d, u, (opp_hands, no), (reach, strat), iopts)
                live[d] = (nodes[u, KIND] == DECISION and nodes[u, PLAYER] == trav) or _reached(reach[d], no)
        kind = nodes[v, KIND]
        if kind < CHANCE:  # FOLD or SHOWDOWN: a terminal
            if values:
                if not live[d]:  # every value carries the opponent's reach: all 0
                    for h in range(nt):
                        vals[d, h] = 0.0
                elif dilemma is not None:  # (a compile-time branch: see the docstring)
                    if kind == FOLD:
                        dilemma_fold_value(nodes, v, tables, trav, reach[d], coefs, minus, vals[d])
                    else:
                        dilemma_showdown_value(nodes, v, tables, trav, reach[d], coefs, (minus, work), vals[d])
                elif kind == FOLD:
                    fold_value(nodes, v, held, trav, reach[d], coefs, minus[0], vals[d])
                else:
                    showdown_value(nodes, v, order, trav, reach[d], coefs, work, vals[d])
                _deposit(nodes, v, d, perm, trav, nt, acc, vals)
                if dual:
                    for h in range(nt):
                        vals2[d, h] = vals[d, h]
                    _deposit(nodes, v, d, perm, trav, nt, acc2, vals2)
            v += 1
        elif kind == CHANCE and top and nodes[v, TASK] >= 0:
            t0 = nodes[v, TASK]
            if values:
                for h in range(nt):
                    vals[d, h] = 0.0
                for j in range(nodes[v, COUNT]):
                    for h in range(nt):
                        vals[d, h] += task_vals[0, t0 + j, h]
                _deposit(nodes, v, d, perm, trav, nt, acc, vals)
                if dual:
                    for h in range(nt):
                        vals2[d, h] = 0.0
                    for j in range(nodes[v, COUNT]):
                        for h in range(nt):
                            vals2[d, h] += task_vals[1, t0 + j, h]
                    _deposit(nodes, v, d, perm, trav, nt, acc2, vals2)
            else:
                for h in range(no):
                    chance_reach[t0, h] = reach[d, h] if live[d] else like(chance_reach, 0.0)
            v = nodes[v, END]
        else:
            opened[d] = v
            n_open = d + 1
            if kind == CHANCE:
                for h in range(nt):
                    acc[d, 0, h] = 0.0
                if dual:
                    for h in range(nt):
                        acc2[d, 0, h] = 0.0
            elif kind == DECISION and nodes[v, PLAYER] == opp and live[d]:
                # int64 slot and count, as every other caller: one compiled signature
                slot, count = np.int64(nodes[v, SLOT]), np.int64(nodes[v, COUNT])
                if mode == MODE_CFR and nodes[v, LOCK] == 0:  # (vals[d]: scratch until v closes)
                    strategy_into(regrets[opp], slot, count, no, strat[d], vals[d])
                else:
                    strategy_into(sums[opp], slot, count, no, strat[d], vals[d])
            v += 1
    while n_open > 0:
        n_open -= 1
        if values:
            _close(nodes, opened[n_open], n_open, perm, nt, own, rows)


@kernel(inline=True)
def _run_set(tree, cfr, pool, subtrees, c, dilemma):
    """With buffer set ``c``, walk the next task of the queue (``work[iso[IS_NEXT][0]]``, taken
    atomically) until none is left, each into its ``task_vals`` row."""
    nodes, hands, n_hands = tree[TT_NODES], tree[TT_HANDS], tree[TT_N_HANDS]
    _, _, iopts, _ = cfr
    tasks, iso, task_vals, chance_reach = subtrees
    task_parent, work, queue = iso[IS_PARENT], iso[IS_WORK], iso[IS_NEXT]
    trav = iopts[O_TRAV]
    opp = 1 - trav
    no = n_hands[opp]
    bufs = (pool[BF_REACH][c], pool[BF_ACC][c], pool[BF_VALS][c], pool[BF_STRAT][c], pool[BF_OPENED][c],
            pool[BF_MINUS][c], pool[BF_ACC2][c], pool[BF_VALS2][c], pool[BF_WORK][c])
    dual = iopts[O_MODE] == MODE_BR_EV
    reach0 = np.empty(no, chance_reach.dtype)  # (the solver's precision)
    while True:
        i = fetch_add(queue, np.int64(0), np.int64(1))
        if i >= work.shape[0]:
            break
        t = work[i]
        r = tasks[t]
        src = chance_reach[task_parent[t]]
        card = nodes[r, CARD]
        inv = like(reach0, 1.0 / (_unseen(nodes, r, iopts) + 1))
        for h in range(no):
            if hands[opp, h, 0] == card or hands[opp, h, 1] == card:
                reach0[h] = 0.0
            else:
                reach0[h] = src[h] * inv
        walk(tree, cfr, bufs, r, reach0, (False, True), subtrees, dilemma)
        for h in range(n_hands[trav]):
            task_vals[0, t, h] = bufs[BF_VALS][0, h]
        if dual:
            for h in range(n_hands[trav]):
                task_vals[1, t, h] = bufs[BF_VALS2][0, h]


@kernel(parallel=True)
def _run_tasks(tree, cfr, pool, subtrees, dilemma):
    """Walk every task subtree that is not isomorphic to another, then fill the isomorphic ones
    by permuting holdings. One worker per buffer set; each takes the next task of one queue
    (an atomic counter) until none is left: numba hands a ``prange`` out statically (a block of
    sets per thread), so without the queue a slowed thread, or one given the heavier tasks,
    leaves the other waiting at the join. Each task's row is written by the worker that walked
    it, so the numbers do not depend on which worker or thread walks what.

    ``iso`` = (task_parent, work, iso_ref, iso_swap, perm, next) (``IS_*``, :func:`._layout.pack_iso`):
    the chance node of each task, the tasks to walk (largest subtrees first, for an even finish),
    for each task its reference task (-1: none) and suit swap, the holding permutation of each
    swap (``perm[k, p, h]``: the index of holding ``h`` with the suits swapped) and the queue's
    counter (int64[1], reset here).
    """
    n_hands = tree[TT_N_HANDS]
    regrets, sums, iopts, coefs = cfr
    tasks, iso, task_vals, chance_reach = subtrees
    iso_ref, iso_swap, perm = iso[IS_REF], iso[IS_SWAP], iso[IS_PERM]
    iso[IS_NEXT][0] = 0
    n_sets = pool[BF_REACH].shape[0]
    trav = iopts[O_TRAV]
    for c in prange(n_sets):  # one worker per buffer set, taking tasks from the queue
        # a prange index is unsigned in the parallel body: np.int64, one signature; the tuples are
        # packed in the body (numba's parallel wrapper takes no tuple holding a tuple, and no
        # argument named ``sched``: it has one of its own)
        _run_set(tree, (regrets, sums, iopts, coefs), pool, (tasks, iso, task_vals, chance_reach), np.int64(c), dilemma)
    for t in range(tasks.shape[0]):
        ref = iso_ref[t]
        if ref >= 0:
            k = iso_swap[t]
            for layer in range(2 if iopts[O_MODE] == MODE_BR_EV else 1):
                for h in range(n_hands[trav]):
                    task_vals[layer, t, h] = task_vals[layer, ref, perm[k, trav, h]]


@kernel(inline=True)
def traverse(tree, cfr, pool, subtrees, weights, dilemma):
    """One full traversal for ``iopts[O_TRAV]`` in ``iopts[O_MODE]``; returns the root value row
    (``weights``: real[2, H], each player's weight of each of its holdings)."""
    _, _, iopts, _ = cfr
    trav = iopts[O_TRAV]
    bufs0 = (pool[BF_REACH][0], pool[BF_ACC][0], pool[BF_VALS][0], pool[BF_STRAT][0], pool[BF_OPENED][0],
             pool[BF_MINUS][0], pool[BF_ACC2][0], pool[BF_VALS2][0], pool[BF_WORK][0])
    reach0 = weights[1 - trav]
    tasks, _, _, _ = subtrees
    if tasks.shape[0] > 0:
        walk(tree, cfr, bufs0, 0, reach0, (True, False), subtrees, dilemma)
        _run_tasks(tree, cfr, pool, subtrees, dilemma)
    walk(tree, cfr, bufs0, 0, reach0, (True, True), subtrees, dilemma)
    return bufs0[BF_VALS][0]


@kernel
def run(tree, cfr, pool, subtrees, weights, job, outs, dilemma):
    """The solver's one entry kernel, ``job = (mode, first, count)``, ``outs = (rows, average)``
    (float64[2, H] each):

    - ``MODE_CFR``: iterations ``first .. first + count - 1`` (0-based) of the method in
      ``iopts``;
    - ``MODE_EV`` / ``MODE_BR``: both players' root value rows under the average strategy or
      best responses into ``rows``;
    - ``MODE_BR_EV``: the best responses' rows into ``rows`` and the average strategies' into
      ``average`` in one walk per player: the rows of ``MODE_BR`` and ``MODE_EV``, bit for
      bit, for about half the work (needs ``task_vals`` with two layers and ``pool``'s
      ``acc2``/``vals2`` sized like ``acc``/``vals``).

    ``dilemma``: None for Texas Hold'em, True for Dilemma (see :func:`walk`). Rows are 0 past
    a player's holdings (the buffers hold leftovers there). One entry, with
    one call of the inlined :func:`traverse`, not one per job: numba links :func:`walk` and
    the ``prange`` driver into each entry's library and optimises and emits them again."""
    mode, first, count = job
    rows, average = outs
    _, _, iopts, coefs = cfr
    iopts[O_MODE] = mode
    for t in range(first, first + (count if mode == MODE_CFR else 1)):
        if mode == MODE_CFR:
            dcfr_coefs(t, coefs)
        for trav in range(2):
            iopts[O_TRAV] = trav
            row = traverse(tree, cfr, pool, subtrees, weights, dilemma)
            if mode == MODE_CFR:
                continue
            n = tree[TT_N_HANDS][trav]
            for h in range(rows.shape[1]):
                rows[trav, h] = row[h] if h < n else 0.0
                if mode == MODE_BR_EV:
                    average[trav, h] = pool[BF_VALS2][0, 0, h] if h < n else 0.0
