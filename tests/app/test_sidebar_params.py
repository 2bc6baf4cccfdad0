"""The sidebar built from the family's ParamSpec: every control, links, presets and reset."""

from __future__ import annotations

import math

import pytest
from streamlit.testing.v1 import AppTest

from lab.view import state
from scoring.shovel_ready import FAMILY as FAM
from tests.app.helpers import GROUP_B_YES, SEG_A, SEG_B, TIMEOUT, app, rerun, stage_table

APPLY_SCRIPT = """
import streamlit as st
from lab.view import current, sidebar, state
from scoring.shovel_ready import FAMILY as fam
entry = current.entry(fam)
sidebar.draw(fam, entry.comp, entry.digest)
if st.button("apply", key="t_apply"):
    try:
        state.apply(fam, st.session_state.get("t_preset", {}), fam.context(entry.comp))
    except ValueError as err:
        st.error(str(err))
st.write("w=" + str(current.params(fam)["w"]) + " alpha=" + str(current.params(fam)["alpha"]))
"""


def test_w_quality_threshold_and_overlap_removal(core_dir):
    at = app()
    at.slider(key="sr_w").set_value(1.0)
    t = stage_table(rerun(at))
    assert t.loc["A", "Unified segment score"] == pytest.approx(1.0)          # TP_P = q = 1
    assert t.loc["B", "Unified segment score"] == pytest.approx(0.8 / 1.4)    # TP_P = IoU 0.8
    assert t.loc["A", "FP1 (original)"] == pytest.approx(1.0)                 # FP1 does not move

    at.slider(key="sr_w").set_value(0.5)
    at.selectbox(key="sr_quality").set_value("max")
    t = stage_table(rerun(at))
    assert t.loc["B", "Unified segment score"] == pytest.approx(1 / 1.5)      # q = max(1, 0.8)

    at.selectbox(key="sr_quality").set_value("iou")
    at.slider(key="sr_threshold").set_value(0.85)                               # o_G = 0.8 < 0.85
    t = stage_table(rerun(at))
    assert t.loc["B", "Unified segment score"] == pytest.approx(0.0)

    at.slider(key="sr_threshold").set_value(0.51)
    at.toggle(key="sr_overlap_removal").set_value(False)
    t = stage_table(rerun(at))
    assert t.loc["C", "Unified segment score"] == pytest.approx(0.8)          # the copy is an FP
    assert t.loc["C", "After overlap removal"] == pytest.approx(1.0)          # stage 2 always removes


def test_alpha_hard_min_and_attributes(core_dir):
    at = app()
    at.slider(key="sr_alpha").set_value(0.0)
    t = stage_table(rerun(at))
    assert t.loc["B", "Bias-aware score"] == pytest.approx(GROUP_B_YES / 2)   # plain mean, n = 1 + 1
    assert t.loc["A", "Bias-aware score"] == pytest.approx(SEG_A)
    at.toggle(key="sr_alpha_inf").set_value(True)
    t = stage_table(rerun(at))
    assert t.loc["B", "Bias-aware score"] == pytest.approx(0.0)               # its worst group
    assert at.slider(key="sr_alpha").disabled
    at.toggle(key="sr_alpha_inf").set_value(False)
    at.multiselect(key="sr_attributes").set_value([])
    t = stage_table(rerun(at))
    assert t.loc["B", "Bias-aware score"] == pytest.approx(SEG_B)             # no groups: = segment


def test_boost_band_window_and_max(core_dir):
    at = app()
    at.slider(key="sr_max_boost").set_value(10.0)
    t = stage_table(rerun(at))
    assert t.loc["C", "Final result"] == pytest.approx(1.10)
    at.slider(key="sr_max_boost").set_value(5.0)
    at.slider(key="sr_band").set_value(15.0)  # 1/1.15 = 0.8696 < 8/9: A becomes eligible
    t = stage_table(rerun(at))
    assert t.loc["A", "Final result"] == pytest.approx(SEG_A * 1.05)           # A is the fastest (100 s)
    assert t.loc["C", "Final result"] == pytest.approx(1.025)                  # 110/100 = 1.1: half
    at.slider(key="sr_window").set_value(50.0)
    t = stage_table(rerun(at))
    assert t.loc["C", "Final result"] == pytest.approx(1.04)                   # 0.05·(1 − 0.1/0.5)


