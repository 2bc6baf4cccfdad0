"""How sure is a ranking? Bootstrap intervals, rank sets, letters and leave-one-team-out, for any family.

Everything stands on the family's :class:`~scoring.core.family.UnitStats`: a bootstrap
replicate resamples the scoring units with replacement — within each cell (demographic group,
theme, split), so every cell keeps its size — and is a weighted sum of the units' statistics,
so all ``B`` replicates are one (B × units) @ (units × statistics) product per cell, not B
re-runs of the scorer.

For every team: an interval of its final score — the central share of its replicate scores
(percentile), or, where the family declares the final score a function of one stage
(:class:`~scoring.core.family.Box`: Shovel-Ready's softmin of the group scores), the range of
that function over a joint interval of the stage (:func:`joint_band`) — and, from the
paired differences of the replicates (:mod:`scoring.core.ranksets`), its confidence set of
ranks (marginal: ``rank_low``, ``rank_high``; simultaneous: ``rank_low_all``,
``rank_high_all``), whether it could have won (``could_win``) and its ``letters``: two teams
sharing a letter are not distinguishable at the chosen confidence.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

import numpy as np
import pandas as pd

from .errors import parameter_error
from .family import UnitStats
from .limits import check_fields
from .pairwise import Progress, paired
from .ranksets import rank_sets

#: what a percentile score interval is, with ``{pct}`` for the confidence (``iv.attrs["score_interval"]``)
PERCENTILE_WORDS = "the central {pct} of the team's scores over the replicates"
#: the columns a leaderboard gains with ``--bootstrap``; ``SIMULTANEOUS_COLUMNS`` with ``--simultaneous``
INTERVAL_COLUMNS = ["score_low", "score_high", "rank_low", "rank_high", "letters", "could_win"]
SIMULTANEOUS_COLUMNS = ["rank_low_all", "rank_high_all"]


def check_bootstrap(b, seed, confidence) -> tuple[int, int, float]:
    """``B`` ≥ 1 replicates (at most 100,000), a seed ≥ 0, a confidence in (0, 1)."""
    ok = (isinstance(b, (int, np.integer)) and not isinstance(b, bool)) or (isinstance(b, str) and b.strip().isascii() and b.strip().isdigit())
    if not ok or not 1 <= int(b) <= 100_000:
        raise parameter_error("bootstrap", "a whole number of replicates in [1, 100000]", b)
    b_ = int(b)
    try:
        s = int(seed)
    except (TypeError, ValueError):
        raise parameter_error("seed", "a whole number >= 0", seed) from None
    if s < 0:
        raise parameter_error("seed", "a whole number >= 0", seed)
    try:
        c = float(confidence)
    except (TypeError, ValueError):
        raise parameter_error("confidence", "a number in (0, 1)", confidence) from None
    if not 0 < c < 1:
        raise parameter_error("confidence", "a number in (0, 1)", confidence)
    return b_, s, c


def resample_counts(cell: np.ndarray, b: int, *, seed: int = 0) -> np.ndarray:
    """(B × units) counts: how often each unit is drawn in each replicate, drawing each cell's
    ``n_g`` units with replacement from that cell (so every cell keeps its size).

    >>> w = resample_counts(np.array([0, 0, 1, 1, 1]), 4, seed=1)
    >>> w.shape, w[:, :2].sum(axis=1).astype(int).tolist(), w[:, 2:].sum(axis=1).astype(int).tolist()
    ((4, 5), [2, 2, 2, 2], [3, 3, 3, 3])
    """
    cell = np.asarray(cell, dtype=np.int64)
    rng = np.random.default_rng(seed)
    out = np.zeros((b, len(cell)))
    # the units of each cell by one stable sort (not a scan of every unit per cell), in the
    # same cell order and unit order as ever, so a seed draws what it always drew
    order = np.argsort(cell, kind="stable")
    _, starts, sizes = np.unique(cell[order], return_index=True, return_counts=True)
    out[:, order[starts[sizes == 1]]] = 1.0  # a one-unit cell is always itself (and draws no number)
    for s, n in zip(starts[sizes > 1].tolist(), sizes[sizes > 1].tolist(), strict=True):
        idx = order[s:s + n]
        draws = rng.integers(0, n, size=(b, n))
        flat = (np.arange(b, dtype=np.int64)[:, None] * n + draws).ravel()
        out[:, idx] = np.bincount(flat, minlength=b * n).reshape(b, n)
    return out


#: the bytes one chunk of replicates may hold in cell sums (``LAB_BOOTSTRAP_CHUNK_BYTES``): a chunk
#: is at most ``chunk`` replicates and at most this budget, so thousands of cells (QA themes,
#: demographic groups) times many teams cannot multiply memory by the chunk size
CHUNK_BYTES = int(os.environ.get("LAB_BOOTSTRAP_CHUNK_BYTES", 64 << 20))
_COPIES = 4  # a family's score function holds a few arrays the size of the cell sums at once


def chunk_size(us: UnitStats, chunk: int = 250) -> int:
    """Replicates per chunk: ``chunk``, fewer when one replicate's cell sums are large.

    >>> us = UnitStats(units=["a"] * 4, cell=np.arange(4), n_cells=4, team=np.zeros((4, 3, 2)),
    ...                shared=np.zeros((4, 1)), score=lambda t, s: {}, final="x")
    >>> chunk_size(us), chunk_size(us, 10)
    (250, 10)
    """
    _, t, k = us.team.shape
    per = 8 * _COPIES * us.n_cells * (t * k + us.shared.shape[1])
    return int(max(1, min(chunk, CHUNK_BYTES // max(per, 1))))


def replicates(us: UnitStats, weights: np.ndarray, *, chunk: int = 250) -> tuple[np.ndarray, np.ndarray]:
    """Final scores and ranks (B × teams) of the replicates that ``weights`` (B × units) define."""
    finals, ranks = [], []
    chunk = chunk_size(us, chunk)
    for a in range(0, len(weights), chunk):
        sc = us.scores(weights[a:a + chunk])
        finals.append(np.asarray(sc[us.final], dtype=float))
        ranks.append(us.final_ranks(sc))
    return np.concatenate(finals), np.concatenate(ranks)


def joint_band(reps: np.ndarray, confidence: float, *, block: int = 1 << 22) -> tuple[np.ndarray, np.ndarray]:
    """Per team, one interval per column that holds all of the team's columns together in at least
    ``confidence`` of the replicates: ``reps`` (B × teams × columns) → ``(low, high)`` (teams × columns).

    A replicate's depth in a column is its two-sided rank there, ``max(p, 1 − p)`` with
    ``p = (mid-rank − ½) / B``; its depth for the team the largest over the team's columns; ``λ``
    the ``confidence`` quantile of that over the replicates. A column's interval runs from the
    smallest to the largest value whose ``p`` lies in ``[1 − λ, λ]``: so every replicate of depth
    ≤ λ lies inside all of them at once. With independent columns (cells resampled apart) each
    column gets about ``confidence ** (1 / columns)``; NaN replicates are left out of a column.

    Hand computation: 20 replicates ``0, 1, …, 19`` in one column, and in another the same in reverse:
    replicate ``i`` has the same depth in both, ``max(p, 1 − p)`` with ``p = (i + ½) / 20``: two
    replicates each of depth 0.525, 0.575, …, 0.975. At 0.9 ``λ`` is the 18th smallest depth, 0.925,
    so each column keeps ``p`` in ``[0.075, 0.925]``: the values 1 … 18, 18 replicates of 20.

    >>> r = np.arange(20.0)
    >>> lo, hi = joint_band(np.stack([r, 19 - r], axis=1)[:, None, :], 0.9)
    >>> lo.tolist(), hi.tolist()
    ([[1.0, 1.0]], [[18.0, 18.0]])
    """
    r = np.asarray(reps, dtype=float)
    b, k, g = r.shape
    low, high = np.full((k, g), np.nan), np.full((k, g), np.nan)
    from scipy.stats import rankdata  # on first use: scipy.stats takes over half a second to import

    step = max(1, block // max(1, b * g))
    for a in range(0, k, step):
        x = r[:, a:a + step]
        fin = np.isfinite(x)
        m = fin.sum(axis=0)  # finite replicates per column
        ranks = rankdata(np.where(fin, x, np.inf), axis=0, method="average")  # NaN ranked last, unused
        p = (ranks - 0.5) / np.maximum(m, 1)
        d = np.where(fin, np.maximum(p, 1 - p), 0.0)
        lam = np.quantile(d.max(axis=2), confidence, axis=0, method="inverted_cdf")[None, :, None]
        keep = fin & (d <= lam + 1e-12)
        lo = np.min(x, axis=0, where=keep, initial=np.inf)
        hi = np.max(x, axis=0, where=keep, initial=-np.inf)
        low[a:a + step] = np.where(keep.any(axis=0), lo, np.nan)
        high[a:a + step] = np.where(keep.any(axis=0), hi, np.nan)
    return low, high


def bootstrap(us: UnitStats, *, b: int = 1000, seed: int = 0, confidence: float = 0.95,
              chunk: int = 250, progress: Progress | None = None) -> pd.DataFrame:
    """Every team's score interval, rank sets, letters and whether it could have won.

    Returns a frame indexed by team name with ``score``, ``rank`` (on the full data),
    ``score_low, score_high`` (the percentile interval: ``confidence`` is the central share, 0.95
    the 2.5th to 97.5th percentiles of the replicate scores; with ``us.box``, the range of the final
    score over the stage's :func:`joint_band`; ``attrs["score_interval"]`` says which in words, and
    ``attrs["score_interval_note"]`` what was measured where the data make it less sure: ``Box.note``),
    ``rank_low, rank_high`` (the marginal rank set),
    ``rank_low_all, rank_high_all`` (simultaneous), ``letters`` and ``could_win``
    (``rank_low_all = 1``): see :mod:`scoring.core.ranksets`; ``close_calls``: per team, the
    teams it shares a letter with although it is ``T_CLOSE`` (2) or more paired standard errors
    ahead of them — with ``us.pooled``, ``T_POOLED`` (5) or more ahead on that stage — as
    ``(team, t)`` (what a family's guardrail checks: ``letter_warnings``).
    Replicates are computed
    ``chunk`` at a time, so memory stays near ``chunk`` × units.
    """
    b, seed, confidence = check_bootstrap(b, seed, confidence)
    check_fields("bootstrap", b, us.cost)
    reps = _replicated(us, resample_counts(us.cell, b, seed=seed), chunk, (us.final, us.box and us.box.stage, us.pooled))
    final = reps[us.final]
    full = us.scores()
    check = None if us.pooled is None else paired(np.asarray(full[us.pooled], dtype=float), reps[us.pooled],
                                                  higher_is_better=us.higher_is_better).t
    score, ranks = np.asarray(full[us.final], dtype=float), us.final_ranks(full)
    s_lo, s_hi = _interval(us, reps, full, confidence)
    rs = rank_sets(score, final, higher_is_better=us.higher_is_better, confidence=confidence, ranks=ranks,
                   progress=progress, check=check)
    names = list(us.names) or [str(i) for i in range(final.shape[1])]
    close: list[list[tuple[str, float]]] = [[] for _ in names]
    for (better, worse), t in zip(rs.close.tolist(), rs.close_t.tolist(), strict=True):
        close[better].append((names[worse], round(t, 4)))
    out = pd.DataFrame({
        "score": score, "rank": ranks, "score_low": s_lo, "score_high": s_hi,
        "rank_low": rs.rank_low, "rank_high": rs.rank_high, "letters": rs.letters,
        "could_win": rs.rank_low_all == 1, "rank_low_all": rs.rank_low_all, "rank_high_all": rs.rank_high_all,
        "close_calls": close,
    }, index=pd.Index(names, name="submission"))
    out.attrs["score_interval"] = (PERCENTILE_WORDS if us.box is None else us.box.words).format(pct=f"{confidence:.0%}")
    if us.box is not None and us.box.note:
        out.attrs["score_interval_note"] = us.box.note
    return out


def _replicated(us: UnitStats, weights: np.ndarray, chunk: int, stages) -> dict[str, np.ndarray]:
    """The replicates (B × …) of the named stages (None entries skipped), ``chunk`` replicates at a time."""
    names = [x for x in dict.fromkeys(stages) if x is not None]
    parts: dict[str, list] = {x: [] for x in names}
    chunk = chunk_size(us, chunk)
    for a in range(0, len(weights), chunk):
        sc = us.scores(weights[a:a + chunk])
        for x in names:
            parts[x].append(np.asarray(sc[x], dtype=float))
    return {x: np.concatenate(v) for x, v in parts.items()}


def _interval(us: UnitStats, reps: dict[str, np.ndarray], full, confidence: float) -> tuple[np.ndarray, np.ndarray]:
    if us.box is None:
        return tuple(np.nanpercentile(reps[us.final], [(1 - confidence) / 2 * 100, (1 + confidence) / 2 * 100], axis=0))
    return us.box.range(*joint_band(reps[us.box.stage], confidence), full)


def score_interval(us: UnitStats, *, b: int = 1000, seed: int = 0, confidence: float = 0.95,
                   chunk: int = 250) -> tuple[np.ndarray, np.ndarray]:
    """Only the score intervals of :func:`bootstrap` (the same replicates for the same seed, no rank
    sets): ``(score_low, score_high)``, one per team."""
    b, seed, confidence = check_bootstrap(b, seed, confidence)
    check_fields("bootstrap", b, us.cost)
    reps = _replicated(us, resample_counts(us.cell, b, seed=seed), chunk, (us.final, us.box and us.box.stage))
    return _interval(us, reps, us.scores(), confidence)


def top_set(iv: pd.DataFrame, k: int = 1) -> list[str]:
    """The teams of :func:`bootstrap`'s frame that could be among the best ``k`` (``k = 1``: who
    could have won): those no more than ``k − 1`` teams are established better than, all
    pairs at once. It holds every team truly in the top ``k`` with probability ≥ the
    confidence; best first.

    >>> iv = pd.DataFrame({"rank": [2, 1, 3], "rank_low_all": [1, 1, 3]}, index=["a", "b", "c"])
    >>> top_set(iv, 1), top_set(iv, 3)
    (['b', 'a'], ['b', 'a', 'c'])
    """
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1:
        raise parameter_error("top_k", "a whole number >= 1", k)
    sel = iv[iv["rank_low_all"] <= k]
    return [str(t) for t in sel.sort_values("rank", kind="stable").index]


def stage_intervals(us: UnitStats, stage: str, *, b: int = 1000, seed: int = 0, confidence: float = 0.95,
                    chunk: int = 250) -> tuple[np.ndarray, np.ndarray]:
    """Percentile interval of any stage's scores: ``(low, high)``, each shaped as
    ``us.scores()[stage]`` (e.g. Shovel-Ready's ``groups``, teams × groups).

    The same stratified replicates as :func:`bootstrap` (same seed, same draws), so a group's
    interval comes from resampling that group's own units; a NaN in a replicate is skipped.
    """
    b, seed, confidence = check_bootstrap(b, seed, confidence)
    check_fields("bootstrap", b, us.cost)
    weights = resample_counts(us.cell, b, seed=seed)
    chunk = chunk_size(us, chunk)
    parts = [np.asarray(us.scores(weights[a:a + chunk])[stage], dtype=float) for a in range(0, b, chunk)]
    q = [(1 - confidence) / 2 * 100, (1 + confidence) / 2 * 100]
    low, high = np.nanpercentile(np.concatenate(parts), q, axis=0)
    return low, high


def leave_one_out(us: UnitStats) -> pd.DataFrame:
    """If team X were absent, who moves? One row per (absent team, moved team): the moved
    team's rank with everyone, its rank without X, and the places it gained beyond the one
    X's absence frees when X was above it (a move caused by X changing the others' scores,
    e.g. the eligibility band of a boost relative to the best score).

    Columns: ``absent, team, rank, rank_without, moved`` (places gained, beyond the shift).
    """
    names = list(us.names) or [str(i) for i in range(us.team.shape[1])]
    n = len(names)
    check_fields("teams", n, us.cost)
    full = us.scores()
    r_all = us.final_ranks(full)
    rows = []
    for x in range(n):
        keep = np.array([i for i in range(n) if i != x], dtype=np.int64)
        r = us.final_ranks(us.scores(teams=keep))
        for pos, i in enumerate(keep):
            expected = r_all[i] - (1 if r_all[x] < r_all[i] else 0)
            if r[pos] != expected:
                rows.append((names[x], names[i], int(r_all[i]), int(r[pos]), int(expected - r[pos])))
    return pd.DataFrame(rows, columns=["absent", "team", "rank", "rank_without", "moved"])


def interval_table(lb: pd.DataFrame, iv: pd.DataFrame, *, on: str = "submission",
                   columns: Sequence[str] = INTERVAL_COLUMNS) -> pd.DataFrame:
    """``lb`` with the interval columns of :func:`bootstrap` joined by team name."""
    extra = iv[list(columns)].rename_axis(on).reset_index()
    return lb.merge(extra, on=on, how="left", sort=False)
