"""The Efficiency page: chart, boosts, table and the what-if."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from lab.charts import efficiency as eff_charts
from tests.app.helpers import SEG_A, SR, app, figure, rerun, write_competition


def _boosts(at) -> dict:
    """Team -> boost (%) as the boost chart places each team."""
    return {tr["name"]: tr["y"][0] for tr in figure(at, "eff_boosts")["data"][1:] if tr["name"] in "ABC"}


def test_efficiency_page_chart_and_what_if(core_dir):
    at = app(SR + "efficiency.py")
    scatter = figure(at, "eff_scatter")
    pts = {tr["name"]: (tr["x"][0], tr["y"][0]) for tr in scatter["data"]}
    assert pts["C"] == pytest.approx((110.0, 1.0)) and pts["A"] == pytest.approx((100.0, SEG_A))
    band = [s for s in scatter["layout"]["shapes"] if s.get("yref") == "y"][0]
    assert (band["y0"], band["y1"]) == pytest.approx((1 / 1.05, 1.0))
    assert _boosts(at) == pytest.approx({"C": 5.0, "A": 0.0, "B": 0.0})
    curve = figure(at, "eff_boosts")["data"][0]  # the boost of an eligible run: C (110 s) is the fastest eligible
    assert curve["x"][1:3] == pytest.approx([110.0, 132.0]) and curve["y"] == pytest.approx([5.0, 5.0, 0.0, 0.0])

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

    at.slider(key="sr_band").set_value(15.0)  # the sidebar reaches the page
    rerun(at)
    assert _boosts(at) == pytest.approx({"C": 2.5, "A": 5.0, "B": 0.0})


def test_efficiency_without_runtimes_explains(tmp_path, monkeypatch):
    monkeypatch.setenv("LAB_DATA_DIR", str(write_competition(tmp_path / "nort", runtimes=False)))
    at = app(SR + "efficiency.py")
    assert any("No runtimes loaded" in i.value for i in at.info)
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Eligible"] in ("yes", "no")  # the what-if still answers


def test_efficiency_table_runtimes_are_numbers_that_sort_by_value():
    eff = pd.DataFrame({"team": ["X", "Y"], "score": [0.9, 0.8], "runtime": [12.5, float("nan")],
                        "eligible": [True, False], "boost": [0.05, 0.0], "final": [0.945, 0.8],
                        "rank": [1, 2]})
    t = eff_charts.efficiency_table(eff).set_index("Team")
    assert t.loc["X", "Runtime (s)"] == 12.5 and np.isnan(t.loc["Y", "Runtime (s)"])
    # as numbers, 38 s sorts before 1,710 s (as text it came after "3,050")
    many = eff.iloc[[0, 0, 0]].assign(team=["a", "b", "c"], runtime=[1710.0, 38.0, 3050.0])
    ordered = eff_charts.efficiency_table(many).sort_values("Runtime (s)")
    assert list(ordered["Team"]) == ["b", "a", "c"]
    assert list(t["Eligible"]) == ["yes", "no"] and t.loc["X", "Boost"] == pytest.approx(5.0)
