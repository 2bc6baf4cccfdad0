"""The Efficiency page: its table, score against runtime with the eligibility band and the
boost window, and the boost per team."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from scoring.shovel_ready import eligibility_threshold

from ..text import html
from .common import LAYOUT


def efficiency_table(eff: pd.DataFrame) -> pd.DataFrame:
    """The Efficiency page's table: words as on the Leaderboard (eligible yes/no), a missing
    runtime as "—", the boost in percent."""
    return pd.DataFrame({
        "Team": eff["team"].to_numpy(),
        "Bias-aware score": eff["score"].to_numpy(),
        "Runtime (s)": ["—" if r != r else f"{r:.4g}" for r in eff["runtime"].astype(float)],
        "Eligible": np.where(eff["eligible"].astype(bool), "yes", "no"),
        "Boost": eff["boost"].to_numpy() * 100.0,
        "Final score": eff["final"].to_numpy(),
        "Final rank": eff["rank"].to_numpy(),
    })


def efficiency_frame(lb: pd.DataFrame, runtimes: Mapping[str, float]) -> pd.DataFrame:
    """Per team: bias-aware score, runtime (NaN when unknown), eligibility, boost, final."""
    return pd.DataFrame({
        "team": lb["submission"].astype(str).to_numpy(),
        "score": lb["bias_score"].astype(float).to_numpy(),
        "runtime": [float(runtimes.get(str(n), np.nan)) for n in lb["submission"]],
        "eligible": lb["eligible"].astype(bool).to_numpy(),
        "boost": lb["boost"].astype(float).to_numpy(),
        "final": lb["final_score"].astype(float).to_numpy(),
        "rank": lb["rank"].astype(int).to_numpy(),
    })


#: The efficiency chart's runtime axis turns logarithmic above this max/min runtime ratio.
LOG_RUNTIME_RATIO = 50.0


def efficiency_figure(eff: pd.DataFrame, colors: Mapping[str, str], band: float,
                      window: float, highlight: Mapping[str, float] | None = None) -> go.Figure:
    """Score against runtime; the eligibility band and the boost window shaded."""
    fig = go.Figure()
    known = eff.dropna(subset=["runtime"])
    best = float(eff["score"].max()) if len(eff) else 0.0
    if best > 0:
        fig.add_hrect(y0=eligibility_threshold(best, band), y1=best, fillcolor="#54A24B", opacity=0.15, line_width=0,
                      annotation_text=f"eligibility band ({band * 100:g} %)",
                      annotation_position="top left")
    elig = known[known["eligible"]]
    if len(elig):
        fastest = float(elig["runtime"].min())
        fig.add_vrect(x0=fastest, x1=fastest * (1 + window), fillcolor="#F58518", opacity=0.12,
                      line_width=0, annotation_text=f"boost window (+{window * 100:g} %)",
                      annotation_position="bottom left")
    # Only eligible teams carry a label (alternately above and below, by runtime, so that
    # neighbours do not collide); the others are named on hover and in the legend.
    labelled = known[known["eligible"]].sort_values("runtime")["team"].tolist()
    position = {t: ("top center" if i % 2 == 0 else "bottom center") for i, t in enumerate(labelled)}
    for rec in known.to_dict("records"):
        name = rec["team"]
        label = f"{html(name)} +{rec['boost'] * 100:.2f} %" if rec["boost"] > 0 else html(name)
        fig.add_trace(go.Scatter(
            x=[rec["runtime"]], y=[rec["score"]], mode="markers+text" if name in position else "markers",
            name=html(name),
            marker=dict(color=colors.get(name), size=12 + 200 * rec["boost"],
                        line=dict(color="#222" if rec["eligible"] else "white", width=1.5)),
            text=[label] if name in position else None, textposition=position.get(name, "top center"),
            hovertemplate=(f"<b>{html(name)}</b><br>runtime %{{x:.4g}} s<br>score %{{y:.4f}}<br>"
                           f"boost {rec['boost'] * 100:.2f} %<br>final {rec['final']:.4f}<extra></extra>"),
        ))
    if highlight:
        fig.add_trace(go.Scatter(
            x=[highlight["runtime"]], y=[highlight["score"]], mode="markers+text", name="What-if",
            marker=dict(symbol="star", size=20, color="#111"), text=["what-if"],
            textposition="bottom center",
            hovertemplate="what-if<br>runtime %{x:.4g} s<br>score %{y:.4f}<extra></extra>",
        ))
    runtimes = [float(r) for r in known["runtime"] if float(r) > 0]
    if highlight and float(highlight["runtime"]) > 0:
        runtimes.append(float(highlight["runtime"]))
    if runtimes and max(runtimes) / min(runtimes) > LOG_RUNTIME_RATIO:
        fig.update_xaxes(type="log", title="Runtime (seconds, log scale)")
    else:
        fig.update_xaxes(title="Runtime (seconds)")
    fig.update_yaxes(title="Bias-aware score")
    fig.update_layout(title="Score against runtime", height=460, **LAYOUT)
    return fig


def boost_figure(eff: pd.DataFrame, colors: Mapping[str, str]) -> go.Figure:
    fig = go.Figure(go.Bar(
        x=[html(t) for t in eff["team"]], y=(eff["boost"] * 100.0).tolist(),
        marker_color=[colors.get(t) for t in eff["team"]],
        text=[f"{b * 100:.2f} %" for b in eff["boost"]], textposition="outside",
        hovertemplate="%{x}<br>boost %{y:.2f} %<extra></extra>",
    ))
    fig.update_layout(title="Boost per team", height=280, showlegend=False,
                      margin=dict(l=10, r=10, t=50, b=10))
    fig.update_yaxes(title="Boost (%)", rangemode="tozero")
    fig.update_xaxes(title="Team")
    return fig
