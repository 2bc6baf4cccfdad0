"""The settling (:func:`scoring.spotgeo.matching.settling`): which candidate pairs need no
solver, decided once for every τ. At every prefix ``n`` of the pairs (every τ that falls
between two distances) it must say what the degrees within τ say, counted afresh:

* a pair needs a choice when its prediction has a partner with another partner, and its
  object too;
* otherwise it is an isolated pair or in a star, and exactly the star's shortest pair (the
  first of its centre, ties by position) is matched.

Checked on crowded random frames with many tied distances, then each broken variant of the
settling is shown to be caught by the same comparison.
"""

from __future__ import annotations

import numpy as np
import pytest

import scoring.spotgeo.matching as matching
from scoring.spotgeo.competition import candidate_pairs


def pairs(seed: int):
    """Candidate pairs of a few crowded frames on a whole-pixel grid (so distances tie)."""
    rng = np.random.default_rng(seed)
    pred, obj, pf, of = [], [], [], []
    for f in range(6):
        c = rng.uniform(80, 400, 2)
        n_obj, n_pred = int(rng.integers(0, 12)), int(rng.integers(0, 12))
        obj.append(np.round(c + rng.normal(0, 25, (n_obj, 2))))
        pred.append(np.round(c + rng.normal(0, 25, (n_pred, 2))))
        of += [f] * n_obj
        pf += [f] * n_pred
    pred_xy, obj_xy = np.concatenate(pred), np.concatenate(obj)
    p, g, d = candidate_pairs(pred_xy, np.array(pf, dtype=np.int64), obj_xy, np.array(of, dtype=np.int64))
    return p, g, d, len(pred_xy), len(obj_xy)


def by_degrees(p, g, n, n_pred, n_gt):
    """(needs the solver, matched without it) for the first ``n`` pairs, from their degrees."""
    p, g = p[:n].astype(np.int64), g[:n].astype(np.int64)
    degp, degg = np.bincount(p, minlength=n_pred), np.bincount(g, minlength=n_gt)
    crowded_p = np.zeros(n_pred, dtype=bool)  # a partner with another partner
    crowded_g = np.zeros(n_gt, dtype=bool)
    for x in range(n):
        crowded_p[p[x]] |= degg[g[x]] > 1
        crowded_g[g[x]] |= degp[p[x]] > 1
    solver = crowded_p[p] & crowded_g[g]
    matched = np.zeros(n, dtype=bool)
    seen: set = set()
    for x in range(n):  # by distance: each star's (or isolated pair's) first pair
        if not solver[x]:
            centre = ("g", g[x]) if degg[g[x]] > 1 else ("p", p[x])
            if centre not in seen:
                seen.add(centre)
                matched[x] = True
    return solver, matched


def disagreements(seeds=range(12)) -> list:
    bad = []
    for seed in seeds:
        p, g, d, n_pred, n_gt = pairs(seed)
        s = matching.settling(p, g, n_pred, n_gt)
        for n in range(len(p) + 1):
            solver, matched = by_degrees(p, g, n, n_pred, n_gt)
            got_solver = s.solver_from[:n] < n
            if not (np.array_equal(got_solver, solver) and np.array_equal(~got_solver & s.lone[:n], matched)):
                bad.append((seed, n))
    return bad


def test_settling_says_what_the_degrees_say_at_every_tau():
    assert not disagreements()


def test_the_cases_are_varied():
    """Else the comparison would prove little: stars on both sides, pairs that need the solver,
    and tied distances."""
    stars = solver = ties = 0
    for seed in range(12):
        p, g, d, n_pred, n_gt = pairs(seed)
        ties += int((np.diff(d) == 0).sum())
        for n in range(0, len(p) + 1, 7):
            s, m = by_degrees(p, g, n, n_pred, n_gt)
            solver += int(s.sum())
            stars += int((~s).sum() - m.sum())  # settled pairs not matched: star pairs
    assert stars > 500 and solver > 500 and ties > 50, (stars, solver, ties)


def _second(v, size):
    return matching._first_two(np.asarray(v), size, np.arange(len(v)))[1][v]


BROKEN = {
    # a pair whose choice begins with the n-th pair still settled alone at n
    "one pair late": lambda s, p, g, n_pred, n_gt: matching.Settling(s.solver_from + 1, s.lone),
    # every settled pair matched, not only each star's shortest
    "whole stars": lambda s, p, g, n_pred, n_gt: matching.Settling(s.solver_from, np.ones_like(s.lone)),
    # the solver only where both ends of the pair itself have another partner (so the end
    # pair of a chain p0-g0-p1-g1, whose p0 has no other partner, is settled alone)
    "own degrees only": lambda s, p, g, n_pred, n_gt: matching.Settling(
        np.maximum(s.solver_from, np.maximum(_second(p, n_pred), _second(g, n_gt))), s.lone),
}


@pytest.mark.parametrize("name", list(BROKEN))
def test_each_broken_variant_is_caught(name, monkeypatch):
    real = matching.settling
    monkeypatch.setattr(matching, "settling", lambda p, g, n_pred, n_gt: BROKEN[name](
        real(p, g, n_pred, n_gt), p, g, n_pred, n_gt))
    assert disagreements(range(4)), name
