"""Paired inference on bootstrap replicates: which team beats which, with a max-t correction.

Every replicate resamples the scoring units once for all teams, so the replicates hold the
bootstrap distribution of every pairwise score difference. For teams ``j`` and ``k`` with
scores turned so that larger is better (``v``), the difference is ``d[j, k] = v_k − v_j``
(positive: ``k`` is better), its standard error ``se[j, k]`` is the standard deviation of
``d*[j, k]`` over the replicates, and its studentised replicate is

    t*[b, j, k] = (d*_b[j, k] − d[j, k]) / se[j, k].

A hypothesis "``k`` is not better than ``j``" (θ_k ≤ θ_j) is rejected when
``d[j, k] / se[j, k] > c``, where ``c`` is the ``confidence`` quantile over the replicates of
the largest ``t*`` among the hypotheses of a family (max-t), stepped down (Romano & Wolf):
after a round of rejections ``c`` is computed again over the hypotheses left, until none
falls. This is the construction of Mogstad, Romano, Shaikh & Wilhelm (REStud 2024): per
team, the family of its ``2(K − 1)`` one-sided comparisons (**marginal**), or every ordered
pair at once (**simultaneous**, the family-wise error over the whole table ≤ 1 − confidence).

A pair whose difference is the same in every replicate (an exact copy: always 0) has
``se = 0``: its ``t*`` is 0, and it is established only if its difference is not 0. A team
with a NaN score, in the data or in any replicate, is compared with no one.

Work is (replicates × teams × teams): it runs a block of rows at a time, at most ``block``
numbers per block (2**23 by default: 64 MiB per array).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .ranking import TIE

BLOCK = 1 << 23  # numbers in one (replicates × rows × teams) block
Progress = Callable[[int, int, str], None]


@dataclass(frozen=True)
class Paired:
    """The paired differences of ``K`` teams over ``B`` replicates (see the module doc)."""

    #: (B, K) replicate minus full-data score, larger-is-better
    centred: np.ndarray
    #: (K, K) ``d[j, k] = v_k − v_j``
    diff: np.ndarray
    #: (K, K) the bootstrap standard error of ``d[j, k]`` (0 on the diagonal)
    se: np.ndarray
    #: (K, K) the pair can be compared (both scores finite everywhere, j ≠ k)
    testable: np.ndarray

    @property
    def t(self) -> np.ndarray:
        """(K, K) the studentised difference ``d / se``: ±inf where ``se = 0`` and ``d ≠ 0``,
        0 where both are 0 and where the pair cannot be compared."""
        with np.errstate(divide="ignore", invalid="ignore"):
            t = np.where(self.se > 0, self.diff / np.where(self.se > 0, self.se, 1.0), np.sign(self.diff) * np.inf)
        return np.where(self.testable, np.nan_to_num(t, nan=0.0, posinf=np.inf, neginf=-np.inf), 0.0)


def _blocks(b: int, k: int, block: int) -> list[slice]:
    step = max(1, block // max(1, b * k))
    return [slice(a, min(k, a + step)) for a in range(0, k, step)]


def _tstar(p: Paired, rows: slice) -> np.ndarray:
    """(B, rows, K) studentised replicates of the block's rows (0 where se = 0)."""
    c = p.centred
    se = p.se[rows]
    inv = np.where(se > 0, 1.0 / np.where(se > 0, se, 1.0), 0.0)
    return (c[:, None, :] - c[:, rows, None]) * inv[None]


