"""The three-handed pre-flop solver: its tree (RULES §1.2 three-handed), the joint deal of classes
against a plain count, the check-down values against the readable settlement of the dealt cards, and
the CFR values and best responses against a plain-Python walk over every triple of classes."""

from __future__ import annotations

from itertools import product

import numpy as np
import pytest

from analysis.solvers.card_level.dilemma_terminals import DilemmaTable
from analysis.solvers.preflop3.bet_tree3 import BB, BTN, ORDER, SB, build_preflop_tree3
from analysis.solvers.preflop3.continuation3 import (
    FLOP3,
    Continuation3,
    checkdown3,
    sample_deals,
    situation_kind,
)
from analysis.solvers.preflop3.deal3 import joint_weights, subset_deal
from analysis.solvers.preflop3.solve3 import ClassGame3, exploitability3, solve_class_game3
from analysis.solvers.preflop_hu.bet_tree import PreflopTreeConfig
from analysis.solvers.preflop_hu.continuation import sample_boards
from analysis.solvers.preflop_hu.solve import PreflopError
from analysis.solvers.protocol import DECISION, TERMINAL


def test_tree_follows_the_three_handed_order_blinds_and_option():
    tree = build_preflop_tree3()
    assert tree.player[0] == BTN and tree.ins[0] == (10, 20, 0)  # SB 10, BB 20, the button first (RULES §1.2)
    assert tree.actions[0] == ["fold", "call", "raise 60", "allin 1000"]
    assert tree.player[tree.node_at("BTN fold")] == SB
    limp = tree.node_at("BTN call / SB call")
    assert tree.player[limp] == BB and tree.actions[limp][0] == "check"  # the big blind's option
    both = tree.node_at("BTN fold / SB fold")
    assert tree.kind[both] == TERMINAL and tree.live[both] == 1 << BB  # folded to the big blind: no decision
    squeeze = tree.node_at("BTN raise 60 / SB call")
    assert tree.player[squeeze] == BB and "raise 180" in tree.actions[squeeze]
    back = tree.node_at("BTN raise 60 / SB call / BB raise 180")
    assert tree.player[back] == BTN  # the action returns to the opener
    for v in tree.terminals():
        live = [p for p in range(3) if tree.live[v] >> p & 1]
        if len(live) > 1:  # the flop is seen with equal chips in; a folder's chips stay in
            assert len({tree.ins[v][p] for p in live}) == 1
            assert all(tree.ins[v][p] <= tree.ins[v][live[0]] for p in range(3))
    for v in tree.decisions():  # every raise adds at least the last increment
        for a in tree.actions[v]:
            if a.startswith("raise"):
                assert int(a.split()[1]) - max(tree.ins[v]) >= 20
    small = build_preflop_tree3(PreflopTreeConfig(max_raises=1))
    assert small.n_nodes < tree.n_nodes and {situation_kind(s[0]) for s in small.situations()} == {0, 1, 2}


def test_joint_weights_equal_a_plain_count():
    cards = list(range(9))
    holdings = np.array([(a, b) for a in cards for b in cards if a < b], dtype=np.int64)
    cls = (holdings[:, 0] * 3 + holdings[:, 1]) % 4
    want = np.zeros((4, 4, 4))
    for i, j, k in product(range(len(holdings)), repeat=3):
        if len({*holdings[i], *holdings[j], *holdings[k]}) == 6:
            want[cls[i], cls[j], cls[k]] += 1
    np.testing.assert_allclose(joint_weights(holdings, cls, 4, 9), want / want.sum(), rtol=0, atol=1e-15)


# --------------------------------------------------------------------------- the check-down values

SITUATIONS = [(0b111, 60, 60, 60), (0b011, 20, 20, 0), (0b110, 10, 60, 60), (0b100, 10, 20, 60), (0b001, 60, 20, 0)]


