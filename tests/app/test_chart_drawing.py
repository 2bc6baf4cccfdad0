"""The leaderboards' Vega-Lite charts are written as the specification itself (issue 43: Altair's
objects cost 0.1-0.3 s of the server's core per chart on every move). The reference is the Altair
chart they were built as before (kept here, obviously right): on random leaderboards and
waterfalls, the specification equals Altair's ``to_dict()`` of it (which checks it against
Vega-Lite's schema), data included; drawing one twice leaves it as it was; a chart is built once
for the same inputs."""

from __future__ import annotations

import copy
import json
import random

import altair as alt
import numpy as np
import pandas as pd
import pytest

import scoring
from lab.charts import common
from lab.charts import shovel_ready as sr_charts
from lab.charts.colors import team_colors
from lab.charts.common import (
    biggest_moves,
    rank_axis,
    rank_chart,
    waterfall_bars,
    waterfall_chart,
    waterfall_domain,
)
from lab.view import draw
from scoring.custom import STAGES as CUSTOM_STAGES
from scoring.shovel_ready import STAGES


# ---- the reference: the same charts built with Altair ----------------------------------------------
def _axis(labels):
    lines = {str(x): common.wrap_label(str(x)) for x in labels}
    return alt.Axis(labelAngle=0, labelOverlap=False, labelLimit=0, labelExpr=f"{json.dumps(lines)}[datum.label]")


def altair_rank_chart(lb, stages, colors, title="Rank at every stage"):
    names = [s.label for s in stages]
    order = [str(t) for t in lb["submission"]]
    rows = [{"team": str(rec["submission"]), "stage": s.label, "rank": int(rec[s.rank]), "score": float(rec[s.id])}
            for rec in lb.to_dict("records") for s in stages]
    data = pd.DataFrame(rows, columns=["team", "stage", "rank", "score"])
    n = max(1, len(order), int(data["rank"].max()) if len(data) else 1)
    x = alt.X("stage:N", sort=names, title="Stage", axis=_axis(names))
    y = alt.Y("rank:Q", title="Rank", scale=alt.Scale(domain=[n + 0.5, 0.2], nice=False, zero=False),
              axis=alt.Axis(values=rank_axis(n)["tickvals"], tickMinStep=1, labelOverlap=False, format="d"))
    color = alt.Color("team:N", title="Team", sort=order,
                      scale=alt.Scale(domain=order, range=[colors.get(t, "#888888") for t in order]))
    tooltip = [alt.Tooltip("team:N", title="Team"), alt.Tooltip("stage:N", title="Stage"),
               alt.Tooltip("rank:Q", title="Rank"), alt.Tooltip("score:Q", title="Score", format=".4f")]
    base = alt.Chart(data).encode(x=x, y=y, color=color)
    lines = base.mark_line(strokeWidth=3) + base.mark_point(size=110, filled=True, opacity=1).encode(tooltip=tooltip)
    moves = pd.DataFrame([{"stage": names[m.stage], "rank": m.after, "text": m.text} for m in biggest_moves(lb, stages)],
                         columns=["stage", "rank", "text"])
    note = alt.Chart(moves).encode(x=x, y=y, text="text:N")
    halo = note.mark_text(dy=-16, fontSize=12, fontWeight="bold", stroke="white", strokeWidth=4, strokeOpacity=0.9)
    notes = note.mark_text(dy=-16, fontSize=12, fontWeight="bold", color="#222")
    return (lines + halo + notes).properties(title=title, height=max(300, 36 * n + 90))


def altair_waterfall(steps, title):
    bars = waterfall_bars(steps)
    bars["label"] = [common.step_text(v, r) for v, r in zip(bars["value"], bars["relative"], strict=True)]
    bars["top"] = bars[["start", "end"]].max(axis=1)
    lo, hi = waterfall_domain(bars)
    order = list(bars["step"])
    y = alt.Y("start:Q", title="Score (axis zoomed to the steps)" if lo > 0 else "Score",
              scale=alt.Scale(domain=[lo, hi], nice=False, zero=False))
    x = alt.X("step:N", sort=order, title=None, axis=_axis(order))
    color = alt.Color("kind:N", legend=None, scale=alt.Scale(domain=list(common.WATERFALL_COLORS),
                                                             range=list(common.WATERFALL_COLORS.values())))
    base = alt.Chart(bars).encode(x=x)
    rects = base.mark_bar(clip=True, size=46).encode(
        y=y, y2="end:Q", color=color, tooltip=[alt.Tooltip("step:N", title="Step"), alt.Tooltip("label:N", title="Value")])
    labels = base.mark_text(dy=-9, fontSize=12, clip=True).encode(y=alt.Y("top:Q"), text="label:N")
    return (rects + labels).properties(title=title, height=360)


def inline(spec: dict) -> dict:
    """``spec`` with every named dataset written where it is used (as records, JSON's values)."""
    sets = {k: (v.to_dict("records") if isinstance(v, pd.DataFrame) else v) for k, v in spec.get("datasets", {}).items()}

    def walk(x):
        if isinstance(x, dict):
            if set(x) == {"name"} and x["name"] in sets:
                return {"values": sets[x["name"]]}
            return {k: walk(v) for k, v in x.items() if k != "datasets"}
        if isinstance(x, list):
            return [walk(v) for v in x]
        return x

    return json.loads(json.dumps(walk(spec)))


