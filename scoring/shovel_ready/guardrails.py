"""Warnings where a conclusion is fragile (SPEC §4 asks to show group sizes for a reason):
a demographic group too small to trust (fewer than ``min_group`` essays, 30 by default)
carrying more than ``share`` of a team's softmin weight (a third by default) — where the
softmin is biased and its interval too narrow (docs/robustness.md) — or an attribute that
splits the essays into many tiny groups.

And, with the bootstrap (``letter_warnings``): two teams that share a letter on the bias-aware
score although one is ``T_POOLED`` (5) or more paired standard errors ahead on the segment score
(every essay pooled: a "close call" of ``scoring.core.ranksets`` checked on the family's pooled
score). The softmin leans on the groups with low scores, the small ones most, and one group's bad
draw can hide a real gap; the segment score, which no small group sways, still shows it: in the
simulation of docs/robustness.md every pair 8 or more standard errors apart in truth that shared a
letter was flagged so, and no exactly tied pair."""

from __future__ import annotations

import numpy as np

from ..claims import shovel_ready as claims
from ..core.ranksets import T_POOLED
from .aggregate import softmin_matrix
from .data import MISSING

MIN_GROUP = 30  # essays: a group below this is "small"
HEAVY_SHARE = 1 / 3  # a small group carrying more than this share of a team's softmin weight
#: what a softmin over small groups does to the score (measured: docs/robustness.md)
SMALL_GROUP_BIAS = claims.SMALL_GROUP_BIAS
#: the score intervals with a small group, as measured (``scoring.claims.shovel_ready.MEASURED``)
MEASURED = claims.MEASURED


def interval_note(smallest: int, total: int) -> str:
    """What the simulation measured for the score intervals when the smallest group has fewer than
    ``MIN_GROUP`` essays (``smallest`` of ``total``); "" otherwise
    (``scoring.claims.shovel_ready.interval_note``).

    >>> interval_note(40, 500)
    ''
    """
    return claims.interval_note(smallest, total, min_group=MIN_GROUP)


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


def letter_flags(close_calls) -> list[tuple[int, str, float]]:
    """The pairs to flag: every close call of a ``bootstrap`` frame with groups (``close_calls``, per
    team: ``(other team, t)``), where the scorer's ``unit_stats`` names the segment score as the
    pooled check (``UnitStats.pooled``): the two share a letter on the bias-aware score although the
    team is ``T_POOLED`` (5) or more paired standard errors ahead on the segment score. Each as
    ``(team position, other team, t)``, largest ``t`` first.

    >>> letter_flags([[("b", 6.5)], [], [("b", 12.0), ("a", 5.2)]])
    [(2, 'b', 12.0), (0, 'b', 6.5), (2, 'a', 5.2)]
    """
    flags = [(j, str(other), float(t)) for j, calls in enumerate(close_calls) for other, t in calls]
    return sorted(flags, key=lambda f: -f[2])


def letter_findings(scorer, iv, p=None, /, **params) -> list[dict]:
    """What the letter warning states: ``[{"pairs": [(team, other team, t)] largest t first,
    "t_pooled": T_POOLED}]`` for the flagged pairs of a ``bootstrap`` frame ``iv`` of this scorer's
    data at the parameters (``p``, or by name); none without groups (there the close calls are the
    bias-aware score's own, not the segment score's) or without a flagged pair."""
    p = scorer.check(p, **params)
    if not p["attributes"] or "close_calls" not in iv:
        return []
    calls = [c if isinstance(c, (list, tuple)) else [] for c in iv["close_calls"]]
    flags = letter_flags(calls)
    if not flags:
        return []
    names = [str(t) for t in iv.index]
    return [{"pairs": [(names[j], other, t) for j, other, t in flags], "t_pooled": T_POOLED}]


def letter_warnings(scorer, iv, p=None, /, *, most: int = 6, **params) -> list[str]:
    """The plain-words warning for :func:`letter_findings` (the first ``most`` pairs, largest gap
    first): ``scoring.claims.shovel_ready.letter_warnings``."""
    return claims.letter_warnings(letter_findings(scorer, iv, p, **params), most=most)
