"""The Custom family's operators, each a pure function on a (… × teams × items) table.

An *item* is a unit (a task, a subject) or a group of units; NaN is a missing cell. Every
table here is already oriented: higher is better. ``weight`` (… × items) is how often an item
counts — 1, or a bootstrap replicate's draw count — so the rank rules treat an item drawn
twice as two voters. Ties are scores within ``TIE`` (1e-12), as everywhere in the engine.
"""

from __future__ import annotations

import math

import numpy as np

from ..core.ranking import TIE


def scale_exponent(x, *, down_only: bool = True) -> int:
    """The power of two ``k`` that brings the largest finite ``|x|`` into [0.5, 1) (``x · 2^-k``);
    with ``down_only`` never below 0 (values under 1 stay as they are); 0 for nothing finite.
    Multiplying by a power of two changes no bit of a normal number, so a mean, a weighted mean
    or a min–max of the scaled values, scaled back, is bit for bit the same — while sums of
    values near the largest float (1e308 + 1e308) no longer overflow.

    >>> scale_exponent([1e308, -3.0]), scale_exponent([0.25, np.nan]), scale_exponent([1e-300], down_only=False)
    (1024, 0, -996)
    """
    a = np.abs(np.asarray(x, dtype=float))
    top = float(a[np.isfinite(a)].max(initial=0.0))
    if top == 0.0:
        return 0
    k = math.frexp(top)[1]
    return max(k, 0) if down_only else k


def normalise(x: np.ndarray, how: str) -> np.ndarray:
    """Per column (unit) of ``x`` (teams × units): ``none``; ``minmax`` to [0, 1] (best 1; a
    unit where every team is equal gives 1); ``zscore`` (population SD; equal → 0); ``rank``:
    the share of the other teams present that this team beats, a tie counting half — HELM's
    per-column win rate (a unit with fewer than 2 teams present gives NaN). Missing stays NaN.

    >>> normalise(np.array([[1.0], [3.0], [2.0]]), "minmax").ravel().tolist()
    [0.0, 1.0, 0.5]
    >>> normalise(np.array([[1.0], [3.0], [3.0], [np.nan]]), "rank").ravel().tolist()
    [0.0, 0.75, 0.75, nan]
    """
    x = np.asarray(x, dtype=float)
    if how == "none":
        return x.copy()
    present = ~np.isnan(x)
    # min–max and z-score on values scaled by a power of two (the same bits for values under 1):
    # 1e308 − (−1e308) and a sum of squares near the largest float no longer overflow
    k = scale_exponent(x) if how in ("minmax", "zscore") else 0
    xs, tie = (np.ldexp(x, -k), math.ldexp(TIE, -k)) if k else (x, TIE)
    with np.errstate(invalid="ignore", divide="ignore"):
        if how == "minmax":
            lo, hi = np.nanmin(xs, axis=0), np.nanmax(xs, axis=0)
            span = hi - lo
            return np.where(span > tie, (xs - lo) / np.where(span > tie, span, 1.0), np.where(present, 1.0, np.nan))
        if how == "zscore":
            mu, sd = np.nanmean(xs, axis=0), np.nanstd(xs, axis=0)
            return np.where(sd > tie, (xs - mu) / np.where(sd > tie, sd, 1.0), np.where(present, 0.0, np.nan))
    if how == "rank":
        return win_rates(x)
    raise ValueError(f"expected none, minmax, zscore or rank, got {how!r}")


