"""Issue 12, items 3, 6, 7 and 8 in the app: the small-group warning naming the group and the
exclusion switch (sidebar, link, preset); every validation problem of a bundle at once; charts
scaled to what they show; many groups as rows."""

from __future__ import annotations

import json
import re

import pandas as pd
import pytest

import scoring
from lab.charts import efficiency as eff_charts
from lab.charts import segments as seg_charts
from lab.charts.common import waterfall_bars, waterfall_domain
from lab.view import state, tables
from scoring.core.validate import MAX_ERRORS
from scoring.shovel_ready import FAMILY
from tests.app.helpers import DATA, SR, app, error_report, open_page, plain, rerun, stage_table, upload
from tests.shovel_ready import smallgroup
from tests.shovel_ready.tiny import TINY_ALPHA, TINY_BETA, TINY_GT


@pytest.fixture
def small_dir(tmp_path, monkeypatch):
    for rel, text in smallgroup.files().items():
        (tmp_path / "small" / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "small" / rel).write_text(text)
    monkeypatch.setenv("LAB_DATA_DIR", str(tmp_path / "small"))
    return tmp_path / "small"


def test_a_two_essay_group_deciding_the_winner_is_named_and_can_be_left_out(small_dir):
    at = app()
    assert list(stage_table(at).index) == ["steady", "gambler"]  # smallgroup.py: 18/19 against ≈ 0
    (warning,) = [plain(w.value) for w in at.warning if "Fragile result" in w.value]
    assert "ell_status=(missing) has only 2 essays" in warning and "100% of the softmin weight" in warning
    assert "gambler" in warning
    at.toggle(key="sr_exclude_missing").set_value(True)
    rerun(at)
    t = stage_table(at)
    assert list(t.index) == ["gambler", "steady"]  # 1.0 on both groups of 30
    assert t.loc["gambler", "Bias-aware score"] == pytest.approx(1.0)
    assert t.loc["gambler", "Unified segment score"] == pytest.approx(smallgroup.GAMBLER_SEGMENT)
    assert not any("Fragile result" in w.value for w in at.warning)
    assert at.query_params["exclude_missing"] == "true"
    assert state.preset(FAMILY)["exclude_missing"] is True or at.session_state["sr_exclude_missing"] is True
    at.switch_page(SR + "demographics.py").run()
    assert any("2 essays without demographics for ell_status are left out" in plain(c.value) for c in at.caption)


def test_the_exclusion_comes_from_a_link_and_a_preset(small_dir):
    at = app(query={"exclude_missing": "true"})
    assert at.toggle(key="sr_exclude_missing").value is True
    assert list(stage_table(at).index) == ["gambler", "steady"]
    assert state.check(FAMILY, {"exclude_missing": True}, {"attributes": ["ell_status"]})["exclude_missing"] is True


def test_the_exclusion_switch_is_off_without_demographics(core_dir):
    at = app(query={"attributes": ""})
    assert at.toggle(key="sr_exclude_missing").disabled


def _bad_bundle() -> dict:
    gt = TINY_GT.replace("e2,Claim,0 1 2 3 4 5,Effective", "e2,Claim,0 1 2 3 4 x5,Effective")
    alpha = TINY_ALPHA.replace("e1,Claim,4 5 6 7 8 9,0.3,0.7", "e1,Claim,4 5 6 7 8 9,1.5,0.7") \
        .replace("e2,Claim,0 1 2 3 4 5,0.5,0.5", "e2,Claim,0 1 2 3 4 5,0.25,0.25")
    beta = TINY_BETA.replace("e1,Lead,0 1 2 3 4 5,1.0,0.0", "e1,Lead,0 1 2 3 4 5,one,0.0")
    return {"gt": gt, "subs": {"Alpha": alpha, "Beta": beta}, "rt": "submission,runtime\nAlpha,-3\nBeta,45\n"}


