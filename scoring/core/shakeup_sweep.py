"""The shake-up across public fractions (and test sizes), and the split-size advice.

The splits of one seed are nested across fractions (``scoring.core.shakeup``): within each
stratum the units are ordered once by their uniform draws, and the public part at fraction
``f`` is the first ``k_g(f)`` of them. So every unit of a split enters the public board at one
step of the sweep, and the public sums at every fraction are running sums of what enters at each
step: one sparse (splits × steps × cells, units) product for the whole sweep instead of a dense
(splits, units) product per fraction — the same boards, about as many multiplications as one
fraction. The splits are those :func:`~scoring.core.shakeup.shakeup` draws with the same seed,
fraction by fraction (a test checks it).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from ..claims import shakeup as claims
from .errors import InputError, parameter_error
from .family import UnitStats
from .limits import check_fields
from .shakeup import (
    FRACTIONS,
    Progress,
    Shakeup,
    binomial_interval,
    check_shakeup,
    n_splits,
    part_sizes,
    shakeup,
    strata,
    uniform_draws,
)

#: the shares of the units a split-size advice tries as the test set
SIZES = (0.25, 0.5, 0.75, 1.0)


def entry_steps(cell: np.ndarray, fractions: Sequence[float], n: int, *, seed: int = 0, size: float = 1.0
                ) -> np.ndarray:
    """(n × units) the step at which each unit of each split enters the public board: ``i`` —
    public at ``fractions[i]`` and every larger one (``fractions`` ascending); ``len(fractions)``
    — in the test set, never public; ``len(fractions) + 1`` — outside the test set. The same
    uniform draws as :func:`~scoring.core.shakeup.split_masks` with the same seed.

    Four units, k = 1, 2, 3 public at 25, 50, 75 %: one unit enters at each step, one never:

    >>> sorted(entry_steps(np.array([0, 0, 0, 0]), (0.25, 0.5, 0.75), 1, seed=0)[0].tolist())
    [0, 1, 2, 3]
    """
    st = strata(cell)
    if len(st) < 2:
        raise InputError("units", None, f"expected at least 2 scoring units to split, got {len(st)}")
    fr = np.asarray(fractions, dtype=float)
    n_steps = len(fr)
    m = part_sizes(st, float(fr[0]), size)[0]
    ks = np.stack([part_sizes(st, float(f), size)[1] for f in fr], axis=1)  # (strata, fractions)
    out = np.empty((n, len(st)), dtype=np.int16)
    for rows, g, idx, u in uniform_draws(st, len(m), n, seed=seed):
        if ks[g, 0] < 0:  # a lone unit: public at f when its draw is below f
            out[rows, idx] = np.searchsorted(fr, u, side="right")
            continue
        rank = np.empty(u.shape, dtype=np.int64)
        np.put_along_axis(rank, np.argsort(u, axis=1, kind="stable"), np.arange(len(idx))[None, :], axis=1)
        step = np.searchsorted(ks[g], rank, side="right")  # the fractions whose k_g is <= its rank
        out[rows, idx] = np.where(step < n_steps, step, np.where(rank < m[g], n_steps, n_steps + 1))
    return out


def nested_shakeups(us: UnitStats, fractions: Sequence[float], splits: int, *, seed: int = 0, size: float = 1.0,
                    unit: str = "unit", progress: Progress | None = None, done: int = 0,
                    total: int | None = None) -> list[Shakeup]:
    """:func:`~scoring.core.shakeup.shakeup` at every fraction (ascending), from one sparse
    product (module doc). Where every split of a fraction can be enumerated (tiny data), each
    fraction is simulated on its own, exactly."""
    fr = sorted(check_shakeup(f, splits, seed)[0] for f in fractions)
    _, splits, seed = check_shakeup(fr[0], splits, seed)
    total = splits * len(fr) if total is None else total
    check_fields("splits", 2 * total, us.cost)  # every board of the sweep (or of the advice's grid), before any
    if size >= 1 and any((c := n_splits(us.cell, f, at_most=splits)) is not None and c <= splits for f in fr):
        out = []
        for i, f in enumerate(fr):
            out.append(shakeup(us, f, splits, seed=seed, unit=unit, progress=progress, done=done + i * splits,
                               total=total))
        return out
    steps = entry_steps(us.cell, fr, splits, seed=seed, size=size)
    n_steps, n_cells = len(fr), us.n_cells
    u, t, k = us.team.shape
    stats = np.concatenate([us.team.reshape(u, t * k), us.shared], axis=1)
    per_split = (n_steps + 1) * n_cells * stats.shape[1] * 8
    chunk = max(1, min(splits, (1 << 26) // per_split))
    parts: list[list[list[np.ndarray]]] = [[[], [], [], []] for _ in fr]
    for a in range(0, splits, chunk):
        e = steps[a:a + chunk].astype(np.int64)
        c = len(e)
        keep = e <= n_steps
        row = ((np.arange(c)[:, None] * (n_steps + 1) + e) * n_cells + us.cell[None, :])[keep]
        col = np.broadcast_to(np.arange(u), e.shape)[keep]
        from scipy import sparse  # on first use: every command line imports this module

        onehot = sparse.csr_array((np.ones(len(row)), (row, col)), shape=(c * (n_steps + 1) * n_cells, u))
        sums = np.cumsum((onehot @ stats).reshape(c, n_steps + 1, n_cells, -1), axis=1)
        test = sums[:, -1:]  # every step up to "in the test set, never public"
        pub, priv = sums[:, :-1], test - sums[:, :-1]
        for board, (pos, rk) in ((pub, (0, 2)), (priv, (1, 3))):
            sc = us.score(board[..., :t * k].reshape(c * n_steps, n_cells, t, k), board[..., t * k:].reshape(
                c * n_steps, n_cells, -1))
            final = np.asarray(sc[us.final], dtype=float).reshape(c, n_steps, t)
            ranks = us.final_ranks(sc).reshape(c, n_steps, t)
            for i in range(n_steps):
                parts[i][pos].append(final[:, i])
                parts[i][rk].append(ranks[:, i])
        if progress is not None:
            progress(done + min(splits, a + chunk) * n_steps, total, "")
    full = us.scores()
    names = list(us.names) or [str(i) for i in range(t)]
    n_units = int((steps[0] <= n_steps).sum())
    out = []
    for i, f in enumerate(fr):
        ps, qs, pr, qr = (np.concatenate(x) for x in parts[i])
        out.append(Shakeup(fraction=f, seed=seed, exact=False, names=names, rank=us.final_ranks(full),
                           public_score=ps, private_score=qs, public_rank=pr, private_rank=qr,
                           n_public=float((steps <= i).sum(axis=1).mean()), n_units=n_units, unit=unit,
                           higher_is_better=us.higher_is_better))
    return out


def sweep(us: UnitStats, fractions: Sequence[float] = FRACTIONS, splits: int = 200, *, seed: int = 0,
          tau_at: float = 0.8, unit: str = "unit", progress: Progress | None = None) -> pd.DataFrame:
    """One row per public fraction (:func:`sweep_table` of :func:`nested_shakeups`)."""
    return sweep_table(nested_shakeups(us, fractions, splits, seed=seed, unit=unit, progress=progress), tau_at=tau_at)


def sweep_table(shs: Sequence[Shakeup], *, tau_at: float = 0.8) -> pd.DataFrame:
    """One row per shake-up: P(winner holds) with its 95 % Clopper–Pearson interval (the value
    itself twice when every split was enumerated), τ's 5 %, 50 % and 95 % quantiles,
    P(τ ≥ ``tau_at``), the mean |move|, P(top-3 equal)."""
    rows = []
    for sh in shs:
        s = sh.summary()
        hits = sh.winner_holds().sum()
        lo, hi = (hits / sh.splits,) * 2 if sh.exact else binomial_interval(hits, sh.splits)
        tau = sh.tau()
        rows.append({"fraction": sh.fraction, "splits": sh.splits, "exact": sh.exact,
                     "p_winner_holds": s["p_winner_holds"], "p_winner_low": lo, "p_winner_high": hi,
                     "tau_q05": s["tau_q05"], "tau_median": s["tau_median"], "tau_q95": s["tau_q95"],
                     "p_tau_at_least": float((tau >= tau_at).mean()), "mean_move": s["mean_move"],
                     "p_top3_equal": sh.p_top(3) if sh.n_teams > 3 else math.nan})
    return pd.DataFrame(rows)


def advice_runs(us: UnitStats, *, fractions: Sequence[float] = FRACTIONS, sizes: Sequence[float] = SIZES,
                splits: int = 200, seed: int = 0, unit: str = "unit", progress: Progress | None = None
                ) -> list[tuple[float, list[Shakeup]]]:
    """The shake-ups of the advice's grid: ``[(test size, [one per fraction])]``; sizes that
    round to the same test set (a small one) are tried once."""
    seen, distinct = set(), []
    for size in sorted(sizes):
        m = tuple(part_sizes(strata(us.cell), 0.5, size)[0].tolist())
        if m not in seen:
            seen.add(m)
            distinct.append(size)
    total = splits * len(fractions) * len(distinct)
    return [(float(size), nested_shakeups(us, fractions, splits, seed=seed, size=size, unit=unit, progress=progress,
                                          done=i * splits * len(fractions), total=total))
            for i, size in enumerate(distinct)]


def advise(us: UnitStats, *, target: str = "winner", p: float = 0.9, tau: float = 0.8,
           fractions: Sequence[float] = FRACTIONS, sizes: Sequence[float] = SIZES, splits: int = 200, seed: int = 0,
           confidence: float = 0.95, unit: str = "unit", progress: Progress | None = None) -> tuple[pd.DataFrame, dict]:
    """Which public fraction and test size meet a target: ``target="winner"`` — P(the public
    winner wins the private board) ≥ ``p`` — or ``"tau"`` — P(Kendall's τ ≥ ``tau``) ≥ ``p``.

    Every (test size, fraction) pair of the grid is simulated with ``splits`` splits (a smaller
    test set subsamples the units of each cell first, then splits them: :func:`advice_runs`);
    :func:`advice_from` reads the target off them.
    """
    check_target(target, p)
    runs = advice_runs(us, fractions=fractions, sizes=sizes, splits=splits, seed=seed, unit=unit, progress=progress)
    return advice_from(runs, target=target, p=p, tau=tau, confidence=confidence, unit=unit)


def check_target(target: str, p: float) -> None:
    if target not in ("winner", "tau"):
        raise parameter_error("target", "'winner' or 'tau'", target)
    if not 0 < float(p) < 1:
        raise parameter_error("probability", "a number in (0, 1)", p)


def advice_from(runs: Sequence[tuple[float, Sequence[Shakeup]]], *, target: str = "winner", p: float = 0.9,
                tau: float = 0.8, confidence: float = 0.95, unit: str = "unit") -> tuple[pd.DataFrame, dict]:
    """The grid and the advice for a target, from :func:`advice_runs`. Each pair's success share
    comes with a Clopper–Pearson interval at ``confidence``. A pair *meets* the target when the
    simulated probability reaches ``p`` and meets it *surely* when the interval's lower end
    does. Returns the grid and ``{sentence, size, units, fractions, best_fraction, p, low, high,
    sure}`` for the smallest test size that meets the target (None values when none does)."""
    check_target(target, p)
    rows = []
    for size, shs in runs:
        for sh in shs:
            hits = sh.winner_holds().sum() if target == "winner" else float((sh.tau() >= tau).sum())
            # every split enumerated: the probability is exact, no interval
            lo, hi = (hits / sh.splits,) * 2 if sh.exact else binomial_interval(hits, sh.splits, confidence)
            rows.append({"size": size, "units": sh.n_units, "fraction": sh.fraction, "splits": sh.splits,
                         "exact": sh.exact, "p": hits / sh.splits, "low": lo, "high": hi})
    grid = pd.DataFrame(rows)
    grid["meets"] = grid["p"] >= p
    grid["sure"] = grid["low"] >= p
    rec: dict = {"target": target, "probability": float(p), "tau": float(tau), "confidence": float(confidence),
                 "unit": unit, "tried_units": sorted({int(u) for u in grid["units"]})}
    ok = grid[grid["meets"]]
    if ok.empty:
        best = grid.sort_values(["p", "size"], ascending=[False, True]).iloc[0]
        rec.update({"size": None, "units": int(best["units"]), "fractions": [], "grid_fractions": [],
                    "best_fraction": float(best["fraction"]), "p": float(best["p"]), "low": float(best["low"]),
                    "high": float(best["high"]), "exact": bool(best["exact"]), "sure": False})
    else:
        size = float(ok["size"].min())
        here = ok[ok["size"] == size]
        best = here.sort_values(["p", "fraction"], ascending=[False, True]).iloc[0]
        rec.update({"size": size, "units": int(best["units"]), "fractions": [float(f) for f in here["fraction"]],
                    "grid_fractions": [float(f) for f in grid.loc[grid["size"] == size, "fraction"]],
                    "best_fraction": float(best["fraction"]), "p": float(best["p"]), "low": float(best["low"]),
                    "high": float(best["high"]), "exact": bool(best["exact"]), "sure": bool(here["sure"].any())})
    return grid, {"sentence": claims.advice(rec), **rec}  # the sentence, from this very record