def beat_counts(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(wins, ties, present)`` per (team, item) of ``x`` (… × teams × items): how many of the
    other teams present on the item this team beats (by more than ``TIE``) and ties (within
    ``TIE``), and how many teams are present; one sort per item.

    >>> w, t, n = beat_counts(np.array([[0.5], [0.5], [0.1], [np.nan]]))
    >>> w.ravel().tolist(), t.ravel().tolist(), n.ravel().tolist()
    ([1.0, 1.0, 0.0, 0.0], [1.0, 1.0, 0.0, 0.0], [3, 3, 3, 3])
    """
    x = np.asarray(x, dtype=float)
    present = ~np.isnan(x)
    n = present.sum(axis=-2, keepdims=True)
    if x.size == 0:  # no team (a field of one team less that one): nothing beaten, nothing tied
        return np.zeros(x.shape), np.zeros(x.shape), np.broadcast_to(n, x.shape)
    srt = np.sort(np.where(present, x, np.inf), axis=-2)
    flat_x = x.reshape(-1, *x.shape[-2:])
    flat_s = srt.reshape(-1, *x.shape[-2:])
    wins = np.zeros(flat_x.shape)
    ties = np.zeros(flat_x.shape)
    for r in range(flat_x.shape[0]):
        for j in range(flat_x.shape[-1]):
            col, s = flat_x[r, :, j], flat_s[r, :, j]
            lo = np.searchsorted(s, col - TIE, side="left")
            hi = np.searchsorted(s, col + TIE, side="right")
            wins[r, :, j] = lo
            ties[r, :, j] = hi - lo - 1
    wins = np.where(present, wins.reshape(x.shape), 0.0)
    ties = np.where(present, ties.reshape(x.shape), 0.0)
    return wins, ties, np.broadcast_to(n, x.shape)


def win_rates(x: np.ndarray) -> np.ndarray:
    """Per item: (teams beaten + ½ teams tied) / (teams present − 1) among the teams present;
    NaN where the team is missing or fewer than 2 teams are present (HELM's rule).

    >>> win_rates(np.array([[0.9, 0.2], [0.5, np.nan], [0.5, 0.4]])).tolist()
    [[1.0, 0.0], [0.25, nan], [0.25, 1.0]]
    """
    wins, ties, n = beat_counts(x)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = (wins + 0.5 * ties) / (n - 1)
    return np.where(~np.isnan(x) & (n >= 2), out, np.nan)


def weighted_mean(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Σ w·x / Σ w over the items a team has (NaN when it has none with weight > 0).

    >>> weighted_mean(np.array([[1.0, np.nan, 3.0]]), np.array([1.0, 5.0, 3.0])).tolist()
    [2.5]
    """
    present = ~np.isnan(x)
    ww = np.where(present, np.broadcast_to(np.asarray(w, dtype=float)[..., None, :], x.shape), 0.0)
    den = ww.sum(axis=-1)
    num = np.where(present, x, 0.0) * ww
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, num.sum(axis=-1) / np.where(den > 0, den, 1.0), np.nan)


def softmin(x: np.ndarray, sizes: np.ndarray, alpha: float) -> np.ndarray:
    """The memo's softmin over the items a team has: ``β_i ∝ n_i·e^(−α·s_i)``, ``ν = Σ β_i s_i``
    (exponents shifted by the team's smallest score); α = 0 is the size-weighted mean, α = ∞
    the minimum (SPEC §4).

    >>> round(float(softmin(np.array([[0.6, 0.8]]), np.array([1.0, 3.0]), 0.0)[0]), 12)
    0.75
    >>> float(softmin(np.array([[0.6, 0.8]]), np.array([1.0, 1.0]), math.inf)[0])
    0.6
    """
    present = ~np.isnan(x)
    lo = np.nanmin(np.where(present, x, np.inf), axis=-1, keepdims=True)
    if math.isinf(alpha):
        return np.where(np.isfinite(lo[..., 0]), lo[..., 0], np.nan)
    n = np.broadcast_to(np.asarray(sizes, dtype=float)[..., None, :], x.shape)
    if alpha == 0:  # the size-weighted mean (and no 0 × ∞ where two scores differ by more than the largest float)
        return _row_weighted_mean(x, np.where(present, n, 0.0))
    with np.errstate(invalid="ignore", over="ignore"):
        w = np.where(present, n * np.exp(-alpha * (np.where(present, x, lo) - lo)), 0.0)
    return _row_weighted_mean(x, w)


def _row_weighted_mean(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Σ w·x / Σ w per team, with a weight per (team, item)."""
    den = w.sum(axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        num = (np.where(np.isnan(x), 0.0, x) * w).sum(axis=-1)
        return np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan)


def pairwise(x: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """``P[…, a, b]``: the (weighted) number of items on which team a beats team b, both present.

    >>> pairwise(np.array([[3.0, 1.0], [2.0, 2.0]]), np.ones(2)).tolist()
    [[0.0, 1.0], [1.0, 0.0]]
    """
    x = np.asarray(x, dtype=float)
    w = np.asarray(weight, dtype=float)
    out = np.zeros(x.shape[:-1] + x.shape[-2:-1])
    # item by item: memory teams × teams (× replicates), never × items as well
    with np.errstate(invalid="ignore"):
        for i in range(x.shape[-1]):
            xi = x[..., i]
            out += w[..., i][..., None, None] * (xi[..., :, None] > xi[..., None, :] + TIE)  # NaN: never wins
    return out


def borda(x: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """Borda points: per item, teams beaten + ½ teams tied among the teams present, summed over
    the items (weighted); a team missing from an item gets nothing from it.

    >>> borda(np.array([[3.0, 1.0], [2.0, 2.0], [1.0, 2.0]]), np.ones(2)).tolist()
    [2.0, 2.5, 1.5]
    """
    wins, ties, _ = beat_counts(x)
    return ((wins + 0.5 * ties) * np.asarray(weight, dtype=float)[..., None, :]).sum(axis=-1)


def copeland(p: np.ndarray) -> np.ndarray:
    """Copeland score from the pairwise counts: pairwise majorities won + ½ pairwise ties.

    >>> copeland(np.array([[0.0, 2.0, 1.0], [1.0, 0.0, 2.0], [2.0, 1.0, 0.0]])).tolist()
    [1.0, 1.0, 1.0]
    """
    won = (p > np.swapaxes(p, -1, -2) + TIE).sum(axis=-1)
    tied = (np.abs(p - np.swapaxes(p, -1, -2)) <= TIE).sum(axis=-1) - 1  # less the team itself
    return won + 0.5 * tied


def agreement(p: np.ndarray, order: np.ndarray) -> float:
    """Σ P[a, b] over the pairs that ``order`` (teams, best first) places a above b."""
    pos = np.empty(len(order), dtype=np.int64)
    pos[np.asarray(order)] = np.arange(len(order))
    return float(p[pos[:, None] < pos[None, :]].sum())


def kemeny_exact(p: np.ndarray) -> np.ndarray:
    """An order (teams, best first) maximising the agreement with the pairwise counts ``P``
    (Kemeny–Young), by dynamic programming over subsets: ``f(S ∪ {x}) = f(S) + Σ_{y ∉ S ∪ {x}}
    P[x, y]`` for ``x`` placed just below the set ``S``. O(2ⁿ·n²). Among optimal orders it
    chooses from the bottom up: the last place goes to the latest-listed team that ends some
    optimal order, the place above it likewise among the rest, and so on (docs/custom.md; not
    "the earlier-listed team goes higher", which would read the ties top-down).

    >>> kemeny_exact(np.array([[0.0, 2.0, 2.0], [1.0, 0.0, 2.0], [1.0, 1.0, 0.0]])).tolist()
    [0, 1, 2]
    """
    n = p.shape[0]
    size = 1 << n
    into = np.zeros((size, n))  # into[S, x] = Σ_{y ∈ S} P[x, y]
    for b in range(n):
        into[1 << b: 1 << (b + 1)] = into[: 1 << b] + p[:, b]
    rowsum = p.sum(axis=1)
    f = np.full(size, -np.inf)
    f[0] = 0.0
    masks = np.arange(size)
    pop = np.array([bin(m).count("1") for m in range(size)]) if n <= 16 else None
    for k in range(n):
        layer = masks[pop == k]
        base = f[layer]
        for x in range(n):
            free = (layer >> x) & 1 == 0
            src = layer[free]
            gain = base[free] + rowsum[x] - into[src, x]
            dst = src | (1 << x)
            np.maximum.at(f, dst, gain)
    order = []
    mask = size - 1
    while mask:
        for x in range(n - 1, -1, -1):  # the last placed: prefer the later-listed team at the bottom
            if (mask >> x) & 1:
                prev = mask ^ (1 << x)
                if abs(f[prev] + rowsum[x] - into[prev, x] - f[mask]) <= 1e-9 * max(1.0, abs(f[mask])):
                    order.append(x)
                    mask = prev
                    break
    return np.array(order[::-1], dtype=np.int64)


def kemeny_local(p: np.ndarray, start: np.ndarray) -> np.ndarray:
    """A local optimum of the Kemeny agreement from ``start``: move one team to its best
    position while that raises the agreement (an approximation, labelled so in the output)."""
    d = p - p.T  # d[a, b]: what placing a above b gains over b above a
    order = np.asarray(start, dtype=np.int64).copy()
    improved = True
    while improved:
        improved = False
        for team in order.copy():
            i = int(np.flatnonzero(order == team)[0])
            rest = np.delete(order, i)
            above = d[team, rest]  # gain for each other team placed below `team`
            gains = above.sum() - np.concatenate(([0.0], np.cumsum(above)))  # team at position k of rest
            k = int(np.argmax(gains))
            if gains[k] > gains[i] + 1e-9:
                order = np.insert(rest, k, team)
                improved = True
    return order


def order_scores(order: np.ndarray) -> np.ndarray:
    """Per team, the number of teams an order places below it (higher is better)."""
    n = len(order)
    out = np.empty(n)
    out[np.asarray(order)] = np.arange(n - 1, -1, -1)
    return out
