"""The spotGEO pages (Leaderboard, Frames, Errors, Rules) and the spotGEO upload on the Data page.

Most tests run on a three-team competition small enough to score by hand (numbers worked out
below, from the spec's formulas); one runs on the sample and checks its designed story
(docs/spotgeo.md).

The competition: sequences 1 and 2, five frames each; every frame empty except
  (1, 1): objects y1 (100, 100), y2 (200, 200), y3 (213, 200)   — the spec's worked example
  (2, 1): object y4 (500, 400)
Brightness y1 8, y2 5, y3 1, y4 0.5. Teams (predictions only in frame (1, 1)):
  worked  — the spec's example: (101, 100), (205, 200), (300, 300), (400, 50)
            TP y1 (d 1) and y2 (d 5; x2 is 8 px from y3 but the sum 1 + 5 is smallest),
            FP 2, FN y3 and y4.
  <i>twin — (100, 103.2), (200, 203.2), (300, 300), (400, 50): TP y1, y2 at d 3.2 each, FP 2, FN 2.
            (A name with markup: it must stay text everywhere.)
  edge    — (110, 100): TP y1 at exactly d = τ = 10, FN 3.
At τ 10, ε 3 (π(d) = 0 below ε):
  F1: worked and <i>twin P 2/4, R 2/4, F1 0.5; edge P 1, R 1/4, F1 0.4 (third whatever the MSE).
  Published rules (pooled): worked SSE 25 + 100·3 + 100 = 425, MSE 425/6 = 70.833;
    <i>twin 2·3.2² + 300 + 100 = 420.48, MSE 70.08; edge 100 + 200 + 100 = 400, MSE 400/4 = 100.
    Ranks: <i>twin 1, worked 2, edge 3.
  Starter kit (d, not d²; d = τ adds 0; sum over sequences of SSE_k / (TP_k + FN_k + FP_k)):
    worked (5 + 300)/5 + 100/1 = 161; <i>twin (6.4 + 300)/5 + 100 = 161.28;
    edge (0 + 200)/3 + 100 = 166.667. Ranks: worked 1, <i>twin 2, edge 3.
  The frame (1, 1) of worked is the spec's example: TP 2, FP 2, FN 1, SSE 325 / 305 (kit).
"""

from __future__ import annotations

import base64
import json

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from tests.app.helpers import APP, TIMEOUT, figure, plain, rerun, table_with

TWIN = "<i>twin"
LB, FRAMES, ERRORS, RULES = (f"pages/spotgeo_{p}.py" for p in ("leaderboard", "frames", "errors", "rules"))
DATA = "pages/data.py"
OBJECTS = {(1, 1): [[100, 100], [200, 200], [213, 200]], (2, 1): [[500, 400]]}
BRIGHT = {(1, 1): [8.0, 5.0, 1.0], (2, 1): [0.5]}
SUBS = {"worked": [[101, 100], [205, 200], [300, 300], [400, 50]],
        TWIN: [[100, 103.2], [200, 203.2], [300, 300], [400, 50]],
        "edge": [[110, 100]]}


def entries(points: dict, brightness: dict | None = None) -> list[dict]:
    out = []
    for seq in (1, 2):
        for frame in range(1, 6):
            pts = points.get((seq, frame), [])
            e = {"sequence_id": seq, "frame": frame, "num_objects": len(pts), "object_coords": pts}
            if brightness is not None:
                e["object_brightness"] = brightness.get((seq, frame), [])
            out.append(e)
    return out


def submission(team: str) -> list[dict]:
    return entries({(1, 1): SUBS[team]})


@pytest.fixture
def sg_dir(tmp_path, monkeypatch):
    folder = tmp_path / "spotgeo"
    (folder / "submissions").mkdir(parents=True)
    (folder / "ground_truth.json").write_text(json.dumps(entries(OBJECTS, BRIGHT)))
    for team in SUBS:
        (folder / "submissions" / f"{team}.json").write_text(json.dumps(submission(team)))
    monkeypatch.setenv("LAB_DATA_DIR_SPOTGEO", str(folder))
    monkeypatch.setenv("LAB_UPLOAD_DIR", str(tmp_path / "uploads"))
    return folder