def test_every_problem_of_a_bundle_at_once_with_its_column_and_value(tiny):
    at = open_page(DATA)
    b = _bad_bundle()
    upload(at, b["gt"], b["subs"], rt=b["rt"])
    errors = error_report(at).set_index(["File", "Row"])
    # one per bad cell, in file order: the ground truth's token (row 5), Alpha's probability (row 3) and
    # its sum (row 5: 0.25 + 0.25), Beta's 'one' (row 2), the runtime -3 (row 2)
    assert list(errors.index) == [("truth.csv", "5"), ("Alpha.csv", "3"), ("Alpha.csv", "5"), ("Beta.csv", "2"),
                                  ("rt.csv", "2")]
    assert errors.loc[("truth.csv", "5"), "Column"] == "predictionstring"
    assert errors.loc[("Alpha.csv", "5"), "Column"] == "Effective, Ineffective"
    assert errors.loc[("Beta.csv", "2"), "Column"] == "Effective"
    values = [c.value for c in at.code]
    assert "0 1 2 3 4 x5" in values and "1.5" in values and "0.25, 0.25" in values and "one" in values
    assert any("The files have 5 problems" in e.value for e in at.error)
    assert "_sr_data" not in at.session_state  # nothing loaded


def test_a_long_list_of_problems_stops_at_the_cap_and_says_so(tiny):
    at = open_page(DATA)
    rows = "".join(f"e1,Claim,{i} {i + 1},0.7,0.7\n" for i in range(40))  # 40 rows that sum to 1.4
    upload(at, TINY_GT, {f"S{k}": "id,class,predictionstring,Effective,Ineffective\n" + rows for k in range(4)})
    report = error_report(at)
    # problems of one kind are told once, with their count (lab/words/problems.py): 25 in all, of fewer kinds
    counts = [int(m.group(1)) if (m := re.match(r"(\d+) problems of this kind", p)) else 1 for p in report["Problem"]]
    assert sum(counts) == MAX_ERRORS and len(report) < MAX_ERRORS
    assert any(f"checking stopped at {MAX_ERRORS}" in e.value for e in at.error)


def test_the_whole_offending_value_is_shown_even_when_the_message_shortens_it(tiny):
    at = open_page(DATA)
    long_token = "1" * 12 + "abc" + "2" * 40
    alpha = TINY_ALPHA.replace("e2,Claim,0 1 2 3 4 5,", f"e2,Claim,0 1 {long_token},")
    upload(at, TINY_GT, {"Alpha": alpha, "Beta": TINY_BETA})
    problem = error_report(at).iloc[0]["Problem"]
    assert long_token not in problem  # the message quotes 20 characters
    assert f"0 1 {long_token}" in [c.value for c in at.code]


def test_waterfall_axis_is_scaled_to_the_steps():
    steps = [("FP1", 0.8, "absolute"), ("removal", -0.0006, "relative"), ("segment", -0.05, "relative"),
             ("boost", 0.02, "relative"), ("final", 0.7694, "total")]
    bars = waterfall_bars(steps)
    assert bars["start"].tolist() == pytest.approx([0.0, 0.8, 0.7994, 0.7494, 0.0])
    assert bars["end"].tolist() == pytest.approx([0.8, 0.7994, 0.7494, 0.7694, 0.7694])
    lo, hi = waterfall_domain(bars)
    # the levels run from 0.7494 to 0.8 (span 0.0506); 35 % of it on each side, never down to 0
    assert (lo, hi) == pytest.approx((0.7494 - 0.01771, 0.8 + 0.01771))
    assert 0.0006 / (hi - lo) > 0.006  # the small step is over half a percent of the axis, not 0.06 %


def test_efficiency_chart_zooms_to_the_eligible_teams_with_readable_ticks():
    eff = pd.DataFrame({"team": ["fast", "slow", "weak"], "score": [0.70, 0.72, 0.30], "runtime": [1700., 8600., 38.],
                        "eligible": [True, True, False], "boost": [0.05, 0.0, 0.0], "final": [0.735, 0.72, 0.3],
                        "rank": [1, 2, 3]})
    full = eff_charts.efficiency_figure(eff, {}, 0.05, 0.2).to_plotly_json()["layout"]
    assert full["xaxis"]["type"] == "log" and full["xaxis"]["tickvals"] == [
        50.0, 100.0, 200.0, 500.0, 1000.0, 2000.0, 5000.0, 10000.0]  # 1-2-5 within 38/1.5 = 25.3 .. 8600·1.5
    assert full["xaxis"]["ticktext"][:2] == ["50 s", "100 s"] and full["xaxis"]["ticktext"][-1] == "10,000 s"
    zoomed = eff_charts.efficiency_figure(eff, {}, 0.05, 0.2, zoom=True).to_plotly_json()["layout"]
    assert zoomed["xaxis"].get("type") != "log"  # 1700 .. 8600 (and the window's 2040): linear
    y0, y1 = zoomed["yaxis"]["range"]
    assert y0 > 0.30 and y0 < 0.72 / 1.05 and y1 > 0.72  # the band in view, the weak team out of it
    window = [a["text"] for a in zoomed["annotations"] if "boost window" in a["text"]]
    assert window == ["boost window 1,700 s–2,040 s"]
    # a what-if on a team's spot is drawn last (on top), larger, with a rim and its label above
    res = scoring.what_if(dict(zip(eff["team"], eff["score"], strict=True)),
                          dict(zip(eff["team"], eff["runtime"], strict=True)), "New", 0.70, 1700.0)
    fig = eff_charts.efficiency_figure(eff, {}, 0.05, 0.2, what_if=res).to_plotly_json()
    star, fast = fig["data"][-1], next(tr for tr in fig["data"] if tr["name"] == "fast")
    assert star["name"] == "What-if" and star["marker"]["size"] > fast["marker"]["size"]
    assert star["marker"]["line"]["color"] == "white" and star["textposition"] == "top center"


