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

import math
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


def _blocks(b: int, k: int, block: int, width: int | None = None) -> list[slice]:
    """Slices of the ``k`` rows, each at most ``block`` numbers of ``b`` × rows × ``width`` (``k``)."""
    step = max(1, block // max(1, b * (k if width is None else width)))
    return [slice(a, min(k, a + step)) for a in range(0, k, step)]


def _tstar(p: Paired, rows: slice) -> np.ndarray:
    """(B, rows, K) studentised replicates of the block's rows (0 where se = 0), in float32."""
    c = p.centred.astype(np.float32, copy=False)
    se = p.se[rows]
    inv = np.where(se > 0, 1.0 / np.where(se > 0, se, 1.0), 0.0).astype(np.float32)
    out = c[:, None, :] - c[:, rows, None]
    out *= inv[None]
    return out


def paired(full, reps, *, higher_is_better: bool = True, tol: float = TIE, block: int = BLOCK) -> Paired:
    """The paired differences of scores ``full`` (K,) over replicates ``reps`` (B × K).

    The standard errors come from the replicates' covariance (``var_j + var_k − 2 cov_jk``);
    teams whose replicates are identical (exact copies) get identical rows, and 0 between them.

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
    top = max(float(np.abs(v[ok]).max(initial=0.0)), float(np.abs(r[:, ok]).max(initial=0.0)))
    if top > 2.0 ** 400:  # scores near the largest float (a Custom mean of 1e308s): scaled by a power of two, so
        k = math.frexp(top)[1]  # that differences and squares cannot overflow; d / se and every t* are unchanged
        v, r, tol = np.ldexp(v, -k), np.ldexp(r, -k), math.ldexp(tol, -k)
    v0, r0 = np.where(ok, v, 0.0), np.where(ok[None, :], r, 0.0)
    centred = np.ascontiguousarray(r0 - v0[None, :])
    diff = v0[None, :] - v0[:, None]
    diff[np.abs(diff) <= tol] = 0.0
    k = len(v)
    # exact copies (the same column of replicates and the same score): one representative each
    _, first, group = np.unique(np.vstack([centred, v0[None, :]]).T, axis=0, return_index=True, return_inverse=True)
    rep = first[np.asarray(group).ravel()]
    se = np.zeros((k, k))
    if r.shape[0] > 1:
        u = np.unique(rep)
        x = centred[:, u] - centred[:, u].mean(axis=0)
        cov = x.T @ x / (r.shape[0] - 1)
        d = np.diag(cov)
        var = np.maximum(d[:, None] + d[None, :] - 2 * cov, 0.0)
        pos = np.searchsorted(u, rep)
        se = np.sqrt(var)[np.ix_(pos, pos)]
    se[se <= max(tol, 1e-9 * float(np.abs(centred).max(initial=0.0)))] = 0.0
    testable = ok[:, None] & ok[None, :] & ~np.eye(k, dtype=bool)
    return Paired(centred=centred, diff=diff, se=se, testable=testable)


def _quantile(m: np.ndarray, confidence: float) -> np.ndarray:
    """The ``confidence`` quantile over the replicates (axis 0): an order statistic."""
    return np.quantile(m, confidence, axis=0, method="inverted_cdf")


def _suffix_max(null: np.ndarray) -> np.ndarray:
    """The running maximum from the right along the last axis, with a ``-inf`` end slot:
    ``out[..., s]`` is the largest of ``null[..., s:]``."""
    out = np.maximum.accumulate(null[..., ::-1], axis=-1)[..., ::-1]
    pad = np.full(out.shape[:-1] + (1,), -np.inf, dtype=out.dtype)
    return np.concatenate([out, pad], axis=-1)


def _marginal_sorted(p: Paired, t: np.ndarray, rows: slice, confidence: float) -> tuple[np.ndarray, np.ndarray]:
    """The step-down of :func:`marginal` for a block of rows, on every hypothesis sorted by
    statistic (the general way: no assumption on the critical values)."""
    k = len(t)
    ok = p.testable[rows]
    stat = np.where(np.concatenate([ok, ok], axis=1), np.concatenate([t[rows], -t[rows]], axis=1), -np.inf)
    order = np.argsort(-stat, axis=1, kind="stable")  # (J, 2K), largest first
    stat = np.take_along_axis(stat, order, axis=1)
    ts = _tstar(p, rows)
    null = np.concatenate([ts, -ts], axis=2)
    del ts
    null[:, ~np.concatenate([ok, ok], axis=1)] = -np.inf
    tail = _suffix_max(np.take_along_axis(null, order[None], axis=2))  # (B, J, 2K + 1)
    del null
    j = np.arange(len(stat))
    done = np.zeros(len(stat), dtype=np.int64)  # rejected: the first ``done`` of each row
    while True:
        c = _quantile(tail[:, j, done].astype(float), confidence)
        now = (stat > c[:, None]).sum(axis=1)
        if (now <= done).all():
            break
        done = np.maximum(done, now)
    hit = np.zeros((len(stat), 2 * k), dtype=bool)
    np.put_along_axis(hit, order, np.arange(2 * k)[None, :] < done[:, None], axis=1)
    return hit[:, :k] & ok, hit[:, k:] & ok


def marginal(p: Paired, confidence: float, *, block: int = BLOCK,
             progress: Progress | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Per team ``j``, its own family of ``2(K − 1)`` comparisons, stepped down: ``(better,
    worse)``, (K, K) booleans, ``better[j, k]``: ``k`` is established better than ``j``;
    ``worse[j, k]``: established worse. Each row holds with probability ≥ ``confidence``.

    A step rejects the hypotheses whose statistic is above the critical value, so the rejected
    ones are always the first of the family sorted by statistic. The first step (the largest
    ``|t*|`` over the whole family) rejects every far pair at once; while the critical value
    stays ≥ 0 a hypothesis with a statistic ≤ 0 is never rejected, so the later steps need only
    the few statistics in ``(0, c₁]``, sorted, and the replicates' maximum over the rest, once.
    A row whose critical value falls below 0 is redone the general way (every hypothesis sorted).
    """
    t = p.t
    k = len(t)
    b = p.centred.shape[0]
    better = np.zeros_like(p.testable)
    worse = np.zeros_like(p.testable)
    blocks = _blocks(b, k, block, width=3 * k)  # the block and two temporaries
    for n, rows in enumerate(blocks):
        ok = p.testable[rows]
        tr = t[rows]
        ts = _tstar(p, rows)
        c1 = _quantile(np.max(np.abs(ts), axis=2, where=ok[None], initial=-np.inf).astype(float), confidence)
        up = ok & (tr > c1[:, None])  # rejected at the first step
        down = ok & (-tr > c1[:, None])
        rest = np.maximum(np.max(ts, axis=2, where=(ok & (tr <= 0))[None], initial=-np.inf),
                          np.max(-ts, axis=2, where=(ok & (tr >= 0))[None], initial=-np.inf))  # (B, J)
        redo = []
        for r in range(len(tr)):
            cand_up = np.flatnonzero(ok[r] & (tr[r] > 0) & ~up[r])
            cand_down = np.flatnonzero(ok[r] & (tr[r] < 0) & ~down[r])
            stat = np.concatenate([tr[r, cand_up], -tr[r, cand_down]])
            order = np.argsort(-stat, kind="stable")
            null = np.concatenate([ts[:, r, cand_up], -ts[:, r, cand_down]], axis=1)[:, order]
            stat = stat[order]
            tail = _suffix_max(null)
            done = 0
            while done < len(stat):
                c = float(_quantile(np.maximum(tail[:, done], rest[:, r]).astype(float), confidence))
                if c < 0:
                    break
                now = int((stat > c).sum())
                if now <= done:
                    break
                done = now
            if done < len(stat) and c < 0:
                redo.append(r)
                continue
            who = np.concatenate([cand_up, cand_down])[order][:done]
            is_up = np.concatenate([np.ones(len(cand_up), bool), np.zeros(len(cand_down), bool)])[order][:done]
            up[r, who[is_up]] = True
            down[r, who[~is_up]] = True
        del ts
        better[rows], worse[rows] = up, down
        for r in redo:
            one = slice(rows.start + r, rows.start + r + 1)
            better[one], worse[one] = _marginal_sorted(p, t, one, confidence)
        if progress is not None and ((n + 1) % max(1, len(blocks) // 100) == 0 or n + 1 == len(blocks)):
            progress(n + 1, len(blocks), "marginal")  # at most about a hundred reports
    return better, worse


def simultaneous(p: Paired, confidence: float, *, block: int = BLOCK,
                 progress: Progress | None = None) -> np.ndarray:
    """Every ordered pair at once, stepped down: ``better`` (K, K), ``better[j, k]``: ``k`` is
    established better than ``j``; all of it holds at once with probability ≥ ``confidence``.
    (Its transpose says who is established worse: the pairs' two directions are one family.)

    As in :func:`marginal`, the pairs are sorted by statistic once; the replicates' maxima are
    kept per chunk of ``block`` numbers, so each step costs one chunk and one quantile.
    """
    t = p.t
    jj, kk = np.nonzero(p.testable)
    order = np.argsort(-t[jj, kk], kind="stable")
    jj, kk = jj[order], kk[order]
    stat = t[jj, kk]
    c32 = p.centred.astype(np.float32)
    inv = np.where(p.se > 0, 1.0 / np.where(p.se > 0, p.se, 1.0), 0.0).astype(np.float32)
    b = len(c32)
    h = max(1, block // max(1, b))
    starts = list(range(0, len(jj), h))

    def chunk(a: int) -> np.ndarray:
        j, k = jj[a:a + h], kk[a:a + h]
        ts = c32[:, k] - c32[:, j]
        ts *= inv[j, k][None]
        return ts

    cmax = np.full((b, len(starts) + 1), -np.inf, dtype=np.float32)  # each chunk's maximum, per replicate
    for i, a in enumerate(starts):
        cmax[:, i] = chunk(a).max(axis=1)
        if progress is not None and i % 64 == 63:
            progress(i + 1, len(starts) + 1, "simultaneous")
    later = _suffix_max(cmax[:, :-1])  # (B, chunks + 1): the maximum of the chunks from i on
    done = 0
    while done < len(stat):
        i = done // h
        part = chunk(starts[i])[:, done - starts[i]:].max(axis=1) if done > starts[i] else later[:, i]
        m = np.maximum(part, later[:, i + 1])
        c = _quantile(m.astype(float), confidence)
        now = int((stat > c).sum())
        if now <= done:
            break
        done = now
    better = np.zeros_like(p.testable)
    better[jj[:done], kk[:done]] = True
    return better
