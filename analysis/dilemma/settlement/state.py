"""The end state of one hand (what the settlement needs) and its validation."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from numbers import Integral
from typing import Any

import numpy as np

from evaluator import evaluate, get_game
from evaluator.kickers import showdown_score

from ..effects import STREETS
from .errors import SettlementError
from .layout import pack_hand

BOARD_SIZE_AFTER = (0, 3, 4, 5)
"""Number of board cards once each street has been dealt."""

MAX_CHIPS = 10**9
"""Largest amount of money in one stack, pot share or bank stack of an end state: far above
any real table (a whole game holds $11,500, RULES §1.1) and far below int64 overflow in the
settlement core."""


@dataclass(frozen=True)
class PlayerState:
    """One seat at the end of the betting: chips behind, chips in, fold street, cards."""

    name: str
    stack: int
    put_in: int
    folded: int | None = None
    """Street the player folded on (0 preflop .. 3 river), ``None`` if they did not."""
    hole: tuple[int, ...] = ()
    """Two card ids, or empty if unknown (a folder or a winner who did not show)."""
    conceded: bool = False
    """Did not fold but conceded at the showdown without showing (a showdown loser)."""

    @property
    def live(self) -> bool:
        """Still in the hand at the end (did not fold)."""
        return self.folded is None


@dataclass(frozen=True)
class HandState:
    """The end state of one hand: everything the settlement needs (RULES §1.4-1.5)."""

    players: tuple[PlayerState, ...]
    board: tuple[int, ...] = ()
    board_streets: tuple[int, ...] = ()
    last_round: int | None = None
    """The betting round the hand ended in; default: the street of the last board card."""
    bank: tuple[int, int, int] = (300, 700, 500)
    blind_level: int = 0
    dealer: int | None = None
    """Seat index of the DEALER; default the last seat, so transfers run in seat order."""
    game: str = "dilemma"

    def __post_init__(self) -> None:
        if not self.board_streets and self.board:
            object.__setattr__(self, "board_streets", default_streets(len(self.board)))
        if self.last_round is None:
            last = self.board_streets[-1] if self.board_streets else 0
            object.__setattr__(self, "last_round", int(last))

    @property
    def dealer_seat(self) -> int:
        """The DEALER seat (the last seat unless given)."""
        return len(self.players) - 1 if self.dealer is None else self.dealer

    @property
    def clockwise(self) -> list[int]:
        """Seat indices clockwise from the seat after the DEALER (the order of every transfer)."""
        n = len(self.players)
        return [(self.dealer_seat + 1 + k) % n for k in range(n)]

    @property
    def pot(self) -> int:
        """Total chips in the pot."""
        return sum(p.put_in for p in self.players)

    @property
    def total_money(self) -> int:
        """Players' chips + pot + bank: conserved by every settlement."""
        return sum(p.stack for p in self.players) + self.pot + sum(self.bank)

    def validate(self) -> HandState:
        """Raise :class:`SettlementError` if the state cannot come from a legal hand; return self."""
        spec = get_game(self.game)
        n = len(self.players)
        if not 2 <= n <= 10:
            raise SettlementError(f"players: a hand has 2 to 10 players, got {n}")
        names = [p.name for p in self.players]
        dup = {x for x in names if names.count(x) > 1}
        if dup:
            raise SettlementError(f"players: duplicate name {sorted(dup)[0]!r}")
        if not _is_int(self.last_round) or self.last_round not in (0, 1, 2, 3):
            raise SettlementError(f"last_round: must be a street 0..3, got {self.last_round!r}")
        for i, p in enumerate(self.players):
            where = f"players[{i}] ({p.name})"
            for label, value in (("stack", p.stack), ("in", p.put_in)):
                _check_money(value, f"{where}.{label}")
            if p.stack == 0 and p.put_in == 0:
                raise SettlementError(
                    f"{where}: no chips and nothing in; a bankrupt player is not dealt in"
                )
            if p.folded is not None and not _is_int(p.folded):
                raise SettlementError(f"{where}.folded: a street 0..3 or None, got {p.folded!r}")
            if p.folded is not None and not 0 <= p.folded <= self.last_round:
                raise SettlementError(
                    f"{where}.folded: {STREETS[p.folded] if 0 <= p.folded <= 3 else p.folded} "
                    f"is after the last round ({STREETS[self.last_round]})"
                )
            if p.hole and len(p.hole) != 2:
                raise SettlementError(f"{where}.hole: two cards or none, got {len(p.hole)}")
            if p.conceded and p.folded is not None:
                raise SettlementError(f"{where}.conceded: a player who folded cannot also concede")
        for t, value in enumerate(self.bank):
            _check_money(value, f"bank[{t}]")
        if len(self.bank) != 3:
            raise SettlementError("bank: three stacks (bank 1, bank 2, bank 3)")
        problem = bank_order_problem(self.bank)
        if problem:
            raise SettlementError(problem)
        if not _is_int(self.blind_level) or self.blind_level not in (0, 1, 2):
            raise SettlementError(f"blind_level: 0, 1 or 2, got {self.blind_level!r}")
        if self.dealer is not None and (not _is_int(self.dealer) or not 0 <= self.dealer < n):
            raise SettlementError(f"dealer: seat index 0..{n - 1}, got {self.dealer!r}")
        live = [p for p in self.players if p.live]
        if not live:
            raise SettlementError("players: everybody folded; one player must be left in the hand")
        top_live = max(p.put_in for p in live)
        for i, p in enumerate(self.players):
            if p.live and p.put_in < top_live and p.stack > 0:
                raise SettlementError(
                    f"players[{i}] ({p.name}).in: {p.put_in} is less than another player's "
                    f"{top_live} but {p.stack} is left behind; only an all-in player (0 behind) "
                    "may stay in for less"
                )
            if not p.live and p.put_in > top_live:
                raise SettlementError(
                    f"players[{i}] ({p.name}).in: a folder put in {p.put_in}, more than any player "
                    f"left in the hand ({top_live})"
                )
        # the board
        if len(self.board) != len(self.board_streets):
            raise SettlementError("board: one street per board card")
        if len(self.board) not in BOARD_SIZE_AFTER:
            raise SettlementError(f"board: 0, 3, 4 or 5 cards, got {len(self.board)}")
        if tuple(self.board_streets) != default_streets(len(self.board)):
            raise SettlementError(
                "board: the flop is 3 cards (street 1), then one turn card (2), then one river card (3)"
            )
        need = BOARD_SIZE_AFTER[self.last_round]
        if len(self.board) < need:
            raise SettlementError(
                f"board: the hand reached the {STREETS[self.last_round]}, so it needs {need} cards, "
                f"got {len(self.board)}"
            )
        showdown = len(live) >= 2
        if len(self.board) > need and not showdown:
            raise SettlementError(
                f"board: {len(self.board)} cards but the hand ended on the "
                f"{STREETS[self.last_round]} without a showdown"
            )
        if showdown:
            if len(self.board) != 5:
                raise SettlementError(
                    "board: a showdown needs all 5 board cards (deal the rest out)"
                )
            shown = [p for p in live if not p.conceded]
            if not shown:
                raise SettlementError("players: at a showdown at least one player must show")
            for i, p in enumerate(self.players):
                if p.live and not p.conceded and not p.hole:
                    raise SettlementError(
                        f"players[{i}] ({p.name}).hole: needed at the showdown (or set conceded)"
                    )
        else:
            for i, p in enumerate(self.players):
                if p.conceded:
                    raise SettlementError(
                        f"players[{i}] ({p.name}).conceded: there was no showdown"
                    )
        seen: dict[int, str] = {}
        for label, cards in [("board", self.board)] + [
            (f"players[{i}] ({p.name}).hole", p.hole) for i, p in enumerate(self.players)
        ]:
            for c in cards:
                if not _is_int(c) or not 0 <= c < spec.n_cards:
                    raise SettlementError(f"{label}: card id {c} is not in the {spec.summary}")
                if c in seen:
                    raise SettlementError(
                        f"{label}: card {spec.card_name(c)} is also in {seen[c]}; a card is dealt once"
                    )
                seen[c] = label
        return self

    def scores(self, kickers: str = "all") -> list[int]:
        """Hand scores of the players who show at the showdown (-1 for everyone else), as the
        showdown compares them when it reads ``kickers`` (RULES §1.3: ``all`` or ``top``)."""
        out = []
        for p in self.players:
            if p.live and not p.conceded and len(p.hole) == 2 and len(self.board) >= 3:
                score = evaluate(list(p.hole) + list(self.board), self.game)
                out.append(showdown_score(score, self.game, kickers))
            else:
                out.append(-1)
        return out

    def to_kernel(
        self, scores: Sequence[int] | None = None
    ) -> tuple[np.ndarray, int, np.ndarray, np.ndarray]:
        """The ``(players, n, board, table)`` arrays of the settlement core (see ``layout``)."""
        return pack_hand(self, self.scores() if scores is None else list(scores))


