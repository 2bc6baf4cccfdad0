"""Figures of the shake-up page: one team's public × private rank heat map, Kendall's τ and
P(the public winner holds) against the public fraction, the split-size grid, and the
overstatement of a chosen submission against the number of submissions it was chosen from."""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ..words.text import html
from .common import LAYOUT, rank_axis

#: the rank heatmap writes each cell's share up to this many teams (beyond, the cells are too small to read)
TEXT_RANKS = 30


def rank_heatmap(joint: np.ndarray, team: str) -> go.Figure:
    """P(public rank = r and private rank = s) of one team: public rank down, private across;
    the diagonal is "no move"."""
    n = joint.shape[0]
    ranks = list(range(1, n + 1))
    # the shares written in the cells while they are large enough to read (a text per cell: thousands of them
    # for a big field took the browser seconds to lay out); the hover always gives the share
    cells = dict(text=[[f"{v:.0%}" if v >= 0.005 else "" for v in row] for row in joint],
                 texttemplate="%{text}") if n <= TEXT_RANKS else {}
    fig = go.Figure(go.Heatmap(z=joint.tolist(), x=ranks, y=ranks, colorscale="Blues", zmin=0, zmax=max(float(joint.max()), 1e-9),
                               **cells, colorbar=dict(title="share", tickformat=".0%"),
                               hovertemplate="public rank %{y}, private rank %{x}: %{z:.1%}<extra></extra>"))
    fig.add_trace(go.Scatter(x=[0.5, n + 0.5], y=[0.5, n + 0.5], mode="lines", line=dict(color="#888", dash="dot"),
                             hoverinfo="skip", showlegend=False))
    fig.update_xaxes(title="Private rank", **rank_axis(n, reverse=False))
    fig.update_yaxes(title="Public rank", **rank_axis(n))
    fig.update_layout(title=f"{html(team)}: public rank × private rank", height=max(320, 26 * min(n, TEXT_RANKS) + 160),
                      **{**LAYOUT, "hovermode": "closest"})
    return fig


def sweep_figure(sw: pd.DataFrame, *, current: float, tau_at: float) -> go.Figure:
    """Across public fractions: Kendall's τ between the boards (median, 5–95 % band) above,
    P(the public winner wins the private board) with its 95 % interval below; the current
    fraction marked."""
    x = (sw["fraction"] * 100).tolist()
    fig = make_subplots(rows=2, cols=1, shared_xaxes=True, vertical_spacing=0.08,
                        subplot_titles=("Kendall's τ, public board vs private board",
                                        "P(the public leader wins the final board)"))
    fig.add_trace(go.Scatter(x=x + x[::-1], y=sw["tau_q95"].tolist() + sw["tau_q05"].tolist()[::-1], fill="toself",
                             fillcolor="rgba(76,120,168,0.2)", line=dict(width=0), name="τ: 5–95 % of splits",
                             hoverinfo="skip"), row=1, col=1)
    fig.add_trace(go.Scatter(x=x, y=sw["tau_median"].tolist(), mode="lines+markers", line=dict(color="#4C78A8"),
                             name="τ: median", hovertemplate="%{x:.0f} % public: median τ %{y:.3f}<extra></extra>"),
                  row=1, col=1)
    fig.add_hline(y=tau_at, line=dict(color="#999", dash="dot"), row=1, col=1)
    fig.add_trace(go.Scatter(x=x + x[::-1], y=sw["p_winner_high"].tolist() + sw["p_winner_low"].tolist()[::-1],
                             fill="toself", fillcolor="rgba(245,133,24,0.2)", line=dict(width=0),
                             name="P(winner holds): 95 % interval", hoverinfo="skip"), row=2, col=1)
    fig.add_trace(go.Scatter(x=x, y=sw["p_winner_holds"].tolist(), mode="lines+markers", line=dict(color="#F58518"),
                             name="P(winner holds)", hovertemplate="%{x:.0f} % public: %{y:.0%}<extra></extra>"),
                  row=2, col=1)
    for r in (1, 2):
        fig.add_vline(x=current * 100, line=dict(color="#222", dash="dash"), row=r, col=1)
    fig.update_yaxes(title="τ", range=[min(-0.05, float(np.nanmin(sw["tau_q05"])) - 0.05), 1.05], row=1, col=1)
    fig.update_yaxes(title="probability", tickformat=".0%", range=[-0.02, 1.02], row=2, col=1)
    fig.update_xaxes(title="Public fraction (%)", row=2, col=1)
    fig.update_layout(height=560, **{**LAYOUT, "legend_title_text": ""})
    return fig


def advice_figure(grid: pd.DataFrame, *, p: float, unit: str) -> go.Figure:
    """The simulated probability of the target for every (test size, public fraction); a ring
    where it reaches ``p``."""
    sizes = sorted(set(grid["units"]))
    fr = sorted(set(grid["fraction"]))
    z = grid.pivot(index="units", columns="fraction", values="p").reindex(index=sizes, columns=fr)
    fig = go.Figure(go.Heatmap(z=z.to_numpy().tolist(), x=[f"{f:.0%}" for f in fr], y=[f"{s:,}" for s in sizes],
                               colorscale="RdYlGn", zmin=0, zmax=1, colorbar=dict(title="P", tickformat=".0%"),
                               texttemplate="%{z:.0%}",
                               hovertemplate=f"%{{y}} {html(unit)}s, %{{x}} public: %{{z:.1%}}<extra></extra>"))
    ok = grid[grid["meets"]]
    fig.add_trace(go.Scatter(x=[f"{f:.0%}" for f in ok["fraction"]], y=[f"{s:,}" for s in ok["units"]], mode="markers",
                             marker=dict(symbol="circle-open", size=26, color="#222", line=dict(width=2)),
                             name=f"reaches {p:.0%}", hoverinfo="skip"))
    fig.update_xaxes(title="Public fraction", type="category")
    fig.update_yaxes(title=f"Test size ({html(unit)}s)", type="category")
    fig.update_layout(height=320, **{**LAYOUT, "legend_title_text": ""})
    return fig


def selection_figure(table: pd.DataFrame, *, score_label: str) -> go.Figure:
    """Mean overstatement of the chosen submission (5–95 % band) against N submissions."""
    x = table["n_submissions"].tolist()
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=x + x[::-1], y=table["q95"].tolist() + table["q05"].tolist()[::-1], fill="toself",
                             fillcolor="rgba(76,120,168,0.2)", line=dict(width=0), name="5–95 % of teams × splits",
                             hoverinfo="skip"))
    fig.add_trace(go.Scatter(x=x, y=table["overstatement"].tolist(), mode="lines+markers", name="mean",
                             hovertemplate="N = %{x}: %{y:.4f}<extra></extra>"))
    fig.add_hline(y=0, line=dict(color="#999", dash="dot"))
    fig.update_xaxes(title="Submissions a team chooses from (N)", tickvals=x)
    fig.update_yaxes(title=f"public − private {html(score_label)} of the chosen one")
    fig.update_layout(height=340, **{**LAYOUT, "legend_title_text": ""})
    return fig