def open_sg(page: str, query: dict | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    if query:
        at.query_params.update(query)
    at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def arr(v) -> list:
    """A figure's data array as a list (Plotly sends numpy arrays as base64 typed arrays)."""
    if isinstance(v, dict) and "bdata" in v:
        a = np.frombuffer(base64.b64decode(v["bdata"]), dtype=v["dtype"])
        return a.reshape([int(n) for n in str(v["shape"]).split(",")]).tolist() if "shape" in v else a.tolist()
    return list(v)


def takeaway(at: AppTest) -> str:
    """The page's takeaway: the header's callout (lab.view.current.header)."""
    return plain(at.info[0].value)


def test_leaderboard_table_both_rule_sets_and_the_takeaway(sg_dir):
    at = open_sg(LB)
    t = table_with(at, "MSE").set_index("Team")
    assert list(t.index) == [TWIN, "worked", "edge"]                 # plain text in the table
    assert t.loc["worked", ["TP", "FP", "FN"]].tolist() == [2, 2, 2]
    assert t.loc["edge", ["TP", "FP", "FN"]].tolist() == [1, 0, 3]
    assert t.loc["worked", "F1"] == pytest.approx(0.5) and t.loc["edge", "F1"] == pytest.approx(0.4)
    assert t.loc["edge", "Precision"] == pytest.approx(1.0) and t.loc["edge", "Recall"] == pytest.approx(0.25)
    assert t.loc["worked", "MSE"] == pytest.approx(425 / 6)
    assert t.loc[TWIN, "MSE"] == pytest.approx(420.48 / 6)
    assert t.loc["edge", "MSE"] == pytest.approx(100.0)
    assert t["Rank"].tolist() == [1, 2, 3]
    # the change to the kit's rank, as the Rules page's arrows: worked 2nd -> 1st gains a place (▲1)
    assert t["Rank (kit)"].tolist() == [2, 1, 3] and t["Change"].tolist() == ["▼1", "▲1", "="]
    assert takeaway(at) == (f"**{TWIN}** leads under the published rules; under the starter-kit code {TWIN} and "
                            "worked swap places.")
    assert "\\<i\\>twin" in at.info[0].value                          # escaped, not markup
    assert any("the same F1, so the MSE decides" in c.value for c in at.caption)

    at.selectbox(key="sg_rules").set_value("starter-kit")
    rerun(at)
    t = table_with(at, "MSE").set_index("Team")
    assert list(t.index) == ["worked", TWIN, "edge"]
    assert t.loc["worked", "MSE"] == pytest.approx(161.0)
    assert t.loc[TWIN, "MSE"] == pytest.approx(161.28)
    assert t.loc["edge", "MSE"] == pytest.approx(200 / 3 + 100)
    assert t["Rank (published)"].tolist() == [2, 1, 3]
    assert takeaway(at).startswith("**worked** leads under the starter-kit code;")
    slope = figure(at, "sg_lb_slope")
    assert {tr["name"]: tr["y"] for tr in slope["data"]} == {"worked": [2, 1], "&lt;i&gt;twin": [1, 2],
                                                              "edge": [3, 3]}
    assert at.query_params["rules"] == "starter-kit"


def test_moving_tau_rescores_and_epsilon_above_tau_is_lowered(sg_dir):
    at = open_sg(LB)
    at.slider(key="sg_tau").set_value(4.5)
    rerun(at)
    t = table_with(at, "MSE").set_index("Team")
    # τ 4.5: worked keeps only y1 (d 5 > 4.5): TP 1, FP 3, FN 3, F1 0.25; <i>twin still TP 2 (d 3.2),
    # MSE (2·3.2² + 4.5²·4) / 6; edge finds nothing (d 10): F1 0.
    assert t.loc["worked", ["TP", "FP", "FN"]].tolist() == [1, 3, 3]
    assert t.loc["worked", "F1"] == pytest.approx(0.25)
    assert t.loc[TWIN, "MSE"] == pytest.approx((20.48 + 81.0) / 6)
    assert t.loc["edge", "F1"] == 0.0
    assert not at.warning

    at.slider(key="sg_tau").set_value(2.0)                            # ε stays 3 > τ
    rerun(at)
    assert any("ε (3 px) is larger than τ (2 px)" in w.value for w in at.warning)
    t = table_with(at, "MSE").set_index("Team")
    # ε = τ = 2: worked TP y1 (d 1 < ε: no error), FP 3, FN 3 -> (0 + 4·6) / 7
    assert t.loc["worked", "MSE"] == pytest.approx(24 / 7)


def test_frames_page_draws_the_worked_example_to_scale(sg_dir):
    at = open_sg(FRAMES, {"team": "worked", "seq": "1", "frame": "1"})
    metrics = {m.label: m.value for m in at.metric}
    assert [metrics[k] for k in ("True positives (TP)", "False positives (FP)", "False negatives (FN)",
                                 "SSE of this frame")] == ["2", "2", "1", "325"]
    assert takeaway(at) == ("In sequence 1, frame 1, **worked** finds 2 of 3 objects with 2 false alarms; "
                            "the frame adds 325 to its SSE.")
    fig = figure(at, "sg_frame_chart")
    lay, tr = fig["layout"], {t["name"]: t for t in fig["data"]}
    assert lay["yaxis"]["range"] == [479.5, -0.5] and lay["xaxis"]["range"] == [-0.5, 639.5]  # y down
    assert lay["yaxis"]["scaleanchor"] == "x" and lay["yaxis"]["scaleratio"] == 1
    ring = tr["τ = 10 px around each object"]
    first = [(x, y) for x, y in zip(ring["x"], ring["y"], strict=True)][:48]     # the ring of y1 (100, 100)
    assert max(abs(((x - 100) ** 2 + (y - 100) ** 2) ** 0.5 - 10) for x, y in first) < 1e-9
    assert ring["x"].count(None) == 3                                             # one ring per object
    eps = tr["ε = 3 px (no error inside)"]
    assert max(x for x in eps["x"][:48]) == pytest.approx(103.0)
    assert list(zip(tr["Prediction, false alarm (FP)"]["x"], tr["Prediction, false alarm (FP)"]["y"],
                    strict=True)) == [(300, 300), (400, 50)]
    assert tr["True object, missed (FN)"]["x"] == [213]
    match = tr["Match (a TP pair)"]
    assert match["x"] == [101, 100, None, 205, 200, None] and match["y"] == [100, 100, None, 200, 200, None]
    other = tr["Other pair within τ (not matched)"]                               # x2 is 8 px from y3
    assert other["x"] == [205, 213, None]
    colors = {name: tr[name]["marker"]["color"] for name in ("True object, found (TP)", "True object, missed (FN)",
                                                              "Prediction, false alarm (FP)")}
    assert len(set(colors.values())) == 3

    at.selectbox(key="sg_rules").set_value("starter-kit")             # the spec: 5 + 3·100
    rerun(at)
    assert {m.label: m.value for m in at.metric}["SSE of this frame"] == "305"


def test_frames_step_through_frames_and_the_link_reproduces_the_view(sg_dir):
    at = open_sg(FRAMES)
    assert at.selectbox(key="sg_team").value == TWIN                  # the leader, sequence 1, frame 1
    assert (at.query_params["team"], at.query_params["seq"], at.query_params["frame"]) == (TWIN, "1", "1")
    assert at.button(key="sg_prev").disabled
    assert "&lt;i&gt;twin" in figure(at, "sg_frame_chart")["layout"]["title"]["text"]
    at.button(key="sg_next").click()
    rerun(at)
    assert at.query_params["frame"] == "2" and at.segmented_control(key="sg_frame").value == 2
    assert {m.label: m.value for m in at.metric}["SSE of this frame"] == "0"      # an empty frame
    at.segmented_control(key="sg_frame").set_value(5)
    rerun(at)
    at.button(key="sg_next").click()                                  # past frame 5: sequence 2, frame 1
    rerun(at)
    assert (at.query_params["seq"], at.query_params["frame"]) == ("2", "1")
    metrics = {m.label: m.value for m in at.metric}
    assert (metrics["False negatives (FN)"], metrics["SSE of this frame"]) == ("1", "100")   # y4 missed: τ²
    at.selectbox(key="sg_team").set_value("worked")
    rerun(at)
    assert at.query_params["team"] == "worked"

    shared = open_sg(FRAMES, {"team": "edge", "seq": "1", "frame": "1", "tau": "10", "epsilon": "3"})
    assert shared.selectbox(key="sg_team").value == "edge"
    metrics = {m.label: m.value for m in shared.metric}
    assert (metrics["True positives (TP)"], metrics["SSE of this frame"]) == ("1", "300")   # d = τ adds τ²
    bad = open_sg(FRAMES, {"team": "nobody", "seq": "9", "frame": "x"})   # unknown values: the defaults
    assert bad.selectbox(key="sg_team").value == TWIN and bad.query_params["seq"] == "1"


def test_errors_page_breakdowns(sg_dir):
    at = open_sg(ERRORS, {"team": "worked"})
    # worked: 25/6 position error, 200/6 false alarms, 200/6 misses (total 425/6); y3 and y4 missed.
    assert takeaway(at) == ("**worked**'s MSE of 70.83 is 47% misses, 47% false alarms and 6% position error; it "
                            "finds 0% of the faintest objects (brightness 0.5–0.9) and 100% of the brightest; "
                            "sequence 1 costs it the most.")
    bright = figure(at, "sg_err_brightness")["data"]
    assert bright[0]["x"] == ["0.5–0.9", "0.9–3.0", "3.0–5.8", "5.8–8.0"]       # quartiles of 0.5, 1, 5, 8
    assert bright[1]["name"] == "Missed (FN)" and arr(bright[1]["y"]) == [1, 1, 0, 0]
    pos = figure(at, "sg_err_position")["data"]
    fn = arr(pos[0]["z"])
    assert sum(map(sum, fn)) == 2 and fn[2][2] == 1 and fn[5][6] == 1    # y3 (213, 200), y4 (500, 400)
    fp = arr(pos[1]["z"])
    assert fp[3][3] == 1 and fp[0][5] == 1                                # (300, 300), (400, 50)
    parts = {tr["name"]: arr(tr["x"]) for tr in figure(at, "sg_err_parts")["data"]}
    order = [t.replace("<b>", "").replace("</b>", "") for t in figure(at, "sg_err_parts")["data"][0]["y"]]
    i = order.index("worked")
    assert parts["Localisation (TP at d ≥ ε)"][i] == pytest.approx(25 / 6)
    assert parts["Misses (FN × τ²)"][i] == pytest.approx(200 / 6)
    costs = table_with(at, "contribution")
    assert costs["sequence_id"].tolist() == [1, 2]
    assert costs["contribution"].tolist() == pytest.approx([325 / 6, 100 / 6])
    link = at.get("page_link")[0].proto
    assert "spotgeo_frames" in link.page and "seq=1" in link.query_string

    at.selectbox(key="sg_rules").set_value("starter-kit")            # summed: seq 1 305/5, seq 2 100/1
    rerun(at)
    assert table_with(at, "contribution")["contribution"].tolist() == pytest.approx([100.0, 61.0])


def test_rules_page_differences_examples_and_ranks(sg_dir):
    at = open_sg(RULES)
    assert takeaway(at) == (f"Under the starter-kit code {TWIN} and worked swap places; of the four differences, "
                            "only no. 1 (d vs d² in the error) moves teams on its own at τ = 10 px.")
    ranks = table_with(at, "Only no. 1").set_index("Team")
    assert ranks["Published"].tolist() == [1, 2, 3]
    assert ranks.loc["worked", "Only no. 1"] == "1 ▲1" and ranks.loc[TWIN, "Only no. 1"] == "2 ▼1"
    # pooled switched alone: worked 325/5 + 100 = 165 vs <i>twin 320.48/5 + 100 = 164.1: no change
    assert ranks.loc["worked", "Only no. 2"] == "2" and ranks.loc["worked", "Starter kit"] == "1 ▲1"
    assert at.selectbox(key="sg_rules_team").value == "worked"        # the team the kit helps most
    texts = [plain(m.value) for m in at.markdown]
    assert any("is 5.0000 px off" in t and "5.0000² = 25.00" in t and "from 70.83 to 67.50" in t for t in texts)
    assert any("pooled MSE of 70.83" in t and "165.00" in t and "sequence 2 alone adds 100.00" in t for t in texts)
    assert any(t.startswith("The data has 1 true positive at exactly d = τ = 10 px") for t in texts)
    assert any("22 true positives" in c for c in
               (figure(at, "sg_rules_built_seed")["layout"]["title"]["text"],))
    assert "21 true positives" in figure(at, "sg_rules_built_starter-kit")["layout"]["title"]["text"]
    kit = {t["name"]: t for t in figure(at, "sg_rules_built_starter-kit")["data"]}
    assert len(kit["True object, missed (FN)"]["x"]) == 1


def test_spotgeo_upload_on_the_data_page(sg_dir):
    at = open_sg(LB)
    at.switch_page(DATA).run()                                        # the Data page follows the family
    assert at.selectbox(key="data_family").value == "spotgeo"
    gt = json.dumps(entries(OBJECTS)).encode()                         # no brightness this time
    at.file_uploader(key="data_sg_ground_truth").set_value(("truth.json", gt, "application/json"))
    at.file_uploader(key="data_sg_submissions").set_value(
        [(f"{t}.json", json.dumps(submission(t)).encode(), "application/json") for t in ("worked", "edge")])
    at.run()
    at.button(key="data_sg_load").click().run()
    assert not at.exception and any("Loaded 3 files" in s.value for s in at.success)
    at.switch_page(LB).run()
    assert list(table_with(at, "MSE")["Team"]) == ["worked", "edge"]
    at.switch_page(ERRORS).run()
    assert not at.exception and any("no `object_brightness`" in i.value for i in at.info)

    at.switch_page(DATA).run()                                        # the form is empty again
    broken = entries(OBJECTS)
    broken[5]["num_objects"] = 2                                       # entry 6: sequence 2, frame 1
    at.file_uploader(key="data_sg_ground_truth").set_value(("truth.json", json.dumps(broken).encode(),
                                                             "application/json"))
    at.file_uploader(key="data_sg_submissions").set_value(
        [("worked.json", json.dumps(submission("worked")).encode(), "application/json")])
    at.run()
    at.button(key="data_sg_load").click().run()
    errors = [plain(e.value) for e in at.error]
    assert any("truth.json" in e and "entry 6 (sequence_id 2, frame 1)" in e and "num_objects is 2" in e
               for e in errors), errors
    assert any("Nothing was loaded" in e for e in errors)
    at.switch_page(LB).run()                                          # the upload before stays active
    assert list(table_with(at, "MSE")["Team"]) == ["worked", "edge"]


def test_the_sample_tells_its_designed_story(monkeypatch):
    """docs/spotgeo.md: sharp-eye, four-off and near-enough share one detector; the rule sets
    swap the last two; near-enough drops to 5th at τ = 8, four-off leads at ε = 5."""
    monkeypatch.delenv("LAB_DATA_DIR_SPOTGEO", raising=False)
    at = open_sg(LB)
    t = table_with(at, "MSE")
    assert list(t["Team"][:3]) == ["sharp-eye", "four-off", "near-enough"]
    assert t["TP"][:3].nunique() == 1 and t["FP"][:3].nunique() == 1            # same detections
    assert takeaway(at) == ("**sharp-eye** leads under the published rules; under the starter-kit code four-off "
                            "and near-enough swap places.")
    assert "7 submissions, 300 sequences" in at.sidebar.caption[-1].value
    at.slider(key="sg_tau").set_value(8.0)
    rerun(at)
    t = table_with(at, "MSE").set_index("Team")
    assert t.loc["near-enough", "Rank"] == 5
    at.slider(key="sg_tau").set_value(10.0)
    at.slider(key="sg_epsilon").set_value(5.0)
    rerun(at)
    assert table_with(at, "MSE")["Team"].iloc[0] == "four-off"
    for page in (FRAMES, ERRORS, RULES):
        at.switch_page(page).run()
        assert not at.exception and not at.error, page


def test_leaderboard_and_rules_pages_use_the_same_arrow_for_the_same_fact(sg_dir):
    # worked is 2nd under the published rules and 1st under the starter-kit code, <i>twin the reverse:
    # both pages say "the starter kit places worked one higher" with ▲1 (and <i>twin one lower, ▼1)
    change = table_with(open_sg(LB), "MSE").set_index("Team")["Change"]
    kit = table_with(open_sg(RULES), "Only no. 1").set_index("Team")["Starter kit"]
    for team in ("worked", TWIN, "edge"):
        assert change[team] == (kit[team].split(" ") + ["="])[1], team
    assert change["worked"] == "▲1" and kit["worked"] == "1 ▲1"


def test_the_same_ranking_sentence_agrees_in_number():
    import pandas as pd

    from lab.families import spotgeo as sg
    lb = pd.DataFrame({"submission": ["a", "b"], "rank": [1, 2], "other_rules_rank": [1, 2]})
    assert sg.takeaway_leaderboard(lb, "starter-kit").endswith("; the published rules give the same ranking.")
    assert sg.takeaway_leaderboard(lb, "seed").endswith("; the starter-kit code gives the same ranking.")
