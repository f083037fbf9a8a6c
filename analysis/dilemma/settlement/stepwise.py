"""The settlement of one finished hand, step by step, in readable Python (RULES §1.4-1.5, §1.8).

(Over 500 lines on purpose: one method per step of RULES §1.4, each explaining what it
did in the printed referee report; the steps share the ledger and the roles.)

This is the referee's path: :func:`settle` takes the end state of a hand (a
:class:`HandState`, usually read from a JSON hand record with
:func:`load_hand_record`) and a deck, and returns a :class:`SettlementResult`
whose steps say which rule applied, what moved where, and why. The numba twin
used by simulations is :mod:`analysis.dilemma.settlement._kernel`; tests check that both
agree on random end states and on every worked example of RULES §1.8.

Conventions: ``stack`` is the chips a player holds *behind* after the betting,
``in`` the chips they put in the pot; streets are 0 preflop, 1 flop, 2 turn,
3 river; board cards carry the street they were dealt on. Every payment by a
player is capped at their chips, every payment by the bank at what it holds.
"""

from __future__ import annotations

from collections.abc import Sequence

from evaluator import describe, get_game

from ..decks import Deck, load_deck
from ..effects import (
    COLOUR_BLUE,
    COLOUR_GREEN,
    COLOUR_RED,
    KINDS,
    OP_BOOM,
    OP_BUBBLE,
    OP_CRASH,
    OP_DIVIDEND,
    OP_INSURANCE,
    OP_LEVY,
    OP_REBATE,
    OP_SLUMP,
    OP_SUBSIDY,
    OP_WINDFALL,
    RIVER,
    STREETS,
    board_effect_active,
    hand_effect_active,
)
from .errors import SettlementError
from .layout import (
    F_BANK_EMPTY,
    F_BLINDS_UP,
    F_GAME_OVER,
    F_ONE_LEFT,
    F_RIVER_EXCEPTION,
    F_SHORT,
    F_SHOWDOWN,
)
from .record import HandRecord
from .results import SettlementResult, Step, Transfer, bank_text
from .rules import Rules, parse_pairs
from .state import HandState


class _Ledger:
    """Stacks and bank with every transfer recorded; payments are capped, money is conserved."""

    def __init__(self, state: HandState) -> None:
        self.names = [p.name for p in state.players]
        self.stacks = [p.stack for p in state.players]
        self.bank = list(state.bank)
        self.short = False
        self.moves: list[Transfer] = []

    def take(self) -> list[Transfer]:
        moves, self.moves = self.moves, []
        return moves

    def draw(self, i: int, amount: int) -> int:
        """Bank pays player ``i`` up to ``amount`` (bank 1 first); a short payment is noted."""
        tiers = [0, 0, 0]
        left = amount
        for t in range(3):
            tiers[t] = min(left, self.bank[t])
            self.bank[t] -= tiers[t]
            left -= tiers[t]
        paid = amount - left
        if left:
            self.short = True
        self.stacks[i] += paid
        if paid:
            self.moves.append(Transfer("bank", self.names[i], paid, tuple(tiers)))  # type: ignore[arg-type]
        return paid

    def deposit(self, source: str, amount: int) -> None:
        """``amount`` goes into the lowest-numbered non-empty bank (bank 3 if all are empty)."""
        if amount <= 0:
            return
        t = next((t for t in range(3) if self.bank[t] > 0), 2)
        self.bank[t] += amount
        tiers = [0, 0, 0]
        tiers[t] = amount
        self.moves.append(Transfer(source, "bank", amount, tuple(tiers)))  # type: ignore[arg-type]

    def pay_bank(self, i: int, amount: int) -> int:
        """Player ``i`` pays up to ``amount`` (capped at their chips) into the bank."""
        paid = min(amount, self.stacks[i])
        self.stacks[i] -= paid
        self.deposit(self.names[i], paid)
        return paid

    def pay_pool(self, i: int, amount: int) -> int:
        """Player ``i`` pays up to ``amount`` (capped at their chips) into the collected penalty."""
        paid = min(amount, self.stacks[i])
        self.stacks[i] -= paid
        if paid:
            self.moves.append(Transfer(self.names[i], "penalty", paid))
        return paid

    def give(self, source: str, i: int, amount: int) -> None:
        """``amount`` from ``source`` (the pot or the collected penalty) to player ``i``."""
        self.stacks[i] += amount
        if amount:
            self.moves.append(Transfer(source, self.names[i], amount))


