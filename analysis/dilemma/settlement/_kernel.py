"""The numba settlement core: every transfer of RULES §1.4-1.5 on plain integer arrays.

(Over 500 lines on purpose: :func:`settle_core` follows the eight steps of RULES §1.4 in
order in one function, so the rule order reads top to bottom and nothing is allocated.)

This is the fast twin of :mod:`.stepwise` (the readable path that
explains each step); the two are tested to agree on random end states and on
every worked example of RULES §1.8. Simulation kernels call :func:`settle_core`
once per simulated hand; it allocates nothing, reads only its arguments (no
global arrays) and writes results into the caller's arrays.

Calling it from a Monte Carlo kernel
------------------------------------
Preallocate once per thread (or per chunk)::

    players = np.zeros((n_max, N_PCOLS), np.int64)  # one row per seat
    board = np.zeros((2, 5), np.int64)              # row 0 card ids, row 1 streets
    table = np.zeros(N_TCOLS, np.int64)             # bank, blind level, dealer, ...
    out = np.zeros(N_OUT, np.int64)                 # results of the hand
    hand = np.zeros(7, np.uint8)                    # scratch for score_players

then, per simulated hand, fill the *input* columns, call
``score_players(players, n, board, table, eval_tables, hand)`` (or fill
``P_SCORE`` yourself), then ``flags = settle_core(players, n, board, table,
deck, rules, out)`` and read the *output* columns. ``deck`` is
``Deck.kernel_args`` (int64[5, n_cards]: rows ``D_COLOUR``, ``D_PLUS``,
``D_MINUS``, ``D_OP``, ``D_AMOUNT``), ``rules`` is ``Rules.kernel_args``, ``eval_tables`` is
``evaluator.tables.get_tables(game).kernel_args``.

The arrays and their named columns are described in :mod:`.layout`.

Order of operations (RULES §1.4): 1 pots, 2 hand (green) effects, 3 board
effects in order of appearance, 4 penalty, 5 bankruptcy, 6 bonus, 7 blind-up,
8 end of game. Bank draws come from bank 1, then 2, then 3; payments in go to
the lowest-numbered non-empty bank (bank 3 when all are empty) (RULES §1.5).
The winners (bonus, no penalty) are the best live hands, i.e. the main-pot
winners; rule options switch the [choice]s of RULES.md (``R_*`` entries).

Preconditions (not checked here; :meth:`.state.HandState.validate`
checks them for records): ``1 <= n <= players.shape[0]``, at least one live
seat, no folder put in more than the largest live contribution, amounts in
$10 units and ``0 <= dealer < n``. A player who conceded at the showdown has
``P_SCORE = -1`` and may keep known hole cards (their green cards still count);
:func:`score_players` cannot know about concessions, so a caller that models
them sets the score itself.

Cost: about 170-180 ns per 4-player hand on one core with the state in cache
(``scripts/bench_settlement.py``), no allocation, no Python objects.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from evaluator.jit import kernel
from evaluator.kernels import score_cards, top_kicker_key

from .._board import (
    B_ACTIVE_OPS,
    B_BONUS_MULT,
    B_MINUS,
    B_PENALTY_MULT,
    B_PLUS,
    B_REBATE,
    B_WINDFALL,
    card_acts,
    scan_board,
)
from ..decks import D_AMOUNT, D_COLOUR, D_OP
from ..effects import (
    COLOUR_GREEN,
    OP_CRASH,
    OP_DIVIDEND,
    OP_INSURANCE,
    OP_LEVY,
    OP_SUBSIDY,
    RIVER,
)
from .layout import (
    F_BANK_EMPTY,
    F_BLINDS_UP,
    F_GAME_OVER,
    F_ONE_LEFT,
    F_RIVER_EXCEPTION,
    F_SHORT,
    F_SHOWDOWN,
    P_BONUS,
    P_EFFECT,
    P_FINAL,
    P_FOLD,
    P_HOLE0,
    P_HOLE1,
    P_IN,
    P_PENALTY,
    P_POT,
    P_ROLE,
    P_SCORE,
    P_STACK,
    ROLE_BANKRUPT,
    ROLE_INSURED,
    ROLE_LIVE,
    ROLE_LOSER,
    ROLE_PARTICIPANT,
    ROLE_POT,
    ROLE_WINNER,
    SO_ACTIVE_OPS,
    SO_BANK1,
    SO_BANK2,
    SO_BANK3,
    SO_BOARD,
    SO_BONUS,
    SO_BONUS_PAID,
    SO_EFFECT_IN,
    SO_EFFECT_OUT,
    SO_FLAGS,
    SO_LEVEL,
    SO_N_LOSERS,
    SO_N_WINNERS,
    SO_PENALTY,
    SO_PENALTY_PAID,
    SO_POT_REMAINDER,
    T_BANK1,
    T_BANK2,
    T_BANK3,
    T_DEALER,
    T_LAST,
    T_LEVEL,
    T_NBOARD,
)
from .rules import (
    EXC_ANY_SHOWDOWN,
    EXC_RIVER,
    R_EXCEPTION,
    R_GREEN_ALL,
    R_KICKERS_TOP,
    R_OTHERS_COVER,
    R_REMAINDER_FIRST,
    R_WINNERS_ANY_POT,
)

_NEG = np.int64(-(2**62))
_BIG = np.int64(2**62)


@kernel
def _seat(dealer, j, n):
    """The ``j``-th seat clockwise after the dealer (``0 <= dealer, j < n``; no modulo)."""
    i = dealer + 1 + j
    return i - n if i >= n else i


@kernel
def _share(amount, k):
    """``⌊amount / k / 10⌋ × 10`` for ``amount >= 0``, ``k >= 1`` (one division; k = 1 is cheap)."""
    if k == 1:
        return amount // 10 * 10
    return amount // (10 * k) * 10


@kernel
def _draw(out, amount):
    """Take up to ``amount`` from the bank (bank 1 first); return what was paid."""
    take = min(amount, out[SO_BANK1])
    out[SO_BANK1] -= take
    paid = take
    if paid < amount:
        take = min(amount - paid, out[SO_BANK2])
        out[SO_BANK2] -= take
        paid += take
        if paid < amount:
            take = min(amount - paid, out[SO_BANK3])
            out[SO_BANK3] -= take
            paid += take
    return paid


@kernel
def _deposit(out, amount):
    """Pay ``amount`` into the lowest-numbered non-empty bank (bank 3 if all are empty)."""
    if out[SO_BANK1] > 0:
        out[SO_BANK1] += amount
    elif out[SO_BANK2] > 0:
        out[SO_BANK2] += amount
    else:
        out[SO_BANK3] += amount


@kernel
def _split(players, n, dealer, role_bit, amount, first_gets_rest):
    """Split ``amount`` between seats with ``role_bit`` set in P_ROLE: shares in $10 units,
    clockwise from the dealer; returns the remainder (given to the first such seat if asked)."""
    k = 0
    for i in range(n):
        if players[i, P_ROLE] & role_bit:
            k += 1
    if k == 0:
        return amount
    share = _share(amount, k)
    rest = amount - share * k
    first = True
    for j in range(n):
        i = _seat(dealer, j, n)
        if players[i, P_ROLE] & role_bit:
            give = share
            if first and first_gets_rest:
                give += rest
            first = False
            players[i, P_FINAL] += give
    return 0 if first_gets_rest else rest


@kernel
def _general_pots(players, n, dealer, first_rest, out):
    """Step 1 with all-ins: one pot per distinct live contribution, smallest first, each to
    its best eligible hand (ties split in $10 units); uncalled chips go back to their owner."""
    prev = 0
    while True:
        level = _BIG
        top = 0
        for i in range(n):
            if players[i, P_FOLD] < 0:
                a = players[i, P_IN]
                if prev < a < level:
                    level = a
                if a > top:
                    top = a
        if level == _BIG:
            break
        pot = 0
        n_elig = 0
        pbest = _NEG
        for i in range(n):
            a = players[i, P_IN]
            if level == top:
                pot += a - min(a, prev)  # the last pot also takes any folded excess
            else:
                pot += min(a, level) - min(a, prev)
            if players[i, P_FOLD] < 0 and a >= level:
                n_elig += 1
                if players[i, P_SCORE] > pbest:
                    pbest = players[i, P_SCORE]
        k = 0
        for i in range(n):
            if (
                players[i, P_FOLD] < 0
                and players[i, P_IN] >= level
                and players[i, P_SCORE] == pbest
            ):
                k += 1
        share = _share(pot, k)
        rest = pot - share * k
        first = True
        for j in range(n):
            i = _seat(dealer, j, n)
            if (
                players[i, P_FOLD] < 0
                and players[i, P_IN] >= level
                and players[i, P_SCORE] == pbest
            ):
                give = share
                if first and first_rest:
                    give += rest
                first = False
                players[i, P_FINAL] += give
                players[i, P_POT] += give
                if n_elig >= 2 or prev == 0:
                    players[i, P_ROLE] |= ROLE_POT
        if not first_rest and rest > 0:
            _deposit(out, rest)
            out[SO_POT_REMAINDER] += rest
        prev = level
        if level == top:
            break


@kernel
def _top_kicker_scores(players, n, board, nb):
    """RULES §1.3 ``kickers=top``: each shown score with known hole cards becomes its
    showdown key (:func:`evaluator._kicker_kernels.top_kicker_key`), in place; a key stays
    a key, so settling twice is harmless."""
    hand = np.empty(7, np.int64)
    for b in range(nb):
        hand[2 + b] = board[0, b]
    for i in range(n):
        h0 = players[i, P_HOLE0]
        h1 = players[i, P_HOLE1]
        if players[i, P_SCORE] >= 0 and h0 >= 0 and h1 >= 0:
            hand[0] = h0
            hand[1] = h1
            players[i, P_SCORE] = top_kicker_key(players[i, P_SCORE], hand, 2 + nb)


@kernel
def settle_core(players, n, board, table, deck, rules, out):
    """Settle one finished hand in place (see the module docstring for the array layout).

    Returns the ``F_*`` flags (also in ``out[SO_FLAGS]``). Money is conserved: the
    sum of P_STACK + P_IN over seats plus the input bank equals the sum of
    P_FINAL plus the output bank, and no P_FINAL is negative. With the rule
    ``kickers=top`` the shown scores are first replaced by their showdown keys
    (:func:`_top_kicker_scores`; the hole cards must be known).
    """
    last = table[T_LAST]
    dealer = table[T_DEALER]
    if dealer < 0 or dealer >= n:
        dealer = 0 if dealer < 0 else dealer % n
    nb = table[T_NBOARD]
    if rules[R_KICKERS_TOP]:
        _top_kicker_scores(players, n, board, nb)
    first_rest = rules[R_REMAINDER_FIRST] != 0
    out[SO_POT_REMAINDER] = 0  # tallies; every other entry of ``out`` is assigned below
    out[SO_EFFECT_IN] = 0
    out[SO_EFFECT_OUT] = 0
    out[SO_BONUS_PAID] = 0
    out[SO_BANK1] = table[T_BANK1]
    out[SO_BANK2] = table[T_BANK2]
    out[SO_BANK3] = table[T_BANK3]
    flags = 0
    active_ops = 0

    # live players and last-round participants; the best live score and how many hold it
    n_live = 0
    best = _NEG
    n_best = 0
    best_i = 0
    lo_in = _BIG
    hi_in = np.int64(-1)
    total_in = 0
    for i in range(n):
        players[i, P_FINAL] = players[i, P_STACK]
        players[i, P_POT] = 0
        a = players[i, P_IN]
        total_in += a
        f = players[i, P_FOLD]
        if f < 0:
            players[i, P_ROLE] = ROLE_LIVE | ROLE_PARTICIPANT
            n_live += 1
            s = players[i, P_SCORE]
            if s > best:
                best = s
                n_best = 1
                best_i = i
            elif s == best:
                n_best += 1
            lo_in = min(lo_in, a)
            hi_in = max(hi_in, a)
        else:
            players[i, P_ROLE] = ROLE_PARTICIPANT if f >= last else 0
    if n_live >= 2:
        flags |= F_SHOWDOWN

    # step 1: the pots; the main-pot winners are the best live hands
    if lo_in == hi_in and hi_in > 0:
        # nobody all-in for less: one pot, to the main-pot winners
        share = _share(total_in, n_best)
        rest = total_in - share * n_best
        first = True
        if n_best == 1:  # the usual case: one winner takes it all
            players[best_i, P_ROLE] |= ROLE_WINNER | ROLE_POT
            players[best_i, P_FINAL] += total_in if first_rest else share
            players[best_i, P_POT] += total_in if first_rest else share
            first = False
        for j in range(n if n_best > 1 else 0):
            i = _seat(dealer, j, n)
            if players[i, P_ROLE] & ROLE_LIVE and players[i, P_SCORE] == best:
                players[i, P_ROLE] |= ROLE_WINNER | ROLE_POT
                give = share + (rest if first and first_rest else 0)
                first = False
                players[i, P_FINAL] += give
                players[i, P_POT] += give
        if not first_rest and rest > 0:
            _deposit(out, rest)
            out[SO_POT_REMAINDER] += rest
    else:
        for i in range(n):
            if players[i, P_ROLE] & ROLE_LIVE and players[i, P_SCORE] == best:
                players[i, P_ROLE] |= ROLE_WINNER
        if hi_in > 0:
            _general_pots(players, n, dealer, first_rest, out)

    for i in range(n):  # breakdown: chips after the pots (P_EFFECT holds them until step 4)
        players[i, P_EFFECT] = players[i, P_FINAL]

    # losers: last-round participants who are not winners; step 2: hand (green) effects;
    # one pass clockwise from the dealer
    any_pot = rules[R_WINNERS_ANY_POT] != 0
    green_all = rules[R_GREEN_ALL] != 0
    fold_losers = 0
    showdown_losers = 0
    n_win = 0
    for j in range(n):
        i = _seat(dealer, j, n)
        role = players[i, P_ROLE]
        if any_pot and role & ROLE_POT:
            role |= ROLE_WINNER
        if role & ROLE_WINNER:
            n_win += 1
        elif role & ROLE_PARTICIPANT:
            role |= ROLE_LOSER
            if role & ROLE_LIVE:
                showdown_losers += 1
            else:
                fold_losers += 1
        if green_all or role & ROLE_LIVE:
            for h in range(P_HOLE0, P_HOLE1 + 1):
                c = players[i, h]
                if c < 0 or deck[D_COLOUR, c] != COLOUR_GREEN:
                    continue
                op = deck[D_OP, c]
                if op == OP_DIVIDEND:
                    active_ops |= 1 << op
                    if role & ROLE_WINNER:
                        want = deck[D_AMOUNT, c]
                        paid = _draw(out, want)
                        if paid < want:
                            flags |= F_SHORT
                        players[i, P_FINAL] += paid
                        out[SO_EFFECT_OUT] += paid
                elif op == OP_INSURANCE:
                    active_ops |= 1 << op
                    role |= ROLE_INSURED
        players[i, P_ROLE] = role
    n_lose = fold_losers + showdown_losers
    mode = rules[R_EXCEPTION]
    if (
        n_live >= 2
        and fold_losers > 0
        and showdown_losers > 0
        and ((mode == EXC_RIVER and last == RIVER) or mode == EXC_ANY_SHOWDOWN)
    ):
        # the showdown exception of §1.4: only the showdown losers pay
        flags |= F_RIVER_EXCEPTION
        n_lose = showdown_losers
        for i in range(n):
            if not players[i, P_ROLE] & ROLE_LIVE:
                players[i, P_ROLE] &= ~ROLE_LOSER
    out[SO_N_WINNERS] = n_win
    out[SO_N_LOSERS] = n_lose

    # step 3: board effects. The corner sums and multipliers come from the shared board scan;
    # the immediate transfers (levy, crash, subsidy) run in the order the cards appeared.
    scan_board(board[0], board[1], nb, deck, out, SO_BOARD)
    active_ops |= out[SO_BOARD + B_ACTIVE_OPS]
    for b in range(nb):
        c = board[0, b]
        if not card_acts(deck, c, board[1, b]):
            continue
        op = deck[D_OP, c]
        a = deck[D_AMOUNT, c]
        if op in (OP_LEVY, OP_CRASH):
            # payments into the bank: all go to the same bank stack, order does not matter
            bit = ROLE_WINNER if op == OP_LEVY else ROLE_PARTICIPANT
            for i in range(n):
                if players[i, P_ROLE] & bit:
                    pay = min(a, players[i, P_FINAL])
                    players[i, P_FINAL] -= pay
                    _deposit(out, pay)
                    out[SO_EFFECT_IN] += pay
        elif op == OP_SUBSIDY:
            for j in range(n):
                i = _seat(dealer, j, n)
                if players[i, P_ROLE] & ROLE_LOSER:
                    paid = _draw(out, a)
                    if paid < a:
                        flags |= F_SHORT
                    players[i, P_FINAL] += paid
                    out[SO_EFFECT_OUT] += paid
    plus_sum = out[SO_BOARD + B_PLUS]
    minus_sum = out[SO_BOARD + B_MINUS]
    bonus_mult = out[SO_BOARD + B_BONUS_MULT]
    penalty_mult = out[SO_BOARD + B_PENALTY_MULT]
    windfall = out[SO_BOARD + B_WINDFALL]
    rebate = out[SO_BOARD + B_REBATE] != 0

    for i in range(n):  # breakdown: effects so far; P_PENALTY holds the chips until step 5
        players[i, P_EFFECT] = players[i, P_FINAL] - players[i, P_EFFECT]
        players[i, P_PENALTY] = players[i, P_FINAL]

    # step 4: the penalty, split between the losers, shares rounded down to $10
    penalty = minus_sum * penalty_mult
    out[SO_PENALTY] = penalty
    collected = 0
    if n_lose > 0 and penalty > 0:
        share = _share(penalty, n_lose)
        shortfall = 0
        for i in range(n):
            role = players[i, P_ROLE]
            if role & ROLE_LOSER and not role & ROLE_INSURED:
                pay = min(share, players[i, P_FINAL])
                players[i, P_FINAL] -= pay
                collected += pay
                shortfall += share - pay
        if shortfall > 0 and rules[R_OTHERS_COVER] != 0:
            k = 0
            for i in range(n):
                role = players[i, P_ROLE]
                if role & ROLE_LOSER and not role & ROLE_INSURED and players[i, P_FINAL] > 0:
                    k += 1
            if k > 0:
                extra = _share(shortfall, k)
                for i in range(n):
                    role = players[i, P_ROLE]
                    if role & ROLE_LOSER and not role & ROLE_INSURED and players[i, P_FINAL] > 0:
                        pay = min(extra, players[i, P_FINAL])
                        players[i, P_FINAL] -= pay
                        collected += pay
        if rebate:
            rest = _split(players, n, dealer, ROLE_WINNER, collected, first_rest)
            _deposit(out, rest)
        else:
            _deposit(out, collected)
    out[SO_PENALTY_PAID] = collected

    for i in range(n):  # breakdown: losers paid the penalty, winners may have had a rebate
        d = players[i, P_FINAL] - players[i, P_PENALTY]
        players[i, P_PENALTY] = -d if d < 0 else 0
        if d > 0:
            players[i, P_EFFECT] += d
        players[i, P_BONUS] = players[i, P_FINAL]

    # step 5: bankruptcy; the winners who can still take the bonus; players with chips
    k = 0
    k_i = 0
    left = 0
    for i in range(n):
        if players[i, P_FINAL] == 0:
            players[i, P_ROLE] |= ROLE_BANKRUPT
        else:
            left += 1
            if players[i, P_ROLE] & ROLE_WINNER:
                k += 1
                k_i = i

    # step 6: the bonus to the solvent winners, shares rounded down to $10
    bonus = plus_sum * bonus_mult + windfall
    out[SO_BONUS] = bonus
    if k > 0 and bonus > 0:
        share = _share(bonus, k)
        rest = bonus - share * k if first_rest else 0
        held = out[SO_BANK1] + out[SO_BANK2] + out[SO_BANK3]
        if share * k + rest > held:
            flags |= F_SHORT
            share = _share(held, k)
            rest = held - share * k if first_rest else 0
        first = True
        paid_total = 0
        if k == 1:  # the usual case: one winner takes it all
            paid_total = _draw(out, share + rest)
            players[k_i, P_FINAL] += paid_total
        for j in range(n if k > 1 else 0):
            i = _seat(dealer, j, n)
            role = players[i, P_ROLE]
            if role & ROLE_WINNER and not role & ROLE_BANKRUPT:
                want = share + (rest if first else 0)
                first = False
                paid = _draw(out, want)
                players[i, P_FINAL] += paid
                paid_total += paid
        out[SO_BONUS_PAID] = paid_total

    for i in range(n):  # breakdown: the bonus received
        players[i, P_BONUS] = players[i, P_FINAL] - players[i, P_BONUS]

    # step 7: blind-up (never down)
    level = table[T_LEVEL]
    if out[SO_BANK1] == 0 and level < 1:
        level = 1
    if out[SO_BANK2] == 0 and level < 2:
        level = 2
    if level > table[T_LEVEL]:
        flags |= F_BLINDS_UP
    out[SO_LEVEL] = level

    # step 8: the end of the game
    if out[SO_BANK1] + out[SO_BANK2] + out[SO_BANK3] == 0:
        flags |= F_BANK_EMPTY
    if left <= 1:  # the bonus only goes to players who still have chips
        flags |= F_ONE_LEFT
    if flags & (F_SHORT | F_BANK_EMPTY | F_ONE_LEFT):
        flags |= F_GAME_OVER
    out[SO_ACTIVE_OPS] = active_ops
    out[SO_FLAGS] = flags
    return flags


@kernel
def score_players(players, n, board, table, eval_tables, hand):
    """Fill P_SCORE of live seats whose hole cards are known (needs 3+ board cards).

    ``hand`` is a uint8[7] scratch array. Seats that folded, or whose cards are
    unknown (-1), get score -1 (they cannot win a contested pot). Uses the
    evaluator's kernel ``score_cards`` (a simulation that already scored the
    hands fills P_SCORE itself and skips this).
    """
    nb = table[T_NBOARD]
    for b in range(nb):
        hand[2 + b] = board[0, b]
    for i in range(n):
        h0 = players[i, P_HOLE0]
        h1 = players[i, P_HOLE1]
        if players[i, P_FOLD] >= 0 or h0 < 0 or h1 < 0 or nb < 3:
            players[i, P_SCORE] = -1
        else:
            hand[0] = h0
            hand[1] = h1
            players[i, P_SCORE] = score_cards(hand, 2 + nb, eval_tables)


@kernel
def _settle_rows(hands, game, out, span, score):
    """Settle hands ``lo:hi`` (scored first if ``score``).

    ``hands`` = ``(players, n_seats, board, table)``: the batch's arrays, one row per hand
    (``layout``: ``P_*`` columns, seats, ``[2, 5]`` board cards and acting streets, ``T_*``);
    ``game`` = ``(deck, rules, eval_tables)``: ``Deck.kernel_args``, ``Rules.kernel_args``, the
    evaluator's tables; ``out``: int64[hands, N_OUT] the results (``SO_*``); ``span`` =
    ``(lo, hi)``; ``score``: score the hands before settling them.
    """
    players, n_seats, board, table = hands
    deck, rules, eval_tables = game
    lo, hi = span
    hand = np.zeros(7, np.uint8)
    for h in range(lo, hi):
        if score:
            score_players(players[h], n_seats[h], board[h], table[h], eval_tables, hand)
        settle_core(players[h], n_seats[h], board[h], table[h], deck, rules, out[h])


@kernel
def settle_batch_serial(hands, game, out, score):
    """Settle many hands (leading axis of every array) on one thread; scores first if ``score``.

    ``hands``, ``game``, ``out`` and ``score`` are those of :func:`_settle_rows`:
    ``hands = (players, n_seats, board, table)`` one row per hand,
    ``game = (deck, rules, eval_tables)`` the same for every hand.
    """
    _settle_rows(hands, game, out, (0, hands[0].shape[0]), score)


@kernel(parallel=True)
def settle_batch(hands, game, out, score):
    """Settle many hands on all numba threads (chunks of 4096 hands); same results as serial.

    Arguments as :func:`settle_batch_serial`; the tuples are unpacked and built again flat
    for the ``prange`` body.
    """
    players, n_seats, board, table = hands
    deck, rules, eval_tables = game
    m = players.shape[0]
    chunk = 4096
    n_chunks = (m + chunk - 1) // chunk
    for c in prange(n_chunks):
        lo = c * chunk
        hi = min(m, lo + chunk)
        _settle_rows((players, n_seats, board, table), (deck, rules, eval_tables), out, (lo, hi), score)