def test_query_string_sets_the_view_and_follows_the_widgets(core_dir):
    at = app(query={"w": "1", "quality": "max", "alpha": "inf", "band": "0.15",
                    "overlap_removal": "false", "attributes": ""})
    assert at.slider(key="sr_w").value == pytest.approx(1.0)
    assert at.selectbox(key="sr_quality").value == "max"
    assert at.toggle(key="sr_alpha_inf").value is True
    assert at.slider(key="sr_band").value == pytest.approx(15.0)
    assert at.toggle(key="sr_overlap_removal").value is False
    assert at.multiselect(key="sr_attributes").value == []
    t = stage_table(at)
    # w = 1, max quality: B's one pair scores q = max(1, 0.8) = 1; e2 unmatched -> 1/(1 + 0.5).
    assert t.loc["B", "Unified segment score"] == pytest.approx(2 / 3)
    assert at.query_params["w"] == "1"
    at.multiselect(key="sr_attributes").set_value(["ell_status"])  # α needs groups to act on
    rerun(at)
    at.toggle(key="sr_alpha_inf").set_value(False)
    rerun(at)
    at.slider(key="sr_alpha").set_value(80.0)
    rerun(at)
    assert at.query_params["alpha"] == "80"
    assert at.query_params["quality"] == "max"


def test_bad_query_values_fall_back_with_a_warning(core_dir):
    at = app(query={"w": "abc", "threshold": "1.2", "quality": "huge", "window": "0.3"})
    assert at.slider(key="sr_w").value == pytest.approx(0.5)
    assert at.slider(key="sr_threshold").value == pytest.approx(0.51)  # 1.2 is outside the range (0, 1]
    assert at.selectbox(key="sr_quality").value == "iou"
    assert at.slider(key="sr_window").value == pytest.approx(30.0)  # the good one is kept
    text = " ".join(w.value for w in at.warning)
    assert "'w'" in text and "'threshold'" in text and "'quality'" in text


def test_a_link_value_of_the_range_beyond_the_slider_widens_it_and_says_so(core_dir):
    """One range per parameter (issue 39): the command line takes threshold 0.2 (range (0, 1]),
    so a link does too — the slider (0.5–0.95) widens to hold it, and a note says so."""
    at = app(query={"threshold": "0.2", "alpha": "500"})
    assert not at.exception, [e.value for e in at.exception]
    assert at.slider(key="sr_threshold").value == pytest.approx(0.2)
    assert at.slider(key="sr_threshold").min == pytest.approx(0.2)
    assert at.slider(key="sr_alpha").value == pytest.approx(500.0) and at.slider(key="sr_alpha").max == 500
    notes = " ".join(c.value for c in at.sidebar.caption)
    assert "widened to hold 0.2" in notes and "usual range is 0.5–0.95" in notes and "widened to hold 500" in notes
    assert at.query_params["threshold"] == "0.2" and not at.sidebar.warning


def test_reset_button_restores_memo_defaults(core_dir):
    at = app()
    at.slider(key="sr_w").set_value(0.2)
    at.slider(key="sr_alpha").set_value(120.0)
    at.slider(key="sr_band").set_value(12.0)
    at.multiselect(key="sr_attributes").set_value([])
    at.toggle(key="sr_overlap_removal").set_value(False)
    rerun(at)
    assert at.query_params["w"] == "0.2"
    at.button(key="sr_reset").click()
    rerun(at)
    assert at.slider(key="sr_w").value == pytest.approx(0.5)
    assert at.slider(key="sr_alpha").value == pytest.approx(50.0)
    assert at.slider(key="sr_band").value == pytest.approx(5.0)
    assert at.multiselect(key="sr_attributes").value == ["ell_status"]
    assert at.toggle(key="sr_overlap_removal").value is True
    assert at.query_params["w"] == "0.5" and at.query_params["band"] == "0.05"
    assert stage_table(at).loc["C", "Final result"] == pytest.approx(1.05)


def test_apply_params_from_a_page_body(core_dir):
    at = AppTest.from_string(APPLY_SCRIPT, default_timeout=TIMEOUT).run()
    at.session_state["t_preset"] = {"w": 0.25, "alpha": "inf", "quality": "binary"}
    at.button(key="t_apply").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.slider(key="sr_w").value == pytest.approx(0.25)
    assert at.toggle(key="sr_alpha_inf").value is True
    assert at.query_params["quality"] == "binary"
    assert any("w=0.25 alpha=inf" in m.value for m in at.markdown)
    at.session_state["t_preset"] = {"w": 2}
    at.button(key="t_apply").click().run()
    assert "'w'" in at.error[0].value
    assert at.slider(key="sr_w").value == pytest.approx(0.25)


