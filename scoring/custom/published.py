"""This recipe's leaderboard beside each published aggregate of the results table.

A published column named ``Rank`` or ``#`` is a rank: 1 is the best, and it is compared with
this recipe's rank as a rank. Any other published column (``Mean win rate``, ``Average``,
``Score``) is a score, higher is better; where this recipe computes a score on the published
column's scale, the two are compared number by number, and the difference is said to come from
rounding only where a computed bound covers it:

- a mean (or weighted mean) of the raw values, grouped by plain or size-weighted means or not
  at all, no efficiency stage: each cell shown to ``d`` decimals is off by at most
  ``0.5·10^-d``, so a weighted mean of them is off by at most the largest of those over the
  team's cells;
- HELM's mean win rate (the across rule ``winrate``, or per-unit win rates averaged), units not
  grouped, no efficiency stage: rounding keeps every strict order (``a < b`` ⇒ ``round(a) ≤
  round(b)``), so only a tie of the rounded cells can hide a win or a loss, each worth ½ of
  ``1/(teams present − 1)`` in that unit, averaged over the team's units
  (``tests/custom/test_real.py`` checks HELM Lite against the same bound);

plus half a unit of the published value's own last digit. Elsewhere (min–max or z-score
values, softmin, worst, Borda, Copeland, Kemeny–Young, an efficiency stage) the scales differ,
and only the ranks are compared.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..core.ranking import rank
from .params import NONE

#: published columns that are ranks (lower is better), by name (case ignored)
RANK_NAMES = ("rank", "#")


@dataclass(frozen=True)
class Published:
    """One published column beside this recipe's leaderboard (rows in the leaderboard's order).

    ``kind``: ``"rank"`` or ``"score"``; ``published_rank``: the rank the published column gives
    each team among the teams here (NaN without a value); ``moved``: teams with a published
    value whose rank here differs; ``compared``: teams with a published value; for a score on
    this recipe's scale, ``gap`` (|final score − published| per team) and ``bound`` (what the
    rounding of the digits shown allows, per team); else both None.
    """

    column: str
    kind: str
    teams: list[str]
    values: np.ndarray
    rank: np.ndarray
    published_rank: np.ndarray
    gap: np.ndarray | None
    bound: np.ndarray | None

    @property
    def compared(self) -> int:
        return int(np.isfinite(self.values).sum())

    @property
    def moved(self) -> int:
        ok = np.isfinite(self.values)
        return int((self.rank[ok] != self.published_rank[ok]).sum())

    @property
    def outside(self) -> int:
        """Teams whose difference exceeds what rounding allows (0 when not compared by number)."""
        if self.gap is None:
            return 0
        ok = np.isfinite(self.gap)
        return int((self.gap[ok] > self.bound[ok] + 1e-12).sum())

    def document(self) -> dict:
        """The comparison's numbers for the JSON (and the sentence: ``scoring.claims.custom``)."""
        from ..claims.custom import published as sentence

        def seq(a):
            return None if a is None else [None if not np.isfinite(x) else float(x) for x in a]

        return {"column": self.column, "kind": self.kind, "compared": self.compared, "moved": self.moved,
                "outside_rounding": self.outside if self.gap is not None else None,
                "published_rank": seq(self.published_rank), "gap": seq(self.gap), "bound": seq(self.bound),
                "sentence": sentence(self)}


def half_units(digits: np.ndarray) -> np.ndarray:
    """Half a unit of the last digit shown: 3 decimals → 0.0005 (NaN where nothing is shown)."""
    d = np.asarray(digits, dtype=float)
    return np.where(d >= 0, 0.5 * 10.0 ** -np.where(d >= 0, d, 0), np.nan)


def _tie_allowance(x: np.ndarray) -> np.ndarray:
    """Per team: the mean over its units of ½·(other teams tied with it)/(teams present − 1),
    unit by unit (sorted values: no teams × teams array)."""
    n_t, n_u = x.shape
    total, cnt = np.zeros(n_t), np.zeros(n_t)
    for j in range(n_u):
        ok = np.flatnonzero(~np.isnan(x[:, j]))
        if len(ok) < 2:
            continue
        _, inv, counts = np.unique(x[ok, j], return_inverse=True, return_counts=True)
        total[ok] += 0.5 * (counts[inv] - 1) / (len(ok) - 1)
        cnt[ok] += 1
    return np.where(cnt > 0, total / np.maximum(cnt, 1), np.nan)


