"""The Shovel-Ready pages' figures: the waterfall of one team, the demographic heatmap and
the α sweep."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from scoring.shovel_ready import STAGES

from ..text import html
from .common import LAYOUT

STAGE_NAMES = [s.label for s in STAGES]

def waterfall(lb: pd.DataFrame, team: str, overlap_removal: bool = True) -> go.Figure:
    """From FP1 to the final score: what each stage took or gave for one team.

    With overlap removal switched off, the segment score is computed on the raw predictions,
    so the removal step is shown as 0 ("off") and the segment step starts from FP1.
    """
    rec = lb.loc[lb["submission"] == team].iloc[0]
    fp1 = float(rec["fp1"])
    # FP1, what each later stage gave or took (named as in the table; the final stage's step
    # is its efficiency boost), then the final score.
    names = STAGE_NAMES
    removed = float(rec["overlap_removed"]) if overlap_removal else fp1
    steps = [
        (names[0], fp1, "absolute"),
        (names[1] if overlap_removal else f"{names[1]} (off)", removed - fp1, "relative"),
        (names[2], float(rec["segment_score"]) - removed, "relative"),
        (names[3], float(rec["bias_score"]) - float(rec["segment_score"]), "relative"),
        ("Efficiency boost", float(rec["final_score"]) - float(rec["bias_score"]), "relative"),
        (names[4], float(rec["final_score"]), "total"),
    ]
    fig = go.Figure(go.Waterfall(
        x=[s[0] for s in steps], y=[s[1] for s in steps], measure=[s[2] for s in steps],
        text=[f"{s[1]:+.4f}" if s[2] == "relative" else f"{s[1]:.4f}" for s in steps],
        textposition="outside",
        increasing=dict(marker=dict(color="#2CA02C")), decreasing=dict(marker=dict(color="#D62728")),
        totals=dict(marker=dict(color="#4C78A8")), connector=dict(line=dict(color="#999")),
    ))
    top = max(fp1, *(float(rec[s.id]) for s in STAGES))
    fig.update_yaxes(title="Score", range=[0, min(1.05, top * 1.15 + 0.02)])
    fig.update_layout(title=f"{html(team)}: from FP1 to the final score", showlegend=False,
                      height=380, margin=dict(l=10, r=10, t=50, b=10))
    return fig


#: Above this many groups (or more groups than teams) the heatmap puts the groups on the y axis.
HEATMAP_MAX_GROUP_COLUMNS = 10
_HEAT_ROW_PX = 26


def short_group_labels(labels: Sequence[str]) -> tuple[list[str], list[str]]:
    """``("ell_status=No & gender=F", …)`` -> (``["No · F", …]``, ``["ell_status", "gender"]``).

    The attribute names go once into the axis title; labels that do not all follow the same
    ``attr=value & attr=value`` pattern come back unchanged (with no attribute names).
    """
    split = [[part.partition("=") for part in str(g).split(" & ")] for g in labels]
    keys = [[k for k, _, _ in parts] for parts in split]
    if not split or any(not all(eq for _, eq, _ in parts) for parts in split) or any(k != keys[0] for k in keys):
        return [str(g) for g in labels], []
    short = [" · ".join(v for _, _, v in parts) for parts in split]
    if len(set(short)) != len(short):
        return [str(g) for g in labels], []
    return short, keys[0]


def group_heatmap(gs: Any, order: list[str]) -> go.Figure:
    """Every team's segment score per demographic group (teams in leaderboard order).

    Few groups: a row per team, a column per group. Many groups (more than the teams, or more
    than :data:`HEATMAP_MAX_GROUP_COLUMNS`): a row per group and a column per team, the height
    growing with the rows, so that every label stays horizontal and readable.
    """
    scores = gs.scores.reindex(order)
    labels = list(gs.labels)
    table = scores[labels].to_numpy(dtype=float)
    transposed = len(labels) > HEATMAP_MAX_GROUP_COLUMNS or len(labels) > len(order)
    if transposed:
        short, attrs = short_group_labels(labels)
        group_axis = [f"{html(s)} (n = {int(gs.sizes[g])})" for s, g in zip(short, labels, strict=True)]
        z, x, y = table.T, [html(t) for t in order], group_axis
        rows = len(labels)
    else:  # one column per group; a long cross-product label breaks at each " & "
        group_axis = [f"{html(g).replace(' &amp; ', ' &amp;<br>')}<br>n = {int(gs.sizes[g])}" for g in labels]
        z, x, y = table, group_axis, [html(t) for t in order]
        rows = len(order)
    fig = go.Figure(go.Heatmap(
        z=z.tolist(), x=x, y=y, colorscale="Viridis", colorbar=dict(title="Score"),
        texttemplate="%{z:.3f}", hovertemplate="%{y}<br>%{x}<br>score %{z:.4f}<extra></extra>", xgap=1, ygap=1,
    ))
    group_title = f"Group ({html(' · '.join(attrs))})" if transposed and attrs else "Group"
    fig.update_yaxes(autorange="reversed", title=group_title if transposed else "Team", automargin=True)
    fig.update_xaxes(title="Team" if transposed else "Group", tickangle=0, automargin=True,
                     side="top" if transposed else "bottom")
    height = (max(300, _HEAT_ROW_PX * rows + 180) if transposed
              else max(300, 32 * rows + 160))
    fig.update_layout(title="Segment score per group", height=height,
                      margin=dict(l=10, r=10, t=90 if transposed else 50, b=10))
    return fig


def sweep_figure(sweep: pd.DataFrame, colors: Mapping[str, str], alpha: float,
                 order: Sequence[str] | None = None) -> go.Figure:
    """Bias score (top) and rank (bottom) as α sweeps, with the current α marked.

    ``order``: the teams in legend order (the final ranking, as in every chart); by name
    when not given."""
    parts = dict(tuple(sweep.groupby("team", sort=True)))
    names = [t for t in (order or []) if t in parts] + [t for t in parts if t not in (order or [])]
    fig = make_subplots(rows=2, cols=1, shared_xaxes=True, vertical_spacing=0.08,
                        subplot_titles=("Bias-aware score", "Rank"))
    for team in names:
        part = parts[team]
        c = colors.get(str(team))
        fig.add_trace(go.Scatter(x=part["alpha"].tolist(), y=part["score"].tolist(), mode="lines", name=html(team),
                                 legendgroup=str(team), line=dict(color=c, width=2),
                                 hovertemplate=f"{html(team)}<br>α %{{x:g}}: %{{y:.4f}}<extra></extra>"),
                      row=1, col=1)
        fig.add_trace(go.Scatter(x=part["alpha"].tolist(), y=part["rank"].tolist(), mode="lines", name=html(team),
                                 legendgroup=str(team), showlegend=False,
                                 line=dict(color=c, width=2, shape="hv"),
                                 hovertemplate=f"{html(team)}<br>α %{{x:g}}: rank %{{y}}<extra></extra>"),
                      row=2, col=1)
    if math.isfinite(alpha):
        fig.add_vline(x=alpha, line=dict(color="#444", dash="dash"),
                      annotation_text=f"current α = {alpha:g}", annotation_position="top")
    n = sweep["team"].nunique()
    fig.update_yaxes(title="Score", row=1, col=1)
    fig.update_yaxes(title="Rank", autorange="reversed", dtick=1, row=2, col=1,
                     range=[n + 0.5, 0.5])
    fig.update_xaxes(title="Softmin temperature α", row=2, col=1)
    fig.update_layout(title="How the bias-aware ranking moves with α", height=620, **LAYOUT)
    return fig
