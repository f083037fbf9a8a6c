"""Slow, obviously correct references for the solvers, written from the game rules and definitions.

Nothing here uses :mod:`analysis.solvers`: the games are re-implemented from
their rules (Kuhn poker; Leduc hold'em as open_spiel plays it) as small state
machines, and the best response is computed two independent ways:

- :func:`kuhn_br_by_enumeration`: try every pure strategy of the responder
  (2^6 = 64 in two-player Kuhn) and keep the best expected payoff;
- :func:`br_value`: the textbook recursion: at the responder's node take the
  action that maximises the sum, over all histories of the information set, of
  (others' and chance's reach) x (value below).

A *policy* is a dict ``{(player, infoset key): [probabilities of legal actions]}``;
infoset keys are ``(private card, public card or None, history)`` with history
tokens ``f`` fold, ``c`` check/call, ``r`` bet/raise and ``/`` between rounds.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from fractions import Fraction

# ---------------------------------------------------------------- Kuhn (2 players)


class Kuhn:
    """Two-player Kuhn poker: cards J<Q<K (0, 1, 2), ante 1, one bet of 1, player 0 opens."""

    n_players = 2
    _PAYOFF = {"cc": 1, "rc": 2, "crc": 2}  # showdowns: what the better card wins

    def deals(self):
        """All (probability, (card of player 0, card of player 1)) pairs."""
        return [(Fraction(1, 6), (a, b)) for a in range(3) for b in range(3) if a != b]

    def root(self, deal):
        return (deal, "")

    def terminal_payoff(self, state):
        (a, b), h = state
        if h in self._PAYOFF:
            win = self._PAYOFF[h] if a > b else -self._PAYOFF[h]
            return [win, -win]
        if h == "rf":  # player 1 folds to the bet
            return [1, -1]
        if h == "crf":  # player 0 folds to the bet
            return [-1, 1]
        return None

    def player(self, state):
        return len(state[1]) % 2

    def actions(self, state):
        return ["f", "c"] if state[1].endswith("r") else ["c", "r"]

    def child(self, state, action):
        return (state[0], state[1] + action)

    def infoset(self, state, p):
        (a, b), h = state
        return (a if p == 0 else b, None, h)


def kuhn_pure_strategies():
    """Every pure strategy of one player: a dict infoset history -> bet (1) or not (0)."""
    return list(itertools.product([0, 1], repeat=6))


def kuhn_value(policy, p_br=None, pure=None):
    """Expected payoffs of both players; player ``p_br`` plays the pure strategy ``pure``
    (a tuple of 6 bits over (card, history) in the order below) instead of ``policy``."""
    game = Kuhn()
    slots = [(c, h) for c in range(3) for h in (("", "cr") if p_br == 0 else ("c", "r"))]
    total = [0.0, 0.0]

    def prob_second(p, state):
        key = game.infoset(state, p)
        if p == p_br:
            return float(pure[slots.index((key[0], key[2]))])
        return policy[(p, key)][1]

    def walk(state, reach):
        pay = game.terminal_payoff(state)
        if pay is not None:
            total[0] += reach * pay[0]
            total[1] += reach * pay[1]
            return
        p = game.player(state)
        q = prob_second(p, state)
        first, second = game.actions(state)
        if q < 1:
            walk(game.child(state, first), reach * (1 - q))
        if q > 0:
            walk(game.child(state, second), reach * q)

    for pr, deal in game.deals():
        walk(game.root(deal), float(pr))
    return total


def kuhn_br_by_enumeration(policy, player):
    """The best-response value of ``player`` against ``policy``: max over all 64 pure strategies."""
    return max(kuhn_value(policy, player, pure)[player] for pure in kuhn_pure_strategies())


# ---------------------------------------------------------------- Leduc (open_spiel's rules)


class Leduc:
    """Leduc hold'em: cards 0..5, rank = card // 2; ante 1; raises 2 then 4; 2 raises a round;
    player 0 opens both rounds; fold only when facing a bet; a pair with the board wins,
    else the higher private card; equal ranks split."""

    n_players = 2

    def initial(self):
        return {"cards": (), "rounds": [""], "pot": [1, 1]}

    # state: dict with cards (p0, p1, public), rounds (histories), pot (contributions)
    def is_chance(self, s):
        return len(s["cards"]) < 2 or (len(s["rounds"]) == 2 and len(s["cards"]) < 3)

    def chance_outcomes(self, s):
        left = [c for c in range(6) if c not in s["cards"]]
        return [(1.0 / len(left), c) for c in left]

    def deal(self, s, c):
        return {"cards": (*s["cards"], c), "rounds": list(s["rounds"]), "pot": list(s["pot"])}

    def _round_state(self, s):
        h = s["rounds"][-1]
        raises = h.count("r")
        return h, raises

    def is_terminal(self, s):
        h = s["rounds"][-1]
        if h.endswith("f"):
            return True
        return len(s["rounds"]) == 2 and len(s["cards"]) == 3 and self._round_over(h)

    @staticmethod
    def _round_over(h):
        return h in ("cc",) or (len(h) >= 2 and h.endswith("c") and "r" in h)

    def returns(self, s):
        h = s["rounds"][-1]
        pot = s["pot"]
        if h.endswith("f"):
            folder = (len(h) - 1) % 2
            winner = 1 - folder
            return [pot[1 - p] if p == winner else -pot[p] for p in range(2)]
        a, b, pub = s["cards"]

        def strength(c):
            return (1 if c // 2 == pub // 2 else 0, c // 2)

        sa, sb = strength(a), strength(b)
        if sa == sb:
            return [0.0, 0.0]
        w = 0 if sa > sb else 1
        return [pot[1 - p] if p == w else -pot[p] for p in range(2)]

    def player(self, s):
        return len(s["rounds"][-1]) % 2

    def actions(self, s):
        h, raises = self._round_state(s)
        p = self.player(s)
        facing = s["pot"][1 - p] > s["pot"][p]
        acts = (["f"] if facing else []) + ["c"]
        if raises < 2:
            acts.append("r")
        return acts

    def child(self, s, a):
        p = self.player(s)
        rounds = list(s["rounds"])
        pot = list(s["pot"])
        rounds[-1] += a
        size = 2 if len(rounds) == 1 else 4
        if a == "c":
            pot[p] = pot[1 - p]
        elif a == "r":
            pot[p] = pot[1 - p] + size
        t = {"cards": s["cards"], "rounds": rounds, "pot": pot}
        if a != "f" and len(rounds) == 1 and self._round_over(rounds[-1]):
            t["rounds"] = [*rounds, ""]
        return t

    def infoset(self, s, p):
        pub = s["cards"][2] if len(s["cards"]) == 3 else None
        return (s["cards"][p], pub, "/".join(s["rounds"]))


def br_value(game, policy, player):
    """Best-response value of ``player`` by the per-infoset recursion (any 2-player game above)."""
    # collect, for every infoset of the responder, its histories with the others' reach
    members: dict = defaultdict(list)
    cache: dict = {}

    def collect(s, reach):
        if game.is_terminal(s):
            return
        if game.is_chance(s):
            for pr, c in game.chance_outcomes(s):
                collect(game.deal(s, c), reach * pr)
            return
        p = game.player(s)
        acts = game.actions(s)
        if p == player:
            members[game.infoset(s, p)].append((s, reach))
            for a in acts:
                collect(game.child(s, a), reach)
        else:
            probs = policy[(p, game.infoset(s, p))]
            for a, q in zip(acts, probs, strict=True):
                collect(game.child(s, a), reach * q)

    def best_action(key):
        if key not in cache:
            acts = None
            scores = None
            for s, reach in members[key]:
                acts = game.actions(s)
                vals = [reach * value(game.child(s, a)) for a in acts]
                scores = vals if scores is None else [x + y for x, y in zip(scores, vals, strict=True)]
            cache[key] = acts[max(range(len(acts)), key=scores.__getitem__)]
        return cache[key]

    def value(s):
        """Expected payoff of ``player`` below ``s`` (chance and the others' moves weighted)."""
        if game.is_terminal(s):
            return game.returns(s)[player]
        if game.is_chance(s):
            return sum(pr * value(game.deal(s, c)) for pr, c in game.chance_outcomes(s))
        p = game.player(s)
        if p == player:
            return value(game.child(s, best_action(game.infoset(s, p))))
        probs = policy[(p, game.infoset(s, p))]
        return sum(q * value(game.child(s, a)) for a, q in zip(game.actions(s), probs, strict=True)
                   if q > 0)

    collect(game.initial(), 1.0)
    return value(game.initial())


class KuhnAsLeducInterface(Kuhn):
    """Kuhn poker behind the same interface as :class:`Leduc` (for :func:`br_value`)."""

    def initial(self):
        return ((), "")

    def is_chance(self, s):
        return len(s[0]) < 2

    def chance_outcomes(self, s):
        left = [c for c in range(3) if c not in s[0]]
        return [(1.0 / len(left), c) for c in left]

    def deal(self, s, c):
        return ((*s[0], c), s[1])

    def is_terminal(self, s):
        return len(s[0]) == 2 and self.terminal_payoff(s) is not None

    def returns(self, s):
        return self.terminal_payoff(s)
