"""Score-interval methods compared on the simulation's populations (docs/robustness.md, "Score
intervals: the methods compared"; issue 40).

``python -m tests.simulation.intervals --family shovel-ready --n 500 1500 --small none 20 50 200``
prints, per design, every method's coverage of the true score by team type (± its Monte-Carlo standard
error: the spread over the test sets of the type's share held, as tests/simulation/run.py), its lowest single team,
its mean width over the percentile interval's, how often the truth lay above the interval, and the share
of all its teams (the exact copy left out). ``--quick``: the percentile interval (and the joint band) only. The
same test sets (``simulate``'s seeds) and the same replicates for every method; "unstratified": the
units resampled all together. The methods: the percentile interval; basic; bias-corrected by the
bootstrap, by the jackknife (:func:`jack_bias`) and by a double bootstrap; BCa (:func:`bca`, as
scipy's; tests/simulation/test_intervals.py); studentised with a block jackknife inside each
replicate (:func:`block_jackknife`); and the engine's joint band (``UnitStats.box``: Shovel-Ready).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from scipy.special import ndtr, ndtri

from scoring.core.family import UnitStats
from scoring.core.robustness import joint_band, resample_counts
from tests.simulation.populations import FAMILIES

CONF = 0.95
Q = np.array([(1 - CONF) / 2, (1 + CONF) / 2])


def _final(us: UnitStats, team, shared) -> np.ndarray:
    return np.asarray(us.score(team, shared)[us.final], dtype=float)


def unit_jackknife(us: UnitStats) -> np.ndarray:
    """(n, K) the final scores without each unit."""
    t, s = us.cell_sums()
    team = np.broadcast_to(t, (us.n_units, *t.shape)).copy()
    shared = np.broadcast_to(s, (us.n_units, *s.shape)).copy()
    u = np.arange(us.n_units)
    team[u, us.cell] -= us.team
    shared[u, us.cell] -= us.shared
    return _final(us, team, shared)


def block_ids(cell: np.ndarray, m: int, *, stratified: bool, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Each unit's block (``m`` per cell, or ``m`` over all units) and each block's stratum."""
    rng = np.random.default_rng(seed)
    n = len(cell)
    block = np.empty(n, dtype=np.int64)
    strata = []
    groups = [np.flatnonzero(cell == g) for g in np.unique(cell)] if stratified else [np.arange(n)]
    nb = 0
    for gi, idx in enumerate(groups):
        k = min(m, len(idx))
        perm = rng.permutation(idx)
        block[perm] = nb + np.arange(len(idx)) % k
        strata += [gi] * k
        nb += k
    return block, np.array(strata)


def block_jackknife(us: UnitStats, weights: np.ndarray, block: np.ndarray) -> np.ndarray:
    """(B, blocks, K) the final score of each replicate without each block's units."""
    t, s = us.cell_sums(weights)  # (B, C, T, k), (B, C, j)
    nb = int(block.max()) + 1
    b = len(weights)
    team = np.broadcast_to(t[:, None], (b, nb, *t.shape[1:])).copy()
    shared = np.broadcast_to(s[:, None], (b, nb, *s.shape[1:])).copy()
    u, tt, k = us.team.shape
    flat = us.team.reshape(u, tt * k)
    for q in range(nb):
        idx = np.flatnonzero(block == q)
        for g in np.unique(us.cell[idx]):
            sub = idx[us.cell[idx] == g]
            team[:, q, g] -= (weights[:, sub] @ flat[sub]).reshape(b, tt, k)
            shared[:, q, g] -= weights[:, sub] @ us.shared[sub]
    return _final(us, team, shared)


def jack_var(theta: np.ndarray, strata: np.ndarray) -> np.ndarray:
    """Jackknife variance over the block axis (-2) of ``theta`` (…, blocks, K), by stratum."""
    v = 0.0
    for g in np.unique(strata):
        x = theta[..., strata == g, :]
        m = x.shape[-2]
        if m > 1:
            v = v + (m - 1) / m * ((x - x.mean(axis=-2, keepdims=True)) ** 2).sum(axis=-2)
    return v


def jack_bias(theta: np.ndarray, full: np.ndarray, strata: np.ndarray) -> np.ndarray:
    """Jackknife bias estimate (delete-one by stratum): Σ_g (n_g − 1)(mean_g θ_(−u) − θ̂)."""
    out = 0.0
    for g in np.unique(strata):
        x = theta[strata == g]
        out = out + (len(x) - 1) * (x.mean(axis=0) - full)
    return out


