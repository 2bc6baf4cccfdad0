"""AppTest tests of the app entry, the shared sidebar and the Leaderboard, Demographics and
Efficiency pages (plus the pure helpers of ``ui.py`` behind them).

Most checks run on a three-team competition written below, whose numbers are worked out by
hand in the comments (SPEC §2–§6); the sample competition is only used to check that every
page renders.
"""

from __future__ import annotations

import csv
import io
import json
import math
import sys
from pathlib import Path

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import scoring  # noqa: E402
import ui  # noqa: E402

APP = "../../app.py"
MY_PAGES = ["pages/leaderboard.py", "pages/demographics.py", "pages/efficiency.py"]
ALL_PAGES = MY_PAGES[:1] + MY_PAGES[1:] + ["pages/segments.py", "pages/worked_examples.py", "pages/data.py"]
TIMEOUT = 120

# --------------------------------------------------------------------------------------
# The hand-worked competition.
#
# Ground truth: one Claim per essay, words 0-9; e1 is Effective, e2 Ineffective.
# Demographics: e1 ell_status=Yes, e2 ell_status=No (one essay per group).
#
# A: both claims exact, but only 0.6 on the right label.  TP_P = w·1 + (1-w)·0.6 = 0.8 at
#    w = 0.5, so per class TP 1.6, FN 0.4 -> F1 = 1.6 / 1.8 = 8/9 on every essay set.
#    FP1 = 1 (two exact matches); after overlap removal also 1.
# B: e1 words 0-7 only (o_P = 1, o_G = 0.8, IoU 0.8) with d = 1; nothing for e2.
#    Unified (IoU): TP_P = 0.5·0.8 + 0.5·1 = 0.9; TP 0.9, FN 0.1 + 1 -> F1 = 0.9/1.45 = 0.620690.
#    Per group: Yes 0.9/0.95 = 0.947368, No 0.  FP1: TP 1, FN 1, FP 0 + 1 (the quirk: a
#    ground truth in an essay without a prediction of its class) -> 1/2 = 0.5.
# C: the e1 claim twice (an overlap hedge), e2 exact, all with d = 1.
#    FP1 raw: TP 2, FP 1 -> 2/2.5 = 0.8; after overlap removal the copy is discarded -> 1.0.
#    Unified with removal: 1.0; without removal the copy is an FP -> 2/2.5 = 0.8.
# Runtimes: A 100 s, B 10 s, C 110 s.
# --------------------------------------------------------------------------------------
GT = """id,discourse_type,predictionstring,discourse_effectiveness
e1,Claim,0 1 2 3 4 5 6 7 8 9,Effective
e2,Claim,0 1 2 3 4 5 6 7 8 9,Ineffective
"""
SUB_A = """id,class,predictionstring,Effective,Ineffective
e1,Claim,0 1 2 3 4 5 6 7 8 9,0.6,0.4
e2,Claim,0 1 2 3 4 5 6 7 8 9,0.4,0.6
"""
SUB_B = """id,class,predictionstring,Effective,Ineffective
e1,Claim,0 1 2 3 4 5 6 7,1.0,0.0
"""
SUB_C = """id,class,predictionstring,Effective,Ineffective
e1,Claim,0 1 2 3 4 5 6 7 8 9,1.0,0.0
e1,Claim,0 1 2 3 4 5 6 7 8 9,1.0,0.0
e2,Claim,0 1 2 3 4 5 6 7 8 9,0.0,1.0
"""
DEMO = """id,ell_status
e1,Yes
e2,No
"""
RUNTIMES = """submission,runtime
A,100
B,10
C,110
"""
SEG_A, SEG_B, SEG_C = 8 / 9, 0.9 / 1.45, 1.0
GROUP_B_YES = 0.9 / 0.95


def write_competition(folder: Path, *, demographics: bool = True, runtimes: bool = True,
                      subs: dict[str, str] | None = None) -> Path:
    (folder / "submissions").mkdir(parents=True)
    (folder / "ground_truth.csv").write_text(GT)
    for name, text in (subs or {"A": SUB_A, "B": SUB_B, "C": SUB_C}).items():
        (folder / "submissions" / f"{name}.csv").write_text(text)
    if demographics:
        (folder / "demographics.csv").write_text(DEMO)
    if runtimes:
        (folder / "runtimes.csv").write_text(RUNTIMES)
    return folder


@pytest.fixture
def core_dir(tmp_path, monkeypatch) -> Path:
    folder = write_competition(tmp_path / "core")
    monkeypatch.setenv("LAB_DATA_DIR", str(folder))
    return folder