def default_streets(n_board: int) -> tuple[int, ...]:
    """The streets of the first ``n_board`` board cards: 1, 1, 1 (flop), 2 (turn), 3 (river)."""
    return (1, 1, 1, 2, 3)[:n_board]


def parse_bank(text: str | Sequence[int]) -> tuple[int, int, int]:
    """``"300,700,500"`` (or ``300/700/500``, or three ints) as the bank's three stacks, checked:
    whole $10 units, not empty (the game is over), in an order play can reach."""
    parts = text.replace("/", ",").split(",") if isinstance(text, str) else list(text)
    try:
        bank = tuple(int(str(p).strip()) for p in parts)
    except ValueError:
        raise SettlementError(f"bank {text!r}: write three stacks of chips, e.g. 300,700,500") from None
    if len(bank) != 3 or min(bank) < 0 or any(b % 10 for b in bank):
        raise SettlementError(f"bank {text!r}: three stacks of chips >= 0 in $10 units, "
                              "e.g. 300,700,500")
    if problem := bank_problem(bank):
        raise SettlementError(problem)
    return bank  # type: ignore[return-value]


def bank_problem(bank: Sequence[object], level: object = None) -> str | None:
    """Why three bank stacks and a blind level cannot start a hand, or ``None``: three whole
    numbers of chips >= 0, not all empty (the game is over), emptied in order (RULES §1.8),
    level 0-2 and never below the level the bank has reached (RULES §1.5; not checked when
    ``level`` is None). The one check of a spot's table (:class:`analysis.dilemma.table.Table`),
    the engine's table and the abstracted solver's spec."""
    if len(bank) != 3 or any(isinstance(b, bool) or not isinstance(b, Integral) or b < 0
                             for b in bank):
        return f"bank is three stacks of chips >= 0; got {tuple(bank)}"
    stacks = tuple(int(b) for b in bank)  # type: ignore[call-overload]  # whole, checked above
    text = "/".join(map(str, stacks))
    if not sum(stacks):
        return f"bank {text} is empty: the game is over (RULES §1.5)"
    if problem := bank_order_problem(stacks):
        return problem
    if level is None:
        return None
    if isinstance(level, bool) or not isinstance(level, Integral) or level not in (0, 1, 2):
        return f"blind_level: 0, 1 or 2; got {level!r}"
    if level < lowest_level(stacks):
        return (f"blind level {level} cannot go with bank {text}: blinds rose to level "
                f"{lowest_level(stacks)} when the bank first emptied and never go down (RULES §1.5)")
    return None


