"""The QA pages' figures and tables, pure functions of the engine's frames: what each theme adds to a
team's final score, the chance of being first and the rank range under unknown weights, the
map of the winner over the weight simplex (3 themes) or along a segment (2 themes), average
inference times against the threshold, and what 10 ms saved would gain.

Every team and theme name goes through :func:`lab.words.text.html` (Plotly renders a few HTML tags
in labels and hover text)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from ..words.text import html
from .common import LAYOUT, log_ticks, rank_axis
from .tables import rank_arrow

#: The AIT axis turns logarithmic above this max/min ratio of the times shown.
LOG_TIME_RATIO = 20.0
#: A region of the winner map smaller than this share carries no name inside (the legend has it).
MIN_LABELLED_SHARE = 0.08


def _pct(x: float) -> str:
    return f"{x * 100:.0f} %" if x == 0 or x >= 0.005 else "< 1 %"


def contributions(tt: pd.DataFrame, order: Sequence[str], theme_colors: Mapping[str, str]) -> go.Figure:
    """Per team (leaderboard order, first at the top), one bar segment per theme: weight ×
    theme score; the bar's length is the final score."""
    fig = go.Figure()
    y = [html(t) for t in order]
    for theme, part in tt.groupby("theme", sort=True):
        part = part.set_index("submission").reindex(order)
        fig.add_trace(go.Bar(
            y=y, x=part["contribution"].tolist(), orientation="h", name=html(theme),
            marker_color=theme_colors.get(str(theme)),
            customdata=np.column_stack([part["score"], part["weight"]]).tolist(),
            hovertemplate=(f"%{{y}}<br>{html(theme)}: score %{{customdata[0]:.4f}} × weight "
                           "%{customdata[1]:.4g} = %{x:.4f}<extra></extra>"),
        ))
    fig.update_layout(barmode="stack", title="What each theme adds<br>to the final score",  # two lines: half a page
                      height=max(300, 34 * len(order) + 150), legend_traceorder="normal",
                      **{**LAYOUT, "legend_title_text": "Theme"})
    fig.update_yaxes(autorange="reversed", title=None, automargin=True)
    fig.update_xaxes(title="Final score (weight × theme score)")
    return fig


def chance_first(lb: pd.DataFrame, colors: Mapping[str, str]) -> go.Figure:
    """``p_first`` per team: the share of random weightings in which it ranks first."""
    names = [str(t) for t in lb["submission"]]
    p = lb["p_first"].astype(float).tolist()
    fig = go.Figure(go.Bar(
        y=[html(t) for t in names], x=p, orientation="h", marker_color=[colors.get(t) for t in names],
        text=[_pct(v) for v in p], textposition="outside", cliponaxis=False,
        hovertemplate="%{y}<br>first in %{x:.1%} of random weightings<extra></extra>",
    ))
    fig.update_layout(title="Chance of being first (p_first)", height=max(300, 34 * len(names) + 150),
                      showlegend=False, margin=dict(l=10, r=40, t=80, b=10))
    fig.update_yaxes(autorange="reversed", automargin=True)
    fig.update_xaxes(title="Share of random weightings", tickformat=".0%", range=[0, 1.08])
    return fig


