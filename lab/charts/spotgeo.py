"""The spotGEO pages' figures, pure functions of frames: one 640 × 480 frame drawn to scale
(objects, predictions, τ and ε circles, match lines), the ranks under both rule sets, the
misses by brightness, the errors by position, what each MSE is made of, and the costliest
sequences. Every user string (team names) goes through :func:`~lab.words.text.html`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ..words.text import html
from .common import LAYOUT, rank_axis, wrapped_ticks

WIDTH, HEIGHT = 640, 480
#: one colour per outcome, on every spotGEO chart and in every legend
OUTCOME = {"TP": "#2CA02C", "FP": "#FF7F0E", "FN": "#D62728"}
PARTS = (("tp", "Localisation (TP at d ≥ ε)", OUTCOME["TP"]), ("fp", "False alarms (FP × τ²)", OUTCOME["FP"]),
         ("fn", "Misses (FN × τ²)", OUTCOME["FN"]))
_BG, _RING = "#0B1020", "#9AA5B1"
_CIRCLE = np.linspace(0.0, 2.0 * np.pi, 49)


def _rings(xy: np.ndarray, r: float) -> tuple[list, list]:
    """Circles of radius ``r`` around every point, as one None-separated polyline."""
    xs: list = []
    ys: list = []
    for x, y in xy:
        xs += list(x + r * np.cos(_CIRCLE)) + [None]
        ys += list(y + r * np.sin(_CIRCLE)) + [None]
    return xs, ys


def _segments(a: np.ndarray, b: np.ndarray) -> tuple[list, list]:
    xs: list = []
    ys: list = []
    for (x0, y0), (x1, y1) in zip(a, b, strict=True):
        xs += [x0, x1, None]
        ys += [y0, y1, None]
    return xs, ys


def _or_none(values: pd.Series) -> list:
    """The values, or ``[None]`` (an empty trace keeps its legend entry, so the key is complete)."""
    return values.tolist() if len(values) else [None]


def frame_figure(objects: pd.DataFrame, predictions: pd.DataFrame, candidates: pd.DataFrame, *, tau: float,
                 epsilon: float, title: str, zoom: tuple[float, float, float] | None = None, aspect: float = 0.75,
                 height: int = 760, legend_below: bool = False) -> go.Figure:
    """One frame to scale, y pointing down like an image: true objects (○, green found / red
    missed), predictions (×, green matched / orange false alarm), a τ circle and an ε circle
    around every object, a line for every match and a dotted line for every other pair
    within τ. ``objects``/``predictions``/``candidates`` as ``explain_frame`` returns them
    (numbered from 1); ``zoom = (x, y, half-width)`` shows only that part (``aspect`` = its
    height / width)."""
    fig = go.Figure()
    oxy = objects[["x", "y"]].to_numpy(float)
    pxy = predictions[["x", "y"]].to_numpy(float)
    xs, ys = _rings(oxy, tau)
    fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines", name=f"τ = {tau:g} px around each object",
                             line=dict(color=_RING, width=1), hoverinfo="skip"))
    if epsilon > 0:
        xs, ys = _rings(oxy, epsilon)
        fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines", name=f"ε = {epsilon:g} px (no error inside)",
                                 line=dict(color=_RING, width=1, dash="dot"), hoverinfo="skip"))
    other = candidates[~candidates["matched"].astype(bool)] if len(candidates) else candidates
    if len(other):
        xs, ys = _segments(pxy[other["prediction"].to_numpy(int) - 1], oxy[other["object"].to_numpy(int) - 1])
        fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines", name="Other pair within τ (not matched)",
                                 line=dict(color="#C8CDD3", width=1, dash="dot"), hoverinfo="skip"))
    tp = predictions[predictions["label"] == "TP"]
    xs, ys = _segments(tp[["x", "y"]].to_numpy(float), oxy[tp["object"].to_numpy(int) - 1] if len(tp) else [])
    fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines", name="Match (a TP pair)",
                             line=dict(color=OUTCOME["TP"], width=2), hoverinfo="skip"))
    bright = "brightness" in objects
    for label, name in (("TP", "True object, found (TP)"), ("FN", "True object, missed (FN)")):
        o = objects[objects["label"] == label]
        hover = [f"Object {int(r.object)} ({r.x:.1f}, {r.y:.1f})"
                 + (f"<br>brightness {r.brightness:.1f}" if bright else "")
                 + (f"<br>found by prediction {int(r.prediction)}, d = {r.d:.2f} px" if label == "TP" else
                    "<br>missed: no prediction matched within τ")
                 for r in o.itertuples()]
        fig.add_trace(go.Scatter(x=_or_none(o["x"]), y=_or_none(o["y"]), mode="markers", name=name, hovertext=hover,
                                 hoverinfo="text",
                                 marker=dict(symbol="circle-open", size=15, color=OUTCOME[label],
                                             line=dict(width=2.5))))
    for label, name in (("TP", "Prediction, matched (TP)"), ("FP", "Prediction, false alarm (FP)")):
        q = predictions[predictions["label"] == label]
        hover = [f"Prediction {int(r.prediction)} ({r.x:.1f}, {r.y:.1f})"
                 + (f"<br>matched to object {int(r.object)}, d = {r.d:.2f} px<br>adds {r.penalty:.2f} to the SSE"
                    if label == "TP" else f"<br>false alarm: adds τ² = {tau ** 2:g} to the SSE")
                 for r in q.itertuples()]
        fig.add_trace(go.Scatter(x=_or_none(q["x"]), y=_or_none(q["y"]), mode="markers", name=name, hovertext=hover,
                                 hoverinfo="text",
                                 marker=dict(symbol="x-thin", size=11, color=OUTCOME[label],
                                             line=dict(width=2.5, color=OUTCOME[label]))))
    if zoom is None:
        xr, yr = [-0.5, WIDTH - 0.5], [HEIGHT - 0.5, -0.5]
    else:
        cx, cy, h = zoom
        xr, yr = [cx - h, cx + h], [cy + aspect * h, cy - aspect * h]
    fig.update_xaxes(range=xr, showgrid=False, zeroline=False, constrain="domain", title="x (px)")
    fig.update_yaxes(range=yr, showgrid=False, zeroline=False, scaleanchor="x", scaleratio=1, constrain="domain",
                     title="y (px)")
    fig.add_shape(type="rect", x0=-0.5, y0=-0.5, x1=WIDTH - 0.5, y1=HEIGHT - 0.5, layer="below",
                  line=dict(color="#5B6573", width=1), fillcolor=_BG)
    fig.update_layout(title=html(title), height=height, plot_bgcolor="#1A2133",
                      legend=dict(orientation="h", x=0, yref="container", y=0, yanchor="bottom") if legend_below else
                      dict(orientation="v", x=1.02, y=1, bgcolor="rgba(0,0,0,0)"),
                      margin=dict(l=10, r=10, t=50, b=100 if legend_below else 10), hovermode="closest")
    return fig


def rank_slope(ranks: pd.DataFrame, columns: Sequence[tuple[str, str]], colors: Mapping[str, str],
               title: str) -> go.Figure:
    """Each team's rank in each of ``columns`` ((column, label) pairs of ``ranks``, which has
    a ``submission`` column), 1 at the top; one line per team, in ``ranks``' order."""
    fig = go.Figure()
    labels = [label for _, label in columns]
    n = len(ranks)
    for rec in ranks.to_dict("records"):
        name = str(rec["submission"])
        y = [int(rec[c]) for c, _ in columns]
        fig.add_trace(go.Scatter(x=labels, y=y, mode="lines+markers", name=html(name),
                                 line=dict(color=colors.get(name), width=3), marker=dict(size=11),
                                 hovertemplate=f"<b>{html(name)}</b><br>%{{x}}: rank %{{y}}<extra></extra>"))
    fig.update_yaxes(title="Rank", **rank_axis(n))
    fig.update_xaxes(**wrapped_ticks(labels))  # every rule set named, on lines, never dropped
    fig.update_layout(title=title, height=max(300, 36 * n + 140), **LAYOUT)
    return fig


