"""The metric's steps as pure, vectorised functions (spec §2–§3).

Samples are ordered by their ease ``E``, highest first; a split is then a range of positions
in that order, given by its boundaries ``0 = s_0 ≤ s_1 ≤ … ≤ s_n = m``. Within a split every
sample weighs the split's ``b_x``; a sample's *mass* ``u`` is 1, or its difficulty factor
``f`` (``1/max(E, δ)``, WMProb ``E``) when reward and penalty are scaled, and continuous
weights multiply by ``f`` once more. With ``U_x = Σ u`` and ``U⁺_x = Σ u·correct`` over
split x:

    Σ K·W = b_x (d·U⁺_x + e·(U_x − U⁺_x)),   Σ d·W = b_x·d·U_x,   Σ |e|·W = b_x·|e|·U_x

and the metric is ``100 · Σ K·W / Σ d·W`` (Eq. 4), or over ``Σ |e|·W`` when ``Σ d·W = 0``.
"""

from __future__ import annotations

import math

import numpy as np

from .params import DELTA


def equal_bounds(m: int, n: int) -> np.ndarray:
    """Boundaries of ``n`` equally populated splits of ``m`` ordered samples: sizes differ by at
    most one, the larger parts first (``numpy.array_split``); every sample is in one split.

    >>> equal_bounds(10, 3).tolist(), equal_bounds(2, 3).tolist()
    ([0, 4, 7, 10], [0, 1, 2, 2])
    """
    q, r = divmod(m, n)
    sizes = np.full(n, q, dtype=np.int64)
    sizes[:r] += 1
    return np.concatenate(([0], np.cumsum(sizes)))


def threshold_bounds(neg_sorted: np.ndarray, thresholds) -> np.ndarray:
    """Boundaries of threshold splits, per row of ``neg_sorted`` (``−E`` ascending, i.e. E
    descending, shape (R, m)): split 1 holds ``E > t_{n−1}``, split j ``t_{n−j} < E ≤
    t_{n−j+1}``, split n ``E ≤ t_1``; so ``s_j = #(E > t_{n−j})``.

    >>> threshold_bounds(-np.array([[0.9, 0.6, 0.4, 0.4, 0.1]]), [0.4, 0.8]).tolist()
    [[0, 1, 2, 5]]
    """
    neg_sorted = np.atleast_2d(neg_sorted)
    r, m = neg_sorted.shape
    t = -np.asarray(thresholds, dtype=float)[::-1]  # −t_{n−1}, …, −t_1 ascending
    inner = np.empty((r, len(t)), dtype=np.int64)
    for i in range(r):
        inner[i] = np.searchsorted(neg_sorted[i], t, side="left")  # #(−E < −t) = #(E > t)
    return np.concatenate((np.zeros((r, 1), np.int64), inner, np.full((r, 1), m, np.int64)), axis=1)


def difficulty_factor(ease: np.ndarray, metric: str) -> np.ndarray:
    """The per-sample factor of continuous weights and of scaled reward/penalty: ``1/max(E, δ)``
    for WSBias and WOOD (δ = 0.01, so E = 0 stays finite), ``E`` for WMProb (Eq. 1, Table 1
    cases 6–9).

    >>> difficulty_factor(np.array([0.5, 0.0]), "wsbias").tolist(), difficulty_factor(np.array([0.9]), "wmprob").tolist()
    ([2.0, 100.0], [0.9])
    """
    ease = np.asarray(ease, dtype=float)
    return ease.copy() if metric == "wmprob" else 1.0 / np.maximum(ease, DELTA)


