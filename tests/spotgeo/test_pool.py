"""Submissions read in worker processes (``load_competition(workers=…)``): the same
competition as one process builds, in the files' order, with the same progress calls and the
first bad file (in order) named; parsed lists never leave this process; and each
submission's settling, made as it loads, is the one the scorer would make."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from sample_data.spotgeo import __file__ as _sample
from scoring.core.errors import InputError
from scoring.spotgeo import Scorer, competition
from scoring.spotgeo.matching import settling
from scoring.spotgeo.params import DEFAULTS

SAMPLE = Path(_sample).parent
GT = SAMPLE / "ground_truth.json"
SUBS = sorted((SAMPLE / "submissions").glob("*.json"))
FIELDS = ("xy", "start", "point_frame", "p", "g", "d")


def _same(a, b):
    assert [s.name for s in a.submissions] == [s.name for s in b.submissions]
    for x, y in zip(a.submissions, b.submissions, strict=True):
        for f in FIELDS:
            assert np.array_equal(getattr(x, f), getattr(y, f)), (x.name, f)
        assert np.array_equal(x.settled.solver_from, y.settled.solver_from)
        assert np.array_equal(x.settled.lone, y.settled.lone)


def test_worker_processes_build_the_same_competition(monkeypatch):
    used = []
    real = competition.fan_out

    def spy(*args, **kw):
        used.append(kw["workers"])
        return real(*args, **kw)

    monkeypatch.setattr(competition, "fan_out", spy)
    monkeypatch.setattr(competition, "POOL_MIN_BYTES", 0)  # a pool even for the small sample
    calls = []
    pooled = competition.load_competition(GT, SUBS, workers=2, progress=lambda d, t, n: calls.append((d, t, n)))
    alone = competition.load_competition(GT, SUBS, workers=1)
    assert used == [2, 1]
    _same(pooled, alone)
    n = len(SUBS)
    assert calls == [(k, n, SUBS[k].stem) for k in range(n)] + [(n, n, "")]
    a = Scorer(pooled).leaderboard(**DEFAULTS)
    b = Scorer(alone).leaderboard(**DEFAULTS)
    assert a.equals(b)


def test_the_first_bad_file_in_order_is_named(monkeypatch, tmp_path):
    monkeypatch.setattr(competition, "POOL_MIN_BYTES", 0)
    entries = json.loads(SUBS[0].read_text())
    bad1, bad2 = tmp_path / "b-first.json", tmp_path / "d-second.json"
    bad1.write_text(json.dumps(entries[:-1]))  # a frame missing
    bad2.write_text("[{]")
    files = [SUBS[0], bad1, SUBS[1], bad2]
    with pytest.raises(InputError) as err:
        competition.load_competition(GT, files, workers=2)
    assert err.value.file == "b-first.json" and "missing" in err.value.problem


def test_parsed_lists_stay_in_this_process(monkeypatch):
    used = []
    real = competition.fan_out
    monkeypatch.setattr(competition, "fan_out", lambda *a, **kw: used.append(kw["workers"]) or real(*a, **kw))
    monkeypatch.setattr(competition, "POOL_MIN_BYTES", 0)
    parsed = {f.stem: json.loads(f.read_text()) for f in SUBS[:2]}
    comp = competition.load_competition(json.loads(GT.read_text()), parsed, workers=2)
    assert used == [1] and comp.submission_names == list(parsed)


def test_the_settling_made_at_load_is_the_scorers():
    comp = competition.load_competition(GT, SUBS, workers=1)
    want = Scorer(comp).leaderboard(**DEFAULTS)
    for s in comp.submissions:
        fresh = settling(s.p, s.g, s.n_points, comp.gt.n_points)
        assert np.array_equal(s.settled.solver_from, fresh.solver_from) and np.array_equal(s.settled.lone, fresh.lone)
        s.settled = None  # a submission built without it: the scorer makes it
    assert Scorer(comp).leaderboard(**DEFAULTS).equals(want)