def test_boost_curve_by_hand():
    xs, ys = eff_charts.boost_curve(1710.0, 0.05, 0.2, 9000.0)
    assert xs == pytest.approx([0.0, 1710.0, 2052.0, 9000.0]) and ys == [5.0, 5.0, 0.0, 0.0]


def test_segment_words_are_never_cut():
    words = ["a", "internationalization,", "b"] + ["word"] * 60
    layout = seg_charts.word_layout(words)
    for w, (_, x0, x1) in zip(words, layout, strict=True):
        assert x1 - x0 >= len(w) * seg_charts.CHAR_PX  # each box holds its whole word
        assert x1 <= seg_charts.LINE_WIDTH or x0 == 0.0
    assert max(line for line, _, _ in layout) >= 1  # it wraps


def test_many_groups_go_in_rows():
    labels = [f"a={i} & b=x" for i in range(13)]
    values = pd.DataFrame([[0.1] * 13, [0.2] * 13], index=["T1", "T2"], columns=labels)
    table, cfg = tables.team_group_table(values, "%.1f %%")
    assert list(table.columns) == ["Group (a · b)", "T1", "T2"] and table.iloc[0, 0] == "0 · x"
    assert cfg["Group (a · b)"]["pinned"] is True
    few, _ = tables.team_group_table(values[labels[:2]], "%.1f %%")
    assert list(few.columns) == ["Team", "a=0 & b=x", "a=1 & b=x"]


def test_many_groups_on_the_demographics_page(sample):
    at = app(SR + "demographics.py", query={"attributes": ["gender", "race_ethnicity"]})
    betas = next(d.value for d in at.dataframe if str(d.value.columns[0]).startswith("Group ("))
    assert len(betas) == 13 and str(betas.columns[0]) == "Group (gender · race_ethnicity)"  # a row per group
    sums = betas.drop(columns=betas.columns[0]).sum()
    assert sums.to_numpy() == pytest.approx(100.0)  # each team's β add up to 100 % down its column
    assert any("13 groups" in plain(w.value) for w in at.warning)
    assert any("α from 0.0 to 200.0" in c.value for c in at.caption)


def test_preset_includes_the_exclusion():
    doc = json.loads(json.dumps(FAMILY.params.to_json(FAMILY.params.defaults())))
    assert doc["exclude_missing"] is False


def test_overlap_removal_bar_labels_are_never_shrunk():
    from scoring.shovel_ready import memo, remove_overlaps

    after = remove_overlaps([range(a, b + 1) for a, b in memo.OVERLAP_SEGMENTS.values()])
    fig = seg_charts.overlap_removal_figure(memo.OVERLAP_SEGMENTS, after).to_plotly_json()
    assert fig["layout"]["uniformtext"] == {"minsize": 11, "mode": "show"}  # not Plotly's fit-to-bar shrinking
    assert all(tr["textfont"]["size"] >= 11 for tr in fig["data"])


def test_the_worked_examples_page_carries_no_warning_about_the_loaded_data(small_dir):
    """The memo's examples do not depend on the loaded data: the fragile-result warning that the
    Leaderboard shows for this data is not repeated there."""
    at = app()
    assert any("Fragile result" in w.value for w in at.warning)
    at.switch_page(SR + "worked_examples.py").run()
    assert not at.exception
    assert not any("Fragile result" in w.value for w in at.warning)
