"""The numba Bluffjack kernel: hands and whole games played by threshold strategies.

The same rules as the referee (:mod:`.referee`, which the tests replay every logged hand
through), written over two small arrays: ``st[seat, H_*]`` (chips, cards, flags of each
seat) and ``g[HS_*]`` (the round, raises, who acts). A hand's cards are a shuffled deck:
face-down cards to the seats clockwise from the dealer's left, then the face-up cards,
then the hits in order. Every decision draws one uniform number (the forced opening bet
draws none), so a hand depends only on its deck, its seed stream and the strategies.

Log rows: ``[round, seat, action, amount]`` (``A_*``; amount: the round total of a bet or
raise, the card of a hit, else -1).
"""

from __future__ import annotations

import numpy as np

from analysis.core.rng import deal, next_float, seed_state
from evaluator.jit import kernel
from evaluator.kernels import ACE_RANK, R_HOUSE, best_total, blackjack_strength, card_points

from .stakes import SK_ANTE, SK_BET, SK_EXTRA, SK_LIMIT, SK_MAX_RAISES, SK_SECOND
from .strategy import (
    DK_BET,
    DK_HIT,
    FT_FACING,
    FT_HIDDEN,
    FT_OPP,
    FT_PLAYERS,
    FT_RAISES,
    FT_ROUND,
    FT_TOTAL,
    FT_VISIBLE,
    N_FEAT,
)

A_FOLD, A_CHECK, A_CALL, A_BET, A_RAISE, A_HIT, A_STAND = range(7)
ACTION_NAMES = ("fold", "check", "call", "bet", "raise", "hit", "stand")
PH_FIRST, PH_INITIAL, PH_PLAY, PH_FINAL, PH_OVER = range(5)  # phases of a hand (g[HS_ROUND])
LK_FIXED, LK_POT, LK_NO = range(3)  # limit kinds (stakes[SK_LIMIT])

# seat columns (st[seat, H_*])
(H_STACK, H_PUT, H_BET, H_FOLDED, H_STOOD, H_ACTED, H_SEEN, H_DOWN, H_UP, H_HARD, H_ACE, H_VHARD,
 H_VACE, H_CARDS) = range(14)
N_COLS = 14
# the hand's state (g[HS_*])
(HS_ROUND, HS_RAISES, HS_FULL, HS_LAST, HS_OPENED, HS_PENDING, HS_TO_ACT, HS_DECK, HS_N, HS_DEALER,
 HS_HOUSE, HS_CARRY, HS_SHOWDOWN, HS_ACTIONS) = range(14)
N_G = 14
MAX_LOG = 512
"""Log rows per hand (a hand with more actions stops logging; the tests check the count)."""
DECK = 52


@kernel(inline=True)
def _can_bet(st, i):
    """Whether seat ``i`` of ``st`` (seat rows) can still bet: not folded, chips behind."""
    return st[i, H_FOLDED] == 0 and st[i, H_STACK] > 0


@kernel
def _level(st, n):
    """The highest bet this round among the ``n`` seats of ``st``."""
    m = 0
    for i in range(n):
        m = max(m, st[i, H_BET])
    return m


@kernel
def _others_can_bet(st, n, i):
    """Whether a seat of ``st`` other than ``i`` (of ``n``) can still bet."""
    for j in range(n):  # noqa: SIM110 (a plain loop for numba)
        if j != i and _can_bet(st, j):
            return True
    return False


@kernel
def _bet_due(st, g, i):
    """Whether seat ``i`` must act in a betting round (``st`` seat rows, ``g`` the hand's state):
    it can bet, and faces a raise or has not acted while another can bet."""
    n = g[HS_N]
    if not _can_bet(st, i):
        return False
    lvl = _level(st, n)
    if st[i, H_ACTED] != 0 and st[i, H_BET] >= lvl:
        return False
    return st[i, H_BET] < lvl or _others_can_bet(st, n, i)


