"""One strategy language (issue 18, item 3): opponent models and engine strategies load by one
function into one kind, every shipped model plays whole games, every engine strategy is a
fold-vs-check opponent and a node lock, and a bad file is refused with one line."""

from __future__ import annotations

import numpy as np
import pytest

from analysis.core.actions import CALL, CHECK, RAISE
from analysis.core.features import FT_FACING, FT_PRICE, FT_STREET, FT_STRENGTH, N_FEAT
from analysis.core.strategy import (
    NEVER,
    Decision,
    Strategy,
    StrategyError,
    builtin_strategies,
    load_strategy,
    threshold_model,
)
from evaluator.errors import LabError


def test_one_loader_reads_both_kinds_into_one_kind():
    names = builtin_strategies()
    assert {"abc", "maniac", "threshold", "passive", "tight"} <= set(names)
    assert "policies" not in names  # the hero's continuations are not strategies
    for name in names:
        s = load_strategy(name)
        assert isinstance(s, Strategy) and s.rules
        assert (s.model is not None) == (name in builtin_strategies("model"))


def _model_action(params, street: int, facing: bool, strength: float) -> str:
    """The reference: an opponent model's play read straight from its thresholds."""
    bet, size, call = params[street]
    if facing:
        return "call" if strength >= call else "fold"
    return f"raise {size:g}" if strength >= bet else "check"


@pytest.mark.parametrize("name", ["threshold", "aggressive", "callers", "tight"])
def test_a_model_written_as_rules_plays_its_thresholds(name):
    strategy = load_strategy(name)
    params = strategy.model.params
    rng = np.random.default_rng(7)
    values = [*rng.random(300), *(t for p in params[1:] for t in (p[0], p[2]))]  # the edges too
    for x in values:
        for street in (1, 2, 3):
            for facing in (False, True):
                feat = np.zeros(N_FEAT)
                feat[[FT_STREET, FT_FACING, FT_STRENGTH]] = street, float(facing), min(x, 1.0)
                assert strategy.probabilities(feat) == {_model_action(params, street, facing, min(x, 1.0)): 1.0}
    preflop = np.zeros(N_FEAT)
    assert strategy.probabilities(preflop) == {"check": 1.0}
    preflop[FT_FACING] = 1.0
    assert strategy.probabilities(preflop) == {"call": 1.0}


def test_shipped_models_play_whole_games():
    from analysis.engine import make_table
    from analysis.engine.games import GameConfig, simulate_games
    from analysis.engine.simulate import hand_histories

    models = builtin_strategies("model")
    res = simulate_games(GameConfig(strategies=tuple(models), seed=4, max_hands=300), 3)
    g = res.games
    assert (g["hands"] > 0).all() and set(res.seats["strategy"]) == set(models)
    finals = g[[f"final_P{i}" for i in range(1, len(models) + 1)]].sum(axis=1)
    assert (finals <= 1000 * len(models) + 1500).all()  # chips come only from the bank
    lines = hand_histories(make_table(3), ["threshold", "aggressive", "passive"], 30, seed=2)
    assert len(lines) == 30  # every hand replayed by the referee, every action legal


def _reference_thresholds(strategy: Strategy, street: int) -> tuple[float, float, float]:
    """Bet threshold, bet size and call threshold by brute force: the strategy's bet and call
    frequencies on a fine grid of strengths, facing a bet of its own mean size."""
    grid = (np.arange(4_000) + 0.5) / 4_000
    out = {}
    size = 0.5
    for facing in (False, True):
        share = sized = 0.0
        for x in grid:
            feat = np.zeros(N_FEAT)
            feat[[FT_STREET, FT_FACING, FT_STRENGTH]] = street, float(facing), x
            feat[FT_PRICE] = size / (1 + 2 * size) if facing else 0.0
            rule = next(r for r in strategy.rules if all(lo <= feat[f] < hi for f, lo, hi in r.conditions))
            acts = [(k, z, p) for k, z, p in rule.actions if not (facing and k == CHECK)]
            norm = sum(p for _, _, p in acts)
            if facing:
                share += sum(p for k, _, p in acts if k in (CALL, RAISE)) / norm if norm else 0.0
            else:
                share += sum(p for k, _, p in acts if k == RAISE)
                sized += sum(p * z for k, z, p in acts if k == RAISE)
        out[facing] = share / len(grid)
        if not facing and share:
            size = sized / share
    return (1 - out[False] if out[False] > 1e-9 else NEVER, size, 1 - out[True] if out[True] > 1e-9 else NEVER)


@pytest.mark.parametrize("name", ["abc", "maniac", "tight-aggressive", "calling-station", "random"])
def test_an_engine_strategy_read_as_thresholds_keeps_its_frequencies(name):
    strategy = load_strategy(name)
    model = threshold_model(strategy, Decision())  # heads-up: no rule of these reads the pot
    for street in (1, 2, 3):
        assert model.params[street] == pytest.approx(_reference_thresholds(strategy, street), abs=1e-3)