def test_validate_values_names_the_bad_key():
    ctx = {"attributes": ["ell_status", "gender"]}
    assert state.check(FAM, {}, ctx) == state.defaults(FAM, ctx)
    assert state.defaults(FAM, ctx)["attributes"] == ("ell_status",)
    assert state.check(FAM, {"alpha": "inf"}, ctx)["alpha"] == math.inf
    assert state.check(FAM, {"hard_min": True}, ctx)["alpha"] == math.inf  # an older preset's word
    assert state.check(FAM, {"attributes": ["gender"]}, ctx)["attributes"] == ("gender",)
    for bad, word in [({"speed": 1}, "'speed'"), ({"w": 1.5}, "'w'"), ({"w": "x"}, "'w'"),
                      ({"threshold": 1.4}, "'threshold'"), ({"quality": "f1"}, "'quality'"),
                      ({"alpha": -1}, "'alpha'"), ({"band": -0.5}, "'band'"),
                      ({"window": 0.0}, "'window'"), ({"overlap_removal": "maybe"}, "'overlap_removal'"),
                      ({"attributes": ["race"]}, "'race'"), ({"max_boost": True}, "'max_boost'")]:
        with pytest.raises(ValueError, match=word):
            state.check(FAM, bad, ctx)
    assert state.defaults(FAM, {"attributes": []})["attributes"] == ()  # no ell_status column: none
    # one range per parameter: values the command line takes beyond the sliders are taken (issue 39)
    assert state.check(FAM, {"threshold": 0.4, "band": 0.5}, ctx)["band"] == 0.5

def test_alpha_controls_are_disabled_without_groups(core_dir):
    at = app()
    assert not at.slider(key="sr_alpha").disabled and not at.toggle(key="sr_alpha_inf").disabled
    at.multiselect(key="sr_attributes").set_value([])
    rerun(at)
    assert at.slider(key="sr_alpha").disabled and at.toggle(key="sr_alpha_inf").disabled


def test_values_survive_a_visit_to_another_familys_pages(core_dir):
    # Streamlit forgets a widget's value in a run that does not draw it; the sidebar keeps a copy
    at = app()
    at.slider(key="sr_w").set_value(0.9)
    at.toggle(key="sr_overlap_removal").set_value(False)
    rerun(at)
    at.switch_page("pages/qa_leaderboard.py")
    rerun(at)
    at.switch_page("pages/leaderboard.py")
    rerun(at)
    assert at.slider(key="sr_w").value == pytest.approx(0.9)
    assert at.toggle(key="sr_overlap_removal").value is False


def test_a_threshold_change_shows_a_progress_bar_counting_the_files(core_dir, monkeypatch):
    """A threshold change re-matches every submission: a bar counts the files while it does
    (three here, with the size floor lowered from 50 to 1), and is gone afterwards. A slider
    that only re-aggregates (w) shows no bar at all."""
    from lab.data import progress as bars
    from lab.view import current

    seen: list = []

    class Bar:
        def progress(self, value, text=""):
            seen.append((round(value, 3), text))

        def empty(self):
            seen.append("empty")

    monkeypatch.setattr(current, "REMATCH_BAR_MIN", 1)
    monkeypatch.setattr(bars, "_bar", lambda text: (seen.append(("new", text)), Bar())[1])
    at = app()
    seen.clear()
    at.slider(key="sr_w").set_value(0.9)
    rerun(at)
    assert seen == []  # w moves only the aggregation: nothing re-matched, no bar
    at.slider(key="sr_threshold").set_value(0.7)
    rerun(at)
    assert seen[0] == ("new", "Re-matching 3 submissions…")
    fractions = [s[0] for s in seen[1:-1]]
    assert fractions[0] == 0 and fractions[-1] == 1 and fractions == sorted(fractions)
    assert any("(1/3)" in s[1] or "(2/3)" in s[1] for s in seen[1:-1])
    assert seen[-1] == "empty"
    assert stage_table(at).loc["A", "Unified segment score"] > 0  # and the table is there
