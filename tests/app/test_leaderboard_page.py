"""The Shovel-Ready Leaderboard page: the stage table, bump chart and waterfall."""

from __future__ import annotations

import json

import pandas as pd
import pytest

import scoring
from lab.charts import efficiency as eff_charts
from lab.charts import shovel_ready as charts
from lab.charts import tables
from lab.charts.colors import team_colors
from lab.families import shovel_ready as sr
from lab.view.tables import stage_column_config
from scoring.shovel_ready import STAGES
from tests.app.helpers import SEG_A, SEG_B, SR, app, figure, plain, rerun, stage_table, table_with, vega


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
    assert t.loc["C", "Final result"] == pytest.approx(1.05)  # only eligible team: full 5 %
    assert t.loc["A", "Final result"] == pytest.approx(SEG_A)
    # C: 2nd on FP1, ties A for 1st after overlap removal (▲1); A drops to 2nd on segment score.
    assert t.loc["C", "FP1 (original) · rank"] == "2"
    assert t.loc["C", "After overlap removal · rank"] == "1 ▲1"
    assert t.loc["A", "After overlap removal · rank"] == "1"
    assert t.loc["A", "Unified segment score · rank"] == "2 ▼1"
    assert t.loc["B", "Final result · rank"] == "3"
    assert t.loc["C", "Final result · Eligible"] == "yes" and t.loc["A", "Final result · Eligible"] == "no"
    labels = [b.label for b in at.get("download_button")]
    assert "Download CSV" in labels and "Download JSON" in labels


def _bump(at) -> tuple[dict, pd.DataFrame, pd.DataFrame]:
    spec, (lines, moves) = vega(at, "Rank at every stage")
    return spec, lines, moves


def _fall(at) -> pd.DataFrame:
    spec, (bars,) = vega(at, "from FP1 to the final score")
    return spec, bars


def test_bump_chart_and_waterfall(core_dir):
    at = app()
    _, lines, moves = _bump(at)
    ranks = {t: part["rank"].tolist() for t, part in lines.groupby("team")}
    assert ranks["C"] == [2, 1, 1, 1, 1]
    assert ranks["A"] == [1, 1, 2, 2, 2]
    assert ranks["B"] == [3, 3, 3, 3, 3]
    # the biggest move into each stage is named: C gains a place at overlap removal (2 -> 1), A
    # loses one at the segment score (1 -> 2); nobody moves at the last two stages
    assert moves.to_dict("records") == [{"stage": "After overlap removal", "rank": 1, "text": "C ▲1"},
                                        {"stage": "Unified segment score", "rank": 2, "text": "A ▼1"}]

    spec, bars = _fall(at)  # the first team by default: C
    assert spec["title"] == "C: from FP1 to the final score"
    assert bars["value"].tolist() == pytest.approx([0.8, 0.2, 0.0, 0.0, 0.05, 1.05])
    assert bars["relative"].tolist() == [False, True, True, True, True, False]
    at.selectbox(key="lb_team").set_value("B")
    rerun(at)
    _, bars = _fall(at)
    assert bars["value"].tolist()[:3] == pytest.approx([0.5, 0.0, SEG_B - 0.5])


def test_stage_table_groups_columns_by_stage_with_the_final_result_first_in_full(core_dir):
    at = app()
    t = next(d.value for d in at.dataframe if isinstance(d.value.columns, pd.MultiIndex))
    assert list(t.columns) == [
        ("", "Team"), ("Final result", "Rank"), ("Final result", "Score"), ("Final result", "Boost"),
        ("Final result", "Eligible"), tables.PATH, ("FP1 (original)", "Score"), ("FP1 (original)", "Rank"),
        ("After overlap removal", "Score"), ("After overlap removal", "Rank"),
        ("Unified segment score", "Score"), ("Unified segment score", "Rank"),
        ("Bias-aware score", "Score"), ("Bias-aware score", "Rank")]
    # the compact column says every stage's rank in order, as the stages' own columns do
    for _, row in t.iterrows():
        ranks = [str(row[(s.label, "Rank")]).split(" ")[0] for s in STAGES[:-1]] + [row[("Final result", "Rank")].split(" ")[0]]
        assert row[tables.PATH] == " → ".join(ranks)
    cfg = stage_column_config(t, STAGES, sr.EXTRA_CONFIG)  # by position; 0 is the hidden index
    assert cfg[1]["pinned"] is True                               # the team stays in view
    assert all(not cfg[i].get("pinned") for i in range(2, 6))     # the answer is never drawn faded
    assert cfg[3]["type_config"]["format"] == "%.4f" and "Final score" in cfg[3]["help"]
    assert cfg[6] is None and cfg[8]["help"].startswith("Rank on “FP1 (original)”")  # every score: no path
    compact = stage_column_config(t, STAGES, sr.EXTRA_CONFIG, every_score=False)
    assert all(compact[i] is None for i in range(7, 15)) and compact[6]["help"].startswith("The team's rank at each")
    assert all(compact[i] is not None for i in range(1, 7))


