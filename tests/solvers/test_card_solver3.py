"""The three-handed card-level solver on the river: tree, settlement, values, NashConv, files.

Values and best responses per holding equal the plain-Python reference over every
triple of holdings (Texas Hold'em rules with ties; Dilemma Hold'em with effect cards
in the hands and on the board, banks that run short, a short stack, a rule option);
the payoff table follows RULES §1.4 on who pays the penalty three-handed; numbers
are the same on 1 and 2 threads; a solution file resumes bit for bit.
"""

from __future__ import annotations

import numpy as np
import pytest

from analysis.core.threads import max_threads, numba_threads
from analysis.solvers.card_level import CardSpot, SpotError
from analysis.solvers.card_level import _kernels3 as K3
from analysis.solvers.card_level._kernels import MODE_BR, MODE_EV
from analysis.solvers.card_level.multiway import MultiwaySolution, MultiwaySolver, solve_multiway
from analysis.solvers.card_level.solution import load_solution
from analysis.solvers.card_level.tree import A_ALLIN, A_CHECK, A_FOLD, DECISION, FOLD, SHOWDOWN
from analysis.solvers.card_level.tree3 import COUNT, KIND, LIVE, PLAYER, action_tree3
from tests.reference.card_solver3 import counterfactual_values3

# green cards in the hands (As/Ah/Ad dividend, 2s/2h insurance), overlapping ranges
R0 = "AsAh, AsAd, 9d9c, 2s2h, 8d7d, 4d4c"
R1 = "AhAd, 9d9c, 2h3d, 5d5c, 10d10c, 3c3d"
R2 = "AdAc, 9d9c, 8d7d, 2s3c, 7c7s, 4d4c"


def _check_against_reference(solver: MultiwaySolver) -> None:
    strategies = {int(v): solver.strategy(int(v)) for v in solver.tree.decisions}
    for mode, best in ((MODE_EV, False), (MODE_BR, True)):
        values = solver.root_values(mode)
        for p in range(3):
            n = solver.hands[0][p]
            ref = counterfactual_values3(solver.spot, strategies, p, best_response=best)
            np.testing.assert_allclose(values[p, :n], ref, rtol=0, atol=1e-9)


def test_texas_rules_values_equal_the_reference_triple_by_triple():
    # ties between identical hands; free fold on so fold ends and two-way showdowns both occur
    spot = CardSpot.multiway("Td9s6hQc2s", ("AsAh, KsQs, Tc9c, 6s6c", "AdAc, KhQh, KdKc", "AhKh, KcQc, 6d6c"),
                         90, 200, "50%, a", "100%", game="holdem", free_fold=True)
    solver = MultiwaySolver(spot)
    solver.step(4)
    _check_against_reference(solver)


@pytest.mark.parametrize("board, options", [
    # crash (red, river) and rebate on the board; the bank short of the bonus
    ("4s9h8h6c10s", {"bank": "0,40,500"}),
    # levy, subsidy, bubble on the river; a short stack (bankruptcy); the folders' green cards act
    ("8s9s3d6c10h", {"bank": "0,0,60", "stack": 50, "rules": ["green_effects_for=all_dealt"]}),
])
def test_dilemma_values_equal_the_referee_triple_by_triple(board, options):
    stack = options.pop("stack", 200)
    spot = CardSpot.multiway(board, (R0, R1, R2), 60, stack, **options)
    solver = MultiwaySolver(spot)
    assert solver.pay.shape[3] >= 3  # several holding classes
    solver.step(5)
    _check_against_reference(solver)


