"""Predictionstring parsing and canonicalisation against plain Python sets, on many random strings.

The engine has a fast path (a string equal, byte for byte, to the canonical text of a
contiguous range needs no token parsing) and a general parser; both must give exactly the
set of integers that ``str.split`` gives.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from scoring.shovel_ready.parse import TokenError, canonical_ranges, parse_segs
from scoring.shovel_ready.segments import remove_overlaps, segs_from_sets


def random_string(rng: np.random.Generator) -> str:
    a = int(rng.integers(0, 2000))
    n = int(rng.integers(1, 40))
    words = list(range(a, a + n))
    kind = rng.integers(0, 8)
    if kind == 1 and n > 2:  # a hole
        del words[int(rng.integers(1, n - 1))]
    elif kind == 2:  # shuffled
        rng.shuffle(words)
    elif kind == 3:  # a duplicate
        words.append(words[int(rng.integers(0, n))])
    elif kind == 4:  # a leading zero
        words[0] = f"0{words[0]}"
    elif kind == 5:  # double spaces
        return "  ".join(map(str, words))
    elif kind == 6:  # reversed
        words.reverse()
    return " ".join(map(str, words))


@pytest.mark.parametrize("seed", range(20))
def test_parse_matches_python_sets(seed):
    rng = np.random.default_rng(seed)
    strings = [random_string(rng) for _ in range(300)]
    segs = parse_segs(pd.Series(strings, dtype="str"), np.zeros(300), np.zeros(300), np.arange(300))
    for i, s in enumerate(strings):
        expected = sorted({int(t) for t in s.split()})
        assert segs.words(i) == expected, s
        assert segs.size[i] == len(expected) and segs.wmin[i] == expected[0] and segs.wmax[i] == expected[-1]
    # the same through a plain list (no pyarrow fast path)
    plain = parse_segs(strings, np.zeros(300), np.zeros(300), np.arange(300))
    assert all(plain.words(i) == segs.words(i) for i in range(300))


def test_fast_path_is_exact():
    strings = ["1 2 3", "5", "007 008", "1 2 3 5", "3 2", "10 11 12", "1 1 2 3", "9 10 11"]
    mask, a, b = canonical_ranges(pd.Series(strings, dtype="str"))
    assert mask.tolist() == [True, True, False, False, False, True, False, True]
    assert (a[mask].tolist(), b[mask].tolist()) == ([1, 5, 10, 9], [3, 5, 12, 11])


def test_bad_token_position_is_reported():
    strings = pd.Series(["1 2 3", "4 5", "6 x 7", "8 -9"], dtype="str")
    with pytest.raises(TokenError) as ei:
        parse_segs(strings, np.zeros(4), np.zeros(4), np.arange(4))
    assert ei.value.index == 2 and "'x'" in ei.value.problem


def slow_removal(sets):
    """SPEC §2 word for word, on Python sets (segments of one essay in file order)."""
    order = sorted(range(len(sets)), key=lambda i: (min(sets[i]), i))
    used, out = set(), [None] * len(sets)
    for i in order:
        S = sets[i]
        R = S - used
        if R == S:
            out[i] = sorted(S)
        elif len(R) >= 2 and max(R) - min(R) + 1 == len(R):
            out[i] = sorted(R)
        used |= S
    return out


@pytest.mark.parametrize("seed", range(30))
def test_overlap_removal_matches_the_spec_words(seed):
    rng = np.random.default_rng(100 + seed)
    n = int(rng.integers(1, 25))
    sets, essay = [], []
    for _ in range(n):
        a = int(rng.integers(0, 60))
        s = set(range(a, a + int(rng.integers(1, 15))))
        if rng.random() < 0.25 and len(s) > 3:  # non-contiguous
            s.discard(a + 1)
        sets.append(s)
        essay.append(int(rng.integers(0, 3)))
    segs = segs_from_sets(sets, essay=np.array(essay), row=np.arange(n))
    kept, pos = remove_overlaps(segs)
    got = [None] * n
    for j, i in enumerate(pos.tolist()):
        got[i] = kept.words(j)
    for e in set(essay):
        idx = [i for i in range(n) if essay[i] == e]
        expected = slow_removal([sets[i] for i in idx])
        assert [got[i] for i in idx] == expected
