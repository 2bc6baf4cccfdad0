"""The Demographics page: heatmap, β, the α sweep and brush."""

from __future__ import annotations

import pandas as pd
import pytest

import scoring
from lab.charts import shovel_ready as charts
from tests.app.helpers import GROUP_B_YES, SEG_A, SR, app, figure, rerun, table_with, write_competition


def test_demographics_heatmap_betas_and_sweep(core_dir):
    at = app(SR + "demographics.py")
    heat = figure(at, "demo_heatmap")["data"][0]
    assert heat["y"] == ["C", "A", "B"]
    cols = [x.split("<br>")[0] for x in heat["x"]]
    assert sorted(cols) == ["ell_status=No", "ell_status=Yes"]
    z = dict(zip(cols, zip(*heat["z"], strict=True), strict=True))
    assert z["ell_status=Yes"] == pytest.approx((1.0, SEG_A, GROUP_B_YES))
    assert z["ell_status=No"] == pytest.approx((1.0, SEG_A, 0.0))
    assert all("n = 1" in x for x in heat["x"])
    # one essay per group: resampling a group always draws that essay, so each interval is the score itself
    assert "95 % interval [%{customdata[0]:.3f}, %{customdata[1]:.3f}]" in heat["hovertemplate"]
    for zrow, crow in zip(heat["z"], heat["customdata"], strict=True):
        assert [c[0] for c in crow] == pytest.approx(list(zrow)) and [c[1] for c in crow] == pytest.approx(list(zrow))

    betas = table_with(at, "ell_status=No").set_index("Team")
    assert betas.loc["A", "ell_status=Yes"] == pytest.approx(50.0)  # equal scores: by size
    assert betas.loc["B", "ell_status=No"] == pytest.approx(100.0, abs=1e-6)

    sweep = figure(at, "demo_sweep")
    assert {s["x0"] for s in sweep["layout"]["shapes"]} == {50.0}
    assert [tr["name"] for tr in sweep["data"]] == ["C", "A", "B"]  # the score only: the rank is the brush chart
    b_score = next(tr for tr in sweep["data"] if tr["name"] == "B")
    assert b_score["x"][0] == 0.0 and b_score["y"][0] == pytest.approx(GROUP_B_YES / 2)

    at.slider(key="sr_alpha").set_value(0.0)
    rerun(at)
    assert {s["x0"] for s in figure(at, "demo_sweep")["layout"]["shapes"]} == {0.0}
    betas = table_with(at, "ell_status=No").set_index("Team")
    assert betas.loc["B", "ell_status=No"] == pytest.approx(50.0)
    sizes = table_with(at, "Essays")
    assert list(sizes["Essays"]) == [1, 1]

    at.multiselect(key="sr_attributes").set_value([])
    rerun(at)
    assert "No demographic attribute chosen" in at.info[0].value
    assert not at.get("plotly_chart")


def test_demographics_without_demographics_explains(tmp_path, monkeypatch):
    monkeypatch.setenv("LAB_DATA_DIR", str(write_competition(tmp_path / "nodemo", demographics=False)))
    at = app(SR + "demographics.py")
    assert "No demographics loaded" in at.info[0].value
    assert at.sidebar.caption and any("No demographics" in c.value for c in at.sidebar.caption)


def test_heatmap_with_many_groups_puts_groups_on_rows():
    labels = [f"g{i}" for i in range(12)]
    gs = scoring.GroupScores(
        scores=pd.DataFrame({g: [0.66, 0.7351] for g in labels}, index=["X", "Y"]),
        sizes=pd.Series({g: i + 1 for i, g in enumerate(labels)}), labels=labels,
    )
    fig = charts.group_heatmap(gs, ["Y", "X"]).to_plotly_json()
    heat = fig["data"][0]
    assert list(heat["x"]) == ["Y", "X"]                       # teams across
    assert list(heat["y"])[:2] == ["g0 (n = 1)", "g1 (n = 2)"]  # a row per group, with its n
    short, attrs = charts.short_group_labels(["a=No & b=F", "a=Yes & b=M"])
    assert short == ["No · F", "Yes · M"] and attrs == ["a", "b"]
    assert len(heat["z"]) == 12 and heat["z"][0] == pytest.approx([0.7351, 0.66])
    assert heat["texttemplate"] == "%{z:.3f}"                  # always 3 decimals ("0.660")
    assert fig["layout"]["height"] >= 26 * 12
    assert fig["layout"]["xaxis"]["tickangle"] == 0
    # intervals follow the cells when the groups are on rows: cell (group g, team t) holds t's interval on g
    low = pd.DataFrame({g: [0.1, 0.2] for g in labels}, index=["X", "Y"])
    high = pd.DataFrame({g: [0.8 + i / 100, 0.9] for i, g in enumerate(labels)}, index=["X", "Y"])
    cd = charts.group_heatmap(gs, ["Y", "X"], intervals=(low, high)).to_plotly_json()["data"][0]["customdata"]
    assert len(cd) == 12 and cd[3] == [pytest.approx([0.2, 0.9]), pytest.approx([0.1, 0.83])]
    few = charts.group_heatmap(
        scoring.GroupScores(scores=gs.scores[labels[:2]], sizes=gs.sizes[labels[:2]], labels=labels[:2]),
        ["Y", "X"]).to_plotly_json()["data"][0]
    assert list(few["y"]) == ["Y", "X"]                        # few groups: a row per team
