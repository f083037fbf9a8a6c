"""The heads-up pre-flop solver: its tree, settlement of pre-flop ends, the check-down sums against a
plain loop, and the solve against a plain best response and a game with a known answer."""

from __future__ import annotations

import numpy as np
import pytest

from analysis.solvers.card_level.dilemma_terminals import DilemmaTable, holding_classes
from analysis.solvers.preflop_hu._kernels import (
    LOSE,
    TIE,
    WIN,
    checkdown_sums,
    payoff_rows,
    settle_end,
)
from analysis.solvers.preflop_hu.bet_tree import (
    BIG_BLIND,
    SMALL_BLIND,
    PreflopTreeConfig,
    build_preflop_tree,
)
from analysis.solvers.preflop_hu.continuation import (
    Continuation,
    all_holdings,
    board_scores,
    sample_boards,
    setting_of,
)
from analysis.solvers.preflop_hu.solve import PreflopError, PreflopSpot, solve_preflop
from analysis.solvers.protocol import DECISION
from evaluator.cards import parse_cards

TABLE = DilemmaTable()


def _cards(text: str) -> list[int]:
    return [int(c) for c in parse_cards(text, TABLE.deck.spec)]


def _settle(ins: tuple[int, int], folder: int, board: str, hands: tuple[str, str]) -> np.ndarray:
    (cls,), reps, _ = holding_classes(TABLE.deck, [np.array([_cards(h) for h in hands], np.int64)])
    out = np.zeros((2, 3, len(reps), len(reps)))
    settle_end(np.array([*ins, folder], np.int64), np.array(_cards(board) if board else [], np.int64), reps,
               setting_of(TABLE, 1000), TABLE.deck.kernel_args, TABLE.rules.kernel_args, out)
    return out[:, :, cls[0], cls[1]]


def test_tree_follows_the_preflop_order_and_minimum_raises():
    tree = build_preflop_tree()
    assert tree.player[0] == SMALL_BLIND and tree.ins[0] == (20, 10)
    assert tree.actions[0] == ["fold", "call", "raise 60", "allin 1000"]
    limp = tree.node_at("call")
    assert tree.player[limp] == BIG_BLIND and tree.actions[limp][0] == "check"  # the big blind's option
    assert tree.flop_levels() == [20, 60, 180, 540, 1000]
    for v in tree.decisions():  # every raise adds at least the last increment (RULES §1.2)
        for a in tree.actions[v]:
            if a.startswith("raise"):
                assert int(a.split()[1]) - max(tree.ins[v]) >= 20
    small = build_preflop_tree(PreflopTreeConfig(max_raises=1))
    assert all(not a.startswith(("raise", "allin")) for v in small.decisions() if v != 0 for a in small.actions[v]
               if small.raises[v] >= 1)


def test_settlement_of_preflop_ends_follows_the_rules():
    # the small blind folds: the big blind wins its 10; holding As (dividend 30) it also draws 30 (RULES §1.7)
    plain = _settle((20, 10), SMALL_BLIND, "", ("7d 8d", "2c 3c"))
    assert plain[0, WIN] == 10 and plain[1, WIN] == -10
    dividend = _settle((20, 10), SMALL_BLIND, "", ("As 7d", "2c 3c"))
    assert dividend[0, WIN] == 40 and dividend[1, WIN] == -10
    # RULES §1.8 effect example 'dividend': both in 20, As 7d beats 2c 3c on 4s 9h 3d 6c 5d: 1120 and 920
    show = _settle((20, 20), -1, "4s 9h 3d 6c 5d", ("As 7d", "2c 3c"))
    assert show[0, WIN] == 120 and show[1, WIN] == -80
    assert show[0, LOSE] != show[0, WIN] and np.isfinite(show[:, TIE]).all()


