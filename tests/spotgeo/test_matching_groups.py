"""The grouped matching paths against the slow reference: components of every enumerated
shape (up to 720 full assignments of the smaller side, all of one shape in one dense block),
larger ones solved block by block in their size class, and the two-pass radix sort that
orders more than 65,536 components; each with a deliberately broken variant shown to be
caught by the same comparison.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import scoring.spotgeo.matching as matching
from tests.spotgeo.flat import flatten

from . import reference as ref


def clustered_frames(rng, n_frames, tau):
    """Frames of 2-7 predictions and 2-8 objects packed within ~τ of each other (so most
    frames are one component with a real choice), on whole pixels half the time (ties)."""
    frames = []
    for _ in range(n_frames):
        m, n = int(rng.integers(2, 8)), int(rng.integers(2, 9))
        c = rng.uniform([100, 100], [540, 380])
        obj = c + rng.uniform(-0.6 * tau, 0.6 * tau, (n, 2))
        pred = c + rng.uniform(-0.6 * tau, 0.6 * tau, (m, 2))
        if rng.random() < 0.5:
            obj, pred = np.round(obj), np.round(pred)
        frames.append((pred, obj))
    return frames


def engine(frames, tau):
    """Per frame (pairs within τ, their distance sum) from match_submission over all frames."""
    pred_xy, obj_xy, pf, of, p, g, d = flatten(frames)
    seed, _, stats = matching.match_submission(p, g, d, pf, len(pred_xy), len(obj_xy), tau)
    cnt = np.bincount(pf[p[seed]], minlength=len(frames))
    tot = np.bincount(pf[p[seed]], weights=d[seed], minlength=len(frames))
    return list(zip(cnt.tolist(), tot.tolist(), strict=True)), stats


def disagreements(frames, tau):
    got, _ = engine(frames, tau)
    bad = []
    for f, (pred, obj) in enumerate(frames):
        want = ref.match_definition(pred.tolist(), obj.tolist(), tau)
        w = (len(want), sum(d for _, _, d in want))
        if got[f][0] != w[0] or not math.isclose(got[f][1], w[1], rel_tol=1e-12, abs_tol=1e-9):
            bad.append((f, got[f], w))
    return bad


@pytest.fixture(params=["compiled", "numpy"])
def route(request, monkeypatch):
    """The components found by the compiled kernel (numba) or by its numpy twin."""
    if request.param == "numpy":
        monkeypatch.setattr(matching, "_compiled", [None])
    else:
        import scoring.spotgeo.kernels  # noqa: F401  (numba is in requirements.txt: missing, this fails)

        monkeypatch.setattr(matching, "COMPILED_MIN_PAIRS", 0)  # these frames are fewer pairs than it
    return request.param


@pytest.mark.parametrize("tau", [10.0, 50.0])
def test_every_enumerated_shape_agrees_with_the_reference(tau, route):
    frames = clustered_frames(np.random.default_rng(int(tau)), 160, tau)
    assert not disagreements(frames, tau)


def test_the_frames_reach_every_path():
    """Else the comparison above would prove little: the largest enumerated shapes (more
    than the earlier 120 assignments), and components too large to enumerate."""
    tau = 50.0
    shapes = []
    orig = matching._enumerate

    def spy(cost, pid, tau_):
        shapes.append(cost.shape[1:])
        return orig(cost, pid, tau_)

    mp = pytest.MonkeyPatch()
    mp.setattr(matching, "_enumerate", spy)
    try:
        _, stats = engine(clustered_frames(np.random.default_rng(int(tau)), 160, tau), tau)
    finally:
        mp.undo()
    big = [s for s in shapes if math.perm(max(s), min(s)) > 120]
    assert len(big) >= 3 and stats.solver_calls >= 1, (shapes, stats)


def test_broken_enumeration_is_caught(monkeypatch):
    """The assignments listed in a shuffled order: every row's choices are then added to the
    sums of the wrong earlier choices (the sums are shared by prefix, which needs the
    lexicographic order), and the reference comparison must notice."""
    full = matching._assignments

    def shuffled(rows, cols):
        a = full(rows, cols)
        return a[np.random.default_rng(len(a)).permutation(len(a))]

    monkeypatch.setattr(matching, "_assignments", shuffled)
    assert any(disagreements(clustered_frames(np.random.default_rng(int(t)), 160, t), t) for t in (10.0, 50.0))


def test_enumeration_sums_every_assignment_to_the_last_bit():
    """The prefix-shared sums equal a plain row-by-row sum of each assignment, bit for bit,
    so the choice (the first smallest, in the assignments' order) is the same."""
    rng = np.random.default_rng(3)
    for r, c in [(2, 2), (2, 5), (3, 3), (4, 5), (5, 6), (6, 6), (6, 4)]:
        cost = rng.uniform(0, 50, (40, r, c))
        cost[::3] = np.round(cost[::3])  # whole numbers: ties between assignments
        pid = np.arange(40 * r * c).reshape(40, r, c)
        got = matching._enumerate(cost, pid, 50.0).reshape(40, -1)
        rows, cols = (r, c) if r <= c else (c, r)
        t = cost if r <= c else cost.transpose(0, 2, 1)
        q = pid if r <= c else pid.transpose(0, 2, 1)
        perm = matching._assignments(rows, cols)
        for k in range(40):
            sums = [sum(t[k, i, a[i]] for i in range(rows)) for a in perm.tolist()]  # left to right
            a = perm[int(np.argmin(sums))]
            assert got[k].tolist() == q[k, np.arange(rows), a].tolist(), (r, c, k)


def _swapped_passes(x, n_values):
    """The two-pass radix sort with its passes in the wrong order (high bits first)."""
    high = np.argsort((x >> 16).astype(np.uint16), kind="stable")
    return high[np.argsort((x[high] & 0xFFFF).astype(np.uint16), kind="stable")]


@pytest.mark.parametrize("n_values", [7, 1 << 16, (1 << 16) + 1, 1 << 20, (1 << 31) - 1])
def test_radix_argsort_is_numpys_stable_argsort(n_values):
    rng = np.random.default_rng(n_values % 1000)
    x = rng.integers(0, n_values, 40_000)
    x[::7] = x[0]  # many equal keys: the order among them must be kept
    assert np.array_equal(matching._argsort_small(x, n_values), np.argsort(x, kind="stable"))
    if n_values >= 1 << 20:  # many high halves: the wrong pass order shows
        assert not np.array_equal(_swapped_passes(x, n_values), np.argsort(x, kind="stable"))


def test_more_than_65536_components_through_the_engine(route):
    """70,000 frames of one 2 × 2 component each (the two-pass sort orders them): every
    frame's two pairs are the ones the reference picks."""
    rng = np.random.default_rng(5)
    n = 70_000
    c = rng.uniform([50, 50], [590, 430], (n, 1, 2))
    obj = c + rng.uniform(-4, 4, (n, 2, 2))
    pred = c + rng.uniform(-4, 4, (n, 2, 2))
    frames = list(zip(pred, obj, strict=True))
    got, stats = engine(frames, 10.0)
    assert stats.enumerated > 1 << 16
    for f in range(n):
        want = ref.match_definition(pred[f].tolist(), obj[f].tolist(), 10.0)
        assert got[f][0] == len(want) and math.isclose(got[f][1], sum(d for _, _, d in want), abs_tol=1e-9)


def test_the_graph_and_compaction_built_from_the_sort_match_scipys_own():
    """The pairs' graph built as compressed rows from the sort by prediction: the same
    components, numbered the same, as SciPy's COO route; the compaction from the sort the
    same as the one from a mask."""
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    rng = np.random.default_rng(11)
    q = rng.integers(0, 90_000, 30_000)  # predictions (more than 65,536: the two-pass sort)
    gi = rng.integers(0, 20_000, 30_000)
    keep = np.unique(q * 20_000 + gi, return_index=True)[1]  # distinct pairs, in random order
    keep = rng.permutation(keep)
    q, gi = q[keep], gi[keep]
    order = matching._argsort_small(q, 90_000)
    up, pi, starts = matching._compact_sorted(q, order)
    want_up, want_pi = matching._compact(q, 90_000)
    assert np.array_equal(up, want_up) and np.array_equal(pi, want_pi)
    n_p = len(up)
    _, gi = matching._compact(gi, 20_000)
    n_g = int(gi.max()) + 1
    coo = coo_matrix((np.ones(len(pi)), (pi, n_p + gi)), shape=(n_p + n_g, n_p + n_g))
    want = connected_components(coo, directed=False)
    got = connected_components(matching._graph(order, starts, gi, n_g), directed=False)
    assert got[0] == want[0] and np.array_equal(got[1], want[1])


def test_broken_graph_is_caught(monkeypatch):
    """Each prediction's first pair left out of the graph (an off-by-one in its rows): its
    components split, a pair's two ends fall in different blocks, and the comparison with
    the reference must fail — with these frames, by an object left alone whose block has no
    rows. (Edges to the wrong partners instead only merge components, which the blocks,
    built from the pairs themselves, survive.)"""
    from scipy.sparse import coo_matrix

    def first_dropped(order, starts, gi, n_g):
        n_p, n = len(starts), len(starts) + n_g
        first = np.zeros(len(order), dtype=bool)
        first[starts] = True
        rows = np.cumsum(first) - 1
        keep = ~first
        return coo_matrix((np.ones(int(keep.sum())), (rows[keep], n_p + gi[order][keep])), shape=(n, n))

    def caught(tau):
        try:
            return bool(disagreements(clustered_frames(np.random.default_rng(int(tau)), 160, tau), tau))
        except ValueError:  # a block of a component left with no rows cannot even be shaped
            return True

    monkeypatch.setattr(matching, "_compiled", [None])  # the numpy route, which builds the graph
    assert not caught(10.0) and not caught(50.0)  # (the comparison itself passes as it is)
    monkeypatch.setattr(matching, "_graph", first_dropped)
    assert caught(10.0) and caught(50.0)
