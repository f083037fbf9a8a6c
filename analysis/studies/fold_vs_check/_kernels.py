"""Numba kernels of the fold-vs-check study: evaluate continuations, train best responses, enumerate.

- :func:`mc_task` in ``EVAL`` mode (Monte Carlo): every deal is played to the end by folding now
  and by checking and following the cell's continuation (a fixed hero policy or a
  best-response table), plus optional other continuations on the same deals
  (common random numbers, so the gaps have small errors); both are settled by the
  settlement core and the hero's money is tallied into a statistics row.
- :func:`mc_task` in ``TRAIN`` mode: the best response of a cell in its abstraction (decision
  level x opponents still in x strength bucket), by backward induction over
  simulated deals. Each deal's *decision chain* holds the hero's decisions when it
  always checks and calls (they do not depend on its earlier choices, because the
  opponents' actions do not depend on the hero, who never bets), the money of
  folding at each of them, and the money of going to the end. Deciding the last
  level first, each information set takes the action with the larger total.
- :func:`exact_task`: the same chains for every deal of a small spot (fixed hand
  and board, 1-2 opponents holding random cards; for a turn spot, every river
  card too), with the public history as the exact information set.

Each is one task of :func:`analysis.core.threads.run_tasks` (a cell, a stream or a block
of deals), not the body of a ``prange`` loop: numba compiles a parallel body once more,
re-optimising every kernel below it, which cost a cold run tens of seconds (issue 22).

Each pair of modes is one entry kernel: numba links every callee into each entry's library
and optimises and emits the whole again, so two entries sharing play and settlement cost
a cold run about twice the machine-code work of one.

(Over 500 lines: the three share the deal, play and chain helpers, and numba
inlines across a module cheaply; splitting them would duplicate the glue.)
"""

from __future__ import annotations

import numpy as np

from analysis.core.rng import seed_state
from analysis.dilemma.decks import D_OP
from analysis.dilemma.effects import (
    FLOP,
    OP_BUBBLE,
    OP_CRASH,
    OP_NONE,
    OP_REBATE,
    OP_SLUMP,
    RIVER,
    TURN,
)
from analysis.dilemma.kernels import card_acts
from analysis.dilemma.settlement.layout import (
    N_OUT,
    N_PCOLS,
    N_TCOLS,
    P_BONUS,
    P_EFFECT,
    P_FOLD,
    P_IN,
    P_PENALTY,
    P_POT,
    T_LAST,
)
from evaluator.jit import kernel

from ._deal import (
    DL_BOARD,
    DL_HOLES,
    DL_SCORES,
    DL_WOULD_BET,
    deal_trial,
    new_deal,
    prepare,
    relative_script,
    starting_chips,
    strength_of,
)
from ._play import CONTINUE, FIXED, MAX_DECISIONS, TABLE, _continues, play
from .layout import (
    BOARD_CLASS_BASE,
    CE_MODEL,
    CE_NOPP,
    CE_PLAN,
    CE_PLAN_NOFREE,
    CE_POLICY,
    CE_POSITION,
    CE_STREET,
    CMP_BASE,
    DEC_BASE,
    G_BUCKETS,
    G_N_CARDS,
    G_N_CMP,
    G_STRENGTH_BINS,
    M_BET,
    MAX_OPP,
    N_LEVELS,
    N_PENALTY_BINS,
    N_STRENGTH_BINS,
    PENALTY_BASE,
    S_BOARD_PENALTY,
    S_CHECK,
    S_CHECK2,
    S_CHECK_BONUS,
    S_CHECK_EFFECT,
    S_CHECK_PENALTY,
    S_CHECK_POT,
    S_CHECK_SHOWDOWN,
    S_EQUITY,
    S_FOLD,
    S_FOLD2,
    S_FOLD_BONUS,
    S_FOLD_EFFECT,
    S_FOLD_PAYS,
    S_FOLD_PENALTY,
    S_FOLD_POT,
    S_GAP,
    S_GAP2,
    S_N,
    S_STRENGTH,
    STRENGTH_BASE,
)