def test_waterfall_follows_the_leader_until_a_team_is_picked_and_the_pick_is_in_the_url(core_dir):
    at = app()
    assert at.selectbox(key="lb_team").value == "C"            # the final leader
    at.slider(key="sr_max_boost").set_value(0.0)                 # no boost: A and C still 1.0 vs 8/9
    at.slider(key="sr_alpha").set_value(0.0)
    at.toggle(key="sr_overlap_removal").set_value(False)         # C's copy is an FP: C 0.8 < A 8/9
    rerun(at)
    leader = stage_table(at).index[0]
    assert leader == "A" and at.selectbox(key="lb_team").value == "A"  # follows the new leader
    assert "team" not in at.query_params
    at.selectbox(key="lb_team").set_value("B")
    rerun(at)
    assert at.query_params["team"] == "B"
    at.slider(key="sr_w").set_value(0.6)
    rerun(at)
    assert at.selectbox(key="lb_team").value == "B"             # an explicit pick sticks

    linked = app(query={"team": "B"})                           # a shared link
    assert linked.selectbox(key="lb_team").value == "B"
    assert _fall(linked)[1]["value"].iloc[0] == pytest.approx(0.5)
    unknown = app(query={"team": "nobody"})                     # unknown: the leader, silently
    assert unknown.selectbox(key="lb_team").value == "C"
    assert not any("nobody" in w.value for w in unknown.warning) and "team" not in unknown.query_params


def test_overlap_removal_off_is_explained_above_the_table(core_dir):
    at = app()
    assert not any("Overlap removal is **off**" in c.value for c in at.caption)
    assert "always applies" in at.toggle(key="sr_overlap_removal").help
    at.toggle(key="sr_overlap_removal").set_value(False)
    rerun(at)
    assert any("Overlap removal is **off**" in c.value and "After overlap removal" in c.value
               for c in at.caption)


def test_chart_labels_bump_efficiency_and_log_runtime_axis(core_dir):
    at = app()
    spec, _, _ = _bump(at)
    assert spec["layer"][0]["encoding"]["color"]["title"] == "Team"  # the legend names the lines
    comp = scoring.load_competition(ground_truth=core_dir / "ground_truth.csv",
                                    submissions=[core_dir / "submissions"],
                                    demographics=core_dir / "demographics.csv",
                                    runtimes=core_dir / "runtimes.csv")
    lb = scoring.Scorer(comp).leaderboard(attributes=("ell_status",))
    eff = eff_charts.efficiency_frame(lb, dict(comp.runtimes))
    colors = team_colors(["A", "B", "C"])
    fig = eff_charts.efficiency_figure(eff, colors, 0.05, 0.2).to_plotly_json()
    modes = {tr["name"]: tr["mode"] for tr in fig["data"]}
    assert modes == {"C": "markers+text", "A": "markers", "B": "markers"}  # only the eligible one
    assert fig["layout"]["xaxis"].get("type") != "log"                      # 110/10 < 50
    res = scoring.what_if(dict(zip(eff["team"], eff["score"], strict=True)), dict(comp.runtimes), "What-if", 0.9, 1e12)
    huge = eff_charts.efficiency_figure(eff, colors, 0.05, 0.2, what_if=res)
    xaxis = huge.to_plotly_json()["layout"]["xaxis"]
    assert xaxis["type"] == "log" and "log scale" in xaxis["title"]["text"]
    # ticks at 1, 2, 5 … of every decade (or every decade when they span many), labelled in seconds
    assert xaxis["tickvals"][:2] == [10.0, 100.0] and xaxis["ticktext"][:2] == ["10 s", "100 s"]