def paired(full, reps, *, higher_is_better: bool = True, tol: float = TIE, block: int = BLOCK) -> Paired:
    """The paired differences of scores ``full`` (K,) over replicates ``reps`` (B × K).

    >>> p = paired([0.5, 0.7], [[0.5, 0.8], [0.4, 0.6], [0.6, 0.7]])
    >>> p.diff.round(3).tolist(), p.se.round(3).tolist()
    ([[0.0, 0.2], [-0.2, 0.0]], [[0.0, 0.1], [0.1, 0.0]])
    """
    v = np.asarray(full, dtype=float)
    r = np.asarray(reps, dtype=float)
    if v.ndim != 1 or r.ndim != 2 or r.shape[1] != len(v):
        raise ValueError(f"expected K scores and (B, K) replicates, got {v.shape} and {r.shape}")
    if not higher_is_better:
        v, r = -v, -r
    ok = np.isfinite(v) & np.isfinite(r).all(axis=0)
    v0, r0 = np.where(ok, v, 0.0), np.where(ok[None, :], r, 0.0)
    centred = np.ascontiguousarray(r0 - v0[None, :])
    diff = v0[None, :] - v0[:, None]
    diff[np.abs(diff) <= tol] = 0.0
    k = len(v)
    se = np.zeros((k, k))
    if r.shape[0] > 1:
        for rows in _blocks(r.shape[0], k, block):
            se[rows] = (centred[:, None, :] - centred[:, rows, None]).std(axis=0, ddof=1)
    se[se <= tol] = 0.0
    testable = ok[:, None] & ok[None, :] & ~np.eye(k, dtype=bool)
    return Paired(centred=centred, diff=diff, se=se, testable=testable)


def _quantile(m: np.ndarray, confidence: float) -> np.ndarray:
    """The ``confidence`` quantile over the replicates (axis 0): an order statistic."""
    return np.quantile(m, confidence, axis=0, method="inverted_cdf")


def _family_max(ts: np.ndarray, up: np.ndarray, down: np.ndarray) -> np.ndarray:
    """(B, rows): the largest t* over each row's active hypotheses (``up[j, k]``: θ_k ≤ θ_j,
    statistic ``t*``; ``down[j, k]``: θ_k ≥ θ_j, statistic ``−t*``)."""
    hi = np.max(ts, axis=2, where=up[None], initial=-np.inf)
    lo = np.min(ts, axis=2, where=down[None], initial=np.inf)
    return np.maximum(hi, -lo)


def marginal(p: Paired, confidence: float, *, block: int = BLOCK,
             progress: Progress | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Per team ``j``, its own family of ``2(K − 1)`` comparisons, stepped down: ``(better,
    worse)``, (K, K) booleans, ``better[j, k]``: ``k`` is established better than ``j``;
    ``worse[j, k]``: established worse. Each row holds with probability ≥ ``confidence``.
    """
    t = p.t
    better = np.zeros_like(p.testable)
    worse = np.zeros_like(p.testable)
    blocks = _blocks(p.centred.shape[0], len(t), block)
    for n, rows in enumerate(blocks):
        ts = _tstar(p, rows)
        up, down = p.testable[rows].copy(), p.testable[rows].copy()
        while True:
            c = _quantile(_family_max(ts, up, down), confidence)  # (rows,)
            new_up, new_down = up & (t[rows] > c[:, None]), down & (-t[rows] > c[:, None])
            if not (new_up.any() or new_down.any()):
                break
            up &= ~new_up
            down &= ~new_down
        better[rows], worse[rows] = p.testable[rows] & ~up, p.testable[rows] & ~down
        if progress is not None:
            progress(n + 1, len(blocks), "marginal")
    return better, worse


def simultaneous(p: Paired, confidence: float, *, block: int = BLOCK,
                 progress: Progress | None = None) -> np.ndarray:
    """Every ordered pair at once, stepped down: ``better`` (K, K), ``better[j, k]``: ``k`` is
    established better than ``j``; all of it holds at once with probability ≥ ``confidence``.
    (Its transpose says who is established worse: the pairs' two directions are one family.)
    """
    t = p.t
    active = p.testable.copy()  # active[j, k]: "θ_k ≤ θ_j" not yet rejected
    blocks = _blocks(p.centred.shape[0], len(t), block)
    one = _tstar(p, blocks[0]) if len(blocks) == 1 else None  # a small table: computed once
    rounds = 0
    while True:
        m = np.full(p.centred.shape[0], -np.inf)
        for rows in blocks:
            ts = one if one is not None else _tstar(p, rows)
            m = np.maximum(m, np.max(ts, axis=(1, 2), where=active[rows][None], initial=-np.inf))
        rounds += 1
        if progress is not None:
            progress(rounds, rounds + 1, "simultaneous")
        c = _quantile(m, confidence)
        new = active & (t > c)
        if not new.any():
            break
        active &= ~new
    return p.testable & ~active
