"""The referee against pokerkit on random legal action sequences (Texas no-limit, pot-limit, fixed-limit).

pokerkit implements the common casino rules, so the comparison uses the ``*-casino``
presets (raises of at least the last increment, pot-limit on the whole pot) with
pokerkit's short all-in rule (``short_all_in=consecutive``, RULES §1.2), on every hand;
half the tables are a deep stack or two among short ones, betting small, so that short
all-ins, several in a round, are common. At every
decision both must name the same actor, the same amount to call, whether a bet/raise is
allowed and its minimum and maximum, and the same pot; at the end the same stacks.
Stacks are at least the big blind (pokerkit lets a short big blind set the amount to call).
"""

from __future__ import annotations

import random
import warnings
import zlib

import pytest

from analysis.engine import Hand, TableSetup, get_structure
from evaluator import format_cards

pk = pytest.importorskip("pokerkit")

AUTOMATIONS = (pk.Automation.ANTE_POSTING, pk.Automation.BET_COLLECTION,
               pk.Automation.BLIND_OR_STRADDLE_POSTING, pk.Automation.CARD_BURNING,
               pk.Automation.HOLE_CARDS_SHOWING_OR_MUCKING, pk.Automation.HAND_KILLING,
               pk.Automation.CHIPS_PUSHING, pk.Automation.CHIPS_PULLING)
AUTOMATIONS += tuple(getattr(pk.Automation, name) for name in ("RUNOUT_COUNT_SELECTION",)
                     if hasattr(pk.Automation, name))
POKERKIT_RULE = {"short_all_in": "consecutive"}
"""pokerkit's short all-in rule (RULES §1.2, ``Structure.short_all_in``): every hand is compared."""
STRUCTURES = {"nl-casino": pk.BettingStructure.NO_LIMIT, "pl-casino": pk.BettingStructure.POT_LIMIT,
              "fl-casino": pk.BettingStructure.FIXED_LIMIT}


def pk_state(structure: str, stacks_pk: list[int], blinds: tuple[int, int]):
    sb, bb = blinds
    fixed = structure == "fl-casino"
    # pokerkit counts raises without the blind; our fixed limit counts the big blind as bet 1
    caps = (3, 4, 4, 4) if fixed else (None,) * 4
    sizes = (bb, bb, 2 * bb, 2 * bb) if fixed else (bb,) * 4
    streets = [pk.Street(False, (False, False), 0, False, pk.Opening.POSITION, sizes[0], caps[0])]
    for k, count in enumerate((3, 1, 1), start=1):
        streets.append(pk.Street(True, (), count, False, pk.Opening.POSITION, sizes[k], caps[k]))
    return pk.State(AUTOMATIONS, pk.Deck.STANDARD, (pk.StandardHighHand,), tuple(streets),
                    STRUCTURES[structure], True, 0, (sb, bb), 0, tuple(stacks_pk), len(stacks_pk),
                    mode=pk.Mode.CASH_GAME)


def card_text(cards) -> str:
    return format_cards(cards, "holdem").replace("10", "T").replace(" ", "")