@pytest.mark.parametrize(("bank", "level"), [((300, 700, 500), 0), ((0, 0, 40), 2)])
def test_checkdown_values_equal_the_readable_settlement_of_the_dealt_cards(bank, level):
    """Every situation kind (three see the flop, two with a folder's chips in, fold ends) against
    :func:`analysis.dilemma.settlement.settle` of the very cards dealt, seats SB, BB and button (the
    DEALER), a pre-flop folder folding on street 0, with the continuation's own weights."""
    from analysis.dilemma.settlement import HandState, PlayerState, settle

    table = DilemmaTable("reference", (), bank, level)
    deal = subset_deal(("AA", "A2o", "72o"))
    boards, per, seed = 12, 2, 3
    cont = checkdown3(table, deal, SITUATIONS, 1000, boards, per, seed)
    pool = sample_boards(40, boards, seed)
    d = sample_deals(deal, per, pool, np.random.default_rng([seed, 0x3F10F]))
    g = deal.n_classes

    def paid(s: tuple[int, int, int, int], hands: np.ndarray, board: tuple[int, ...]) -> np.ndarray:
        live = s[0]
        seats = tuple(PlayerState(("SB", "BB", "BTN")[p], 1000 - s[1 + p], s[1 + p], None if live >> p & 1 else 0,
                                  tuple(int(c) for c in deal.holdings[hands[p]]) if hands[p] >= 0 else ())
                      for p in range(3))
        r = settle(HandState(seats, board=board, bank=table.bank, blind_level=table.level, dealer=2,
                             last_round=None if board else 0), table.deck, table.rules)
        return np.array(r.stacks) - 1000

    prob = deal.weights.ravel()
    for i, s in enumerate(SITUATIONS):
        kind = situation_kind(s[0])
        pays = np.array([paid(s, h, tuple(int(c) for c in pool[b]) if kind else ()) for h, b in zip(d.hands, d.board, strict=True)])
        if kind == FLOP3:
            for p in range(3):
                num = np.bincount(d.triple, weights=d.weight * pays[:, p], minlength=g ** 3)
                den = np.bincount(d.triple, weights=d.weight, minlength=g ** 3)
                ok = den > 0
                np.testing.assert_allclose(cont.triple[(i, p)].ravel()[ok], num[ok] / den[ok], atol=1e-9)
        elif kind == 1:
            den_t = np.bincount(d.triple, weights=d.weight, minlength=g ** 3)
            alpha = prob[d.triple] * d.weight / den_t[d.triple]
            live = [p for p in range(3) if s[0] >> p & 1]
            for p in live:
                o = sum(live) - p
                idx = deal.cls[d.hands[:, p]] * g + deal.cls[d.hands[:, o]]
                num = np.bincount(idx, weights=alpha * pays[:, p], minlength=g * g)
                den = np.bincount(idx, weights=alpha, minlength=g * g)
                got_o, m = cont.pair[(i, p)]
                assert got_o == o
                np.testing.assert_allclose(m.ravel()[den > 0], num[den > 0] / den[den > 0], atol=1e-9)
            fold = 3 - sum(live)
            assert np.all(pays[:, fold] == -s[1 + fold])  # a pre-flop folder loses its chips in, nothing more
            np.testing.assert_allclose(cont.own[(i, fold)], -s[1 + fold])
        else:  # a fold end: the winner's class's mix of hand effects, exactly
            for p in range(3):
                want = np.zeros(g)
                for k in range(g):
                    hands = [np.array([h if q == p else -1 for q in range(3)]) for h in np.flatnonzero(deal.cls == k)]
                    want[k] = np.mean([paid(s, h, ())[p] for h in hands])  # folders' cards go back unseen
                np.testing.assert_allclose(cont.own[(i, p)], want, atol=1e-9)


# --------------------------------------------------------------------------- CFR against a plain walk


def _tiny_game(seed: int, max_raises: int = 1, g: int = 3, payoff=None) -> ClassGame3:
    rng = np.random.default_rng(seed)
    tree = build_preflop_tree3(PreflopTreeConfig(max_raises=max_raises))
    w = rng.random((g, g, g))
    w = sum(w.transpose(p) for p in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)))
    w /= w.sum()  # symmetric, as a deal is
    own, pair, triple = {}, {}, {}
    sits = tree.situations()
    for i, s in enumerate(sits):
        live = [p for p in range(3) if s[0] >> p & 1]
        for p in range(3):
            if len(live) == 1 or p not in live:
                own[(i, p)] = rng.normal(0, 30, g) if payoff is None else np.full(g, payoff(s, p))
            elif len(live) == 2:
                pair[(i, p)] = (sum(live) - p, rng.normal(0, 30, (g, g)) if payoff is None else np.full((g, g), payoff(s, p)))
            else:
                triple[(i, p)] = rng.normal(0, 30, (g, g, g)) if payoff is None else np.full((g, g, g), payoff(s, p))
    return ClassGame3(tree, w, Continuation3(tuple(sits), own, pair, triple, 1, 1, 0, {}, {}))


