"""The Custom pages' figures: the item values behind the aggregate, team × item, as a heatmap
(Vega-Lite: the page's other chart is Vega-Lite too, so the browser loads one chart library —
Plotly's took seconds to start and held back the page's tables). Text is never markup here."""

from __future__ import annotations

import altair as alt
import numpy as np
import pandas as pd

#: at most this many teams are drawn (the top of the leaderboard); the table has them all
MAX_TEAMS = 40


def item_heatmap(lb: pd.DataFrame, title: str = "Item values (after normalising and grouping)") -> alt.Chart:
    """Teams (rows, leaderboard order, the top :data:`MAX_TEAMS`) × items (columns): the value
    each item gives the team before the across rule; blank where the team is missing."""
    items = [c for c in lb.columns if str(c).startswith("item:")]
    top = lb.head(MAX_TEAMS)
    teams = [str(t) for t in top["submission"]]
    names = [str(c)[5:] for c in items]
    z = top[items].to_numpy(dtype=float)
    i, j = np.nonzero(np.isfinite(z))
    data = pd.DataFrame({"team": [teams[a] for a in i], "item": [names[b] for b in j], "value": z[i, j]})
    shown = f" (top {MAX_TEAMS} of {len(lb)})" if len(lb) > MAX_TEAMS else ""
    return alt.Chart(data).mark_rect().encode(
        x=alt.X("item:N", sort=names, title="Item", axis=alt.Axis(labelAngle=-40, labelLimit=160)),
        y=alt.Y("team:N", sort=teams, title=None, axis=alt.Axis(labelLimit=220)),
        color=alt.Color("value:Q", title="Value", scale=alt.Scale(scheme="viridis")),
        tooltip=[alt.Tooltip("team:N", title="Team"), alt.Tooltip("item:N", title="Item"),
                 alt.Tooltip("value:Q", title="Value", format=".3g")],
    ).properties(title=title + shown, height=max(200, 16 * len(teams)))


def item_heatmap_spec(lb: pd.DataFrame) -> dict:
    """:func:`item_heatmap` as its Vega-Lite specification (for ``lab.view.draw.vega_lite_chart``,
    built once per content by ``memo``)."""
    return item_heatmap(lb).to_dict()
