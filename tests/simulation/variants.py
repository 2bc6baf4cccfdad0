"""Variants of the paired inference, tried against Shovel-Ready's far pairs sharing a letter
(docs/robustness.md, "Shovel-Ready: pairs far apart"): ``python -m tests.simulation.variants``.

A plain re-implementation of :mod:`scoring.core.pairwise` (every hypothesis sorted, no blocks)
with the parts that were varied made explicit; with the defaults it gives the engine's sets
(checked on every test set it runs). For the test sets of :func:`tests.simulation.run.simulate`
(same seeds) it prints, per variant, the share of (pair ≥ 8 SE apart × test set) sharing a letter
and the coverage figures of the issue. ``d[j, k] = v_k − v_j``; a hypothesis "``k`` is not better
than ``j``" has statistic ``stat[j, k] / scale[j, k]`` and null replicates
``(d*[j, k] − centre[j, k]) / scale[j, k]``:

- ``scale``: ``sd`` (the engine), ``iqr`` (interquartile range / 1.349), ``semi`` (one per tail: the
  root mean square of the replicates above their mean, × √2), ``tail`` (one per tail: the 99th
  percentile of ``d* − d`` above its median / z₀.₉₉);
- ``stat``: ``est`` (``d``, the engine), ``bc`` (bias-corrected: ``2d − mean(d*)``), ``bag`` (``mean(d*)``);
- ``centre``: ``est`` (``d``, the engine) or ``mean`` (``mean(d*)``);
- ``beta``: moment selection (Romano, Shaikh & Wolf, *Econometrica* 2014): hypotheses whose statistic
  is below ``−c_β`` (``c_β`` the 1 − β quantile of the largest ``−t*``) have their null replicates
  shifted down by ``stat + c_β``, and the critical value is taken at ``confidence + β``.
"""

from __future__ import annotations

import argparse
from types import SimpleNamespace

import numpy as np
from scipy.stats import norm

from scoring.core.ranking import rank
from scoring.core.ranksets import letters, rank_sets
from scoring.core.robustness import replicates, resample_counts
from tests.simulation.populations import FAMILIES
from tests.simulation.run import CONFIDENCE

VARIANTS = {
    "engine": {}, "iqr": {"scale": "iqr"}, "bias-corrected": {"stat": "bc"}, "centred at mean(d*)": {"centre": "mean"},
    "semi-deviation": {"scale": "semi"}, "99th percentile": {"scale": "tail"}, "bagged": {"stat": "bag"},
    "selection": {"beta": 0.005}, "semi + bagged + selection": {"scale": "semi", "stat": "bag", "beta": 0.005},
}


def stepdown(stat: np.ndarray, null: np.ndarray, confidence: float, beta: float = 0.0) -> np.ndarray:
    """Romano–Wolf step-down max-t over hypotheses ``stat`` (H,) with null replicates (B, H): rejected."""
    if beta:
        cb = np.quantile(np.max(-null, axis=1), 1 - beta, method="inverted_cdf")
        null = null + np.minimum(np.where(np.isfinite(stat), stat, 0.0) + cb, 0.0)[None]
        confidence += beta
    order = np.argsort(-stat, kind="stable")
    tail = np.maximum.accumulate(null[:, order][:, ::-1], axis=1)[:, ::-1]
    done = 0
    while done < len(stat):
        c = np.quantile(tail[:, done], confidence, method="inverted_cdf")
        now = int((stat[order] > c).sum())
        if now <= done:
            break
        done = now
    out = np.zeros(len(stat), dtype=bool)
    out[order[:done]] = True
    return out


def _scale(dstar: np.ndarray, d: np.ndarray, how: str) -> np.ndarray:
    """(K, K) the scale of hypothesis ``[j, k]`` (its upper tail of ``d*[j, k] − d[j, k]``)."""
    if how == "sd":
        return dstar.std(axis=0, ddof=1)
    if how == "iqr":
        q1, q3 = np.percentile(dstar, [25, 75], axis=0)
        return (q3 - q1) / (2 * norm.ppf(0.75))
    if how == "semi":
        return np.sqrt(2 * (np.maximum(dstar - dstar.mean(axis=0), 0) ** 2).mean(axis=0))
    if how == "tail":
        x = dstar - d[None]
        return (np.quantile(x, 0.99, axis=0) - np.median(x, axis=0)) / norm.ppf(0.99)
    raise ValueError(how)


