"""The data store (one load, one hash, no rebuild on a slider move), exports and colours."""

from __future__ import annotations

import csv
import io
import json
import math

import pandas as pd
import pytest

import scoring
from lab.charts.colors import _NAMED, team_colors
from lab.data import store
from lab.families import shovel_ready as sr
from scoring.core.export import escape_cell
from tests.app.helpers import (
    DEMO,
    GT,
    RUNTIMES,
    SEG_A,
    SR,
    SUB_A,
    SUB_B,
    SUB_C,
    app,
    rerun,
    stage_table,
    write_competition,
)


def _leaderboard(tmp_path, names) -> pd.DataFrame:
    folder = write_competition(tmp_path / "exp", subs=dict(zip(names, [SUB_A, SUB_B, SUB_C], strict=False)))
    comp = scoring.load_competition(ground_truth=folder / "ground_truth.csv",
                                    submissions=[folder / "submissions"],
                                    demographics=folder / "demographics.csv")
    return scoring.Scorer(comp).leaderboard(attributes=("ell_status",))


def _kw() -> dict:
    return {"w": 0.5, "quality": "iou", "threshold": 0.51, "alpha": 50.0, "attributes": ("ell_status",),
            "band": 0.05, "max_boost": 0.05, "window": 0.2, "overlap_removal": True}


def test_slider_moves_do_not_reload_or_rebuild(core_dir, monkeypatch):
    calls = {"load": 0, "scorer": 0}
    scorers = []
    real_load, real_init = scoring.shovel_ready.competition.load_competition, scoring.Scorer.__init__

    def load(*a, **k):
        calls["load"] += 1
        return real_load(*a, **k)

    def init(self, *a, **k):
        calls["scorer"] += 1
        scorers.append(self)
        real_init(self, *a, **k)

    def misses() -> dict:
        return {level: info["misses"] for level, info in scorers[0].cache_info().items()}

    monkeypatch.setattr(scoring.shovel_ready.competition, "load_competition", load)
    monkeypatch.setattr(scoring.Scorer, "__init__", init)
    (core_dir / "runtimes.csv").write_text(RUNTIMES + "D,5\n")  # new content: a fresh cache entry
    at = app()
    assert calls["load"] == 1 and calls["scorer"] == 1
    before = misses()
    at.slider(key="sr_w").set_value(0.7)
    rerun(at)
    assert stage_table(at).loc["A", "Unified segment score"] != pytest.approx(SEG_A)  # w did move it
    at.slider(key="sr_window").set_value(30.0)
    rerun(at)
    at.switch_page(SR + "efficiency.py")
    rerun(at)
    assert calls["load"] == 1 and calls["scorer"] == 1
    # w, the window and a page switch re-match nothing and re-sum nothing: the engine's
    # costly levels are all hits (the leaderboard itself is re-aggregated, microseconds)
    assert misses() == before
    at.slider(key="sr_threshold").set_value(0.6)  # a new threshold does re-match, once
    rerun(at)
    assert misses()["match"] == before["match"] + 1


def test_an_uploaded_bundle_is_hashed_once(core_dir, monkeypatch):
    files = {"truth.csv": GT, "A.csv": SUB_A, "B.csv": SUB_B, "C.csv": SUB_C, "demo.csv": DEMO}
    uploaded = {text.encode() for text in files.values()}
    hashed = {"digest": 0, "bytes": 0}
    real_digest, real_sha256 = store.bundle_digest, store.hashlib.sha256

    def digest(fam, bundle):
        hashed["digest"] += 1
        return real_digest(fam, bundle)

    def sha256(data=b"", *a, **k):
        if isinstance(data, bytes) and data in uploaded:
            hashed["bytes"] += 1
        return real_sha256(data, *a, **k)

    monkeypatch.setattr(store, "bundle_digest", digest)
    monkeypatch.setattr(store.hashlib, "sha256", sha256)
    monkeypatch.setenv("LAB_UPLOAD_DIR", str(core_dir.parent / "uploads"))
    at = app("pages/data.py")
    at.file_uploader(key="data_sr_ground_truth").set_value(("truth.csv", GT.encode(), "text/csv"))
    at.file_uploader(key="data_sr_submissions").set_value(
        [(n, files[n].encode(), "text/csv") for n in ("A.csv", "B.csv", "C.csv")])
    at.file_uploader(key="data_sr_demographics").set_value(("demo.csv", DEMO.encode(), "text/csv"))
    rerun(at)
    at.button(key="data_sr_load").click()
    rerun(at)
    assert "_sr_data" in at.session_state and at.query_params["data"].startswith("sr-")
    assert hashed["digest"] == 1  # on loading, once
    at.switch_page(SR + "leaderboard.py")
    rerun(at)
    hashed.update(digest=0, bytes=0)
    at.slider(key="sr_w").set_value(1.0)
    rerun(at)
    assert stage_table(at).loc["A", "Unified segment score"] == pytest.approx(1.0)  # the upload, w = 1
    at.switch_page(SR + "demographics.py")
    rerun(at)
    at.slider(key="sr_alpha").set_value(0.0)
    rerun(at)
    assert hashed == {"digest": 0, "bytes": 0}  # slider moves and page switches hash nothing


