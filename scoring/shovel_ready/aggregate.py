"""Softmin bias aggregation (SPEC §4): one group score per team and group, combined with
weights that grow as a group's score falls; and the α sweep that shows how a ranking moves
with the temperature."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..core.ranking import rank
from .params import PARAMS


def softmin_matrix(scores: np.ndarray, sizes: np.ndarray, alpha: float) -> tuple[np.ndarray, np.ndarray]:
    """Softmin along the last axis of ``scores`` (… × g) with group sizes (… × g or g);
    returns (nu (…), betas (… × g)). Vectorised over every leading axis (teams, replicates)."""
    s = np.atleast_2d(np.asarray(scores, dtype=float))
    n = np.asarray(sizes, dtype=float)
    if s.shape[-1] == 0:
        return np.full(s.shape[:-1], np.nan), s.copy()
    smin = s.min(axis=-1, keepdims=True)
    if math.isinf(alpha):
        at_min = np.abs(s - smin) <= 0  # exact minimum(s) share the weight by size
        wts = np.where(at_min, n, 0.0)
    else:
        wts = n * np.exp(-alpha * (s - smin))
    betas = wts / wts.sum(axis=-1, keepdims=True)
    nu = (betas * s).sum(axis=-1)
    if math.isinf(alpha):
        nu = smin[..., 0]
    return nu, betas


def softmin_range(low, high, sizes, alpha: float, *, iters: int = 64) -> tuple[np.ndarray, np.ndarray]:
    """The lowest and highest softmin ``ν = Σ β_g s_g`` (``β_g ∝ n_g e^{−α s_g}``, as
    :func:`softmin_matrix`) over the box ``low ≤ s ≤ high`` (… × g each; ``sizes`` g): ``(low (…),
    high (…))``. NaN where a bound is NaN.

    ν is not monotone in a group's score (raising a score well above ν takes weight away from it
    faster than it adds), so the corners are not enough. Instead: ``ν ≤ c`` exactly when
    ``Σ n_g e^{−α s_g} (s_g − c) ≤ 0``, and each term ``h(s) = e^{−α s} (s − c)`` rises to its
    maximum at ``s = c + 1/α`` and falls after, and falls as ``c`` grows. So the box's lowest ν is
    the ``c`` where ``Σ min(h(low), h(high))`` crosses 0, its highest where
    ``Σ h(clip(c + 1/α, low, high))`` does; both by bisection (``iters`` halvings of
    ``[min low, max high]``). α = ∞ (the minimum): ``[min low, min high]``.

    >>> lo, hi = softmin_range([[0.4, 0.6]], [[0.5, 0.7]], [1, 1], 0.0)  # α = 0: the mean of each end
    >>> lo.round(12).tolist(), hi.round(12).tolist()
    ([0.5], [0.6])
    >>> [x.tolist() for x in softmin_range([[0.4, 0.6]], [[0.5, 0.7]], [1, 1], float("inf"))]
    [[0.4], [0.5]]
    """
    lo = np.atleast_2d(np.asarray(low, dtype=float))
    hi = np.atleast_2d(np.asarray(high, dtype=float))
    n = np.asarray(sizes, dtype=float)
    if lo.shape != hi.shape or lo.shape[-1] != n.shape[-1]:
        raise ValueError(f"expected low and high (…, g) and g sizes, got {lo.shape}, {hi.shape} and {n.shape}")
    bad = np.isnan(lo).any(axis=-1) | np.isnan(hi).any(axis=-1)
    lo, hi = np.where(bad[..., None], 0.0, lo), np.where(bad[..., None], 0.0, hi)
    if math.isinf(alpha):
        a, z = lo.min(axis=-1), hi.min(axis=-1)
        return np.where(bad, np.nan, a), np.where(bad, np.nan, z)
    s0 = lo.min(axis=-1, keepdims=True)  # exponents ≤ 0 at the low end: no overflow

    def h(s: np.ndarray, c: np.ndarray) -> np.ndarray:
        return n * np.exp(-alpha * (s - s0)) * (s - c)

    def root(f) -> np.ndarray:
        a, z = lo.min(axis=-1), hi.max(axis=-1)
        for _ in range(iters):
            c = (a + z) / 2
            up = f(c[..., None]).sum(axis=-1) > 0
            a, z = np.where(up, c, a), np.where(up, z, c)
        return (a + z) / 2

    with np.errstate(over="ignore", invalid="ignore"):
        least = root(lambda c: np.minimum(h(lo, c), h(hi, c)))
        most = root(lambda c: h(np.clip(c + (1 / alpha if alpha > 0 else np.inf), lo, hi), c))
    return np.where(bad, np.nan, least), np.where(bad, np.nan, most)


def softmin(scores, sizes=None, *, alpha: float) -> tuple[float, np.ndarray]:
    """Size-weighted softmin of group scores (memo §3, SPEC §4).

    ``β_i = n_i·exp(−α·s_i) / Σ_j n_j·exp(−α·s_j)`` and ``ν = Σ_i β_i·s_i``; computed with the
    exponents shifted by the smallest score. ``α = 0`` is the size-weighted mean, ``α = ∞``
    the minimum.

    >>> round(softmin([0.6, 0.8], alpha=0)[0], 12)
    0.7
    >>> softmin([0.6, 0.8], alpha=float("inf"))[0]
    0.6
    >>> round(softmin([0.6, 0.8], [1, 3], alpha=0)[0], 12)
    0.75
    """
    alpha = check_alpha(alpha)
    s = np.asarray(scores, dtype=float)
    n = np.ones_like(s) if sizes is None else np.asarray(sizes, dtype=float)
    if s.shape != n.shape or s.ndim != 1 or len(s) == 0:
        raise ValueError(f"expected equal-length non-empty scores and sizes, got {s.shape} and {n.shape}")
    if (n <= 0).any():
        raise ValueError("expected group sizes > 0")
    nu, betas = softmin_matrix(s[None, :], n, alpha)
    return float(nu[0]), betas[0]


def check_alpha(alpha) -> float:
    """α as a float (``inf``/``infinity``/``∞`` → ∞), or an :class:`InputError` naming it."""
    return PARAMS.values(alpha=alpha)[0]


def softmin_weights(scores: pd.DataFrame, sizes, alpha) -> pd.DataFrame:
    """β of every team (rows of ``scores``) and group (columns), sizes per group (SPEC §4)."""
    _, betas = softmin_matrix(scores.to_numpy(dtype=float), np.asarray(sizes, dtype=float), check_alpha(alpha))
    return pd.DataFrame(betas, index=scores.index, columns=scores.columns)


def alpha_sweep(scores: pd.DataFrame, sizes, alphas) -> pd.DataFrame:
    """Bias score and rank of every team (rows of ``scores``) for each α, in long form
    (``alpha, team, score, rank``): one :func:`softmin_matrix` call per α for all teams.

    >>> t = alpha_sweep(pd.DataFrame([[0.6, 0.8], [0.7, 0.7]], index=["a", "b"]), [1, 1], [0, "inf"])
    >>> t["rank"].tolist(), [round(x, 6) for x in t["score"]]
    ([1, 1, 2, 1], [0.7, 0.7, 0.6, 0.7])
    """
    table = scores.to_numpy(dtype=float)
    n = np.asarray(sizes, dtype=float)
    teams = [str(t) for t in scores.index]
    alphas = [check_alpha(a) for a in alphas]
    nus = [softmin_matrix(table, n, a)[0] for a in alphas] if len(teams) else []
    return pd.DataFrame({
        "alpha": np.repeat(np.asarray(alphas, dtype=float), len(teams)),
        "team": teams * len(alphas),
        "score": np.concatenate(nus) if nus else np.zeros(0),
        "rank": np.concatenate([rank(nu) for nu in nus]) if nus else np.zeros(0, dtype=int),
    })
