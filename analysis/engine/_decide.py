"""Policy decisions in the kernel: what a player sees (features) and the action its policy picks.

The compiled policy arrays come from :func:`.policy.compile_policies`; the rules of the
lookup (first matching rule, illegal actions dropped, the fold-for-free knob, sizes
clamped to the legal range) are described in :mod:`.policy`.
"""

from __future__ import annotations

import numpy as np

from analysis.core.actions import ALLIN, BET, CALL, CHECK, FOLD, RAISE
from analysis.core.features import (
    FF_ALWAYS,
    FF_NEVER,
    FF_RULES,
    FT_BEHIND,
    FT_CALL_BB,
    FT_FACING,
    FT_PENALTY,
    FT_PLAYERS,
    FT_POSITION,
    FT_POT_BB,
    FT_PRICE,
    FT_SPR,
    FT_STREET,
    FT_STRENGTH,
    MAX_SLOTS,
    N_FEAT,
)
from analysis.core.rng import next_float
from evaluator.jit import kernel
from evaluator.strength import board_strengths

from ._layout import (
    H_BET,
    H_FOLD,
    H_HOLE0,
    H_HOLE1,
    H_IN,
    H_POL,
    H_STACK,
    MN_ALLIN_TO,
    MN_CALL,
    MN_CHECK,
    MN_FOLD,
    MN_MAX_TO,
    MN_MIN_TO,
    PF_FF_BELOW,
    PI_COUNT,
    PI_FF_MODE,
    PI_FIRST,
    RS_BB,
    RS_CUR,
    RS_FIRST,
    RS_STREET,
    W_FLAT,
    W_HAND,
    W_HOLES,
    W_IDX,
    W_NONB,
    W_PAIR_SCORE,
    W_STRENGTH,
    W_TMP,
)
from .structures import BS_UNIT


@kernel
def features_of(hs, rs, n, i, strength, penalty, feat):
    """What seat ``i`` sees (``FT_*``)."""
    pot = 0
    for j in range(n):
        pot += hs[j, H_IN]
    owe = min(rs[RS_CUR] - hs[i, H_BET], hs[i, H_STACK])
    players = 0
    pos = 0
    first = rs[RS_FIRST]
    for k in range(n):
        j = first + k
        if j >= n:
            j -= n
        if hs[j, H_FOLD] < 0:
            if j == i:
                pos = players
            players += 1
    bb = rs[RS_BB]
    feat[FT_STREET] = rs[RS_STREET]
    feat[FT_FACING] = 1.0 if owe > 0 else 0.0
    feat[FT_PLAYERS] = players
    feat[FT_POSITION] = pos
    feat[FT_BEHIND] = players - 1 - pos
    feat[FT_STRENGTH] = strength[i]
    feat[FT_PRICE] = owe / (pot + owe) if pot + owe > 0 else 0.0
    feat[FT_SPR] = hs[i, H_STACK] / pot if pot > 0 else 1e9
    feat[FT_POT_BB] = pot / bb
    feat[FT_PENALTY] = penalty
    feat[FT_CALL_BB] = owe / bb


