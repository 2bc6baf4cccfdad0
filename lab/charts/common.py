"""Figures every family uses: the rank of every team at every stage (a bump chart)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pandas as pd
import plotly.graph_objects as go

from scoring.core.family import Stage

from ..text import html

LAYOUT = dict(margin=dict(l=10, r=10, t=50, b=10), legend_title_text="Team", hovermode="closest")


def bump_chart(lb: pd.DataFrame, stages: Sequence[Stage], colors: Mapping[str, str],
               title: str = "Rank at every stage") -> go.Figure:
    """Every team's rank across ``stages`` (1 at the top), one line per team, in the
    leaderboard's order (so the legend reads as the final ranking)."""
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
    fig.update_yaxes(autorange="reversed", title="Rank", dtick=1, range=[n + 0.5, 0.5])
    fig.update_xaxes(title="Stage")
    fig.update_layout(title=title, height=max(320, 40 * n + 140), **LAYOUT)
    return fig