def test_checkdown_sums_equal_a_plain_loop():
    rng = np.random.default_rng(3)
    holdings = all_holdings(40)[rng.choice(780, 24, replace=False)]
    (cls,), reps, _ = holding_classes(TABLE.deck, [holdings])
    boards = sample_boards(40, 15, 1)
    scores = board_scores(holdings, boards, "dilemma")
    k, levels = len(reps), (20, 180)
    tab = np.zeros((len(boards), len(levels), 2, 3, k, k))
    for b in range(len(boards)):
        for lv, put in enumerate(levels):
            settle_end(np.array([put, put, -1], np.int64), boards[b], reps, setting_of(TABLE, 1000),
                       TABLE.deck.kernel_args, TABLE.rules.kernel_args, tab[b, lv])
    rows = np.ascontiguousarray(tab.transpose(0, 4, 5, 3, 1, 2).reshape(len(boards), k, k, 3, 2 * len(levels)))
    h = len(holdings)
    sums, counts = np.zeros((2 * len(levels), h, h)), np.zeros((h, h), np.int64)
    checkdown_sums((holdings, cls), (scores, rows), (sums, counts))
    sums = sums.reshape(len(levels), 2, h, h)
    for i in range(h):
        for j in range(h):
            if set(holdings[i]) & set(holdings[j]):
                assert counts[i, j] == 0 and not sums[:, :, i, j].any()
                continue
            want = np.zeros((len(levels), 2))
            n = 0
            for b in range(len(boards)):
                if set(boards[b]) & (set(holdings[i]) | set(holdings[j])):
                    continue
                n += 1
                o = WIN if scores[b, i] > scores[b, j] else TIE if scores[b, i] == scores[b, j] else LOSE
                want += tab[b, :, :, o, cls[i], cls[j]]
            assert counts[i, j] == n
            np.testing.assert_allclose(sums[:, :, i, j], want, rtol=0, atol=1e-9)


def _tiny_continuation(values: np.ndarray, levels: tuple[int, ...], holdings: np.ndarray) -> Continuation:
    (cls,), reps, _ = holding_classes(TABLE.deck, [holdings])
    counts = np.array([[0 if set(a) & set(b) else 1 for b in holdings] for a in holdings], np.int64)
    return Continuation(levels, holdings, cls, reps, values * (counts > 0), counts, 1, 0, (0.0,) * len(levels))


def _plain_best_response_gain(sol, p: int) -> float:
    """Player ``p``'s best-response gain against the average strategies, holding by holding, pair by pair."""
    g, tree = sol.game, sol.tree
    hs = g.cont.holdings
    h = len(hs)
    compatible = g.cont.compatible

    def value(v: int, i: int, q: np.ndarray, best: bool) -> float:
        if tree.kind[v] != DECISION:
            total = 0.0
            for j in range(h):
                if not compatible[i, j] or q[j] == 0:
                    continue
                if v in g.fold:
                    a, b = (g.cont.classes[i], g.cont.classes[j]) if p == 0 else (g.cont.classes[j], g.cont.classes[i])
                    pay = g.fold[v][p][a, b]
                else:
                    lv = g.level[v]
                    pay = g.cont.values[lv, p, i, j] if p == 0 else g.cont.values[lv, p, j, i]
                total += q[j] * pay
            return total
        sigma = sol.strategy(v)
        kids = [value(c, i, q if tree.player[v] == p else q * sigma[:, a], best) for a, c in enumerate(tree.children[v])]
        if tree.player[v] != p:
            return sum(kids)
        return max(kids) if best else sum(s * k for s, k in zip(sigma[i], kids, strict=True))

    ones = np.ones(h)
    deals = compatible.sum()
    br = sum(value(0, i, ones, True) for i in range(h)) / deals
    now = sum(value(0, i, ones, False) for i in range(h)) / deals
    return br - now


@pytest.fixture(scope="module")
def tiny():
    rng = np.random.default_rng(5)
    holdings = all_holdings(40)[rng.choice(780, 10, replace=False)]
    spot = PreflopSpot(max_raises=2)
    levels = tuple(build_preflop_tree(spot.tree_config).flop_levels())
    values = rng.normal(0, 40, (len(levels), 2, 10, 10))
    return spot, _tiny_continuation(values, levels, holdings)


def test_exploitability_equals_a_plain_best_response(tiny):
    spot, cont = tiny
    sol = solve_preflop(spot, iterations=30, check_every=30, continuation=cont)
    for p in range(2):
        assert sol.exploitability[p] == pytest.approx(_plain_best_response_gain(sol, p), abs=1e-4)
    more = solve_preflop(spot, iterations=400, check_every=400, continuation=cont)
    assert max(more.exploitability) < max(sol.exploitability)
    assert max(more.exploitability) < 0.05  # chips: the tiny game is solved


def test_reach_at_a_line_is_the_product_of_the_strategies_along_it(tiny):
    spot, cont = tiny
    sol = solve_preflop(spot, iterations=30, check_every=30, continuation=cont)
    tree = sol.tree
    call, check = tree.actions[0].index("call"), tree.actions[tree.node_at("call")].index("check")
    bb, sb = sol.reach_at("call / check")  # the limped flop: the small blind called, the big blind checked
    assert np.allclose(sb, sol.strategy(0)[:, call]) and np.allclose(bb, sol.strategy(tree.node_at("call"))[:, check])
    bb, sb = sol.reach_at("call")  # a decision node: the big blind has not acted yet
    assert np.allclose(bb, 1.0) and np.allclose(sb, sol.strategy(0)[:, call])