def _plain_value(game: ClassGame3, strategy, p: int, best: bool) -> float:
    """Player ``p``'s value, class by class and triple by triple: its best response where ``best``."""
    tree, cont, w = game.tree, game.cont, game.weights

    def pay(v: int, c: tuple[int, int, int]) -> float:
        s = game.sit[v]
        if (s, p) in cont.own:
            return cont.own[(s, p)][c[p]]
        if (s, p) in cont.pair:
            o, m = cont.pair[(s, p)]
            return m[c[p], c[o]]
        return cont.triple[(s, p)][c]

    def walk(v: int, a: int, q: dict[tuple[int, int], float]) -> float:
        """Counterfactual value of class ``a`` at ``v``; ``q`` the opponents' class pairs' reach x weight."""
        if tree.kind[v] != DECISION:
            return sum(x * pay(v, (a, b, c) if p == 0 else (b, a, c) if p == 1 else (b, c, a)) for (b, c), x in q.items())
        sigma = strategy(v)
        kids = tree.children[v]
        actor = tree.player[v]
        if actor == p:
            vals = [walk(k, a, q) for k in kids]
            return max(vals) if best else sum(sigma[a, i] * x for i, x in enumerate(vals))
        out = 0.0
        for i, k in enumerate(kids):
            nq = {}
            for (b, c), x in q.items():
                cls = b if actor == sorted({0, 1, 2} - {p})[0] else c
                nq[(b, c)] = x * sigma[cls, i]
            out += walk(k, a, nq)
        return out

    total = 0.0
    g = game.g
    for a in range(g):
        q = {}
        for b, c in product(range(g), repeat=2):
            full = (a, b, c) if p == 0 else (b, a, c) if p == 1 else (b, c, a)
            q[(b, c)] = w[full]
        total += walk(0, a, q)
    return total


def test_values_and_best_responses_equal_a_plain_walk():
    game = _tiny_game(1)
    rng = np.random.default_rng(2)
    strat = {v: rng.dirichlet(np.ones(len(game.tree.children[v])), size=game.g) for v in game.decisions}
    r = game.reaches(strat.__getitem__)
    gains = exploitability3(game, strat.__getitem__)
    for p in range(3):
        now = game.values(p, r, strat.__getitem__, False)[0].sum()
        br = game.values(p, r, strat.__getitem__, True)[0].sum()
        assert now == pytest.approx(_plain_value(game, strat.__getitem__, p, False), abs=1e-9)
        assert br == pytest.approx(_plain_value(game, strat.__getitem__, p, True), abs=1e-9)
        assert gains[p] == pytest.approx(br - now, abs=1e-9) and gains[p] >= 0


def test_cfr_lowers_nash_conv_and_a_game_with_a_known_answer_never_folds():
    game = _tiny_game(3)
    _, hist, _ = solve_class_game3(game, iterations=200, check_every=25)
    assert sum(hist[-1][1:]) < 0.2 * sum(hist[0][1:])
    assert sum(hist[-1][1:]) < 0.5  # chips
    # seeing the flop pays 100 to whoever sees it, a fold end pays 0 to all: folding is dominated
    rich = _tiny_game(3, payoff=lambda s, p: 100.0 if bin(s[0]).count("1") > 1 and s[0] >> p & 1 else 0.0)
    sums, _, _ = solve_class_game3(rich, iterations=100, check_every=100)
    fold = rich.tree.actions[0].index("fold")
    root = sums[0] / sums[0].sum(axis=1, keepdims=True)
    assert root[:, fold].max() < 0.01