def accel(theta: np.ndarray, strata: np.ndarray) -> np.ndarray:
    """BCa acceleration from the unit jackknife, by stratum (as scipy.stats.bootstrap, multi-sample)."""
    num = den = 0.0
    for g in np.unique(strata):
        x = theta[strata == g]
        n = len(x)
        u = (n - 1) * (x.mean(axis=0) - x)
        num = num + (u ** 3).sum(axis=0) / n ** 3
        den = den + (u ** 2).sum(axis=0) / n ** 2
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(den > 0, num / 6 / np.where(den > 0, den, 1.0) ** 1.5, 0.0)


def box(us: UnitStats, w: np.ndarray, conf: float = CONF) -> tuple[np.ndarray, np.ndarray]:
    """The engine's interval with a :class:`~scoring.core.family.Box` (``bootstrap``), on weights ``w``."""
    reps = np.asarray(us.scores(w)[us.box.stage], dtype=float)
    return us.box.range(*joint_band(reps, conf), us.scores())


def bca(reps: np.ndarray, full: np.ndarray, jk: np.ndarray, strata: np.ndarray, conf: float = CONF):
    """The BCa interval (Efron & Tibshirani 1993, 14.3; stratified: the acceleration summed over the
    strata, as ``scipy.stats.bootstrap`` does for several samples) of every team: ``reps`` (B × K) the
    replicates, ``full`` (K) the estimate, ``jk`` (n × K) the unit jackknife, ``strata`` (n) the cells."""
    b = len(reps)
    below = ((reps < full).sum(axis=0) + (reps <= full).sum(axis=0)) / (2 * b)  # ties count half, as scipy
    with np.errstate(divide="ignore"):
        z0 = ndtri(below)
    a = accel(jk, strata)
    q = np.array([(1 - conf) / 2, (1 + conf) / 2])
    lv = np.array([ndtr(z0 + (z0 + z) / (1 - a * (z0 + z))) for z in ndtri(q)])
    lv = np.nan_to_num(lv, nan=0.5)
    return tuple(np.array([np.percentile(reps[:, j], 100 * lv[i, j]) for j in range(len(full))]) for i in (0, 1))


def candidates(us: UnitStats, b: int, seed: int, *, stratified: bool = True, m: int = 20, b2: int = 10,
               only: tuple[str, ...] | None = None) -> dict:
    """Every method's (low, high) for the teams of test set ``us``: ``only`` a few (the unstratified ones)."""
    def want(name):
        return only is None or name in only

    full = np.asarray(us.scores()[us.final], dtype=float)
    cell = us.cell if stratified else np.zeros_like(us.cell)
    w = resample_counts(cell, b, seed=seed)
    reps = np.asarray(us.scores(w)[us.final], dtype=float)
    lo, hi = np.nanquantile(reps, Q, axis=0)
    out = {"percentile": (lo, hi)}
    if want("box") and us.box is not None:
        out["box"] = box(us, w)
    if only is not None:
        return out
    out["basic"] = (2 * full - hi, 2 * full - lo)
    mean = reps.mean(axis=0)
    bias_b = mean - full
    out["bc-boot"] = (lo - 2 * bias_b, hi - 2 * bias_b)
    jk = unit_jackknife(us)
    bias_j = jack_bias(jk, full, cell)
    out["bc-jack"] = (lo - bias_b - bias_j, hi - bias_b - bias_j)
    if b2:  # double bootstrap: the bias of the bias-corrected estimate, from B2 second-level draws of 200
        rng = np.random.default_rng(seed + 10_000)
        outer = np.repeat(w[: min(b, 200)], b2, axis=0)  # each first-level replicate b2 times
        ww = np.zeros_like(outer)
        for g in np.unique(cell):  # second-level draws: each cell's n_g units from the replicate's own units
            idx = np.flatnonzero(cell == g)
            drawn = np.repeat(np.tile(idx, (len(outer), 1)).ravel(), outer[:, idx].astype(np.int64).ravel())
            drawn = drawn.reshape(len(outer), len(idx))  # the replicate's units, with multiplicity
            pick = drawn[np.arange(len(outer))[:, None], rng.integers(0, len(idx), (len(outer), len(idx)))]
            np.add.at(ww, (np.repeat(np.arange(len(outer)), len(idx)), pick.ravel()), 1.0)
        second = np.asarray(us.scores(ww)[us.final], dtype=float)
        theta2 = 3 * full - 3 * mean + second.mean(axis=0)  # twice-corrected
        out["bc-double"] = (lo - mean + theta2, hi - mean + theta2)
    out["bca"] = bca(reps, full, jk, cell)
    block, strata = block_ids(us.cell, m, stratified=stratified, seed=seed)
    se0 = np.sqrt(jack_var(block_jackknife(us, np.ones((1, us.n_units)), block), strata))[0]
    sej = np.sqrt(jack_var(block_jackknife(us, w, block), strata))
    with np.errstate(divide="ignore", invalid="ignore"):
        tstar = np.where(sej > 0, (reps - full) / np.where(sej > 0, sej, 1.0), np.nan)
    ok = np.isfinite(tstar).any(axis=0)
    tq = np.zeros((2, len(full)))
    tq[:, ok] = np.nanquantile(tstar[:, ok], Q, axis=0)
    out["studentised"] = (full - tq[1] * se0, full - tq[0] * se0)
    return out