def test_an_engine_strategy_is_a_fold_vs_check_opponent(tmp_path):
    """A calling station never bets and calls everything: as an opponent it is the passive model,
    so the exact river spot gives the same numbers to the last bit. abc plays as the model file
    of its thresholds (bets the top 20.5% three quarters of the pot, calls with the top 45%)."""
    from analysis.studies.fold_vs_check import evaluate_spot

    spot = dict(board="4s 9h 3d 6c 2h", exact=True, compare=False)
    station = evaluate_spot("As 10h", model="calling-station", **spot)
    passive = evaluate_spot("As 10h", model="passive", **spot)
    for key in ("ev_fold", "ev_check", "gap"):
        assert station.row[key] == passive.row[key]
    assert station.manifest["model"]["name"] == "calling-station"
    same = tmp_path / "abc-as-model.toml"
    same.write_text("[model]\nname = 'abc'\n" + "".join(
        f"[streets.{s}]\nbet = 0.795\nbet_size = 0.75\ncall = 0.55\n" for s in ("flop", "turn", "river")))
    spot = dict(board="4s 9h 3d 6c", exact=True, compare=False)
    abc = evaluate_spot("7d 8d", model="abc", **spot)
    model = evaluate_spot("7d 8d", model=str(same), **spot)
    for key in ("ev_fold", "ev_check", "gap"):
        assert abc.row[key] == pytest.approx(model.row[key], abs=1e-9)
    assert abc.row["ev_check"] != evaluate_spot("7d 8d", model="passive", **spot).row["ev_check"]


def test_an_engine_strategy_is_a_node_lock():
    from analysis.solvers.card_level import CardSolver, CardSpot
    from analysis.solvers.card_level.locks import lock_to_model

    def locked(name: str) -> tuple[list[np.ndarray], float]:
        spot = CardSpot.dilemma("4s9h3d6c10s", "7d8d", "random", 40, 980, bets="50%", raises="")
        solver = CardSolver(spot, isomorphism=False)
        lock_to_model(solver, "ip", name)
        return [solver.strategy(v) for v in solver.locked], float(solver.best_response_values()[0])

    station, passive = locked("calling-station"), locked("passive")
    assert len(station[0]) > 0 and all(np.array_equal(a, b) for a, b in zip(*[station[0], passive[0]], strict=True))
    assert station[1] == passive[1]
    abc = locked("abc")
    assert any(not np.array_equal(a, b) for a, b in zip(abc[0], passive[0], strict=True))


@pytest.mark.parametrize("text, message", [
    ("[policy]\nname = 'x'\n[[rule]]\ndo = { call = 0.5 }\n", "probabilities sum to 0.5"),
    ("[model]\nname = 'x'\n[streets.flop]\nbet = 1.5\n", "a threshold is a number from 0 to 1"),
    ("[model]\nname = 'x'\n[streets.flop]\nraise = 0.5\n", "unknown field 'raise'"),
    ("[nothing]\n", "needs a [policy] table"),
    ("name = \n", "not valid TOML"),
])
def test_the_loader_refuses_a_bad_file_with_one_line(tmp_path, text, message):
    path = tmp_path / "x.toml"
    path.write_text(text)
    with pytest.raises(StrategyError) as info:
        load_strategy(path)
    assert issubclass(StrategyError, LabError)
    assert message in str(info.value) and "\n" not in str(info.value)
    with pytest.raises(StrategyError, match="unknown strategy 'nobody'"):
        load_strategy("nobody")


def test_one_spot_value_with_the_run_settings_apart(monkeypatch):
    """``evaluate(Spot, RunSettings)`` is what the keyword form runs: same numbers; the table is
    one value (the card solver's ``DilemmaTable.table`` gives the same one); the deck is loaded
    once per spot."""
    from analysis.dilemma import decks
    from analysis.dilemma.table import Table
    from analysis.solvers.card_level.dilemma_terminals import DilemmaTable
    from analysis.studies.fold_vs_check import RunSettings, evaluate, evaluate_spot, hero_spot

    loads = []
    real = decks.load_deck
    monkeypatch.setattr("analysis.dilemma.table.load_deck", lambda d: loads.append(d) or real(d))
    keywords = evaluate_spot("7d 8d", board="4s 9h 3d 6c 2h", model="abc", pot=60, bank=(0, 600, 500), level=1,
                             exact=True, compare=False)
    assert loads == ["reference"]
    table = DilemmaTable.parse("reference", bank="0,600,500", level=1).table
    assert isinstance(table, Table) and table.bank == (0, 600, 500) and table.blinds == (20, 40)
    spot = hero_spot("7d 8d", "river", "4s 9h 3d 6c 2h", pot=60, table=table)
    value = evaluate(spot, RunSettings(exact=True, compare=False), model="abc")
    for key in ("ev_fold", "ev_check", "gap"):
        assert value.row[key] == keywords.row[key]
    assert value.to_dict()["spot"] == keywords.to_dict()["spot"]