def test_bad_solves_get_one_line():
    from analysis.solvers.preflop3.solve3 import Preflop3Spot

    with pytest.raises(PreflopError, match="deals"):
        Preflop3Spot(deals=0)
    with pytest.raises(PreflopError, match="unknown solver method"):
        solve_class_game3(_tiny_game(1), method="mccfr", iterations=1)


def test_decision_shares_and_chart_follow_the_solved_strategy():
    from analysis.solvers.preflop3.deal3 import subset_deal
    from analysis.solvers.preflop3.solve3 import Preflop3Solution, Preflop3Spot

    game = _tiny_game(4)
    sums, hist, done = solve_class_game3(game, iterations=50, check_every=50)
    deal = subset_deal(("AA", "A2o", "72o"))
    sol = Preflop3Solution(Preflop3Spot(max_raises=1), game.tree, deal, game.cont, "dcfr", done, sums, hist, game)
    dec = sol.decisions().set_index("line")
    kinds = ["fold", "check", "call", "raise", "allin"]
    np.testing.assert_allclose(dec[kinds].sum(axis=1), 1.0)
    assert dec.loc["(root)", "probability"] == pytest.approx(1.0)
    # the small blind acts after the button folds exactly as often as the button folds
    assert dec.loc["BTN fold", "probability"] == pytest.approx(dec.loc["(root)", "fold"])
    chart = sol.chart()
    root = chart[chart["node"] == 0]
    assert set(root["hand"]) == {"AA", "A2o", "72o"} and (root["regret"] >= -1e-9).all()
    mix = root.pivot(index="hand", columns="action", values="frequency")
    np.testing.assert_allclose(mix.sum(axis=1), 1.0)


def _heads_up_as_three_handed(spot, cont):
    """A heads-up pre-flop game (each holding its own class) as a three-handed class game in which the
    button folds at once: the small blind is player 0, the big blind player 1, the button holds a dummy
    class 0 and nothing else. Returns the game and the map from heads-up nodes to its nodes."""
    from analysis.solvers.preflop3.bet_tree3 import PreflopTree3
    from analysis.solvers.preflop_hu.bet_tree import build_preflop_tree
    from analysis.solvers.preflop_hu.solve import _Game

    hu = build_preflop_tree(spot.tree_config)
    game_hu = _Game(spot, hu, cont)
    seat = {0: BB, 1: SB}  # heads-up player 0 is the big blind, player 1 the small blind
    t3 = PreflopTree3(hu.config)
    t3._add(DECISION, BTN, (hu.ins[0][1], hu.ins[0][0], 0), 0b111, "", 0)
    node = {}
    for v in range(hu.n_nodes):
        live = 0b011 if hu.kind[v] == DECISION or hu.folder[v] < 0 else 0b011 & ~(1 << seat[hu.folder[v]])
        node[v] = t3._add(hu.kind[v], seat[hu.player[v]] if hu.kind[v] == DECISION else -1,
                          (hu.ins[v][1], hu.ins[v][0], 0), live, "BTN fold" + (" / " + hu.line[v] if hu.line[v] else ""),
                          hu.raises[v])
    t3.children[0], t3.actions[0] = [node[0]], ["fold"]
    for v in range(hu.n_nodes):
        t3.children[node[v]] = [node[c] for c in hu.children[v]]
        t3.actions[node[v]] = list(hu.actions[v])
    h = len(cont.holdings)
    cls = cont.classes
    sits = t3.situations()
    own, pair = {}, {}
    for v in hu.terminals():
        s = sits.index(t3.situation(node[v]))
        if v in game_hu.fold:
            tab = game_hu.fold[v]  # [p, big blind's class, small blind's class]
            sb, bb = tab[1][cls[None, :], cls[:, None]], tab[0][cls[:, None], cls[None, :]]
        else:
            vals = cont.values[game_hu.level[v]]  # [p, big blind's holding, small blind's holding]
            sb, bb = vals[1].T, vals[0]
        pair[(s, SB)], pair[(s, BB)], own[(s, BTN)] = (BB, sb), (SB, bb), np.zeros(h)
    w = np.zeros((h, h, h))
    w[:, :, 0] = cont.compatible / cont.compatible.sum()  # [small blind, big blind]: symmetric pairs
    return ClassGame3(t3, w, Continuation3(tuple(sits), own, pair, {}, 1, 1, 0, {}, {})), game_hu, node


