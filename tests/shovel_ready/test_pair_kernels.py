"""The compiled pairing (:func:`scoring.shovel_ready.kernels.pair_runs`) and FP1's compiled
choice of matches (:func:`~scoring.shovel_ready.kernels.fp1_best`), used by a process that
holds numba, against the numpy code beside them and against the definitions (Python sets,
``tests/shovel_ready/reference.py``) on many random cases: crowded cells (entered by a binary
search), holed segments, classes the ground truth lacks, essays only the predictions name.
"""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest

import scoring
from scoring.shovel_ready import jit, kernels
from scoring.shovel_ready.fp1 import fp1_from_pairs, gt_groups
from scoring.shovel_ready.segments import overlapping_pairs, run_index, segs_from_sets
from tests.shovel_ready import randomcomp
from tests.shovel_ready import reference as ref


@pytest.fixture
def route(monkeypatch):
    """``route(True)``: this process holds the compiled loops; ``route(False)``: it does not."""
    def use(compiled: bool) -> None:
        monkeypatch.setattr(jit, "_compiled", [kernels] if compiled else [])
    return use


def _random_segs(rng: random.Random, n: int, n_essays: int, n_classes: int, length: int, crowded: bool):
    sets, essay, cls = [], [], []
    for _ in range(n):
        if crowded and rng.random() < 0.5:  # many short segments in essay 0, class 0
            e, c, lo, span = 0, 0, rng.randrange(length), rng.randint(0, 3)
        else:
            e, c, lo, span = rng.randrange(n_essays), rng.randrange(n_classes), rng.randrange(length), rng.randint(0, 14)
        words = set(range(lo, lo + span + 1))
        if rng.random() < 0.25 and span >= 2:  # a hole, or a far piece
            words -= {rng.randint(lo + 1, lo + span - 1)}
        if rng.random() < 0.05:
            words |= {rng.randrange(length)}
        sets.append(words)
        essay.append(e)
        cls.append(c)
    return sets, np.array(essay), np.array(cls)


def _case(seed: int):
    rng = random.Random(seed)
    crowded = seed % 2 == 0
    n_gt_essays = rng.randint(1, 6)
    gs, ge, gc = _random_segs(rng, rng.randint(1, 150), n_gt_essays, 3, 80, crowded)
    # predictions: classes 0-3 (3 is one the ground truth lacks: the code past the last), and
    # essays past the ground truth's
    ps, pe, pc = _random_segs(rng, rng.randint(0, 200), n_gt_essays + 2, 4, 80, crowded)
    return ps, pe, pc, gs, ge, gc


def _by_definition(ps, pe, pc, gs, ge, gc, n_classes):
    return {(i, j): len(ps[i] & gs[j]) for i in range(len(ps)) for j in range(len(gs))
            if pe[i] == ge[j] and pc[i] == gc[j] and pc[i] < n_classes and ps[i] & gs[j]}


@pytest.mark.parametrize("seed", range(40))
def test_compiled_pairs_equal_the_numpy_pairs_and_the_definition(seed, route):
    ps, pe, pc, gs, ge, gc = _case(seed)
    pred = segs_from_sets(ps, essay=pe, cls=pc)
    gt = segs_from_sets(gs, essay=ge, cls=gc)
    index = run_index(gt, 3)
    got = {}
    for compiled in (False, True):
        route(compiled)
        got[compiled] = overlapping_pairs(pred, gt, 3, index)
    for a, b in zip(got[False], got[True], strict=True):
        assert a.dtype == b.dtype and np.array_equal(a, b)
    p, g, inter = got[True]
    assert np.all(np.diff(p) >= 0)
    found = dict(zip(zip(p.tolist(), g.tolist(), strict=True), inter.tolist(), strict=True))
    assert len(found) == len(p) and found == _by_definition(ps, pe, pc, gs, ge, gc, 3)


@pytest.mark.parametrize("pred_essay, pred_words", [(3, {1}), (0, {9})])
def test_no_pairs_are_empty_arrays_of_one_type_by_either_route(pred_essay, pred_words, route):
    # no candidate at all (an essay past the index's last cell), and candidates that all miss
    gt = segs_from_sets([{1, 2, 3}], essay=np.zeros(1, np.int64), cls=np.zeros(1, np.int64))
    gt.run_hi = gt.run_hi.astype(np.int32)
    gt.run_lo = gt.run_lo.astype(np.int32)  # as a ground truth read from a file has them
    pred = segs_from_sets([pred_words], essay=np.array([pred_essay]), cls=np.zeros(1, np.int64))
    for compiled in (False, True):
        route(compiled)
        got = overlapping_pairs(pred, gt, 1, run_index(gt, 1))
        assert [(len(a), a.dtype) for a in got] == [(0, np.dtype(np.int64))] * 3