def rank_range(lb: pd.DataFrame, colors: Mapping[str, str]) -> go.Figure:
    """Per team: a bar from its best to its worst rank over the random weightings, a dot at
    the median, and a diamond at its rank under the current weights."""
    names = [str(t) for t in lb["submission"]]
    n = len(names)
    fig = go.Figure()
    for rec in lb.to_dict("records"):
        name, c = str(rec["submission"]), colors.get(str(rec["submission"]))
        lo, hi = int(rec["best_rank"]), int(rec["worst_rank"])
        fig.add_trace(go.Scatter(
            x=[lo - 0.25, hi + 0.25], y=[html(name)] * 2, mode="lines", line=dict(color=c, width=14),
            opacity=0.45, name=html(name), showlegend=False,
            hovertemplate=f"{html(name)}<br>rank {lo} to {hi} under random weights<extra></extra>",
        ))
    common = dict(y=[html(t) for t in names], showlegend=True)
    fig.add_trace(go.Scatter(x=lb["median_rank"].astype(float).tolist(), mode="markers", name="Median rank",
                             marker=dict(color="#333", size=10), **common,
                             hovertemplate="%{y}<br>median rank %{x:g}<extra></extra>"))
    fig.add_trace(go.Scatter(x=lb["rank"].astype(int).tolist(), mode="markers", name="Rank under the current weights",
                             marker=dict(symbol="diamond-open", color="#D62728", size=15, line=dict(width=3)),
                             **common, hovertemplate="%{y}<br>rank %{x} under the current weights<extra></extra>"))
    fig.update_layout(title="Rank range under random weights", height=max(300, 34 * n + 170),
                      margin=dict(l=10, r=10, t=80, b=10),
                      legend=dict(orientation="h", yanchor="bottom", y=1.0, xanchor="left", x=0))
    fig.update_yaxes(autorange="reversed", automargin=True)
    fig.update_xaxes(title="Rank", **rank_axis(n, reverse=False))
    return fig


def winner_map(result: Mapping, colors: Mapping[str, str], *, mass: float) -> go.Figure:
    """The team ranked first at every point of the weight simplex of the chosen themes
    (``Scorer.winner_regions``): a filled region per team on a ternary plot for 3 themes, a
    segment per team for 2; the current weights marked. ``mass`` is the weight the chosen
    themes have together (each axis shows the theme's share of it)."""
    themes = [str(t) for t in result["themes"]]
    regions = [r for r in result["regions"] if r["vertices"]]
    if len(themes) == 2:
        return _segment_map(themes, regions, result.get("current"), colors)
    fig = go.Figure()
    for r in regions:
        name = str(r["submission"])
        v = np.array(r["vertices"] + [r["vertices"][0]], dtype=float)
        label = f"{html(name)} ({_pct(r['share'])})"
        fig.add_trace(go.Scatterternary(
            a=v[:, 0].tolist(), b=v[:, 1].tolist(), c=v[:, 2].tolist(), mode="lines", fill="toself",
            fillcolor=colors.get(name), opacity=0.55, line=dict(color="white", width=1.5), name=label,
            hoveron="fills", hoverinfo="name",
        ))
        if r["share"] < MIN_LABELLED_SHARE:  # too small to hold its name: the legend has it
            continue
        centre = v[:-1].mean(axis=0)
        fig.add_trace(go.Scatterternary(
            a=[centre[0]], b=[centre[1]], c=[centre[2]], mode="text", text=[label], showlegend=False,
            textfont=dict(size=13, color="#111"), hoverinfo="skip",
        ))
    cur = result.get("current")
    if cur is not None:
        fig.add_trace(go.Scatterternary(
            a=[cur[0]], b=[cur[1]], c=[cur[2]], mode="markers", name="Current weights",
            marker=dict(symbol="star", size=18, color="#111", line=dict(color="white", width=1)),
            hovertemplate=(f"current weights<br>{html(themes[0])} %{{a:.0%}}, {html(themes[1])} %{{b:.0%}}, "
                           f"{html(themes[2])} %{{c:.0%}} of {mass:.4g}<extra></extra>"),
        ))
    axis = dict(tickformat=".0%", linewidth=1, ticks="outside")
    fig.update_layout(
        title="Who is first where: the weight split between the three themes",
        ternary=dict(sum=1, aaxis=dict(title=html(themes[0]), **axis), baxis=dict(title=html(themes[1]), **axis),
                     caxis=dict(title=html(themes[2]), **axis)),
        height=560, **{**LAYOUT, "margin": dict(l=60, r=60, t=90, b=40)},
    )
    return fig


