"""The readable referee: one hand played by the rules, every action validated (RULES §1.2, §2).

:class:`Hand` is a small state machine: it posts the blinds (heads-up: the DEALER
posts the small blind), knows whose turn it is, lists the legal actions
(:meth:`Hand.legal`) and applies one action at a time (:meth:`Hand.act`), raising
:class:`IllegalActionError` naming the action, the player and the rule it breaks.
Cards are given by the caller (:meth:`Hand.deal_holes`, :meth:`Hand.deal_board`), so
the same referee replays a real hand, checks a hand history or a simulated hand.
At the end :meth:`Hand.finish` settles it: the Dilemma settlement (``settle()`` of
:mod:`analysis.dilemma.settlement`) or plain Texas Hold'em pots (:mod:`.pots`).

The betting rules, in one place (the numba twin in :mod:`._kernel` is tested against them):

- amounts are the total a player has put in **this round** ("raise to");
- a player may fold (even for free when ``structure.free_fold``), check when nothing is
  owed, call (all-in for less when short) or bet/raise between ``min_to`` and ``max_to``;
- minimum raise: ``current bet + increment``, the increment being the minimum bet or the
  largest bet/raise increment of the round (``min_raise``), fixed limit: the limit (or the
  minimum bet with ``limit=spread``);
- maximum: no-limit the stack, pot-limit ``current bet + call + pot`` (the pot of this
  round or the whole pot, ``structure.pot``), fixed limit ``current bet + limit``, the limit
  being the hand's cap (or the small / big bet with ``limit=per_round``), at most the
  round's short stack with ``short_cap=table``;
- no raise when every other player is all-in or folded, when the round's bet cap is
  reached, when the player has made their ``raises_per_player`` raises this round, or when
  a short all-in does not reopen the betting for a player who already acted
  (``short_all_in``: a full raise is one that adds at least :meth:`Hand.full_raise`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from analysis.core.actions import ACTION_NAMES
from analysis.dilemma.effects import STREETS
from analysis.dilemma.settlement import HandState, PlayerState, SettlementResult, settle
from evaluator import evaluate, format_cards

from .errors import IllegalActionError, TableError
from .pots import Pot, award_pots, build_pots
from .structures import FIXED_LIMIT, KINDS, NO_LIMIT, POT_LIMIT
from .table import TableSetup

ACTIONS = ACTION_NAMES


@dataclass(frozen=True)
class Action:
    """One action: ``kind`` and, for bet/raise, the round total it brings the player to."""

    player: int
    kind: str
    to: int | None = None

    def text(self, names: Sequence[str]) -> str:
        """``P2 raise to 60`` style."""
        tail = f" to {self.to}" if self.kind in ("bet", "raise") and self.to is not None else ""
        return f"{names[self.player]} {self.kind}{tail}"


@dataclass(frozen=True)
class Legal:
    """The legal actions of the player to act."""

    player: int
    fold: bool
    check: bool
    call: int
    """Chips a call adds (0 when there is nothing to call)."""
    min_to: int | None
    """Smallest bet/raise total this round (``None``: no bet or raise allowed)."""
    max_to: int | None
    bet: bool
    """True when the aggressive action is a bet (nobody has bet this round), else a raise."""
    all_in_to: int
    """The round total if the player puts in every chip."""

    def kinds(self) -> list[str]:
        """Legal action names."""
        out = []
        if self.fold:
            out.append("fold")
        if self.check:
            out.append("check")
        if self.call:
            out.append("call")
        if self.min_to is not None:
            out.append("bet" if self.bet else "raise")
        return out


@dataclass
class Seat:
    """One player during the hand."""

    name: str
    stack: int
    bet: int = 0
    put_in: int = 0
    folded: int | None = None
    hole: tuple[int, ...] = ()
    acted: bool = False
    checked: bool = False
    raises: int = 0
    """Bets and raises this round (``structure.raises_per_player``)."""
    shown: bool = True

    @property
    def live(self) -> bool:
        return self.folded is None

    @property
    def all_in(self) -> bool:
        return self.live and self.stack == 0


@dataclass
class HandResult:
    """The end of one hand: final stacks, pots (Texas) or the settlement (Dilemma), the bank."""

    stacks: tuple[int, ...]
    pots: tuple[Pot, ...] = ()
    settlement: SettlementResult | None = None
    bank: tuple[int, int, int] | None = None
    blind_level: int = 0
    game_over: bool = False
    winners: tuple[int, ...] = ()
    showdown: tuple[int, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)


class Hand:
    """One hand at a table: blinds, betting rounds, board, showdown and settlement."""

    def __init__(self, setup: TableSetup) -> None:
        self.setup = setup.validate()
        self.st = setup.structure
        self.seats = [Seat(name, stack) for name, stack in zip(setup.names, setup.stacks, strict=True)]
        self.n = len(self.seats)
        self.street = 0
        self.board: list[int] = []
        self.actions: list[tuple[int, Action]] = []  # (street, action)
        self.last_aggressor: int | None = None
        self.last_round_aggressor: int | None = None
        self.over = False
        self._post_blinds()

    # ------------------------------------------------------------------ setup and helpers
    def _post_blinds(self) -> None:
        small, big = self.setup.blinds
        self.big_blind = big
        sb, bb = self.setup.blind_seats()
        self.sb_seat, self.bb_seat = sb, bb
        for seat, amount in ((sb, small), (bb, big)):
            s = self.seats[seat]
            pay = min(amount, s.stack)  # a player short of the blind posts all they have
            s.stack -= pay
            s.bet += pay
            s.put_in += pay
        self._start_round(first=(bb + 1) % self.n)
        # the big blind counts as the round's bet: the amount to call is the full big blind
        self.current_bet = max(big, max(s.bet for s in self.seats))
        self.raises = 1
        self.full_to = self.current_bet  # the big blind counts as a full bet

    def _start_round(self, first: int) -> None:
        self.current_bet = 0
        self.increment_seen = 0  # largest bet/raise increment of the round
        self.raises = 0
        self.first_to_act = first
        self.to_act = None
        for s in self.seats:
            s.acted = False
            s.checked = False
            s.raises = 0
        self.last_round_aggressor = None
        self.full_to = 0  # the round total of the last full bet or raise
        self.short_sum = 0  # short all-in increments since then (short_all_in=consecutive)
        # the smallest stack of the players who can still bet, at the start of the round
        # (pre-flop: before the blinds), for short_cap=table
        behind = [s.stack + s.bet for s in self.seats if s.live and s.stack > 0]
        self.short_stack = min(behind) if behind else 0

    def min_bet(self) -> int:
        """The round's minimum bet: the big blind (fixed limit: the limit)."""
        if self.st.kind == "fixed_limit":
            return self.limit()
        return self.big_blind

    def limit(self) -> int:
        """Fixed limit: the most a bet or raise adds this round (RULES §2): the hand's cap,
        ``cap`` minimum bets; ``limit=per_round``: the minimum bet on the first two rounds and
        the cap on the turn and river; ``short_cap=table``: at most the round's short stack."""
        st = self.st
        size = self.big_blind * (1 if st.limit == "per_round" and self.street < 2 else st.cap)
        if st.short_cap == "table":
            size = min(size, self.short_stack)
        return size

    def limit_range(self) -> tuple[int, int]:
        """Fixed limit: the least and the most a bet or raise adds (``limit=spread``: from the
        minimum bet to the limit; otherwise exactly the limit)."""
        size = self.limit()
        return (min(self.big_blind, size) if self.st.limit == "spread" else size), size

    def full_raise(self) -> int:
        """What a bet or raise must add now to be a full one; an all-in adding less is short
        (RULES §1.2): the largest increment of the round with ``min_raise=last_increment``
        (the casino rule, as pokerkit counts it), else the smallest raise the rules allow
        (the minimum bet; fixed limit: the least of :meth:`limit_range`)."""
        if self.st.min_raise == "last_increment":
            return self.increment_seen
        if self.st.kind == "fixed_limit":
            return self.limit_range()[0]
        return self.big_blind

    def _can_respond(self, i: int) -> bool:
        """Someone other than ``i`` could still put in more than the current bet."""
        return any(j != i and s.live and s.stack + s.bet > self.current_bet
                   for j, s in enumerate(self.seats))

    def _needs_action(self, i: int) -> bool:
        s = self.seats[i]
        if not s.live or s.all_in:
            return False
        if s.bet < self.current_bet:
            return True
        if s.acted:
            return False
        # nobody else can act: no decision is left for this player
        return any(j != i and t.live and not t.all_in for j, t in enumerate(self.seats))

    def _next_actor(self, start: int) -> int | None:
        if sum(s.live for s in self.seats) <= 1:
            return None
        for k in range(self.n):
            i = (start + k) % self.n
            if self._needs_action(i):
                return i
        return None

    @property
    def actor(self) -> int | None:
        """The seat to act, or ``None`` when the betting round (or the hand) is over."""
        if self.over:
            return None
        if self.to_act is None:
            self.to_act = self._next_actor(self.first_to_act)
        return self.to_act

    @property
    def pot(self) -> int:
        """All chips put in this hand (the current round's bets included)."""
        return sum(s.put_in for s in self.seats)

    # ------------------------------------------------------------------ legal actions
    def legal(self) -> Legal:
        """The legal actions of the player to act (raises if nobody is to act)."""
        i = self.actor
        if i is None:
            raise TableError("nobody is to act: the betting round is over")
        s = self.seats[i]
        owe = self.current_bet - s.bet
        call = min(owe, s.stack)
        all_in_to = s.bet + s.stack
        min_to = max_to = None
        if self._may_raise(i):
            if self.st.kind == "fixed_limit":
                inc_min, inc_max = self.limit_range()
            else:
                inc_min = self.min_bet()
                if self.st.min_raise == "last_increment":
                    inc_min = max(inc_min, self.increment_seen)
                inc_max = None
            min_to = self.current_bet + inc_min
            if self.st.kind == "no_limit":
                max_to = all_in_to
            elif self.st.kind == "pot_limit":
                counted = sum(t.bet for t in self.seats) if self.st.pot == "round" else self.pot
                max_to = max(min_to, self.current_bet + owe + counted)
            else:
                max_to = self.current_bet + inc_max
            max_to = min(max_to, all_in_to)
            min_to = min(min_to, all_in_to)  # short of a full raise: all-in only
        return Legal(player=i, fold=owe > 0 or self.st.free_fold, check=owe == 0, call=call,
                     min_to=min_to, max_to=max_to, bet=self.current_bet == 0, all_in_to=all_in_to)

    def _may_raise(self, i: int) -> bool:
        return self._raise_refusal(i) is None

    def _raise_refusal(self, i: int) -> str | None:
        """Why player ``i`` may not bet or raise now (``None``: they may)."""
        s = self.seats[i]
        owe = self.current_bet - s.bet
        if s.stack <= owe:
            return "the player cannot put in more than a call (all-in to call)"
        if not self._can_respond(i):
            return "every other player has folded or is all-in: nobody could call a raise (RULES §2)"
        st = self.st
        if st.max_raises and self.raises >= st.max_raises:
            return f"the round's cap of {st.max_raises} bets is reached (RULES §2, fixed limit)"
        if st.raises_per_player and s.raises >= st.raises_per_player:
            return (f"a player may bet or raise {st.raises_per_player} time(s) a round and has "
                    "done so (RULES §2: one raise per player a round)")
        if not st.check_raise and s.checked:
            return "check-raise is not allowed at this table (structure check_raise=false)"
        if not s.acted or st.short_all_in == "reopens":
            return None
        full = self.full_raise()
        since_full = s.bet >= self.full_to  # acted after the last full bet or raise
        if st.short_all_in in ("no_reopen", "consecutive") and owe < full:
            return ("an all-in short of a full raise does not reopen the betting for a player "
                    "who already acted: call or fold (RULES §1.2 [choice])")
        if st.short_all_in == "never" and since_full:
            return ("short all-ins never reopen the betting for a player who already acted, even "
                    "when they add up: call or fold (RULES §1.2, structure short_all_in=never)")
        if st.short_all_in == "consecutive" and since_full and 0 < self.short_sum < full:
            return ("the short all-ins since the last full raise do not add up to a full raise: "
                    "call or fold (RULES §1.2, structure short_all_in=consecutive)")
        return None

    # ------------------------------------------------------------------ actions
    def act(self, kind: str, to: int | None = None, *, player: int | str | None = None) -> Action:
        """Apply one action of the player to act; ``to`` is the round total of a bet/raise.

        ``allin`` becomes a call (if the stack does not cover more, or nobody could call
        more) or a bet/raise to the player's whole stack. ``player`` (index or name), when given, must be the actor.
        """
        if self.over:
            raise IllegalActionError(kind, "?", "the hand is over")
        i = self.actor
        if i is None:
            raise IllegalActionError(kind, "?", "the betting round is over: deal the next street")
        name = self.seats[i].name
        if player is not None:
            want = player if isinstance(player, int) else self._seat_of(player)
            if want != i:
                who = player if isinstance(player, str) else self.seats[want].name
                raise IllegalActionError(kind, who, f"it is {name}'s turn to act (RULES §1.2 order)")
        if kind not in ACTIONS:
            raise IllegalActionError(kind, name, f"unknown action; use {', '.join(ACTIONS)}")
        legal = self.legal()
        s = self.seats[i]
        if kind == "allin":  # every chip that can go in: a call when nobody could call more
            if s.stack <= legal.call or (self._raise_refusal(i) is not None and legal.call):
                kind = "call"
            else:
                kind, to = ("bet" if legal.bet else "raise"), legal.all_in_to
        if kind == "fold":
            if not legal.fold:
                raise IllegalActionError(kind, name, "folding when nobody has bet is not allowed "
                                         "at this table (structure free_fold=false): check")
            s.folded = self.street
        elif kind == "check":
            if not legal.check:
                raise IllegalActionError(kind, name, f"there is a bet of {self.current_bet} to call "
                                         f"({legal.call} more): call, raise or fold")
            s.checked = True
        elif kind == "call":
            if legal.call == 0:
                raise IllegalActionError(kind, name, "there is nothing to call: check")
            if to is not None and to != s.bet + legal.call:
                raise IllegalActionError(f"call {to}", name,
                                         f"a call brings the player to {s.bet + legal.call}")
            self._put(i, legal.call)
        else:  # bet or raise
            if legal.bet and kind == "raise":
                raise IllegalActionError(kind, name, "nobody has bet this round: bet, not raise")
            if not legal.bet and kind == "bet":
                raise IllegalActionError(kind, name, f"there is already a bet of {self.current_bet} "
                                         "this round: raise, not bet")
            refusal = self._raise_refusal(i)
            if refusal is not None:
                raise IllegalActionError(kind, name, refusal)
            if to is None:
                raise IllegalActionError(kind, name, "say the total to bet or raise to")
            assert legal.min_to is not None and legal.max_to is not None
            if to > legal.all_in_to:
                raise IllegalActionError(f"{kind} to {to}", name, f"the player has only "
                                         f"{legal.all_in_to} in all this round (stack {s.stack})")
            if to < legal.min_to and to != legal.all_in_to:
                rule = ("RULES §1.2: a raise adds at least the previous bet or raise increment"
                        if self.st.min_raise == "last_increment" else
                        "RULES §2: a bet or raise adds at least the minimum bet")
                if self.st.kind == "fixed_limit":
                    rule = "RULES §2, fixed limit: a bet or raise adds the limit"
                raise IllegalActionError(f"{kind} to {to}", name,
                                         f"the minimum is {legal.min_to} ({rule})")
            if to > legal.max_to:
                rule = {NO_LIMIT: "no-limit", POT_LIMIT: "pot-limit: pot plus the call (RULES §2)",
                        FIXED_LIMIT: "fixed limit (RULES §2)"}[KINDS.index(self.st.kind)]
                raise IllegalActionError(f"{kind} to {to}", name,
                                         f"the maximum is {legal.max_to} ({rule})")
            if to % self.st.unit and to != legal.all_in_to:
                raise IllegalActionError(f"{kind} to {to}", name,
                                         f"chips come in units of {self.st.unit}")
            increment = to - self.current_bet
            full = increment >= self.full_raise()
            self._put(i, to - s.bet)
            self.raises += 1
            s.raises += 1
            self.increment_seen = max(self.increment_seen, increment)
            if full:
                self.full_to, self.short_sum = to, 0
            else:  # a short all-in
                self.short_sum += increment
                if self.short_sum >= self.full_raise():
                    self.short_sum = 0
            self.current_bet = to
            self.last_aggressor = i
            self.last_round_aggressor = i
        s.acted = True
        action = Action(i, kind, to if kind in ("bet", "raise") else None)
        self.actions.append((self.street, action))
        self.to_act = self._next_actor((i + 1) % self.n)
        if sum(t.live for t in self.seats) == 1:
            self.over = True
        return action

    def _put(self, i: int, amount: int) -> None:
        s = self.seats[i]
        s.stack -= amount
        s.bet += amount
        s.put_in += amount

    def _seat_of(self, name: str) -> int:
        for i, s in enumerate(self.seats):
            if s.name == name:
                return i
        raise IllegalActionError("?", name, "no such player at this table")

    # ------------------------------------------------------------------ streets and cards
    def deal_holes(self, holes: Sequence[Sequence[int]]) -> None:
        """Give every seat its two hole cards (card ids)."""
        if len(holes) != self.n or any(len(h) != 2 for h in holes):
            raise TableError(f"hole cards: two cards for each of the {self.n} players")
        for s, h in zip(self.seats, holes, strict=True):
            s.hole = tuple(int(c) for c in h)

    @property
    def round_over(self) -> bool:
        """The current betting round needs no more actions."""
        return self.actor is None

    @property
    def betting_done(self) -> bool:
        """No more betting this hand: one player left, or at most one who can still bet."""
        live = [s for s in self.seats if s.live]
        if len(live) <= 1:
            return True
        return self.round_over and (self.street == 3 or sum(not s.all_in for s in live) <= 1)

    def deal_board(self, cards: Sequence[int]) -> None:
        """End the betting round and deal the next street (3 cards for the flop, then 1)."""
        if self.over or sum(s.live for s in self.seats) <= 1:
            raise TableError("the hand is over: nobody is left to deal to")
        if not self.round_over:
            i = self.actor
            raise TableError(f"the {STREETS[self.street]} betting is not over: "
                             f"{self.seats[i].name} is to act")  # type: ignore[index]
        if self.street == 3:
            raise TableError("the river is the last street")
        want = 3 if self.street == 0 else 1
        if len(cards) != want:
            raise TableError(f"the {STREETS[self.street + 1]} is {want} card{'s' * (want > 1)}")
        self.board += [int(c) for c in cards]
        self._collect()
        self.street += 1
        self._start_round(first=(self.setup.dealer + 1) % self.n)

    def _collect(self) -> None:
        for s in self.seats:
            s.bet = 0

    # ------------------------------------------------------------------ the end of the hand
    def showdown_order(self) -> list[int]:
        """Live seats in showdown order: the last aggressor of the last round first, then
        clockwise (nobody bet: the first live seat left of the DEALER) (RULES §1.2 step 8)."""
        start = self.last_round_aggressor
        if start is None:
            start = (self.setup.dealer + 1) % self.n
        return [(start + k) % self.n for k in range(self.n) if self.seats[(start + k) % self.n].live]

    def finish(self, mucked: Sequence[int] = ()) -> HandResult:
        """Settle the finished hand. ``mucked`` seats conceded at the showdown without showing."""
        live = [i for i, s in enumerate(self.seats) if s.live]
        if len(live) >= 2 and not (self.round_over and len(self.board) == 5):
            raise TableError("the hand is not over: finish the betting and deal the board")
        if len(live) == 1 and not self.round_over and not self.over:
            raise TableError("the hand is not over")
        self._collect()
        self.over = True
        showdown = self.showdown_order() if len(live) >= 2 else []
        for i in mucked:
            if i not in showdown:
                raise TableError(f"{self.seats[i].name} cannot concede: not at the showdown")
            self.seats[i].shown = False
        if self.setup.spec.settlement == "dilemma":
            return self._settle_dilemma(showdown)
        return self._settle_holdem(showdown)

    def scores(self) -> list[int]:
        """Hand scores of the seats that show (-1 for folders and conceders)."""
        out = []
        for s in self.seats:
            if s.live and s.shown and len(s.hole) == 2 and len(self.board) == 5:
                out.append(evaluate(list(s.hole) + self.board, self.setup.game))
            else:
                out.append(-1)
        return out

    def last_round(self) -> int:
        """The betting round the hand ended in: a showdown counts as the river (a board run out
        after an all-in ends on the river, as in ``docs/settlement.md``)."""
        live = sum(s.live for s in self.seats)
        return 3 if live >= 2 else self.street

    def hand_state(self) -> HandState:
        """The end state for the Dilemma settlement (``analysis.dilemma.settlement``)."""
        sb = self.setup
        return HandState(
            players=tuple(PlayerState(name=s.name, stack=s.stack, put_in=s.put_in, folded=s.folded,
                                      hole=s.hole, conceded=s.live and not s.shown)
                          for s in self.seats),
            board=tuple(self.board), last_round=self.last_round(), bank=sb.bank,
            blind_level=sb.blind_level, dealer=sb.dealer, game="dilemma")

    def _settle_dilemma(self, showdown: list[int]) -> HandResult:
        res = settle(self.hand_state(), self.setup.deck, self.setup.rules)
        return HandResult(stacks=res.stacks, settlement=res, bank=res.bank,
                          blind_level=res.blind_level, game_over=res.game_over,
                          winners=res.winners, showdown=tuple(showdown))

    def _settle_holdem(self, showdown: list[int]) -> HandResult:
        scores = self.scores()
        ins = [s.put_in for s in self.seats]
        live = [s.live and (s.shown or len(showdown) == 0) for s in self.seats]
        if not any(live):  # everybody conceded: the last one to concede keeps the claim
            live[showdown[-1]] = True
        pots = build_pots(ins, live)
        awarded = award_pots(pots, scores, self.setup.dealer)
        stacks = [s.stack for s in self.seats]
        for p in awarded:
            for i, amount in p.shares:
                stacks[i] += amount
        winners = sorted({i for p in awarded if not p.uncalled for i, _ in p.shares})
        return HandResult(stacks=tuple(stacks), pots=tuple(awarded), winners=tuple(winners),
                          showdown=tuple(showdown))

    # ------------------------------------------------------------------ printing
    def summary(self) -> str:
        """A short printout of the hand so far."""
        names = [s.name for s in self.seats]
        lines = [f"board {format_cards(self.board, self.setup.game) or '-'}; pot {self.pot}"]
        for street, a in self.actions:
            lines.append(f"  {STREETS[street]:<7} {a.text(names)}")
        return "\n".join(lines)
