"""Slow, obviously correct Three Card Brag ranking, written from RULES §4 (no tables).

``ref_brag(cards, a23_high)`` returns ``(category, tiebreak...)``; larger tuples are
better hands and equal tuples are ties (no suit order). Card ids are rank * 4 + suit
with rank 0 the 2 and rank 12 the ace.
"""

from __future__ import annotations

from collections import Counter

HIGH_CARD, PAIR, FLUSH, RUN, RUNNING_FLUSH, PRIAL = range(6)
ACE = 12
THREE = 1


def _is_run(ranks: set[int]) -> bool:
    """Three consecutive ranks: the ace counts high (A-K-Q) or low (3-2-A), never both (2-A-K)."""
    low = sorted(ranks)
    return len(low) == 3 and (low[2] - low[0] == 2 or low == [0, THREE, ACE])


def _run_strength(ranks: set[int], a23_high: bool) -> int:
    """Higher is better: A-K-Q 12 ... 4-3-2 2; 3-2-A is 0 (lowest) or 13 (A-2-3 best)."""
    if sorted(ranks) == [0, THREE, ACE]:
        return 13 if a23_high else 0
    return max(ranks)


def ref_brag(cards: list[int], a23_high: bool = False) -> tuple[int, ...]:
    """(category, tiebreak...) of a 3-card hand from the definitions."""
    assert len(cards) == 3 and len(set(cards)) == 3
    ranks = [c // 4 for c in cards]
    suits = [c % 4 for c in cards]
    counts = Counter(ranks)
    flush = len(set(suits)) == 1
    if len(counts) == 1:
        r = ranks[0]
        return (PRIAL, 100 if r == THREE else r)  # the prial of threes beats every other prial
    if len(counts) == 2:
        pair = next(r for r, n in counts.items() if n == 2)
        odd = next(r for r, n in counts.items() if n == 1)
        return (PAIR, pair, odd)
    distinct = set(ranks)
    if _is_run(distinct):
        return (RUNNING_FLUSH if flush else RUN, _run_strength(distinct, a23_high))
    high_to_low = tuple(sorted(ranks, reverse=True))
    return (FLUSH if flush else HIGH_CARD, *high_to_low)


def ref_headsup_counts(hands, scores, chunk: int = 256):
    """(win, tie, loss) counts of every hand against every hand sharing no card with it: the
    plain double loop over all pairs of hands (numpy by chunks of heroes, no counting tricks)."""
    import numpy as np

    masks = np.zeros(len(hands), dtype=np.uint64)
    for i in range(3):
        masks |= np.left_shift(np.uint64(1), hands[:, i].astype(np.uint64))
    win = np.empty(len(hands), np.int64)
    tie = np.empty(len(hands), np.int64)
    loss = np.empty(len(hands), np.int64)
    for lo in range(0, len(hands), chunk):
        hi = min(lo + chunk, len(hands))
        disjoint = (masks[lo:hi, None] & masks[None, :]) == 0
        s = scores[lo:hi, None]
        win[lo:hi] = (disjoint & (scores[None, :] < s)).sum(axis=1)
        tie[lo:hi] = (disjoint & (scores[None, :] == s)).sum(axis=1)
        loss[lo:hi] = (disjoint & (scores[None, :] > s)).sum(axis=1)
    return win, tie, loss


def ref_blind_hand(scores: list[int], stake: float, thresholds: list[float], blind_turns: int,
                   ante: float = 1.0, blind_factor: float = 2.0, see_factor: float = 2.0,
                   open_sees_blind: bool = True) -> list[float]:
    """Every seat's net gain in one hand of the blind-play betting model (seat 0 is the hero,
    blind for its first ``blind_turns`` turns): a plain referee that moves chips into a pot
    and out to the winners, so the nets always sum to zero."""
    players = len(scores)
    paid = [ante] * players
    still_in = list(range(players))
    winners: list[int] = []
    for rnd, threshold in enumerate(thresholds):
        for seat in range(players):
            if seat not in still_in or winners:
                continue
            blind = seat == 0 and rnd < blind_turns
            if not blind and scores[seat] < threshold:
                still_in.remove(seat)
                if len(still_in) == 1:
                    winners = still_in[:]
                continue
            price = stake / blind_factor if blind else stake
            hero_blind = rnd < blind_turns  # the hero acts first, so this round's status is known
            may_see = open_sees_blind or seat == 0 or not hero_blind or 0 not in still_in
            if len(still_in) == 2 and any(p > ante for p in paid) and may_see:
                # the see: double the last stake (there must be one), the seen player wins ties
                paid[seat] += price * see_factor
                other = still_in[0] if still_in[1] == seat else still_in[1]
                winners = [seat] if scores[seat] > scores[other] else [other]
                continue
            paid[seat] += price
        if winners:
            break
    if not winners:  # the cap: everyone still in shows down, ties split
        best = max(scores[p] for p in still_in)
        winners = [p for p in still_in if scores[p] == best]
    pot = sum(paid)
    return [(pot / len(winners) if p in winners else 0.0) - paid[p] for p in range(players)]
