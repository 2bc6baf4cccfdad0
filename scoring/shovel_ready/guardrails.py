"""Warnings where a conclusion is fragile (SPEC §4 asks to show group sizes for a reason):
a demographic group too small to trust (fewer than ``min_group`` essays, 30 by default)
carrying more than ``share`` of a team's softmin weight (a third by default) — where the
softmin is biased and its interval too narrow (docs/robustness.md) — or an attribute that
splits the essays into many tiny groups.

And, with the bootstrap (``letter_warnings``): two teams that share a letter although the
better one is 2 or more paired standard errors ahead (a "close call",
``scoring.core.ranksets``) while its score **rests on a small group** — one group carries more
than ``share`` of its softmin weight and at least ``LIFT`` times that group's share of the
essays. There one group's bad draw sets the team's score and its bootstrap spread, and can hide
a real gap: in the simulation of docs/robustness.md every pair 8 or more standard errors apart
in truth that shared a letter was flagged so."""

from __future__ import annotations

import numpy as np

from ..claims import shovel_ready as claims
from .aggregate import softmin_matrix
from .data import MISSING

MIN_GROUP = 30  # essays: a group below this is "small"
HEAVY_SHARE = 1 / 3  # a small group carrying more than this share of a team's softmin weight
#: a team rests on a group whose softmin weight is at least this many times its share of the essays
LIFT = 2.0
#: what a softmin over small groups does to the score and its interval (measured: docs/robustness.md)
SMALL_GROUP_BIAS = claims.SMALL_GROUP_BIAS


