"""Non-contiguous ("holed") segments: overlap removal and FP1 ground-truth groups as interval
arithmetic over runs, checked against the set-based reference on thousands of random essays.

The hand-made cases spell out SPEC §2 word by word; the random ones compare the engine's
vectorised removal (both of its paths) with ``reference.remove_overlaps`` (Python sets).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import scoring
from scoring.shovel_ready import fp1
from scoring.shovel_ready.fp1 import gt_groups
from scoring.shovel_ready.segments import remove_overlaps, segs_from_sets
from tests.shovel_ready import reference as ref


def _engine(essays: list[list[set[int]]], runs_only: bool) -> list[list[frozenset[int] | None]]:
    """The engine's removal on many essays at once (one batch), as per-essay lists of sets."""
    sets, essay, row = [], [], []
    for e, segs in enumerate(essays):
        for s in segs:
            sets.append(s)
            essay.append(e)
            row.append(len(row))
    batch = segs_from_sets(sets, essay=np.array(essay), row=np.array(row))
    kept, pos = remove_overlaps(batch, runs_only=runs_only)
    flat: list[frozenset[int] | None] = [None] * len(sets)
    for j, i in enumerate(pos.tolist()):
        flat[i] = frozenset(kept.words(j))
    out, k = [], 0
    for segs in essays:
        out.append(flat[k:k + len(segs)])
        k += len(segs)
    return out


def _random_set(rng: random.Random, length: int) -> set[int]:
    lo = rng.randrange(length)
    hi = min(length - 1, lo + rng.randint(0, 12))
    words = set(range(lo, hi + 1))
    kind = rng.random()
    if kind < 0.3 and hi - lo >= 2:  # one hole
        a = rng.randint(lo + 1, hi - 1)
        words -= set(range(a, min(hi, a + rng.randint(1, 3))))
    elif kind < 0.45:  # scattered words
        words = {w for w in words if rng.random() < 0.6} or {lo}
    elif kind < 0.55:  # two far-apart pieces
        far = rng.randrange(length)
        words |= set(range(far, min(length, far + rng.randint(1, 4))))
    return words


def _random_essays(seed: int, n: int) -> list[list[set[int]]]:
    rng = random.Random(seed)
    essays = []
    for _ in range(n):
        length = rng.randint(3, 40)
        essays.append([_random_set(rng, length) for _ in range(rng.randint(1, 10))])
    return essays


@pytest.mark.parametrize("runs_only", [False, True])
def test_memo_example_through_both_paths(runs_only):
    # memo §1: A 50-64, B 10-29, C 25-44, D 90-99, E 80-94, F 45-69 -> A discarded, C 30-44, D 95-99
    segs = [set(range(a, b + 1)) for a, b in [(50, 64), (10, 29), (25, 44), (90, 99), (80, 94), (45, 69)]]
    (got,) = _engine([segs], runs_only)
    assert got == [None, frozenset(range(10, 30)), frozenset(range(30, 45)), frozenset(range(95, 100)),
                   frozenset(range(80, 95)), frozenset(range(45, 70))]


