"""Issue 29, "less work per rerun": the app draws its Vega-Lite charts without Altair's
per-rerun schema check (``lab.view.draw``) — so the check is made here, once, on what the
builders return, and the unchecked drawing must give the very same specification."""

from __future__ import annotations

import altair as alt
import pandas as pd
import pytest

import scoring
from lab.charts import shovel_ready as sr_charts
from lab.charts.colors import team_colors
from lab.charts.common import rank_chart
from lab.view import draw
from scoring.shovel_ready import STAGES


@pytest.fixture
def lb(tiny_dir) -> pd.DataFrame:
    comp = scoring.load_competition(ground_truth=tiny_dir / "ground_truth.csv",
                                    submissions=[tiny_dir / "submissions"],
                                    demographics=tiny_dir / "demographics.csv", runtimes=tiny_dir / "runtimes.csv")
    return scoring.Scorer(comp).leaderboard(attributes=("ell_status",))


def test_the_builders_output_passes_the_schema_and_drawing_it_unchecked_changes_nothing(lb):
    colors = team_colors(lb["submission"].astype(str).tolist())
    builders = [lambda: rank_chart(lb, STAGES, colors)]
    builders += [lambda t=t: sr_charts.waterfall(lb, t, overlap_removal=True) for t in lb["submission"].astype(str)]
    for build in builders:
        checked = build().to_dict()  # validates against Vega-Lite's schema; raises if not valid
        assert draw.unvalidated(build()).to_dict() == checked


def test_unvalidated_really_skips_the_check_and_leaves_the_chart_alone():
    bad = alt.Chart(pd.DataFrame({"x": [1]}), width="wide").mark_point().encode(x="x:Q")  # not checked until drawn
    with pytest.raises(alt.utils.schemapi.SchemaValidationError):
        bad.to_dict()
    spec = draw.unvalidated(bad).to_dict()
    assert spec["width"] == "wide"
    assert "to_dict" not in bad._kwds  # not stored as a chart property (it would be drawn into the spec)


def test_a_chart_is_built_once_for_the_same_inputs_and_again_when_they_change(lb):
    from lab.data import shared

    shared._shared.clear()
    built = []

    def build(frame, stages, colors):
        built.append(1)
        return rank_chart(frame, stages, colors)

    colors = team_colors(lb["submission"].astype(str).tolist())
    a = draw.memo(build, lb, STAGES, colors)
    b = draw.memo(build, lb.copy(), STAGES, dict(colors))  # equal content, other objects
    assert a is b and len(built) == 1
    moved = lb.copy()
    moved.loc[0, STAGES[0].id] += 0.01
    c = draw.memo(build, moved, STAGES, colors)
    assert c is not a and len(built) == 2
    assert draw.unvalidated(c).to_dict() != draw.unvalidated(a).to_dict()


def test_a_second_visitor_of_the_leaderboard_does_not_rebuild_its_charts(tiny, monkeypatch):
    from lab.charts import common
    from lab.data import shared
    from tests.app.helpers import app

    shared._shared.clear()
    calls = []
    real = common.rank_chart
    monkeypatch.setattr(common, "rank_chart", lambda *a, **k: (calls.append(1), real(*a, **k))[1])
    app()  # the first visitor: built
    assert len(calls) == 1
    app()  # the second: drawn from the shared cache
    assert len(calls) == 1


def test_built_charts_are_kept_apart_and_bounded_by_count():
    from lab.data import shared

    shared._shared.clear()
    for i in range(shared.CHART_ENTRIES + 8):
        draw.memo(lambda n: alt.Chart(pd.DataFrame({"x": [n]})).mark_point(), i)
    cache = shared._shared()
    assert len(cache.charts.items) == shared.CHART_ENTRIES and len(cache.lru.items) == 0