def test_a_game_with_a_known_answer_never_folds(tiny):
    spot, cont = tiny
    rich = _tiny_continuation(np.full(cont.values.shape, 100.0), cont.levels, cont.holdings)
    sol = solve_preflop(spot, iterations=200, check_every=200, continuation=rich)
    fold = sol.tree.actions[0].index("fold")
    assert sol.strategy(0)[:, fold].max() < 0.01  # seeing the flop pays 100 whatever happens: fold is dominated


def test_bad_spots_get_one_line():
    with pytest.raises(PreflopError, match="kickers"):
        PreflopSpot(DilemmaTable("reference", (("kickers", "top"),)))
    with pytest.raises(PreflopError, match="boards"):
        PreflopSpot(boards=3)
    with pytest.raises(PreflopError, match="levels"):
        solve_preflop(PreflopSpot(), iterations=1, continuation=_tiny_continuation(np.zeros((1, 2, 2, 2)), (20,),
                                                                                   all_holdings(40)[:2]))


@pytest.mark.parametrize(("bank", "level"), [((0, 350, 500), 1), ((0, 0, 40), 2)])
def test_checkdown_values_and_folds_equal_the_stepwise_settlement_of_the_real_cards(bank, level):
    """An independent check of the class reps, the seats (player 0 the big blind, player 1 the small
    blind and DEALER) and the swapped-seat sums: each value against the readable settlement
    (:func:`analysis.dilemma.settlement.settle`) of the actual holdings, board by board. With bank 3 at
    $40 the bank pays two tied dividends short, one seat at a time from the seat after the DEALER."""
    from analysis.dilemma.settlement import HandState, PlayerState, settle
    from analysis.solvers.preflop_hu.continuation import checkdown_continuation
    from analysis.solvers.preflop_hu.solve import _Game

    table = DilemmaTable("reference", (), bank, level)
    spot = PreflopSpot(table, max_raises=2, boards=12, seed=4)
    tree = build_preflop_tree(spot.tree_config)
    cont = checkdown_continuation(table, tuple(tree.flop_levels()), spot.chips, spot.boards, spot.seed)
    game = _Game(spot, tree, cont)
    boards = sample_boards(40, spot.boards, spot.seed)
    index = {tuple(h): k for k, h in enumerate(cont.holdings.tolist())}
    pairs = [("As 7d", "2c 3c"), ("2c 3c", "As 7d"), ("As Ah", "2s 2h"), ("2s 9d", "Ad 10d"), ("Ah 2h", "As 2s"),
             ("As 7d", "Ah 7c")]
    for big, small in pairs:
        hb, hs = sorted(_cards(big)), sorted(_cards(small))
        i, j = index[tuple(hb)], index[tuple(hs)]
        for lv, put in enumerate(cont.levels):
            paid, n = np.zeros(2), 0
            for b in boards.tolist():
                if set(b) & set(hb + hs):
                    continue
                n += 1
                seats = (PlayerState("BB", 1000 - put, put, None, tuple(hb)),
                         PlayerState("SB", 1000 - put, put, None, tuple(hs)))
                r = settle(HandState(seats, board=tuple(b), bank=table.bank, blind_level=table.level, dealer=1),
                           table.deck, table.rules)
                paid += np.array(r.stacks) - 1000
            assert cont.counts[i, j] == n > 0
            np.testing.assert_allclose(cont.values[lv, :, i, j], paid / n, rtol=0, atol=1e-9)
        for v, tab in game.fold.items():
            ins, folder = tree.ins[v], tree.folder[v]
            seats = (PlayerState("BB", 1000 - ins[0], ins[0], 0 if folder == BIG_BLIND else None, tuple(hb)),
                     PlayerState("SB", 1000 - ins[1], ins[1], 0 if folder == SMALL_BLIND else None, tuple(hs)))
            r = settle(HandState(seats, bank=table.bank, blind_level=table.level, dealer=1, last_round=0),
                       table.deck, table.rules)
            assert list(tab[:, cont.classes[i], cont.classes[j]]) == [s - 1000 for s in r.stacks], tree.line[v]


def test_payoff_rows_is_the_matrix_vector_product_summed_in_float64():
    """The solve's serial product (float32 payoffs, float64 sums) against numpy's in float64, on a
    matrix wider than one SIMD register and a column count that is not a multiple of one."""
    rng = np.random.default_rng(5)
    m = (rng.standard_normal((37, 781)) * 100).astype(np.float32)
    x = rng.random(781)
    out = np.empty(37)
    payoff_rows(m, x, out)
    np.testing.assert_allclose(out, m.astype(np.float64) @ x, rtol=1e-12, atol=1e-9)
    payoff_rows(np.zeros((37, 0), np.float32), np.zeros(0), out)  # no column: every sum 0
    assert (out == 0).all()