def test_tree_free_fold_and_who_is_left():
    spot = CardSpot.multiway("4s9h8h6c10s", (R0, R1, R2), 60, 200, "100%", "", raise_cap=1)
    root = action_tree3(spot)
    assert [a for a, _ in root.actions][:2] == [A_FOLD, A_CHECK]
    after_fold = root.children[0]
    assert after_fold.kind == DECISION and after_fold.player == 1 and after_fold.live == 0b110
    both_fold = after_fold.children[0]  # the second player folds too: the hand ends
    assert both_fold.kind == FOLD and both_fold.live == 0b100
    checks = root.children[1].children[1].children[1]
    assert checks.kind == SHOWDOWN and checks.live == 0b111
    bet = root.children[2]  # a pot bet: the others fold or call, no raise (cap 1)
    assert bet.player == 1 and [a for a, _ in bet.actions] == [A_FOLD, 3]
    assert bet.put == (60, 0, 0)
    no_free = CardSpot.multiway("4s9h8h6c10s", (R0, R1, R2), 60, 200, free_fold=False)
    assert A_FOLD not in [a for a, _ in action_tree3(no_free).actions]
    allin = action_tree3(CardSpot.multiway("4s9h8h6c10s", (R0, R1, R2), 60, 20, "a", "")).children[-1]
    assert allin.put == (20, 0, 0) and max(a for a, _ in allin.actions) < A_ALLIN


def test_river_exception_three_handed():
    # minus corners on the board, no effect card; the first player folds for free, the others show down
    spot = CardSpot.multiway("4s9h3d6c5s", ("9d9c", "7d7c", "3c3h"), 60, 200, bank="300,700,500")
    solver = MultiwaySolver(spot)
    nodes, sit = solver.tree.nodes, solver.tree.situations
    v = next(int(v) for v in solver.tree.terminals if nodes[v, LIVE] == 0b110 and nodes[v, KIND] == SHOWDOWN
             and tuple(sit[nodes[v, 4], 1:4]) == (0, 0, 0))
    s = nodes[v, 4]
    third = spot.pot / 3
    c = tuple(int(x) for x in solver.hands[2][:, 0])  # each player's class (one holding each)
    # a showdown loser exists: only the showdown loser pays, the river folder nothing
    assert solver.pay[s, 0, 0b010][c] + third == 0.0
    assert solver.pay[s, 2, 0b010][c] + third < 0.0
    # a tie at the showdown: no showdown loser, the river folder pays the whole penalty
    assert solver.pay[s, 0, 0b110][c] + third < 0.0
    # both others fold: the hand ends at once and both folders share the penalty
    f = next(int(v) for v in solver.tree.terminals if nodes[v, LIVE] == 0b100 and
             tuple(sit[nodes[v, 4], 1:4]) == (0, 0, 0))
    assert solver.pay[nodes[f, 4], 0, 0b100][c] + third < 0.0
    assert solver.pay[nodes[f, 4], 1, 0b100][c] + third < 0.0


def test_action_values_and_fold_or_check_are_consistent():
    spot = CardSpot.multiway("4s9h8h6c10s", ("8d7d", R1, R2), 60, 200, bank="0,40,500")
    solver = MultiwaySolver(spot)
    solver.step(20)
    solution = MultiwaySolution(solver)
    labels, ev = solution.action_values(())
    freq = solver.strategy(0)
    node_ev = float((freq[:, 0] * ev[:, 0]).sum())
    assert node_ev == pytest.approx(solver.expected_values()[0], abs=1e-9)  # one holding: its EV
    table = solution.fold_or_check([()])
    row = table.iloc[0]
    assert row["ev_fold"] == pytest.approx(ev[labels.index("fold"), 0])
    assert row["answer"] in ("folds for free", "checks", "indifferent")
    assert row["regret_check"] == pytest.approx(ev[:, 0].max() - ev[labels.index("check"), 0])
    assert row["regret_fold"] >= 0.0 and row["regret_check"] >= 0.0
    frame = solution.to_frame()
    assert set(frame["player"]) == {"first", "second", "third"}


def runs_by_threads(spot: CardSpot, settings, steps: int) -> list[tuple]:
    """Regrets, strategy sums and NashConv after ``steps`` iterations for each ``(threads,
    parallel_pairs)`` setting (``parallel_pairs`` 0: terminals always in parallel); the thread
    count is capped at the machine's and put back after."""
    out = []
    for threads, parallel_pairs in settings:
        with numba_threads(min(threads, max_threads())):
            solver = MultiwaySolver(spot)
            solver._iopts[K3.O_PARALLEL_PAIRS] = parallel_pairs
            solver.step(steps)
            out.append((np.concatenate(solver.regrets), np.concatenate(solver.sums), solver.nash_conv))
    return out