def segment_sums(values: np.ndarray, bounds: np.ndarray) -> np.ndarray:
    """Sums of ``values`` (R, m) over the position ranges of ``bounds`` (R or 1, n + 1): shape
    (R, n); an empty range sums to 0.

    >>> segment_sums(np.array([[1.0, 2.0, 3.0, 4.0]]), np.array([[0, 1, 1, 4]])).tolist()
    [[1.0, 0.0, 9.0]]
    """
    values = np.atleast_2d(values)
    bounds = np.atleast_2d(bounds)
    r = values.shape[0]
    k = bounds.shape[1] - 1
    out = np.zeros((r, k))
    # reduceat sums [s_x, s_{x+1}) when s_x < s_{x+1}, the last index to the row's end: given
    # only the non-empty ranges (empty ones hold nothing), it sums exactly those
    if bounds.shape[0] == 1:
        keep = np.flatnonzero(np.diff(bounds[0]) > 0)
        if len(keep):
            out[:, keep] = np.add.reduceat(values, bounds[0, keep], axis=1)
        return out
    for i in range(r):
        keep = np.flatnonzero(np.diff(bounds[i]) > 0)
        if len(keep):
            out[i, keep] = np.add.reduceat(values[i], bounds[i, keep])
    return out


def eq4(kw: np.ndarray, dw: np.ndarray, ew: np.ndarray) -> np.ndarray:
    """``100 · Σ K·W / Σ d·W`` (Eq. 4); where ``Σ d·W = 0`` (penalty only) the denominator is
    ``Σ |e|·W`` (a score in [−100, 0]); NaN where that is 0 too (no sample, zero weights).

    >>> eq4(np.array([3.0, -2.0, 0.0]), np.array([4.0, 0.0, 0.0]), np.array([4.0, 4.0, 0.0])).tolist()
    [75.0, -50.0, nan]
    """
    kw, dw, ew = np.broadcast_arrays(*(np.asarray(a, dtype=float) for a in (kw, dw, ew)))
    den = np.where(dw != 0, dw, ew)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(den != 0, 100.0 * kw / np.where(den != 0, den, 1.0), np.nan)


def unit_scale(b, reward: float, penalty: float) -> tuple[np.ndarray, float, float]:
    """``b``, and ``d`` with ``e``, each scaled by a power of two so that the largest weight and
    the larger of ``|d|, |e|`` lie in [0.5, 1). Eq. 4 and every split-wise ratio are unchanged by
    a positive factor on the weights or on (d, e), and a power of two changes no bit of a
    normal number: the same scores, while sums over many samples stay far from overflow
    (``--weights 1e308,1e308`` or ``--reward 1e308`` gave inf/inf, so NaN) and subnormals.

    >>> b, d, e = unit_scale([2.0 ** 1020, 2.0 ** 1019], 2.0 ** 1000, -(2.0 ** 990))
    >>> b.tolist(), d, e  # 2^1020 = 0.5 · 2^1021, 2^1000 = 0.5 · 2^1001
    ([0.5, 0.25], 0.5, -0.00048828125)
    >>> unit_scale([1.0, 2.0, 3.0], 1.0, -1.0)[0].tolist()  # already small: exact quarters
    [0.25, 0.5, 0.75]
    """
    b = np.asarray(b, dtype=float)
    top = float(b.max()) if b.size else 0.0
    if top > 0:
        b = np.ldexp(b, -math.frexp(top)[1])
    big = max(abs(reward), abs(penalty))
    if big > 0:
        k = math.frexp(big)[1]
        reward, penalty = math.ldexp(reward, -k), math.ldexp(penalty, -k)
    return b, reward, penalty


def weighted_sums(mass: np.ndarray, mass_correct: np.ndarray, b, reward: float, penalty: float):
    """``(Σ K·W, Σ d·W, Σ |e|·W)`` per split from ``U`` (``mass``) and ``U⁺``
    (``mass_correct``), both (…, n), and the split weights ``b`` (n,).

    >>> [x.tolist() for x in weighted_sums(np.array([4.0, 2.0]), np.array([3.0, 1.0]), [1.0, 2.0], 1.0, -1.0)]
    [[2.0, 0.0], [4.0, 4.0], [4.0, 4.0]]
    """
    b = np.asarray(b, dtype=float)
    kw = b * (reward * mass_correct + penalty * (mass - mass_correct))
    return kw, b * reward * mass, b * abs(penalty) * mass