def altair_spec(chart) -> dict:
    with alt.theme.enable("none"):  # as Streamlit converts an Altair chart
        return inline(chart.to_dict())  # checks it against Vega-Lite's schema


# ---- random inputs -----------------------------------------------------------------------------------
NAMES = ["alpha", "b&b", 'say "hi"', "ünï", "<b>x</b>", "team 7", "α", "a b c", "z" * 30, "'q'"]


def random_lb(rng: random.Random, stages) -> pd.DataFrame:
    n = rng.randint(1, 25)
    teams = rng.sample(NAMES, min(n, len(NAMES))) + [f"t{i}" for i in range(max(0, n - len(NAMES)))]
    cols = {"submission": teams}
    for s in stages:
        ranks = [rng.randint(1, n) for _ in teams] if rng.random() < 0.3 else rng.sample(range(1, n + 1), n)
        cols[s.rank] = np.array(ranks, dtype=np.int64)
        cols[s.id] = np.array([rng.uniform(-1, 2) for _ in teams])
    return pd.DataFrame(cols).sort_values(stages[-1].rank, kind="stable").reset_index(drop=True)


def random_steps(rng: random.Random) -> list[tuple[str, float, str]]:
    k = rng.randint(0, 5)
    value = lambda: rng.choice([0.0, 3e-5, -2e-5, rng.uniform(-0.2, 0.2), rng.uniform(0, 1)])  # noqa: E731
    return ([("FP1", rng.uniform(0, 1), "absolute")] + [(f"step {i}", value(), "relative") for i in range(k)]
            + [("Final", rng.uniform(0, 1), "total")])


@pytest.mark.parametrize("stages", [STAGES, CUSTOM_STAGES], ids=["shovel-ready", "custom"])
def test_the_rank_chart_is_the_altair_chart_it_was(stages):
    rng = random.Random(43)
    for _ in range(25):
        lb = random_lb(rng, stages)
        colors = team_colors(lb["submission"].astype(str).tolist())
        title = rng.choice(["Rank at every stage", 'a "title"'])
        assert inline(rank_chart(lb, stages, colors, title)) == altair_spec(altair_rank_chart(lb, stages, colors, title))


def test_the_waterfall_is_the_altair_chart_it_was(lb):
    rng = random.Random(7)
    for _ in range(40):
        steps = random_steps(rng)
        assert inline(waterfall_chart(steps, "t")) == altair_spec(altair_waterfall(steps, "t"))
    for team in lb["submission"].astype(str):  # and the Shovel-Ready page's own, on real scores
        steps = sr_charts.waterfall_steps(lb, team, True)
        assert inline(sr_charts.waterfall(lb, team)) == altair_spec(altair_waterfall(steps, f"{team}: from FP1 to the final score"))


def test_the_comparison_has_teeth(lb):
    colors = team_colors(lb["submission"].astype(str).tolist())
    spec = rank_chart(lb, STAGES, colors)
    ref = altair_spec(altair_rank_chart(lb, STAGES, colors))
    broken = copy.deepcopy(spec)
    broken["layer"][0]["encoding"]["y"]["scale"]["domain"] = [0.2, len(lb) + 0.5]  # rank 1 at the bottom
    assert inline(broken) != ref
    moved = lb.copy()
    moved.loc[0, STAGES[0].rank] += 1  # another leaderboard's data
    assert inline(rank_chart(moved, STAGES, colors)) != ref


@pytest.fixture
def lb(tiny_dir) -> pd.DataFrame:
    comp = scoring.load_competition(ground_truth=tiny_dir / "ground_truth.csv",
                                    submissions=[tiny_dir / "submissions"],
                                    demographics=tiny_dir / "demographics.csv", runtimes=tiny_dir / "runtimes.csv")
    return scoring.Scorer(comp).leaderboard(attributes=("ell_status",))


def test_drawing_a_specification_twice_draws_it_the_same_and_leaves_it_alone(lb):
    from streamlit.testing.v1 import AppTest

    colors = team_colors(lb["submission"].astype(str).tolist())
    spec = rank_chart(lb, STAGES, colors)
    before = inline(spec)

    def page(spec):
        from lab.view import draw

        draw.vega_lite_chart(spec, key="one")
        draw.vega_lite_chart(spec, key="two")

    at = AppTest.from_function(page, args=(spec,)).run()
    assert not at.exception
    charts = at.get("vega_lite_chart")
    assert len(charts) == 2
    one, two = (c.proto for c in charts)
    assert json.loads(one.spec) == json.loads(two.spec) and "datasets" not in json.loads(one.spec)
    assert [d.name for d in one.datasets] == ["rank_chart", "rank_chart_moves"]
    assert [d.data.data for d in one.datasets] == [d.data.data for d in two.datasets]
    assert inline(spec) == before and set(spec["datasets"]) == {"rank_chart", "rank_chart_moves"}


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
    assert inline(c) != inline(a)


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
        draw.memo(lambda n: {"mark": "point", "data": {"values": [{"x": n}]}}, i)
    cache = shared._shared()
    assert len(cache.charts.items) == shared.CHART_ENTRIES and len(cache.lru.items) == 0