def test_same_numbers_on_one_and_two_threads_serial_or_parallel():
    spot = CardSpot.multiway("4s9h8h6c10s", (R0, R1, R2), 60, 200, bank="0,40,500")
    out = runs_by_threads(spot, ((1, 0), (2, 0), (2, 10**9)), 7)
    for other in out[1:]:
        assert np.array_equal(out[0][0], other[0]) and np.array_equal(out[0][1], other[1])
        assert out[0][2] == other[2]


def test_nash_conv_falls_and_the_file_resumes_bit_for_bit(tmp_path):
    spot = CardSpot.multiway("4s9h8h6c10s", (R0, R1, R2), 60, 200)
    solution = solve_multiway(spot, target_pct=0.0, max_iterations=40)
    history = [nc for _, nc, _ in solution.solver.history]
    assert history[-1] < history[0] and solution.exploitability >= 0.0
    path = solution.save(tmp_path / "three.npz")
    loaded = load_solution(path)
    assert isinstance(loaded, MultiwaySolution) and loaded.iterations == 40
    solution.solver.step(3)
    loaded.solver.step(3)
    for a, b in zip(solution.solver.sums + solution.solver.regrets, loaded.solver.sums + loaded.solver.regrets,
                    strict=True):
        assert np.array_equal(a, b)
    (tmp_path / "cut.npz").write_bytes(path.read_bytes()[:200])
    with pytest.raises(SpotError):
        load_solution(tmp_path / "cut.npz")


def test_solve_spot_answers_a_three_handed_spot():
    from analysis import solve_spot

    spot = CardSpot.multiway("4s9h8h6c10s", ("8d7d", R1, R2), 60, 200)
    solution = solve_spot(spot, target_pct=1.0, max_iterations=200)
    assert isinstance(solution, MultiwaySolution) and solution.exploitability_pct <= 1.0
    assert solution.exploitability_measure == "NashConv (exact)"
    assert set(solution.ev()) == {"first", "second", "third"}
    with pytest.raises(SpotError, match="actions x 1 holdings"):  # node locking (tests/solvers/test_card_solver_locking3.py)
        solve_spot(spot, locks={(): np.ones((9, 1)) / 9})
    k = len(solution.solver.tree.actions[0])
    locked = solve_spot(spot, locks={(): np.ones((k, 1)) / k}, max_iterations=5)
    assert locked.solver.locked == [0] and np.allclose(locked.solver.strategy(0), 1.0 / k)


def test_bad_three_handed_spots():
    with pytest.raises(SpotError, match="multiple of 30"):
        CardSpot.multiway("4s9h8h6c10s", (R0, R1, R2), 40, 200)
    with pytest.raises(SpotError, match="river"):
        MultiwaySolver(CardSpot.multiway("4s9h8h6c", (R0, R1, R2), 60, 200))
    with pytest.raises(SpotError, match="three ranges"):
        CardSpot.multiway("4s9h8h6c10s", (R0, R1), 60, 200)


def _triple_weights(solver: MultiwaySolver, line: tuple[str, ...]) -> np.ndarray:
    """The actor's reach at the decision ``line`` leads to (range weight times its own strategy on
    the line) times the others' reach summed over the triples of holdings with no card in common,
    over the weighted triples: plain Python, triple by triple."""
    spot = solver.spot
    combos = [spot.holdings(p)[0] for p in range(3)]
    reach = [spot.holdings(p)[1].astype(float).copy() for p in range(3)]
    u = 0
    for k in range(1, len(line) + 1):  # the decisions on the way and the action each takes
        child = solver.node(line[:k])
        kids = list(solver.tree.children[u, : int(solver.tree.nodes[u, COUNT])])
        p = int(solver.tree.nodes[u, PLAYER])
        reach[p] = reach[p] * solver.strategy(u)[kids.index(child)]
        u = child
    actor = int(solver.tree.nodes[u, PLAYER])
    others = [q for q in range(3) if q != actor]
    expect = np.zeros(len(combos[actor]))
    for h, hole in enumerate(combos[actor]):
        for i, a in enumerate(combos[others[0]]):
            for j, b in enumerate(combos[others[1]]):
                if len({*hole, *a, *b}) == 6:
                    expect[h] += reach[actor][h] * reach[others[0]][i] * reach[others[1]][j]
    return expect / solver.triples


