"""A ground truth with no object at all (issue 28/31): the data layer accepts it (spec §1
allows num_objects 0 everywhere), so every view of the engine and every spotGEO page must be
well defined on it. By hand, at τ = 10: team "dots" predicts one point in each of the 10
frames, all false positives (FP 10, TP 0, FN 0, F1 0, score 1, SSE 10·τ² = 1000, seed MSE
1000 / 10 = 100); team "quiet" predicts nothing (every count 0, F1 0 by the 0/0 rule, MSE 0)."""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest

import scoring.spotgeo as sg
from scoring.spotgeo import explain as ex
from tests.app.helpers import APP, TIMEOUT

EMPTY = [{"sequence_id": s, "frame": f, "num_objects": 0, "object_coords": []} for s in (1, 2) for f in range(1, 6)]
DOTS = [{**e, "num_objects": 1, "object_coords": [[10.0 * e["frame"], 20.0]]} for e in EMPTY]


@pytest.fixture
def scorer():
    return sg.Scorer(sg.load_competition(EMPTY, {"dots": DOTS, "quiet": EMPTY}))


def test_the_leaderboard_by_hand(scorer):
    lb = scorer.leaderboard().set_index("submission")
    assert lb.loc["dots", ["tp", "fp", "fn"]].tolist() == [0, 10, 0]
    assert lb.loc["dots", "mse"] == 100.0 and lb.loc["dots", "score"] == 1.0
    assert lb.loc["quiet", ["tp", "fp", "fn"]].tolist() == [0, 0, 0] and lb.loc["quiet", "mse"] == 0.0
    assert lb["rank"].to_dict() == {"quiet": 1, "dots": 2}  # score 1 both, MSE breaks the tie


def test_every_view_of_a_frame(scorer):
    v = ex.explain_frame(scorer, "dots", 2, 3)  # was IndexError: index 0 is out of bounds
    assert len(v["objects"]) == 0 and len(v["matches"]) == 0 and len(v["candidates"]) == 0
    assert v["predictions"][["x", "y", "label"]].values.tolist() == [[30.0, 20.0, "FP"]]
    assert {k: v["summary"][k] for k in ("tp", "fp", "fn", "sse")} == {"tp": 0, "fp": 1, "fn": 0, "sse": 100.0}
    assert len(ex.object_outcomes(scorer, "dots")) == 0
    assert ex.prediction_outcomes(scorer, "dots")["outcome"].tolist() == ["FP"] * 10
    assert ex.sequence_costs(scorer, "dots")["sequence_id"].tolist() in ([1, 2], [2, 1])
    ex.errors_by_position(scorer, "dots")
    ex.rules_differences(scorer)
    q = ex.explain_frame(scorer, "quiet", 1, 1)
    assert len(q["objects"]) == 0 and len(q["predictions"]) == 0 and q["summary"]["sse"] == 0.0


@pytest.mark.parametrize("page", ["frames", "errors", "leaderboard", "rules"])
def test_the_pages(tmp_path, monkeypatch, page):
    folder = tmp_path / "spotgeo"
    (folder / "submissions").mkdir(parents=True)
    (folder / "ground_truth.json").write_text(json.dumps(EMPTY))
    (folder / "submissions" / "dots.json").write_text(json.dumps(DOTS))
    (folder / "submissions" / "quiet.json").write_text(json.dumps(EMPTY))
    monkeypatch.setenv("LAB_DATA_DIR_SPOTGEO", str(folder))
    monkeypatch.setenv("LAB_UPLOAD_DIR", str(tmp_path / "uploads"))
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params.update({"team": "dots"})  # the team with predictions (the first, "quiet", has none)
    at.switch_page(f"pages/spotgeo_{page}.py").run()
    assert not at.exception, [e.value for e in at.exception]
    if page == "frames":
        assert [s.value for s in at.selectbox if s.key == "sg_team"] == ["dots"]