@pytest.mark.parametrize("method", ["dcfr", "cfr+"])
def test_with_the_button_folding_it_is_the_heads_up_solver(method):
    """The heads-up solver's own game (each holding a class): the same values and best-response gains
    for any strategy, and the same CFR steps (the players updated in the same order), by either method."""
    from analysis.solvers.preflop_hu.solve import (
        PreflopSpot,
        _exploitability,
        _root_values,
        solve_preflop,
    )

    from .test_preflop import _tiny_continuation

    rng = np.random.default_rng(5)
    holdings = np.array([(a, b) for a in range(40) for b in range(a + 1, 40)], dtype=np.int64)
    holdings = holdings[rng.choice(len(holdings), 10, replace=False)]
    spot = PreflopSpot(max_raises=2)
    levels = (20, 60, 180, 1000)
    cont = _tiny_continuation(rng.normal(0, 40, (len(levels), 2, 10, 10)), levels, holdings)
    game, game_hu, node = _heads_up_as_three_handed(spot, cont)
    strat = {v: rng.dirichlet(np.ones(len(game_hu.tree.children[v])), size=10) for v in game_hu.tree.decisions()}
    mine = {node[v]: s for v, s in strat.items()} | {0: np.ones((10, 1))}
    v_bb, v_sb = _root_values(game_hu, strat.__getitem__)
    e_bb, e_sb = _exploitability(game_hu, strat.__getitem__)
    r = game.reaches(mine.__getitem__)
    tol = 1e-6  # the heads-up solver multiplies its showdown payoffs in float32
    assert game.values(SB, r, mine.__getitem__, False)[0].sum() == pytest.approx(v_sb, abs=tol)
    assert game.values(BB, r, mine.__getitem__, False)[0].sum() == pytest.approx(v_bb, abs=tol)
    assert exploitability3(game, mine.__getitem__) == pytest.approx((e_sb, e_bb, 0.0), abs=tol)
    # updated in the heads-up solver's order (the big blind first) CFR takes the very same steps
    _, hist, _ = solve_class_game3(game, method=method, iterations=300, check_every=100, order=(BB, SB, BTN))
    hu = solve_preflop(spot, method=method, iterations=300, check_every=100, continuation=cont)
    np.testing.assert_allclose([h[1:4] for h in hist], [(h[2], h[1], 0.0) for h in hu.history], rtol=0, atol=1e-5)
    assert hu.nash_conv < (0.01 if method == "dcfr" else 0.1)  # CFR+ converges more slowly


# --------------------------------------------------------------------------- the tree against the rules


def _rule_actions(cfg: PreflopTreeConfig, ins: list[int], actor: int, last_inc: int, raises: int) -> list[str]:
    """The actions RULES §1.2 allows ``actor`` (with the tree's sizes), written out plainly."""
    top = max(ins)
    out = ["fold", "call"] if ins[actor] < top else ["check"]
    if raises < cfg.max_raises and top < cfg.chips:
        wanted = [x * cfg.big_blind for x in cfg.opens] if raises == 0 else [x * top for x in cfg.reraises]
        least = top + max(last_inc, cfg.big_blind)  # a raise adds at least the last raise's increment
        tos = sorted({max(round(x / cfg.unit) * cfg.unit, least) for x in wanted})
        out += [f"raise {t}" for t in tos if t < cfg.chips] + [f"allin {cfg.chips}"]
    return out