def test_holding_weights_equal_the_reach_over_every_triple():
    """holding_weights(v) equals the plain triple-by-triple reach (:func:`_triple_weights`) on a
    small spot at several decisions."""
    spot = CardSpot.multiway("4s9h8h6c10s", (R0, R1, R2), 60, 200, bank="0,40,500")
    solver = MultiwaySolver(spot)
    solver.step(15)
    for line in ((), ("check",), ("check", "check"), ("fold",), ("check", "bet 60"), ("bet 60", "call")):
        np.testing.assert_allclose(solver.holding_weights(solver.node(line)), _triple_weights(solver, line),
                                   rtol=1e-9, atol=1e-15, err_msg=f"line {line}")
    assert solver.holding_weights(0).sum() == pytest.approx(1.0)


def test_summary_equals_a_recomputation_from_strategy_and_reach():
    """summary(line, by): per group (made hand, draw, starting class) the share of the range, the
    frequency and EV of each action and the group's value, weighted by the triple-by-triple reach
    of each holding at the decision, recomputed here from strategy(), action_values() and the
    groups named by analysis.studies (the heads-up summary's columns; seats as players)."""
    from analysis.studies.made_hands import draw, made_hand
    from analysis.studies.ranges import class_of_combo, combo_index, starting_classes

    spot = CardSpot.multiway("4s9h8h6c10s", (R0, R1, R2), 60, 200, bank="0,40,500")
    solver = MultiwaySolver(spot)
    solver.step(15)
    solution = MultiwaySolution(solver)
    spec = spot.spec
    classes = [c.name for c in starting_classes(spec)]
    board = list(spot.board)
    name = {"made_hand": lambda h: made_hand(h, board, spec), "draw": lambda h: draw(h, board, spec),
            "class": lambda h: classes[class_of_combo(spec)[combo_index(*h)]]}
    for line in ((), ("check",), ("check", "bet 60")):
        v = solver.node(line)
        actor = int(solver.tree.nodes[v, PLAYER])
        weight = _triple_weights(solver, line)
        strategy = solution.strategy(line)
        labels, ev = solution.action_values(line)
        combos = [(int(a), int(b)) for a, b in spot.holdings(actor)[0]]
        for by in ("made_hand", "draw", "class"):
            table = solution.summary(line, by)
            assert list(table.columns) == ["line", "player", "by", "group", "holdings", "share", "action",
                                           "frequency", "ev", "group_ev"]
            assert set(table["player"]) == {("first", "second", "third")[actor]} and set(table["by"]) == {by}
            groups = np.array([name[by](h) for h in combos])
            reached = weight > 0
            assert table.groupby("group")["share"].first().sum() == pytest.approx(1.0)
            for row in table.itertuples():
                sel = (groups == row.group) & reached
                w = weight[sel] / weight[sel].sum()
                a = labels.index(row.action)
                assert row.holdings == sel.sum()
                assert row.share == pytest.approx(weight[sel].sum() / weight[reached].sum(), rel=1e-9)
                assert row.frequency == pytest.approx((w * strategy[row.action].to_numpy()[sel]).sum(), rel=1e-9,
                                                      abs=1e-12)
                assert row.ev == pytest.approx((w * ev[a, sel]).sum(), rel=1e-9)
                value = (strategy.to_numpy()[sel].T * ev[:, sel]).sum(axis=0)
                assert row.group_ev == pytest.approx((w * value).sum(), rel=1e-9)
            assert set(table["group"]) == set(groups[reached])
    with pytest.raises(SpotError, match="summary by"):
        solution.summary((), "suit")