def brightness_figure(bins: pd.DataFrame, team: str) -> go.Figure:
    """Found (TP) and missed (FN) objects per brightness bin, stacked, with the recall."""
    fig = go.Figure()
    for col, name, label in (("tp", "Found (TP)", "TP"), ("fn", "Missed (FN)", "FN")):
        fig.add_trace(go.Bar(x=bins["label"], y=bins[col], name=name, marker_color=OUTCOME[label],
                             hovertemplate=f"%{{x}}: %{{y}} {name.lower()}<extra></extra>"))
    fig.add_trace(go.Scatter(x=bins["label"], y=bins["objects"], mode="text", showlegend=False, hoverinfo="skip",
                             text=[f"recall {r:.0%}" for r in bins["recall"]], textposition="top center"))
    top = float(bins["objects"].max()) if len(bins) else 1.0
    fig.update_yaxes(title="Objects", range=[0, top * 1.15 + 1])
    fig.update_xaxes(title="Object brightness (signal-to-noise ratio)", type="category")
    fig.update_layout(barmode="stack", title=f"{html(team)}: objects found and missed, by brightness", height=380,
                      **{**LAYOUT, "legend_title_text": "Outcome"})
    return fig


def position_figure(cells: pd.DataFrame, team: str, cell: float) -> go.Figure:
    """Two maps of the frame: misses (FN) and false alarms (FP) per ``cell``-pixel square."""
    xs = sorted(cells["x0"].unique())
    ys = sorted(cells["y0"].unique())
    fig = make_subplots(rows=1, cols=2, horizontal_spacing=0.08,
                        subplot_titles=("Misses (FN) per cell", "False alarms (FP) per cell"))
    for j, (col, of, label) in enumerate((("fn", "objects", "FN"), ("fp", "predictions", "FP")), start=1):
        z = cells.pivot(index="y0", columns="x0", values=col).reindex(index=ys, columns=xs).to_numpy()
        n = cells.pivot(index="y0", columns="x0", values=of).reindex(index=ys, columns=xs).to_numpy()
        fig.add_trace(go.Heatmap(x=[x + cell / 2 for x in xs], y=[y + cell / 2 for y in ys], z=z, customdata=n,
                                 colorscale=[[0, "#FFFFFF"], [1, OUTCOME[label]]], showscale=False,
                                 texttemplate="%{z}", xgap=1, ygap=1,
                                 hovertemplate=f"cell at (%{{x}}, %{{y}}): %{{z}} {label} of %{{customdata}} "
                                               f"{of}<extra></extra>"), row=1, col=j)
        fig.update_xaxes(range=[-0.5, WIDTH - 0.5], constrain="domain", title="x (px)", row=1, col=j)
        fig.update_yaxes(range=[HEIGHT - 0.5, -0.5], scaleanchor="x" if j == 1 else "x2", scaleratio=1,
                         constrain="domain", title="y (px)", row=1, col=j)
    fig.update_layout(title=f"{html(team)}: where the errors are", height=470,
                      margin=dict(l=10, r=10, t=80, b=10))
    return fig


