"""Vector-form CFR for three-handed turn spots: every river card (exact) or one sampled per walk.

The tree (:func:`.tree3.expand3` of a turn spot) has a river-card node after each turn
round that leaves two or three players in, with one child per river card (index ``i``
into the tree's ``river_cards``; the river round below it has its own regrets). A walk
for player ``trav`` works as :mod:`._kernels3`'s traversal (strategies, reach top-down,
terminal values, decisions closed bottom-up), restricted to the nodes of one river card
(``card >= 0``: a sampled walk) or over all of them (``card = -1``: exact).

Chance. A triple of holdings leaves ``D - 10`` cards for the river (``D`` the deck, four on
the board), each as likely; a card held by a player is impossible for that triple. Below
river card ``i`` every player's reach of a holding that holds the card is 0 (``alive``) and
so is the traverser's value of such a holding, so the exact value of the river-card node
is ``sum_i value_i / (D - 10)`` (``factors[SF_EXACT]``). A sampled walk draws ``k`` distinct
cards uniformly from the ``C = D - 4`` and takes ``sum_(i drawn) value_i x C / (k (D - 10))``,
an unbiased estimate of the exact value for every holding: this is Monte Carlo CFR with the
chance event sampled (public chance sampling; every player's actions and every holding are
still enumerated, in vectors). River terminals are valued with that card's holding arrays and
payoff table (index ``i``), turn fold ends with the turn's (index ``C``).

Draws are counter-based (:mod:`analysis.core.rng`): the card of iteration ``t`` and traverser
``p`` is a function of the key, ``t`` and ``p`` alone, so the numbers do not depend on how the
iterations are batched or on the thread count (terminals run in parallel, one task each).

Kernel inputs: ``spot``, ``cfr`` and ``work`` as in :mod:`._kernels3` (here ``spot`` = (tree,
hands, pay) with the turn tree's five arrays, every river card's holding arrays and every
payoff table: see :func:`walk`); ``chance`` = (alive, factors, keep, pidx) (``CH_*`` of :mod:`._layout`; see :func:`walk`);
``draws`` = (key, per_walk): the key of the river-card draws and the cards drawn per walk.
:func:`walk` keeps its arrays apart (tests call it with a copy of the state).
"""

from __future__ import annotations

import numpy as np
from numba import prange

from analysis.core.rng import bounded, seed_state
from evaluator.jit import kernel

from ._kernels import C_INV_PAIRS, MODE_CFR, dcfr_coefs
from ._kernels3 import (
    O_MODE,
    O_PARALLEL_PAIRS,
    O_TRAV,
    _terminal_keep,
    close_decision,
    reach_decision,
    strategy_at,
)
from ._layout import CH_ALIVE, HD_N, TH_CHILDREN, TH_DECISIONS, TH_NODES, TH_TERMINALS
from .tree import DECISION
from .tree3 import CARD, COUNT, KIND

SF_EXACT = 0
N_FACTORS = 1


@kernel
def _card_hands(hands, i):
    """The holding arrays (see :mod:`._kernels3`) of river card index ``i`` (the turn's: ``C``), in
    the order of ``HD_*`` (:func:`._layout.pack_hands`; a kernel packs a tuple by position)."""
    n, hc, cls, score, order, pos, lo, hi, cardn, cardpos, before, pairidx = hands
    return (n, hc, cls, score[i], order[i], pos[i], lo[i], hi[i], cardn[i], cardpos[i], before[i], pairidx)


@kernel(inline=True)
def _value_terminal(v, trav, spot, chance, reach, inv, out):
    """Terminal ``v``'s values of ``trav``'s holdings: with its river card's arrays and payoffs,
    0 for holdings that hold that card; a turn fold end with the turn's."""
    tree, hands, pay = spot
    alive, _, keep, pidx = chance
    nodes = tree[TH_NODES]
    i = nodes[v, CARD]
    k = i if i >= 0 else alive.shape[0]
    _terminal_keep(v, trav, ((tree[TH_NODES], tree[TH_CHILDREN], tree[TH_TERMINALS], tree[TH_DECISIONS]), _card_hands(hands, k), pay[pidx[k]]), reach,
                   inv, out, keep[trav])
    if i >= 0:
        for h in range(hands[HD_N][trav]):
            out[h] *= alive[i, trav, h]


@kernel(parallel=True)
def _terminals_parallel(active, trav, spot, chance, reach, inv, vals):
    """The values of the terminals ``active`` (one task each)."""
    tree, hands, pay = spot  # packed again in the body: numba's parallel wrapper takes no tuple of tuples
    for j in prange(active.shape[0]):
        v = active[j]
        _value_terminal(v, trav, (tree, hands, pay), chance, reach, inv, vals[v])


