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


def disagreements(seeds=range(12), prefix: bool = False) -> list:
    """(seed, n) where the settling of all pairs — or, with ``prefix``, of only the first
    ``n`` and of the first ``n + 3`` — disagrees with the degrees at ``n``."""
    bad = []
    for seed in seeds:
        p, g, d, n_pred, n_gt = pairs(seed)
        full = matching.settling(p, g, n_pred, n_gt)
        for n in range(len(p) + 1):
            solver, matched = by_degrees(p, g, n, n_pred, n_gt)
            made = [matching.settling(p[:k], g[:k], n_pred, n_gt) for k in (n, min(n + 3, len(p)))] if prefix \
                else [full]
            for s in made:
                got_solver = s.solver_from[:n] < n
                if not (np.array_equal(got_solver, solver) and np.array_equal(~got_solver & s.lone[:n], matched)):
                    bad.append((seed, n))
    return bad


def test_settling_says_what_the_degrees_say_at_every_tau():
    assert not disagreements()


def test_a_settling_of_the_first_pairs_says_the_same_within_them():
    """What the Scorer's first τ builds (only the pairs within it) serves every smaller τ."""
    assert not disagreements(prefix=True)


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


@pytest.mark.parametrize("prefix", [False, True])
@pytest.mark.parametrize("name", list(BROKEN))
def test_each_broken_variant_is_caught(name, prefix, monkeypatch):
    real = matching.settling
    monkeypatch.setattr(matching, "settling", lambda p, g, n_pred, n_gt: BROKEN[name](
        real(p, g, n_pred, n_gt), p, g, n_pred, n_gt))
    assert disagreements(range(4), prefix), name


def test_a_prefix_with_the_wrong_none_is_caught(monkeypatch):
    """A settling of the first pairs whose "from no position" reads one below its length, as
    if its last pair were always a second pair: the comparison must notice."""
    real = matching.settling

    def none_too_early(p, g, n_pred, n_gt):
        s = real(p, g, n_pred, n_gt)
        return matching.Settling(np.minimum(s.solver_from, max(len(p) - 1, 0)), s.lone)

    assert not disagreements(range(4), prefix=True)
    monkeypatch.setattr(matching, "settling", none_too_early)
    assert disagreements(range(4), prefix=True)


def test_the_scorer_settles_lazily_and_matches_as_afresh():
    """The Scorer's first τ settles only its own pairs, a larger τ then all of them; every
    τ, in any order, matches as :func:`~scoring.spotgeo.matching.match_submission` does with
    a settling made afresh."""
    from sample_data.spotgeo import sample_paths
    from scoring.spotgeo import Scorer, load_competition

    paths = sample_paths()
    sc = Scorer(load_competition(paths["ground_truth"], paths["submissions"]))
    gt = sc.comp.gt
    sizes = []
    for tau in (10.0, 4.0, 30.0, 10.0 + 1e-9, 2.0):
        m = sc.matching(tau)
        sizes.append([len(x.lone) for x in sc._settling])
        for i, s in enumerate(sc.comp.submissions):
            seed, kit, _ = matching.match_submission(s.p, s.g, s.d, s.point_frame, s.n_points, gt.n_points, tau)
            assert np.array_equal(m.seed[i], seed) and np.array_equal(m.kit[i], kit), (tau, i)
    within_10 = [int(np.searchsorted(s.d, 10.0, side="right")) for s in sc.comp.submissions]
    assert sizes[0] == sizes[1] == within_10 and within_10 != [len(s.d) for s in sc.comp.submissions]
    assert sizes[2] == sizes[3] == sizes[4] == [len(s.d) for s in sc.comp.submissions]