@kernel
def _turn_due(st, g, stakes, i):
    """Whether seat ``i`` still plays in the hit-or-stand round (``st`` seat rows, ``g`` the hand's
    state, ``stakes`` the ``SK_*`` fields): not folded, and not stood, or stood but owing a bet
    where stakes allow extra bets."""
    if st[i, H_FOLDED] != 0:
        return False
    if st[i, H_STOOD] == 0:
        return True
    return stakes[SK_EXTRA] != 0 and _can_bet(st, i) and st[i, H_BET] < _level(st, g[HS_N])


@kernel
def _next_due(st, g, stakes, start, play):
    """The first seat from ``start`` (clockwise) that must act: in the playing round (``play``) or
    a betting round; -1 if none."""
    n = g[HS_N]
    for k in range(n):
        i = (start + k) % n
        if (_turn_due(st, g, stakes, i) if play else _bet_due(st, g, i)):
            return i
    return -1


@kernel
def _in_hand(st, n):
    """Seats of ``st`` (``n`` seats) not folded."""
    c = 0
    for i in range(n):
        if st[i, H_FOLDED] == 0:
            c += 1
    return c


@kernel
def _pot(st, n):
    """Chips the ``n`` seats of ``st`` have put in."""
    p = 0
    for i in range(n):
        p += st[i, H_PUT]
    return p


@kernel
def _put(st, i, chips):
    """Seat ``i`` of ``st`` puts in ``chips`` (at most its stack): off its stack, onto its total
    and this round's bet."""
    chips = min(chips, st[i, H_STACK])
    st[i, H_STACK] -= chips
    st[i, H_PUT] += chips
    st[i, H_BET] += chips


@kernel
def _showdown(st, g, rules, out):
    """Pots by what the players put in; strengths; house or carry for all-bust pots."""
    n = g[HS_N]
    first = (g[HS_DEALER] + 1) % n
    stren = np.full(n, -1, np.int64)
    for i in range(n):
        if st[i, H_FOLDED] == 0:
            stren[i] = blackjack_strength(st[i, H_HARD], st[i, H_ACE] > 0, st[i, H_CARDS], st[i, H_DOWN], st[i, H_UP], rules)
        out[i] = st[i, H_STACK]
    below = 0
    while True:
        top = -1
        for i in range(n):  # the next live level above ``below``
            p = st[i, H_PUT]
            if st[i, H_FOLDED] == 0 and p > below and (top < 0 or p < top):
                top = p
        if top < 0:
            break
        amount = 0
        for i in range(n):
            amount += min(st[i, H_PUT], top) - min(st[i, H_PUT], below)
        below = top
        best = -1
        count = 0
        for i in range(n):
            if st[i, H_FOLDED] == 0 and st[i, H_PUT] >= top:
                count += 1
                best = max(best, stren[i])
        if count == 1:
            for i in range(n):
                if st[i, H_FOLDED] == 0 and st[i, H_PUT] >= top:
                    out[i] += amount
            continue
        if best == 0:
            if rules[R_HOUSE] != 0:
                g[HS_HOUSE] += amount
            else:
                g[HS_CARRY] += amount
            continue
        won = 0
        for i in range(n):
            if st[i, H_FOLDED] == 0 and st[i, H_PUT] >= top and stren[i] == best:
                won += 1
        share = amount // won
        odd = amount - share * won
        for k in range(n):
            i = (first + k) % n
            if st[i, H_FOLDED] == 0 and st[i, H_PUT] >= top and stren[i] == best:
                out[i] += share + (1 if odd > 0 else 0)
                odd -= 1
    g[HS_SHOWDOWN] = 1
    g[HS_ROUND] = PH_OVER


