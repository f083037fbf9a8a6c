"""The three-handed card-level solver on the turn: tree, values, the river-card sampler, MCCFR.

Exact values and best responses per holding equal the plain-Python reference over every
triple of holdings and every river card (Texas Hold'em rules; Dilemma Hold'em with green
cards and a short bank); a sampled walk averaged over the river cards equals the exact walk
(the sampler is unbiased, holding by holding); MCCFR's exact NashConv falls and its values
approach an exact CFR solve's; the same seed gives the same numbers on 1 and 2 threads.
"""

from __future__ import annotations

import json

import numba
import numpy as np
import pytest

from analysis.solvers.card_level import CardSpot, SpotError, load_solution
from analysis.solvers.card_level import _kernels3 as K3
from analysis.solvers.card_level._kernels import MODE_BR, MODE_CFR, MODE_EV, dcfr_coefs
from analysis.solvers.card_level._mccfr3 import draw_cards, walk
from analysis.solvers.card_level.tree import CHANCE, DECISION, FOLD, SHOWDOWN
from analysis.solvers.card_level.tree3 import (
    CARD,
    COUNT,
    PLAYER,
    SIT_STREET,
    SIT_TURN_FOLDS,
    SLOT,
    action_tree3,
)
from analysis.solvers.card_level.turn3 import TurnSolution3, TurnSolver3, solve_turn3
from tests.reference.card_solver3 import turn_values3

R0 = "AsAh, 9d9c, 2s2h"
R1 = "AhAd, 9d9c, 5d5c"
R2 = "AdAc, 8d7d, 7c7s"


def _spot(game: str = "dilemma", **options) -> CardSpot:
    return CardSpot.multiway("4s9h3d6c", (R0, R1, R2), 60, 200, "100%", "", raise_cap=1, game=game,
                         **({"bank": "0,40,500"} if game == "dilemma" else {}), **options)


def test_turn_tree_deals_the_river_after_the_round():
    root = action_tree3(_spot())
    checks = root.children[1].children[1].children[1]  # check, check, check
    assert checks.kind == CHANCE and checks.street == 1 and len(checks.children) == 1
    river = checks.children[0]
    assert river.kind == DECISION and river.street == 2 and river.player == 0
    fold_first = root.children[0]  # the first player folds for free on the turn
    end = fold_first.children[1].children[1]  # the others check: river between two
    assert end.kind == CHANCE and end.turn_folds == 0b001 and end.children[0].player == 1
    solver = TurnSolver3(_spot(), "mccfr")
    sit = solver.tree.situations
    assert {1, 2} == set(sit[:, SIT_STREET].tolist())  # folds on the turn, ends on the river
    assert (sit[sit[:, SIT_STREET] == 2, SIT_TURN_FOLDS] >= 0).all()
    assert len(solver.tree.chances) and solver.tree.children[solver.tree.chances[0]].max() > 0
    kinds = set(solver.tree.nodes[solver.tree.terminals, 0].tolist())
    assert kinds == {FOLD, SHOWDOWN}


@pytest.mark.parametrize("game", ["holdem", "dilemma"])
def test_exact_values_equal_the_reference_over_every_river_card(game):
    # check or all-in, call or fold: folds on the turn before showdowns on the river, small enough
    # for the plain-Python referee
    spot = CardSpot.multiway("4s9h3d6c", ("AsAh, 9d9c", "AhAd, 5d5c", "AdAc, 8d7d"), 60, 200, "a", "",
                         game=game, free_fold=False, **({"bank": "0,40,500"} if game == "dilemma" else {}))
    solver = TurnSolver3(spot, "mccfr", seed=3)
    solver.step(30)  # a profile away from uniform
    for mode, best in ((MODE_EV, False), (MODE_BR, True)):
        values = solver.root_values(mode)
        for p in range(3):
            n = solver.hands[0][p]
            ref = turn_values3(solver.spot, solver, p, best_response=best)
            np.testing.assert_allclose(values[p, :n], ref, rtol=0, atol=1e-9)