@pytest.mark.parametrize("runs_only", [False, True])
def test_holes_by_hand(runs_only):
    cases = [
        # a holed segment that nothing touches is kept whole, holes and all
        ([{1, 2, 5, 6}], [{1, 2, 5, 6}]),
        # {0,2,5,6} comes first (smallest word 0) and is untouched; {1,2,3} loses 2 -> {1,3}: a gap
        ([{1, 2, 3}, {0, 2, 5, 6}], [None, {0, 2, 5, 6}]),
        # {1,5} first; {4,5,6} -> {4,6} has a gap, discarded, yet its 6 is used: {6,7,8} -> {7,8}
        ([{4, 5, 6}, {1, 5}, {6, 7, 8}], [None, {1, 5}, {7, 8}]),
        # a holed segment visited first is kept whole; the one filling its hole keeps {2}: discarded
        ([{2, 3}, {0, 1, 3, 4, 5}], [None, {0, 1, 3, 4, 5}]),
        # the later segment loses one run of two, keeping a contiguous remainder of 3 words
        ([{0, 1, 2}, {1, 2, 7, 8, 9}], [{0, 1, 2}, {7, 8, 9}]),
        # ... and a remainder of one word is discarded
        ([{0, 1, 2}, {1, 2, 9}], [{0, 1, 2}, None]),
        # an earlier holed segment leaves its hole free for a later one to keep whole
        ([{0, 1, 5, 6}, {2, 3, 4}], [{0, 1, 5, 6}, {2, 3, 4}]),
        # visiting order is by smallest word: {2,3,4} (from 2) before {3,4,5}; {3,4} is new to
        # it, and only {5} to {3,4,5}
        ([{0, 1, 2, 6}, {3, 4, 5}, {2, 3, 4}], [{0, 1, 2, 6}, None, {3, 4}]),
        # nothing new left: discarded
        ([{0, 1, 2}, {2, 3, 4, 5}, {2, 3}], [{0, 1, 2}, {3, 4, 5}, None]),
        # ties in the smallest word: file order decides; {5,7} is not contiguous
        ([{3, 4, 6}, {3, 4, 5, 6, 7}], [{3, 4, 6}, None]),
    ]
    got = _engine([c for c, _ in cases], runs_only)
    for (segs, want), g in zip(cases, got, strict=True):
        assert g == [None if w is None else frozenset(w) for w in want], segs


@pytest.mark.parametrize("seed", range(4))
def test_removal_equals_the_set_reference_on_random_essays(seed):
    essays = _random_essays(seed, 1500)
    want = [ref.remove_overlaps(segs) for segs in essays]
    assert sum(any(len(s) != max(s) - min(s) + 1 for s in segs) for segs in essays) > 300  # holes do occur
    assert _engine(essays, runs_only=False) == want
    assert _engine(essays, runs_only=True) == want


def test_public_remove_overlaps_on_holed_lists():
    # the worked-examples helper takes one essay's segments as plain lists, in file order
    assert scoring.remove_overlaps([[4, 5, 6], [1, 5], [6, 7, 8]]) == [None, (1, 5), (7, 8)]
    assert scoring.remove_overlaps([[0, 1, 5, 6], [2, 3, 4]]) == [(0, 1, 5, 6), (2, 3, 4)]


def test_gt_groups_of_identical_holed_segments():
    # identical (essay, class, word set) share a group, holes included; same words in another
    # class or essay, or one word more, do not
    sets = [{1, 2, 5}, {1, 2, 5}, {1, 2, 5}, {1, 2, 5}, {1, 2, 5, 6}, {1, 2, 3}, {1, 2, 3}, {7, 9, 11}]
    essay = np.array([0, 0, 0, 1, 0, 0, 0, 0])
    cls = np.array([0, 0, 1, 0, 0, 0, 0, 0])
    g = gt_groups(segs_from_sets(sets, essay=essay, cls=cls)).tolist()
    assert g[0] == g[1] and g[5] == g[6]
    assert len({g[0], g[2], g[3], g[4], g[5], g[7]}) == 6


@pytest.mark.parametrize("collide", [False, True])
def test_gt_groups_random_equal_a_dictionary(collide, monkeypatch):
    if collide:  # every run hashes to 0: the exact comparison must catch the collisions
        monkeypatch.setattr(fp1, "_MIX", np.zeros(3, dtype=np.uint64))
    rng = random.Random(5)
    sets, essay, cls = [], [], []
    for _ in range(3000):
        base = sorted(rng.sample(range(30), rng.randint(1, 6)))
        sets.append(set(base))
        essay.append(rng.randrange(3))
        cls.append(rng.randrange(2))
    g = fp1.gt_groups(segs_from_sets(sets, essay=np.array(essay), cls=np.array(cls)))
    first: dict[tuple, int] = {}
    for i, key in enumerate(zip(essay, cls, (tuple(sorted(s)) for s in sets), strict=True)):
        first.setdefault(key, i)
        assert (g[i] == g[first[key]]), key
    assert len(set(g.tolist())) == len(first)