def _segment_map(themes: list[str], regions: list[dict], cur, colors: Mapping[str, str]) -> go.Figure:
    fig = go.Figure()
    for r in regions:
        name = str(r["submission"])
        x = [r["vertices"][0][0], r["vertices"][1][0]]
        fig.add_trace(go.Scatter(
            x=x, y=[0, 0], mode="lines", line=dict(color=colors.get(name), width=36),
            name=f"{html(name)} ({_pct(r['share'])})",
            hovertemplate=f"{html(name)} is first<br>{html(themes[0])} share %{{x:.0%}}<extra></extra>",
        ))
    if cur is not None:
        fig.add_trace(go.Scatter(x=[cur[0]], y=[0], mode="markers", name="Current weights",
                                 marker=dict(symbol="star", size=20, color="#111"),
                                 hovertemplate=f"current weights<br>{html(themes[0])} share %{{x:.0%}}<extra></extra>"))
    fig.update_xaxes(range=[1.02, -0.02], tickformat=".0%",
                     title=f"Share of {html(themes[0])} (the rest: {html(themes[1])})")
    fig.update_yaxes(visible=False, range=[-1, 1])
    fig.update_layout(title="Who is first where: the weight split between the two themes", height=260, **LAYOUT)
    return fig


def ait_chart(sp: pd.DataFrame, order: Sequence[str], theme_colors: Mapping[str, str], threshold: float) -> go.Figure:
    """Average inference time per team (leaderboard order, a row each) and theme (a marker
    each, the themes side by side within the row), against the threshold line: a filled
    marker is over the threshold (the theme's score is scaled down)."""
    fig = go.Figure()
    row = {t: i for i, t in enumerate(order)}
    themes = sorted(sp["theme"].astype(str).unique())
    spread = 0.5 / max(1, len(themes) - 1) if len(themes) > 1 else 0.0
    for k, (theme, part) in enumerate(sp.groupby("theme", sort=True)):
        part = part.set_index("submission").reindex(order)
        over = (part["over_ms"] > 0).to_numpy()
        offset = (k - (len(themes) - 1) / 2) * spread
        fig.add_trace(go.Scatter(
            x=part["ait_ms"].tolist(), y=[row[t] + offset for t in order], mode="markers", name=html(theme),
            marker=dict(color=theme_colors.get(str(theme)), size=12,
                        symbol=["circle" if o else "circle-open" for o in over], line=dict(width=2)),
            customdata=[[html(t), m] for t, m in zip(order, part["multiplier"], strict=True)],
            hovertemplate=(f"%{{customdata[0]}} · {html(theme)}<br>AIT %{{x:.1f}} ms<br>"
                           "multiplier %{customdata[1]:.3f}<extra></extra>"),
        ))
    times = [float(v) for v in sp["ait_ms"] if float(v) > 0] + [float(threshold)]
    log = max(times) / min(times) > LOG_TIME_RATIO
    # a shape takes data units on a log axis, an annotation the log of them (plotly.py#2580)
    fig.add_vline(x=float(threshold), line=dict(color="#D62728", dash="dash"))
    fig.add_annotation(x=float(np.log10(threshold)) if log else float(threshold), y=1, xref="x", yref="paper",
                       text=f"threshold T = {threshold:g} ms", showarrow=False, xanchor="left", yanchor="bottom",
                       font=dict(color="#D62728"))
    fig.update_xaxes(type="log" if log else "linear",
                     title="Average inference time per question, AIT (ms" + (", log scale)" if log else ")"))
    if log:  # labelled ticks at 1, 2 and 5 of each decade (plotly labels 200 ms as a bare "2")
        ticks = log_ticks(min(times) / 1.2, max(times) * 1.2)
        fig.update_xaxes(tickvals=ticks, ticktext=[f"{t:,g}" for t in ticks])
    fig.update_yaxes(tickmode="array", tickvals=list(range(len(order))), ticktext=[html(t) for t in order],
                     range=[len(order) - 0.5, -0.5], automargin=True, showgrid=False, zeroline=False)
    for i in range(len(order) - 1):  # a light rule between the teams' rows
        fig.add_hline(y=i + 0.5, line=dict(color="#E6E6E6", width=1))
    fig.update_layout(title="Average inference time per theme (filled: over the threshold, scored down)",
                      height=max(320, 46 * len(order) + 160), **{**LAYOUT, "legend_title_text": "Theme"})
    return fig