def _check_against_rules(tree, cfg: PreflopTreeConfig, v: int, ins: list[int], live: set[int], owe: list[int],
                         last_inc: int, raises: int) -> int:
    """Walk ``tree`` from ``v`` beside a plain replay of the rules; ``owe``: the players still to act, in
    the order they act. Returns the terminals checked."""
    if len(live) == 1 or not owe:
        assert tree.kind[v] == TERMINAL and tree.ins[v] == tuple(ins) and tree.live[v] == sum(1 << p for p in live)
        return 1
    actor = owe[0]
    assert tree.kind[v] == DECISION and tree.player[v] == actor and tree.ins[v] == tuple(ins), tree.line[v]
    assert tree.actions[v] == _rule_actions(cfg, ins, actor, last_inc, raises), tree.line[v]
    done = 0
    for label, c in zip(tree.actions[v], tree.children[v], strict=True):
        kind, *amount = label.split()
        new, now_live, rest, inc, n = list(ins), set(live), owe[1:], last_inc, raises
        if kind == "fold":
            now_live.discard(actor)
        elif kind in ("call", "check"):
            new[actor] = max(ins)
        else:  # a raise: every other player still in and not all-in acts again, in seat order after the raiser
            new[actor] = int(amount[0])
            inc, n = max(last_inc, new[actor] - max(ins)), raises + 1
            after = [ORDER[(ORDER.index(actor) + k) % 3] for k in (1, 2)]
            rest = [p for p in after if p in live and new[p] < cfg.chips]
        done += _check_against_rules(tree, cfg, c, new, now_live, rest, inc, n)
    return done


@pytest.mark.parametrize("cfg", [PreflopTreeConfig(), PreflopTreeConfig(max_raises=1),
                                 PreflopTreeConfig(opens=(2.0, 3.0), reraises=(1.5, 2.0), max_raises=4, chips=400),
                                 PreflopTreeConfig(small_blind=5, big_blind=10, opens=(2.5,), reraises=(1.4,),
                                                   max_raises=3, chips=100)])
def test_tree_equals_a_plain_replay_of_the_rules(cfg):
    """Every node of the tree against RULES §1.2 replayed line by line: the button first, then the small
    blind, then the big blind (who checks or raises when nobody raised: the option); a raise adds at
    least the last raise's increment and reopens the action for everyone still in and not all-in; the
    cap; the chips each player has put in at every node; the hand ends when one player is left or
    nobody still owes an action. Small re-raise sizes make the minimum raise bind."""
    tree = build_preflop_tree3(cfg)
    ins = [cfg.small_blind, cfg.big_blind, 0]
    n = _check_against_rules(tree, cfg, 0, ins, {SB, BB, BTN}, [BTN, SB, BB], cfg.big_blind, 0)
    assert n == len(tree.terminals()) and tree.n_nodes == len(set(tree.line))