def test_gt_groups_without_duplicates_give_each_segment_its_own_group():
    # the fast path (no two single-run segments alike): every segment a group of its own,
    # numbered 0..n-1, holed segments after the contiguous ones
    sets = [{1, 2, 3}, {1, 2, 3}, {4, 5}, {1, 3}, {1, 3}, {2, 3, 4}]
    essay = np.array([0, 1, 0, 0, 1, 0])
    cls = np.array([0, 0, 0, 0, 0, 1])
    g = gt_groups(segs_from_sets(sets, essay=essay, cls=cls)).tolist()
    assert sorted(g) == list(range(6))
    assert {g[3], g[4]} == {4, 5}  # the two holed ones: distinct essays, distinct groups
    # one exact duplicate among contiguous segments takes the general path
    g = gt_groups(segs_from_sets(sets + [{1, 2, 3}], essay=np.append(essay, 1), cls=np.append(cls, 0))).tolist()
    assert g[6] == g[1] and len(set(g)) == 6


@pytest.mark.parametrize("seed", range(4))
def test_overlapping_pairs_of_holed_segments_equal_set_intersections(seed):
    # every (prediction, ground truth) of one essay and class that share a word, once, with
    # the number of shared words, ordered by prediction — holed segments summed over runs
    from scoring.shovel_ready.segments import overlapping_pairs

    rng = random.Random(seed)

    def some(n):
        sets, essay, cls = [], [], []
        for _ in range(n):
            lo = rng.randrange(60)
            words = set(range(lo, lo + rng.randint(1, 12)))
            if rng.random() < 0.4:  # holes
                words -= set(rng.sample(sorted(words), min(len(words) - 1, rng.randint(0, 3))))
            sets.append(words)
            essay.append(rng.randrange(3))
            cls.append(rng.randrange(3))
        return sets, np.array(essay), np.array(cls)

    ps, pe, pc_ = some(300)
    gs, ge, gc = some(200)
    p, g, inter = overlapping_pairs(segs_from_sets(ps, essay=pe, cls=pc_), segs_from_sets(gs, essay=ge, cls=gc), 2)
    expected = {(i, j): len(ps[i] & gs[j]) for i in range(len(ps)) for j in range(len(gs))
                if pe[i] == ge[j] and pc_[i] == gc[j] and pc_[i] < 2 and ps[i] & gs[j]}
    got = dict(zip(zip(p.tolist(), g.tolist(), strict=True), inter.tolist(), strict=True))
    assert len(got) == len(p) and got == expected
    assert np.all(np.diff(p) >= 0)


def test_removal_on_long_essays_with_holed_and_plain_clusters():
    # long essays of short segments: most overlap clusters hold no hole (running maximum of
    # ends), a few do (interval arithmetic), side by side in one essay
    rng = random.Random(11)
    essays = []
    for _ in range(300):
        length = rng.randint(150, 400)
        segs = []
        for _ in range(rng.randint(10, 40)):
            lo = rng.randrange(length)
            words = set(range(lo, min(length, lo + rng.randint(1, 15))))
            if rng.random() < 0.08 and len(words) > 3:
                words.discard(lo + 2)
            segs.append(words)
        essays.append(segs)
    holed = [any(len(s) != max(s) - min(s) + 1 for s in segs) for segs in essays]
    assert 100 < sum(holed) < 300  # essays with a hole, and essays without
    want = [ref.remove_overlaps(segs) for segs in essays]
    assert _engine(essays, runs_only=False) == want


@pytest.mark.parametrize("holes", [False, True])
def test_take_keeps_each_segment_with_its_words(holes):
    # Segs.take's three ways (one run a segment; a few segments of many; many): every taken
    # segment has the words and columns of the one it came from
    rng = random.Random(5)
    sets = [_random_set(rng, 60) if holes else set(range(a, a + rng.randint(1, 9)))
            for a in (rng.randrange(50) for _ in range(400))]
    segs = segs_from_sets(sets, essay=np.arange(400) % 7, cls=np.arange(400) % 3)
    assert segs.multi == holes
    for k in (0, 3, 40, 399):
        idx = np.sort(np.array(rng.sample(range(400), k), dtype=np.int64))
        sub = segs.take(idx)
        assert [sub.words(j) for j in range(sub.n)] == [sorted(sets[i]) for i in idx]
        assert sub.essay.tolist() == (idx % 7).tolist() and sub.cls.tolist() == (idx % 3).tolist()
        assert sub.row.tolist() == idx.tolist()