def run(family: str, design: str, *, n: int, sims: int, b: int, small: int | None = None, seed: int = 0,
        b2: int = 0, m: int = 20, plain: bool = True, quick: bool = False) -> dict:
    kw = {} if small is None else {"small": small}
    pop = FAMILIES[family](design, n=n, seed=seed, **kw)
    rng = np.random.default_rng(seed + 1)
    res: dict = {}
    est = []
    for s in range(sims):
        us = pop.sample(n, rng)
        est.append(np.asarray(us.scores()[us.final], dtype=float))
        for strat in (True, False) if plain else (True,):
            for name, (lo, hi) in candidates(us, b, s, stratified=strat, b2=b2, m=m,
                                             only=("percentile", "box") if quick or not strat else None).items():
                key = name if strat else f"{name}, unstratified"
                res.setdefault(key, []).append((lo <= pop.truth) & (pop.truth <= hi))
                res.setdefault(key + " width", []).append(hi - lo)
                res.setdefault(key + " low", []).append(hi < pop.truth)
    est = np.array(est)
    sd = est.std(axis=0, ddof=1)
    bias = float(((est.mean(axis=0) - pop.truth) / sd).mean())
    kinds = [k for k in dict.fromkeys(pop.kinds) if k != "copy"]
    table = {}
    ref = np.nanmean(res["percentile width"])
    for key in [k for k in res if not k.endswith((" width", " low"))]:
        c = np.array(res[key])
        per_set = {kd: c[:, [j for j, x in enumerate(pop.kinds) if x == kd]].mean(axis=1) for kd in kinds}
        table[key] = ({kd: float(v.mean()) for kd, v in per_set.items()},
                      float(c.mean(axis=0).min()), float(np.nanmean(res[key + " width"]) / ref),
                      float(np.mean(res[key + " low"])),
                      {kd: float(v.std(ddof=1) / np.sqrt(sims)) for kd, v in per_set.items()},
                      float(c[:, [j for j, x in enumerate(pop.kinds) if x != "copy"]].mean()))
    return {"table": table, "bias": bias, "true_sd": sd}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--family", nargs="*", default=["shovel-ready"])
    ap.add_argument("--design", nargs="*", default=["tie6", "leader"])
    ap.add_argument("--n", nargs="*", type=int, default=[500])
    ap.add_argument("--small", nargs="*", default=["none"], help="the small group's essays at the test size (none: the default)")
    ap.add_argument("--sims", type=int, default=100)
    ap.add_argument("--b", type=int, default=400)
    ap.add_argument("--b2", type=int, default=10)
    ap.add_argument("--m", type=int, default=20)
    ap.add_argument("--no-plain", action="store_true", help="leave out the unstratified resample")
    ap.add_argument("--quick", action="store_true", help="only the percentile interval and the joint band")
    a = ap.parse_args(argv)
    for fam in a.family:
        for n in a.n:
            for small in a.small:
                sm = None if small == "none" else int(small)
                for d in a.design:
                    t0 = time.perf_counter()
                    r = run(fam, d, n=n, sims=a.sims, b=a.b, small=sm, b2=a.b2, m=a.m, plain=not a.no_plain,
                            quick=a.quick)
                    print(f"{fam} {d} n={n} small={sm} R={a.sims} B={a.b}: bias {r['bias']:+.2f} SD "
                          f"[{time.perf_counter() - t0:.0f} s]")
                    for key, (types, low, width, miss_low, se, every) in r["table"].items():
                        print(f"  {key:26s} " + " ".join(f"{k} {v:.3f}±{se[k]:.3f}" for k, v in types.items())
                              + f" | min team {low:.3f} | width {width:.2f} | truth above {miss_low:.3f}"
                              + f" | all teams {every:.3f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
