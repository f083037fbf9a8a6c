"""The Bluffjack referee (RULES §3): one hand, step by step, every action checked.

Readable, not fast: the numba kernel (:mod:`._kernel`) is checked against it. A hand is

1. the ante from every seated player (all-in if short);
2. (option *second initial bet*) a betting round after the face-down card;
3. the initial betting round, opened by the first player left of the dealer with the
   minimum bet (:mod:`.stakes` lists the decisions where the source is silent);
4. hit or stand clockwise from the dealer's left, one action a turn, until everyone has
   stood (a player who stood cannot hit; every hit is face up); with *extra betting* the
   player then bets (fold / call / raise), and a player who has stood and gets a turn must
   call or raise;
5. the final betting round;
6. a lone survivor wins everything, bust or not; else the showdown: each pot (side pots by
   what the players put in) to the highest strength among the players in it
   (``evaluator.blackjack.hand_strength``, ties split); a pot whose players are all bust
   goes to the house (removed) or, with ``house=false``, is set aside for the game's last
   survivor (``carry``).

Chips are conserved: the stacks after the hand plus ``house`` plus ``carry`` equal the
stacks before. Every illegal action raises :class:`IllegalActionError` naming the action,
the player and the rule.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from analysis.engine.errors import IllegalActionError, TableError
from evaluator.blackjack import BluffjackRules, get_bluffjack_rules, hand_strength, hand_total

from .stakes import Stakes, get_stakes

__all__ = ["ROUNDS", "BluffjackHand", "BluffjackResult", "Legal", "visible_total"]

ROUNDS = ("first", "initial", "play", "final")
"""Phases with actions: the second initial bet (option), the initial betting, hit or stand
(with the extra betting when on), the final betting."""

MAX_PLAYERS = 10
"""Bluffjack has 2-10 players (RULES §3)."""

R_SHOW = "RULES §3"


@dataclass(frozen=True)
class Legal:
    """What the player to act may do: hit/stand, or fold / check-or-call / raise to an amount."""

    player: int
    round: str
    hit: bool = False
    stand: bool = False
    fold: bool = False
    call: int = -1
    """Chips to call (0: check); -1 when the player may not call (a hit-or-stand turn)."""
    min_to: int = -1
    max_to: int = -1
    """Raise (or bet) to an amount in ``[min_to, max_to]`` (round total); -1: no raise."""
    forced: bool = False
    """The opening bet of an initial round: the minimum, nothing else."""

    @property
    def betting(self) -> bool:
        return self.call >= 0


@dataclass(frozen=True)
class BluffjackResult:
    """The end of a hand: stacks, who won chips, what went to the house or was set aside."""

    stacks: tuple[int, ...]
    winners: tuple[int, ...]
    house: int
    carry: int
    showdown: bool
    strengths: tuple[int, ...]
    """Showdown strength of every seat (-1: folded or not at showdown)."""


def visible_total(cards: list[int]) -> int:
    """The best total of face-up cards (0 for none)."""
    return hand_total(cards).total if cards else 0


@dataclass
class _Seat:
    name: str
    stack: int
    down: int
    up: int
    hits: list[int] = field(default_factory=list)
    put: int = 0
    """Chips in the pots this hand (ante included)."""
    bet: int = 0
    """Chips in this betting round."""
    folded: bool = False
    stood: bool = False
    acted: bool = False
    """Has acted in this betting round."""
    raise_seen: int = -1
    """The round's full-raise count when it last acted (it may raise again only after a new one)."""

    @property
    def cards(self) -> list[int]:
        return [self.down, self.up, *self.hits]

    @property
    def all_in(self) -> bool:
        return self.stack == 0 and not self.folded