def group_findings(scorer, p=None, /, *, min_group: int = MIN_GROUP, share: float = HEAVY_SHARE,
                   **params) -> list[dict]:
    """What the group warnings state, as numbers: ``{"kind": "many", attributes, groups, small,
    min_group}`` when most groups are small; ``{"kind": "heavy", group, size, weight, alpha,
    teams, missing}`` per small group carrying more than ``share`` of a team's softmin weight."""
    p = scorer.check(p, **params)
    attrs = p["attributes"]
    if not attrs:
        return []
    gs = scorer.group_scores(p)
    sizes = gs.sizes.reindex(gs.labels).to_numpy(dtype=float)
    small = sizes < min_group
    out: list[dict] = []
    if small.sum() > max(1, len(sizes) // 2):
        out.append({"kind": "many", "attributes": list(attrs), "groups": len(sizes), "small": int(small.sum()),
                    "min_group": min_group})
    if not small.any():
        return out
    _, betas = softmin_matrix(gs.scores[gs.labels].to_numpy(dtype=float), sizes, p["alpha"])
    heavy = (betas > share) & small[None, :]
    for j in np.flatnonzero(heavy.any(axis=0)):
        out.append({"kind": "heavy", "group": str(gs.labels[j]), "size": int(sizes[j]),
                    "weight": float(betas[heavy[:, j], j].max()), "alpha": float(p["alpha"]),
                    "teams": [str(t) for t in np.asarray(gs.scores.index)[heavy[:, j]]],
                    "missing": MISSING in gs.labels[j]})
    return out


def group_warnings(scorer, p=None, /, *, min_group: int = MIN_GROUP, share: float = HEAVY_SHARE,
                   **params) -> list[str]:
    """Plain-words warnings for the parameters (``p``, or by name): each names the group, its
    size and the teams (``scoring.claims.shovel_ready.group_warnings`` of :func:`group_findings`)."""
    return claims.group_warnings(group_findings(scorer, p, min_group=min_group, share=share, **params))


def resting_groups(groups, sizes, alpha: float, *, share: float = HEAVY_SHARE,
                   lift: float = LIFT) -> tuple[np.ndarray, np.ndarray]:
    """The group each team's score rests on: ``(group (K,), weight (K,))``, ``-1`` and 0 for a
    team resting on none. A team rests on group ``g`` when its softmin weight ``β_g`` (group
    scores ``groups`` (K × G), essays per group ``sizes`` (G), the softmin's ``alpha``) is more
    than ``share`` and at least ``lift`` × ``n_g / Σ n``; of several, the heaviest.

    Hand computation: groups of 90 and 10 essays, α = 50; team 0 scores 0.70 and 0.66:
    ``β_small = 10·e^0 / (10·e^0 + 90·e^{−50·0.04}) = 10 / (10 + 90·0.13534) = 0.4509`` —
    more than a third and 4.5 × the group's 10 % of essays; team 1 scores 0.70 and 0.72:
    ``β_small = 10·e^{−1} / (10·e^{−1} + 90) = 0.0393``.

    >>> g, w = resting_groups([[0.70, 0.66], [0.70, 0.72]], [90, 10], 50)
    >>> g.tolist(), w.round(4).tolist()
    ([1, -1], [0.4509, 0.0])

    With α = 0 every weight is the group's share of the essays: no team rests on a group.

    >>> resting_groups([[0.70, 0.10]], [90, 10], 0)[0].tolist()
    [-1]
    """
    scores = np.atleast_2d(np.asarray(groups, dtype=float))
    n = np.asarray(sizes, dtype=float)
    k = scores.shape[0]
    if scores.shape[-1] == 0 or n.sum() <= 0:
        return np.full(k, -1, dtype=np.int64), np.zeros(k)
    _, betas = softmin_matrix(scores, n, alpha)
    betas = np.nan_to_num(betas, nan=0.0)
    heavy = (betas > share) & (betas >= lift * n / n.sum())
    pick = np.where(heavy, betas, -1.0)
    g = np.argmax(pick, axis=1)
    w = pick[np.arange(k), g]
    return np.where(w > 0, g, -1).astype(np.int64), np.maximum(w, 0.0)


def letter_flags(close_calls, groups, sizes, alpha: float, *, share: float = HEAVY_SHARE,
                 lift: float = LIFT) -> list[tuple[int, str, float, int, float]]:
    """The close calls to flag: ``close_calls`` per team (``bootstrap``'s column: ``(worse
    team, t)`` pairs the team shares a letter with while ``t`` ≥ 2 paired SEs ahead), kept when
    the team (the better one) rests on a group (:func:`resting_groups`). Each as ``(team
    position, worse team, t, group position, weight)``.

    >>> letter_flags([[("b", 2.7)], [], [("b", 2.1)]], [[0.7, 0.66], [0.7, 0.72], [0.7, 0.72]], [90, 10], 50)
    [(0, 'b', 2.7, 1, 0.4509)]
    """
    g, w = resting_groups(groups, sizes, alpha, share=share, lift=lift)
    return [(j, str(other), float(t), int(g[j]), round(float(w[j]), 4))
            for j, calls in enumerate(close_calls) if g[j] >= 0 for other, t in calls]


def letter_findings(scorer, iv, p=None, /, *, share: float = HEAVY_SHARE, lift: float = LIFT, **params) -> list[dict]:
    """What the letter warnings state, per group that flagged teams rest on: ``{group, size,
    weights (whole percents, sorted), teams, pairs: [(team, worse team, t)] largest t first}``."""
    p = scorer.check(p, **params)
    if not p["attributes"] or "close_calls" not in iv:
        return []
    gs = scorer.group_scores(p)
    names = [str(t) for t in gs.scores.index]
    calls = iv["close_calls"].reindex(gs.scores.index)
    calls = [c if isinstance(c, (list, tuple)) else [] for c in calls]
    sizes = gs.sizes.reindex(gs.labels).to_numpy(dtype=float)
    by_group: dict[int, list[tuple[int, str, float, float]]] = {}
    for j, other, t, g, w in letter_flags(calls, gs.scores[gs.labels].to_numpy(dtype=float), sizes, p["alpha"],
                                          share=share, lift=lift):
        by_group.setdefault(g, []).append((j, other, t, w))
    out = []
    for g, flags in by_group.items():
        flags.sort(key=lambda f: -f[2])
        out.append({"group": str(gs.labels[g]), "size": int(sizes[g]),
                    "weights": sorted({round(w * 100) for *_, w in flags}),
                    "teams": list(dict.fromkeys(names[j] for j, *_ in flags)),
                    "pairs": [(names[j], str(other), float(t)) for j, other, t, _ in flags]})
    return out


def letter_warnings(scorer, iv, p=None, /, *, share: float = HEAVY_SHARE, lift: float = LIFT,
                    most: int = 6, **params) -> list[str]:
    """Plain-words warnings for :func:`letter_flags` on a ``bootstrap`` frame ``iv`` of this
    scorer's data at the parameters (``p``, or by name): one per group that teams rest on,
    naming the group, its size, the teams' weights on it and the flagged pairs (the first
    ``most``, largest gap first) — ``scoring.claims.shovel_ready.letter_warnings``."""
    return claims.letter_warnings(letter_findings(scorer, iv, p, share=share, lift=lift, **params), most=most)
