"""The Efficiency page: its table, score against runtime with the eligibility band and the
boost window (zoomed to the eligible teams, readable log ticks), and the boost against
runtime as a curve with every team on it."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from scoring.shovel_ready import eligibility_threshold
from scoring.shovel_ready.efficiency import boost_window

from ..words.text import html
from .common import LAYOUT, log_ticks


def efficiency_table(eff: pd.DataFrame) -> pd.DataFrame:
    """The Efficiency page's table: words as on the Leaderboard (eligible yes/no), the runtime
    a number (so the column sorts by value; empty when unknown), the boost in percent."""
    return pd.DataFrame({
        "Team": eff["team"].to_numpy(),
        "Bias-aware score": eff["score"].to_numpy(),
        "Runtime (s)": eff["runtime"].astype(float).to_numpy(),
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


def seconds(x: float) -> str:
    """A runtime for a tick or a label: ``38 s``, ``1,710 s``, ``1.2e+05 s``, ``0.05 s``."""
    if x >= 1e5:
        return f"{x:.2g} s"
    return f"{x:,.0f} s" if x >= 10 else f"{x:.3g} s"


def what_if_field(res: Mapping[str, Any], name: str) -> pd.DataFrame:
    """The field as a what-if (:func:`scoring.what_if`'s result for ``name``) leaves it, in the
    shape of :func:`efficiency_frame`: every other team's eligibility, boost and final score as
    the what-if recomputed them (the team the what-if starts from is the what-if itself)."""
    t = res["table"]
    t = t[t["submission"].astype(str) != name]
    return pd.DataFrame({
        "team": t["submission"].astype(str).to_numpy(),
        "score": t["score"].astype(float).to_numpy(),
        "runtime": t["runtime"].astype(float).to_numpy(),
        "eligible": t["eligible"].astype(bool).to_numpy(),
        "boost": t["boost"].astype(float).to_numpy(),
        "final": t["final_score"].astype(float).to_numpy(),
        "rank": t["rank"].astype(int).to_numpy(),
    })


def _rule(eff: pd.DataFrame, band: float, window: float, what_if: Mapping[str, Any] | None
          ) -> tuple[float, float, tuple[float, float] | None]:
    """(best score, eligibility threshold, boost window) — the what-if's own when there is one
    (the chart draws what the numbers beside it say), else the field's, by the engine's rule."""
    if what_if is not None:
        return float(what_if["best"]), float(what_if["threshold_score"]), what_if["window"]
    best = float(eff["score"].max()) if len(eff) else 0.0
    return best, eligibility_threshold(best, band), boost_window(eff, window)


def _zoom(eff: pd.DataFrame, best: float, threshold: float, span: tuple[float, float] | None,
          highlight: Mapping[str, Any] | None):
    """(score range, runtime range) around the eligible teams (and the what-if), or None."""
    elig = eff[eff["eligible"].astype(bool) & eff["runtime"].notna()]
    if span is None:
        return None
    lo_s = min([threshold] + [float(x) for x in elig["score"]])
    hi_s = best
    rts = [float(r) for r in elig["runtime"]] + list(span)
    if highlight:
        lo_s, hi_s = min(lo_s, float(highlight["score"])), max(hi_s, float(highlight["score"]))
        rts.append(float(highlight["runtime"]))
    pad = max(hi_s - lo_s, 0.01) * 0.35
    return (lo_s - pad, hi_s + pad), (min(rts), max(rts))


def _x_range(box, log: bool) -> tuple[float, float]:
    """The runtime axis' range (in seconds) around a zoom box's runtimes."""
    x0, x1 = box[1]
    if log:
        return x0 / 10 ** 0.15, x1 * 10 ** 0.15
    span = max(x1 - x0, x0 * 0.1)
    return x0 - 0.12 * span, x1 + 0.12 * span


def efficiency_figure(eff: pd.DataFrame, colors: Mapping[str, str], band: float, window: float,
                      zoom: bool = False, *, what_if: Mapping[str, Any] | None = None) -> go.Figure:
    """Score against runtime; the eligibility band and the boost window shaded and labelled.

    ``what_if``: :func:`scoring.what_if`'s result for the row ``what_if["name"]`` — the field is
    then :func:`what_if_field` and the band and window are the result's own (``best``,
    ``threshold_score``, ``window``), so the chart shows exactly what the numbers beside it say;
    the what-if is a star, drawn last and larger with a white rim and its label above.
    ``zoom``: show the eligible teams (and the what-if) only, with room around them (the
    other teams are a double-click away, and only the teams in view are in the legend)."""
    highlight = None
    if what_if is not None:
        name = str(what_if["name"])
        me = what_if["table"].set_index("submission").loc[name]
        highlight = {"name": name, "score": float(me["score"]), "runtime": float(me["runtime"]),
                     "boost": float(me["boost"])}
        eff = what_if_field(what_if, name)
    best, threshold, span = _rule(eff, band, window, what_if)
    fig = go.Figure()
    known = eff.dropna(subset=["runtime"])
    if best > 0:
        fig.add_hrect(y0=threshold, y1=best, fillcolor="#54A24B", opacity=0.15, line_width=0,
                      annotation_text=f"eligibility band: within {band * 100:g} % of the best score",
                      annotation_position="top left")
    if span is not None:
        fig.add_vrect(x0=span[0], x1=span[1], fillcolor="#F58518", opacity=0.14, line_width=0,
                      annotation_text=f"boost window {seconds(span[0])}–{seconds(span[1])}",
                      annotation_position="bottom left")
    runtimes = [float(r) for r in known["runtime"] if float(r) > 0]
    if highlight and highlight["runtime"] > 0:
        runtimes.append(highlight["runtime"])
    box = _zoom(eff, best, threshold, span, highlight) if zoom else None
    if box is not None:
        runtimes = [r for r in runtimes if box[1][0] <= r <= box[1][1]]
    log = bool(runtimes) and max(runtimes) / min(runtimes) > LOG_RUNTIME_RATIO
    xr = _x_range(box, log) if box is not None else None
    # Only eligible teams carry a label (alternately above and below, by runtime, so that
    # neighbours do not collide); the others are named on hover and in the legend.
    labelled = known[known["eligible"]].sort_values("runtime")["team"].tolist()
    position = {t: ("top center" if i % 2 == 0 else "bottom center") for i, t in enumerate(labelled)}
    for rec in known.to_dict("records"):
        name = rec["team"]
        label = f"{html(name)} +{rec['boost'] * 100:.2f} %" if rec["boost"] > 0 else html(name)
        in_view = box is None or (xr[0] <= rec["runtime"] <= xr[1] and box[0][0] <= rec["score"] <= box[0][1])
        fig.add_trace(go.Scatter(
            x=[rec["runtime"]], y=[rec["score"]], mode="markers+text" if name in position else "markers",
            name=html(name), showlegend=in_view,
            marker=dict(color=colors.get(name), size=12 + 200 * rec["boost"],
                        line=dict(color="#222" if rec["eligible"] else "white", width=1.5)),
            text=[label] if name in position else None, textposition=position.get(name, "top center"),
            hovertemplate=(f"<b>{html(name)}</b><br>runtime %{{x:.4g}} s<br>score %{{y:.4f}}<br>"
                           f"boost {rec['boost'] * 100:.2f} %<br>final {rec['final']:.4f}<extra></extra>"),
        ))
    if highlight:
        label = "what-if" + (f" +{highlight['boost'] * 100:.2f} %" if highlight["boost"] > 0 else "")
        side = "top center"  # zoomed, the label leans into the chart, never cut at its edge
        if xr is not None:
            x, (a, b) = highlight["runtime"], ((math.log10(xr[0]), math.log10(xr[1])) if log else xr)
            x = math.log10(x) if log and x > 0 else x
            side = "top right" if x < a + (b - a) / 3 else "top left" if x > b - (b - a) / 3 else side
        fig.add_trace(go.Scatter(
            x=[highlight["runtime"]], y=[highlight["score"]], mode="markers+text", name="What-if",
            marker=dict(symbol="star", size=26, color="#111", line=dict(color="white", width=2)), text=[label],
            textposition=side, textfont=dict(size=13, color="#111"),
            hovertemplate="what-if<br>runtime %{x:.4g} s<br>score %{y:.4f}<extra></extra>",
        ))
    if box is not None:
        fig.update_xaxes(range=[math.log10(xr[0]), math.log10(xr[1])] if log else list(xr))
        fig.update_yaxes(range=list(box[0]))
    if log:
        ticks = log_ticks(min(runtimes) / 1.5, max(runtimes) * 1.5)
        fig.update_xaxes(type="log", title="Runtime (seconds, log scale)", tickvals=ticks,
                         ticktext=[seconds(t) for t in ticks])
    else:
        fig.update_xaxes(title="Runtime (seconds)")
    fig.update_yaxes(title="Bias-aware score")
    fig.update_layout(title="Score against runtime" + (" — the eligible teams" if box is not None else ""),
                      height=460, **LAYOUT)
    return fig


def boost_curve(fastest: float, max_boost: float, window: float, right: float) -> tuple[list[float], list[float]]:
    """The boost (in %) an eligible run gets at each runtime when the fastest eligible runtime is
    ``fastest``: the maximum up to it, falling linearly to 0 at ``fastest · (1 + window)``, then
    0 (out to ``right``).

    >>> boost_curve(100.0, 0.05, 0.2, 200.0)
    ([0.0, 100.0, 120.0, 200.0], [5.0, 5.0, 0.0, 0.0])
    """
    end = fastest * (1 + window)
    xs = [0.0, fastest, end, max(right, end)]
    return xs, [max_boost * 100.0, max_boost * 100.0, 0.0, 0.0]


def boost_figure(eff: pd.DataFrame, colors: Mapping[str, str], max_boost: float, window: float,
                 highlight: Mapping[str, float] | None = None) -> go.Figure:
    """The boost against runtime: the curve for the eligible teams (full up to the fastest
    eligible runtime, linearly down to none at the end of the window) with every team with a
    runtime on it — the eligible ones on the curve, the others at 0, hollow."""
    known = eff.dropna(subset=["runtime"])
    elig = known[known["eligible"].astype(bool)]
    fig = go.Figure()
    if len(elig):
        fastest = float(elig["runtime"].min())
        right = max(float(known["runtime"].max()), fastest * (1 + window)) * 1.15
        xs, ys = boost_curve(fastest, max_boost, window, right)
        xs[0] = min(float(known["runtime"].min()), fastest) / 1.15
        fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines", name="boost of an eligible run",
                                 line=dict(color="#F58518", width=3), hoverinfo="skip"))
    for rec in known.to_dict("records"):
        on = bool(rec["eligible"])
        fig.add_trace(go.Scatter(
            x=[rec["runtime"]], y=[rec["boost"] * 100.0], mode="markers+text" if on else "markers", name=html(rec["team"]),
            marker=dict(size=13, color=colors.get(rec["team"]) if on else "white",
                        line=dict(color=colors.get(rec["team"]), width=2)),
            text=[html(rec["team"])] if on else None, textposition="top center", cliponaxis=False,
            hovertemplate=(f"<b>{html(rec['team'])}</b><br>runtime %{{x:.4g}} s<br>boost %{{y:.2f}} %"
                           f"{'' if on else '<br>not eligible'}<extra></extra>"),
        ))
    if highlight:
        fig.add_trace(go.Scatter(
            x=[highlight["runtime"]], y=[highlight["boost"] * 100.0], mode="markers+text", name="What-if",
            marker=dict(symbol="star", size=22, color="#111", line=dict(color="white", width=2)),
            text=["what-if"], textposition="top center",
            hovertemplate="what-if<br>runtime %{x:.4g} s<br>boost %{y:.2f} %<extra></extra>"))
    rts = [float(r) for r in known["runtime"] if r > 0] + ([float(highlight["runtime"])] if highlight else [])
    if rts and max(rts) / min(rts) > LOG_RUNTIME_RATIO:
        ticks = log_ticks(min(rts) / 1.5, max(rts) * 1.5)
        fig.update_xaxes(type="log", tickvals=ticks, ticktext=[seconds(t) for t in ticks],
                         title="Runtime (seconds, log scale)")
    else:
        fig.update_xaxes(title="Runtime (seconds)", rangemode="tozero")
    fig.update_yaxes(title="Boost (%)", range=[-0.6, max(max_boost * 100.0, 0.5) * 1.3])
    fig.update_layout(title="Boost against runtime", height=340, **LAYOUT)
    return fig