@kernel(inline=True)
def walk(spot, weights, chance, state, work, iopts, coefs, chosen):
    """One walk for ``iopts[O_TRAV]`` in ``iopts[O_MODE]`` over the river card indices ``chosen``
    (distinct; all ``C`` of them: exact), each river-card node's value the chosen children's sum
    times ``C / (len(chosen) x (D - 10))``; the root's value row is ``vals[0]``. ``tree``: nodes,
    children, terminals, decisions and the decisions and river-card nodes together in preorder;
    ``chance``: ``alive`` (float64[C, 3, H], 0 where a holding holds the card), ``factors`` and
    ``keep`` (bool[3, H]: the traverser's holdings whose values the terminals compute; all but a
    sample when NashConv is estimated) and ``pidx`` (each river card's table in ``pay``, the last
    the turn's fold ends: river cards that settle alike share one). ``spot`` is ``(tree, hands, pay)``."""
    tree, hands, pay = spot
    nodes, children, terminals, decisions, inner = tree
    alive, factors, keep, pidx = chance
    regrets, sums = state
    strat, reach, vals = work
    cfr = (regrets, sums, iopts, coefs)
    n = hands[HD_N]
    trav, mode = iopts[O_TRAV], iopts[O_MODE]
    n_river = alive.shape[0]
    picked = np.zeros(n_river, np.bool_)
    for j in range(chosen.shape[0]):
        picked[chosen[j]] = True
    factor = factors[SF_EXACT] * n_river / chosen.shape[0]
    n_nodes = nodes.shape[0]
    active = np.empty(n_nodes, np.bool_)
    for v in range(n_nodes):
        i = nodes[v, CARD]
        active[v] = i < 0 or picked[i]
    total = np.empty(max(n[0], n[1], n[2]))
    for j in range(decisions.shape[0]):
        v = decisions[j]
        if active[v]:
            strategy_at(v, nodes, n, regrets, sums, mode, strat, total)
    for p in range(3):
        for h in range(n[p]):
            reach[0, p, h] = weights[p, h]
    for j in range(inner.shape[0]):
        v = inner[j]
        if not active[v]:
            continue
        if nodes[v, KIND] == DECISION:
            reach_decision(v, nodes, children, n, strat, reach)
            continue
        for a in range(nodes[v, COUNT]):
            c = children[v, a]
            if not active[c]:
                continue
            for q in range(3):
                for h in range(n[q]):
                    reach[c, q, h] = reach[v, q, h] * alive[a, q, h]
    count = 0
    for j in range(terminals.shape[0]):
        if active[terminals[j]]:
            count += 1
    todo = np.empty(count, np.int64)
    count = 0
    for j in range(terminals.shape[0]):
        if active[terminals[j]]:
            todo[count] = terminals[j]
            count += 1
    inv = coefs[C_INV_PAIRS]
    if n[trav] * min(n[(trav + 1) % 3], n[(trav + 2) % 3]) >= iopts[O_PARALLEL_PAIRS]:
        _terminals_parallel(todo, trav, spot, chance, reach, inv, vals)
    else:
        for j in range(todo.shape[0]):
            v = todo[j]
            _value_terminal(v, trav, spot, chance, reach, inv, vals[v])
    m = n[trav]
    for j in range(inner.shape[0] - 1, -1, -1):
        v = inner[j]
        if not active[v]:
            continue
        if nodes[v, KIND] == DECISION:
            close_decision(v, tree, n, cfr, work)
            continue
        for h in range(m):
            vals[v, h] = 0.0
        for j in range(chosen.shape[0]):
            c = children[v, chosen[j]]
            for h in range(m):
                vals[v, h] += vals[c, h]
        for h in range(m):
            vals[v, h] *= factor


@kernel
def draw_cards(key, t, trav, n_cards, out):
    """Fill ``out`` with distinct river card indices for iteration ``t``'s walk for ``trav``:
    a uniform sample without replacement of ``len(out)`` of ``[0, n_cards)`` (partial Fisher-Yates)."""
    rng = np.zeros(4, np.uint64)
    seed_state(rng, key, t * 3 + trav)
    deck = np.arange(n_cards)
    for j in range(out.shape[0]):
        r = j + bounded(rng, n_cards - j)
        deck[j], deck[r] = deck[r], deck[j]
        out[j] = deck[j]


@kernel
def run(spot, weights, chance, cfr, work, job, chosen, out):
    """The turn solver's one entry kernel, ``job = (mode, trav, first, count, key, per_walk)``:

    - ``trav >= 0``: one :func:`walk` of ``trav`` in ``mode`` over the river card indices
      ``chosen`` (every node's values in ``work``; in ``MODE_CFR`` the updates use ``coefs``
      as they are);
    - ``MODE_CFR``: iterations ``first .. first + count - 1`` (0-based), updates alternating
      over the players, each walk on ``per_walk`` river cards drawn from ``key`` (``chosen``,
      every river card, when ``per_walk`` is not smaller: exact CFR);
    - ``MODE_EV`` / ``MODE_BR``: every player's root value row under the average strategies
      or its best response, over ``chosen`` (all: exact; fewer: an estimate, see
      :func:`walk`), into ``out`` (float64[3, H]).

    One entry with one call of the inlined :func:`walk`, not one entry per job: each entry's
    library would hold and emit the whole walk again."""
    mode, trav, first, count, key, per_walk = job
    regrets, sums, iopts, coefs = cfr
    _, hands, _ = spot
    _, _, vals = work
    iopts[O_MODE] = mode
    iterations = mode == MODE_CFR and trav < 0
    sampled = iterations and per_walk < chance[CH_ALIVE].shape[0]
    cards = np.zeros(per_walk, np.int64) if sampled else chosen
    for t in range(first, first + (count if iterations else 1)):
        if iterations:
            dcfr_coefs(t, coefs)
        for p in range(3):
            if trav >= 0 and p != trav:
                continue
            iopts[O_TRAV] = p
            if sampled:
                draw_cards(key, t, p, chance[CH_ALIVE].shape[0], cards)
            walk(spot, weights, chance, (regrets, sums), work, iopts, coefs, cards)  # the one call site
            if mode != MODE_CFR and trav < 0:
                for h in range(hands[HD_N][p]):
                    out[p, h] = vals[0, h]


__all__ = ["SF_EXACT", "N_FACTORS", "draw_cards", "run", "walk"]