CLASS_OPS = (OP_CRASH, OP_SLUMP, OP_REBATE, OP_BUBBLE)
"""The effects that name a board class, in priority order (``layout.BOARD_CLASSES[1:5]``)."""
OTHER_CLASS = 5
NO_CLASS = 6


@kernel
def _work(n_seats):
    """The settlement core's arrays for one hand."""
    return (np.zeros((n_seats, N_PCOLS), np.int64), np.zeros((2, 5), np.int64),
            np.zeros(N_TCOLS, np.int64), np.zeros(N_OUT, np.int64))


@kernel
def _record(m):
    """Decision records of :func:`analysis.studies.fold_vs_check._play.play` (``m = 0``: none)."""
    return (np.zeros(1 if m else 0, np.int64), np.zeros(m, np.int64), np.zeros(m, np.int64),
            np.zeros(m), np.zeros(m, np.int64))


@kernel
def _relative_scratch(n, n_cards):
    """The scratch of :func:`._deal.relative_script` for ``n`` players."""
    n_pairs = n_cards * (n_cards - 1) // 2
    return np.zeros((n, n_pairs)), np.zeros(n_pairs, np.int64), np.zeros(2 * n_pairs + 2)


@kernel(inline=True)
def _setup(c, spots, opponents, n_cards):
    """What a stream of cell ``c``'s deals reuses: the cell's row, ``hand = (street0, n, dl,
    chips, position)`` (:func:`._play.play`), ``opp = (model, relative)`` and ``scratch = (work, rec,
    empty)`` (the settlement's arrays, a decision record and an empty one)."""
    cell = spots[0][c]
    n = cell[CE_NOPP] + 1
    opp = (opponents[0][cell[CE_MODEL]], opponents[1][cell[CE_MODEL]])
    in0, behind0, n_seats = starting_chips(cell, n)
    hand = (cell[CE_STREET], n, new_deal(n, n_cards), (in0, behind0), cell[CE_POSITION])
    scratch = (_work(n_seats), _record(MAX_DECISIONS), _record(0))
    return cell, hand, opp, scratch


@kernel
def board_class(board, nb, deck):
    """The class of the first ``nb`` board cards (index into ``layout.BOARD_CLASSES``): the
    first active effect in the order crash, slump, rebate, bubble, then any other active
    effect (5, other); 0 (none) when no effect acts."""
    best = NO_CLASS
    for b in range(nb):
        card = board[b]
        op = deck[D_OP, card]
        if op == OP_NONE or not card_acts(deck, card, FLOP if b < 3 else (TURN if b == 3 else RIVER)):
            continue
        rank = OTHER_CLASS
        for k in range(len(CLASS_OPS)):
            if op == CLASS_OPS[k]:
                rank = k + 1
        best = min(best, rank)
    return 0 if best == NO_CLASS else best


@kernel(inline=True)
def _add_bin(stats, base, index, gap):
    """Add one trial's ``gap`` to bin ``index`` of the binned statistics at ``base`` of ``stats``
    (count, sum, sum of squares)."""
    stats[base + 3 * index] += 1.0
    stats[base + 3 * index + 1] += gap
    stats[base + 3 * index + 2] += gap * gap


@kernel(inline=True)
def _script(hand, opp, strength, n_cards, rel_scratch):
    """The opponents' script of the deal when the cell's model is relative to its range.

    Call it only under ``if relative is not None`` in an entry kernel: numba then drops the
    call at compile time when no model of the run is relative (``relative`` typed None), and
    :func:`._deal.relative_script` is not compiled at all."""
    street0, n, dl, _chips, _position = hand
    model, relative = opp
    if relative:
        relative_script(street0, dl, n, model, strength, n_cards, rel_scratch)


