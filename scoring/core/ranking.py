"""Ranks, in one place for every family and every stage.

A rank is ``1 + the number of teams that beat this one``, so equal scores share the better
rank and the next rank is skipped ("1224" ranking). Two scores within ``tol`` (1e-12 by
default) are equal. A family ranks higher-is-better (F1-like scores) or lower-is-better
(losses), on one key or lexicographically on several (spotGEO: ``1 − F1``, then MSE). NaN
never beats anything and is beaten by every number.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

TIE = 1e-12
_CHUNK = 1 << 24  # elements of one pairwise comparison block (rank_lex)


def _oriented(values, higher_is_better: bool) -> np.ndarray:
    """Values turned so that larger is better, NaN as -inf."""
    v = np.asarray(values, dtype=float)
    v = v if higher_is_better else -v
    return np.where(np.isnan(v), -np.inf, v)


def rank(values, *, higher_is_better: bool = True, tol: float = TIE) -> np.ndarray:
    """Competition ranks ("1224") of one score per team.

    >>> rank([0.5, 0.7, 0.7, 0.1]).tolist()
    [3, 1, 1, 4]
    >>> rank([0.2, 0.1, 0.1 + 1e-13], higher_is_better=False).tolist()
    [3, 1, 1]
    """
    v = _oriented(values, higher_is_better)
    if v.ndim != 1:
        raise ValueError(f"expected a 1-d array of scores, got shape {v.shape}")
    s = np.sort(v)
    with np.errstate(invalid="ignore"):
        better = len(v) - np.searchsorted(s, v + tol, side="right")
    return (better + 1).astype(np.int64)


def rank_lex(keys: Sequence, *, higher_is_better: bool | Sequence[bool] = True, tol: float = TIE) -> np.ndarray:
    """Ranks on several keys: the first key decides unless two teams are within ``tol`` on
    it, then the next, and so on; teams equal on every key share the better rank.

    >>> rank_lex([[0.2, 0.2, 0.1, 0.2], [5.0, 3.0, 9.0, 3.0]], higher_is_better=False).tolist()
    [4, 2, 1, 2]
    """
    if not len(keys):
        raise ValueError("expected at least one key")
    dirs = [higher_is_better] * len(keys) if isinstance(higher_is_better, bool) else list(higher_is_better)
    if len(dirs) != len(keys):
        raise ValueError(f"expected one direction per key, got {len(dirs)} for {len(keys)} keys")
    cols = [_oriented(k, d) for k, d in zip(keys, dirs, strict=True)]
    if len(cols) == 1:
        return rank(cols[0], tol=tol)
    n = len(cols[0])
    if any(len(c) != n for c in cols):
        raise ValueError("expected keys of equal length")
    beats_count = np.zeros(n, dtype=np.int64)
    step = max(1, _CHUNK // max(n, 1))
    for a in range(0, n, step):
        i = slice(a, min(n, a + step))
        beats = np.zeros((i.stop - i.start, n), dtype=bool)  # beats[i, j]: j beats i
        undecided = np.ones_like(beats)
        for c in cols:
            d = c[None, :] - c[i, None]
            with np.errstate(invalid="ignore"):
                better, worse = d > tol, d < -tol
            beats |= undecided & better
            undecided &= ~(better | worse)
        beats_count[i] = beats.sum(axis=1)
    return beats_count + 1


def rank_columns(values, *, higher_is_better: bool = True, tol: float = TIE) -> np.ndarray:
    """:func:`rank` of every column of a (teams × rankings) matrix at once — weight draws,
    bootstrap replicates: one comparison of each team's row against the whole matrix, over
    contiguous memory.

    >>> rank_columns([[0.5, 0.9], [0.7, 0.1], [0.7, 0.2]]).tolist()
    [[3, 1], [1, 3], [1, 2]]
    """
    v = _oriented(values, higher_is_better)
    if v.ndim != 2:
        raise ValueError(f"expected a 2-d array (teams x rankings), got shape {v.shape}")
    v = np.ascontiguousarray(v)
    out = np.ones(v.shape, dtype=np.int16 if v.shape[0] < 2**15 else np.int64)
    above = v + tol
    for j in range(v.shape[0]):
        out += v[j] > above
    return out.astype(np.int64)


def rank_rows(values, *, higher_is_better: bool = True, tol: float = TIE) -> np.ndarray:
    """:func:`rank` of every row of a (rankings × teams) matrix at once (bootstrap
    replicates, weight draws).

    >>> rank_rows([[0.5, 0.7, 0.7], [0.9, 0.1, 0.2]]).tolist()
    [[3, 1, 1], [1, 3, 2]]
    """
    v = np.asarray(values, dtype=float)
    if v.ndim != 2:
        raise ValueError(f"expected a 2-d array (rankings x teams), got shape {v.shape}")
    return rank_columns(v.T, higher_is_better=higher_is_better, tol=tol).T


def order(names: Sequence[str], ranks) -> np.ndarray:
    """Row order of a leaderboard: by rank, then by name.

    >>> order(["b", "a", "c"], [1, 1, 0]).tolist()
    [2, 1, 0]
    """
    return np.lexsort((np.asarray(names, dtype=object).astype(str), np.asarray(ranks)))