@kernel
def _next_round(st, g, stakes, rules, out):
    """Start the next phase (skipping betting rounds nobody can bet in), or the showdown."""
    n = g[HS_N]
    first = (g[HS_DEALER] + 1) % n
    while True:
        g[HS_ROUND] += 1
        if g[HS_ROUND] == PH_FIRST and stakes[SK_SECOND] == 0:
            continue
        if g[HS_ROUND] == PH_OVER:
            _showdown(st, g, rules, out)
            return
        for i in range(n):
            st[i, H_BET] = 0
            st[i, H_ACTED] = 0
            st[i, H_SEEN] = -1
        g[HS_RAISES] = 0
        g[HS_FULL] = 0
        g[HS_LAST] = stakes[SK_BET]
        g[HS_OPENED] = 1 if g[HS_ROUND] >= PH_PLAY else 0
        g[HS_PENDING] = 0
        if g[HS_ROUND] == PH_PLAY:
            nxt = _next_due(st, g, stakes, first, True)
            if nxt >= 0:
                g[HS_TO_ACT] = nxt
                return
            continue
        can = 0
        for i in range(n):
            if _can_bet(st, i):
                can += 1
        if can >= 2:
            g[HS_TO_ACT] = _next_due(st, g, stakes, first, False)
            return


@kernel
def _menu(st, g, stakes, menu):
    """The betting menu of the player to act: ``menu = [fold, call, min_to, max_to, forced]``."""
    n = g[HS_N]
    i = g[HS_TO_ACT]
    lvl = _level(st, n)
    call = min(lvl - st[i, H_BET], st[i, H_STACK])
    stood_turn = g[HS_ROUND] == PH_PLAY and st[i, H_STOOD] != 0 and g[HS_PENDING] == 0
    menu[0] = 1 if call > 0 and not stood_turn else 0
    menu[1] = call
    menu[4] = 0
    if g[HS_OPENED] == 0:
        to = st[i, H_BET] + min(stakes[SK_BET], st[i, H_STACK])
        menu[0], menu[1], menu[2], menu[3], menu[4] = 0, 0, to, to, 1
        return
    menu[2] = -1
    menu[3] = -1
    all_in_to = st[i, H_BET] + st[i, H_STACK]
    cap = stakes[SK_MAX_RAISES]
    if (_others_can_bet(st, n, i) and all_in_to > lvl and st[i, H_SEEN] != g[HS_FULL]
            and not (cap > 0 and g[HS_RAISES] >= cap and lvl > 0)):
        step = stakes[SK_BET] if stakes[SK_LIMIT] == LK_FIXED else max(stakes[SK_BET], g[HS_LAST])
        want = lvl + step
        if stakes[SK_LIMIT] == LK_FIXED:
            top = want
        elif stakes[SK_LIMIT] == LK_POT:
            top = lvl + _pot(st, n) + (lvl - st[i, H_BET])
        else:
            top = all_in_to
        menu[2] = min(want, all_in_to)
        menu[3] = min(max(top, want), all_in_to)


@kernel
def _features(st, g, i, feats):
    """What seat ``i`` sees (``strategy.FEATURES``)."""
    n = g[HS_N]
    feats[FT_ROUND] = g[HS_ROUND]
    feats[FT_FACING] = 1 if _level(st, n) > st[i, H_BET] else 0
    feats[FT_TOTAL] = best_total(st[i, H_HARD], st[i, H_ACE] > 0) if g[HS_ROUND] > PH_FIRST \
        else best_total(card_points(st[i, H_DOWN]), (st[i, H_DOWN] >> 2) == ACE_RANK)
    d = card_points(st[i, H_DOWN])
    feats[FT_HIDDEN] = 11 if d == 1 else d
    feats[FT_VISIBLE] = best_total(st[i, H_VHARD], st[i, H_VACE] > 0) if g[HS_ROUND] > PH_FIRST else 0
    opp = 0
    if g[HS_ROUND] > PH_FIRST:
        for j in range(n):
            if j != i and st[j, H_FOLDED] == 0:
                v = best_total(st[j, H_VHARD], st[j, H_VACE] > 0)
                if v <= 21:
                    opp = max(opp, v)
    feats[FT_OPP] = opp
    feats[FT_PLAYERS] = _in_hand(st, n)
    feats[FT_RAISES] = g[HS_RAISES]


