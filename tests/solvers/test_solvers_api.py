"""The public API of analysis.solvers: names, docstrings, result tables, files, bad input."""

from __future__ import annotations

import inspect
import json
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

import analysis.solvers as solvers
from analysis.solvers import Solver, SolverError, SolverSettings, kuhn, solve
from evaluator.errors import LabError


def test_every_public_name_is_documented_and_typed() -> None:
    for name in solvers.__all__:
        obj = getattr(solvers, name)
        assert inspect.getdoc(obj), name
        if inspect.isfunction(obj):
            sig = inspect.signature(obj)
            assert sig.return_annotation is not inspect.Signature.empty, name
            for p in sig.parameters.values():
                assert p.annotation is not inspect.Parameter.empty, f"{name}({p.name})"


def test_strategy_table_of_kuhn() -> None:
    r = solve(kuhn(), "cfr+", 1000)
    df = r.strategy
    assert list(df.columns) == ["player", "line", "infoset", "action", "probability", "infoset_id"]
    assert len(df) == 24
    assert df.loc[df["infoset"] == "K|r", "line"].eq("r").all() and df.loc[df["infoset"] == "J|", "line"].eq("").all()
    assert df.groupby("infoset")["probability"].sum().round(12).eq(1).all()
    # the equilibrium: player 1 (second to act) always calls a bet with a K, never with a J
    p = df.set_index(["infoset", "action"])["probability"]
    assert p[("K|r", "call")] == pytest.approx(1, abs=1e-3)
    assert p[("J|r", "call")] == pytest.approx(0, abs=1e-3)
    assert p[("J|c", "bet")] == pytest.approx(1 / 3, abs=0.01)  # bluff a third with a J after a check


def test_write_tables_and_manifest(tmp_path: Path) -> None:
    r = solve(kuhn(), "dcfr", 200)
    paths = r.write(tmp_path, "kuhn")
    assert pd.read_parquet(paths["parquet"]).equals(r.strategy)
    manifest = json.loads(paths["manifest"].read_text())
    assert manifest["game"] == "kuhn-2p" and manifest["iterations"] == 200
    assert manifest["solver"]["method"] == "dcfr"
    assert manifest["exploitability_definition"] == "NashConv / players"
    assert (tmp_path / "kuhn_history.csv").exists()


@pytest.mark.parametrize("kwargs, match", [
    ({"method": "fictitious"}, "unknown solver method 'fictitious'"),
    ({"iterations": -1}, "iterations must be >= 0"),
    ({"check_every": 0}, "check_every must be >= 1"),
    ({"target_exploitability": 0.0}, "target_exploitability must be > 0"),
    ({"seed": -3}, "seed must be a non-negative integer"),
    ({"alpha": float("nan")}, "alpha must be a finite number"),
])
def test_bad_input_is_one_line_lab_error(kwargs, match) -> None:
    with pytest.raises(LabError, match=match) as info:
        solve(kuhn(), **kwargs)
    assert isinstance(info.value, SolverError)
    assert "\n" not in str(info.value)


def test_method_aliases_and_zero_iterations() -> None:
    r = solve(kuhn(), "CFR_plus", 0)
    assert r.settings.method == "cfr+" and r.iterations == 0
    assert r.exploitability == pytest.approx(11 / 24)  # the uniform strategy
    assert solve({"players": 1, "root": {"payoff": [2.0]}}, "cfr", 3).game_value == (2.0,)


_NO_JIT_PROBE = """
import json
from analysis.solvers import Solver, SolverSettings, kuhn, profile_value
out = {}
for players, method in ((2, "cfr+"), (2, "dcfr"), (3, "mccfr"), (2, "mccfr")):
    s = Solver(kuhn(players), SolverSettings(method, seed=5))
    s.run(40)
    out[f"{players}{method}"] = [s.regret.tolist(), s.ssum.tolist(),
                                 list(profile_value(kuhn(players), s.average_strategy()).br_values)]
print(json.dumps(out))
"""


def test_kernels_are_plain_python_and_agree_with_the_compiled_code() -> None:
    root = Path(__file__).resolve().parents[2]  # this checkout, not whichever one is installed
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1", "PYTHONWARNINGS": "ignore",
           "PYTHONPATH": os.pathsep.join(filter(None, (str(root), os.environ.get("PYTHONPATH"))))}
    proc = subprocess.run([sys.executable, "-c", _NO_JIT_PROBE], capture_output=True, text=True,
                          env=env, timeout=300, check=True, cwd=root)
    interpreted = json.loads(proc.stdout)
    for players, method in ((2, "cfr+"), (2, "dcfr"), (3, "mccfr"), (2, "mccfr")):
        s = Solver(kuhn(players), SolverSettings(method, seed=5))
        s.run(40)
        br = list(solvers.profile_value(kuhn(players), s.average_strategy()).br_values)
        assert interpreted[f"{players}{method}"] == [s.regret.tolist(), s.ssum.tolist(), br]


def _cli():
    import typer
    from typer.testing import CliRunner

    from analysis.commands.solve import register

    app = typer.Typer()
    register(app)
    app.command("noop")(lambda: None)  # a second command keeps "solve" as a subcommand
    return app, CliRunner()


def test_solve_command(tmp_path: Path) -> None:
    app, runner = _cli()
    res = runner.invoke(app, ["solve", "kuhn", "-n", "500", "--out", str(tmp_path),
                              "--state", str(tmp_path / "s.npz")])
    assert res.exit_code == 0, res.output
    assert "kuhn-2p: 58 nodes, 12 infosets, 24 infoset-actions; cfr+ x 500 iterations" in res.output
    assert "player 0 -0.0555" in res.output
    assert (tmp_path / "kuhn-2p_cfr+.csv").exists() and (tmp_path / "s.npz").exists()
    game = tmp_path / "pennies.json"
    game.write_text(json.dumps({"players": 2, "root": {"player": 0, "infoset": "a", "actions": [
        ["x", {"payoff": [1, -1]}], ["y", {"payoff": [0, 0]}]]}}))
    res = runner.invoke(app, ["solve", str(game), "-m", "cfr", "-n", "10"])
    assert res.exit_code == 0 and "player 0 +0.950000" in res.output  # uniform once, then x


def test_solve_command_bad_input_is_a_solver_error() -> None:
    app, runner = _cli()
    res = runner.invoke(app, ["solve", "chess"])
    assert isinstance(res.exception, SolverError)
    assert str(res.exception).startswith("unknown game 'chess'")
    res = runner.invoke(app, ["solve", "kuhn", "-m", "qlearning"])
    assert isinstance(res.exception, SolverError)