def test_sampled_deals_are_weighted_to_the_real_deal():
    """The continuation's deals, importance-weighted, against every disjoint triple of holdings counted
    alike: per triple of classes, the mean number of suits among the six cards (classes whose cards clash
    make the third holding's count depend on the first two: AA and 77 leave 2 to 4 holdings of A7o)."""
    deal = subset_deal(("AA", "77", "A7o", "A7s"))
    g = deal.n_classes
    d = sample_deals(deal, 2000, sample_boards(40, 20, 0), np.random.default_rng(7))
    suits = deal.holdings % 4  # a card's suit (the deck's ids run rank by rank)
    cards = [set(map(int, h)) for h in deal.holdings]
    checked = 0
    for t in np.flatnonzero(deal.weights.ravel() > 0):
        a, b, c = (deal.combos[k][deal.combos[k] >= 0] for k in (t // (g * g), t // g % g, t % g))
        exact = [len({*suits[i], *suits[j], *suits[k]}) for i, j, k in product(a, b, c)
                 if len(cards[i] | cards[j] | cards[k]) == 6]
        m = d.triple == t
        f = np.array([len(set(suits[h].ravel())) for h in d.hands[m]], dtype=float)
        w = d.weight[m] / d.weight[m].sum()
        est = float(w @ f)
        se = float(np.sqrt(np.sum((w * (f - est)) ** 2)))
        assert abs(est - np.mean(exact)) <= 5 * se + 1e-12, (deal.names, t)
        checked += np.std(exact) > 0
    assert checked > 10  # triples where the statistic varies at all


def test_stated_standard_errors_match_the_spread_between_samples():
    """The continuation's standard errors against the spread of its values over twelve independent samples
    (seeds): a small pool (40 boards, so the deals of a pair of classes share boards) and 3 deals per triple
    (so a variance taken as the mean square about the sample's own mean would be 18% low)."""
    table = DilemmaTable("reference", (), (300, 700, 500), 0)
    deal = subset_deal(("AA", "A2o", "72o", "33", "A10s", "54s", "98o", "107s"))
    sits = [(0b111, 60, 60, 60), (0b011, 20, 20, 0), (0b110, 10, 60, 60)]
    conts = [checkdown3(table, deal, sits, 1000, 40, 3, seed) for seed in range(12)]
    prob = deal.weights.ravel()
    spread = np.array([[c.triple[(0, p)].ravel() for p in range(3)] for c in conts]).var(axis=0, ddof=1)
    seen = np.sqrt(np.mean([(prob * v).sum() / prob.sum() for v in spread]))
    stated = np.sqrt(np.mean([c.se[60] ** 2 for c in conts]))
    assert 0.9 < stated / seen < 1.12, (stated, seen)
    for s, level in ((1, 20), (2, 60)):
        live = [p for p in range(3) if sits[s][0] >> p & 1]
        w = deal.weights.sum(axis=3 - sum(live))  # [first live player's class, the other's]
        parts = []
        for p in live:
            v = np.array([c.pair[(s, p)][1] for c in conts]).var(axis=0, ddof=1)
            wp = w if p == live[0] else w.T
            parts.append((wp * v).sum() / wp.sum())
        stated = np.sqrt(np.mean([c.se_pair[level] ** 2 for c in conts]))
        assert 0.9 < stated / np.sqrt(np.mean(parts)) < 1.12, (s, stated, np.sqrt(np.mean(parts)))


def test_chart_evs_are_the_plain_conditional_values():
    """Every chart row's EV against a plain walk: the class's value of the action's subtree, summed over
    the opponents' classes weighted by the deal and by their own path to the node, over that weight; the
    regret against the best action's EV."""
    from analysis.solvers.preflop3.solve3 import Preflop3Solution, Preflop3Spot

    game = _tiny_game(6)
    sums, hist, done = solve_class_game3(game, iterations=30, check_every=30)
    sol = Preflop3Solution(Preflop3Spot(max_raises=1), game.tree, subset_deal(("AA", "A2o", "72o")), game.cont,
                           "dcfr", done, sums, hist, game)
    tree, cont, w, strategy = game.tree, game.cont, game.weights, sol.strategy
    parent = {c: (v, k) for v in game.decisions for k, c in enumerate(tree.children[v])}

    def seats(p: int, a: int, b: int, c: int) -> tuple[int, int, int]:
        return (a, b, c) if p == 0 else (b, a, c) if p == 1 else (b, c, a)

    def value(v: int, p: int, cl: tuple[int, int, int]) -> float:
        """Player p's payoff below v with the classes ``cl`` (seat order), everyone playing ``strategy``."""
        if tree.kind[v] == TERMINAL:
            s = game.sit[v]
            if (s, p) in cont.own:
                return cont.own[(s, p)][cl[p]]
            if (s, p) in cont.pair:
                o, m = cont.pair[(s, p)]
                return m[cl[p], cl[o]]
            return cont.triple[(s, p)][cl]
        sigma = strategy(v)[cl[tree.player[v]]]
        return sum(sigma[k] * value(c, p, cl) for k, c in enumerate(tree.children[v]))

    def reach(v: int, q: int, cls: int) -> float:
        """Player q's own probability of the path to v with class ``cls``."""
        out = 1.0
        while v in parent:
            v, k = parent[v]
            if tree.player[v] == q:
                out *= strategy(v)[cls, k]
        return out

    chart = sol.chart()
    for row in chart.itertuples():
        v, p = row.node, tree.player[row.node]
        a = sol.deal.names.index(row.hand)
        k = tree.actions[v].index(row.action)
        others = [q for q in range(3) if q != p]
        num = den = 0.0
        for b, c in product(range(game.g), repeat=2):
            cl = seats(p, a, b, c)
            x = w[cl] * reach(v, others[0], b) * reach(v, others[1], c)
            num += x * value(tree.children[v][k], p, cl)
            den += x
        assert row.ev == pytest.approx(num / den, abs=1e-9), (tree.line[v], row.hand, row.action)
    best = chart.groupby(["node", "hand"])["ev"].transform("max")
    np.testing.assert_allclose(chart["regret"], best - chart["ev"], atol=1e-12)