@kernel
def _pick(pol, s, decision, feats, legal3, u):
    """Index of the action chosen by strategy ``s`` (-1: the default) from its first matching rule,
    illegal actions dropped and the rest renormalised; also the rule's raise size."""
    n_rules, kind, lo, hi, cum, size = pol
    for r in range(n_rules[s]):
        if kind[s, r] != decision:
            continue
        ok = True
        for f in range(N_FEAT):
            if feats[f] < lo[s, r, f] or feats[f] > hi[s, r, f]:
                ok = False
                break
        if not ok:
            continue
        total = 0.0
        prev = 0.0
        w = np.zeros(3)
        for a in range(3):
            p = cum[s, r, a] - prev
            prev = cum[s, r, a]
            if legal3[a] and p > 0:
                w[a] = p
                total += p
        if total <= 0:
            return -1, size[s, r]
        x = u * total
        acc = 0.0
        last = -1
        for a in range(3):
            if w[a] > 0:
                acc += w[a]
                last = a
                if x < acc:
                    return a, size[s, r]
        return last, size[s, r]
    return -1, 1.0


@kernel
def _log(log, g, rnd, i, action, amount):
    """Append (round ``rnd``, seat ``i``, ``action``, ``amount``) to the action ``log``;
    ``g[HS_ACTIONS]`` counts every action, logged or past the log's end."""
    k = g[HS_ACTIONS]
    if k < log.shape[0]:
        log[k, 0] = rnd
        log[k, 1] = i
        log[k, 2] = action
        log[k, 3] = amount
    g[HS_ACTIONS] = k + 1


@kernel
def _deal_seat(st, i, card, down):
    """Give seat ``i`` of ``st`` ``card``: face down (``down``, hidden from the others) or face up
    (counted in its visible total)."""
    pts = card_points(card)
    ace = 1 if (card >> 2) == ACE_RANK else 0
    st[i, H_HARD] += pts
    st[i, H_ACE] += ace
    st[i, H_CARDS] += 1
    if down:
        st[i, H_DOWN] = card
    else:
        st[i, H_VHARD] += pts
        st[i, H_VACE] += ace