def play_one(rng: random.Random, structure: str, seen: dict | None = None) -> None:
    """One random hand played by both engines, checked at every decision; ``seen`` (when
    given) receives the referee's hand, to explain a disagreement (``scripts/soak.py``)."""
    blinds = (1, 2)
    short = rng.random() < 0.5
    if not short:
        n = rng.randint(2, 6)
        stacks = [rng.choice([rng.randint(3, 30), rng.randint(30, 300)]) for _ in range(n)]
    else:  # one or two deep stacks among short ones: short all-ins, several in a round
        n = rng.randint(4, 6)
        stacks = [rng.randint(60, 300) for _ in range(rng.randint(1, 2))]
        stacks += [rng.randint(6, 30) for _ in range(n - len(stacks))]
        rng.shuffle(stacks)
    dealer = rng.randrange(n)
    setup = TableSetup(names=tuple(f"P{i}" for i in range(n)), stacks=tuple(stacks), dealer=dealer,
                       blinds=blinds, game="holdem", structure=get_structure(structure, POKERKIT_RULE),
                       deck="holdem").validate()
    hand = Hand(setup)
    if seen is not None:
        seen["hand"] = hand
    order = [(dealer + 1 + k) % n for k in range(n)]  # pokerkit index -> our seat
    pki = {seat: k for k, seat in enumerate(order)}
    state = pk_state(structure, [stacks[s] for s in order], blinds)
    if seen is not None:
        seen["pokerkit"], seen["order"] = state, order
    deck = list(range(52))
    rng.shuffle(deck)
    holes = [deck[2 * i: 2 * i + 2] for i in range(n)]
    board = deck[2 * n: 2 * n + 5]
    hand.deal_holes(holes)
    for k in range(n):
        state.deal_hole(card_text(holes[order[k]]))
    dealt = 0
    while True:
        while hand.actor is not None and not hand.over:
            legal = hand.legal()
            i = legal.player
            where = f"{structure} {hand.summary()}"
            assert state.actor_index == pki[i], where
            assert state.checking_or_calling_amount == legal.call, where
            assert state.total_pot_amount == hand.pot, where
            can = state.can_complete_bet_or_raise_to()
            assert can == (legal.min_to is not None), where
            if can:
                assert state.min_completion_betting_or_raising_to_amount == legal.min_to, where
                assert state.max_completion_betting_or_raising_to_amount == legal.max_to, where
            r = rng.random()
            if legal.call and r < 0.15:
                hand.act("fold")
                state.fold()
            elif legal.min_to is not None and r > 0.6:
                top = min(legal.max_to, legal.min_to + 8) if short else legal.max_to
                to = legal.max_to if rng.random() < 0.2 else rng.randint(legal.min_to, top)
                hand.act("bet" if legal.bet else "raise", to)
                state.complete_bet_or_raise_to(to)
            else:
                hand.act("call" if legal.call else "check")
                state.check_or_call()
        if hand.over or sum(s.live for s in hand.seats) <= 1:
            break
        if len(hand.board) == 5:
            break
        cards = board[dealt: dealt + (3 if dealt == 0 else 1)]
        dealt += len(cards)
        hand.deal_board(cards)
        state.deal_board(card_text(cards))
    result = hand.finish()
    if seen is not None:
        seen["result"] = result
    assert not state.status, f"pokerkit still running: {hand.summary()}"
    theirs = [state.stacks[pki[s]] for s in range(n)]
    if theirs != list(result.stacks):
        # only the odd chips of a split may go elsewhere (ours: first winner left of the DEALER,
        # RULES §2): a seat differs by at most the odd chips of the split pots it shares in
        split = [p for p in result.pots if len(p.shares) > 1 and p.amount % len(p.shares)]
        assert split and sum(theirs) == sum(result.stacks), hand.summary()
        slack = [sum(p.amount % len(p.shares) for p in split if seat in dict(p.shares))
                 for seat in range(n)]
        assert all(abs(a - b) <= slack[seat] for seat, (a, b)
                   in enumerate(zip(theirs, result.stacks, strict=True))), hand.summary()


@pytest.mark.filterwarnings("ignore:A card being dealt:UserWarning")  # the test deals fixed cards
@pytest.mark.parametrize("stacks, raises, facing, pokerkit_may_raise", [
    ([200, 18, 24, 200], [16, 22], 12, True),       # two short all-ins add up: both reopen
    ([200, 18, 24, 27, 200], [16, 22, 25], 15, False),  # a third, counted afresh: pokerkit does not
])
def test_rules_1_2_pokerkit_plays_short_all_in_consecutive(stacks, raises, facing, pokerkit_may_raise):
    """RULES §1.2: pokerkit's short all-in rule is ``short_all_in=consecutive``, not ``never``
    (two short all-ins that add up reopen its betting) nor quite the tournament rule."""
    n = len(stacks)
    state = pk_state("nl-casino", stacks, (1, 2))  # pokerkit seat k = our seat k (DEALER last)
    for k in range(n):
        state.deal_hole(card_text([4 * k, 4 * k + 1]))
    hands = {rule: Hand(TableSetup(names=tuple(f"P{i}" for i in range(n)), stacks=tuple(stacks),
                                   dealer=n - 1, blinds=(1, 2), game="holdem", deck="holdem",
                                   structure=get_structure("nl-casino", {"short_all_in": rule})))
             for rule in ("consecutive", "no_reopen", "never")}
    for hand in hands.values():
        while hand.actor is not None:
            hand.act("call" if hand.legal().call else "check")
        hand.deal_board([48, 49, 50])
        for to in [10, *raises]:
            hand.act("bet" if to == 10 else "raise", to)
        hand.act("call")  # the last deep stack
    while state.street_index == 0:
        state.check_or_call()
    state.deal_board(card_text([48, 49, 50]))
    for to in [10, *raises]:
        state.complete_bet_or_raise_to(to)
    state.check_or_call()
    assert state.actor_index == 0 and state.checking_or_calling_amount == facing
    assert state.can_complete_bet_or_raise_to() == pokerkit_may_raise
    assert (hands["consecutive"].legal().min_to is not None) == pokerkit_may_raise
    assert hands["no_reopen"].legal().min_to is not None  # facing a full raise or more
    assert hands["never"].legal().min_to is None


@pytest.mark.parametrize("structure", list(STRUCTURES))
def test_referee_agrees_with_pokerkit_on_random_hands(structure):
    rng = random.Random(zlib.crc32(structure.encode()))  # hash() of a str changes per process
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(300):
            play_one(rng, structure)
