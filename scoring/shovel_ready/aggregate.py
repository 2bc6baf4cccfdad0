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
