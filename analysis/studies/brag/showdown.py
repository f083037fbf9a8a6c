"""Who takes a Brag pot at the showdown, out-of-chips players included (RULES §4, seed 004).

A player who runs out of chips and does not want to fold puts the rest of their chips
in the pot and their hand face down on it; the others go on betting into a new pot.
When that betting is settled, its winner and the player out of chips compare hands
and the stronger takes the old pot; **on equal hands the player who ran out of chips
loses** (「強さが同じならば、手持ちのチップがなくなったほうが負けます」). So each pot goes
to the best hand among the players still in who put chips into it, a player out of
chips losing every tie against one who is not; hands still equal split the pot (two
players out of chips with equal hands, or two with chips).

The blind-play study (:mod:`.blind`) deals stakes nobody runs short of, so its
showdowns never meet this rule; it is the referee for a table with stacks.
"""

from __future__ import annotations

from collections.abc import Sequence

from evaluator.errors import LabError


class BragShowdownError(LabError):
    """A Brag showdown that cannot be settled (no player in a pot, mismatched lengths)."""


def showdown_winners(players: Sequence[int], scores: Sequence[int],
                     out_of_chips: Sequence[bool]) -> list[int]:
    """The players (of ``players``) who take a pot: the best score; on equal scores a player
    out of chips loses to one who is not (RULES §4); those still equal share it."""
    if not players:
        raise BragShowdownError("a pot needs at least one player still in")
    best = max((scores[p], not out_of_chips[p]) for p in players)
    return [p for p in players if (scores[p], not out_of_chips[p]) == best]


def award_pots(pots: Sequence[tuple[float, Sequence[int]]], scores: Sequence[int],
               out_of_chips: Sequence[bool]) -> list[float]:
    """What each player takes from ``pots`` (the amount and the players still in who put chips
    into it; the oldest pot first), by :func:`showdown_winners`; a shared pot splits evenly."""
    if len(scores) != len(out_of_chips):
        raise BragShowdownError(f"one score and one out-of-chips flag per player; got "
                                f"{len(scores)} and {len(out_of_chips)}")
    won = [0.0] * len(scores)
    for amount, players in pots:
        winners = showdown_winners(players, scores, out_of_chips)
        for p in winners:
            won[p] += amount / len(winners)
    return won
