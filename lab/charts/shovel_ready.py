"""The Shovel-Ready pages' figures: the waterfall of one team, the demographic heatmap and
the α sweep."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from scoring.shovel_ready import STAGES

from ..words.text import html
from .common import LAYOUT, waterfall_chart
from .tables import MAX_GROUP_COLUMNS, groups_as_rows, short_group_labels  # noqa: F401  (re-exported)

STAGE_NAMES = [s.label for s in STAGES]

def waterfall_steps(lb: pd.DataFrame, team: str, overlap_removal: bool = True) -> list[tuple[str, float, str]]:
    """From FP1 to the final score, what each stage took or gave for one team, as waterfall
    steps ``(label, value, kind)``.

    With overlap removal switched off, the segment score is computed on the raw predictions,
    so the removal step is shown as 0 ("off") and the segment step starts from FP1.
    """
    rec = lb.loc[lb["submission"] == team].iloc[0]
    fp1 = float(rec["fp1"])
    names = STAGE_NAMES
    removed = float(rec["overlap_removed"]) if overlap_removal else fp1
    return [
        (names[0], fp1, "absolute"),
        (names[1] if overlap_removal else f"{names[1]} (off)", removed - fp1, "relative"),
        (names[2], float(rec["segment_score"]) - removed, "relative"),
        (names[3], float(rec["bias_score"]) - float(rec["segment_score"]), "relative"),
        ("Efficiency boost", float(rec["final_score"]) - float(rec["bias_score"]), "relative"),
        (names[4], float(rec["final_score"]), "total"),
    ]


def waterfall(lb: pd.DataFrame, team: str, overlap_removal: bool = True):
    """The waterfall of :func:`waterfall_steps` (Vega-Lite, its axis scaled to the steps)."""
    return waterfall_chart(waterfall_steps(lb, team, overlap_removal), f"{team}: from FP1 to the final score")


#: Above this many groups (or more groups than teams) the heatmap puts the groups on the y axis.
HEATMAP_MAX_GROUP_COLUMNS = MAX_GROUP_COLUMNS
_HEAT_ROW_PX = 26


def group_heatmap(gs: Any, order: list[str], *, title: str = "Segment score per group", value: str = "score",
                  fmt: str = ".3f", colorscale: str = "Viridis",
                  intervals: tuple[pd.DataFrame, pd.DataFrame] | None = None) -> go.Figure:
    """Every team's segment score per demographic group (teams in leaderboard order); with
    ``title``/``value``/``fmt``, any team × group value (the softmin weights β in %).

    Few groups: a row per team, a column per group. Many groups (more than the teams, or more
    than :data:`HEATMAP_MAX_GROUP_COLUMNS`): a row per group and a column per team, the height
    growing with the rows, so that every label stays horizontal and readable.

    ``intervals``: (low, high) frames shaped as ``gs.scores`` (teams × groups); the hover of each
    cell then gives its bootstrap interval.
    """
    scores = gs.scores.reindex(order)
    labels = list(gs.labels)
    table = scores[labels].to_numpy(dtype=float)
    transposed = groups_as_rows(len(labels), len(order))
    if transposed:
        short, attrs = short_group_labels(labels)
        group_axis = [f"{html(s)} (n = {int(gs.sizes[g])})" for s, g in zip(short, labels, strict=True)]
        z, x, y = table.T, [html(t) for t in order], group_axis
        rows = len(labels)
    else:  # one column per group; a long cross-product label breaks at each " & "
        group_axis = [f"{html(g).replace(' &amp; ', ' &amp;<br>')}<br>n = {int(gs.sizes[g])}" for g in labels]
        z, x, y = table, group_axis, [html(t) for t in order]
        rows = len(order)
    unit = " %" if value.endswith("%") else ""
    bar = value[:1].upper() + value[1:] if value[:1].isascii() else value  # "score" -> "Score"; "β" stays
    hover = f"%{{y}}<br>%{{x}}<br>{value} %{{z:{fmt}}}"
    extra = {}
    if intervals is not None:
        lo, hi = (f.reindex(index=order, columns=labels).to_numpy(dtype=float) for f in intervals)
        cells = np.stack([lo, hi], axis=-1)
        extra["customdata"] = (cells.transpose(1, 0, 2) if transposed else cells).tolist()
        hover += f"<br>95 % interval [%{{customdata[0]:{fmt}}}, %{{customdata[1]:{fmt}}}]"
    fig = go.Figure(go.Heatmap(
        z=z.tolist(), x=x, y=y, colorscale=colorscale, colorbar=dict(title=bar),
        texttemplate=f"%{{z:{fmt}}}{unit}", hovertemplate=hover + "<extra></extra>",
        xgap=1, ygap=1, **extra,
    ))
    group_title = f"Group ({html(' · '.join(attrs))})" if transposed and attrs else "Group"
    fig.update_yaxes(autorange="reversed", title=group_title if transposed else "Team", automargin=True)
    # a column per team: names slanted once they would not fit side by side (~7 px a letter)
    slant = transposed and sum(len(str(t)) for t in order) * 7 > 760
    fig.update_xaxes(title="Team" if transposed else "Group", tickangle=-35 if slant else 0, automargin=True,
                     side="top" if transposed else "bottom")
    height = (max(300, _HEAT_ROW_PX * rows + 180) if transposed
              else max(300, 32 * rows + 160))
    fig.update_layout(title=title, height=height,
                      margin=dict(l=10, r=10, t=90 if transposed else 50, b=10))
    return fig


def sweep_figure(sweep: pd.DataFrame, colors: Mapping[str, str], alpha: float,
                 order: Sequence[str] | None = None) -> go.Figure:
    """Every team's bias-aware score as α sweeps, with the current α marked (the rank against α
    is the brushable chart below it, shown once).

    ``order``: the teams in legend order (the final ranking, as in every chart); by name
    when not given."""
    parts = dict(tuple(sweep.groupby("team", sort=True)))
    names = [t for t in (order or []) if t in parts] + [t for t in parts if t not in (order or [])]
    fig = go.Figure()
    for team in names:
        part = parts[team]
        fig.add_trace(go.Scatter(x=part["alpha"].tolist(), y=part["score"].tolist(), mode="lines", name=html(team),
                                 line=dict(color=colors.get(str(team)), width=2),
                                 hovertemplate=f"{html(team)}<br>α %{{x:g}}: %{{y:.4f}}<extra></extra>"))
    if math.isfinite(alpha):
        fig.add_vline(x=alpha, line=dict(color="#444", dash="dash"),
                      annotation_text=f"current α = {alpha:g}", annotation_position="top")
    fig.update_yaxes(title="Bias-aware score")
    fig.update_xaxes(title="Softmin temperature α")
    fig.update_layout(title="How the bias-aware score moves with α", height=420, **LAYOUT)
    return fig