def test_one_set_of_stage_names_one_legend_order_and_efficiency_words(core_dir):
    at = app()
    spec, lines, _ = _bump(at)
    assert lines["stage"].unique().tolist() == charts.STAGE_NAMES
    assert charts.STAGE_NAMES == [s.label for s in STAGES] and charts.STAGE_NAMES[0] in stage_table(at).columns
    color = spec["layer"][0]["encoding"]["color"]
    assert color["sort"] == ["C", "A", "B"] and color["scale"]["domain"] == ["C", "A", "B"]  # legend by final rank
    assert color["scale"]["range"] == [team_colors(["A", "B", "C"])[t] for t in "CAB"]
    _, bars = _fall(at)
    assert bars["step"].iloc[0] == "FP1 (original)" and bars["step"].iloc[-1] == "Final score"
    assert "After overlap removal" in bars["step"].tolist() and "Bias-aware score" in bars["step"].tolist()

    at.switch_page(SR + "demographics.py").run()
    sweep = figure(at, "demo_sweep")
    assert [tr["name"] for tr in sweep["data"]] == ["C", "A", "B"]
    brush = json.loads(at.get("vega_lite_chart")[0].proto.spec)
    y = brush["encoding"]["y"]
    assert y["scale"]["domain"] == [0.5, 3.5] and y["scale"]["reverse"] is True  # 1 on top
    assert y["axis"]["values"] == [1, 2, 3]                                   # no rank 0
    assert brush["encoding"]["color"]["scale"]["domain"] == ["C", "A", "B"]

    at.switch_page(SR + "efficiency.py").run()
    scatter = figure(at, "eff_scatter")
    assert [tr["name"] for tr in scatter["data"]] == ["C", "A", "B"]
    table = table_with(at, "Runtime (s)").set_index("Team")
    assert table.loc["C", "Eligible"] == "yes" and table.loc["A", "Eligible"] == "no"


def test_waterfall_with_overlap_removal_off_has_no_removal_step():
    lb = pd.DataFrame({"submission": ["T"], "fp1": [0.8], "overlap_removed": [0.7], "segment_score": [0.75],
                       "bias_score": [0.6], "final_score": [0.63]})
    on = charts.waterfall_steps(lb, "T")
    assert [v for _, v, _ in on] == pytest.approx([0.8, -0.1, 0.05, -0.15, 0.03, 0.63])
    off = charts.waterfall_steps(lb, "T", overlap_removal=False)
    # removal off: the segment score is computed on the raw predictions, straight from FP1
    assert [v for _, v, _ in off] == pytest.approx([0.8, 0.0, -0.05, -0.15, 0.03, 0.63])
    assert "(off)" in off[1][0]


def test_reset_also_forgets_the_picked_team(core_dir):
    at = app()
    at.selectbox(key="lb_team").set_value("B")
    rerun(at)
    assert at.query_params["team"] == "B"
    at.button(key="sr_reset").click()
    rerun(at)
    assert "team" not in at.query_params
    assert at.selectbox(key="lb_team").value == "C"  # the leader again


def test_with_overlap_removal_off_the_takeaway_ignores_the_reference_column(sample):
    """Overlap removal off: double-dippers (1st on FP1) stays ahead at every stage that is
    applied; the "after overlap removal" column (7th there, for reference) must not make the
    takeaway say a later stage "lifts it past" anyone."""
    at = app(query={"overlap_removal": "false"})
    take = plain(next(i.value for i in at.info if "wins" in i.value))
    assert take.startswith("**double-dippers** wins, 1st at every stage"), take
    assert stage_table(at).loc["double-dippers", "After overlap removal · rank"].startswith("7")
