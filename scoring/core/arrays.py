"""Small array helpers the engine's hot paths share."""

from __future__ import annotations

import numpy as np


def unique_sorted(x) -> np.ndarray:
    """The sorted distinct values of an integer array: ``np.unique(x)``, by one sort.

    numpy 2.x answers a bare ``np.unique`` by hashing, which on 10^5 integers is several
    times slower than sorting them and dropping repeats.

    >>> unique_sorted(np.array([3, 1, 3, 2, 1])).tolist()
    [1, 2, 3]
    >>> unique_sorted(np.array([], dtype=np.int64)).tolist()
    []
    """
    s = np.sort(np.asarray(x).ravel())
    if len(s) < 2:
        return s
    keep = np.empty(len(s), dtype=bool)
    keep[0] = True
    np.not_equal(s[1:], s[:-1], out=keep[1:])
    return s[keep]


def merge_positions(a, b) -> tuple[np.ndarray, np.ndarray]:
    """Where the items of two ascending arrays go in their stable merge (ties: ``a``'s first),
    by one binary search of ``b`` in ``a``: cheap when ``b`` is the short one.

    ``b[j]`` goes after the ``s[j]`` items of ``a`` not above it; ``a[i]`` after the items of
    ``b`` with ``s[j] <= i``, counted at once from the counts of ``s``.

    >>> ia, ib = merge_positions(np.array([1, 3, 3, 7]), np.array([3, 5]))
    >>> ia.tolist(), ib.tolist()
    ([0, 1, 2, 5], [3, 4])
    """
    s = np.searchsorted(a, b, side="right")
    ia = np.arange(len(a)) + np.cumsum(np.bincount(s, minlength=len(a) + 1))[:len(a)]
    return ia, np.arange(len(b)) + s
