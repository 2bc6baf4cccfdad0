"""How much will the leaderboard shake up between its public and private parts? For any family.

A competition scores submissions on a **public** share ``f`` of the test units during the
competition and on the **private** rest at the end. Here each split is drawn at random,
stratified by the family's cell (demographic group, theme, split): in a cell of ``n_g`` units,
``k_g = round(f · n_g)`` units go public — at least one and at most ``n_g − 1``, so both boards
see every cell. Cells of one unit are pooled into one stratum when there are several; a lone
one goes public with probability ``f``. A split is a 0/1 weight vector over the units, so the
public sums of many splits are one matrix product per cell (as :meth:`UnitStats.cell_sums`, on
the units sorted by cell once) and the private sums are the full sums minus the public ones; the family's ``score`` then recomputes everything from those sums on each part — the
Shovel-Ready efficiency boost against that part's best score, QA's time penalty from that
part's mean inference time.

When the requested number of splits is at least the number of distinct stratified splits, all
of them are enumerated instead (each equally likely): the probabilities are then exact.

Seeds follow the bootstrap's rules (a whole number ≥ 0; the same seed, the same splits). The
uniform numbers that order each cell's units are the same for every fraction of one seed, so
the splits of a sweep are nested (the public part at 10 % lies inside the one at 20 %): the
curves across ``f`` differ by ``f``, not by fresh noise.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .errors import InputError, parameter_error
from .family import UnitStats
from .limits import check_fields
from .robustness import chunk_size

Progress = Callable[[int, int, str], None]
#: the public fractions of a sweep: 5 %, 10 %, …, 95 %
FRACTIONS = tuple(round(0.05 * i, 2) for i in range(1, 20))
TOP_K = (1, 3, 5, 10)
_BLOCK = 256  # rows of uniform numbers drawn at a time (fixed: the draws never depend on a chunk size)


def check_shakeup(fraction, splits, seed) -> tuple[float, int, int]:
    """A public fraction in [0.05, 0.95], 1 to 100,000 splits, a seed ≥ 0 (as the bootstrap's)."""
    try:
        f = float(fraction)
    except (TypeError, ValueError):
        raise parameter_error("fraction", "a number in [0.05, 0.95]", fraction) from None
    if not 0.05 - 1e-9 <= f <= 0.95 + 1e-9:
        raise parameter_error("fraction", "a number in [0.05, 0.95]", fraction)
    ok = (isinstance(splits, (int, np.integer)) and not isinstance(splits, bool)) or \
        (isinstance(splits, str) and splits.strip().isascii() and splits.strip().isdigit())
    if not ok or not 1 <= int(splits) <= 100_000:
        raise parameter_error("splits", "a whole number of splits in [1, 100000]", splits)
    try:
        s = int(seed)
    except (TypeError, ValueError):
        raise parameter_error("seed", "a whole number >= 0", seed) from None
    if s < 0 or (isinstance(seed, float) and seed != s):
        raise parameter_error("seed", "a whole number >= 0", seed)
    return f, int(splits), s


def _round(x: float) -> int:
    return int(math.floor(x + 0.5 + 1e-9))  # half up, 0.35 × 10 -> 4 despite 0.35's binary value


def strata(cell: np.ndarray) -> np.ndarray:
    """The strata of the splits: the cells, except that cells of one unit are pooled into one
    stratum when there are several (one public-or-private coin per one-unit cell could leave a
    board empty; pooled, they are split like any other cell).

    >>> strata(np.array([0, 0, 1, 2, 3, 3])).tolist()
    [0, 0, 2, 2, 1, 1]
    """
    cell = np.asarray(cell, dtype=np.int64)
    n = np.bincount(cell)
    single = n == 1
    if single.sum() < 2:
        return cell
    code = np.cumsum(~single) - 1  # the cells of two or more units, renumbered in order
    code[single] = int((~single).sum())  # then the pool
    return code[cell]


def part_sizes(cell: np.ndarray, fraction: float, size: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """Per cell: units in the test set ``m_g`` (``round(size · n_g)``, at least 2 where the cell
    has 2) and public units ``k_g`` (``round(f · m_g)`` within ``[1, m_g − 1]``; -1 for a cell
    of one test unit, which goes public with probability ``f``).

    >>> m, k = part_sizes(np.array([0] * 10 + [1] * 3 + [2]), 0.3)
    >>> m.tolist(), k.tolist()
    ([10, 3, 1], [3, 1, -1])
    """
    n = np.bincount(np.asarray(cell, dtype=np.int64))
    m = np.array([min(g, max(min(2, g), _round(size * g))) for g in n], dtype=np.int64)
    k = np.array([-1 if mg == 1 else min(mg - 1, max(1, _round(fraction * mg))) if mg else 0 for mg in m],
                 dtype=np.int64)
    return m, k


def split_masks(cell: np.ndarray, fraction: float, n: int, *, seed: int = 0, size: float = 1.0
                ) -> tuple[np.ndarray, np.ndarray | None]:
    """``n`` random stratified splits: ``(public, test)``, each (n × units) bool; ``test`` is
    None when every unit is in the test set (``size`` = 1), else the subsample that is split.

    >>> pub, test = split_masks(np.array([0, 0, 0, 0, 1, 1]), 0.5, 3, seed=1)
    >>> test is None, pub[:, :4].sum(axis=1).tolist(), pub[:, 4:].sum(axis=1).tolist()
    (True, [2, 2, 2], [1, 1, 1])
    """
    cell = strata(cell)
    if len(cell) < 2:
        raise InputError("units", None, f"expected at least 2 scoring units to split, got {len(cell)}")
    m, k = part_sizes(cell, fraction, size)
    public = np.zeros((n, len(cell)), dtype=bool)
    test = None if size >= 1 else np.zeros((n, len(cell)), dtype=bool)
    for rows, g, idx, u in uniform_draws(cell, len(m), n, seed=seed):
        if k[g] < 0:  # one unit in the test set: public with probability f
            public[rows, idx] = u[:, :1] < fraction
            if test is not None:
                test[rows, idx] = True
            continue
        public[rows, idx] = _smallest(u, int(k[g]))
        if test is not None:
            test[rows, idx] = _smallest(u, int(m[g]))
    return public, test


def uniform_draws(strata_: np.ndarray, n_strata: int, n: int, *, seed: int = 0):
    """The uniform numbers that order each stratum's units, ``_BLOCK`` splits at a time:
    ``(rows, stratum, unit positions, u (rows × units))``. Every split drawer reads them in this
    one order, so the same seed gives the same splits at every fraction (a sweep is nested)."""
    rng = np.random.default_rng(seed)
    groups = [np.flatnonzero(strata_ == g) for g in range(n_strata)]
    for a in range(0, n, _BLOCK):
        rows = slice(a, min(n, a + _BLOCK))
        for g, idx in enumerate(groups):
            if len(idx):
                yield rows, g, idx, rng.random((rows.stop - rows.start, len(idx)))


def _smallest(u: np.ndarray, k: int) -> np.ndarray:
    """(rows × n) bool: each row's ``k`` smallest values (a uniform random subset of size k).
    A partition, not a sort; a row with a tie at its k-th value (float64 draws: about one row
    in 10^8) is settled by its stable order."""
    n = u.shape[1]
    if k <= 0 or k >= n:
        return np.full(u.shape, k >= n)
    kth = np.partition(u, k - 1, axis=1)[:, k - 1:k]
    out = u <= kth
    for r in np.flatnonzero(out.sum(axis=1) != k):
        out[r] = False
        out[r, np.argsort(u[r], kind="stable")[:k]] = True
    return out


def n_splits(cell: np.ndarray, fraction: float, *, at_most: int | None = None) -> int | None:
    """How many distinct stratified splits there are (None when a cell of one unit makes the
    split sizes random); with ``at_most``, any count above it may come back as ``at_most + 1``
    (found from the logarithms, without multiplying the huge exact counts).

    >>> n_splits(np.array([0, 0, 0, 0, 1, 1]), 0.5), n_splits(np.zeros(1000), 0.3, at_most=1000)
    (12, 1001)
    """
    m, k = part_sizes(strata(cell), fraction)
    if (k < 0).any():
        return None
    if at_most is not None:
        log = sum(math.lgamma(a + 1) - math.lgamma(b + 1) - math.lgamma(a - b + 1) for a, b in zip(m, k, strict=True))
        if log > math.log(max(at_most, 1)) + 1e-6:
            return at_most + 1
    return math.prod(math.comb(int(a), int(b)) for a, b in zip(m, k, strict=True))


def every_split(cell: np.ndarray, fraction: float) -> np.ndarray:
    """Every distinct stratified split (count × units, bool), each equally likely.

    >>> every_split(np.array([0, 0, 1, 1]), 0.5).astype(int).tolist()
    [[1, 0, 1, 0], [1, 0, 0, 1], [0, 1, 1, 0], [0, 1, 0, 1]]
    """
    cell = strata(cell)
    _, k = part_sizes(cell, fraction)
    groups = [np.flatnonzero(cell == g) for g in range(len(k))]
    per_cell = [list(itertools.combinations(idx.tolist(), int(k[g]))) for g, idx in enumerate(groups) if len(idx)]
    rows = []
    for combo in itertools.product(*per_cell):
        row = np.zeros(len(cell), dtype=bool)
        for picked in combo:
            row[list(picked)] = True
        rows.append(row)
    return np.array(rows, dtype=bool).reshape(len(rows), len(cell))


def kendall_tau_rows(a, b) -> np.ndarray:
    """Kendall's τ-b of each row pair of two (rankings × teams) matrices (ties allowed, as
    ``scipy.stats.kendalltau``); NaN where a row is constant.

    >>> kendall_tau_rows([[1, 2, 3], [1, 1, 2]], [[1, 2, 3], [1, 2, 3]]).round(4).tolist()
    [1.0, 0.8165]
    """
    a, b = np.atleast_2d(np.asarray(a, dtype=float)), np.atleast_2d(np.asarray(b, dtype=float))
    i, j = np.triu_indices(a.shape[1], 1)
    n0 = len(i)
    out = np.full(a.shape[0], np.nan)
    step = max(1, (1 << 22) // max(n0, 1))
    for s in range(0, a.shape[0], step):
        r = slice(s, s + step)
        da, db = np.sign(a[r][:, i] - a[r][:, j]), np.sign(b[r][:, i] - b[r][:, j])
        num = (da * db).sum(axis=1)
        den = np.sqrt((n0 - (da == 0).sum(axis=1)) * (n0 - (db == 0).sum(axis=1)).astype(float))
        with np.errstate(invalid="ignore", divide="ignore"):
            out[r] = np.where(den > 0, num / np.where(den > 0, den, 1), np.nan)
    return out


class _Sums:
    """Cell sums of 0/1 weight rows: the units sorted by cell once, so that each cell's
    product runs on a contiguous block of the statistics (``UnitStats.cell_sums`` gathers the
    cell's rows afresh on every call: a copy of every statistic per chunk)."""

    def __init__(self, us: UnitStats):
        self.order = np.argsort(us.cell, kind="stable")
        u, t, k = us.team.shape
        self.shape = (t, k)
        self.team = np.ascontiguousarray(us.team.reshape(u, t * k)[self.order])
        self.shared = np.ascontiguousarray(us.shared[self.order])
        self.bounds = np.searchsorted(us.cell[self.order], np.arange(us.n_cells + 1))
        self.full = self(np.ones((1, u), dtype=bool))

    def __call__(self, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        w = mask[:, self.order].astype(float)
        b, g = len(w), len(self.bounds) - 1
        team = np.zeros((b, g, self.team.shape[1]))
        shared = np.zeros((b, g, self.shared.shape[1]))
        for c in range(g):
            lo, hi = self.bounds[c], self.bounds[c + 1]
            if hi > lo:
                team[:, c] = w[:, lo:hi] @ self.team[lo:hi]
                shared[:, c] = w[:, lo:hi] @ self.shared[lo:hi]
        return team.reshape(b, g, *self.shape), shared


def boards(us: UnitStats, public: np.ndarray, test: np.ndarray | None = None, *, chunk: int = 250,
           progress: Progress | None = None, done: int = 0, total: int | None = None
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Final scores and ranks of the public and private boards of each split: ``(public score,
    private score, public rank, private rank)``, each (splits × teams). The private part is
    the test set (every unit, or ``test``) minus the public part."""
    n = len(public)
    total = n if total is None else total
    chunk = chunk_size(us, chunk)  # the bootstrap's memory budget: many cells × teams, fewer splits a chunk
    sums = _Sums(us)
    full_t, full_s = sums.full
    out: list[list[np.ndarray]] = [[], [], [], []]
    for a in range(0, n, chunk):
        pt, ps = sums(public[a:a + chunk])
        if test is None:
            qt, qs = full_t - pt, full_s - ps
        else:
            tt, ts = sums(test[a:a + chunk])
            qt, qs = tt - pt, ts - ps
        for pos, (t, s) in enumerate(((pt, ps), (qt, qs))):
            sc = us.score(t, s)
            out[pos].append(np.asarray(sc[us.final], dtype=float))
            out[pos + 2].append(us.final_ranks(sc))
        if progress is not None:
            progress(done + min(n, a + chunk), total, "")
    return tuple(np.concatenate(x) for x in out)  # type: ignore[return-value]


@dataclass
class Shakeup:
    """The public and private boards of many splits at one public fraction (module doc)."""

    fraction: float
    seed: int
    exact: bool  # every distinct split enumerated (the probabilities are exact)
    names: list[str]
    rank: np.ndarray  # (teams) final ranks on all the units
    public_score: np.ndarray  # (splits × teams)
    private_score: np.ndarray
    public_rank: np.ndarray
    private_rank: np.ndarray
    n_public: float  # public units per split (mean, when a one-unit cell makes it vary)
    n_units: int  # units in the test set
    unit: str = "unit"
    higher_is_better: bool = True

    @property
    def splits(self) -> int:
        return len(self.public_rank)

    @property
    def n_teams(self) -> int:
        return len(self.names)

    def winner_holds(self) -> np.ndarray:
        """Per split: the share of the public leaders (rank 1; usually one team) that are first
        on the private board."""
        lead = self.public_rank == 1
        return (lead & (self.private_rank == 1)).sum(axis=1) / np.maximum(lead.sum(axis=1), 1)

    def p_winner(self) -> float:
        """P(the public winner wins the private board)."""
        return float(self.winner_holds().mean())

    def tau(self) -> np.ndarray:
        """Kendall's τ-b between the public and private ranks, one per split."""
        return kendall_tau_rows(self.public_rank, self.private_rank)

    def p_top(self, k: int) -> float:
        """P(the teams ranked ≤ k publicly are exactly those ranked ≤ k privately)."""
        return float(((self.public_rank <= k) == (self.private_rank <= k)).all(axis=1).mean())

    def joint(self, team: int) -> np.ndarray:
        """(ranks × ranks) P(public rank = r + 1 and private rank = s + 1) of one team."""
        t = self.n_teams
        idx = (self.public_rank[:, team] - 1) * t + self.private_rank[:, team] - 1
        return np.bincount(idx, minlength=t * t).reshape(t, t) / self.splits

    def rank_shares(self, which: str = "private") -> np.ndarray:
        """(teams × ranks) P(rank = r + 1) on the public or the private board."""
        r = self.public_rank if which == "public" else self.private_rank
        t = self.n_teams
        return np.stack([np.bincount(r[:, j] - 1, minlength=t)[:t] for j in range(t)]) / self.splits

    def team_table(self) -> pd.DataFrame:
        """One row per team (by its rank on all the units): the mean public and private rank,
        P(private rank = public rank), the expected |move|, P(first) on each board."""
        move = np.abs(self.private_rank - self.public_rank)
        df = pd.DataFrame({
            "submission": self.names, "rank": self.rank,
            "public_rank_mean": self.public_rank.mean(axis=0), "private_rank_mean": self.private_rank.mean(axis=0),
            "p_same_rank": (move == 0).mean(axis=0), "mean_move": move.mean(axis=0),
            "p_public_first": (self.public_rank == 1).mean(axis=0),
            "p_private_first": (self.private_rank == 1).mean(axis=0),
        })
        return df.sort_values(["rank", "submission"], kind="stable").reset_index(drop=True)

    def summary(self, ks: Sequence[int] = TOP_K) -> dict:
        """The field's numbers: P(winner holds), τ's mean and quantiles, P(top-k equal)."""
        tau = self.tau()
        ok = tau[~np.isnan(tau)]
        q = np.quantile(ok, [0.05, 0.5, 0.95]).tolist() if len(ok) else [math.nan] * 3
        return {"public_fraction": self.fraction, "splits": self.splits, "seed": self.seed, "exact": self.exact,
                "units": self.n_units, "public_units": self.n_public, "teams": self.n_teams,
                "p_winner_holds": self.p_winner(),
                "tau_mean": float(ok.mean()) if len(ok) else math.nan,
                "tau_q05": q[0], "tau_median": q[1], "tau_q95": q[2],
                "mean_move": float(np.abs(self.private_rank - self.public_rank).mean()),
                "p_top_k_equal": {str(k): self.p_top(k) for k in ks if k < self.n_teams}}

    def sentence(self) -> str:
        """The plain one-line answer: "With a 30% public split, the public leader wins the
        final board 71% of the time" (and over what): ``scoring.claims.shakeup.headline``."""
        from ..claims.shakeup import headline

        return headline(self)


def shakeup(us: UnitStats, fraction: float = 0.3, splits: int = 1000, *, seed: int = 0, size: float = 1.0,
            exhaustive: bool | None = None, unit: str = "unit", chunk: int = 250, progress: Progress | None = None,
            done: int = 0, total: int | None = None) -> Shakeup:
    """Public and private boards of ``splits`` stratified splits at the public ``fraction``;
    ``size`` < 1 first subsamples the test set (per cell) to that share of the units.
    ``exhaustive``: None — every distinct split, exactly, when there are no more than
    ``splits`` of them; False — always random draws."""
    fraction, splits, seed = check_shakeup(fraction, splits, seed)
    check_fields("splits", 2 * splits, us.cost)  # a public and a private board per split
    count = n_splits(us.cell, fraction, at_most=splits) if size >= 1 and exhaustive is not False else None
    exact = count is not None and count <= splits
    if exact:
        public, test = every_split(us.cell, fraction), None
    else:
        public, test = split_masks(us.cell, fraction, splits, seed=seed, size=size)
    ps, qs, pr, qr = boards(us, public, test, chunk=chunk, progress=progress, done=done, total=total)
    full = us.scores()
    n_units = int(test[0].sum()) if test is not None else us.n_units
    return Shakeup(fraction=fraction, seed=seed, exact=exact,
                   names=list(us.names) or [str(i) for i in range(us.team.shape[1])], rank=us.final_ranks(full),
                   public_score=ps, private_score=qs, public_rank=pr, private_rank=qr,
                   n_public=float(public.sum(axis=1).mean()), n_units=n_units, unit=unit,
                   higher_is_better=us.higher_is_better)


def binomial_interval(successes, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Clopper–Pearson interval of a proportion from ``successes`` of ``n`` trials (a fractional
    count — a split shared by tied leaders — is taken as is).

    >>> [round(x, 4) for x in binomial_interval(7, 10)]
    [0.3475, 0.9333]
    """
    from scipy.special import betaincinv  # the beta quantile (scipy.stats takes seconds to import)

    x, a = float(successes), (1 - confidence) / 2
    lo = 0.0 if x <= 0 else float(betaincinv(x, n - x + 1, a))
    hi = 1.0 if x >= n else float(betaincinv(x + 1, n - x, 1 - a))
    return lo, hi
