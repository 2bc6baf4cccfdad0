"""Sorting every model's samples by its confidence, fast: a stable order per row, and the
gathers and running counts that go with it, shared out over the CPU cores (numpy sorts and
gathers without holding the GIL)."""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np


def stable_argsort_rows(a: np.ndarray) -> np.ndarray:
    """``np.argsort(a, axis=1, kind="stable")`` of a 2-d array, faster: an unstable sort, then
    the indices within each run of equal values put back in order (ties are what stability is
    about; they are few in probabilities).

    >>> stable_argsort_rows(np.array([[0.5, 0.2, 0.5, 0.2, 0.1]])).tolist()
    [[4, 1, 3, 0, 2]]
    """
    order = np.argsort(a, axis=1)
    n = a.shape[1]
    if n < 2:
        return order
    v = np.take_along_axis(a, order, axis=1)
    tie = v[:, 1:] == v[:, :-1]  # positions c and c + 1 hold equal values
    if not tie.any():
        return order
    member = np.zeros(a.shape, dtype=bool)
    member[:, 1:] |= tie
    member[:, :-1] |= tie
    rows, cols = np.nonzero(member)  # row-major: runs appear in order, each contiguous
    starts = np.ones(len(rows), dtype=bool)
    starts[1:] = (rows[1:] != rows[:-1]) | ~tie[rows[1:], np.maximum(cols[1:] - 1, 0)]
    key = (np.cumsum(starts) - 1).astype(np.int64) * n + order[rows, cols]
    key.sort()
    order[rows, cols] = key % n
    return order


def in_threads(n_rows: int, size: int, work) -> None:
    """``work(a, b)`` for blocks of rows [a, b), shared out over the CPU cores (numpy sorts and
    gathers without holding the GIL)."""
    workers = min(os.cpu_count() or 1, 4, n_rows)
    if workers < 2 or size < 1 << 16:
        work(0, n_rows)
        return
    cuts = np.linspace(0, n_rows, workers + 1).astype(int)
    with ThreadPoolExecutor(workers) as pool:
        list(pool.map(lambda i: work(cuts[i], cuts[i + 1]), range(workers)))


def argsort_rows(a: np.ndarray) -> np.ndarray:
    """Stable argsort of every row, in threads."""
    out = np.empty(a.shape, dtype=np.int64)

    def work(lo, hi):
        out[lo:hi] = stable_argsort_rows(a[lo:hi])

    in_threads(a.shape[0], a.size, work)
    return out


def sort_rows(ease: np.ndarray, correct: np.ndarray):
    """Per row (model) of ``ease`` (E, M × N): the stable order by −E ascending (E descending,
    ties in sample order), E and the correctness in that order, and the running counts
    (M, N + 1); rows shared out over threads, one row at a time (every temporary is a row's,
    not the matrix's: the memory a load touches is what it keeps).

    >>> o, e, corr, cum = sort_rows(np.array([[0.2, 0.9, 0.2]]), np.array([[True, False, True]]))
    >>> o.tolist(), e.tolist(), corr.tolist(), cum.tolist()
    ([[1, 0, 2]], [[0.9, 0.2, 0.2]], [[False, True, True]], [[0, 0, 1, 2]])
    """
    m, n = ease.shape
    small = n < 2**31
    order = np.empty((m, n), dtype=np.int32 if small else np.int64)
    ease_s = np.empty((m, n))
    corr_s = np.empty((m, n), dtype=bool)
    cum = np.zeros((m, n + 1), dtype=np.int32 if small else np.int64)

    def work(lo, hi):
        for i in range(lo, hi):
            o = stable_argsort_rows(np.negative(ease[i:i + 1]))[0]
            order[i] = o
            np.take(ease[i], o, out=ease_s[i])
            np.take(correct[i], o, out=corr_s[i])
            np.cumsum(corr_s[i], out=cum[i, 1:])

    in_threads(m, ease.size, work)
    return order, ease_s, corr_s, cum
