"""Softmin bias aggregation (SPEC §4), the efficiency boost (SPEC §5) and ranks (SPEC §6)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from .errors import parameter_error

TIE = 1e-12


def rank_scores(values) -> np.ndarray:
    """Competition ranks, higher is better; scores within 1e-12 share the better rank.

    >>> rank_scores([0.5, 0.7, 0.7, 0.1]).tolist()
    [3, 1, 1, 4]
    """
    v = np.asarray(values, dtype=float)
    a = np.sort(v)
    return (len(v) - np.searchsorted(a, v + TIE, side="right") + 1).astype(int)


def softmin_matrix(scores: np.ndarray, sizes: np.ndarray, alpha: float) -> tuple[np.ndarray, np.ndarray]:
    """Row-wise softmin of ``scores`` (k × g) with group sizes (g); returns (nu (k), betas (k × g))."""
    s = np.atleast_2d(np.asarray(scores, dtype=float))
    n = np.asarray(sizes, dtype=float)
    if s.shape[1] == 0:
        return np.full(s.shape[0], np.nan), s.copy()
    smin = s.min(axis=1, keepdims=True)
    if math.isinf(alpha):
        at_min = np.abs(s - smin) <= 0  # exact minimum(s) share the weight by size
        wts = np.where(at_min, n, 0.0)
    else:
        wts = n * np.exp(-alpha * (s - smin))
    betas = wts / wts.sum(axis=1, keepdims=True)
    nu = (betas * s).sum(axis=1)
    if math.isinf(alpha):
        nu = smin[:, 0]
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
    if isinstance(alpha, str) and alpha.strip().lower() in ("inf", "infinity", "∞"):
        return math.inf
    try:
        a = float(alpha)
    except (TypeError, ValueError):
        raise parameter_error("alpha", "a number >= 0 or 'inf'", alpha) from None
    if math.isnan(a) or a < 0:
        raise parameter_error("alpha", "a number >= 0 or 'inf'", alpha)
    return a


def check_nonneg(name: str, value, positive: bool = False) -> float:
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise parameter_error(name, "a number", value) from None
    if not math.isfinite(v) or v < 0 or (positive and v == 0):
        raise parameter_error(name, "a finite number > 0" if positive else "a finite number >= 0", value)
    return v


def boost_arrays(scores: np.ndarray, runtimes: np.ndarray, band: float, max_boost: float,
                 window: float) -> tuple[np.ndarray, np.ndarray]:
    """Eligibility and boost per submission (runtimes NaN = no runtime); SPEC §5."""
    x = np.asarray(scores, dtype=float)
    r = np.asarray(runtimes, dtype=float)
    eligible = np.zeros(len(x), dtype=bool)
    boost = np.zeros(len(x))
    if len(x) == 0:
        return eligible, boost
    best = np.nanmax(x) if np.isfinite(x).any() else np.nan
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        eligible = (~np.isnan(r)) & (x > 0) & (best / np.where(x > 0, x, 1) <= 1 + band + TIE)
    if eligible.any():
        s = r[eligible].min()
        ratio = r / s
        b = np.where(eligible & (ratio <= 1 + window + TIE), np.maximum(0.0, max_boost * (1 - (ratio - 1) / window)), 0.0)
        b[b < TIE] = 0.0
        boost = b
    return eligible, boost


def efficiency_boost(scores, runtimes, *, band: float = 0.05, max_boost: float = 0.05,
                     window: float = 0.2) -> pd.DataFrame:
    """The memo's efficiency boost (SPEC §5) on scores and runtimes.

    Eligible: has a runtime, score > 0 and ``best / score ≤ 1 + band``. With ``s`` the
    fastest eligible runtime, an eligible run with ``r/s ≤ 1 + window`` gets
    ``max_boost · (1 − (r/s − 1)/window)``; final = score · (1 + boost).

    >>> t = efficiency_boost({"Red": 0.6, "Blue": 0.595, "Green": 0.59, "Yellow": 0.58},
    ...                      {"Red": 50, "Blue": 45, "Green": 48, "Yellow": 40})
    >>> t["submission"].tolist()
    ['Yellow', 'Blue', 'Red', 'Green']
    >>> round(float(t.loc[t.submission == "Blue", "final_score"].iloc[0]), 8)
    0.60615625
    """
    band = check_nonneg("band", band)
    max_boost = check_nonneg("max_boost", max_boost)
    window = check_nonneg("window", window, positive=True)
    sc = pd.Series(scores, dtype=float)
    rt = pd.Series(runtimes, dtype=float).reindex(sc.index)
    if sc.isna().any() or (sc < 0).any() or not np.isfinite(sc.to_numpy()).all():
        raise ValueError("expected finite scores >= 0")
    if (rt.dropna() <= 0).any():
        raise ValueError("expected runtimes > 0")
    eligible, boost = boost_arrays(sc.to_numpy(), rt.to_numpy(), band, max_boost, window)
    final = sc.to_numpy() * (1 + boost)
    out = pd.DataFrame({"submission": [str(i) for i in sc.index], "score": sc.to_numpy(),
                        "runtime": rt.to_numpy(), "eligible": eligible, "boost": boost,
                        "final_score": final, "rank": rank_scores(final)})
    return out.sort_values(["rank", "submission"], kind="stable").reset_index(drop=True)
