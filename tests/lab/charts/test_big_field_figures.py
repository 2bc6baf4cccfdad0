"""Figures that stay quick to build and to draw for a big field (issue 23, "every page done ≤ 2 s
after navigation"): the rank heatmap writes its cells' shares only while they can be read, the
rank-interval figure draws a few traces whatever the number of teams. Hand-made inputs."""

from __future__ import annotations

import numpy as np
import pandas as pd

from lab.charts.robustness import interval_figure
from lab.charts.shakeup import TEXT_RANKS, rank_heatmap


def test_the_rank_heatmap_writes_shares_only_while_they_can_be_read():
    small = np.eye(3) / 3  # one team: rank 1, 2 or 3 on both boards, a third of the splits each
    heat = rank_heatmap(small, "C").to_dict()["data"][0]
    assert heat["text"][0] == ["33%", "", ""]
    n = TEXT_RANKS + 1
    big = rank_heatmap(np.eye(n) / n, "C").to_dict()
    heat = big["data"][0]
    assert "text" not in heat and "texttemplate" not in heat
    assert "%{z:.1%}" in heat["hovertemplate"]  # the share is still there, on hover
    assert len(heat["z"]) == n and heat["z"][n - 1][n - 1] == 1 / n


def test_the_interval_figure_draws_a_few_traces_for_many_teams():
    n = 90
    teams = [f"t{i:02d}" for i in range(n)]
    iv = pd.DataFrame({
        "rank": range(1, n + 1), "score": np.linspace(1, 0, n), "score_low": np.linspace(0.9, -0.1, n),
        "score_high": np.linspace(1.1, 0.1, n), "rank_low": [max(1, r - 2) for r in range(1, n + 1)],
        "rank_high": [min(n, r + 2) for r in range(1, n + 1)], "rank_low_all": 1, "rank_high_all": n,
        "letters": ["a"] * n, "could_win": [True, True] + [False] * (n - 2)}, index=teams)
    colors = {t: ("#111111", "#222222", "#333333")[i % 3] for i, t in enumerate(teams)}
    fig = interval_figure(iv, colors, score_label="Score", confidence=0.95).to_dict()
    # per colour: one interval and one rank-set trace; then the two markers' traces and the letters
    assert len(fig["data"]) == 3 * 2 + 3
    bars = {tr["line"]["color"]: tr for tr in fig["data"] if tr["name"] == "interval"}
    assert bars["#222222"]["y"][:3] == ["t01", "t01", None]  # t01, the second team: the second colour
    assert bars["#222222"]["x"][:2] == [iv.loc["t01", "score_low"], iv.loc["t01", "score_high"]]
    ranks = next(tr for tr in fig["data"] if tr["name"] == "ranks" and tr["line"]["color"] == "#111111")
    assert ranks["x"][:2] == [1 - 0.4, 3 + 0.4]  # t00: ranks 1 to 3, drawn to the cells' edges
    assert list(fig["layout"]["yaxis"]["categoryarray"]) == teams
    assert len(fig["layout"]["shapes"]) == 2  # the two teams that could have won