def gain_chart(sp: pd.DataFrame, order: Sequence[str], theme_colors: Mapping[str, str], step_ms: float) -> go.Figure:
    """Per team, what its final score gains when a theme's AIT drops by ``step_ms``, one bar
    segment per theme (the bar: every theme ``step_ms`` faster)."""
    fig = go.Figure()
    y = [html(t) for t in order]
    for theme, part in sp.groupby("theme", sort=True):
        part = part.set_index("submission").reindex(order)
        fig.add_trace(go.Bar(
            y=y, x=part["gain"].tolist(), orientation="h", name=html(theme), marker_color=theme_colors.get(str(theme)),
            hovertemplate=f"%{{y}} · {html(theme)}<br>+%{{x:.5f}} final score for {step_ms:g} ms saved<extra></extra>",
        ))
    fig.update_layout(barmode="stack", title=f"What {step_ms:g} ms saved per question would add to the final score",
                      height=max(300, 34 * len(order) + 150), legend_traceorder="normal",
                      **{**LAYOUT, "legend_title_text": "Theme"})
    fig.update_yaxes(autorange="reversed", automargin=True)
    fig.update_xaxes(title="Gain in final score", rangemode="tozero")
    return fig


# ---- tables (the pages' st.dataframe frames) ------------------------------------------------------
METRIC_LABELS = (("accuracy", "accuracy"), ("f1", "F1"), ("ait_ms", "AIT (ms)"), ("multiplier", "multiplier"),
                 ("score", "score"))


def leaderboard_table(lb: pd.DataFrame, changes: pd.DataFrame) -> pd.DataFrame:
    """Rank (▲/▼ against equal weights), final score, then per theme its five numbers."""
    eq = dict(zip(changes["submission"].astype(str), changes["equal_rank"].astype(int), strict=True))
    names = lb["submission"].astype(str).tolist()
    out = pd.DataFrame({"Team": names,
                        "Rank": [rank_arrow(eq[t], r) for t, r in zip(names, lb["rank"].astype(int), strict=True)],
                        "Final score": lb["final_score"].astype(float).to_numpy(),
                        "Rank with equal weights": [eq[t] for t in names]})
    for t in lb.attrs["themes"]:
        for m, label in METRIC_LABELS:
            out[f"{t} · {label}"] = lb[f"{t}:{m}"].astype(float).to_numpy()
    return out


def weights_table(weights: Mapping[str, float], filed: Mapping[str, float] | None) -> pd.DataFrame:
    """Every theme's weight as used, its share of their sum, and the weights file's value."""
    total = sum(weights.values())
    filed = filed or {}
    return pd.DataFrame({"Theme": list(weights), "Weight": [float(v) for v in weights.values()],
                         "Share": [100.0 * v / total for v in weights.values()],
                         "In the weights file": [f"{filed[t]:g}" if t in filed else "—" for t in weights]})


def answers_table(ex: Mapping[str, Any]) -> pd.DataFrame:
    if not ex["answers"]:
        return pd.DataFrame({"Accepted answer": ["(none: the question is unanswerable; the empty answer)"],
                             "Tokens after normalisation": [[]]})
    return pd.DataFrame({"Accepted answer": list(ex["answers"]), "Tokens after normalisation": ex["answer_tokens"]})


def teams_table(ex: Mapping[str, Any]) -> pd.DataFrame:
    t = ex["teams"]
    out = pd.DataFrame({
        "Team": t["submission"].astype(str).to_numpy(),
        "Paragraph": [p if p else "(none)" for p in t["paragraph_id"]],
        "Right paragraph": np.where(t["paragraph_correct"], "yes", "no"),
        "Answer": t["answer"].astype(str).to_numpy(),
        "Tokens after normalisation": list(t["tokens"]),
    })
    n_acc = len(ex["answer_tokens"])
    if n_acc > 1:
        for i in range(n_acc):
            out[f"F1 vs answer {i + 1}"] = [float(row[i]) for row in t["f1_per_answer"]]
    out["F1"] = t["f1"].astype(float).to_numpy()
    out["Time (ms)"] = t["inference_ms"].astype(float).to_numpy()
    return out
