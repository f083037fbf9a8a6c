"""Slow reference of a Bluffjack strategy's decision, read off the referee's state.

What a player sees (``strategy.FEATURES``) computed from :class:`BluffjackHand` in plain
Python, the first matching rule, and the deterministic action it gives (the kernel's
choices are checked against it for strategies whose probabilities are 0 or 1).
"""

from __future__ import annotations

from analysis.engine.bluffjack.referee import ROUNDS, BluffjackHand, visible_total
from analysis.engine.bluffjack.strategy import DK_BET, DK_HIT, Strategy
from evaluator.blackjack import card_points, hand_total


def features(hand: BluffjackHand, i: int) -> list[int]:
    """round, facing, total, hidden, visible, opp, players, raises of seat ``i`` (a bust total is
    its hard total, as ``hand_total`` gives it)."""
    s = hand.seats[i]
    first = hand.round == "first"
    total = hand_total([s.down]).total if first else hand_total(s.cards).total
    hidden = card_points(s.down)
    opp = 0
    if not first:
        for j in hand.in_hand:
            if j != i:
                v = visible_total([hand.seats[j].up, *hand.seats[j].hits])
                if v <= 21:
                    opp = max(opp, v)
    visible = 0 if first else visible_total([s.up, *s.hits])
    return [ROUNDS.index(hand.round), int(hand.level > s.bet), total, 11 if hidden == 1 else hidden,
            visible, opp, len(hand.in_hand), hand.raises]


def decide(strategy: Strategy, hand: BluffjackHand) -> tuple[str, int | None]:
    """The action of a deterministic strategy: ``(hit|stand|fold|check|call|bet|raise, to)``."""
    legal = hand.legal()
    if legal.forced:
        return "bet", legal.min_to
    feats = features(hand, legal.player)
    if not legal.betting:
        rule = strategy.rule_for(DK_HIT, feats)
        hit = rule is not None and rule.probs[0] == 1 and legal.hit
        return ("hit", None) if hit else ("stand", None)
    rule = strategy.rule_for(DK_BET, feats)
    fold, _, raise_ = rule.probs if rule is not None else (0, 1, 0)
    if fold == 1 and legal.fold:
        return "fold", None
    if raise_ == 1 and legal.min_to >= 0:
        kind = "bet" if hand.level == 0 else "raise"
        if hand.stakes.limit == "fixed":
            return kind, legal.min_to
        call = hand.level - hand.seats[legal.player].bet
        to = hand.level + int(rule.size * (hand.pot + call) + 0.5)
        return kind, min(max(to, legal.min_to), legal.max_to)
    return ("check" if legal.call == 0 else "call"), None