def lowest_level(bank: Sequence[int]) -> int:
    """The lowest blind level a bank allows: blinds rise once bank 1, then bank 2, is first
    emptied and never go down (RULES §1.5)."""
    return int(bank[0] == 0) + int(bank[1] == 0)


def bank_order_problem(bank: Sequence[int]) -> str | None:
    """Why the bank's three stacks cannot arise in play, or ``None`` if they can.

    Payments out are drawn from bank 1, then 2, then 3, and payments in go to the
    lowest-numbered non-empty bank (RULES §1.5), so an emptied bank is never refilled
    (RULES §1.8): once a bank is empty, every bank before it is empty too.
    """
    for t in (1, 2):
        if bank[t] == 0:
            for s in range(t):
                if bank[s]:
                    return (
                        f"bank {'/'.join(str(b) for b in bank)}: bank {t + 1} is empty but bank "
                        f"{s + 1} holds {bank[s]}; this cannot arise in play: banks are drawn "
                        f"from in order and an emptied bank is never refilled (RULES §1.8)"
                    )
    return None


def _is_int(value: Any) -> bool:
    """An integer and not a bool (``True`` is an ``int`` in Python)."""
    return isinstance(value, int | np.integer) and not isinstance(value, bool | np.bool_)


def _check_money(value: Any, where: str) -> None:
    if not _is_int(value):
        raise SettlementError(f"{where}: must be a whole number of dollars, got {value!r}")
    if value < 0:
        raise SettlementError(f"{where}: must not be negative, got {value}")
    if value > MAX_CHIPS:
        text = str(value)
        shown = text if len(text) <= 24 else f"a number of {len(text)} digits"
        raise SettlementError(f"{where}: must be at most {MAX_CHIPS} dollars, got {shown}")
    if value % 10:
        raise SettlementError(f"{where}: chips come in $10 units, got {value}")