def variant_sets(full, reps, confidence: float = CONFIDENCE, *, scale: str = "sd", stat: str = "est",
                 centre: str = "est", beta: float = 0.0) -> SimpleNamespace:
    """Marginal and simultaneous rank sets and letters (larger is better) under one variant."""
    v, r = np.asarray(full, dtype=float), np.asarray(reps, dtype=float)
    k = len(v)
    d = v[None, :] - v[:, None]
    dstar = r[:, None, :] - r[:, :, None]
    s = _scale(dstar, d, scale)
    s = np.where(s > 1e-12, s, 0.0)
    mean = dstar.mean(axis=0)
    t_of = {"est": d, "bc": 2 * d - mean, "bag": mean}[stat]
    inv = np.where(s > 0, 1 / np.where(s > 0, s, 1.0), 0.0)
    with np.errstate(invalid="ignore"):
        t = np.where(s > 0, t_of * inv, np.sign(d) * np.inf)
    ts = (dstar - (d if centre == "est" else mean)[None]) * inv[None]
    off = ~np.eye(k, dtype=bool)
    jj, kk = np.nonzero(off)
    hit = stepdown(t[jj, kk], ts[:, jj, kk], confidence, beta)
    better_all = np.zeros((k, k), dtype=bool)
    better_all[jj[hit], kk[hit]] = True
    better, worse = np.zeros((k, k), dtype=bool), np.zeros((k, k), dtype=bool)
    for j in range(k):
        o = np.flatnonzero(off[j])
        hit = stepdown(np.concatenate([t[j, o], t[o, j]]), np.concatenate([ts[:, j, o], ts[:, o, j]], axis=1),
                       confidence, beta)
        better[j, o[hit[:len(o)]]] = True
        worse[j, o[hit[len(o):]]] = True
    lets = letters(better_all | better_all.T, np.lexsort((np.arange(k), rank(v))))
    return SimpleNamespace(rank_low=1 + better.sum(axis=1), rank_high=k - worse.sum(axis=1),
                           rank_low_all=1 + better_all.sum(axis=1), rank_high_all=k - better_all.sum(axis=0),
                           letters=lets)


def compare(design: str, *, n: int = 1500, sims: int = 300, b: int = 400, seed: int = 0,
            variants: dict = VARIANTS) -> dict[str, dict[str, float]]:
    """Per variant, on the Shovel-Ready test sets of ``simulate`` (SE of a difference: its spread over
    these test sets, as there): far-pair sharing, lowest marginal coverage of a team, simultaneous
    coverage, and (tie6) the share of test sets where all tied teams share a letter."""
    pop = FAMILIES["shovel-ready"](design, n=n, seed=seed)
    rng = np.random.default_rng(seed + 1)
    tr, kinds = pop.true_rank, pop.kinds
    data = []
    for s in range(sims):
        us = pop.sample(n, rng)
        data.append((np.asarray(us.scores()[us.final], dtype=float), replicates(us, resample_counts(us.cell, b, seed=s))[0]))
    est = np.array([f for f, _ in data])
    sd = (est[:, :, None] - est[:, None, :]).std(axis=0)
    far = np.triu(np.abs(pop.truth[:, None] - pop.truth[None, :]) >= 8 * np.where(sd > 0, sd, np.inf), 1)
    tied = [j for j, x in enumerate(kinds) if x == "tied"]
    out = {}
    for name, kw in variants.items():
        share, cover, together, tie = [], [], [], []
        for full, reps in data:
            rs = variant_sets(full, reps, **kw)
            if not kw:  # the defaults are the engine's method
                e = rank_sets(full, reps, confidence=CONFIDENCE)
                assert all(np.array_equal(getattr(e, f), getattr(rs, f)) for f in
                           ("rank_low", "rank_high", "rank_low_all", "rank_high_all", "letters"))
            lets = [set(x) for x in rs.letters]
            shares = np.array([[bool(x & y) for y in lets] for x in lets])
            share.append(shares[far])
            cover.append((rs.rank_low <= tr) & (tr <= rs.rank_high))
            together.append(((rs.rank_low_all <= tr) & (tr <= rs.rank_high_all)).all())
            tie.append(all(shares[i, j] for i in tied for j in tied))
        out[name] = {"far": float(np.mean(share)), "lowest team": float(np.mean(cover, axis=0).min()),
                     "simultaneous": float(np.mean(together)), "tied share": float(np.mean(tie)) if tied else float("nan")}
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sims", type=int, default=300)
    ap.add_argument("--b", type=int, default=400)
    ap.add_argument("--n", type=int, default=1500)
    args = ap.parse_args(argv)
    for design in ("leader", "tie6"):
        for name, r in compare(design, n=args.n, sims=args.sims, b=args.b).items():
            print(f"shovel-ready {design:6s} {name:28s} far pairs sharing {r['far']:.4f}; lowest team {r['lowest team']:.3f}; "
                  f"simultaneous {r['simultaneous']:.3f}; tied share {r['tied share']:.3f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
