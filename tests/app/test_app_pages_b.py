"""AppTest tests of the Segments, Worked examples and Data pages.

Expected numbers come from the memo (its printed tables) or from hand computations written
next to each assertion, for the tiny competition of `conftest.py`.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from tests.shovel_ready.tiny import TINY_ALPHA, TINY_BETA, TINY_DEMO, TINY_GT, TINY_RUNTIMES

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")
SEGMENTS, EXAMPLES, DATA = "pages/segments.py", "pages/worked_examples.py", "pages/data.py"


def open_page(page: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.switch_page(page)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


@pytest.fixture
def tiny(tiny_dir, monkeypatch):
    """Make the tiny competition the default data (as LAB_DATA_DIR does for `streamlit run`)."""
    monkeypatch.setenv("LAB_DATA_DIR", str(tiny_dir))
    return tiny_dir


@pytest.fixture
def sample(monkeypatch):
    monkeypatch.delenv("LAB_DATA_DIR", raising=False)


def frame_with(at: AppTest, column: str) -> pd.DataFrame:
    frames = [d.value for d in at.dataframe if column in d.value.columns]
    assert frames, f"no table with a column {column!r}"
    return frames[0]


def error_report(at: AppTest) -> pd.DataFrame:
    """The Data page's validation errors (one ``st.error`` each: file, row, problem on their
    own lines) as a table with columns File, Row, Problem."""
    rows = []
    for e in at.error:
        found = re.match(r"\*\*File:\*\* (.*)  \n\*\*Row:\*\* (.*)  \n\*\*Problem:\*\* (.*)\Z", e.value, re.S)
        if found:
            rows.append([re.sub(r"\\(.)", r"\1", g) for g in found.groups()])
    assert rows, "no validation error shown"
    return pd.DataFrame(rows, columns=["File", "Row", "Problem"])


def matches(at: AppTest) -> pd.DataFrame:
    return frame_with(at, "Fractional TP").set_index("Discourse type")


def metric(at: AppTest, label: str) -> str:
    return next(m.value for m in at.metric if m.label == label)


def figures(at: AppTest) -> list[dict]:
    return [json.loads(el.proto.spec) for el in at.get("plotly_chart")]


def hover_texts(fig: dict) -> list[str]:
    out = []
    for trace in fig["data"]:
        h = trace.get("hovertext")
        if isinstance(h, list):
            out.extend(str(x) for x in h)
    return out


# --------------------------------------------------------------------------------------------
# Worked examples
# --------------------------------------------------------------------------------------------
def test_worked_examples_agree_with_the_memo(tiny):
    at = open_page(EXAMPLES)
    overlap = frame_with(at, "Engine: after removal").set_index("Segment")
    # memo §1: B' 10-29, C' 30-44, F' 45-69, E' 80-94, D' 95-99, A discarded
    assert overlap["Engine: after removal"].to_dict() == {
        "A": "discarded", "B": "10–29", "C": "30–44", "D": "95–99", "E": "80–94", "F": "45–69",
    }  # fmt: skip
    table1 = frame_with(at, "IoU: engine").set_index("Example")
    memo_max = {"a": 0.85, "b": 0.65, "c": 0.75, "d": 0.0, "e": 1.0}  # memo Table 1
    memo_iou = {"a": 0.809, "b": 0.609, "c": 0.669, "d": 0.0, "e": 0.8}
    for ex in memo_max:
        assert table1.loc[ex, "Max: engine"] == pytest.approx(memo_max[ex], abs=5e-4)
        assert table1.loc[ex, "IoU: engine"] == pytest.approx(memo_iou[ex], abs=5e-4)
    tables = [d.value for d in at.dataframe if "Agrees" in d.value.columns]
    assert len(tables) == 5  # overlap removal, Table 1, softmin, Tables 2 and 3
    for t in tables:
        assert set(t["Agrees"]) == {"✓"}, t
    table2 = frame_with(at, "Boosted score: engine").set_index("Model")
    # memo Table 2: Yellow 0.58 * 1.05 = 0.609; Blue 0.595 * (1 + 0.05 - 0.25 * 0.125) = 0.60615625
    assert table2.loc["Yellow", "Boosted score: engine"] == pytest.approx(0.609)
    assert table2.loc["Blue", "Boosted score: engine"] == pytest.approx(0.60615625)
    captions = " ".join(c.value for c in at.caption)
    assert "engine: Yellow, Blue, Red, Green" in captions
    assert "engine: Red, Green, Blue, Yellow" in captions


def test_worked_examples_w_slider_recomputes_table_1(tiny):
    at = open_page(EXAMPLES)
    at.slider(key="ex_w").set_value(0.3).run()
    assert not at.exception
    table1 = frame_with(at, "IoU: engine").set_index("Example")
    # (a): 0.3 * 0.9 + 0.7 * 0.8 = 0.83 (max); 0.3 * 9/11 + 0.7 * 0.8 = 0.805454... (IoU)
    assert table1.loc["a", "Max: engine"] == pytest.approx(0.83)
    assert table1.loc["a", "IoU: engine"] == pytest.approx(0.3 * 9 / 11 + 0.56)
    # (e): 0.3 * 0.6 + 0.7 * 1 = 0.88 (IoU); (d) is still no match
    assert table1.loc["e", "IoU: engine"] == pytest.approx(0.88)
    assert table1.loc["d", "IoU: engine"] == 0.0
    # the memo column follows the memo's formula for w != 0.5, and still agrees
    assert table1.loc["a", "IoU: memo says"] == pytest.approx(0.3 * 9 / 11 + 0.56)
    assert set(table1["Agrees"]) == {"✓"}


def test_worked_examples_alpha_slider_moves_the_softmin(tiny):
    at = open_page(EXAMPLES)
    at.slider(key="ex_alpha").set_value(0.0).run()
    soft = frame_with(at, "α = 0: engine").set_index("Model")
    assert soft.loc["n", "α = 0: engine"] == pytest.approx(0.7)  # (0.6 + 0.8) / 2
    at.slider(key="ex_alpha").set_value(10.0).run()
    soft = frame_with(at, "α = 10: engine").set_index("Model")
    # beta_1 = e^-6 / (e^-6 + e^-8) = 1 / (1 + e^-2); nu = 0.6 beta_1 + 0.8 (1 - beta_1)
    b1 = 1 / (1 + math.exp(-2))
    assert soft.loc["n", "α = 10: engine"] == pytest.approx(0.6 * b1 + 0.8 * (1 - b1))
    assert soft.loc["m", "α = 10: engine"] == pytest.approx(0.7)


# --------------------------------------------------------------------------------------------
# Segments
# --------------------------------------------------------------------------------------------
def test_segments_matches_with_memo_defaults(tiny):
    at = open_page(SEGMENTS)
    assert at.selectbox(key="seg_team").value == "Alpha"
    assert at.selectbox(key="seg_essay").value == "e1"
    m = matches(at)
    # Lead 0-4 exact, d = 0.8: 0.5 * 1 + 0.5 * 0.8 = 0.9
    # Claim 4-9 trimmed to 5-9 (word 4 is the Lead's), exact, d[Ineffective] = 0.7: 0.85
    # Evidence 11-19 vs 10-19: IoU 9/10, d = 0.6: 0.5 * 0.9 + 0.5 * 0.6 = 0.75
    assert m.loc["Lead", "Fractional TP"] == pytest.approx(0.9)
    assert m.loc["Claim", "Fractional TP"] == pytest.approx(0.85)
    assert m.loc["Evidence", "Fractional TP"] == pytest.approx(0.75)
    assert m.loc["Evidence", "o_P"] == pytest.approx(1.0)
    assert m.loc["Evidence", "o_G"] == pytest.approx(0.9)
    assert m.loc["Claim", "Effectiveness probability d[E]"] == pytest.approx(0.7)
    assert metric(at, "Trimmed by removal") == "1"
    assert metric(at, "Discarded by removal") == "0"
    before, after = figures(at)
    assert any("trimmed by overlap removal to 5–9" in h for h in hover_texts(before))
    assert any(h.startswith("Prediction row 3 · Claim<br>words 5–9") for h in hover_texts(after))
    assert any(h.startswith("Prediction row 3 · Claim<br>words 4–9") for h in hover_texts(before))
    # the essay's text is drawn (the first word of e1), not numbered boxes
    words = [t for tr in before["data"] if tr.get("mode") == "text" for t in tr["text"]]
    assert words[:3] == ["Schools", "should", "start"]


def test_segments_sidebar_controls_change_the_matches(tiny):
    at = open_page(SEGMENTS)
    at.slider(key="p_w").set_value(1.0).run()
    m = matches(at)
    # w = 1: TP is the IoU alone
    assert list(m["Fractional TP"]) == pytest.approx([1.0, 1.0, 0.9])
    at.slider(key="p_w").set_value(0.5).run()
    at.selectbox(key="p_quality").set_value("max").run()
    # max-overlap: Evidence q = max(1, 0.9) = 1 -> 0.5 + 0.5 * 0.6 = 0.8
    assert matches(at).loc["Evidence", "Fractional TP"] == pytest.approx(0.8)
    at.selectbox(key="p_quality").set_value("iou").run()
    at.toggle(key="p_overlap_removal").set_value(False).run()
    m = matches(at)
    # without removal the Claim is 4-9 against 5-9: o_P = 5/6, IoU 5/6 -> 0.5 * 5/6 + 0.5 * 0.7
    assert m.loc["Claim", "o_P"] == pytest.approx(5 / 6)
    assert m.loc["Claim", "Fractional TP"] == pytest.approx(0.5 * 5 / 6 + 0.35)
    at.slider(key="p_threshold").set_value(0.9).run()
    # threshold 0.9: the Claim (o_P = 0.833) is no longer a candidate
    assert "Claim" not in matches(at).index
    assert not at.exception


def test_segments_team_with_a_discarded_prediction(tiny):
    at = open_page(SEGMENTS)
    at.selectbox(key="seg_team").set_value("Beta").run()
    assert metric(at, "Discarded by removal") == "1"  # Claim 2-4 lies inside the Lead 0-5
    m = matches(at)
    # Lead 0-5 vs 0-4: o_P = 5/6, IoU 5/6, d = 1 -> 0.5 * 5/6 + 0.5 = 0.91667
    # Evidence exact, d = 0.9 -> 0.95; the Claim ground truth is left unmatched
    assert m.loc["Lead", "Fractional TP"] == pytest.approx(0.5 * 5 / 6 + 0.5)
    assert m.loc["Evidence", "Fractional TP"] == pytest.approx(0.95)
    assert "Claim" not in m.index
    assert "unmatched ground-truth segments (false negatives): 1" in " ".join(c.value for c in at.caption)
    before, after = figures(at)
    assert any("discarded by overlap removal" in h for h in hover_texts(before))
    assert not any(h.startswith("Prediction row 3") for h in hover_texts(after))


def test_segments_only_changed_essays_filter(tiny):
    at = open_page(SEGMENTS)
    assert at.selectbox(key="seg_essay").options == ["e1", "e2"]
    at.checkbox(key="seg_only_changed").check().run()
    # Alpha's predictions change only in e1 (e2 has a single prediction)
    assert at.selectbox(key="seg_essay").options == ["e1"]
    at.selectbox(key="seg_essay").set_value("e1").run()
    assert not at.exception


def test_segments_essay_without_matches_shows_an_empty_state(tiny):
    at = open_page(SEGMENTS)
    at.selectbox(key="seg_team").set_value("Beta").run()
    at.selectbox(key="seg_essay").set_value("e2").run()
    # Beta's e2 Claim 0-2 covers 3 of the 6 ground-truth words: o_G = 0.5 < 0.51, no match
    assert any("No prediction matches" in i.value for i in at.info)
    assert not any("Fractional TP" in d.value.columns for d in at.dataframe)


# --------------------------------------------------------------------------------------------
# Data
# --------------------------------------------------------------------------------------------
CSV = "text/csv"


def upload(at: AppTest, gt: str, subs: dict[str, str], demo: str | None = None, rt: str | None = None) -> None:
    at.file_uploader(key="data_gt").set_value(("truth.csv", gt.encode(), CSV))
    at.file_uploader(key="data_subs").set_value([(f"{n}.csv", s.encode(), CSV) for n, s in subs.items()])
    if demo is not None:
        at.file_uploader(key="data_demo").set_value(("demo.csv", demo.encode(), CSV))
    if rt is not None:
        at.file_uploader(key="data_rt").set_value(("rt.csv", rt.encode(), CSV))
    at.run()
    at.button(key="data_load").click().run()
    assert not at.exception, [e.value for e in at.exception]


def test_data_good_upload_becomes_the_active_competition(tiny):
    at = open_page(DATA)
    assert at.button(key="data_load").disabled  # nothing uploaded yet
    # a third team under another name, so the upload differs from the default data
    upload(at, TINY_GT, {"Alpha": TINY_ALPHA, "Gamma": TINY_BETA}, TINY_DEMO, TINY_RUNTIMES)
    assert "bundle" in at.session_state
    assert any("Loaded 5 files" in s.value and "Alpha, Gamma" in s.value for s in at.success)
    # runtimes name Beta, which this upload does not have: the load report warns about it
    assert any("Beta" in w.value for w in at.warning)
    assert any("your uploaded competition" in m.value for m in at.markdown)
    # the Segments page now scores the upload: Gamma is a team, and words are numbered boxes
    at.switch_page(SEGMENTS).run()
    assert at.selectbox(key="seg_team").options == ["Alpha", "Gamma"]
    assert any("numbered boxes" in c.value for c in at.caption)
    # and back to the default data
    at.switch_page(DATA).run()
    at.button(key="data_use_sample").click().run()
    assert "bundle" not in at.session_state


def test_data_bad_upload_names_file_and_row_and_keeps_previous_data(tiny):
    at = open_page(DATA)
    bad = TINY_ALPHA.replace("e1,Claim,4 5 6 7 8 9,0.3,0.7", "e1,Claim,4 5 6 7 8 9,1.5,0.7")
    upload(at, TINY_GT, {"Alpha": bad, "Beta": TINY_BETA})
    errors = error_report(at)
    assert list(errors["File"]) == ["Alpha.csv"]
    assert list(errors["Row"]) == ["3"]  # header = row 1; the Claim is the 2nd data row
    assert any("Nothing was loaded" in e.value for e in at.error)
    assert "bundle" not in at.session_state  # the default data stays active

    # a good upload, then a bad one: the good one stays active
    upload(at, TINY_GT, {"Alpha": TINY_ALPHA})
    good = at.session_state["bundle"]
    upload(at, TINY_GT, {"Alpha": TINY_ALPHA, "Beta": "id,class\ne1,Lead\n"})
    errors = error_report(at)
    assert list(errors["File"]) == ["Beta.csv"]
    assert "predictionstring" in errors["Problem"].iloc[0]
    assert at.session_state["bundle"] == good


def test_preset_round_trip_and_bad_presets(tiny):
    at = open_page(DATA)
    shown = json.loads(at.json[0].value)
    assert shown["w"] == 0.5 and shown["quality"] == "iou" and shown["hard_min"] is False
    preset = {"w": 0.3, "quality": "max", "alpha": "inf", "band": 0.1}
    at.file_uploader(key="data_preset_file").set_value(("p.json", json.dumps(preset).encode(), "application/json"))
    at.run()
    assert not at.exception
    assert at.session_state["p_w"] == pytest.approx(0.3)
    assert at.session_state["p_quality"] == "max"
    assert at.session_state["p_hard_min"] is True
    assert any("Applied the parameters from p.json" in s.value for s in at.success)
    shown = json.loads(at.json[0].value)
    assert shown["w"] == pytest.approx(0.3) and shown["hard_min"] is True and shown["band"] == pytest.approx(0.1)

    for content, expected in (
        (b"{w: 1", "not valid JSON"),
        (b"[1, 2]", "JSON object"),
        (json.dumps({"w": 2}).encode(), "'w'"),
        (json.dumps({"speed": 1}).encode(), "'speed'"),
    ):
        at.file_uploader(key="data_preset_file").set_value(("bad.json", content, "application/json"))
        at.run()
        assert not at.exception
        assert any(expected in e.value for e in at.error), (content, [e.value for e in at.error])
        assert at.session_state["p_w"] == pytest.approx(0.3)  # the bad preset changed nothing


# --------------------------------------------------------------------------------------------
# The sample competition
# --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("page", [SEGMENTS, EXAMPLES, DATA])
def test_pages_run_on_the_sample(sample, page):
    at = open_page(page)
    assert not at.error, [e.value for e in at.error]
    if page == SEGMENTS:
        # the sample has essay text: words are drawn, not numbered boxes
        assert not any("numbered boxes" in c.value for c in at.caption)
        assert len(at.get("plotly_chart")) == 2
        teams = at.selectbox(key="seg_team").options
        assert len(teams) >= 2
        at.selectbox(key="seg_team").set_value(teams[-1]).run()
        assert not at.exception
        import sample_data

        profile = sample_data.team_profiles()[teams[-1]]
        assert any(c.value == f"**{teams[-1]}** — {profile}" for c in at.caption)
    if page == DATA:
        assert any("the sample competition" in m.value for m in at.markdown)


def test_data_duplicate_submission_names_name_the_file(tiny):
    at = open_page(DATA)
    # two files whose names give the same submission name: the engine names the second file
    at.file_uploader(key="data_gt").set_value(("truth.csv", TINY_GT.encode(), CSV))
    at.file_uploader(key="data_subs").set_value(
        [("Alpha.csv", TINY_ALPHA.encode(), CSV), ("sub/Alpha.csv", TINY_BETA.encode(), CSV)]
    )
    at.run()
    at.button(key="data_load").click().run()
    assert not at.exception, [e.value for e in at.exception]
    errors = error_report(at)
    assert list(errors["File"]) == ["Alpha.csv"]
    assert "duplicate submission name 'Alpha'" in errors["Problem"].iloc[0]
    assert "bundle" not in at.session_state


def test_data_round_trip_keeps_or_restores_the_attributes(tiny):
    at = open_page(DATA)
    assert at.multiselect(key="p_attributes").value == ["ell_status"]
    at.multiselect(key="p_attributes").set_value(["ell_status", "gender"]).run()
    # an upload with only the gender column: the chosen attribute it has is kept
    upload(at, TINY_GT, {"Alpha": TINY_ALPHA, "Gamma": TINY_BETA}, "id,gender\ne1,F\ne2,M\n")
    assert at.multiselect(key="p_attributes").value == ["gender"]
    # an upload without demographics: no attribute can remain
    at.file_uploader(key="data_demo").set_value(None)
    upload(at, TINY_GT, {"Alpha": TINY_ALPHA, "Delta": TINY_BETA})
    assert "bundle" in at.session_state
    assert not at.get("multiselect") or at.multiselect(key="p_attributes").value == []
    # back to the sample data: none of the chosen ones remain, so its default comes back
    at.button(key="data_use_sample").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.multiselect(key="p_attributes").value == ["ell_status"]
    assert at.query_params["attributes"] == "ell_status"


def test_data_errors_are_wrapped_text_with_file_row_and_problem(tiny):
    at = open_page(DATA)
    bad = TINY_ALPHA.replace("e1,Claim,4 5 6 7 8 9,0.3,0.7", "e1,Claim,4 5 6 7 8 9,1.5,0.7")
    upload(at, TINY_GT, {"Alpha_*v2*": bad})
    assert not any("File" in d.value.columns for d in at.dataframe)  # no narrow table column
    shown = [e.value for e in at.error if e.value.startswith("**File:**")]
    assert len(shown) == 1 and "  \n**Row:** 3  \n**Problem:** " in shown[0]
    assert r"Alpha\_\*v2\*\.csv" in shown[0]                       # markdown shown literally
    errors = error_report(at)
    assert list(errors["File"]) == ["Alpha_*v2*.csv"] and "1.5" in errors["Problem"].iloc[0]


def test_segments_class_colours_are_distinct_hues_and_the_type_column_is_wide():
    import colorsys

    import ui

    classes = ["Lead", "Position", "Claim", "Counterclaim", "Rebuttal", "Evidence", "Concluding Statement"]
    colours = ui.class_colours(classes)
    assert len(set(colours.values())) == 7
    hues = []
    for c in colours.values():
        r, g, b = (int(c[i:i + 2], 16) / 255 for i in (1, 3, 5))
        hues.append(colorsys.rgb_to_hls(r, g, b)[0] * 360)
    lead, position = colours["Lead"], colours["Position"]
    assert lead != position
    gaps = [min(abs(a - b), 360 - abs(a - b)) for i, a in enumerate(hues) for b in hues[i + 1:]]
    assert min(gaps) >= 15  # no two types share a hue (the old Lead/Position pair did)


def test_segments_matches_table_widens_the_discourse_type(tiny):
    at = open_page(SEGMENTS)
    table = next(d for d in at.dataframe if "Fractional TP" in d.value.columns)
    config = json.loads(table.proto.columns)
    assert config["Discourse type"]["width"] == 170
