"""Stability maps and configuration diffs, for any family.

A **stability map** scores the leaderboard on a grid of two parameters and, at each cell,
compares the ranking with the current one (Kendall's τ-b, 1 = the same order) and names the
winner. Cells are visited with the costly parameter (one whose change re-matches, e.g. the
overlap threshold) in the outer loop, so each costly value is computed once.

A **configuration diff** sets two parameter sets A and B side by side: each team's final
rank under both, the change, and the first stage at which its rank differs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from .errors import InputError
from .family import Family


@dataclass(frozen=True)
class Axis:
    """One axis of a map: a parameter, the values it takes, and for a ``mapping`` parameter
    (theme weights) the entry that varies."""

    param: str
    values: tuple
    key: str | None = None

    @property
    def label(self) -> str:
        return f"{self.param}[{self.key}]" if self.key else self.param


def axis(fam: Family, param: str, *, key: str | None = None, n: int = 21, values: Sequence | None = None) -> Axis:
    """An axis over ``param``'s grid values (or the given ``values``)."""
    if param not in fam.params:
        raise InputError(param, None, f"unknown parameter (known: {', '.join(fam.params.names)})")
    vals = tuple(values) if values is not None else tuple(fam.params[param].grid_values(n))
    if not vals:
        raise InputError(param, None, "expected a parameter with a range or choices to map")
    return Axis(param, vals, key)


def _with(params: Mapping[str, Any], ax: Axis, value) -> dict[str, Any]:
    out = dict(params)
    if ax.key is None:
        out[ax.param] = value
    else:
        base = dict(out.get(ax.param) or {})
        base[ax.key] = value
        out[ax.param] = base
    return out


def _ranks(fam: Family, lb: pd.DataFrame, where: Mapping[str, int]) -> np.ndarray:
    """The final ranks of ``lb`` in the order of ``where`` (team name -> position)."""
    r = np.full(len(where), np.nan)
    pos = [where.get(str(n), -1) for n in lb["submission"].to_numpy()]
    vals = lb[fam.final.rank].to_numpy(dtype=float)
    for p, v in zip(pos, vals, strict=True):
        if p >= 0:
            r[p] = v
    return r


def kendall_tau_b(a, b) -> float:
    """Kendall's τ-b of two rankings (ties allowed; ``scipy.stats.kendalltau``); NaN when either
    is constant.

    >>> kendall_tau_b([1, 2, 3], [1, 2, 3]), kendall_tau_b([1, 2, 3], [3, 2, 1]), round(kendall_tau_b([1, 1, 2], [1, 2, 3]), 4)
    (1.0, -1.0, 0.8165)
    """
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if len(a) < 2 or np.all(a == a[0]) or np.all(b == b[0]):
        return float("nan")
    from scipy.stats import kendalltau  # on first use: scipy.stats takes over half a second to import

    return float(kendalltau(a, b, variant="b").statistic)


