"""The compiled kernels (``scoring.spotgeo.kernels``, numba) against their numpy twins, on
many random submissions, from a few pairs to crowded frames at τ = 50, on whole pixels
(ties) or not:

* the components: the same, numbered the same, the same positions of every pair's two
  points, the same frame count;
* the candidate pairs: the same pairs in the same order, the same distances to the bit;
* the settling: the same two arrays, of the same dtype.

Each comparison is shown to catch a deliberately broken variant."""

from __future__ import annotations

import numpy as np
import pytest

import scoring.spotgeo.competition as competition
import scoring.spotgeo.matching as matching
from scoring.spotgeo.competition import candidate_pairs
from scoring.spotgeo.kernels import components
from tests.spotgeo.flat import flatten


def solver_pairs(rng, n_frames, tau, per_frame=(1, 12)):
    """The pairs that go to the solver (``rest``) of a random submission, as the matching
    hands them on: ``(q, gq, pred_frame, n_pred, n_gt)``."""
    frames = []
    for _ in range(n_frames):
        m, n = (int(rng.integers(*per_frame)) for _ in range(2))
        c = rng.uniform([60, 60], [580, 420])
        obj = c + rng.uniform(-tau, tau, (n, 2))
        pred = c + rng.uniform(-tau, tau, (m, 2))
        if rng.random() < 0.5:
            obj, pred = np.round(obj), np.round(pred)
        frames.append((pred, obj))
    pred_xy, obj_xy, pf, _, p, g, d = flatten(frames)
    s = matching.settling(p, g, len(pred_xy), len(obj_xy))
    n = int(np.searchsorted(d, tau, side="right"))
    rest = np.flatnonzero(s.solver_from[:n] < n)
    return p[rest], g[rest], pf, len(pred_xy), len(obj_xy)


def same(a, b) -> bool:
    return a[0] == b[0] and a[6] == b[6] and all(np.array_equal(x, y) for x, y in zip(a[1:6], b[1:6], strict=True))


@pytest.mark.parametrize("seed", range(12))
def test_compiled_components_equal_the_numpy_twin(seed):
    rng = np.random.default_rng(seed)
    tau = float(rng.choice([5.0, 10.0, 30.0, 50.0]))
    q, gq, pf, n_pred, n_gt = solver_pairs(rng, int(rng.integers(1, 400)), tau)
    if len(q) == 0:
        pytest.fail("no pair reached the solver: the case proves nothing")
    got = components(q, gq, n_pred, n_gt, pf)
    want = matching._components_numpy(q, gq, pf, n_pred, n_gt)
    assert same(got, want)
    n_comp, comp, row, col, rn, cn, _ = got  # and what the numbers mean, checked apart
    assert rn.sum() == len(np.unique(q)) and cn.sum() == len(np.unique(gq))
    assert (row < rn[comp]).all() and (col < cn[comp]).all() and comp.max() == n_comp - 1


def test_crowded_frames_of_thirty_points_a_side():
    q, gq, pf, n_pred, n_gt = solver_pairs(np.random.default_rng(99), 300, 50.0, per_frame=(20, 31))
    assert len(q) > 10_000
    assert same(components(q, gq, n_pred, n_gt, pf), matching._components_numpy(q, gq, pf, n_pred, n_gt))


def test_the_comparison_catches_points_numbered_backwards():
    """A twin whose objects are numbered descending within their component (a block would
    then be filled mirrored): the comparison above must tell."""
    q, gq, pf, n_pred, n_gt = solver_pairs(np.random.default_rng(5), 200, 30.0)
    n_comp, comp, row, col, rn, cn, nf = matching._components_numpy(q, gq, pf, n_pred, n_gt)
    broken = (n_comp, comp, row, cn[comp] - 1 - col, rn, cn, nf)
    assert not same(components(q, gq, n_pred, n_gt, pf), broken)


def test_the_engine_takes_the_compiled_route_for_many_pairs_only(monkeypatch):
    """numba is in requirements.txt: with enough pairs the matching must find the kernel, not
    fall back; with fewer it must not load it (the numpy route, a spy shows which ran)."""
    q, gq, pf, n_pred, n_gt = solver_pairs(np.random.default_rng(8), 300, 50.0, per_frame=(10, 20))
    ran = []
    twin = matching._components_numpy
    monkeypatch.setattr(matching, "_components_numpy", lambda *a: ran.append(len(a[0])) or twin(*a))
    monkeypatch.setattr(matching, "COMPILED_MIN_PAIRS", len(q) + 1)
    matching._components(q, gq, pf, n_pred, n_gt)
    assert ran == [len(q)]
    monkeypatch.setattr(matching, "COMPILED_MIN_PAIRS", len(q))
    matching._components(q, gq, pf, n_pred, n_gt)
    assert ran == [len(q)] and matching.compiled().components is components


def random_points(rng, n_frames, per_frame, spread, whole):
    counts = rng.integers(*per_frame, n_frames)
    centre = np.repeat(rng.uniform([60, 60], [580, 420], (n_frames, 2)), counts, axis=0)
    xy = centre + rng.uniform(-spread, spread, (int(counts.sum()), 2))
    return (np.round(xy) if whole else xy), np.repeat(np.arange(n_frames), counts)


