"""The Custom pages' figures: the item values behind the aggregate, team × item, as a heatmap.

Every team and item name goes through :func:`lab.words.text.html` (Plotly renders a few HTML tags
in labels and hover text)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from ..words.text import html
from .common import LAYOUT

#: at most this many teams are drawn (the top of the leaderboard); the table has them all
MAX_TEAMS = 40


def item_heatmap(lb: pd.DataFrame, title: str = "Item values (after normalising and grouping)") -> go.Figure:
    """Teams (rows, leaderboard order, the top :data:`MAX_TEAMS`) × items (columns): the value
    each item gives the team before the across rule; blank where the team is missing."""
    items = [c for c in lb.columns if str(c).startswith("item:")]
    top = lb.head(MAX_TEAMS)
    z = top[items].to_numpy(dtype=float)
    teams = [html(str(t)) for t in top["submission"]]
    names = [html(str(c)[5:]) for c in items]
    text = np.where(np.isnan(z), "missing", np.vectorize(lambda v: f"{v:.3g}")(np.nan_to_num(z)))
    fig = go.Figure(go.Heatmap(z=z, x=names, y=teams, colorscale="Viridis", hoverongaps=False, text=text,
                               hovertemplate="%{y}<br>%{x}: %{text}<extra></extra>"))
    shown = f" (top {MAX_TEAMS} of {len(lb)})" if len(lb) > MAX_TEAMS else ""
    fig.update_layout(**LAYOUT, title=title + shown, height=max(300, 18 * len(teams) + 160))
    fig.update_yaxes(autorange="reversed")
    return fig