@kernel(inline=True)
def checked_before(hand, opp, strength, n_cards):
    """Whether every opponent who acts before the hero at the decision street checks on this
    deal (by its model: an absolute threshold on its strength, or the relative script, which
    must be worked out first). The spot's premise is that they did, so the kernels keep only
    the deals where they would (rejection: the deals kept are the spot's, equally likely,
    given what those checks say about their holdings); with the hero first every deal is kept."""
    street0, n, dl, _chips, position = hand
    model, relative = opp
    for seat in range(1, position + 1):
        if relative:
            bets = dl[DL_WOULD_BET][street0, seat]
        else:
            bets = model[street0, M_BET] <= 1.0 and (
                strength_of(street0, seat, dl, n, strength, n_cards) >= model[street0, M_BET])
        if bets:
            return False
    return True


MAX_REDEALS = 100_000
"""Deals tried for one trial before giving up (opponents before the hero who would almost
never check: the trial is dropped, and the cell's trial count says so)."""

@kernel(inline=True)
def eval_deal(hand, opp, table, strength, continuations, scratch, stats):
    """Play one deal by folding and by checking with the ``main`` policy (and the other
    continuations: the first ``G_N_CMP`` fixed policies, and ``nofree`` when its kind is not
    ``CONTINUE``); add the hero's results to ``stats``. ``continuations = (main, nofree)``;
    ``hand``, ``opp`` and ``scratch = (work, rec, empty)`` as :func:`_setup` makes them."""
    main, nofree = continuations
    work, rec, empty = scratch
    game, policies, deck, _rules = table
    street, n, dl, chips, _position = hand
    in0 = chips[0]
    players, _board2, out_table, _out = work
    n_cards = game[G_N_CARDS]
    board = dl[DL_BOARD]
    scores = dl[DL_SCORES]
    best = -1
    n_best = 0
    for i in range(n):
        if scores[i] > best:
            best = scores[i]
            n_best = 1
        elif scores[i] == best:
            n_best += 1
    minus = deck[2]
    board_penalty = 0
    for b in range(street + 2):
        board_penalty += minus[board[b]]
    fold_policy = (CONTINUE, main[1], main[2], main[3])

    fold = play(0, fold_policy, hand, opp, table, strength, work, empty)
    extra = players[0, P_IN] - in0[0]
    f_pot = players[0, P_POT] - extra
    f_bonus = players[0, P_BONUS]
    f_pen = players[0, P_PENALTY]
    f_eff = players[0, P_EFFECT]
    check = play(-1, main, hand, opp, table, strength, work, rec)
    extra = players[0, P_IN] - in0[0]
    gap = np.float64(check - fold)
    stats[S_N] += 1.0
    stats[S_FOLD] += fold
    stats[S_FOLD2] += fold * fold
    stats[S_CHECK] += check
    stats[S_CHECK2] += check * check
    stats[S_GAP] += gap
    stats[S_GAP2] += gap * gap
    stats[S_CHECK_POT] += players[0, P_POT] - extra
    stats[S_CHECK_BONUS] += players[0, P_BONUS]
    stats[S_CHECK_PENALTY] += players[0, P_PENALTY]
    stats[S_CHECK_EFFECT] += players[0, P_EFFECT]
    stats[S_FOLD_POT] += f_pot
    stats[S_FOLD_BONUS] += f_bonus
    stats[S_FOLD_PENALTY] += f_pen
    stats[S_FOLD_EFFECT] += f_eff
    stats[S_EQUITY] += (1.0 / n_best) if scores[0] == best else 0.0
    stats[S_BOARD_PENALTY] += board_penalty
    stats[S_FOLD_PAYS] += 1.0 if f_pen > 0 else 0.0
    stats[S_CHECK_SHOWDOWN] += 1.0 if players[0, P_FOLD] < 0 and out_table[T_LAST] == 3 else 0.0
    n_dec, levels = rec[0], rec[1]
    folded = players[0, P_FOLD] >= 0
    for k in range(n_dec[0]):
        lv = levels[k]
        stats[DEC_BASE + 2 * lv] += 1.0
        if k == n_dec[0] - 1 and folded:
            stats[DEC_BASE + 2 * lv + 1] += 1.0
    if game[G_STRENGTH_BINS]:
        st = strength_of(street, 0, dl, n, strength, n_cards)
        stats[S_STRENGTH] += st
        sbin = min(int(st * N_STRENGTH_BINS), N_STRENGTH_BINS - 1)
        _add_bin(stats, STRENGTH_BASE, sbin, gap)
        _add_bin(stats, BOARD_CLASS_BASE + 3 * N_STRENGTH_BINS * board_class(board, street + 2, deck),
                 sbin, gap)
    _add_bin(stats, PENALTY_BASE, min(board_penalty // 10, N_PENALTY_BINS - 1), gap)
    for k in range(game[G_N_CMP] + 1):
        if k < game[G_N_CMP]:
            other = play(-1, (FIXED, policies[k], main[2], main[3]), hand, opp, table, strength,
                         work, empty)
            slot = k
        elif nofree[0] != CONTINUE:
            other = play(-1, nofree, hand, opp, table, strength, work, empty)
            slot = 3
        else:
            continue
        base = CMP_BASE + 4 * slot
        diff = np.float64(other - check)
        stats[base] += other
        stats[base + 1] += other * other
        stats[base + 2] += diff
        stats[base + 3] += diff * diff


@kernel(inline=True)
def cell_policies(cell, policies, plans, no_keys):
    """The ``(main, nofree)`` policies of a Monte Carlo cell (see :mod:`.layout`)."""
    if cell[CE_POLICY] >= 0:
        main = (FIXED, policies[cell[CE_POLICY]], plans[0], no_keys)
    else:
        main = (TABLE, policies[0], plans[cell[CE_PLAN]], no_keys)
    if cell[CE_PLAN_NOFREE] >= 0:
        nofree = (TABLE, policies[0], plans[cell[CE_PLAN_NOFREE]], no_keys)
    else:
        nofree = (CONTINUE, policies[0], plans[0], no_keys)
    return main, nofree


# -- best responses -------------------------------------------------------------------------


@kernel(inline=True)
def chain(hand, opp, table, strength, scratch, folds, always):
    """The deal's decision chain: returns the money of always continuing; ``rec`` holds the
    decisions and ``folds[k]`` the money of folding at decision ``k + 1`` (after continuing).
    ``always`` is the always-continue policy; ``scratch = (work, rec, empty)`` (:func:`_setup`)."""
    work, rec, empty = scratch
    cont = play(-1, always, hand, opp, table, strength, work, rec)
    for k in range(rec[0][0]):
        folds[k] = play(k + 1, always, hand, opp, table, strength, work, empty)
    return cont


FREE_FOLD_Z = 2.0
"""Standard errors by which folding for free must beat checking in training to be chosen."""


@kernel
def backward_induction(deals, n_info, free, plan, counts, thresholds, buckets):
    """The best actions per information set, deciding the last level first.

    ``deals = (n_dec, levels, infos, folds, cont, weight)``: ``n_dec[t]`` decisions of deal ``t`` with ``levels``/``infos``/``folds`` (money of folding
    there); ``cont[t]`` the money of continuing to the end; ``weight[t]`` the deal's weight.
    Writes ``plan[info]`` (1 continue, 0 fold, -1 never reached) and ``counts[info]``
    (weight reaching it). With ``free = False`` the hero never folds when nobody has bet.
    With ``thresholds``, the information sets are abstract (level x opponents in x
    ``buckets`` strength buckets) and each level and opponent count gets one strength
    threshold (continue from it up), the one with the largest total; folding for free
    (nobody has bet) is chosen only when its gain over always checking is at least
    ``FREE_FOLD_Z`` standard errors, so sampling noise does not make the hero fold
    hands it should check. Without ``thresholds`` every information set takes its
    own best action (exact spots: no noise).
    """
    n_dec, levels, infos, folds, cont, weight = deals
    n_deals = n_dec.shape[0]
    plan[:] = -1.0
    counts[:] = 0.0
    s_fold = np.zeros(n_info)
    s_cont = np.zeros(n_info)
    s_sq = np.zeros(n_info)
    for lv in range(N_LEVELS - 1, -1, -1):
        facing = lv % 2 == 1
        for t in range(n_deals):
            for k in range(n_dec[t]):
                if levels[t, k] != lv:
                    continue
                value = cont[t]
                for j in range(k + 1, n_dec[t]):
                    if plan[infos[t, j]] == 0.0:
                        value = folds[t, j]
                        break
                i = infos[t, k]
                s_fold[i] += weight[t] * folds[t, k]
                s_cont[i] += weight[t] * value
                s_sq[i] += weight[t] * (folds[t, k] - value) ** 2
                counts[i] += weight[t]
        if thresholds:
            for opp in range(MAX_OPP):
                base = (lv * MAX_OPP + opp) * buckets
                seen = False
                for b in range(buckets):
                    seen = seen or counts[base + b] > 0
                if not seen:
                    continue
                # the threshold theta maximising sum(fold below) + sum(continue from theta up)
                best = 0.0
                for b in range(buckets):
                    best += s_cont[base + b]
                lo = 0
                hi = 0
                run = best
                for theta in range(1, buckets + 1):
                    run += s_fold[base + theta - 1] - s_cont[base + theta - 1]
                    if run > best:
                        best = run
                        lo = theta
                        hi = theta
                    elif run == best:
                        hi = theta
                theta = (lo + hi) // 2 if (free or facing) else 0
                if not facing and theta > 0:
                    gain = 0.0
                    var = 0.0
                    for b in range(theta):
                        gain += s_fold[base + b] - s_cont[base + b]
                        var += s_sq[base + b]
                    if gain <= FREE_FOLD_Z * np.sqrt(var):
                        theta = 0
                for b in range(buckets):
                    plan[base + b] = 1.0 if b >= theta else 0.0
        else:
            for t in range(n_deals):
                for k in range(n_dec[t]):
                    if levels[t, k] == lv:
                        i = infos[t, k]
                        plan[i] = 1.0 if (s_cont[i] >= s_fold[i] or not (free or facing)) else 0.0


TRAIN = 0
"""``mc_task`` mode: the best response of a cell, trained on simulated deals."""
EVAL = 1
"""``mc_task`` mode: play a stream of deals both ways and tally the statistics."""


@kernel(nogil=True)
def mc_task(job, spots, opponents, table, strength, plans, outs, relative):
    """One Monte Carlo task of :func:`analysis.core.threads.run_tasks` for cell ``c``
    (``job = (mode, c, stream, trials)``; no ``prange`` driver: see
    :mod:`analysis.studies.fold_vs_check.plan`):

    - ``EVAL``: ``trials`` deals from the cell's generator stream ``stream``, each played by
      folding and by checking with the cell's continuations (from ``plans``), into
      ``outs[0]`` (the statistics row);
    - ``TRAIN``: the best response over ``trials`` training deals (stream 0) into
      ``outs[1]`` (the plan) and ``outs[2]`` (the weight reaching each information set);
      with a non-empty ``outs[3]``, also the best response that never folds for free (on
      the same deals).

    One entry for both, so a command compiles the shared play and settlement code into one
    library, not two. ``relative`` is None when no opponent model of the run is relative to
    its range (the relative script is then not compiled), else ``opponents[1]``. The other
    inputs are the tuples of :mod:`.layout`."""
    mode, c, stream, trials = job
    stats, plan, counts, nofree = outs
    game = table[0]
    n_cards = game[G_N_CARDS]
    cell, hand, opp, scratch = _setup(c, spots, opponents, n_cards)
    if relative is not None:
        rel_scratch = _relative_scratch(hand[1], n_cards)
    state = np.empty(4, np.uint64)
    seed_state(state, spots[1][c], stream)
    avail = np.empty(n_cards, np.int64)
    if mode == EVAL:
        continuations = cell_policies(cell, table[1], plans, np.zeros(0, np.int64))
        for _ in range(trials):
            for _attempt in range(MAX_REDEALS):
                if not deal_trial(state, cell, spots, opponents, n_cards, avail, hand[2]):
                    break
                prepare(hand[2], hand[1], strength[1])
                if relative is not None:
                    _script(hand, opp, strength, n_cards, rel_scratch)
                if checked_before(hand, opp, strength, n_cards):
                    eval_deal(hand, opp, table, strength, continuations, scratch, stats)
                    break
        return
    rec = scratch[1]
    n_dec = np.zeros(trials, np.int64)
    levels = np.zeros((trials, MAX_DECISIONS), np.int64)
    infos = np.zeros((trials, MAX_DECISIONS), np.int64)
    folds = np.zeros((trials, MAX_DECISIONS))
    cont = np.zeros(trials)
    weight = np.zeros(trials)
    always = (CONTINUE, table[1][0], np.zeros(0), np.zeros(0, np.int64))
    for t in range(trials):
        kept = False
        for _attempt in range(MAX_REDEALS):
            if not deal_trial(state, cell, spots, opponents, n_cards, avail, hand[2]):
                break
            prepare(hand[2], hand[1], strength[1])
            if relative is not None:
                _script(hand, opp, strength, n_cards, rel_scratch)
            if checked_before(hand, opp, strength, n_cards):
                kept = True
                break
        if not kept:
            continue
        cont[t] = chain(hand, opp, table, strength, scratch, folds[t], always)
        n_dec[t] = rec[0][0]
        for k in range(n_dec[t]):
            levels[t, k] = rec[1][k]
            infos[t, k] = rec[2][k]
        weight[t] = 1.0
    buckets = game[G_BUCKETS]
    deals = (n_dec, levels, infos, folds, cont, weight)
    backward_induction(deals, plan.shape[0], True, plan, counts, True, buckets)
    if nofree.shape[0] > 0:
        backward_induction(deals, plan.shape[0], False, nofree, np.zeros(plan.shape[0]), True,
                           buckets)


# -- exact enumeration of small spots --------------------------------------------------------


@kernel
def exact_deals(c, spots, table):
    """Every deal of a small spot (cell ``c``: the hero's cards and the board fixed; 1 or 2
    opponents holding random cards, each holding by seat once; on the turn every river card):
    int64[deals, 5] = first opponent's cards, second's (-1), river card (-1)."""
    cells, _keys, hero_combos, board_cards = spots
    game = table[0]
    cell = cells[c]
    n_cards = game[G_N_CARDS]
    n = cell[CE_NOPP] + 1
    street = cell[CE_STREET]
    used = np.zeros(n_cards, np.bool_)
    for b in range(street + 2):
        used[board_cards[b]] = True
    used[hero_combos[0, 0]] = True
    used[hero_combos[0, 1]] = True
    free = np.nonzero(~used)[0]
    m = free.shape[0]
    total = m * (m - 1) // 2
    if n == 3:
        total *= (m - 2) * (m - 3) // 2
    if street == 2:
        total *= m - 2 * (n - 1)
    out = np.full((total, 5), -1, np.int64)
    t = 0
    for x in range(m):
        for y in range(x + 1, m):
            for u in range(m if n == 3 else 1):
                for v in range(u + 1 if n == 3 else 0, m if n == 3 else 1):
                    if n == 3 and (u == x or u == y or v == x or v == y):  # noqa: SIM109 (numba)
                        continue
                    for r in range(m if street == 2 else 1):
                        if street == 2 and (r in (x, y) or (n == 3 and r in (u, v))):
                            continue
                        out[t, 0] = free[x]
                        out[t, 1] = free[y]
                        if n == 3:
                            out[t, 2] = free[u]
                            out[t, 3] = free[v]
                        if street == 2:
                            out[t, 4] = free[r]
                        t += 1
    return out[:t]


@kernel(inline=True)
def _set_exact_deal(deals, t, cell, spots, dl, n):
    """Put deal ``t`` of :func:`exact_deals` into the deal arrays ``dl``: the cell's fixed board
    (and river), the hero's cards and the ``n - 1`` opponents' holdings."""
    _cells, _keys, hero_combos, board_cards = spots
    board = dl[DL_BOARD]
    holes = dl[DL_HOLES]
    for b in range(cell[CE_STREET] + 2):
        board[b] = board_cards[b]
    if deals[t, 4] >= 0:
        board[4] = deals[t, 4]
    holes[0, 0] = hero_combos[0, 0]
    holes[0, 1] = hero_combos[0, 1]
    for j in range(1, n):
        holes[j, 0] = deals[t, 2 * j - 2]
        holes[j, 1] = deals[t, 2 * j - 1]


EXACT_BLOCKS = 64
"""Blocks the deals of an exact spot are cut into (tasks of
:func:`analysis.core.threads.run_tasks`; results never depend on the thread count)."""


CHAINS = 0
"""``exact_task`` mode: the decision chains of a block of deals."""
STATS = 1
"""``exact_task`` mode: the statistics row of a block of deals played by given continuations."""
KEEP = 2
"""``exact_task`` mode: whether each deal of a block is one of the spot's (the opponents before
the hero check on it: :func:`checked_before`)."""


@kernel(nogil=True)
def exact_task(job, deals, spots, opponents, table, strength, outs, relative):
    """Block ``blk`` of the deals of :func:`exact_deals` of cell ``c`` (``job = (mode, blk,
    c)``; deals are equally likely; one task of :func:`analysis.core.threads.run_tasks`):

    - ``CHAINS``: the decision chains into ``outs[0]`` = ``n_dec, levels, infos``
      (abstract), ``keys`` (exact), ``strengths``, ``folds`` (money of folding at each
      decision), ``cont`` (of always continuing), ``fold_now`` (of folding now), each with
      a row per deal;
    - ``STATS``: the deals played with ``outs[1] = (main, nofree)`` (the continuation and
      its comparison) into the statistics row ``outs[2]``; the caller sums the blocks' rows
      in a fixed order;
    - ``KEEP``: ``outs[2][t]`` = 1 for the deals where the opponents before the hero check
      (the spot's deals), else 0.

    ``strength`` is ``(sources, eval_tables)``; ``relative`` as in :func:`mc_task`."""
    mode, blk, c = job
    n_dec, levels, infos, keys, strengths, folds, cont, fold_now = outs[0]
    n_cards = table[0][G_N_CARDS]
    cell, hand, opp, scratch = _setup(c, spots, opponents, n_cards)
    if relative is not None:
        rel_scratch = _relative_scratch(hand[1], n_cards)
    work, rec, empty = scratch
    total = deals.shape[0]
    always = (CONTINUE, table[1][0], np.zeros(0), np.zeros(0, np.int64))
    for t in range(total * blk // EXACT_BLOCKS, total * (blk + 1) // EXACT_BLOCKS):
        _set_exact_deal(deals, t, cell, spots, hand[2], hand[1])
        prepare(hand[2], hand[1], strength[1])
        if relative is not None:
            _script(hand, opp, strength, n_cards, rel_scratch)
        if mode == KEEP:
            outs[2][t] = 1.0 if checked_before(hand, opp, strength, n_cards) else 0.0
            continue
        if mode == STATS:
            eval_deal(hand, opp, table, strength, outs[1], scratch, outs[2])
            continue
        fold_now[t] = play(0, always, hand, opp, table, strength, work, empty)
        cont[t] = chain(hand, opp, table, strength, scratch, folds[t], always)
        n_dec[t] = rec[0][0]
        for k in range(n_dec[t]):
            levels[t, k] = rec[1][k]
            infos[t, k] = rec[2][k]
            strengths[t, k] = rec[3][k]
            keys[t, k] = rec[4][k]


@kernel
def chain_values(chains, policy, use_keys):
    """The money of every deal when the hero follows ``policy`` along its decision chain
    (looking up exact keys instead of abstract information sets with ``use_keys``)."""
    n_dec, levels, infos, keys, strengths, folds, cont = chains
    out = np.empty(n_dec.shape[0])
    for t in range(n_dec.shape[0]):
        value = cont[t]
        for k in range(n_dec[t]):
            lv = levels[t, k]
            if not _continues(policy, lv // 2 + 1, lv % 2 == 1, strengths[t, k], infos[t, k],
                              keys[t, k]):
                value = folds[t, k]
                break
        out[t] = value
    return out
