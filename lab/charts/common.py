"""Figures every family uses: the rank of every team at every stage (a bump chart, with the
biggest move of each stage named) and a waterfall whose axis is scaled to its steps.

The bump chart comes twice: :func:`bump_chart` (Plotly) and :func:`rank_chart` (Vega-Lite,
``st.vega_lite_chart``). A page that opens the app uses the Vega-Lite one: Plotly's script takes
seconds to start in the browser and holds back everything drawn with it, the first table too.

The Vega-Lite charts are written as the specification itself (a dict; the data as DataFrames
under ``datasets``), the very one Altair's ``Chart.to_dict()`` wrote for the same chart (the
tests compare them on random leaderboards): building and converting Altair's objects took
0.1-0.3 s of the server's one Python core per chart on every slider move, more than the rest of
the page (issue 43); writing the dict takes about a millisecond.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import altair as alt
import pandas as pd
import plotly.graph_objects as go

from scoring.core.family import Stage

from ..words.text import html

LAYOUT = dict(margin=dict(l=10, r=10, t=50, b=10), legend_title_text="Team", hovermode="closest")


@dataclass(frozen=True)
class Move:
    """The biggest rank change into stage ``stage`` (an index into the stages)."""

    stage: int
    team: str
    before: int
    after: int

    @property
    def text(self) -> str:
        gained = self.before - self.after
        return f"{self.team} {'▲' if gained > 0 else '▼'}{abs(gained)}"


def biggest_moves(lb: pd.DataFrame, stages: Sequence[Stage]) -> list[Move]:
    """For every stage after the first, the team whose rank changed most against the previous
    stage (a gain before an equal loss, then the better final rank); none where no rank moved."""
    out = []
    recs = lb[["submission", *dict.fromkeys(s.rank for s in stages)]].to_dict("records")  # (only what is read)
    for i in range(1, len(stages)):
        best = None
        for pos, rec in enumerate(recs):
            before, after = int(rec[stages[i - 1].rank]), int(rec[stages[i].rank])
            key = (abs(before - after), before > after, -pos)
            if before != after and (best is None or key > best[0]):
                best = (key, Move(i, str(rec["submission"]), before, after))
        if best is not None:
            out.append(best[1])
    return out


def bump_chart(lb: pd.DataFrame, stages: Sequence[Stage], colors: Mapping[str, str],
               title: str = "Rank at every stage") -> go.Figure:
    """Every team's rank across ``stages`` (1 at the top), one line per team, in the
    leaderboard's order (so the legend reads as the final ranking); the biggest move into
    each stage is named on the chart."""
    fig = go.Figure()
    n = len(lb)
    names = [s.label for s in stages]
    for rec in lb.to_dict("records"):
        name = str(rec["submission"])
        ranks = [int(rec[s.rank]) for s in stages]
        scores = [float(rec[s.id]) for s in stages]
        fig.add_trace(go.Scatter(
            x=names, y=ranks, mode="lines+markers", name=html(name),
            line=dict(color=colors.get(name), width=3), marker=dict(size=11),
            customdata=scores, showlegend=True,
            hovertemplate=f"<b>{html(name)}</b><br>%{{x}}: rank %{{y}}<br>score %{{customdata:.4f}}<extra></extra>",
        ))
    for m in biggest_moves(lb, stages):
        fig.add_annotation(x=names[m.stage], y=m.after, text=f"<b>{html(m.text)}</b>", showarrow=True,
                           arrowhead=0, ay=-26, ax=0, font=dict(size=12), bgcolor="rgba(255,255,255,0.85)")
    fig.update_yaxes(title="Rank", **rank_axis(n, low=0.3))
    fig.update_xaxes(title="Stage", **wrapped_ticks(names))
    fig.update_layout(title=title, height=max(320, 40 * n + 140), **LAYOUT)
    return fig


def rank_axis(n: int, *, reverse: bool = True, low: float = 0.5, high: float | None = None) -> dict[str, Any]:
    """Plotly axis settings for ranks 1..``n``: the range ``low``..``n`` + 0.5 (or ``high``), 1 at
    the top when ``reverse`` (Plotly ignores a range while ``autorange`` is on, which padded 28
    teams to 0–29), and whole-number ticks only — every rank up to 30 teams, else 1 and the
    multiples of a round step, at most 30 ticks.

    >>> rank_axis(3)["tickvals"], rank_axis(3)["range"], rank_axis(91)["tickvals"][:4]
    ([1, 2, 3], [3.5, 0.5], [1, 5, 10, 15])
    """
    n = max(1, int(n))
    step = next(s for s in (1, 2, 5, 10, 20, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000, n) if n / s <= 30)
    vals = list(range(1, n + 1)) if step == 1 else [1, *range(step, n + 1, step)]
    span = [low, n + 0.5 if high is None else high]
    return dict(range=span[::-1] if reverse else span, autorange=False, tickmode="array", tickvals=vals,
                tickformat="d")


def wrap_label(label: str, width: int = 12) -> list[str]:
    """A stage's name as lines of at most ``width`` characters (a longer word keeps its own
    line), so that every stage's label fits under its point on a narrow chart instead of every
    other one being dropped.

    >>> wrap_label("Unified segment score"), wrap_label("Equal weights"), wrap_label("Final score")
    (['Unified', 'segment', 'score'], ['Equal', 'weights'], ['Final score'])
    """
    lines: list[str] = []
    for word in str(label).split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [str(label)]


def wrapped_ticks(labels: Sequence[str]) -> dict[str, Any]:
    """Plotly x-axis settings naming every category on lines (:func:`wrap_label`), level."""
    return dict(tickmode="array", tickvals=list(labels), tickangle=0,
                ticktext=["<br>".join(html(line) for line in wrap_label(x)) for x in labels])


def wrapped_axis(labels: Sequence[str]) -> dict[str, Any]:
    """A Vega-Lite axis for nominal ``labels`` drawing each on lines (:func:`wrap_label`),
    level, none hidden for overlap. The labels reach Vega as JSON strings (never markup)."""
    lines = {str(x): wrap_label(str(x)) for x in labels}
    return {"labelAngle": 0, "labelExpr": f"{json.dumps(lines)}[datum.label]", "labelLimit": 0, "labelOverlap": False}


def _layers(data: str, layers: list[dict[str, Any]], title: str, height: int,
            datasets: dict[str, pd.DataFrame]) -> dict[str, Any]:
    return {"layer": layers, "data": {"name": data}, "height": height, "title": title, "$schema": alt.SCHEMA_URL,
            "datasets": datasets}


def rank_chart(lb: pd.DataFrame, stages: Sequence[Stage], colors: Mapping[str, str],
               title: str = "Rank at every stage", *, most: int | None = None) -> dict[str, Any]:
    """:func:`bump_chart` in Vega-Lite (a specification for ``st.vega_lite_chart``): a line per
    team (legend in final order, 1 at the top) and the biggest move into each stage named above
    its point. Text is never markup here. ``most``: only the first ``most`` teams of ``lb`` (its
    final order) are drawn, each at its rank among all the teams (a line per team costs the
    browser: 91 lines take seconds)."""
    if most is not None and len(lb) > most:
        lb = lb.head(most)
        title = f"{title} (the top {most} teams)"
    names = [s.label for s in stages]
    order = [str(t) for t in lb["submission"]]
    recs = lb[["submission", *dict.fromkeys(c for s in stages for c in (s.rank, s.id))]].to_dict("records")
    rows = [{"team": str(rec["submission"]), "stage": s.label, "rank": int(rec[s.rank]), "score": float(rec[s.id])}
            for rec in recs for s in stages]
    data = pd.DataFrame(rows, columns=["team", "stage", "rank", "score"])
    n = max(1, len(order), int(data["rank"].max()) if len(data) else 1)
    x = {"axis": wrapped_axis(names), "field": "stage", "sort": names, "title": "Stage", "type": "nominal"}
    y = {"axis": {"format": "d", "labelOverlap": False, "tickMinStep": 1, "values": rank_axis(n)["tickvals"]},
         "field": "rank", "scale": {"domain": [n + 0.5, 0.2], "nice": False, "zero": False}, "title": "Rank",
         "type": "quantitative"}
    color = {"field": "team", "scale": {"domain": order, "range": [colors.get(t, "#888888") for t in order]},
             "sort": order, "title": "Team", "type": "nominal"}
    tooltip = [{"field": "team", "title": "Team", "type": "nominal"},
               {"field": "stage", "title": "Stage", "type": "nominal"},
               {"field": "rank", "title": "Rank", "type": "quantitative"},
               {"field": "score", "format": ".4f", "title": "Score", "type": "quantitative"}]
    moves = pd.DataFrame([{"stage": names[m.stage], "rank": m.after, "text": m.text} for m in biggest_moves(lb, stages)],
                         columns=["stage", "rank", "text"])
    text = {"text": {"field": "text", "type": "nominal"}, "x": x, "y": y}
    note = {"dy": -16, "fontSize": 12, "fontWeight": "bold"}
    return _layers("rank_chart", [
        {"mark": {"type": "line", "strokeWidth": 3}, "encoding": {"color": color, "x": x, "y": y}},
        {"mark": {"type": "point", "filled": True, "opacity": 1, "size": 110},
         "encoding": {"color": color, "tooltip": tooltip, "x": x, "y": y}},
        {"data": {"name": "rank_chart_moves"},
         "mark": {"type": "text", **note, "stroke": "white", "strokeOpacity": 0.9, "strokeWidth": 4}, "encoding": text},
        {"data": {"name": "rank_chart_moves"}, "mark": {"type": "text", "color": "#222", **note}, "encoding": text},
    ], title, max(300, 36 * n + 90), {"rank_chart": data, "rank_chart_moves": moves})


# ---- waterfall -----------------------------------------------------------------------------------
def waterfall_bars(steps: Sequence[tuple[str, float, str]]) -> pd.DataFrame:
    """Bars of a waterfall from ``(label, value, kind)`` steps, kind ``absolute`` (a level from
    0), ``relative`` (a change) or ``total`` (the running level, from 0): one row per step with
    ``start``, ``end``, the signed ``value`` and ``kind`` (``increase``/``decrease``/``level``)."""
    rows, level = [], 0.0
    for label, value, kind in steps:
        if kind == "relative":
            start, end = level, level + value
            level = end
            shown = "increase" if value > 0 else "decrease" if value < 0 else "level"
        else:
            if kind == "absolute":
                level = value
            start, end, shown = 0.0, level, "level"
        rows.append({"step": label, "start": start, "end": end, "value": value if kind == "relative" else end,
                     "kind": shown, "relative": kind == "relative"})
    return pd.DataFrame(rows, columns=["step", "start", "end", "value", "kind", "relative"])


def waterfall_domain(bars: pd.DataFrame, *, min_span: float = 1e-4) -> tuple[float, float]:
    """The score axis of a waterfall, scaled to its steps: from a little below the lowest level
    to a little above the highest one that the steps pass through (the levels, not the zero the
    first and last bars stand on), so a −0.0006 step is as visible as a −0.06 one."""
    levels = [v for _, r in bars.iterrows() for v in ((r["start"], r["end"]) if r["relative"] else (r["end"],))]
    if not levels:
        return 0.0, 1.0
    lo, hi = min(levels), max(levels)
    pad = max(hi - lo, min_span) * 0.35
    return lo - pad, hi + pad


def step_text(value: float, relative: bool) -> str:
    """A bar's label: a change signed (``+0.0224``, ``−0.0006``, ``−4.0e−05`` when it rounds
    to zero at four decimals), a level to four decimals."""
    if not relative:
        return f"{value:.4f}"
    if value != 0 and abs(value) < 5e-5:
        return f"{value:+.1e}".replace("-", "−")
    return f"{value:+.4f}".replace("-", "−")


WATERFALL_COLORS = {"increase": "#2CA02C", "decrease": "#D62728", "level": "#4C78A8"}


def waterfall_chart(steps: Sequence[tuple[str, float, str]], title: str) -> dict[str, Any]:
    """A waterfall (a Vega-Lite specification) of ``steps`` (see :func:`waterfall_bars`), its
    axis scaled to the steps (:func:`waterfall_domain`): green steps give score, red ones take it,
    blue bars are levels. The axis title says when it does not start at 0."""
    bars = waterfall_bars(steps)
    bars["label"] = [step_text(v, r) for v, r in zip(bars["value"], bars["relative"], strict=True)]
    bars["top"] = bars[["start", "end"]].max(axis=1)
    lo, hi = waterfall_domain(bars)
    order = list(bars["step"])
    zoomed = lo > 0
    x = {"axis": wrapped_axis(order), "field": "step", "sort": order, "title": None, "type": "nominal"}
    y = {"field": "start", "scale": {"domain": [lo, hi], "nice": False, "zero": False},
         "title": "Score (axis zoomed to the steps)" if zoomed else "Score", "type": "quantitative"}
    color = {"field": "kind", "legend": None, "scale": {"domain": list(WATERFALL_COLORS),
                                                        "range": list(WATERFALL_COLORS.values())}, "type": "nominal"}
    tooltip = [{"field": "step", "title": "Step", "type": "nominal"}, {"field": "label", "title": "Value", "type": "nominal"}]
    return _layers("waterfall", [
        {"mark": {"type": "bar", "clip": True, "size": 46},
         "encoding": {"color": color, "tooltip": tooltip, "x": x, "y": y, "y2": {"field": "end"}}},
        {"mark": {"type": "text", "clip": True, "dy": -9, "fontSize": 12},
         "encoding": {"text": {"field": "label", "type": "nominal"}, "x": x, "y": {"field": "top", "type": "quantitative"}}},
    ], title, 360, {"waterfall": bars})


def log_ticks(lo: float, hi: float) -> list[float]:
    """Ticks at 1, 2 and 5 of every decade between ``lo`` and ``hi`` (a log axis otherwise shows
    only the decades), thinned to 1 and 3 … when the range spans many decades.

    >>> log_ticks(30, 9000)
    [50.0, 100.0, 200.0, 500.0, 1000.0, 2000.0, 5000.0]
    >>> log_ticks(0.5, 5e6)
    [1.0, 10.0, 100.0, 1000.0, 10000.0, 100000.0, 1000000.0]
    >>> log_ticks(1e306, 1e308 * 1.5)[-2:]  # the top is past the largest float: no tick there, no error
    [5e+307, 1e+308]
    """
    if not (lo > 0 and hi > lo) or not math.isfinite(lo):
        return []
    top = math.log10(hi) if math.isfinite(hi) else 309.0  # a runtime near the largest float, times 1.5
    steps = (1, 2, 5) if top - math.log10(lo) <= 4 else (1,)
    # float("5e308") is inf where 5 * 10.0 ** 308 raises OverflowError: past the largest float, no tick
    out = [float(f"{m}e{e}") for e in range(math.floor(math.log10(lo)), math.ceil(top) + 1) for m in steps]
    return [t for t in out if lo <= t <= hi and math.isfinite(t)]