def test_a_crowded_cell_is_entered_by_its_binary_search():
    # 40 ground-truth runs in one cell (more than the linear limit): a prediction far to the
    # right meets only the runs that reach it, one long run among them starting early
    lo = np.array([0, *range(1, 40)], np.int32)
    hi = np.array([500, *range(1, 40)], np.int32)
    gt = segs_from_sets([set(range(a, b + 1)) for a, b in zip(lo, hi, strict=True)], essay=np.zeros(40, np.int64),
                        cls=np.zeros(40, np.int64))
    pred = segs_from_sets([{30, 31}, {450}, {600}], essay=np.zeros(3, np.int64), cls=np.zeros(3, np.int64))
    ix = run_index(gt, 1)
    assert ix.cell_start[1] - ix.cell_start[0] > kernels._LINEAR
    p, g, inter = kernels.pair_runs(pred.run_seg, pred.essay, pred.cls, pred.run_lo, pred.run_hi, ix.cell_start,
                                    ix.end, ix.lo, ix.hi, ix.seg, 1, np.int64(1 << 40))
    # {30, 31} meets the long run (2 words) and runs 30 and 31; {450} only the long run; {600} none
    assert list(zip(p.tolist(), g.tolist(), inter.tolist(), strict=True)) == [(0, 0, 2), (0, 30, 1), (0, 31, 1), (1, 0, 1)]


def _fp1_both(pred, gt, groups, n_classes, n_essays, route):
    out = []
    for compiled in (False, True):
        route(compiled)
        pairs = overlapping_pairs(pred, gt, n_classes)
        out.append(fp1_from_pairs(pred, gt, groups, n_classes, n_essays, *pairs))
    return out


@pytest.mark.parametrize("seed", range(40))
def test_compiled_fp1_equals_numpy_fp1(seed, route):
    ps, pe, pc, gs, ge, gc = _case(seed)
    rng = random.Random(seed)
    rows = np.array(rng.sample(range(10 * len(ps) + 1), len(ps)), np.int64)  # rows in any order
    pred = segs_from_sets(ps, essay=pe, cls=pc, row=rows)
    gt = segs_from_sets(gs, essay=ge, cls=gc)
    numpy_fp1, compiled_fp1 = _fp1_both(pred, gt, gt_groups(gt), 3, int(max(pe.max(initial=0), ge.max())) + 1,
                                        route)
    assert compiled_fp1 == numpy_fp1


def test_compiled_fp1_breaks_ties_by_overlap_then_row(route):
    # one ground truth {0..9}; three candidates: 6 words of 6 (o = 0.6 / 1.0: max 1.0), the
    # same six words again at an earlier row, and 8 of 10 (max 0.8): the earlier of the two
    # tied at 1.0 is the match, the other two are false positives: F1 = 1 / (1 + 0.5 * 2)
    gt = segs_from_sets([set(range(10))], essay=np.zeros(1, np.int64), cls=np.zeros(1, np.int64))
    pred = segs_from_sets([set(range(6)), set(range(6)), set(range(8)) | {20, 21}],
                          essay=np.zeros(3, np.int64), cls=np.zeros(3, np.int64), row=np.array([5, 2, 0]))
    for compiled in (False, True):
        route(compiled)
        pairs = overlapping_pairs(pred, gt, 1)
        if compiled:
            best, matched = kernels.fp1_best(*pairs, pred.size, gt.size, pred.row, gt_groups(gt), 1, 1)
            assert best.tolist() == [1] and matched.tolist() == [True]
        assert fp1_from_pairs(pred, gt, gt_groups(gt), 1, 1, *pairs) == 0.5


@pytest.mark.parametrize("seed", range(12))
def test_fp1_score_in_a_process_holding_the_loops_equals_the_reference(seed, route):
    comp = randomcomp.random_competition(seed)
    expected = ref.fp1_from_frames(comp.ground_truth, next(iter(comp.submissions.values())))
    route(True)
    got = scoring.fp1_score(comp.ground_truth, next(iter(comp.submissions.values())))
    assert abs(Fraction(got) - expected) < Fraction(1, 10**12)