def both_routes(monkeypatch, fn, *args):
    """``fn(*args)`` by the numpy route, then by the compiled one."""
    monkeypatch.setattr(matching, "COMPILED_MIN_POINTS", 1 << 62)
    monkeypatch.setattr(competition, "COMPILED_MIN_POINTS", 1 << 62)
    want = fn(*args)
    monkeypatch.setattr(matching, "COMPILED_MIN_POINTS", 0)
    monkeypatch.setattr(competition, "COMPILED_MIN_POINTS", 0)
    return want, fn(*args)


def same_arrays(a, b) -> bool:
    return all(x.dtype == y.dtype and np.array_equal(x, y) for x, y in zip(a, b, strict=True))


@pytest.mark.parametrize("seed", range(8))
def test_compiled_candidate_pairs_and_settling_equal_the_numpy_route(seed, monkeypatch):
    rng = np.random.default_rng(100 + seed)
    whole = bool(seed % 2)
    n_frames = int(rng.integers(1, 300))
    pred, pf = random_points(rng, n_frames, (0, 31), 40.0, whole)
    obj, of = random_points(rng, n_frames, (1, 31), 40.0, whole)
    max_d = float(rng.choice([10.0, 50.0]))
    want, got = both_routes(monkeypatch, candidate_pairs, pred, pf, obj, of, max_d)
    assert len(want[0]) > 0 and same_arrays(want, got)
    if whole:
        assert (np.diff(want[2]) == 0).any()  # ties in distance: their order is checked too
    p, g, _ = want
    s_want, s_got = both_routes(monkeypatch, matching.settling, p, g, len(pred), len(obj))
    assert same_arrays((s_want.solver_from, s_want.lone), (s_got.solver_from, s_got.lone))


def test_the_pairs_comparison_catches_a_window_cut_short(monkeypatch):
    """Windows one object shorter at their end: pairs go missing, and the comparison tells."""
    rng = np.random.default_rng(7)
    pred, pf = random_points(rng, 200, (5, 20), 30.0, False)
    obj, of = random_points(rng, 200, (5, 20), 30.0, False)
    kernels = matching.compiled()
    full = kernels.window_pairs

    def short(px, py, lo, hi, ox, oy, max_d):
        return full(px, py, lo, np.maximum(lo, hi - 1), ox, oy, max_d)

    monkeypatch.setattr(kernels, "window_pairs", short)
    want, got = both_routes(monkeypatch, candidate_pairs, pred, pf, obj, of, 50.0)
    assert not same_arrays(want, got)


def test_the_settling_comparison_catches_a_solver_called_too_early(monkeypatch):
    """Every pair sent to the solver from its own position on (as if each pair's points had a
    crowded partner from the start): isolated pairs and stars lose their settling, and the
    comparison tells."""
    rng = np.random.default_rng(9)
    pred, pf = random_points(rng, 200, (2, 12), 30.0, True)
    obj, of = random_points(rng, 200, (2, 12), 30.0, True)
    p, g, _ = candidate_pairs(pred, pf, obj, of, 50.0)
    kernels = matching.compiled()
    full = kernels.settle

    def wrong(p_, g_, n_pred, n_gt, solver_from, lone):
        full(p_, g_, n_pred, n_gt, solver_from, lone)
        solver_from[:] = np.minimum(solver_from, np.arange(len(p_)))

    monkeypatch.setattr(kernels, "settle", wrong)
    s_want, s_got = both_routes(monkeypatch, matching.settling, p, g, len(pred), len(obj))
    assert not same_arrays((s_want.solver_from, s_want.lone), (s_got.solver_from, s_got.lone))


def _scan_number(text: str):
    """``kernels._number`` on one token (and a comma after it): ``(end, value, integral)``."""
    _, end, value, whole = matching.compiled()._number(np.frombuffer((text + ",").encode(), np.uint8), 0)
    return end, value, whole


def test_the_scans_numbers_are_pythons_floats_or_left_to_arrow():
    """The compiled scan's own values against Python's float, bit for bit (the sign of zero
    included), on random decimals of up to 20 digits; NaN (Arrow's cast then decides) only
    past its exact route: more than 2**53 as one integer, or more than 22 decimals."""
    rng = np.random.default_rng(12)
    texts = ["0", "-0", "0.0", "-0.0", "0.1", "0.30000000000000004", "639.4999999999999", "9007199254740992",
             "9007199254740993", "0.000000000000000000000001", "1234567890123456789", "-639.5", "572.41"]
    for _ in range(5000):
        whole = str(int(rng.integers(0, 10 ** int(rng.integers(1, 9)))))
        frac = "".join(rng.choice(list("0123456789"), int(rng.integers(0, 13))))
        texts.append(("-" if rng.random() < 0.3 else "") + whole + ("." + frac if frac else ""))
    exact = 0
    for t in texts:
        status, value, whole = _scan_number(t)
        assert status == len(t) and whole == ("." not in t), t
        want = float(t) if "." in t else float(int(t))
        if value != value:  # NaN: left to the cast, and only where the exact route cannot go
            digits = t.lstrip("-").replace(".", "").lstrip("0")
            assert len(digits) > 15 or len(t.partition(".")[2]) > 22, t
        else:
            exact += 1
            assert value.hex() == want.hex(), t
    assert exact > 4000


@pytest.mark.parametrize("bad", ["01", "1.", ".5", "-", "--1", "1-", "+1", "1..2", "0.", "-.5", "00.5", "1.2.3",
                                 "-01", "1.-2"])
def test_the_scan_refuses_numbers_outside_the_grammar(bad):
    assert _scan_number(bad)[0] == -2