@kernel
def play_hand(deck, stacks, dealer, game, seat_pol, rng, outs):
    """One hand: ``deck`` shuffled, ``stacks[n]`` before the ante (every one >= 1), strategies
    ``seat_pol[n]`` (indices into ``pol``); writes the final stacks to ``out`` and the log;
    ``g`` (length ``N_G``) ends with the house, carry, showdown and action count.

    ``game`` = ``(stakes, rules, pol)``: ``Stakes.kernel_args`` (``SK_*``), the rule options and
    the compiled strategies, the same for every hand; ``dealer``: the dealer's seat; ``rng``:
    uint64[4] the hand's generator; ``outs`` = ``(log, out, g)``: int64[rows, 4] the action log
    (no rows: none), int64[n] the final stacks, int64[N_G] the hand's summary (``HS_*``).
    """
    stakes, rules, pol = game
    log, out, g = outs
    n = stacks.shape[0]
    st = np.zeros((n, N_COLS), np.int64)
    g[:] = 0
    g[HS_N] = n
    g[HS_DEALER] = dealer
    g[HS_ROUND] = -1
    first = (dealer + 1) % n
    for k in range(n):
        i = (first + k) % n
        st[i, H_STACK] = stacks[i]
        _deal_seat(st, i, deck[k], True)
        st[i, H_UP] = deck[n + k]
        _deal_seat(st, i, deck[n + k], False)
        _put(st, i, stakes[SK_ANTE])
    g[HS_DECK] = 2 * n
    _next_round(st, g, stakes, rules, out)
    feats = np.zeros(N_FEAT, np.int64)
    menu = np.zeros(5, np.int64)
    legal3 = np.zeros(3, np.bool_)
    while g[HS_ROUND] != PH_OVER:
        i = g[HS_TO_ACT]
        rnd = g[HS_ROUND]
        if rnd == PH_PLAY and g[HS_PENDING] == 0 and st[i, H_STOOD] == 0:
            _features(st, g, i, feats)
            legal3[0] = g[HS_DECK] < DECK
            legal3[1] = True
            legal3[2] = False
            a, _ = _pick(pol, seat_pol[i], DK_HIT, feats, legal3, next_float(rng))
            if a == 0:
                card = deck[g[HS_DECK]]
                g[HS_DECK] += 1
                _deal_seat(st, i, card, False)
                _log(log, g, rnd, i, A_HIT, card)
            else:
                st[i, H_STOOD] = 1
                _log(log, g, rnd, i, A_STAND, -1)
            if stakes[SK_EXTRA] != 0 and _can_bet(st, i) and (
                    st[i, H_BET] < _level(st, n) or _others_can_bet(st, n, i)):
                g[HS_PENDING] = 1
                continue
            nxt = _next_due(st, g, stakes, i + 1, True)
            if nxt < 0:
                _next_round(st, g, stakes, rules, out)
            else:
                g[HS_TO_ACT] = nxt
            continue
        # a betting decision
        _menu(st, g, stakes, menu)
        lvl = _level(st, n)
        if menu[4] != 0:
            action = A_BET
            to = menu[2]
        else:
            _features(st, g, i, feats)
            legal3[0] = menu[0] != 0
            legal3[1] = True
            legal3[2] = menu[2] >= 0
            a, size = _pick(pol, seat_pol[i], DK_BET, feats, legal3, next_float(rng))
            if a == 0:
                action = A_FOLD
            elif a == 2:
                action = A_BET if lvl == 0 else A_RAISE
                if stakes[SK_LIMIT] == LK_FIXED:
                    to = menu[2]
                else:
                    call = lvl - st[i, H_BET]
                    to = lvl + int(size * (_pot(st, n) + call) + 0.5)
                    to = min(max(to, menu[2]), menu[3])
            else:
                action = A_CHECK if menu[1] == 0 else A_CALL
        if action == A_FOLD:
            st[i, H_FOLDED] = 1
            _log(log, g, rnd, i, A_FOLD, -1)
        elif action == A_CHECK or action == A_CALL:  # noqa: SIM109
            _put(st, i, menu[1])
            _log(log, g, rnd, i, action, -1)
        else:
            inc = to - lvl
            step = stakes[SK_BET] if stakes[SK_LIMIT] == LK_FIXED else max(stakes[SK_BET], g[HS_LAST])
            if action == A_RAISE:
                g[HS_RAISES] += 1
            if inc >= step:
                g[HS_FULL] += 1
                if stakes[SK_LIMIT] != LK_FIXED:
                    g[HS_LAST] = max(g[HS_LAST], inc)
            _put(st, i, to - st[i, H_BET])
            g[HS_OPENED] = 1
            _log(log, g, rnd, i, action, to)
        st[i, H_ACTED] = 1
        st[i, H_SEEN] = g[HS_FULL]
        if _in_hand(st, n) == 1:
            for j in range(n):
                out[j] = st[j, H_STACK]
            for j in range(n):
                if st[j, H_FOLDED] == 0:
                    out[j] += _pot(st, n)
            g[HS_ROUND] = PH_OVER
            break
        if rnd == PH_PLAY:
            g[HS_PENDING] = 0
            nxt = _next_due(st, g, stakes, i + 1, True)
        else:
            nxt = _next_due(st, g, stakes, i + 1, False)
        if nxt < 0:
            _next_round(st, g, stakes, rules, out)
        else:
            g[HS_TO_ACT] = nxt


