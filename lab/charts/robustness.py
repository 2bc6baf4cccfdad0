"""Figures of the robustness pages: score intervals and rank sets with letters, the stability map
(Kendall's τ per cell, the winner as a second layer, winner-flip boundaries, the current
point), and the slope chart of a configuration diff."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from scoring.core.stability import flip_edges

from ..words.text import html
from .common import LAYOUT, rank_axis

WINNER_SHADE = "rgba(245,190,60,0.18)"


def interval_figure(iv: pd.DataFrame, colors: Mapping[str, str], *, score_label: str, confidence: float,
                    simultaneous: bool = False) -> go.Figure:
    """One row per team (final rank order): its score interval (left) and its set of possible
    ranks (right: marginal, or ``simultaneous``), the point estimate marked, its letters at the
    right end; the rows of the teams that could have won shaded."""
    iv = iv.sort_values(["rank", "score"], ascending=[True, False])
    teams = [str(t) for t in iv.index]
    labels = [html(t) for t in teams]
    lo, hi = ("rank_low_all", "rank_high_all") if simultaneous else ("rank_low", "rank_high")
    which = "all teams at once" if simultaneous else "each team"
    fig = make_subplots(rows=1, cols=2, shared_yaxes=True, horizontal_spacing=0.04, column_widths=[0.62, 0.38],
                        subplot_titles=(f"{html(score_label)}: {confidence:.0%} interval",
                                        f"Possible ranks ({confidence:.0%}, {which})"))
    recs = iv.to_dict("records")
    hovers = [(f"<b>{html(team)}</b><br>score {rec['score']:.4f} [{rec['score_low']:.4f}, {rec['score_high']:.4f}]"
               f"<br>rank {rec['rank']}, possible ranks {rec[lo]} to {rec[hi]}<br>letters {html(rec['letters'])}"
               + ("<br>could have won" if rec["could_win"] else ""))
              for team, rec in zip(teams, recs, strict=True)]
    # a few traces, not five per team (hundreds of traces took seconds to build and to draw): the bars of
    # the teams that share a colour are one trace, their segments apart (None between)
    by_color: dict[str, list[int]] = {}
    for i, team in enumerate(teams):
        by_color.setdefault(colors.get(team, "#4C78A8"), []).append(i)

    def gaps(rows: list[int], ends) -> tuple[list, list, list]:
        xs, ys, hs = [], [], []
        for i in rows:
            a, b = ends(recs[i])
            xs += [a, b, None]
            ys += [labels[i], labels[i], None]
            hs += [hovers[i], hovers[i], None]
        return xs, ys, hs

    for c, rows in by_color.items():
        for col, ends in ((1, lambda r: (r["score_low"], r["score_high"])), (2, lambda r: (r[lo] - 0.4, r[hi] + 0.4))):
            xs, ys, hs = gaps(rows, ends)
            fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines", line=dict(color=c, width=6), showlegend=False,
                                     hovertext=hs, hoverinfo="text", name="interval" if col == 1 else "ranks"),
                          row=1, col=col)
    for col, key in ((1, "score"), (2, "rank")):
        fig.add_trace(go.Scatter(x=[r[key] for r in recs], y=labels, mode="markers", marker=dict(color="#222", size=9),
                                 showlegend=False, hovertext=hovers, hoverinfo="text", name=key), row=1, col=col)
    fig.add_trace(go.Scatter(x=[len(teams) + 0.9] * len(teams), y=labels, mode="text",
                             text=[html(r["letters"]) for r in recs], textposition="middle right", showlegend=False,
                             hoverinfo="skip", name="letters"), row=1, col=2)
    fig.update_layout(shapes=[dict(type="rect", xref="paper", x0=0, x1=1, yref="y", y0=i - 0.5, y1=i + 0.5,
                                   fillcolor=WINNER_SHADE, line_width=0, layer="below")
                              for i, won in enumerate(iv["could_win"].to_numpy()) if won])
    n = len(teams)
    # rows in rank order (the traces, one per colour, would otherwise order the categories as they come)
    fig.update_yaxes(categoryorder="array", categoryarray=labels)
    fig.update_yaxes(autorange="reversed", title="Team (final rank)", row=1, col=1)
    fig.update_xaxes(title="Score", row=1, col=1)
    fig.update_xaxes(title="Rank (letters at the right)", **rank_axis(n, reverse=False, high=n + 2.4), row=1, col=2)
    fig.update_layout(height=max(320, 34 * n + 140), **{**LAYOUT, "hovermode": "closest"})
    return fig


def stability_figure(grid: pd.DataFrame, *, x_label: str, y_label: str, current: tuple, colors: Mapping[str, str]
                     ) -> go.Figure:
    """Cells coloured by Kendall's τ against the current ranking; each cell's border in its
    winner's colour (the second layer, named in the legend); black lines where the winner flips;
    the current parameters as a star. Clicking a cell selects it (``customdata``: its x, y)."""
    xs, ys = list(dict.fromkeys(grid["x"])), list(dict.fromkeys(grid["y"]))
    xi = {v: i for i, v in enumerate(xs)}
    yi = {v: j for j, v in enumerate(ys)}
    ok = grid[grid["valid"]]
    fig = go.Figure(go.Scatter(
        x=[xi[v] for v in ok["x"]], y=[yi[v] for v in ok["y"]], mode="markers",
        marker=dict(symbol="square", size=min(28, max(10, 420 // max(len(xs), len(ys)))), color=ok["tau"].tolist(),
                    colorscale="RdYlGn", cmin=-1, cmax=1, colorbar=dict(title="Kendall τ"),
                    line=dict(color=[colors.get(w[0], "#999") if w else "#999" for w in ok["winners"]], width=3)),
        customdata=np.column_stack([ok["x"].astype(str), ok["y"].astype(str)]),
        text=[html(w) for w in ok["winner"]],
        hovertemplate=f"{html(x_label)} %{{customdata[0]}}<br>{html(y_label)} %{{customdata[1]}}<br>"
                      "τ %{marker.color:.3f}<br>winner: %{text}<extra></extra>",
        showlegend=False, name="cells"))
    for winner, teams in dict(zip(ok["winner"], ok["winners"], strict=True)).items():
        fig.add_trace(go.Scatter(x=[None], y=[None], mode="markers", name=html(winner),
                                 marker=dict(symbol="square-open", size=12, line=dict(width=3),
                                             color=colors.get(teams[0], "#999") if teams else "#999")))
    # the boundaries set at once: add_shape validates every shape drawn so far again, each time
    # (a 21 x 21 map's ~150 boundaries took seconds)
    fig.update_layout(shapes=[
        dict(type="line", x0=i + 0.5, x1=i + 0.5, y0=j - 0.5, y1=j + 0.5, line=dict(color="#111", width=2))
        if i2 != i else  # a vertical boundary between x neighbours; else a horizontal one
        dict(type="line", x0=i - 0.5, x1=i + 0.5, y0=j + 0.5, y1=j + 0.5, line=dict(color="#111", width=2))
        for i, j, i2, _ in flip_edges(ok)])
    cx, cy = current
    fig.add_trace(go.Scatter(x=[_nearest(xs, cx)], y=[_nearest(ys, cy)], mode="markers", name="current settings",
                             marker=dict(symbol="star", size=18, color="#111", line=dict(color="white", width=1))))
    fig.update_xaxes(title=html(x_label), tickmode="array", tickvals=list(range(len(xs))),
                     ticktext=[_fmt(v) for v in xs], range=[-0.6, len(xs) - 0.4])
    fig.update_yaxes(title=html(y_label), tickmode="array", tickvals=list(range(len(ys))),
                     ticktext=[_fmt(v) for v in ys], range=[-0.6, len(ys) - 0.4])
    fig.update_layout(height=660, legend=dict(title_text="Winner (cell border)", orientation="h", y=-0.12),
                      margin=dict(l=10, r=10, t=40, b=10))
    return fig


def _nearest(values: list, target) -> int:
    """Position of ``target`` among ``values`` (the nearest one for numbers)."""
    if _num(target) and all(_num(v) for v in values):
        return int(np.argmin([abs(float(v) - float(target)) for v in values]))
    return values.index(target) if target in values else 0


def _num(v) -> bool:
    return isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool)


def _fmt(v) -> str:
    return f"{v:g}" if _num(v) else html(v)


def slope_figure(diff: pd.DataFrame, colors: Mapping[str, str], labels: Sequence[str] = ("A", "B")) -> go.Figure:
    """Each team's final rank under A (left) and B (right)."""
    fig = go.Figure()
    recs = diff.to_dict("records")

    def label(rec, side: str) -> str:
        team = html(str(rec["submission"]))
        if side == "rank_b" and rec["rank_a"] != rec["rank_b"]:
            return f"{team} ({'+' if rec['delta'] > 0 else ''}{rec['delta']})"
        return team

    # teams tied on a side share one label ("glove-cnn, glove-lstm (+1)"), drawn once, so tied
    # names never print over each other
    text: dict[tuple[int, str], str] = {}
    for side in ("rank_a", "rank_b"):
        first: dict[int, int] = {}
        for i, rec in enumerate(recs):
            k = first.setdefault(int(rec[side]), i)
            text[(k, side)] = f"{text[(k, side)]}, {label(rec, side)}" if (k, side) in text else label(rec, side)
            if k != i:
                text[(i, side)] = ""
    for i, rec in enumerate(recs):
        team = str(rec["submission"])
        moved = rec["rank_a"] != rec["rank_b"]
        fig.add_trace(go.Scatter(
            x=list(labels), y=[rec["rank_a"], rec["rank_b"]], mode="lines+markers+text", name=html(team),
            text=[text[(i, "rank_a")], text[(i, "rank_b")]],
            textposition=["middle left", "middle right"],
            line=dict(color=colors.get(team), width=4 if moved else 1.5, dash="solid" if moved else "dot"),
            hovertemplate=f"{html(team)}: rank %{{y}}<extra></extra>"))
    n = len(diff)
    fig.update_yaxes(title="Final rank", **rank_axis(n))
    fig.update_xaxes(range=[-0.8, 1.8])
    fig.update_layout(height=max(300, 36 * n + 120), showlegend=False, margin=dict(l=10, r=10, t=30, b=10))
    return fig