def _names(state: HandState, seats: Sequence[int]) -> str:
    return ", ".join(state.players[i].name for i in seats) or "nobody"


def _split_amount(amount: int, k: int) -> tuple[int, int]:
    """Share per head in $10 units and the remainder: ``⌊amount/k/10⌋×10``."""
    share = amount // k // 10 * 10
    return share, amount - share * k


class _Referee:
    """The settlement of one hand, one method per step of RULES §1.4 (in order)."""

    def __init__(self, state: HandState, deck: Deck, rules: Rules) -> None:
        self.state = state
        self.deck = deck
        self.rules = rules
        self.spec = get_game(state.game)
        self.P = state.players
        self.n = len(self.P)
        self.name = [p.name for p in self.P]
        self.order = state.clockwise
        self.first_rest = rules.split_remainder == "first_winner"
        self.led = _Ledger(state)
        self.steps: list[Step] = []
        self.totals = dict.fromkeys(
            (
                "pot_remainder",
                "penalty",
                "penalty_paid",
                "bonus",
                "bonus_paid",
                "effect_in",
                "effect_out",
            ),
            0,
        )
        self.active_ops = 0
        self.flags = 0
        self.live = [i for i in range(self.n) if self.P[i].live]
        self.participants = [
            i
            for i in range(self.n)
            if self.P[i].folded is None or self.P[i].folded >= state.last_round
        ]
        self.showdown = len(self.live) >= 2
        if self.showdown:
            self.flags |= F_SHOWDOWN
        self.scores = state.scores(rules.kickers)
        best = max(self.scores[i] for i in self.live)
        self.winners: set[int] = {i for i in self.live if self.scores[i] == best}
        self.losers: list[int] = []
        self.fold_losers: list[int] = []
        self.showdown_losers: list[int] = []
        self.exception = False
        self.insured: set[int] = set()
        self.bankrupt: list[int] = []
        self.sums = {"plus": 0, "minus": 0, "bonus_mult": 1, "penalty_mult": 1, "windfall": 0}
        self.rebate = False

    def record(self, number: int, rule: str, title: str, lines: list[str]) -> None:
        """Close a step: its explanation and the transfers made since the last step."""
        self.steps.append(Step(number, rule, title, tuple(lines), tuple(self.led.take())))

    def card(self, c: int) -> str:
        return self.spec.card_name(c)

    # step 1 ------------------------------------------------------------------
    def pots(self) -> None:
        """§1.4.1: each pot (smallest all-in first) to its best eligible hand; $10 splits."""
        P, name, lines = self.P, self.name, []
        if self.showdown:
            shown = [
                f"{name[i]} {describe(list(P[i].hole) + list(self.state.board), self.spec)}"
                for i in self.live
                if not P[i].conceded
            ]
            conceded = [name[i] for i in self.live if P[i].conceded]
            lines.append(
                "showdown: "
                + "; ".join(shown)
                + (f"; conceded: {', '.join(conceded)}" if conceded else "")
            )
        else:
            lines.append(f"everybody else folded: {name[self.live[0]]} wins without a showdown")
        levels = sorted({P[i].put_in for i in self.live if P[i].put_in > 0})
        prev = 0
        pot_takers: set[int] = set()
        for idx, level in enumerate(levels):
            last_level = idx == len(levels) - 1  # the last pot also takes any folded excess
            amount = sum(
                (p.put_in - min(p.put_in, prev))
                if last_level
                else (min(p.put_in, level) - min(p.put_in, prev))
                for p in P
            )
            eligible = [i for i in self.live if P[i].put_in >= level]
            pbest = max(self.scores[i] for i in eligible)
            takers = [i for i in self.order if i in eligible and self.scores[i] == pbest]
            label = "main pot" if prev == 0 else f"side pot {idx}"
            if len(eligible) == 1 and prev > 0:
                lines.append(
                    f"{label} {amount}: only {name[takers[0]]} put in that much; it goes back to them"
                )
            elif len(eligible) == 1:
                lines.append(f"{label} {amount} to {name[takers[0]]}")
            else:
                lines.append(
                    f"{label} {amount} between {_names(self.state, sorted(eligible))}: "
                    f"won by {_names(self.state, takers)}"
                )
            if len(eligible) >= 2 or prev == 0:
                pot_takers.update(takers)
            share, rest = _split_amount(amount, len(takers))
            for k, i in enumerate(takers):
                self.led.give("pot", i, share + (rest if self.first_rest and k == 0 else 0))
            if len(takers) > 1:
                where = (
                    f"to {name[takers[0]]} (first winner left of the DEALER)"
                    if self.first_rest
                    else "to the bank"
                )
                lines.append(
                    f"split {len(takers)} ways in $10 units: {share} each, remainder {rest} {where}"
                )
            if rest and not self.first_rest:
                self.led.deposit("pot", rest)
                self.totals["pot_remainder"] += rest
            prev = level
        if self.rules.winners == "any_pot":
            self.winners |= pot_takers
        text = f"winners: {_names(self.state, sorted(self.winners))}"
        if pot_takers - self.winners:
            text += f" (side pots only, not winners: {_names(self.state, sorted(pot_takers - self.winners))})"
        lines.append(text)
        self.record(1, "§1.4.1", "the winners take the pot", lines)

    def find_losers(self) -> None:
        """§1.4/§1.8: losers are last-round participants who are not winners (showdown exception)."""
        non_winners = [i for i in self.participants if i not in self.winners]
        self.fold_losers = [i for i in non_winners if not self.P[i].live]
        self.showdown_losers = [i for i in non_winners if self.P[i].live]
        mode = self.rules.showdown_exception
        self.exception = (
            self.showdown
            and bool(self.fold_losers)
            and bool(self.showdown_losers)
            and ((mode == "river" and self.state.last_round == RIVER) or mode == "any_showdown")
        )
        self.losers = self.showdown_losers if self.exception else non_winners
        if self.exception:
            self.flags |= F_RIVER_EXCEPTION

    # step 2 ------------------------------------------------------------------
    def hand_effects(self) -> None:
        """§1.4.2: green cards in the hands that count, clockwise from the DEALER."""
        deck, lines = self.deck, []
        for i in self.order:
            for c in (c for c in self.P[i].hole if deck.colour[c] == COLOUR_GREEN):
                op = int(deck.opcode[c])
                text = f"{self.name[i]} holds {self.card(c)} ({deck.effect_label(c)})"
                if not hand_effect_active(int(deck.colour[c]), not self.P[i].live,
                                          self.rules.green_effects_for):
                    lines.append(
                        f"{text} but folded: no effect (green cards act only for players still in)"
                    )
                    continue
                self.active_ops |= 1 << op
                if op == OP_DIVIDEND:
                    if i in self.winners:
                        want = int(deck.amount[c])
                        paid = self.led.draw(i, want)
                        self.totals["effect_out"] += paid
                        short = f" (the bank could pay only {paid})" if paid < want else ""
                        lines.append(f"{text}: a winner, takes {want} from the bank{short}")
                    else:
                        lines.append(f"{text}: not a winner, no dividend")
                elif op == OP_INSURANCE:
                    self.insured.add(i)
                    lines.append(
                        f"{text}: pays no penalty" + ("" if i in self.losers else " (not a loser)")
                    )
        self.record(
            2, "§1.4.2", "hand effects (green)", lines or ["no green card in a hand that counts"]
        )

    # step 3 ------------------------------------------------------------------
    def board_effects(self) -> None:
        """§1.4.3: blue cards, and red ones dealt on the turn or river, in order of appearance."""
        deck, led, name, lines = self.deck, self.led, self.name, []
        for c, st in zip(self.state.board, self.state.board_streets, strict=True):
            self.sums["plus"] += int(deck.plus[c])
            self.sums["minus"] += int(deck.minus[c])
            col = int(deck.colour[c])
            if col not in (COLOUR_BLUE, COLOUR_RED):
                continue
            text = f"{self.card(c)} ({deck.colour_name(c)}, {deck.effect_label(c)}, dealt on the {STREETS[st]})"
            if not board_effect_active(col, st):
                lines.append(f"{text}: red cards act only from the turn on; no effect")
                continue
            op, amount = int(deck.opcode[c]), int(deck.amount[c])
            self.active_ops |= 1 << op
            if op in (OP_LEVY, OP_CRASH):
                group = self.winners if op == OP_LEVY else set(self.participants)
                who = [i for i in self.order if i in group]
                paid = [led.pay_bank(i, amount) for i in who]
                self.totals["effect_in"] += sum(paid)
                role = "every winner" if op == OP_LEVY else "every participant of the last round"
                lines.append(
                    f"{text}: {role} pays {amount} to the bank: "
                    + ", ".join(
                        f"{name[i]} {p}" + (" (all they had)" if p < amount else "")
                        for i, p in zip(who, paid, strict=True)
                    )
                )
            elif op == OP_SUBSIDY:
                who = [i for i in self.order if i in self.losers]
                got = [led.draw(i, amount) for i in who]
                self.totals["effect_out"] += sum(got)
                lines.append(
                    f"{text}: every loser receives {amount} from the bank: "
                    + (
                        ", ".join(f"{name[i]} {g}" for i, g in zip(who, got, strict=True))
                        or "no loser"
                    )
                )
            elif op in (OP_BOOM, OP_BUBBLE):
                self.sums["bonus_mult"] *= amount
                lines.append(f"{text}: the bonus will be multiplied by {amount}")
            elif op == OP_SLUMP:
                self.sums["penalty_mult"] *= amount
                lines.append(f"{text}: the penalty will be multiplied by {amount}")
            elif op == OP_WINDFALL:
                self.sums["windfall"] += amount
                lines.append(f"{text}: {amount} will be added to the bonus")
            elif op == OP_REBATE:
                self.rebate = True
                lines.append(f"{text}: the penalty will go to the winner(s) instead of the bank")
            else:  # pragma: no cover - the loader forbids hand effects on board colours
                lines.append(f"{text}: {KINDS[op].name} has no board meaning")
        self.record(
            3,
            "§1.4.3",
            "board effects (blue, red from the turn)",
            lines or ["no blue or red card on the board"],
        )

    # step 4 ------------------------------------------------------------------
    def penalty(self) -> None:
        """§1.4.4: the losers share the minus corners (× slump), shares rounded down to $10."""
        state, led, name, lines = self.state, self.led, self.name, []
        minus_sum, mult = self.sums["minus"], self.sums["penalty_mult"]
        penalty = minus_sum * mult
        self.totals["penalty"] = penalty
        corner = (
            " + ".join(f"{self.card(c)} {int(self.deck.minus[c])}" for c in state.board)
            or "no board"
        )
        lines.append(
            f"board minus corners: {corner} = {minus_sum}"
            + (f", x{mult} = {penalty}" if mult != 1 else "")
        )
        if self.exception:
            lines.append(
                f"river exception: {_names(state, self.fold_losers)} folded in the last round and "
                f"{_names(state, self.showdown_losers)} lost the showdown: only the showdown losers pay"
            )
        excused = [i for i in range(self.n) if i not in self.participants]
        if excused:
            lines.append(
                f"folded before the last round ({STREETS[state.last_round]}), pay nothing: {_names(state, excused)}"
            )
        losers, collected = self.losers, 0
        if not losers:
            lines.append("no loser (every participant of the last round is a winner): nobody pays")
        elif penalty == 0:
            lines.append(f"losers: {_names(state, losers)}; the penalty is 0")
        else:
            share, _ = _split_amount(penalty, len(losers))
            each = " each" if len(losers) > 1 else ""
            lines.append(
                f"losers: {_names(state, losers)}; share ⌊{penalty}/{len(losers)}/10⌋×10 = {share}{each}"
            )
            shortfall = 0
            for i in (i for i in self.order if i in losers):
                if i in self.insured:
                    lines.append(f"{name[i]} is insured: pays nothing")
                    continue
                paid = led.pay_pool(i, share)
                collected += paid
                shortfall += share - paid
                lines.append(
                    f"{name[i]} pays {paid}"
                    + (f" (all they have; the share is {share})" if paid < share else "")
                )
            if shortfall and self.rules.insolvent_loser == "others_cover":
                payers = [
                    i
                    for i in self.order
                    if i in losers and i not in self.insured and led.stacks[i] > 0
                ]
                if payers:
                    extra, _ = _split_amount(shortfall, len(payers))
                    collected += sum(led.pay_pool(i, extra) for i in payers)
                    lines.append(
                        f"others cover the shortfall {shortfall}: up to {extra} more each from {_names(state, payers)}"
                    )
            if self.rebate:
                ws = [i for i in self.order if i in self.winners]
                share_w, rest = _split_amount(collected, len(ws))
                for k, i in enumerate(ws):
                    led.give("penalty", i, share_w + (rest if self.first_rest and k == 0 else 0))
                if not self.first_rest:
                    led.deposit("penalty", rest)
                where = "to the first winner" if self.first_rest else "to the bank"
                lines.append(
                    f"rebate: the {collected} collected goes to {_names(state, ws)} ({share_w} each"
                    + (f", remainder {rest} {where})" if rest else ")")
                )
            else:
                led.deposit("penalty", collected)
                lines.append(f"{collected} paid into the bank")
        self.totals["penalty_paid"] = collected
        self.record(4, "§1.4.4", "penalty", lines)

    # step 5 ------------------------------------------------------------------
    def bankruptcy(self) -> None:
        """§1.4.5: a player with no chips left is bankrupt and leaves the game."""
        self.bankrupt = [i for i in range(self.n) if self.led.stacks[i] == 0]
        text = (
            f"bankrupt, out of the game: {_names(self.state, self.bankrupt)}"
            if self.bankrupt
            else "nobody is out of chips"
        )
        self.record(5, "§1.4.5", "bankruptcy", [text])

    # step 6 ------------------------------------------------------------------
    def bonus(self) -> None:
        """§1.4.6/§1.4.8: the solvent winners share the plus corners (× boom, bubble, + windfall)."""
        led, lines = self.led, []
        plus_sum, mult, windfall = self.sums["plus"], self.sums["bonus_mult"], self.sums["windfall"]
        bonus = plus_sum * mult + windfall
        self.totals["bonus"] = bonus
        corner = (
            " + ".join(f"{self.card(c)} {int(self.deck.plus[c])}" for c in self.state.board)
            or "no board"
        )
        text = f"board plus corners: {corner} = {plus_sum}"
        if mult != 1:
            text += f", x{mult} = {plus_sum * mult}"
        if windfall:
            text += f", + windfall {windfall} = {bonus}"
        lines.append(text)
        takers = [i for i in self.order if i in self.winners and i not in self.bankrupt]
        paid_total = 0
        if bonus > 0 and takers:
            share, rest = _split_amount(bonus, len(takers))
            rest = rest if self.first_rest else 0
            held = sum(led.bank)
            if share * len(takers) + rest > held:
                led.short = True
                lines.append(f"the bank holds only {held}: the winners take what is left")
                share, rest = _split_amount(held, len(takers))
                rest = rest if self.first_rest else 0
            if len(takers) > 1:
                lines.append(
                    f"split {len(takers)} ways in $10 units: {share} each"
                    + (
                        f", remainder {rest} to {self.name[takers[0]]}"
                        if self.first_rest
                        else ", the remainder stays in the bank"
                    )
                )
            for k, i in enumerate(takers):
                paid_total += led.draw(i, share + (rest if k == 0 else 0))
            verb = "takes" if len(takers) == 1 else "take"
            lines.append(f"{_names(self.state, takers)} {verb} {paid_total} from the bank")
        elif bonus > 0:
            lines.append("no solvent winner: the bonus stays in the bank")
        self.totals["bonus_paid"] = paid_total
        self.record(6, "§1.4.6", "bonus", lines)

    # step 7 ------------------------------------------------------------------
    def blinds(self) -> int:
        """§1.5: blinds rise when bank 1 (then bank 2) is first emptied; they never go down."""
        level = self.state.blind_level
        if self.led.bank[0] == 0:
            level = max(level, 1)
        if self.led.bank[1] == 0:
            level = max(level, 2)
        sb, bb = self.rules.blinds[level]
        if level > self.state.blind_level:
            self.flags |= F_BLINDS_UP
            text = f"bank {level} is empty: blinds rise to {sb}/{bb} (they never go down)"
        else:
            text = f"blinds stay {sb}/{bb}"
        self.record(7, "§1.5", "blind-up check", [text])
        return level

    # step 8 ------------------------------------------------------------------
    def end_of_game(self) -> list[str]:
        """§1.4.8/§1.8: the game ends after a short bank payment, an empty bank, or one player left."""
        led, reasons = self.led, []
        if led.short:
            self.flags |= F_SHORT
            reasons.append("the bank could not pay in full")
        if sum(led.bank) == 0:
            self.flags |= F_BANK_EMPTY
            reasons.append("the bank is empty")
        if sum(1 for s in led.stacks if s > 0) <= 1:
            self.flags |= F_ONE_LEFT
            reasons.append("at most one player has chips")
        if reasons:
            self.flags |= F_GAME_OVER
            top = max(led.stacks)
            leaders = [self.name[i] for i in range(self.n) if led.stacks[i] == top]
            text = "; ".join(reasons) + f": the game ends, most chips: {', '.join(leaders)} ({top})"
        else:
            text = f"the bank holds {sum(led.bank)} ({bank_text(led.bank)}): the game goes on"
        self.record(8, "§1.4.8", "end of the game?", [text])
        return reasons