def mse_parts_figure(parts: pd.DataFrame, team: str) -> go.Figure:
    """Each team's MSE split into localisation error, false alarms and misses (stacked bars,
    teams in leaderboard order, the chosen team's name in bold)."""
    fig = go.Figure()
    names = [f"<b>{html(t)}</b>" if t == team else html(t) for t in parts["team"]]
    for col, name, color in PARTS:
        fig.add_trace(go.Bar(y=names, x=parts[col], name=name, orientation="h", marker_color=color,
                             hovertemplate=f"%{{y}}: %{{x:.2f}} from {name.lower()}<extra></extra>"))
    fig.update_yaxes(autorange="reversed")
    fig.update_xaxes(title="MSE, by part")
    fig.update_layout(barmode="stack", title="What each team's MSE is made of", height=max(260, 34 * len(parts) + 120),
                      **{**LAYOUT, "legend_title_text": "Part"}, legend_traceorder="normal")
    return fig


def sequence_cost_figure(costs: pd.DataFrame, team: str, top: int = 10) -> go.Figure:
    """The ``top`` sequences adding most to the team's MSE (``sequence_costs`` order)."""
    head = costs.head(top)
    fig = go.Figure(go.Bar(x=[f"seq {int(s)}" for s in head["sequence_id"]], y=head["contribution"],
                           marker_color="#4C78A8", customdata=head[["tp", "fp", "fn"]].to_numpy(),
                           hovertemplate="%{x}: adds %{y:.3f} to the MSE<br>TP %{customdata[0]}, FP "
                                         "%{customdata[1]}, FN %{customdata[2]}<extra></extra>"))
    fig.update_xaxes(type="category", title="Sequence")
    fig.update_yaxes(title="Added to the MSE")
    fig.update_layout(title=f"{html(team)}: the {len(head)} sequences that cost the most", height=340, **LAYOUT)
    return fig