def rounding_bound(scorer, p: dict) -> np.ndarray | None:
    """Per team (the results' order): how far this recipe's final score can sit from the same
    computation on unrounded cells, or None where the recipe is on another scale (module doc)."""
    res = scorer.comp.results
    if p["efficiency"] != "none" and scorer.comp.runtime is not None:
        return None
    grouped = p["group_by"] != NONE
    if grouped and p["within"] not in ("mean", "size"):
        return None
    if res.digits is None:
        return None
    h = np.where(np.isnan(res.values), np.nan, half_units(res.digits))
    mean_like = p["across"] in ("mean", "weighted")
    if mean_like and p["normalise"] == "none":
        with np.errstate(all="ignore"):
            return np.nanmax(np.where(np.isnan(h), -np.inf, h), axis=1, initial=-np.inf).clip(min=0.0)
    if not grouped and (p["across"] == "winrate" or (mean_like and p["normalise"] == "rank")):
        x = scorer.unit_values(missing=p["missing"], missing_value=p["missing_value"], normalise="none")
        return _tie_allowance(x)
    return None


def reads_as_rank(res, column: str) -> bool:
    """Whether the published ``column`` is a rank (1 is the best): as the loader read it
    (``scoring.custom.columns``: by name, or the recipe's ``rank_columns``), else by its name."""
    kind = res.published_kind.get(column)
    return kind == "rank" if kind else column.strip().lower() in RANK_NAMES


def comparisons(scorer, lb: pd.DataFrame, p: dict) -> list[Published]:
    """Every published column beside the leaderboard ``lb`` (this scorer's, at ``p``)."""
    res = scorer.comp.results
    if not res.published:
        return []
    at = {t: i for i, t in enumerate(res.teams)}
    order = np.array([at[str(t)] for t in lb["submission"]], dtype=np.int64)
    ours = lb["rank"].to_numpy(dtype=np.int64)
    final = lb["final_score"].to_numpy(dtype=float)
    bound = rounding_bound(scorer, p)
    out = []
    for column, values in res.published.items():
        v = np.asarray(values, dtype=float)[order]
        is_rank = reads_as_rank(res, column)
        ok = np.isfinite(v)
        theirs = np.full(len(v), np.nan)
        if ok.any():
            theirs[ok] = rank(v[ok], higher_is_better=not is_rank)
        gap = b = None
        if not is_rank and bound is not None:
            gap = np.where(ok, np.abs(final - v), np.nan)
            shown = res.published_digits.get(column)
            own = half_units(shown[order]) if shown is not None else np.full(len(v), np.nan)
            b = np.where(ok, bound[order] + np.nan_to_num(own, nan=0.0), np.nan)
        out.append(Published(column, "rank" if is_rank else "score", [str(t) for t in lb["submission"]], v, ours,
                             theirs, gap, b))
    return out


def table(pubs: list[Published], lb: pd.DataFrame) -> pd.DataFrame:
    """The page's table: team and rank, the rank each published column gives (the ranks first:
    what the page compares, in view at 1024 pixels), then the final score and per published
    column its value (and, compared by number, the difference and the rounding bound)."""
    out = pd.DataFrame({"Team": lb["submission"].astype(str).to_numpy(), "Rank": lb["rank"].to_numpy()})
    for pb in pubs:
        out[f"Published {pb.column} · rank"] = pd.array(
            [pd.NA if not np.isfinite(x) else int(x) for x in pb.published_rank], dtype="Int64")
    out["Final score"] = lb["final_score"].to_numpy()
    for pb in pubs:
        out[f"Published {pb.column}"] = pb.values
        if pb.gap is not None:
            out[f"|Difference| from {pb.column}"] = pb.gap
            out[f"Rounding allows ({pb.column})"] = pb.bound
    return out
