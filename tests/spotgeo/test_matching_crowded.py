"""The whole-submission matching against the plain per-frame solver on the hard cases: crowded
frames (20-30 objects close together), exact ties (points on a whole-pixel grid, so many
distances are equal), predictions exactly τ from an object (3-4-5 triangles and straight
offsets), and the chain where the kit's constant 1000 changes the answer — at τ up to 50.

Under ties two optimal matchings may pair different points, so per frame the test compares
what every optimal matching shares: the number of pairs within τ and the sum of their
distances (the kit's counts, and its error sum with ε = 0). Then each deliberately broken
variant of the engine is shown to be caught by the same comparison.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.optimize import linear_sum_assignment

import scoring.spotgeo.matching as matching
from scoring.spotgeo.explain import kit_constant_example
from scoring.spotgeo.rules import KIT_CONSTANT
from tests.spotgeo.flat import flatten


def plain(pred, obj, tau, constant):
    """(pairs within τ, their distance sum) of linear_sum_assignment on the whole frame."""
    if len(pred) == 0 or len(obj) == 0:
        return 0, 0.0
    D = np.hypot(pred[:, None, 0] - obj[None, :, 0], pred[:, None, 1] - obj[None, :, 1])
    r, c = linear_sum_assignment(np.where(D <= tau, D, constant))
    m = D[r, c][D[r, c] <= tau]
    return len(m), float(m.sum())


def _inside(xy):
    return xy[(xy[:, 0] >= -0.5) & (xy[:, 0] <= 639.5) & (xy[:, 1] >= -0.5) & (xy[:, 1] <= 479.5)]


def hard_frames(rng, n_frames, tau):
    frames = []
    for f in range(n_frames):
        kind = f % 4
        n = int(rng.integers(20, 31)) if kind < 3 else int(rng.integers(0, 8))
        c = rng.uniform([60, 60], [580, 420])
        spread = rng.choice([tau, 2 * tau, 4 * tau])
        obj = c + rng.normal(0, spread, (n, 2))
        if kind == 1:  # whole pixels: many exactly equal distances
            obj = np.round(obj)
        obj = _inside(obj)
        n = len(obj)
        k = int(rng.integers(0, n + 1))
        pred = obj[rng.permutation(n)[:k]] + rng.normal(0, rng.choice([0.3 * tau, tau]), (k, 2))
        if kind == 1:
            pred = np.round(pred)
        if kind == 2 and k:  # exactly τ away: straight offsets and 3-4-5 triangles
            off = np.array([[tau, 0.0], [0.0, -tau], [0.6 * tau, 0.8 * tau], [-0.8 * tau, 0.6 * tau]])
            pred = obj[rng.permutation(n)[:k]] + off[rng.integers(0, 4, k)]
        extra = c + rng.normal(0, spread, (int(rng.integers(0, 8)), 2))
        frames.append((_inside(np.vstack([pred, np.round(extra) if kind == 1 else extra])), obj))
    chain_pred, chain_obj = kit_constant_example(min(tau, 49.5))
    frames.append((chain_pred, chain_obj))
    return frames


def engine(frames, tau):
    """Per frame (pairs, distance sum) for the definition's constant and the kit's."""
    pred_xy, obj_xy, pf, of, p, g, d = flatten(frames)
    seed, kit, _ = matching.match_submission(p, g, d, pf, len(pred_xy), len(obj_xy), tau)
    out = []
    for ids in (seed, kit):
        cnt = np.bincount(pf[p[ids]], minlength=len(frames))
        tot = np.bincount(pf[p[ids]], weights=d[ids], minlength=len(frames))
        out.append(list(zip(cnt.tolist(), tot.tolist(), strict=True)))
    return out


def disagreements(frames, tau) -> list:
    seed, kit = engine(frames, tau)
    bad = []
    for f, (pred, obj) in enumerate(frames):
        m = min(len(pred), len(obj))
        for got, constant, rule in ((seed[f], (m + 1) * tau + 1, "seed"), (kit[f], KIT_CONSTANT, "kit")):
            want = plain(pred, obj, tau, constant)
            if got[0] != want[0] or not math.isclose(got[1], want[1], rel_tol=1e-12, abs_tol=1e-9):
                bad.append((f, rule, got, want))
    return bad


TAUS = [10.0, 25.0, 40.0, 49.5, 50.0]


@pytest.mark.parametrize("tau", TAUS)
def test_crowded_ties_and_exact_tau_agree_with_the_plain_solver(tau):
    rng = np.random.default_rng(int(tau * 7))
    frames = hard_frames(rng, 240, tau)
    assert not disagreements(frames, tau)


def test_the_cases_are_hard():
    """Else the comparison above would prove little: exact-τ pairs, tied distances, frames the
    solver must see, and frames where the kit's constant changes the count."""
    rng = np.random.default_rng(int(50.0 * 7))
    frames = hard_frames(rng, 240, 50.0)
    at_tau = ties = differ = 0
    for pred, obj in frames:
        if len(pred) and len(obj):
            D = np.hypot(pred[:, None, 0] - obj[None, :, 0], pred[:, None, 1] - obj[None, :, 1])
            at_tau += int((D == 50.0).sum())
            within = np.sort(D[D <= 50.0])
            ties += int((np.diff(within) == 0).sum())
            m = min(len(pred), len(obj))
            differ += plain(pred, obj, 50.0, (m + 1) * 50.0 + 1)[0] != plain(pred, obj, 50.0, KIT_CONSTANT)[0]
    assert at_tau > 100 and ties > 100 and differ >= 1, (at_tau, ties, differ)
    seed, _ = engine(frames, 50.0)
    assert sum(c for c, _ in seed) > 1500  # pairs compared (about 8 per frame)


BROKEN = {
    # the kit's second solve never made: the kit answer would be the definition's
    "no kit solve": lambda mp: mp.setattr(matching, "KIT_CONSTANT", 1e18),
    # the definition's constant as plain truncation at τ (spec §2's warning)
    "truncated cost": lambda mp: mp.setattr(matching, "cost_constant", lambda tau, m, rules=None: tau),
    # a pair exactly τ apart left out
    "strict tau": lambda mp: mp.setattr(matching, "match_submission", _strict(matching.match_submission)),
    # every pair outside the solver matched, not only each star's shortest (the settling at
    # every τ is checked against the degrees in test_settling.py)
    "whole stars matched": lambda mp: mp.setattr(matching, "settling", _settling(
        matching.settling, lambda s: matching.Settling(s.solver_from, np.ones_like(s.lone)))),
}


def _settling(f, change):
    def run(*args):
        return change(f(*args))
    return run


def _strict(f):
    def run(p, g, d, pf, n_pred, n_gt, tau):
        return f(p, g, d, pf, n_pred, n_gt, float(np.nextafter(tau, 0)))
    return run


@pytest.mark.parametrize("name", list(BROKEN))
def test_each_broken_variant_is_caught(name, monkeypatch):
    BROKEN[name](monkeypatch)
    found = False
    for tau in TAUS:
        frames = hard_frames(np.random.default_rng(int(tau * 7)), 240, tau)
        if disagreements(frames, tau):
            found = True
            break
    assert found, name
