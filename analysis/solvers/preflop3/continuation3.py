"""What seeing the flop is worth three-handed, per triple of starting classes: the check-down.

As heads-up (:mod:`analysis.solvers.preflop_hu.continuation`), a terminal where two or three
players see the flop is worth the *check-down*: nobody bets after the flop, the five board cards
come and the hand is settled by the real rules (the pot with a folder's chips in it, the bonus, the
penalty of the river's losers, hand and board effects, red cards from the turn, the bank's caps). A
player who folded before the flop pays no penalty and has no hand effect. A *fold end* (one player
left, no board) is settled the same way. The settlement is the card-level solver's three-handed
table (:func:`analysis.solvers.card_level.dilemma_terminals.situation_payoffs3`): every situation, winner
set and triple of hand-effect classes, on each board of a pool; a pre-flop folder enters it as a
player who folded before the last round (the same money: no penalty, no effect, no share).

The values are sample means. ``boards`` boards are drawn uniformly (seeded, five cards in deal
order) and settled once each; then for every triple of starting classes that can be dealt,
``deals`` triples of holdings are drawn from the classes, card removal exact (the second holding
among the class's holdings clear of the first, the third clear of both, each deal weighted by how
many holdings it could have drawn, so that every disjoint triple counts alike), and each deal takes
a board of the pool that misses its six cards, uniformly. Where all three see the flop the value
is per triple of classes; where two see it (a folder's chips in the pot) per pair of the live
players' classes, pooled over the folder's class with the deal's weights (a folder's cards change
the board's odds a little: that is averaged in); a fold end is settled per hand-effect class and
mixed by the winner's class's own share of them (its green cards), not shifted by the opponents'
cards (a small approximation where two players hold aces or deuces of the same class).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analysis.solvers.card_level.dilemma_terminals import (
    DilemmaTable,
    holding_classes,
    situation_payoffs3,
)
from analysis.solvers.preflop_hu.continuation import board_scores, sample_boards
from analysis.solvers.preflop_hu.solve import PreflopError

from .deal3 import ClassDeal

FOLD_END, FLOP2, FLOP3 = 0, 1, 2
"""Kinds of terminal situation: one player left, two see the flop, three see it."""
CHUNK = 1 << 18
"""Deals drawn at a time."""
_RIVER, _EARLY = 2, 1
"""settle_situations3's 'street the hand ends on': 2 settles on five board cards, 1 on ``nboard < 5``
cards (here none: a fold end before the flop)."""


def situation_kind(live: int) -> int:
    """FOLD_END, FLOP2 or FLOP3 from a live mask."""
    return (FOLD_END, FOLD_END, FLOP2, FLOP3)[bin(live).count("1")]


def situation_rows(situations: list[tuple[int, int, int, int]]) -> np.ndarray:
    """The situations as settle_situations3's rows: live mask, chips put in by players 0-2, the
    folders (settled as folding before the last round), the street the hand ends on."""
    rows = np.zeros((len(situations), 6), dtype=np.int64)
    for i, (live, *put) in enumerate(situations):
        rows[i] = (live, *put, 0b111 & ~live, _EARLY if situation_kind(live) == FOLD_END else _RIVER)
    return rows


@dataclass(frozen=True)
class Deals:
    """Sampled deals: three holdings (rows of the class deal's holdings), the triple of classes,
    the importance weight and the board of the pool."""

    hands: np.ndarray  # int32[N, 3]
    triple: np.ndarray  # int64[N]: g0 * G * G + g1 * G + g2
    weight: np.ndarray  # float64[N]
    board: np.ndarray  # int64[N]


def _pick(cands: np.ndarray, ok: np.ndarray, u: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per row a uniformly chosen entry of ``cands`` where ``ok``, and how many there were."""
    n = ok.sum(axis=1)
    r = np.floor(u * n).astype(np.int64)
    cum = np.cumsum(ok, axis=1)
    at = np.argmax(cum > r[:, None], axis=1)
    return cands[np.arange(len(cands)), at], n


def sample_deals(deal: ClassDeal, per_triple: int, boards: np.ndarray, rng: np.random.Generator) -> Deals:
    """``per_triple`` deals of every triple of classes that can be dealt (see the module docstring)."""
    g = deal.n_classes
    triples = np.flatnonzero(deal.weights.ravel() > 0)
    cards = deal.holdings
    masks = (np.uint64(1) << cards[:, 0].astype(np.uint64)) | (np.uint64(1) << cards[:, 1].astype(np.uint64))
    bmask = np.zeros(len(boards), dtype=np.uint64)
    for i in range(boards.shape[1]):
        bmask |= np.uint64(1) << boards[:, i].astype(np.uint64)
    todo = np.repeat(triples, per_triple)
    got_h, got_t, got_w = [], [], []
    while len(todo):
        again = []
        for lo in range(0, len(todo), CHUNK):  # chunks bound the memory of the candidate masks
            part = todo[lo : lo + CHUNK]
            a, b, c = part // (g * g), (part // g) % g, part % g
            u = rng.random((len(part), 3))
            h0 = deal.combos[a, np.floor(u[:, 0] * deal.sizes[a]).astype(np.int64)]
            cb = deal.combos[b]
            ok1 = (cb >= 0) & ((masks[np.maximum(cb, 0)] & masks[h0][:, None]) == 0)
            h1, n1 = _pick(cb, ok1, u[:, 1])
            used = masks[h0] | masks[h1]
            cc = deal.combos[c]
            ok2 = (cc >= 0) & ((masks[np.maximum(cc, 0)] & used[:, None]) == 0)
            h2, n2 = _pick(cc, ok2, u[:, 2])
            good = (n1 > 0) & (n2 > 0)
            got_h.append(np.stack([h0, h1, h2], axis=1)[good].astype(np.int32))
            got_t.append(part[good])
            got_w.append((n1 * n2)[good].astype(np.float64))
            again.append(part[~good])
        todo = np.concatenate(again)  # a draw that could not be completed is drawn again (weights stay exact)
    hands = np.concatenate(got_h)
    hand_mask = masks[hands[:, 0]] | masks[hands[:, 1]] | masks[hands[:, 2]]
    board = rng.integers(0, len(boards), len(hands))
    bad = np.flatnonzero(bmask[board] & hand_mask)
    tries = 0
    while len(bad):  # a board of the pool that misses the six cards, uniformly
        board[bad] = rng.integers(0, len(boards), len(bad))
        bad = bad[(bmask[board[bad]] & hand_mask[bad]) != 0]
        tries += 1
        if tries % 64 == 0 and any(((bmask[None, :] & hand_mask[bad[i : i + 4096]][:, None]) != 0).all(axis=1).any()
                                   for i in range(0, len(bad), 4096)):  # a small pool may miss none
            raise PreflopError(f"none of the pool's {len(boards):,} boards misses all six cards of some deal: "
                               "draw more boards (a few hundred)")
    return Deals(hands, np.concatenate(got_t), np.concatenate(got_w), board)


@dataclass(frozen=True)
class BoardClusters:
    """Sampled deals grouped into cells (a triple or a pair of classes) and, within a cell, by the board of
    the pool they were settled on: deals on one board are not independent (the pool is finite and reused),
    so a cell's standard error counts each board's deals as one cluster."""

    cell: np.ndarray
    """int64[N]: each deal's cell."""
    cluster: np.ndarray
    """int64[N]: each deal's cluster (a cell and a board)."""
    cluster_cell: np.ndarray
    """int64[C]: each cluster's cell."""
    factor: np.ndarray
    """float64[cells]: m / (m - 1) for a cell of m clusters (0 below two: no spread to measure)."""

    def mean_and_var(self, w: np.ndarray, x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per cell the ``w``-weighted mean of ``x``, the variance of that mean (board clusters) and the
        cell's total weight."""
        n = len(self.factor)
        norm = np.bincount(self.cell, weights=w, minlength=n)
        nz = np.where(norm > 0, norm, 1.0)
        mean = np.bincount(self.cell, weights=w * x, minlength=n) / nz
        per_cluster = np.bincount(self.cluster, weights=w * (x - mean[self.cell]), minlength=len(self.cluster_cell))
        var = np.bincount(self.cluster_cell, weights=per_cluster ** 2, minlength=n) / nz ** 2 * self.factor
        return mean, var, norm

    def transposed(self, g: int) -> BoardClusters:
        """The same clusters with a pair cell ``a * g + b`` read as ``b * g + a`` (the other player's view)."""
        def flip(c: np.ndarray) -> np.ndarray:
            return (c % g) * g + c // g

        return BoardClusters(flip(self.cell), self.cluster, flip(self.cluster_cell), self.factor.reshape(g, g).T.ravel())


def board_clusters(cell: np.ndarray, board: np.ndarray, n_boards: int, n_cells: int) -> BoardClusters:
    """The deals' cells (numbers below ``n_cells``) split by board (numbers below ``n_boards``)."""
    keys, cluster = np.unique(cell.astype(np.int64) * n_boards + board, return_inverse=True)
    cluster_cell = keys // n_boards
    m = np.bincount(cluster_cell, minlength=n_cells).astype(np.float64)
    factor = np.where(m > 1, m / np.maximum(m - 1, 1), 0.0)
    return BoardClusters(cell.astype(np.int64), cluster.ravel(), cluster_cell, factor)


@dataclass(frozen=True, eq=False)
class Continuation3:
    """Each player's check-down value (chips after the hand less chips before) at every terminal
    situation of a three-handed pre-flop tree, by starting class."""

    situations: tuple[tuple[int, int, int, int], ...]
    """(live mask, chips put in by players 0-2) per situation."""
    own: dict[tuple[int, int], np.ndarray]
    """``own[(s, p)]``: float64[G], player ``p``'s value by its own class (a fold end; a folder)."""
    pair: dict[tuple[int, int], tuple[int, np.ndarray]]
    """``pair[(s, p)] = (o, m)``: two see the flop; ``m[a, b]`` player ``p``'s value with class ``a`` when
    the other live player ``o`` holds ``b``."""
    triple: dict[tuple[int, int], np.ndarray]
    """``triple[(s, p)]``: float64[G, G, G], player ``p``'s value when players 0, 1, 2 hold classes
    ``a, b, c`` (three see the flop)."""
    boards: int
    deals: int
    """Deals per triple of classes."""
    seed: int
    se: dict[int, float]
    """Per chip level where three see the flop: the root mean square, over triples of classes (weighted
    by their probability) and players, of the standard error of a triple's value (NaN with one deal
    per triple: no spread to measure). The deals settled on one board of the pool count as one cluster
    (:class:`BoardClusters`), with the m / (m - 1) of a spread measured about the sample's own mean."""
    se_pair: dict[int, float]
    """Per chip level where two see the flop: the same over pairs of classes, every such situation (a
    pair's deals, pooled over the folder's class, share the pool's boards: the clusters matter here)."""


def checkdown3(table: DilemmaTable, deal: ClassDeal, situations: list[tuple[int, int, int, int]], chips: int,
               boards: int = 1000, deals: int = 4, seed: int = 0) -> Continuation3:
    """The check-down values of every situation (see the module docstring): ``boards`` boards in the
    pool, ``deals`` deals per triple of classes, seeded."""
    g = deal.n_classes
    spec = table.deck.spec
    (hcls,), reps, _ = holding_classes(table.deck, [deal.holdings])  # hand-effect class of each holding
    k = len(reps)
    kinds = [situation_kind(s[0]) for s in situations]
    rows = situation_rows(situations)
    river = [i for i, kd in enumerate(kinds) if kd != FOLD_END]
    folds = [i for i, kd in enumerate(kinds) if kd == FOLD_END]
    own: dict[tuple[int, int], np.ndarray] = {}
    pair: dict[tuple[int, int], tuple[int, np.ndarray]] = {}
    triple: dict[tuple[int, int], np.ndarray] = {}
    # fold ends: each hand-effect class settled, mixed by the class's share of them
    share = np.zeros((g, k))
    np.add.at(share, (deal.cls, hcls), 1.0)
    share /= share.sum(axis=1, keepdims=True)
    if folds:
        tab = situation_payoffs3(table, chips, rows[folds], np.zeros(0, np.int64), reps)
        for j, s in enumerate(folds):
            live = situations[s][0]
            for p in range(3):
                kk = np.zeros((k, 3), dtype=np.int64)
                kk[:, p] = np.arange(k)
                own[(s, p)] = share @ tab[j, p, live, kk[:, 0], kk[:, 1], kk[:, 2]]
    if not river:
        return Continuation3(tuple(situations), own, pair, triple, boards, deals, seed, {}, {})
    rng = np.random.default_rng([seed, 0x3F10F])
    pool = sample_boards(spec.n_cards, boards, seed)
    scores = board_scores(deal.holdings, pool, spec.name)
    flop3 = [s for s in river if kinds[s] == FLOP3]
    flop2 = [s for s in river if kinds[s] == FLOP2]
    # settle every board once: three see the flop [B, s, p, w, k0, k1, k2]; two see it [B, s, p, w, ka, kb]
    t3 = np.zeros((boards, len(flop3), 3, 8, k, k, k), dtype=np.float32)
    t2 = np.zeros((boards, len(flop2), 3, 8, k, k), dtype=np.float32)
    livepair = [tuple(p for p in range(3) if situations[s][0] >> p & 1) for s in flop2]
    sub = rows[river]
    at3 = [river.index(s) for s in flop3]
    at2 = [river.index(s) for s in flop2]
    for b in range(boards):
        tab = situation_payoffs3(table, chips, sub, pool[b], reps)
        t3[b] = tab[at3]
        for j, (pa, pb) in enumerate(livepair):
            fold = 3 - pa - pb
            t = np.moveaxis(tab[at2[j]], (2 + pa, 2 + pb, 2 + fold), (2, 3, 4))  # [p, w, ka, kb, kf]
            t2[b, j] = t[:, :, :, :, 0]
    d = sample_deals(deal, deals, pool, rng)
    hk = hcls[d.hands]  # [N, 3] hand-effect classes
    sc = scores[d.board[:, None], d.hands]  # [N, 3]
    wsum = np.bincount(d.triple, weights=d.weight, minlength=g ** 3)
    prob = deal.weights.ravel()
    alpha = prob[d.triple] * d.weight / wsum[d.triple]  # each deal's share of the joint probability
    best = sc.max(axis=1)
    w3 = ((sc[:, 0] == best) * 1 + (sc[:, 1] == best) * 2 + (sc[:, 2] == best) * 4).astype(np.int64)
    se: dict[int, list[float]] = {}
    by_triple = board_clusters(d.triple, d.board, boards, g ** 3)
    for j, s in enumerate(flop3):
        level = situations[s][1]
        errs = []
        for p in range(3):
            pay = t3[d.board, j, p, w3, hk[:, 0], hk[:, 1], hk[:, 2]].astype(np.float64)
            mean, var, _ = by_triple.mean_and_var(d.weight, pay)
            triple[(s, p)] = mean.reshape(g, g, g)
            errs.append(float((prob * var).sum() / prob.sum()))
        se.setdefault(level, []).append(float(np.mean(errs)))
    se2: dict[int, list[float]] = {}
    for live_pair in dict.fromkeys(livepair):  # one live pair's clusters at a time (memory)
        pa, pb = live_pair
        sa, sb = sc[:, pa], sc[:, pb]
        w2 = np.where(sa > sb, 1 << pa, np.where(sa < sb, 1 << pb, (1 << pa) | (1 << pb)))
        ca, cb = deal.cls[d.hands[:, pa]], deal.cls[d.hands[:, pb]]
        by_pair = board_clusters(ca * g + cb, d.board, boards, g * g)
        views = {pa: (by_pair, pb), pb: (by_pair.transposed(g), pa)}
        for j, s in enumerate(flop2):
            if livepair[j] != live_pair:
                continue
            fold = 3 - pa - pb
            errs = []
            for p in (pa, pb):
                clusters, o = views[p]
                pay = t2[d.board, j, p, w2, hk[:, pa], hk[:, pb]].astype(np.float64)
                mean, var, norm = clusters.mean_and_var(alpha, pay)
                pair[(s, p)] = (o, mean.reshape(g, g))
                errs.append(float((norm * var).sum() / norm.sum()))
            folder_pay = t2[:, j, fold, (1 << pa) | (1 << pb), 0, 0].astype(np.float64)
            own[(s, fold)] = np.full(g, float(folder_pay.mean()))
            se2.setdefault(max(situations[s][1:]), []).append(float(np.mean(errs)))
    return Continuation3(tuple(situations), own, pair, triple, boards, deals, seed,
                         {lv: float(np.sqrt(np.mean(v))) if deals > 1 else float("nan") for lv, v in se.items()},
                         {lv: float(np.sqrt(np.mean(v))) for lv, v in se2.items()})
