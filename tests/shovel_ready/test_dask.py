"""Scoring on a Dask cluster: a real ``distributed.LocalCluster`` of two worker *processes*
(so everything crosses a process boundary as on a real cluster: the ground truth scattered
once, each file's result and each error pickled back) gives exactly the local leaderboard.

Dask is an optional requirement (``requirements-dask.txt``); CI installs it, so there these
tests must run; elsewhere they are skipped without it.
"""

from __future__ import annotations

import json
import os
import sys
import types
from pathlib import Path

import pandas as pd
import pytest

import scoring
from scoring.core import fanout
from tests.cli import run_cli

if os.environ.get("CI"):
    import distributed
else:
    distributed = pytest.importorskip("distributed")

SAMPLE = Path(scoring.get("shovel-ready").sample_dir)
SUBS = sorted((SAMPLE / "submissions").glob("*.csv"))
FILES = {"ground_truth": SAMPLE / "ground_truth.csv", "submissions": SUBS, "demographics": SAMPLE / "demographics.csv",
         "runtimes": SAMPLE / "runtimes.csv"}
PARAMS = [{}, {"attributes": ("ell_status", "gender"), "threshold": 0.7, "quality": "max"},
          {"overlap_removal": False, "w": 0.2, "alpha": float("inf"), "attributes": ("grade_level",)}]


@pytest.fixture(scope="module")
def cluster():
    # Dask's workers are spawned processes that re-run ``__main__``; after the app's AppTest
    # tests that is app.py, so they start from a bare one (a real cluster has its own)
    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(sys.modules, "__main__", types.ModuleType("__main__"))
        c = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                     silence_logs=40)
    with c:
        yield c


def test_local_cluster_gives_the_local_leaderboard(cluster, tmp_path, monkeypatch):
    monkeypatch.setenv("LAB_CACHE_DIR", str(tmp_path))
    local = scoring.Scorer(scoring.load_competition(**FILES, workers=1))
    calls = []
    comp = scoring.load_competition(**FILES, scheduler=cluster.scheduler_address,
                                    progress=lambda d, t, n: calls.append(d))
    assert calls == list(range(len(SUBS) + 1))  # counts files, in order
    remote = scoring.Scorer(comp)
    for p in PARAMS:
        pd.testing.assert_frame_equal(remote.leaderboard(**p), local.leaderboard(**p), check_exact=True)
    assert comp.report == local.comp.report
    with distributed.Client(cluster.scheduler_address) as client:  # both workers took part
        done = client.run(_executed)
    assert len(done) == 2 and min(done.values()) >= 1 and sum(done.values()) >= len(SUBS)


def _executed(dask_worker) -> int:
    return dask_worker.state.executed_count


def test_tables_from_the_cluster_go_to_the_local_disk_cache(cluster, tmp_path, monkeypatch):
    monkeypatch.setenv("LAB_CACHE_DIR", str(tmp_path))
    with scoring.load_competition(**FILES, scheduler=cluster.scheduler_address, cache="disk") as comp:
        assert len(list(Path(comp.store.folder).glob("*.tables"))) == len(SUBS)
        got = scoring.Scorer(comp).leaderboard(**PARAMS[1])
    assert list(tmp_path.iterdir()) == []
    want = scoring.Scorer(scoring.load_competition(**FILES, workers=1)).leaderboard(**PARAMS[1])
    pd.testing.assert_frame_equal(got, want, check_exact=True)


def test_command_line_scheduler_option_and_environment(cluster, monkeypatch):
    args = ["leaderboard", "--ground-truth", FILES["ground_truth"], "--submissions", SAMPLE / "submissions",
            "--demographics", FILES["demographics"], "--runtimes", FILES["runtimes"], "--attributes", "ell_status",
            "--format", "json"]
    local = run_cli(*args, "--workers", "1")
    remote = run_cli(*args, "--scheduler", cluster.scheduler_address)
    assert local.returncode == remote.returncode == 0
    assert remote.stdout == local.stdout  # byte for byte
    monkeypatch.setenv("LAB_DASK_SCHEDULER", cluster.scheduler_address)
    assert run_cli(*args).stdout == local.stdout
    assert len(json.loads(local.stdout)["leaderboard"]) == len(SUBS)


def test_a_bad_file_on_the_cluster_names_file_and_row(cluster, tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("id,class,predictionstring,Effective,Ineffective\nX,Lead,1 2 3,0.5,0.5\nX,Lead,4 5,1.5,-0.5\n")
    with pytest.raises(scoring.InputError) as err:
        scoring.load_competition(ground_truth=FILES["ground_truth"], submissions=[*SUBS[:2], bad],
                                 scheduler=cluster.scheduler_address)
    assert (err.value.file, err.value.row) == ("bad.csv", 3) and "outside [0, 1]" in err.value.problem


def test_an_unreachable_scheduler_is_one_line(monkeypatch):
    monkeypatch.setattr(fanout, "DASK_TIMEOUT", "1s")
    res = run_cli("leaderboard", "--ground-truth", FILES["ground_truth"], "--submissions", SUBS[0],
                  "--scheduler", "tcp://127.0.0.1:9")
    assert res.returncode == 2
    assert res.stderr.strip().splitlines()[-1].startswith("error: scheduler: cannot reach the Dask scheduler at")
