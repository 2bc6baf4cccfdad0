"""How sure is a ranking? Bootstrap intervals, rank sets, letters and leave-one-team-out, for any family.

Everything stands on the family's :class:`~scoring.core.family.UnitStats`: a bootstrap
replicate resamples the scoring units with replacement — within each cell (demographic group,
theme, split), so every cell keeps its size — and is a weighted sum of the units' statistics,
so all ``B`` replicates are one (B × units) @ (units × statistics) product per cell, not B
re-runs of the scorer.

For every team: a percentile interval of its final score over the replicates, and, from the
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
from .pairwise import Progress
from .ranksets import rank_sets

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


def bootstrap(us: UnitStats, *, b: int = 1000, seed: int = 0, confidence: float = 0.95,
              chunk: int = 250, progress: Progress | None = None) -> pd.DataFrame:
    """Every team's percentile score interval, rank sets, letters and whether it could have won.

    Returns a frame indexed by team name with ``score``, ``rank`` (on the full data),
    ``score_low, score_high`` (``confidence`` is the central share: 0.95, the 2.5th to 97.5th
    percentiles of the replicate scores), ``rank_low, rank_high`` (the marginal rank set),
    ``rank_low_all, rank_high_all`` (simultaneous), ``letters`` and ``could_win``
    (``rank_low_all = 1``): see :mod:`scoring.core.ranksets`; ``close_calls``: per team, the
    teams it shares a letter with although it is ``T_CLOSE`` (2) or more paired standard errors
    ahead of them, as ``(team, t)`` (what a family's guardrail checks: ``letter_warnings``).
    Replicates are computed
    ``chunk`` at a time, so memory stays near ``chunk`` × units.
    """
    b, seed, confidence = check_bootstrap(b, seed, confidence)
    check_fields("bootstrap", b, us.cost)
    weights = resample_counts(us.cell, b, seed=seed)
    chunk = chunk_size(us, chunk)
    final = np.concatenate([np.asarray(us.scores(weights[a:a + chunk])[us.final], dtype=float)
                            for a in range(0, b, chunk)])
    q = [(1 - confidence) / 2 * 100, (1 + confidence) / 2 * 100]
    s_lo, s_hi = np.nanpercentile(final, q, axis=0)
    full = us.scores()
    score, ranks = np.asarray(full[us.final], dtype=float), us.final_ranks(full)
    rs = rank_sets(score, final, higher_is_better=us.higher_is_better, confidence=confidence, ranks=ranks,
                   progress=progress)
    names = list(us.names) or [str(i) for i in range(final.shape[1])]
    close: list[list[tuple[str, float]]] = [[] for _ in names]
    for (better, worse), t in zip(rs.close.tolist(), rs.close_t.tolist(), strict=True):
        close[better].append((names[worse], round(t, 4)))
    return pd.DataFrame({
        "score": score, "rank": ranks, "score_low": s_lo, "score_high": s_hi,
        "rank_low": rs.rank_low, "rank_high": rs.rank_high, "letters": rs.letters,
        "could_win": rs.rank_low_all == 1, "rank_low_all": rs.rank_low_all, "rank_high_all": rs.rank_high_all,
        "close_calls": close,
    }, index=pd.Index(names, name="submission"))


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