@kernel
def decide(state, i, menu, feat, game, rng_state, outs):
    """Policy decision of seat ``i``: ``out[0]`` = the action code (:mod:`analysis.core.actions`), ``out[1]`` = round total (bet/raise).

    ``state`` = ``(hs, rs, n)``: seat columns (``H_*``), round state (``RS_*``), seats playing;
    ``menu``: the legal menu (``MN_*``); ``feat``: float64[N_FEAT] the actor's features;
    ``game`` = ``(structure, pols, cardsdata)`` (:mod:`._kernel`); ``rng_state``: uint64[4] the
    action generator; ``outs`` = ``(out, w)``: int64[2] the decision and float64[MAX_SLOTS]
    the policy slots' weights (scratch ``W_SLOTS``).

    Returns 1 if the seat folded for free by the fold-for-free knob, else 0.
    """
    hs, rs, n = state
    structure, pols, _ = game
    out, w = outs
    pol_int, pol_float, cond, acts = pols
    p = hs[i, H_POL]
    first = pol_int[p, PI_FIRST]
    count = pol_int[p, PI_COUNT]
    rule = -1
    for r in range(first, first + count):
        ok = True
        for f in range(N_FEAT):
            x = feat[f]
            if x < cond[r, f, 0] or x >= cond[r, f, 1]:
                ok = False
                break
        if ok:
            rule = r
            break
    can_raise = menu[MN_MIN_TO] >= 0
    call = menu[MN_CALL]
    # weights per slot after dropping illegal actions (a call of nothing is a check)
    w[:] = 0.0
    total = 0.0
    if rule >= 0:
        for s in range(MAX_SLOTS):
            k = acts[rule, s, 0]
            if k < 0:
                continue
            kind = int(k)
            prob = acts[rule, s, 2]
            legal = True
            if kind == FOLD:
                legal = menu[MN_FOLD] != 0
            elif kind == CHECK:
                legal = menu[MN_CHECK] != 0
            elif kind == RAISE:
                legal = can_raise
            elif kind == ALLIN:
                legal = can_raise or call > 0 or menu[MN_CHECK] != 0
            if legal:
                w[s] = prob
                total += prob
    # the fold-for-free knob (after the flop, nothing to call): it decides fold versus check
    mode = pol_int[p, PI_FF_MODE]
    knob = rule >= 0 and menu[MN_CHECK] != 0 and rs[RS_STREET] >= 1 and mode != FF_RULES
    want_fold = False
    if knob and mode != FF_NEVER:
        weak = feat[FT_STRENGTH] < pol_float[p, PF_FF_BELOW]
        want_fold = weak and (mode == FF_ALWAYS or feat[FT_PLAYERS] >= 3)
    chosen = -1
    if total > 0.0:
        u = next_float(rng_state) * total
        acc = 0.0
        for s in range(MAX_SLOTS):
            if w[s] <= 0.0:
                continue
            acc += w[s]
            chosen = s
            if u < acc:
                break
    kind = -1
    size = 0.0
    if chosen >= 0:
        kind = int(acts[rule, chosen, 0])
        size = acts[rule, chosen, 1]
    if knob and (kind == CHECK or kind == CALL or kind == FOLD):  # noqa: SIM109
        kind = FOLD if want_fold else CHECK
    elif menu[MN_CHECK] != 0 and rs[RS_STREET] == 0 and kind == FOLD:
        kind = CHECK  # nobody folds for free before the flop
    if kind == CALL and call == 0:
        kind = CHECK
    if kind == -1:
        kind = CHECK if menu[MN_CHECK] != 0 else FOLD
    if kind == FOLD:
        out[0] = FOLD
        out[1] = 0
        return 1 if menu[MN_CHECK] != 0 else 0
    if kind == CHECK:
        out[0] = CHECK
        out[1] = 0
        return 0
    if kind == CALL:
        out[0] = CALL
        out[1] = 0
        return 0
    if kind == ALLIN and not can_raise:
        out[0] = CALL if call > 0 else CHECK
        out[1] = 0
        return 0
    # bet or raise: size as a fraction of the pot, clamped to the legal range, in chip units
    pot = 0
    for j in range(n):
        pot += hs[j, H_IN]
    owe = rs[RS_CUR] - hs[i, H_BET]
    if kind == ALLIN:
        to = menu[MN_ALLIN_TO]
    elif rs[RS_CUR] == 0:
        to = np.int64(size * pot)
    else:
        to = rs[RS_CUR] + np.int64(size * (pot + owe))
    unit = structure[BS_UNIT]
    to = (to + unit // 2) // unit * unit
    if to < menu[MN_MIN_TO]:
        to = menu[MN_MIN_TO]
    if to > menu[MN_MAX_TO]:
        to = menu[MN_MAX_TO]
    out[0] = BET if rs[RS_CUR] == 0 else RAISE
    out[1] = to
    return 0


@kernel
def strengths(hs, n, board, nb, cardsdata, scratch, strength):
    """Each seat's strength into ``strength``: pre-flop from the card data's table, after the flop
    the share of holdings beaten on the ``nb`` board cards
    (:func:`evaluator.strength.board_strengths`, folded seats skipped). ``hs`` seat rows of ``n``
    seats, ``cardsdata`` as :mod:`._layout` packs it, ``scratch`` the ``W_*`` work arrays."""
    eval_tables, deck, preflop, n_cards, is_dilemma, rules = cardsdata
    if nb == 0:
        for i in range(n):
            strength[i] = preflop[hs[i, H_HOLE0], hs[i, H_HOLE1]]
        return
    holes = scratch[W_HOLES]
    idx = scratch[W_IDX]
    m = 0
    for i in range(n):
        if hs[i, H_FOLD] < 0:
            holes[m, 0] = hs[i, H_HOLE0]
            holes[m, 1] = hs[i, H_HOLE1]
            idx[m] = i
            m += 1
    out = scratch[W_STRENGTH]
    tmp = scratch[W_TMP]
    board_strengths(nb, board, holes, m, eval_tables, n_cards,
                    (scratch[W_PAIR_SCORE], scratch[W_FLAT], scratch[W_NONB], scratch[W_HAND]), tmp)
    for k in range(m):
        out[idx[k]] = tmp[k]