def test_the_sampled_walk_is_unbiased_holding_by_holding():
    solver = TurnSolver3(_spot(), "mccfr", seed=5)
    solver.step(20)
    exact = solver.root_values(MODE_EV)
    cards = len(solver.river_cards)
    mean = sum(solver.root_values(MODE_EV, [i]) for i in range(cards)) / cards
    np.testing.assert_allclose(mean, exact, rtol=0, atol=1e-12)
    # four cards a walk: the mean over a partition of the cards into fours is exact too
    mean4 = sum(solver.root_values(MODE_EV, range(i, i + 4)) for i in range(0, cards, 4)) / (cards // 4)
    np.testing.assert_allclose(mean4, exact, rtol=0, atol=1e-12)
    out = np.zeros(4, np.int64)
    counts = np.zeros(cards, np.int64)
    for t in range(2000):
        draw_cards(solver._key, t, t % 3, cards, out)
        assert len(set(out.tolist())) == 4
        counts[out] += 1
    expected = 2000 * 4 / cards  # uniform without replacement: chi-square with cards - 1 = 35 d.o.f.
    assert ((counts - expected) ** 2 / expected).sum() < 70.0


def _allin_spot() -> CardSpot:
    return CardSpot.multiway("4s9h3d6c", (R0, R1, R2), 60, 200, "a", "", free_fold=False, bank="0,40,500")


def test_a_sampled_cfr_walk_updates_the_turn_regrets_without_bias():
    # linear updates: the turn's regret increments of a walk on one river card, averaged over
    # the cards, equal an exact walk's (a wrong weight or a leak of blocked holdings breaks this)
    solver = TurnSolver3(_allin_spot(), "mccfr", seed=2)
    solver.step(10)
    cards = len(solver.river_cards)

    def after(trav: int, chosen) -> np.ndarray:
        regrets = tuple(r.copy() for r in solver.regrets)
        sums = tuple(x.copy() for x in solver.sums)
        solver._iopts[K3.O_TRAV], solver._iopts[K3.O_MODE] = trav, MODE_CFR
        dcfr_coefs(10, solver._coefs)
        walk((solver._tree_args, solver.hands, solver.pay), solver.weights, solver._chance, (regrets, sums),
             solver._work, solver._iopts, solver._coefs, np.asarray(chosen, dtype=np.int64))
        return regrets[trav]

    nodes = solver.tree.nodes
    for trav in range(3):
        m = int(solver.hands[0][trav])
        turn = [i for v in solver.tree.decisions if nodes[v, CARD] < 0 and nodes[v, PLAYER] == trav
                for i in range(nodes[v, SLOT], nodes[v, SLOT] + nodes[v, COUNT] * m)]
        exact = after(trav, range(cards))[turn]
        mean = sum(after(trav, [i])[turn] for i in range(cards)) / cards
        assert np.abs(exact - solver.regrets[trav][turn]).max() > 1.0  # the walk moves them
        np.testing.assert_allclose(mean, exact, rtol=0, atol=1e-9)


@pytest.mark.slow
def test_mccfr_nash_conv_falls_and_values_approach_an_exact_solve():
    spot = _allin_spot()
    exact = solve_turn3(spot, method="dcfr", target_pct=0.0, max_iterations=150, check_every=150)
    assert exact.exploitability_pct < 0.5
    solver = TurnSolver3(spot, "mccfr", seed=1, per_walk=4)
    uniform = solver.nash_conv
    solver.run(target_pct=0.0, max_iterations=2000, check_every=1000)
    sampled = TurnSolution3(solver)
    assert solver.nash_conv < 0.25 * uniform and sampled.exploitability_pct < 10.0
    # three players: a profile 6-8% of the pot from equilibrium; every seat's EV within 12% of the pot
    for seat, value in exact.ev().items():
        assert sampled.ev()[seat] == pytest.approx(value, abs=0.12 * spot.pot)
    assert isinstance(sampled, TurnSolution3)
    manifest = sampled.manifest()
    assert manifest["exploitability_measure"] == "NashConv (exact)" and manifest["exploitability_estimate"] == "exact"
    assert manifest["sampled"] and manifest["seed"] == 1 and manifest["river_cards_per_walk"] == 4
    assert not exact.manifest()["sampled"]


def test_same_seed_same_numbers_on_one_and_two_threads():
    spot = _allin_spot()
    previous = numba.get_num_threads()
    out = []
    try:
        for threads, parallel_pairs in ((1, 10**9), (min(2, numba.config.NUMBA_NUM_THREADS), 0)):
            numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
            solver = TurnSolver3(spot, "mccfr", seed=7)
            solver._iopts[K3.O_PARALLEL_PAIRS] = parallel_pairs  # 0: terminals always in parallel
            solver.step(40)
            out.append((np.concatenate(solver.regrets), np.concatenate(solver.sums)))
    finally:
        numba.set_num_threads(previous)
    assert np.array_equal(out[0][0], out[1][0]) and np.array_equal(out[0][1], out[1][1])
    other = TurnSolver3(spot, "mccfr", seed=8)
    other.step(40)
    assert not np.array_equal(np.concatenate(other.regrets), out[0][0])


def _wide_spot() -> CardSpot:
    return CardSpot.multiway("4s9h3d6c", ("random", "AsAh, 9d9c, 2s2h, 8d7d, 5h5c, 10s10c, Ad10d",
                                      "AdAc, 8h7h, 7c7s, 5s5d, 10c8c, 2h2d"), 60, 200, "a", "", bank="0,40,500")


def test_sampled_nash_conv_is_unbiased_and_agrees_with_the_exact_one():
    solver = TurnSolver3(_wide_spot(), "mccfr", seed=2, nash_conv="exact")
    solver.step(30)
    full_br, full_ev = solver.root_values(MODE_BR), solver.root_values(MODE_EV)
    exact = float((solver.weights * (full_br - full_ev)).sum())
    # the drawn holdings' values do not depend on which others are drawn: a sample reads exact gains
    keep = solver._chance[2]
    keep[:] = False
    keep[:, ::7] = True
    try:
        part_br, part_ev = solver.root_values(MODE_BR), solver.root_values(MODE_EV)
    finally:
        keep[:] = True
    np.testing.assert_allclose(part_br[:, ::7], full_br[:, ::7], rtol=0, atol=1e-12)
    np.testing.assert_allclose(part_ev[:, ::7], full_ev[:, ::7], rtol=0, atol=1e-12)
    assert not part_br[:, 1::7].any()  # the others are not computed
    estimates = [solver.nash_conv_sampled(holdings=48, seed=seed) for seed in range(3)]
    for est, se in estimates:
        assert se > 0.0 and abs(est - exact) <= 4.0 * se  # within 4 standard errors
    assert len(set(estimates)) == 3 and solver.nash_conv_sampled(holdings=48, seed=0) == estimates[0]  # seeded
    assert solver.nash_conv == pytest.approx(exact, abs=1e-9) and solver.nash_conv_estimate == "exact"
    solver.nash_conv_estimate, solver._nash_conv = "sampled", None  # as nash_conv="sampled" builds it
    assert solver.nash_conv == solver.nash_conv_sampled()[0] and solver.nash_conv_se > 0.0
    manifest = TurnSolution3(solver).manifest()
    assert manifest["exploitability_estimate"] == "sampled" and manifest["exploitability_measure"].endswith("± SE)")
    assert manifest["exploitability_se"] == solver.nash_conv_se
    assert TurnSolver3(_wide_spot(), "mccfr").nash_conv_estimate == "exact"  # auto: a small tree is exact


@pytest.mark.parametrize("method", ["mccfr", "dcfr"])
def test_the_file_resumes_bit_for_bit(tmp_path, method):
    """N iterations, saved, loaded and M more equal N + M in one run (regrets, strategy sums,
    NashConv): the file holds the seed and the sampler's key and counter; a cut or foreign file is
    one SpotError."""
    spot = _spot()
    one = solve_turn3(spot, method=method, seed=4, target_pct=0.0, max_iterations=25, check_every=10)
    part = solve_turn3(spot, method=method, seed=4, target_pct=0.0, max_iterations=12, check_every=10)
    path = part.save(tmp_path / "turn.npz")
    info = json.loads(str(np.load(path)["info"]))
    assert info["format"] == "card-solver-3-turn/1" and info["seed"] == 4 and info["iterations"] == 12
    assert info["rng"] == {"key": int(part.solver._key), "next_iteration": 12}
    loaded = load_solution(path)
    assert isinstance(loaded, TurnSolution3) and loaded.iterations == 12 and loaded.solver.seed == 4
    assert loaded.solver.method == method and loaded.solver.sampled == (method == "mccfr")
    loaded.solver.run(target_pct=0.0, max_iterations=25, check_every=10)
    for a, b in zip(one.solver.regrets + one.solver.sums, loaded.solver.regrets + loaded.solver.sums, strict=True):
        assert np.array_equal(a, b)
    assert loaded.exploitability == one.exploitability and loaded.ev() == one.ev()
    (tmp_path / "cut.npz").write_bytes(path.read_bytes()[:300])
    with pytest.raises(SpotError):
        load_solution(tmp_path / "cut.npz")
    with np.load(path) as z:  # the sampler's key not the seed's: refused
        arrays = {k: z[k] for k in z.files}
    info["rng"]["key"] += 1
    arrays["info"] = np.array(json.dumps(info))
    np.savez(tmp_path / "foreign.npz", **arrays)
    with pytest.raises(SpotError, match="sampler state"):
        load_solution(tmp_path / "foreign.npz")


def test_turn_summary_weighs_the_strategy_by_holding_weights():
    """TurnSolution3.summary: the heads-up summary's columns; on the turn and past it (on the river
    card's board: a made hand changes), each group's share and frequencies are the strategy weighted
    by holding_weights; a holding that holds the river card weighs 0."""
    solver = TurnSolver3(_spot(), "mccfr", seed=6)
    solver.step(30)
    solution = TurnSolution3(solver)
    for line in ((), ("check",), ("check", "check", "check", "9d"), ("check", "check", "check", "2d")):
        v = solver.node(line)
        weight = solver.holding_weights(v)
        strategy = solution.strategy(line)
        table = solution.summary(line, "made_hand")
        actor = int(solver.tree.nodes[v, PLAYER])
        groups = np.array(solution.groups_at(actor, v)["made_hand"])
        assert table.groupby("group")["share"].first().sum() == pytest.approx(1.0)
        for row in table.itertuples():
            sel = (groups == row.group) & (weight > 0)
            assert row.share == pytest.approx(weight[sel].sum() / weight.sum(), rel=1e-9)
            w = weight[sel] / weight[sel].sum()
            assert row.frequency == pytest.approx((w * strategy[row.action].to_numpy()[sel]).sum(), rel=1e-9,
                                                  abs=1e-12)
    v = solver.node(("check", "check", "check", "9d"))
    held = [i for i, (a, b) in enumerate(solver.spot.holdings(int(solver.tree.nodes[v, PLAYER]))[0])
            if solver.spot.spec.card_name(int(a)) == "9d" or solver.spot.spec.card_name(int(b)) == "9d"]
    assert held and not solver.holding_weights(v)[held].any()
    holdings = {line: solution.summary(line, "made_hand").groupby("group")["holdings"].first()
                for line in ((), ("check", "check", "check", "9d"), ("check", "check", "check", "2d"))}
    assert holdings[()]["set"] == 1 and "set" not in holdings[("check", "check", "check", "9d")]  # 9d9c: blocked
    assert holdings[("check", "check", "check", "2d")]["set"] == 2  # 9d9c and, on the river 2d, 2s2h
