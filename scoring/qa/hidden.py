"""Rank under unknown weights (spec §4) and which team wins where on the weight simplex.

The organisers keep the theme weights secret, so besides any chosen weights every team's
rank is reported over ``K`` weight vectors drawn uniformly from the simplex, Dirichlet(1, …,
1): ``numpy.random.default_rng(seed).standard_exponential((K, n_themes))``, each row
divided by its sum (a normalised vector of unit exponentials is Dirichlet(1, …, 1)). The
team scores of all draws are one matrix product, (teams × themes) @ (themes × K); the ranks
of all draws are those of :func:`scoring.core.ranking.rank_rows` (ties within 1e-12 share
the better rank), computed by :func:`draw_ranks` in the (teams × draws) layout, in blocks so
that memory stays bounded for any ``K``. With many themes the draws themselves are made in
blocks (:func:`draw_blocks`: at most :data:`DRAW_BUDGET` numbers at once, the same stream as
one big draw), so memory never holds a themes × K matrix.

For 2 or 3 themes :func:`winner_regions` gives the exact region of the simplex where each
team ranks first: the simplex clipped by the half-spaces ``(s_i − s_j)·w ≥ 0``, a convex
polygon (a segment for 2 themes), with its share of the simplex — the exact value that
``p_first`` estimates.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..core.ranking import TIE, rank_columns

BLOCK = 8192  # draws ranked at once
DRAW_BUDGET = 1 << 21  # weights drawn at once (themes × draws of a block): 16 MiB


def weight_draws(n_themes: int, k: int, *, seed: int = 0) -> np.ndarray:
    """``k`` weight vectors uniform on the simplex, as a (themes × k) matrix (columns sum to 1).

    >>> w = weight_draws(3, 4, seed=0)
    >>> w.shape, bool(np.allclose(w.sum(axis=0), 1)), bool((w >= 0).all())
    ((3, 4), True, True)
    """
    if n_themes < 1 or k < 1:
        raise ValueError(f"expected at least one theme and one draw, got {n_themes} and {k}")
    e = np.random.default_rng(seed).standard_exponential((k, n_themes))
    return np.ascontiguousarray((e / e.sum(axis=1, keepdims=True)).T)


def draw_blocks(n_themes: int, k: int, *, seed: int = 0, budget: int = DRAW_BUDGET):
    """The columns of :func:`weight_draws` ``(n_themes, k, seed)``, made and yielded as
    (themes × block) matrices of at most ``budget`` numbers (at least one draw each): the
    generator's stream is consumed row by row, so the blocks side by side are exactly the
    one big draw.

    >>> whole = weight_draws(5, 7, seed=2)
    >>> bool(np.array_equal(np.hstack(list(draw_blocks(5, 7, seed=2, budget=10))), whole))
    True
    """
    if n_themes < 1 or k < 1:
        raise ValueError(f"expected at least one theme and one draw, got {n_themes} and {k}")
    rng = np.random.default_rng(seed)
    step = max(1, min(BLOCK, budget // n_themes))
    for a in range(0, k, step):
        e = rng.standard_exponential((min(step, k - a), n_themes))
        e /= e.sum(axis=1, keepdims=True)
        yield e.T


def hidden_weight_ranks(scores: np.ndarray, draws) -> dict[str, np.ndarray]:
    """Per team, over the draws: ``p_first`` (share of draws ranked 1st), ``best_rank``,
    ``median_rank`` (as ``numpy.median``), ``worst_rank``, and ``rank_share`` (teams × ranks:
    the share of draws at each rank 1..n).

    ``scores`` (teams × themes) are the theme scores ``score_t``; ``draws`` (themes × K), or
    an iterable of such blocks side by side (:func:`draw_blocks`).

    >>> s = np.array([[1.0, 0.0], [0.0, 1.0], [0.4, 0.4]])
    >>> r = hidden_weight_ranks(s, np.array([[1.0, 0.7, 0.2], [0.0, 0.3, 0.8]]))
    >>> r["p_first"].tolist(), r["best_rank"].tolist(), r["median_rank"].tolist(), r["worst_rank"].tolist()
    ([0.6666666666666666, 0.3333333333333333, 0.0], [1, 1, 2], [1.0, 3.0, 2.0], [3, 3, 2])
    """
    s = np.asarray(scores, dtype=float)
    n = s.shape[0]
    blocks = (draws[:, a:a + BLOCK] for a in range(0, draws.shape[1], BLOCK)) if isinstance(draws, np.ndarray) \
        else draws
    counts = np.zeros((n, n), dtype=np.int64)  # counts[team, rank - 1]
    k = 0
    for block in blocks:
        # one matrix product (einsum: no BLAS thread start-up for this thin shape)
        counts += _histogram(draw_ranks(np.einsum("it,tk->ik", s, block)), n)
        k += block.shape[1]
    cum = np.cumsum(counts, axis=1)
    lo = _rank_at(cum, (k - 1) // 2)
    hi = _rank_at(cum, k // 2)
    has = counts > 0
    return {
        "p_first": counts[:, 0] / k if n else np.zeros(0),
        "best_rank": np.argmax(has, axis=1) + 1,
        "median_rank": (lo + hi) / 2.0,
        "worst_rank": n - np.argmax(has[:, ::-1], axis=1),
        "rank_share": counts / k,
    }


def draw_ranks(values: np.ndarray) -> np.ndarray:
    """The rank of every team (row) in every draw (column): :func:`scoring.core.ranking.rank_columns`.

    >>> draw_ranks(np.array([[0.5, 0.9], [0.7, 0.1], [0.7, 0.2]])).tolist()
    [[3, 1], [1, 3], [1, 2]]
    """
    return rank_columns(values)


def _histogram(ranks: np.ndarray, n: int) -> np.ndarray:
    """counts[team, rank - 1] of a (teams × draws) rank matrix."""
    flat = (np.arange(n, dtype=np.int64)[:, None] * n + (ranks - 1)).ravel()
    return np.bincount(flat, minlength=n * n).reshape(n, n)


def _rank_at(cum: np.ndarray, i: int) -> np.ndarray:
    """The rank at sorted position ``i`` (0-based) of each team's draws, from cumulative counts."""
    return (cum <= i).sum(axis=1) + 1


