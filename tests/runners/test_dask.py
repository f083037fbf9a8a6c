"""The Dask backend: a small study on a 2-worker LocalCluster gives the local numbers bit for bit."""

from __future__ import annotations

import numpy as np
import pytest

from analysis.runners import make_backend
from analysis.runners.dask import DaskBackend, DaskError, dask_available
from analysis.studies.fold_vs_check import GridSpec, run_grid

pytestmark = pytest.mark.skipif(not dask_available(), reason="dask.distributed is not installed")


def test_fold_vs_check_grid_on_a_local_cluster_matches_the_local_run():
    # both runs (training the best responses, then evaluating) go through the backend; 1,000
    # training deals a cell instead of the default 10,000: training took three quarters of the time
    spec = GridSpec(models=("passive", "threshold"), streets=("flop", "river"), opponents=(1, 3),
                    pots=(40, 300), hands=("AA", "72o"), stderr=10.0, max_trials=20_000, seed=3,
                    train_deals=1_000)
    local = run_grid(spec)
    cluster = run_grid(spec, backend=make_backend(workers=2))
    assert cluster.manifest["backend"].startswith("dask")
    for column in ("trials", "ev_fold", "ev_check", "gap", "gap_se", "equity", "strength"):
        assert np.array_equal(local.cells[column].to_numpy(), cluster.cells[column].to_numpy()), column
    assert local.strength_curve.equals(cluster.strength_curve)
    assert local.penalty_view.equals(cluster.penalty_view)


def test_dask_is_not_imported_by_a_local_run():
    import subprocess
    import sys

    code = ("import sys; from analysis.studies.equity import equity; "
            "equity('As Ah', 'random', trials=40000); print('distributed' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize(("kwargs", "words"), [
    ({"workers": 2, "scheduler": "tcp://127.0.0.1:1"}, "not both"),
    ({"threads": 2, "workers": 2}, "--threads"),
])
def test_conflicting_backend_options(kwargs, words):
    with pytest.raises(DaskError, match=words):
        make_backend(**kwargs)


def test_an_unreachable_scheduler_is_one_clear_error():
    from analysis.studies.equity import equity

    with pytest.raises(DaskError, match="cannot reach"):
        equity("As Ah", "random", trials=40000,
               backend=DaskBackend(scheduler="tcp://127.0.0.1:9", connect_timeout=1))


def test_a_backend_kept_open_starts_its_cluster_once_for_several_runs():
    from analysis.studies.equity import equity

    spec = GridSpec(models=("passive",), streets=("river",), opponents=(1,), pots=(40,),
                    hands=("AA",), stderr=20.0, max_trials=20_000, seed=3)
    backend = make_backend(workers=1)
    with backend:
        run_grid(spec, backend=backend)  # two runs: training, then evaluation
        client = backend._client
        assert client is not None and client.status == "running"
        equity("As Ah", "random", trials=40000, backend=backend)
        assert backend._client is client
    assert backend._client is None and client.status == "closed"


def test_the_command_line_runs_on_a_local_cluster_with_the_local_numbers(capsys):
    import json

    from analysis.cli import run

    answers = []
    for extra in ([], ["--workers", "2"]):
        assert run(["equity", "AA", "random", "--trials", "100000", "--seed", "2",
                    "--format", "json", *extra]) == 0
        answers.append(json.loads(capsys.readouterr().out)["players"])
    assert answers[0] == answers[1]