class BluffjackHand:
    """One hand at one table; drive it with :meth:`legal` and :meth:`act`."""

    def __init__(self, names: list[str], stacks: list[int], dealer: int, down: list[int], up: list[int],
                 stakes: Stakes | str | None = None, rules: BluffjackRules | str | None = None,
                 deck_left: int | None = None) -> None:
        n = len(names)
        if not 2 <= n <= MAX_PLAYERS:
            raise TableError(f"Bluffjack needs 2-{MAX_PLAYERS} players; got {n}")
        if len(set(names)) != n:
            raise TableError(f"player names must differ; got {names}")
        if len(stacks) != n or any(not isinstance(s, int) or s < 1 for s in stacks):
            raise TableError(f"every player needs a stack of at least 1 chip (a player with none has "
                             f"left, RULES §3); got {stacks}")
        if not 0 <= dealer < n:
            raise TableError(f"the dealer must be a seat 0-{n - 1}; got {dealer}")
        if len(down) != n or len(up) != n:
            raise TableError(f"every player needs one face-down and one face-up card; got {len(down)} "
                             f"and {len(up)} for {n} players")
        cards = list(down) + list(up)
        if len(set(cards)) != len(cards) or any(not 0 <= c < 52 for c in cards):
            raise TableError("the dealt cards must be distinct cards of the 52-card deck")
        self.stakes = get_stakes(stakes)
        self.rules = get_bluffjack_rules(rules)
        self.n = n
        self.dealer = dealer
        self.seats = [_Seat(names[i], stacks[i], down[i], up[i]) for i in range(n)]
        self.start = tuple(stacks)
        self.used = set(cards)
        self.deck_left = 52 - len(cards) if deck_left is None else deck_left
        self.order = [(dealer + 1 + k) % n for k in range(n)]
        """Seats clockwise from the dealer's left."""
        self.history: list[tuple[str, int, str, int | None]] = []
        self.result: BluffjackResult | None = None
        for s in self.seats:
            self._put(s, self.stakes.ante)
            s.bet = 0
        self.rounds = [r for r in ROUNDS if r != "first" or self.stakes.second_initial_bet]
        self.round_index = -1
        self._next_round()

    # ------------------------------------------------------------------ state
    @property
    def round(self) -> str:
        return self.rounds[self.round_index] if self.result is None else "over"

    @property
    def in_hand(self) -> list[int]:
        return [i for i in self.order if not self.seats[i].folded]

    @property
    def level(self) -> int:
        return max(s.bet for s in self.seats)

    @property
    def pot(self) -> int:
        return sum(s.put for s in self.seats)

    def _can_bet(self, i: int) -> bool:
        return not self.seats[i].folded and self.seats[i].stack > 0

    def _put(self, s: _Seat, chips: int) -> None:
        chips = min(chips, s.stack)
        s.stack -= chips
        s.put += chips
        s.bet += chips

    def _betting_round(self) -> bool:
        return self.round in ("first", "initial", "final") or (self.round == "play" and self.stakes.extra_betting)

    def _next_round(self) -> None:
        """Start the next phase (skipping betting rounds nobody can bet in), or end the hand."""
        while True:
            self.round_index += 1
            if self.round_index == len(self.rounds):
                self._showdown()
                return
            for s in self.seats:
                s.bet, s.acted, s.raise_seen = 0, False, -1
            self.raises = 0
            self.full_raises = 0
            self.last_raise = self.stakes.bet
            self.opened = self.round not in ("first", "initial")
            """Initial rounds start unopened: the first player must bet the minimum."""
            self.to_act = self.order[0]
            self.pending_bet = False
            """Play phase with extra betting: the player to act has hit or stood and now bets."""
            if self.round == "play":
                if any(not self.seats[i].stood for i in self.in_hand):
                    self.to_act = self._next_from(self.order[0], self._turn_due)
                    return
                continue
            if sum(self._can_bet(i) for i in self.order) >= 2:
                self.to_act = self._next_from(self.order[0], self._bet_due)
                return

    def _next_from(self, start: int, due) -> int:
        """The first seat from ``start`` clockwise for which ``due`` holds (-1: none)."""
        for k in range(self.n):
            i = (start + k) % self.n
            if due(i):
                return i
        return -1

    def _bet_due(self, i: int) -> bool:
        s = self.seats[i]
        if not self._can_bet(i) or (s.acted and s.bet >= self.level):
            return False
        return s.bet < self.level or any(self._can_bet(j) for j in self.order if j != i)

    def _turn_due(self, i: int) -> bool:
        """Play phase: seat ``i`` gets a turn (to hit or stand, or with extra betting to bet)."""
        s = self.seats[i]
        if s.folded:
            return False
        if not s.stood:
            return True
        return self.stakes.extra_betting and self._can_bet(i) and s.bet < self.level

    # ------------------------------------------------------------------ menus
    def legal(self) -> Legal:
        """The menu of the player to act."""
        if self.result is not None:
            raise IllegalActionError("any", "nobody", "the hand is over")
        i = self.to_act
        s = self.seats[i]
        if self.round == "play" and not self.pending_bet and not s.stood:
            return Legal(i, "play", hit=self.deck_left > 0, stand=True)
        call = min(self.level - s.bet, s.stack)
        others = any(self._can_bet(j) for j in self.order if j != i)
        stood_turn = self.round == "play" and s.stood and not self.pending_bet
        fold = call > 0 and not stood_turn
        if not self.opened:
            to = s.bet + min(self.stakes.bet, s.stack)
            return Legal(i, self.round, call=0, min_to=to, max_to=to, forced=True)
        min_to = max_to = -1
        all_in_to = s.bet + s.stack
        cap = self.stakes.max_raises
        may_raise = (others and all_in_to > self.level and s.raise_seen != self.full_raises
                     and not (cap and self.raises >= cap and self.level > 0))
        if may_raise:
            step = self.stakes.bet if self.stakes.limit == "fixed" else max(self.stakes.bet, self.last_raise)
            want = self.level + step
            if self.stakes.limit == "fixed":
                top = want
            elif self.stakes.limit == "pot":
                top = self.level + self.pot + (self.level - s.bet)
            else:
                top = all_in_to
            min_to = min(want, all_in_to)
            max_to = min(max(top, want), all_in_to)
        return Legal(i, self.round, fold=fold, call=call, min_to=min_to, max_to=max_to)

    # ------------------------------------------------------------------ actions
    def act(self, action: str, amount: int | None = None) -> None:
        """Apply ``hit`` (``amount`` is the card dealt), ``stand``, ``fold``, ``check``, ``call``,
        ``bet``/``raise`` (``amount``: the player's total for the round)."""
        legal = self.legal()
        i = legal.player
        s = self.seats[i]

        def illegal(rule: str) -> IllegalActionError:
            shown = action if amount is None else f"{action} {amount}"
            return IllegalActionError(shown, s.name, f"{rule} ({R_SHOW})")

        if action in ("hit", "stand"):
            if legal.betting:
                if s.stood:
                    raise illegal("a player who stood cannot hit again; it must call or raise")
                raise illegal(f"it is a betting turn in the {self.round} round, not hit or stand")
            if action == "hit":
                if not isinstance(amount, int) or not 0 <= amount < 52:
                    raise illegal("a hit needs the card dealt (a card id 0-51)")
                if amount in self.used:
                    raise illegal("that card is already dealt")
                if not legal.hit:
                    raise illegal("no card is left in the deck")
                s.hits.append(amount)
                self.used.add(amount)
                self.deck_left -= 1
            else:
                s.stood = True
            self.history.append(("play", i, action, amount))
            if self.stakes.extra_betting and self._can_bet(i) and (
                    s.bet < self.level or any(self._can_bet(j) for j in self.order if j != i)):
                self.pending_bet = True
                return
            self._after_turn(i)
            return
        if not legal.betting:
            raise illegal("this is a hit-or-stand turn: hit or stand")
        if action == "fold":
            if legal.forced:
                raise illegal("the first player must open with the minimum bet")
            if not legal.fold:
                raise illegal("a player who stood must call or raise" if s.stood and self.round == "play"
                              else "nothing to call: check instead of folding")
            s.folded = True
        elif action == "check":
            if legal.forced or legal.call != 0:
                raise illegal("the first player must open with the minimum bet" if legal.forced
                              else f"there is a bet: call {legal.call}, raise or fold")
            amount = None
        elif action == "call":
            if legal.forced or legal.call <= 0:
                raise illegal("the first player must open with the minimum bet" if legal.forced
                              else "nothing to call: check")
            self._put(s, legal.call)
            amount = None
        elif action in ("bet", "raise"):
            kind = "bet" if self.level == 0 else "raise"
            if action != kind:
                raise illegal(f"there is {'no bet: bet' if kind == 'bet' else 'a bet: raise'} instead")
            if legal.min_to < 0:
                why = ("no player left to bet against" if not any(self._can_bet(j) for j in self.order if j != i)
                       else f"at most {self.stakes.max_raises} raises a round" if self.stakes.max_raises
                       and self.raises >= self.stakes.max_raises
                       else "an all-in short of a full raise does not reopen the raising"
                       if s.raise_seen == self.full_raises else "not enough chips to raise")
                raise illegal(why)
            if not isinstance(amount, int) or not legal.min_to <= amount <= legal.max_to:
                raise illegal(f"{action} to {legal.min_to}" + (f"-{legal.max_to}" if legal.max_to > legal.min_to else "")
                              + (" (the opening minimum)" if legal.forced else ""))
            increment = amount - self.level
            full = increment >= (self.stakes.bet if self.stakes.limit == "fixed" else max(self.stakes.bet, self.last_raise))
            if kind == "raise":
                self.raises += 1
            if full:
                self.full_raises += 1
                self.last_raise = max(self.last_raise, increment) if self.stakes.limit != "fixed" else self.stakes.bet
            self._put(s, amount - s.bet)
            self.opened = True
        else:
            raise illegal("Bluffjack actions are hit, stand, fold, check, call, bet, raise")
        s.acted = True
        s.raise_seen = self.full_raises
        self.history.append((self.round, i, action, amount))
        if len(self.in_hand) == 1:
            self._lone_survivor(self.in_hand[0])
            return
        if self.round == "play":
            self.pending_bet = False
            self._after_turn(i)
            return
        nxt = self._next_from(i + 1, self._bet_due)
        if nxt < 0:
            self._next_round()
        else:
            self.to_act = nxt

    def _after_turn(self, i: int) -> None:
        """Play phase: the next turn, or the final betting when everyone has stood and matched."""
        nxt = self._next_from(i + 1, self._turn_due)
        if nxt < 0:
            self._next_round()
        else:
            self.to_act = nxt

    # ------------------------------------------------------------------ the end
    def _lone_survivor(self, w: int) -> None:
        total = self.pot
        stacks = [s.stack for s in self.seats]
        stacks[w] += total
        self.result = BluffjackResult(tuple(stacks), (w,), 0, 0, False, (-1,) * self.n)

    def _showdown(self) -> None:
        seats = self.seats
        strengths = [-1 if s.folded else hand_strength(s.cards, self.rules) for s in seats]
        stacks = [s.stack for s in seats]
        house = carry = 0
        winners: set[int] = set()
        levels = sorted({s.put for s in seats if not s.folded and s.put > 0})
        below = 0
        for top in levels:
            amount = sum(min(s.put, top) - min(s.put, below) for s in seats)
            eligible = [i for i in self.order if not seats[i].folded and seats[i].put >= top]
            below = top
            if len(eligible) == 1:  # uncalled, or everyone else in it folded
                stacks[eligible[0]] += amount
                continue
            best = max(strengths[i] for i in eligible)
            if best == 0:  # everyone in it is bust
                if self.rules.house:
                    house += amount
                else:
                    carry += amount
                continue
            won = [i for i in eligible if strengths[i] == best]
            share, odd = divmod(amount, len(won))
            for k, i in enumerate(won):
                stacks[i] += share + (1 if k < odd else 0)
            winners.update(won)
        # chips folded players put in above the highest live level (cannot happen: a fold
        # never leaves chips above a live player's total, but count them for conservation)
        rest = sum(max(0, s.put - below) for s in seats)
        if rest:
            top_live = max((i for i in self.order if not seats[i].folded), key=lambda i: seats[i].put)
            stacks[top_live] += rest
        self.result = BluffjackResult(tuple(stacks), tuple(i for i in self.order if i in winners), house,
                                      carry, True, tuple(strengths))