def winner_at(scores: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """(points × teams) True where the team ranks first for the weight vector of that row.

    >>> winner_at(np.array([[1.0, 0.0], [0.0, 1.0]]), np.array([[0.9, 0.1], [0.5, 0.5]])).tolist()
    [[True, False], [True, True]]
    """
    v = np.asarray(weights, dtype=float) @ np.asarray(scores, dtype=float).T
    return v >= v.max(axis=1, keepdims=True) - TIE


def _clip(poly: list[np.ndarray], d: np.ndarray) -> list[np.ndarray]:
    """Sutherland–Hodgman: the part of a convex polygon (weight vectors) where ``d·w >= 0``."""
    out: list[np.ndarray] = []
    m = len(poly)
    for i in range(m):
        p, q = poly[i], poly[(i + 1) % m]
        fp, fq = float(d @ p), float(d @ q)
        if fp >= 0:
            out.append(p)
        if (fp >= 0) != (fq >= 0):
            out.append(p + (q - p) * (fp / (fp - fq)))
    return out


def _area(poly: list[np.ndarray]) -> float:
    """Area of a polygon on the 2-simplex in (w1, w2) coordinates (the simplex has area 1/2)."""
    if len(poly) < 3:
        return 0.0
    x = np.array([p[0] for p in poly])
    y = np.array([p[1] for p in poly])
    return 0.5 * abs(float(x @ np.roll(y, -1) - y @ np.roll(x, -1)))


def winner_regions(scores: np.ndarray, names: Sequence[str]) -> list[dict]:
    """The exact region of the weight simplex where each team ranks first (2 or 3 themes).

    Returns one dict per team, in input order: ``submission``, ``share`` (the region's share
    of the simplex, i.e. the chance of ranking first under uniform weights) and ``vertices``
    (a list of weight vectors: the polygon's corners for 3 themes, the segment's two ends for
    2; empty when the team never ranks first on a region of positive size).

    >>> r = winner_regions(np.array([[1.0, 0.0], [0.0, 1.0]]), ["a", "b"])
    >>> [(x["submission"], x["share"], x["vertices"]) for x in r]
    [('a', 0.5, [[1.0, 0.0], [0.5, 0.5]]), ('b', 0.5, [[0.5, 0.5], [0.0, 1.0]])]
    """
    s = np.asarray(scores, dtype=float)
    n_t = s.shape[1]
    if n_t not in (2, 3):
        raise ValueError(f"expected 2 or 3 themes for the region map, got {n_t}")
    corners = list(np.eye(n_t))
    out = []
    for i, name in enumerate(names):
        poly = corners
        for j in range(len(s)):
            if j != i and poly:
                poly = _clip(poly, s[i] - s[j])
        if n_t == 2:
            ends = sorted({(round(float(p[0]), 15), round(float(p[1]), 15)) for p in poly}, reverse=True)
            share = ends[0][0] - ends[-1][0] if ends else 0.0
            verts = [list(e) for e in (ends[0], ends[-1])] if share > 0 else []
        else:
            share = 2.0 * _area(poly)
            verts = [[float(x) for x in p] for p in poly] if share > 0 else []
        out.append({"submission": name, "share": float(share), "vertices": verts})
    return out