def kendall_tau_b_rows(a, rows) -> np.ndarray:
    """Kendall's τ-b of ranking ``a`` against each row of ``rows`` at once (the same number as
    :func:`kendall_tau_b`, row by row, without its per-call overhead): (concordant − discordant
    pairs) over the square roots of the pairs not tied in each; NaN for a row (or an ``a``) that
    holds a NaN or is constant.

    >>> kendall_tau_b_rows([1, 2, 3], [[1, 2, 3], [3, 2, 1], [1, 1, 1]]).tolist()
    [1.0, -1.0, nan]
    """
    a = np.asarray(a, dtype=float)
    rows = np.atleast_2d(np.asarray(rows, dtype=float))
    out = np.full(len(rows), np.nan)
    if len(a) < 2 or np.isnan(a).any():
        return out
    i, j = np.triu_indices(len(a), k=1)
    sa = np.sign(a[i] - a[j])
    per = max(1, 4_000_000 // max(1, len(i)))  # rows at a time: a bounded matrix of pairs
    with np.errstate(invalid="ignore", divide="ignore"):
        for lo in range(0, len(rows), per):
            r = rows[lo:lo + per]
            s = np.sign(r[:, i] - r[:, j])
            tau = np.clip((s @ sa) / np.sqrt(np.abs(sa).sum()) / np.sqrt(np.abs(s).sum(axis=1)), -1.0, 1.0)  # as scipy
            tau[np.isnan(r).any(axis=1)] = np.nan
            out[lo:lo + per] = tau
    return out


@dataclass(frozen=True)
class MapRanks:
    """Every cell's final ranks of a stability map: what costs, and what the base values of the
    map's own two parameters do not change (each cell sets them) — so moving one of them, the map
    is only compared again (:func:`map_against`), not scored again."""

    teams: tuple[str, ...]  # the columns of ``ranks``
    x: tuple  # each cell's value of the x parameter, of the y parameter, whether it is valid
    y: tuple
    valid: tuple[bool, ...]
    ranks: np.ndarray  # cells x teams; NaN: an invalid cell, or a team the cell does not rank


def without_axes(base: Mapping[str, Any], x: Axis, y: Axis) -> dict[str, Any]:
    """``base`` with the map's own two parameters (entries, for a mapping) set to their axes'
    first values: what :func:`map_ranks` depends on, to key its result by."""
    return _with(_with(base, x, x.values[0]), y, y.values[0])


def map_ranks(fam: Family, scorer: Any, base: Mapping[str, Any], x: Axis, y: Axis, *,
              context: Mapping[str, Sequence[str]] | None = None,
              progress: Callable[[int, int, str], None] | None = None) -> MapRanks:
    """Score every cell of the grid (``base`` with the cell's two values). A scorer with
    ``final_ranks(**params)`` (ranks in the order of its ``names``) is asked for those alone in
    each cell; any other for its leaderboard. Cells are visited with the costly parameter in the
    outer loop. The result does not depend on ``base``'s own values of ``x`` and ``y``."""
    fast = getattr(scorer, "final_ranks", None)
    names = [str(n) for n in getattr(scorer, "names", ())]
    if not names:  # (a scorer without names: the teams of its leaderboard)
        names = [str(n) for n in scorer.leaderboard(**without_axes(base, x, y))["submission"]]
    where = {n: i for i, n in enumerate(names)}
    costly_x = fam.params[x.param].costly and not fam.params[y.param].costly
    outer, inner = (x, y) if costly_x or not fam.params[y.param].costly else (y, x)
    xs, ys, valid, rows = [], [], [], []
    total = len(x.values) * len(y.values)
    for vo in outer.values:
        for vi in inner.values:
            p = _with(_with(base, outer, vo), inner, vi)
            xv, yv = (vo, vi) if outer is x else (vi, vo)
            xs.append(xv)
            ys.append(yv)
            try:
                p = fam.params.validate(p, context=context)
            except InputError:
                valid.append(False)
                rows.append(np.full(len(names), np.nan))
                continue
            valid.append(True)
            if fast is not None:  # the final ranks alone, without building a leaderboard per cell
                rows.append(np.asarray(fast(**p), dtype=float))
            else:
                rows.append(_ranks(fam, scorer.leaderboard(**p), where))
            if progress is not None:
                progress(len(rows), total, "")
    ranks = np.vstack(rows) if rows else np.empty((0, len(names)))
    return MapRanks(tuple(names), tuple(xs), tuple(ys), tuple(valid), ranks)


def map_against(fam: Family, lb: pd.DataFrame, cells: MapRanks) -> pd.DataFrame:
    """The map of :func:`map_ranks`'s ``cells`` against the ranking ``lb`` (the current
    leaderboard): one row per cell, ``x, y, tau, winner, n_winners, valid`` (Kendall's τ-b
    against ``lb``'s final ranks over ``lb``'s teams; NaN τ for an invalid cell)."""
    teams = [str(n) for n in lb["submission"].to_numpy()]
    where = {n: i for i, n in enumerate(teams)}
    r0 = _ranks(fam, lb, where)
    col = {n: j for j, n in enumerate(cells.teams)}
    take = np.array([col.get(n, -1) for n in teams], dtype=np.int64)
    ranks = np.where(take >= 0, cells.ranks[:, np.maximum(take, 0)], np.nan) if len(take) else \
        np.empty((len(cells.valid), 0))
    taus = kendall_tau_b_rows(r0, ranks) if len(where) > 1 else np.ones(len(ranks))
    rows = []
    for k, ok in enumerate(cells.valid):
        if not ok:
            rows.append((cells.x[k], cells.y[k], np.nan, "", (), 0, False))
            continue
        first = sorted(teams[t] for t in np.flatnonzero(ranks[k] == 1))
        rows.append((cells.x[k], cells.y[k], float(taus[k]), " & ".join(first), tuple(first), len(first), True))
    # "winner" names the cell's winners in words; "winners" holds them apart (a team's name may hold " & ")
    out = pd.DataFrame(rows, columns=["x", "y", "tau", "winner", "winners", "n_winners", "valid"])
    return out.sort_values(["y", "x"], kind="stable").reset_index(drop=True)


def stability_map(fam: Family, scorer: Any, base: Mapping[str, Any], x: Axis, y: Axis, *,
                  context: Mapping[str, Sequence[str]] | None = None,
                  progress: Callable[[int, int, str], None] | None = None) -> pd.DataFrame:
    """One row per cell: ``x, y, tau, winner, n_winners, valid`` (a cell whose parameters
    break a rule between parameters, e.g. ε > τ, is ``valid = False`` with NaN τ): the cells
    scored (:func:`map_ranks`) and compared with the ranking at ``base`` (:func:`map_against`)."""
    cells = map_ranks(fam, scorer, base, x, y, context=context, progress=progress)
    return map_against(fam, scorer.leaderboard(**base), cells)


def flip_edges(grid: pd.DataFrame) -> list[tuple[int, int, int, int]]:
    """Edges between neighbouring cells with different winners, as (x index, y index) pairs
    ``(i, j, i2, j2)`` — the winner-flip boundaries of a map.

    >>> g = pd.DataFrame({"x": [0, 1, 0, 1], "y": [0, 0, 1, 1], "winner": ["a", "b", "a", "a"]})
    >>> flip_edges(g)
    [(0, 0, 1, 0), (1, 0, 1, 1)]
    """
    xs = {v: i for i, v in enumerate(dict.fromkeys(grid["x"]))}
    ys = {v: j for j, v in enumerate(dict.fromkeys(grid["y"]))}
    win = {(xs[a], ys[b]): w for a, b, w in zip(grid["x"], grid["y"], grid["winner"], strict=True)}
    edges = []
    for (i, j), w in sorted(win.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        for di, dj in ((1, 0), (0, 1)):
            other = win.get((i + di, j + dj))
            if other is not None and other != w:
                edges.append((i, j, i + di, j + dj))
    return sorted(edges, key=lambda e: (e[1], e[0], e[3], e[2]))


def compare(fam: Family, lb_a: pd.DataFrame, lb_b: pd.DataFrame) -> pd.DataFrame:
    """Each team's final rank under A and B, the places gained (``delta`` > 0: better under
    B), the final scores, and ``moved_at``: the first stage whose rank differs ("" if none)."""
    a, b = lb_a.set_index("submission"), lb_b.set_index("submission").reindex(lb_a["submission"])
    rows = []
    for team in a.index:
        moved = next((s.label for s in fam.stages if int(a.loc[team, s.rank]) != int(b.loc[team, s.rank])), "")
        rows.append((str(team), int(a.loc[team, fam.final.rank]), int(b.loc[team, fam.final.rank]),
                     float(a.loc[team, fam.final.id]), float(b.loc[team, fam.final.id]), moved))
    out = pd.DataFrame(rows, columns=["submission", "rank_a", "rank_b", "score_a", "score_b", "moved_at"])
    out.insert(3, "delta", out["rank_a"] - out["rank_b"])
    return out.sort_values(["rank_b", "submission"], kind="stable").reset_index(drop=True)