def test_exports_escape_formula_cells(tmp_path):
    lb = _leaderboard(tmp_path, ["=SUM(A1)", "+plus", "@at"])
    rows = list(csv.reader(io.StringIO(sr.leaderboard_csv(lb).decode())))
    assert rows[0][:3] == ["submission", "fp1", "fp1_rank"]
    assert "ell_status=Yes" in rows[0]
    names = {r[0] for r in rows[1:]}
    assert names == {"'=SUM(A1)", "'+plus", "'@at"}
    doc = json.loads(sr.leaderboard_json(lb, {**_kw(), "alpha": math.inf}))
    assert doc["parameters"]["alpha"] == "inf"
    assert {r["submission"] for r in doc["leaderboard"]} == names
    assert set(doc["leaderboard"][0]["groups"]) == {"ell_status=No", "ell_status=Yes"}
    assert escape_cell("-1+1") == "'-1+1" and escape_cell("ok=1") == "ok=1" and escape_cell(0.5) == 0.5


def _kw() -> dict:
    return {"w": 0.5, "quality": "iou", "threshold": 0.51, "alpha": 50.0, "attributes": ("ell_status",),
            "band": 0.05, "max_boost": 0.05, "window": 0.2, "overlap_removal": True}


def test_team_colors_are_stable_and_distinct():
    names = [f"team{i}" for i in range(30)] + ["Blue", "Red"]
    a = team_colors(names)
    b = team_colors(list(reversed(names)))
    assert a == b
    assert len(set(a.values())) == len(names)
    assert a["Blue"] == _NAMED["blue"] and a["Red"] == _NAMED["red"]
    assert all(c.startswith("#") and len(c) == 7 for c in a.values())


def test_a_second_visitor_is_served_from_the_default_view_computed_once(core_dir, monkeypatch):
    """Issue 12, item 5: the default data's scorer is shared, and its default view (leaderboard,
    guardrail warnings, the Demographics page's group scores and α sweep) is computed once per
    server, before the first page is drawn: a later visitor's first pages miss no cache."""
    scorers, sweeps = [], []
    real_init, real_sweep = scoring.Scorer.__init__, scoring.alpha_sweep

    def init(self, *a, **k):
        scorers.append(self)
        real_init(self, *a, **k)

    def sweep(*a, **k):
        sweeps.append(1)
        return real_sweep(*a, **k)

    monkeypatch.setattr(scoring.Scorer, "__init__", init)
    monkeypatch.setattr(scoring, "alpha_sweep", sweep)
    (core_dir / "runtimes.csv").write_text(RUNTIMES + "E,7\n")  # new content: a fresh store entry
    app()  # the first visitor: load, scorer, default view
    assert len(scorers) == 1 and len(sweeps) == 1  # the α sweep was part of the default view
    warm = {level: info["misses"] for level, info in scorers[0].cache_info().items()}
    second = app()  # another session
    second.switch_page(SR + "demographics.py")
    rerun(second)
    second.switch_page(SR + "efficiency.py")
    rerun(second)
    assert len(scorers) == 1 and len(sweeps) == 1
    assert {level: info["misses"] for level, info in scorers[0].cache_info().items()} == warm