def settle(
    state: HandState, deck: Deck | str = "reference", rules: Rules | None = None
) -> SettlementResult:
    """Settle one finished hand and explain every step (RULES §1.4 order, §1.5 bank and blinds)."""
    state.validate()
    deck = load_deck(deck)
    if deck.game != state.game:
        raise SettlementError(f"the {deck.name} deck is for {deck.game}, the hand is {state.game}")
    rules = rules or Rules()
    ref = _Referee(state, deck, rules)
    ref.pots()
    ref.find_losers()
    ref.hand_effects()
    ref.board_effects()
    ref.penalty()
    ref.bankruptcy()
    ref.bonus()
    level = ref.blinds()
    reasons = ref.end_of_game()
    ref.totals["active_ops"] = ref.active_ops
    result = SettlementResult(
        state=state,
        deck=deck,
        rules=rules,
        steps=tuple(ref.steps),
        stacks=tuple(ref.led.stacks),
        bank=tuple(ref.led.bank),  # type: ignore[arg-type]
        blind_level=level,
        winners=tuple(sorted(ref.winners)),
        losers=tuple(sorted(ref.losers)),
        bankrupt=tuple(ref.bankrupt),
        flags=ref.flags,
        totals=ref.totals,
        reasons=tuple(reasons),
    )
    if state.total_money != sum(result.stacks) + sum(result.bank):  # pragma: no cover - invariant
        raise AssertionError("settlement did not conserve money")
    return result


def settle_record(
    record: HandRecord, deck: Deck | str | None = None, rules: Sequence[str] | None = None
) -> SettlementResult:
    """Settle a parsed hand record; ``deck`` overrides the record's deck, ``rules`` add options."""
    chosen = deck if deck is not None else (record.deck or "reference")
    options = dict(record.rules)
    options.update(parse_pairs(rules or []))
    return settle(record.state, load_deck(chosen), Rules.parse(options))