def app(page: str | None = None, query: dict | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    if query:
        at.query_params.update(query)
    at.run()
    if page:
        at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def table_with(at: AppTest, column: str) -> pd.DataFrame:
    """The first st.dataframe showing ``column`` (plain dataframes expose no key)."""
    for df in at.dataframe:
        value = df.value
        if column in value.columns:
            return value
    raise AssertionError(f"no table with a column {column!r}")


def stage_table(at: AppTest) -> pd.DataFrame:
    return table_with(at, "FP1 (original)").set_index("Team")


def figure(at: AppTest, key: str) -> dict:
    for chart in at.get("plotly_chart"):
        spec = json.loads(chart.proto.spec)
        if chart.proto.id and key in chart.proto.id:
            return spec
    raise AssertionError(f"no plotly chart with key {key}")


def rerun(at: AppTest) -> AppTest:
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


# --------------------------------------------------------------------------------------
# Every page renders, on the sample and on the hand-worked data
# --------------------------------------------------------------------------------------


def test_all_pages_render_on_the_sample(monkeypatch):
    monkeypatch.delenv("LAB_DATA_DIR", raising=False)
    import sample_data

    n_subs = len(list((Path(sample_data.SAMPLE_DIR) / "submissions").glob("*.csv")))
    at = app()
    assert len(stage_table(at)) == n_subs
    for page in ALL_PAGES:  # switch_page raises when st.navigation did not register the file
        at.switch_page(page).run()
        assert not at.exception, (page, [e.value for e in at.exception])
        assert not at.error, (page, [e.value for e in at.error])
        assert at.title[0].value, page
        if page in MY_PAGES:
            assert at.get("plotly_chart"), page


def test_leaderboard_table_stages_and_arrows(core_dir):
    at = app()
    t = stage_table(at)
    assert list(t.index) == ["C", "A", "B"]  # final ranks 1, 2, 3
    assert t.loc["A", "FP1 (original)"] == pytest.approx(1.0)
    assert t.loc["B", "FP1 (original)"] == pytest.approx(0.5)
    assert t.loc["C", "FP1 (original)"] == pytest.approx(0.8)
    assert t.loc["C", "After overlap removal"] == pytest.approx(1.0)
    assert t.loc["A", "Unified segment score"] == pytest.approx(SEG_A)
    assert t.loc["B", "Unified segment score"] == pytest.approx(SEG_B)
    assert t.loc["B", "Bias-aware score"] == pytest.approx(0.0, abs=1e-12)  # α = 50: the No group
    assert t.loc["C", "Final score"] == pytest.approx(1.05)  # only eligible team: full 5 %
    assert t.loc["A", "Final score"] == pytest.approx(SEG_A)
    # C: 2nd on FP1, ties A for 1st after overlap removal (▲1); A drops to 2nd on segment score.
    assert t.loc["C", "FP1 (original) · rank"] == "2"
    assert t.loc["C", "After overlap removal · rank"] == "1 ▲1"
    assert t.loc["A", "After overlap removal · rank"] == "1"
    assert t.loc["A", "Unified segment score · rank"] == "2 ▼1"
    assert t.loc["B", "Final score · rank"] == "3"
    assert t.loc["C", "Eligible for boost"] == "yes" and t.loc["A", "Eligible for boost"] == "no"
    labels = [b.label for b in at.get("download_button")]
    assert "Download CSV" in labels and "Download JSON" in labels


def test_bump_chart_and_waterfall(core_dir):
    at = app()
    bump = figure(at, "lb_bump")
    ranks = {tr["name"]: tr["y"] for tr in bump["data"]}
    assert ranks["C"] == [2, 1, 1, 1, 1]
    assert ranks["A"] == [1, 1, 2, 2, 2]
    assert ranks["B"] == [3, 3, 3, 3, 3]
    colors = ui.team_colors(["A", "B", "C"])
    assert {tr["name"]: tr["line"]["color"] for tr in bump["data"]} == colors

    fall = figure(at, "lb_waterfall")["data"][0]  # the first team by default: C
    assert fall["measure"] == ["absolute", "relative", "relative", "relative", "relative", "total"]
    assert fall["y"] == pytest.approx([0.8, 0.2, 0.0, 0.0, 0.05, 1.05])
    at.selectbox(key="lb_team").set_value("B")
    rerun(at)
    fall = figure(at, "lb_waterfall")["data"][0]
    assert fall["y"][:3] == pytest.approx([0.5, 0.0, SEG_B - 0.5])


# --------------------------------------------------------------------------------------
# Every sidebar control changes what it should
# --------------------------------------------------------------------------------------


def test_w_quality_threshold_and_overlap_removal(core_dir):
    at = app()
    at.slider(key="p_w").set_value(1.0)
    t = stage_table(rerun(at))
    assert t.loc["A", "Unified segment score"] == pytest.approx(1.0)          # TP_P = q = 1
    assert t.loc["B", "Unified segment score"] == pytest.approx(0.8 / 1.4)    # TP_P = IoU 0.8
    assert t.loc["A", "FP1 (original)"] == pytest.approx(1.0)                 # FP1 does not move

    at.slider(key="p_w").set_value(0.5)
    at.selectbox(key="p_quality").set_value("max")
    t = stage_table(rerun(at))
    assert t.loc["B", "Unified segment score"] == pytest.approx(1 / 1.5)      # q = max(1, 0.8)

    at.selectbox(key="p_quality").set_value("iou")
    at.slider(key="p_threshold").set_value(0.85)                               # o_G = 0.8 < 0.85
    t = stage_table(rerun(at))
    assert t.loc["B", "Unified segment score"] == pytest.approx(0.0)

    at.slider(key="p_threshold").set_value(0.51)
    at.toggle(key="p_overlap_removal").set_value(False)
    t = stage_table(rerun(at))
    assert t.loc["C", "Unified segment score"] == pytest.approx(0.8)          # the copy is an FP
    assert t.loc["C", "After overlap removal"] == pytest.approx(1.0)          # stage 2 always removes


def test_alpha_hard_min_and_attributes(core_dir):
    at = app()
    at.slider(key="p_alpha").set_value(0.0)
    t = stage_table(rerun(at))
    assert t.loc["B", "Bias-aware score"] == pytest.approx(GROUP_B_YES / 2)   # plain mean, n = 1 + 1
    assert t.loc["A", "Bias-aware score"] == pytest.approx(SEG_A)
    at.toggle(key="p_hard_min").set_value(True)
    t = stage_table(rerun(at))
    assert t.loc["B", "Bias-aware score"] == pytest.approx(0.0)               # its worst group
    assert at.slider(key="p_alpha").disabled
    at.toggle(key="p_hard_min").set_value(False)
    at.multiselect(key="p_attributes").set_value([])
    t = stage_table(rerun(at))
    assert t.loc["B", "Bias-aware score"] == pytest.approx(SEG_B)             # no groups: = segment


def test_boost_band_window_and_max(core_dir):
    at = app()
    at.slider(key="p_max_boost").set_value(10.0)
    t = stage_table(rerun(at))
    assert t.loc["C", "Final score"] == pytest.approx(1.10)
    at.slider(key="p_max_boost").set_value(5.0)
    at.slider(key="p_band").set_value(15.0)  # 1/1.15 = 0.8696 < 8/9: A becomes eligible
    t = stage_table(rerun(at))
    assert t.loc["A", "Final score"] == pytest.approx(SEG_A * 1.05)           # A is the fastest (100 s)
    assert t.loc["C", "Final score"] == pytest.approx(1.025)                  # 110/100 = 1.1: half
    at.slider(key="p_window").set_value(50.0)
    t = stage_table(rerun(at))
    assert t.loc["C", "Final score"] == pytest.approx(1.04)                   # 0.05·(1 − 0.1/0.5)


# --------------------------------------------------------------------------------------
# URL query string, reset, presets
# --------------------------------------------------------------------------------------


def test_query_string_sets_the_view_and_follows_the_widgets(core_dir):
    at = app(query={"w": "1", "quality": "max", "alpha": "inf", "band": "0.15",
                    "overlap_removal": "false", "attributes": ""})
    assert at.slider(key="p_w").value == pytest.approx(1.0)
    assert at.selectbox(key="p_quality").value == "max"
    assert at.toggle(key="p_hard_min").value is True
    assert at.slider(key="p_band").value == pytest.approx(15.0)
    assert at.toggle(key="p_overlap_removal").value is False
    assert at.multiselect(key="p_attributes").value == []
    t = stage_table(at)
    # w = 1, max quality: B's one pair scores q = max(1, 0.8) = 1; e2 unmatched -> 1/(1 + 0.5).
    assert t.loc["B", "Unified segment score"] == pytest.approx(2 / 3)
    assert at.query_params["w"] == "1"
    at.multiselect(key="p_attributes").set_value(["ell_status"])  # α needs groups to act on
    rerun(at)
    at.toggle(key="p_hard_min").set_value(False)
    rerun(at)
    at.slider(key="p_alpha").set_value(80.0)
    rerun(at)
    assert at.query_params["alpha"] == "80"
    assert at.query_params["hard_min"] == "false"
    assert at.query_params["quality"] == "max"


def test_bad_query_values_fall_back_with_a_warning(core_dir):
    at = app(query={"w": "abc", "threshold": "0.2", "quality": "huge", "window": "0.3"})
    assert at.slider(key="p_w").value == pytest.approx(0.5)
    assert at.slider(key="p_threshold").value == pytest.approx(0.51)
    assert at.selectbox(key="p_quality").value == "iou"
    assert at.slider(key="p_window").value == pytest.approx(30.0)  # the good one is kept
    text = " ".join(w.value for w in at.warning)
    assert "'w'" in text and "'threshold'" in text and "'quality'" in text


def test_reset_button_restores_memo_defaults(core_dir):
    at = app()
    at.slider(key="p_w").set_value(0.2)
    at.slider(key="p_alpha").set_value(120.0)
    at.slider(key="p_band").set_value(12.0)
    at.multiselect(key="p_attributes").set_value([])
    at.toggle(key="p_overlap_removal").set_value(False)
    rerun(at)
    assert at.query_params["w"] == "0.2"
    at.button(key="p_reset").click()
    rerun(at)
    assert at.slider(key="p_w").value == pytest.approx(0.5)
    assert at.slider(key="p_alpha").value == pytest.approx(50.0)
    assert at.slider(key="p_band").value == pytest.approx(5.0)
    assert at.multiselect(key="p_attributes").value == ["ell_status"]
    assert at.toggle(key="p_overlap_removal").value is True
    assert at.query_params["w"] == "0.5" and at.query_params["band"] == "0.05"
    assert stage_table(at).loc["C", "Final score"] == pytest.approx(1.05)


APPLY_SCRIPT = f"""
import sys
sys.path.insert(0, {str(ROOT)!r})
import streamlit as st
import ui
comp = ui.current_competition()
ui.sidebar(comp)
if st.button("apply", key="t_apply"):
    try:
        ui.apply_params(st.session_state.get("t_preset", {{}}))
    except ValueError as err:
        st.error(str(err))
st.write("w=" + str(ui.params()["w"]) + " alpha=" + str(ui.params()["alpha"]))
"""


def test_apply_params_from_a_page_body(core_dir):
    at = AppTest.from_string(APPLY_SCRIPT, default_timeout=TIMEOUT).run()
    at.session_state["t_preset"] = {"w": 0.25, "alpha": "inf", "quality": "binary"}
    at.button(key="t_apply").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.slider(key="p_w").value == pytest.approx(0.25)
    assert at.toggle(key="p_hard_min").value is True
    assert at.query_params["quality"] == "binary"
    assert any("w=0.25 alpha=inf" in m.value for m in at.markdown)
    at.session_state["t_preset"] = {"w": 2}
    at.button(key="t_apply").click().run()
    assert "'w'" in at.error[0].value
    assert at.slider(key="p_w").value == pytest.approx(0.25)


def test_validate_values_names_the_bad_key():
    available = ["ell_status", "gender"]
    assert ui.validate_values({}, available) == ui.default_values(available)
    assert ui.validate_values({"alpha": "inf"}, available)["hard_min"] is True
    assert ui.validate_values({"attributes": ["gender"]}, available)["attributes"] == ["gender"]
    for bad, word in [({"speed": 1}, "'speed'"), ({"w": 1.5}, "'w'"), ({"w": "x"}, "'w'"),
                      ({"threshold": 0.4}, "'threshold'"), ({"quality": "f1"}, "'quality'"),
                      ({"alpha": -1}, "'alpha'"), ({"band": 0.5}, "'band'"),
                      ({"window": 0.0}, "'window'"), ({"overlap_removal": "maybe"}, "'overlap_removal'"),
                      ({"attributes": ["race"]}, "'race'"), ({"max_boost": True}, "'max_boost'")]:
        with pytest.raises(ValueError, match=word):
            ui.validate_values(bad, available)
    assert ui.default_values([])["attributes"] == []  # no ell_status column: no default attribute


# --------------------------------------------------------------------------------------
# Demographics page
# --------------------------------------------------------------------------------------


def test_demographics_heatmap_betas_and_sweep(core_dir):
    at = app("pages/demographics.py")
    heat = figure(at, "demo_heatmap")["data"][0]
    assert heat["y"] == ["C", "A", "B"]
    cols = [x.split("<br>")[0] for x in heat["x"]]
    assert sorted(cols) == ["ell_status=No", "ell_status=Yes"]
    z = dict(zip(cols, zip(*heat["z"], strict=True), strict=True))
    assert z["ell_status=Yes"] == pytest.approx((1.0, SEG_A, GROUP_B_YES))
    assert z["ell_status=No"] == pytest.approx((1.0, SEG_A, 0.0))
    assert all("n = 1" in x for x in heat["x"])

    betas = table_with(at, "ell_status=No").set_index("Team")
    assert betas.loc["A", "ell_status=Yes"] == pytest.approx(50.0)  # equal scores: by size
    assert betas.loc["B", "ell_status=No"] == pytest.approx(100.0, abs=1e-6)

    sweep = figure(at, "demo_sweep")
    assert {s["x0"] for s in sweep["layout"]["shapes"]} == {50.0}  # one line per subplot
    b_score = next(tr for tr in sweep["data"] if tr["name"] == "B" and tr["yaxis"] == "y")
    assert b_score["x"][0] == 0.0 and b_score["y"][0] == pytest.approx(GROUP_B_YES / 2)

    at.slider(key="p_alpha").set_value(0.0)
    rerun(at)
    assert {s["x0"] for s in figure(at, "demo_sweep")["layout"]["shapes"]} == {0.0}
    betas = table_with(at, "ell_status=No").set_index("Team")
    assert betas.loc["B", "ell_status=No"] == pytest.approx(50.0)
    sizes = table_with(at, "Essays")
    assert list(sizes["Essays"]) == [1, 1]

    at.multiselect(key="p_attributes").set_value([])
    rerun(at)
    assert "No demographic attribute chosen" in at.info[0].value
    assert not at.get("plotly_chart")


def test_alpha_sweep_uses_softmin():
    gs = scoring.GroupScores(
        scores=pd.DataFrame({"g1": [0.6, 0.7], "g2": [0.8, 0.7]}, index=["X", "Y"]),
        sizes=pd.Series({"g1": 1, "g2": 3}), labels=["g1", "g2"],
    )
    sweep = ui.alpha_sweep(gs, [0.0, math.inf])
    at0 = sweep[sweep["alpha"] == 0].set_index("team")
    assert at0.loc["X", "score"] == pytest.approx(0.75)   # SPEC §7: sizes (1, 3) at α = 0
    assert at0.loc["Y", "score"] == pytest.approx(0.7)
    assert at0.loc["X", "rank"] == 1
    hard = sweep[sweep["alpha"] == math.inf].set_index("team")
    assert hard.loc["X", "score"] == pytest.approx(0.6) and hard.loc["Y", "rank"] == 1


def test_demographics_without_demographics_explains(tmp_path, monkeypatch):
    monkeypatch.setenv("LAB_DATA_DIR", str(write_competition(tmp_path / "nodemo", demographics=False)))
    at = app("pages/demographics.py")
    assert "No demographics loaded" in at.info[0].value
    assert at.sidebar.caption and any("No demographics" in c.value for c in at.sidebar.caption)


# --------------------------------------------------------------------------------------
# Efficiency page
# --------------------------------------------------------------------------------------

FIELD = {"A": SEG_A, "B": 0.0, "C": 1.0}
FIELD_RT = {"A": 100.0, "B": 10.0, "C": 110.0}
DEFAULTS = {"band": 0.05, "max_boost": 0.05, "window": 0.2}


def test_what_if_numbers():
    # New entry 0.96 at 100 s: eligible (0.96 ≥ 1/1.05 = 0.952), fastest eligible -> 5 %:
    # 1.008; C at 110/100 = 1.1 gets 2.5 % -> 1.025, so the entry is 2nd.  To overtake C:
    # 1.008 > 1 + 0.05·(1 − (110/r − 1)/0.2)  <=>  110/r − 1 > 0.168  <=>  r < 110/1.168.
    res = ui.what_if(FIELD, FIELD_RT, "New", 0.96, 100.0, DEFAULTS)
    assert res["eligible"] and res["boost"] == pytest.approx(0.05)
    assert res["final_score"] == pytest.approx(1.008) and res["rank"] == 2
    assert res["full_boost_runtime"] == pytest.approx(110.0)
    assert res["above"] == "C"
    assert res["overtake_runtime"] == pytest.approx(110 / 1.168, rel=1e-6)
    # At 121 s, C (110 s) is the fastest eligible: 121/110 = 1.1 -> 2.5 % -> 0.984.
    res = ui.what_if(FIELD, FIELD_RT, "New", 0.96, 121.0, DEFAULTS)
    assert res["boost"] == pytest.approx(0.025) and res["final_score"] == pytest.approx(0.984)
    assert res["full_boost_runtime"] == pytest.approx(110.0)
    # 0.9 < 0.952: not eligible, so no runtime helps against C (1.05).
    res = ui.what_if(FIELD, FIELD_RT, "New", 0.9, 1.0, DEFAULTS)
    assert not res["eligible"] and res["boost"] == 0 and res["rank"] == 2
    assert res["threshold_score"] == pytest.approx(1 / 1.05)
    assert res["overtake_runtime"] is None and res["full_boost_runtime"] is None
    # The leader has nobody to overtake.
    res = ui.what_if(FIELD, FIELD_RT, "C", 1.0, 110.0, DEFAULTS)
    assert res["rank"] == 1 and res["above"] is None


def test_what_if_overtake_when_slower_than_the_fastest():
    # X (1.0, no runtime) is never eligible; Z (0.96, 100 s) is the fastest eligible: 1.008.
    # A new 0.97 at 150 s (ratio 1.5: no boost) sits under X (1.0). At r <= 100 s it would
    # get the full 5 % (1.0185 > 1.0), so the answer lies above 100 s, where s = 100 s stays:
    # 0.97·(1 + 0.05·(1 − (r/100 − 1)/0.2)) > 1  <=>  r < 100·(1 + 0.2·(1 − (1/0.97 − 1)/0.05)).
    res = ui.what_if({"X": 1.0, "Z": 0.96}, {"Z": 100.0}, "New", 0.97, 150.0, DEFAULTS)
    assert res["eligible"] and res["boost"] == 0 and res["above"] == "X"
    expected = 100 * (1 + 0.2 * (1 - (1 / 0.97 - 1) / 0.05))
    assert res["overtake_runtime"] == pytest.approx(expected, rel=1e-9)
    for r, ahead in ((expected * (1 - 1e-6), True), (expected * (1 + 1e-6), False)):
        t = scoring.efficiency_boost({"X": 1.0, "Z": 0.96, "New": 0.97}, {"Z": 100.0, "New": r}, **DEFAULTS)
        final = dict(zip(t["submission"], t["final_score"], strict=True))
        assert (final["New"] > final["X"]) is ahead


def test_efficiency_page_chart_and_what_if(core_dir):
    at = app("pages/efficiency.py")
    scatter = figure(at, "eff_scatter")
    pts = {tr["name"]: (tr["x"][0], tr["y"][0]) for tr in scatter["data"]}
    assert pts["C"] == pytest.approx((110.0, 1.0)) and pts["A"] == pytest.approx((100.0, SEG_A))
    band = [s for s in scatter["layout"]["shapes"] if s.get("yref") == "y"][0]
    assert (band["y0"], band["y1"]) == pytest.approx((1 / 1.05, 1.0))
    boosts = figure(at, "eff_boosts")["data"][0]
    assert dict(zip(boosts["x"], boosts["y"], strict=True)) == pytest.approx({"C": 5.0, "A": 0.0, "B": 0.0})

    at.number_input(key="eff_score").set_value(0.96)
    at.number_input(key="eff_runtime").set_value(100.0)
    rerun(at)
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Eligible"] == "yes" and metrics["Boost"] == "5.00 %"
    assert metrics["Rank"] == "2 of 4" and metrics["Final score"] == "1.0080"
    assert any("overtake C" in m.value for m in at.markdown)

    at.selectbox(key="eff_team").set_value("A")  # fills A's own score and runtime
    rerun(at)
    assert at.number_input(key="eff_score").value == pytest.approx(SEG_A)
    assert at.number_input(key="eff_runtime").value == pytest.approx(100.0)
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Eligible"] == "no" and metrics["Rank"] == "2 of 3"

    at.slider(key="p_band").set_value(15.0)  # the sidebar reaches the page
    rerun(at)
    boosts = figure(at, "eff_boosts")["data"][0]
    assert dict(zip(boosts["x"], boosts["y"], strict=True)) == pytest.approx({"C": 2.5, "A": 5.0, "B": 0.0})


def test_efficiency_without_runtimes_explains(tmp_path, monkeypatch):
    monkeypatch.setenv("LAB_DATA_DIR", str(write_competition(tmp_path / "nort", runtimes=False)))
    at = app("pages/efficiency.py")
    assert "No runtimes loaded" in at.info[0].value
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Eligible"] in ("yes", "no")  # the what-if still answers


# --------------------------------------------------------------------------------------
# Exports, colours, caching
# --------------------------------------------------------------------------------------


def _leaderboard(tmp_path, names) -> pd.DataFrame:
    folder = write_competition(tmp_path / "exp", subs=dict(zip(names, [SUB_A, SUB_B, SUB_C], strict=False)))
    comp = scoring.load_competition(ground_truth=folder / "ground_truth.csv",
                                    submissions=[folder / "submissions"],
                                    demographics=folder / "demographics.csv")
    return scoring.Scorer(comp).leaderboard(attributes=("ell_status",))


def test_exports_escape_formula_cells(tmp_path):
    lb = _leaderboard(tmp_path, ["=SUM(A1)", "+plus", "@at"])
    rows = list(csv.reader(io.StringIO(ui.leaderboard_csv(lb).decode())))
    assert rows[0][:3] == ["submission", "fp1", "fp1_rank"]
    assert "ell_status=Yes" in rows[0]
    names = {r[0] for r in rows[1:]}
    assert names == {"'=SUM(A1)", "'+plus", "'@at"}
    doc = json.loads(ui.leaderboard_json(lb, {**_kw(), "alpha": math.inf}))
    assert doc["parameters"]["alpha"] == "inf"
    assert {r["submission"] for r in doc["leaderboard"]} == names
    assert set(doc["leaderboard"][0]["groups"]) == {"ell_status=No", "ell_status=Yes"}
    assert ui.escape_cell("-1+1") == "'-1+1" and ui.escape_cell("ok=1") == "ok=1" and ui.escape_cell(0.5) == 0.5


def _kw() -> dict:
    return {"w": 0.5, "quality": "iou", "threshold": 0.51, "alpha": 50.0, "attributes": ("ell_status",),
            "band": 0.05, "max_boost": 0.05, "window": 0.2, "overlap_removal": True}


def test_team_colors_are_stable_and_distinct():
    names = [f"team{i}" for i in range(30)] + ["Blue", "Red"]
    a = ui.team_colors(names)
    b = ui.team_colors(list(reversed(names)))
    assert a == b
    assert len(set(a.values())) == len(names)
    assert a["Blue"] == ui._NAMED["blue"] and a["Red"] == ui._NAMED["red"]
    assert all(c.startswith("#") and len(c) == 7 for c in a.values())


def test_slider_moves_do_not_reload_or_rebuild(core_dir, monkeypatch):
    calls = {"load": 0, "scorer": 0}
    scorers = []
    real_load, real_init = scoring.load_competition, scoring.Scorer.__init__

    def load(*a, **k):
        calls["load"] += 1
        return real_load(*a, **k)

    def init(self, *a, **k):
        calls["scorer"] += 1
        scorers.append(self)
        real_init(self, *a, **k)

    def misses() -> dict:
        return {level: info["misses"] for level, info in scorers[0].cache_info().items()}

    monkeypatch.setattr(scoring, "load_competition", load)
    monkeypatch.setattr(scoring.Scorer, "__init__", init)
    (core_dir / "runtimes.csv").write_text(RUNTIMES + "D,5\n")  # new content: a fresh cache entry
    at = app()
    assert calls["load"] == 1 and calls["scorer"] == 1
    before = misses()
    at.slider(key="p_w").set_value(0.7)
    rerun(at)
    assert stage_table(at).loc["A", "Unified segment score"] != pytest.approx(SEG_A)  # w did move it
    at.slider(key="p_window").set_value(30.0)
    rerun(at)
    at.switch_page("pages/efficiency.py")
    rerun(at)
    assert calls["load"] == 1 and calls["scorer"] == 1
    # w, the window and a page switch re-match nothing and re-sum nothing: the engine's
    # costly levels are all hits (the leaderboard itself is re-aggregated, microseconds)
    assert misses() == before
    at.slider(key="p_threshold").set_value(0.6)  # a new threshold does re-match, once
    rerun(at)
    assert misses()["match"] == before["match"] + 1


def test_an_uploaded_bundle_is_hashed_once(core_dir, monkeypatch):
    files = {"truth.csv": GT, "A.csv": SUB_A, "B.csv": SUB_B, "C.csv": SUB_C, "demo.csv": DEMO}
    uploaded = {text.encode() for text in files.values()}
    hashed = {"digest": 0, "bytes": 0}
    real_digest, real_sha256 = ui.bundle_digest, ui.hashlib.sha256

    def digest(bundle):
        hashed["digest"] += 1
        return real_digest(bundle)

    def sha256(data=b"", *a, **k):
        if isinstance(data, bytes) and data in uploaded:
            hashed["bytes"] += 1
        return real_sha256(data, *a, **k)

    monkeypatch.setattr(ui, "bundle_digest", digest)
    monkeypatch.setattr(ui.hashlib, "sha256", sha256)
    at = app("pages/data.py")
    at.file_uploader(key="data_gt").set_value(("truth.csv", GT.encode(), "text/csv"))
    at.file_uploader(key="data_subs").set_value(
        [(n, files[n].encode(), "text/csv") for n in ("A.csv", "B.csv", "C.csv")])
    at.file_uploader(key="data_demo").set_value(("demo.csv", DEMO.encode(), "text/csv"))
    rerun(at)
    at.button(key="data_load").click()
    rerun(at)
    assert "bundle" in at.session_state
    assert hashed["digest"] == 1  # on loading, once
    at.switch_page("pages/leaderboard.py")
    rerun(at)
    hashed.update(digest=0, bytes=0)
    at.slider(key="p_w").set_value(1.0)
    rerun(at)
    assert stage_table(at).loc["A", "Unified segment score"] == pytest.approx(1.0)  # the upload, w = 1
    at.switch_page("pages/demographics.py")
    rerun(at)
    at.slider(key="p_alpha").set_value(0.0)
    rerun(at)
    assert hashed == {"digest": 0, "bytes": 0}  # slider moves and page switches hash nothing


def test_heatmap_with_many_groups_puts_groups_on_rows():
    labels = [f"g{i}" for i in range(12)]
    gs = scoring.GroupScores(
        scores=pd.DataFrame({g: [0.66, 0.7351] for g in labels}, index=["X", "Y"]),
        sizes=pd.Series({g: i + 1 for i, g in enumerate(labels)}), labels=labels,
    )
    fig = ui.group_heatmap(gs, ["Y", "X"]).to_plotly_json()
    heat = fig["data"][0]
    assert list(heat["x"]) == ["Y", "X"]                       # teams across
    assert list(heat["y"])[:2] == ["g0 (n = 1)", "g1 (n = 2)"]  # a row per group, with its n
    short, attrs = ui.short_group_labels(["a=No & b=F", "a=Yes & b=M"])
    assert short == ["No · F", "Yes · M"] and attrs == ["a", "b"]
    assert len(heat["z"]) == 12 and heat["z"][0] == pytest.approx([0.7351, 0.66])
    assert heat["texttemplate"] == "%{z:.3f}"                  # always 3 decimals ("0.660")
    assert fig["layout"]["height"] >= 26 * 12
    assert fig["layout"]["xaxis"]["tickangle"] == 0
    few = ui.group_heatmap(
        scoring.GroupScores(scores=gs.scores[labels[:2]], sizes=gs.sizes[labels[:2]], labels=labels[:2]),
        ["Y", "X"]).to_plotly_json()["data"][0]
    assert list(few["y"]) == ["Y", "X"]                        # few groups: a row per team


def test_stage_table_puts_the_final_result_first_and_pins_it(core_dir):
    at = app()
    t = table_with(at, "FP1 (original)")
    assert list(t.columns[:4]) == ["Team", "Final score · rank", "Final score", "FP1 (original)"]
    cfg = ui.stage_column_config(t)
    for col in ("Team", "Final score · rank", "Final score"):
        assert cfg[col]["pinned"] is True, col
    assert cfg["Final score · rank"]["label"] == "Final rank"


def test_waterfall_follows_the_leader_until_a_team_is_picked_and_the_pick_is_in_the_url(core_dir):
    at = app()
    assert at.selectbox(key="lb_team").value == "C"            # the final leader
    at.slider(key="p_max_boost").set_value(0.0)                 # no boost: A and C still 1.0 vs 8/9
    at.slider(key="p_alpha").set_value(0.0)
    at.toggle(key="p_overlap_removal").set_value(False)         # C's copy is an FP: C 0.8 < A 8/9
    rerun(at)
    leader = stage_table(at).index[0]
    assert leader == "A" and at.selectbox(key="lb_team").value == "A"  # follows the new leader
    assert "team" not in at.query_params
    at.selectbox(key="lb_team").set_value("B")
    rerun(at)
    assert at.query_params["team"] == "B"
    at.slider(key="p_w").set_value(0.6)
    rerun(at)
    assert at.selectbox(key="lb_team").value == "B"             # an explicit pick sticks

    linked = app(query={"team": "B"})                           # a shared link
    assert linked.selectbox(key="lb_team").value == "B"
    assert figure(linked, "lb_waterfall")["data"][0]["y"][0] == pytest.approx(0.5)
    unknown = app(query={"team": "nobody"})                     # unknown: the leader, silently
    assert unknown.selectbox(key="lb_team").value == "C"
    assert not unknown.warning and "team" not in unknown.query_params


def test_overlap_removal_off_is_explained_above_the_table(core_dir):
    at = app()
    assert not any("Overlap removal is **off**" in c.value for c in at.caption)
    assert "always applies" in at.toggle(key="p_overlap_removal").help
    at.toggle(key="p_overlap_removal").set_value(False)
    rerun(at)
    assert any("Overlap removal is **off**" in c.value and "After overlap removal" in c.value
               for c in at.caption)


def test_chart_labels_bump_efficiency_and_log_runtime_axis(core_dir):
    at = app()
    bump = figure(at, "lb_bump")
    assert all("text" not in tr["mode"] for tr in bump["data"])    # the legend names the lines
    comp = scoring.load_competition(ground_truth=core_dir / "ground_truth.csv",
                                    submissions=[core_dir / "submissions"],
                                    demographics=core_dir / "demographics.csv",
                                    runtimes=core_dir / "runtimes.csv")
    lb = scoring.Scorer(comp).leaderboard(attributes=("ell_status",))
    eff = ui.efficiency_frame(lb, dict(comp.runtimes))
    colors = ui.team_colors(["A", "B", "C"])
    fig = ui.efficiency_figure(eff, colors, 0.05, 0.2).to_plotly_json()
    modes = {tr["name"]: tr["mode"] for tr in fig["data"]}
    assert modes == {"C": "markers+text", "A": "markers", "B": "markers"}  # only the eligible one
    assert fig["layout"]["xaxis"].get("type") != "log"                      # 110/10 < 50
    huge = ui.efficiency_figure(eff, colors, 0.05, 0.2, highlight={"score": 0.9, "runtime": 1e12})
    xaxis = huge.to_plotly_json()["layout"]["xaxis"]
    assert xaxis["type"] == "log" and "log scale" in xaxis["title"]["text"]


def test_one_set_of_stage_names_one_legend_order_and_efficiency_words(core_dir):
    at = app()
    bump = figure(at, "lb_bump")
    assert all(tr["x"] == ui.STAGE_NAMES for tr in bump["data"])
    assert ui.STAGE_NAMES == [w for _, _, w in ui.STAGES] and ui.STAGE_NAMES[0] in stage_table(at).columns
    assert [tr["name"] for tr in bump["data"]] == ["C", "A", "B"]         # legend by final rank
    fall = figure(at, "lb_waterfall")["data"][0]
    assert fall["x"][0] == "FP1 (original)" and fall["x"][-1] == "Final score"
    assert "After overlap removal" in fall["x"] and "Bias-aware score" in fall["x"]

    at.switch_page("pages/demographics.py").run()
    sweep = figure(at, "demo_sweep")
    assert [tr["name"] for tr in sweep["data"] if tr.get("showlegend") is not False] == ["C", "A", "B"]
    brush = json.loads(at.get("vega_lite_chart")[0].proto.spec)
    y = brush["encoding"]["y"]
    assert y["scale"]["domain"] == [0.5, 3.5] and y["scale"]["reverse"] is True  # 1 on top
    assert y["axis"]["values"] == [1, 2, 3]                                   # no rank 0
    assert brush["encoding"]["color"]["scale"]["domain"] == ["C", "A", "B"]

    at.switch_page("pages/efficiency.py").run()
    scatter = figure(at, "eff_scatter")
    assert [tr["name"] for tr in scatter["data"]] == ["C", "A", "B"]
    table = table_with(at, "Runtime (s)").set_index("Team")
    assert table.loc["C", "Eligible"] == "yes" and table.loc["A", "Eligible"] == "no"


def test_efficiency_table_shows_a_dash_for_a_missing_runtime():
    eff = pd.DataFrame({"team": ["X", "Y"], "score": [0.9, 0.8], "runtime": [12.5, float("nan")],
                        "eligible": [True, False], "boost": [0.05, 0.0], "final": [0.945, 0.8],
                        "rank": [1, 2]})
    t = ui.efficiency_table(eff).set_index("Team")
    assert t.loc["X", "Runtime (s)"] == "12.5" and t.loc["Y", "Runtime (s)"] == "—"
    assert list(t["Eligible"]) == ["yes", "no"] and t.loc["X", "Boost"] == pytest.approx(5.0)


def test_waterfall_with_overlap_removal_off_has_no_removal_step():
    lb = pd.DataFrame({"submission": ["T"], "fp1": [0.8], "overlap_removed": [0.7], "segment_score": [0.75],
                       "bias_score": [0.6], "final_score": [0.63]})
    on = ui.waterfall(lb, "T").to_dict()["data"][0]
    assert on["y"] == pytest.approx([0.8, -0.1, 0.05, -0.15, 0.03, 0.63])
    off = ui.waterfall(lb, "T", overlap_removal=False).to_dict()["data"][0]
    # removal off: the segment score is computed on the raw predictions, straight from FP1
    assert off["y"] == pytest.approx([0.8, 0.0, -0.05, -0.15, 0.03, 0.63])
    assert "(off)" in off["x"][1]


def test_reset_also_forgets_the_picked_team(core_dir):
    at = app()
    at.selectbox(key="lb_team").set_value("B")
    rerun(at)
    assert at.query_params["team"] == "B"
    at.button(key="p_reset").click()
    rerun(at)
    assert "team" not in at.query_params
    assert at.selectbox(key="lb_team").value == "C"  # the leader again


def test_alpha_controls_are_disabled_without_groups(core_dir):
    at = app()
    assert not at.slider(key="p_alpha").disabled and not at.toggle(key="p_hard_min").disabled
    at.multiselect(key="p_attributes").set_value([])
    rerun(at)
    assert at.slider(key="p_alpha").disabled and at.toggle(key="p_hard_min").disabled