@kernel
def _shuffle(rng):
    """A shuffled deck (card ids ``0 .. DECK - 1``) from generator ``rng``."""
    deck = np.arange(DECK, dtype=np.int64)
    deal(rng, deck, DECK, DECK)
    return deck


HANDS = 0
"""``play_block`` mode: independent hands at one table."""
GAMES = 1
"""``play_block`` mode: whole games."""


@kernel(nogil=True)
def play_block(job, stacks, game, seat_pol, key, outs):
    """Hands or whole games ``lo .. hi - 1`` of a batch (``job = (mode, lo, hi, first,
    max_hands)``), one task of :func:`analysis.core.threads.run_tasks`: each hand or game
    has its own generator stream, so results never depend on the threads or the blocks.

    - ``HANDS``: batch row ``k`` is hand ``h = first + k`` at one table, dealer ``h % n``,
      stream ``h``: its deck into ``decks[k]``, its log (room for no action when
      ``logs.shape[1] == 0``: results only), final stacks and summary into ``logs[k]``,
      ``out[k]`` and ``gs[k]`` (:func:`play_hand`'s ``outs``);
    - ``GAMES``: batch row ``k`` is game ``first + k`` (its stream), played until one player
      holds every chip or ``max_hands`` hands: ``rec[k] = [hands, winner seat (-1: none),
      final stacks..., house, carry]``.

    ``stacks``: int64[n] before the ante; ``game`` = ``(stakes, rules, pol)`` as in
    :func:`play_hand`; ``seat_pol``: int64[n]; ``key``: the generator key; ``outs`` = ``(logs,
    out, gs, decks, rec)`` (the other mode's arrays may be empty). One entry for both modes
    (and no ``prange`` driver): each entry would compile and emit :func:`play_hand` again."""
    mode, lo, hi, first, max_hands = job
    logs, out, gs, decks, rec = outs
    n = stacks.shape[0]
    for k in range(lo, hi):
        rng = np.empty(4, np.uint64)
        seed_state(rng, key, first + k)
        if mode == HANDS:
            h = first + k
            d = _shuffle(rng)
            decks[k] = d
            play_hand(d, stacks, h % n, game, seat_pol, rng, (logs[k], out[k], gs[k]))
            continue
        chips = stacks.copy()
        house = 0
        carry = 0
        dealer = 0
        hands = 0
        log = np.zeros((MAX_LOG, 4), np.int64)
        g = np.zeros(N_G, np.int64)
        while hands < max_hands:
            alive = 0
            for i in range(n):
                if chips[i] > 0:
                    alive += 1
            if alive <= 1:
                break
            idx = np.zeros(alive, np.int64)
            c = 0
            for i in range(n):
                if chips[i] > 0:
                    idx[c] = i
                    c += 1
            sub_st = np.zeros(alive, np.int64)
            sub_pol = np.zeros(alive, np.int64)
            for a in range(alive):
                sub_st[a] = chips[idx[a]]
                sub_pol[a] = seat_pol[idx[a]]
            while chips[dealer % n] == 0:
                dealer += 1
            d_sub = 0
            for a in range(alive):
                if idx[a] == dealer % n:
                    d_sub = a
            deck = _shuffle(rng)
            res = np.zeros(alive, np.int64)
            play_hand(deck, sub_st, d_sub, game, sub_pol, rng, (log, res, g))
            for a in range(alive):
                chips[idx[a]] = res[a]
            house += g[HS_HOUSE]
            carry += g[HS_CARRY]
            hands += 1
            dealer += 1
        winner = -1
        alive = 0
        for i in range(n):
            if chips[i] > 0:
                alive += 1
                winner = i
        if alive == 1:
            chips[winner] += carry
            carry = 0
        else:
            winner = -1
        rec[k, 0] = hands
        rec[k, 1] = winner
        for i in range(n):
            rec[k, 2 + i] = chips[i]
        rec[k, 2 + n] = house
        rec[k, 3 + n] = carry
