"""Warnings where a conclusion is fragile (SPEC §4 asks to show group sizes for a reason):
a demographic group too small to trust (fewer than ``min_group`` essays, 30 by default)
carrying more than ``share`` of a team's softmin weight (a third by default) — where the
softmin is biased and its interval too narrow (docs/robustness.md) — or an attribute that
splits the essays into many tiny groups."""

from __future__ import annotations

import math

import numpy as np

from .aggregate import softmin_matrix
from .data import MISSING

MIN_GROUP = 30  # essays: a group below this is "small"
HEAVY_SHARE = 1 / 3  # a small group carrying more than this share of a team's softmin weight
#: what a softmin over small groups does to the score and its interval (measured: docs/robustness.md)
SMALL_GROUP_BIAS = ("; a softmin over groups this small is biased low and varies more than its bootstrap "
                    "interval shows (in a simulation with a 25-essay group: 0.5 standard deviations low, "
                    "95 % intervals holding the true score 85 % of the time)")


def group_warnings(scorer, p=None, /, *, min_group: int = MIN_GROUP, share: float = HEAVY_SHARE,
                   **params) -> list[str]:
    """Plain-words warnings for the parameters (``p``, or by name): each names the group, its
    size and the teams."""
    p = scorer.check(p, **params)
    attrs = p["attributes"]
    if not attrs:
        return []
    gs = scorer.group_scores(p)
    sizes = gs.sizes.reindex(gs.labels).to_numpy(dtype=float)
    small = sizes < min_group
    out: list[str] = []
    if small.sum() > max(1, len(sizes) // 2):
        out.append(f"{', '.join(attrs)} makes {len(sizes)} groups, {int(small.sum())} of them with fewer than "
                   f"{min_group} essays: the bias-aware score rests on very few essays per group")
    if not small.any():
        return out
    _, betas = softmin_matrix(gs.scores[gs.labels].to_numpy(dtype=float), sizes, p["alpha"])
    heavy = (betas > share) & small[None, :]
    alpha = "∞" if math.isinf(p["alpha"]) else f"{p['alpha']:g}"
    for j in np.flatnonzero(heavy.any(axis=0)):
        teams = [str(t) for t in np.asarray(gs.scores.index)[heavy[:, j]]]
        most = betas[heavy[:, j], j].max()
        out.append(f"the group {gs.labels[j]} has only {int(sizes[j])} essay{'s' if sizes[j] != 1 else ''} yet carries "
                   f"up to {most:.0%} of the softmin weight at α = {alpha} for {', '.join(teams[:5])}"
                   f"{' and others' if len(teams) > 5 else ''}: it decides {'its' if len(teams) == 1 else 'their'} "
                   "bias-aware score"
                   + (" (essays without demographics can be left out of the groups)" if MISSING in gs.labels[j] else "")
                   + SMALL_GROUP_BIAS)
    return out
