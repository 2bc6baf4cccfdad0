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

import math

import numpy as np

from ..core.ranksets import T_POOLED
from .aggregate import softmin_matrix
from .data import MISSING

MIN_GROUP = 30  # essays: a group below this is "small"
HEAVY_SHARE = 1 / 3  # a small group carrying more than this share of a team's softmin weight
#: what a softmin over small groups does to the score (measured: docs/robustness.md)
SMALL_GROUP_BIAS = ("; a softmin over groups this small is biased low (in a simulation with a 20- or 25-essay "
                    "group: about 0.55 standard deviations low), which the score intervals (Rank intervals) allow for")
#: the score intervals with a small group, as measured (docs/robustness.md, "Score intervals"; the slow test
#: tests/simulation/test_simulation.py holds these figures to the simulation): (essays in the smallest group,
#: essays in all, the lowest share of a type of team whose interval held its true score, the lowest of one team)
MEASURED = ((20, 500, 0.92, 0.75), (25, 500, 0.93, 0.81), (20, 1500, 0.92, 0.92))


def interval_note(smallest: int, total: int) -> str:
    """What the simulation measured for the score intervals when the smallest group has fewer than
    ``MIN_GROUP`` essays (``smallest`` of ``total``); "" otherwise. The measured design nearest in
    total essays, then in the group's size.

    >>> interval_note(40, 500)
    ''
    >>> interval_note(22, 520)[:58]
    'the smallest group has 22 essays: in a simulation with a 2'
    """
    if smallest >= MIN_GROUP or total <= 0:
        return ""
    g, n, low, least = min(MEASURED, key=lambda m: (abs(math.log(m[1] / total)), abs(m[0] - smallest)))
    fewer = "; groups under 20 essays were not simulated" if smallest < 20 else ""
    weakest = (f", but for the weakest teams (a handful of matched segments in that group) as little as {least:.0%} of "
               "the time" if least < low else "")
    return (f"the smallest group has {smallest} essay{'s' if smallest != 1 else ''}: in a simulation with a {g}-essay "
            f"group in {n:,} essays, the score intervals held the true score for {low:.0%} or more of the teams of "
            f"each kind{weakest}{fewer}")


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


def letter_warnings(scorer, iv, p=None, /, *, most: int = 6, **params) -> list[str]:
    """The plain-words warning for :func:`letter_flags` on a ``bootstrap`` frame ``iv`` of this
    scorer's data at the parameters (``p``, or by name): the flagged pairs (the first ``most``,
    largest gap first) in one warning; none without groups (there the close calls are the
    bias-aware score's own, not the segment score's)."""
    p = scorer.check(p, **params)
    if not p["attributes"] or "close_calls" not in iv:
        return []
    calls = [c if isinstance(c, (list, tuple)) else [] for c in iv["close_calls"]]
    flags = letter_flags(calls)
    if not flags:
        return []
    names = [str(t) for t in iv.index]
    pairs = ", ".join(f"{names[j]} over {other} ({t:.1f} SE)" for j, other, t in flags[:most])
    more = f" and {len(flags) - most} more" if len(flags) > most else ""
    return [f"these pairs share a letter on the bias-aware score although the first is {T_POOLED:g} or more paired "
            f"standard errors ahead on the segment score (every essay pooled, no softmin): {pairs}{more}; the "
            "bias-aware score is a softmin over the groups, noisier than the segment score (most where a group is "
            "small), so a real gap on it can hide behind a shared letter: they may differ more than the letters show"]
