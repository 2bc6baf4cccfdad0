"""What a published aggregate is made of: is it, within the rounding of the cells, a weighted
mean (or sum) of some columns, and which columns does it give no weight?

A published ``Average`` or ``Score`` beside the units is usually linear in them — the Open LLM
Leaderboard's plain mean, MTEB's mean weighted by each category's number of datasets, GLUE's and
SuperGLUE's mean of the tasks without their diagnostics (AX). A least-squares fit over the rows
where every candidate has a value tells, when its largest difference from the published value
stays within what the rounding of the cells allows, which columns the aggregate weighs and
which it ignores — evidence the guided import uses before names do: a ``Date Understanding``
task stays a unit though its name says date, a diagnostic column weighed 0 is left out.

What rounding allows, per row: half a unit of the published value's last digit, plus the
weights' magnitudes times half a unit of each cell's last digit. A weight is indistinguishable
from 0 when it is within four standard errors of 0 (the fit's residual variance) or below 0.1 %
of the weights' total magnitude. Nothing here is a claim about the published table: it is a
question the guided import asks, with the numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

#: fits are tried on at most this many candidate columns and rows × columns
MAX_COLUMNS, MAX_CELLS = 200, 2_000_000
#: the largest difference may exceed the rounding bound by this factor (the least-squares
#: weights are not the true ones: they spread the rounding over every row)
SLACK = 1.5


@dataclass(frozen=True)
class Fit:
    """A published column fitted on candidate columns (rows where every one has a value)."""

    column: str
    candidates: tuple[str, ...]
    weights: np.ndarray
    zero: np.ndarray  # per candidate: its weight is indistinguishable from 0
    residual: float  # the largest |fit − published| over the rows used
    bound: float  # the largest rounding allowance over those rows
    rows: int
    #: whether every row's difference is within :data:`SLACK` × its own rounding allowance
    within: bool = False
    #: each weight's standard error (from the fit's residual variance)
    se: np.ndarray | None = None

    @property
    def ok(self) -> bool:
        """Whether the published column is, within its rounding, a weighted mean (or sum) of the
        candidates: every row within its rounding allowance, at least one weight, every weight
        not 0 positive, and the weights called 0 together under 5 % of the others."""
        w, z = self.weights, self.zero
        return bool(self.within and (~z).any() and (w[~z] > 0).all()
                    and np.abs(w[z]).sum() <= 0.05 * w[~z].sum())

    @property
    def equal(self) -> bool:
        """Whether the weights that are not 0 are equal (each within four standard errors, or 2 %,
        of their mean): a plain mean (or sum)."""
        w = self.weights[~self.zero]
        se = self.se[~self.zero] if self.se is not None else np.zeros(len(w))
        return bool(len(w) and np.all(np.abs(w - w.mean()) <= np.maximum(4 * se, 0.02 * abs(w.mean()))))

    def weighed(self) -> list[str]:
        return [c for c, z in zip(self.candidates, self.zero, strict=True) if not z]

    def ignored(self) -> list[str]:
        return [c for c, z in zip(self.candidates, self.zero, strict=True) if z]

    def relative(self) -> dict[str, float]:
        """Each weighed column's weight over the smallest such weight (``MTEB``: 12, 11, 3, …)."""
        w = {c: float(x) for c, x, z in zip(self.candidates, self.weights, self.zero, strict=True) if not z}
        low = min((abs(x) for x in w.values()), default=0.0)
        return {c: x / low for c, x in w.items()} if low > 0 else w

    def sentence(self) -> str:
        """The fit in words (for the guided import and the load report)."""
        if not self.ok:
            return (f"the published {self.column!r} is not a weighted mean of the units (largest difference "
                    f"{self.residual:.3g}, rounding allows {self.bound:.3g}): a win rate, a rank, or other data")
        weighed = self.weighed()
        total, n = float(self.weights[~self.zero].sum()), len(weighed)
        what = ("the plain mean" if self.equal and abs(total - 1) < 0.02 else
                "the sum" if self.equal and abs(total - n) < 0.02 * n else
                "a weighted mean" if abs(total - 1) < 0.02 else "a weighted sum")
        text = (f"the published {self.column!r} is, within its rounding (over {self.rows} rows, the largest "
                f"difference {self.residual:.3g}, each row under {SLACK:g} times what the digits of its cells allow), "
                f"{what} of {n} column(s)")
        if not self.equal:
            text += " with weights in the proportions " + ", ".join(f"{c!r} {x:.3g}" for c, x in
                                                                   list(self.relative().items())[:12])
        if self.ignored():
            text += "; it gives no weight to " + ", ".join(repr(c) for c in self.ignored())
        return text


def half_units(decimals: np.ndarray) -> np.ndarray:
    """Half a unit of the last digit shown: 3 decimals → 0.0005."""
    return 0.5 * 10.0 ** -np.asarray(decimals, dtype=float)


def decimals(cells: pd.Series) -> np.ndarray:
    """The decimals each cell shows (``"0.125"`` → 3, ``"12"`` → 0, ``"1.5e-3"`` → 4; an ``a/b``
    cell: the fewer of its two).

    >>> decimals(pd.Series(["0.125", "12", "1.5e-3", "94.2/92.35", "-"])).tolist()
    [3, 0, 4, 1, 0]
    """
    quick = _decimals_arrow(cells)
    if quick is not None:
        return quick
    text = pd.Series(cells, dtype=object).astype(str).str.strip()

    def one(part: pd.Series) -> np.ndarray:
        m = part.str.extract(r"^[-+]?\d*(?:\.(\d*))?(?:[eE]([-+]?\d+))?$")
        d = m[0].fillna("").str.len().to_numpy(dtype=float)
        e = pd.to_numeric(m[1], errors="coerce").fillna(0).to_numpy(dtype=float)
        return np.maximum(d - e, 0)

    parts = text.str.split("/", n=1, expand=True)
    d = one(parts[0])
    if parts.shape[1] > 1:
        second = parts[1].fillna("")
        two = second != ""
        d = np.where(two.to_numpy(), np.minimum(d, one(second.where(two, "0"))), d)
    return d.astype(np.int64)


_NUMBER = r"^[-+]?\d*(?:\.(?P<d>\d*))?(?:[eE](?P<e>[-+]?\d+))?$"


def _decimals_arrow(cells: pd.Series) -> np.ndarray | None:
    """:func:`decimals` by arrow's regular expressions at once (None: a cell holds ``/``)."""
    try:
        arr = pc.utf8_trim_whitespace(pa.array(cells, type=pa.string(), from_pandas=True))
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        return None
    if len(arr) and pc.any(pc.match_substring(arr, "/")).as_py():
        return None
    return _digits(arr)


def decimals_all(columns: list[pd.Series]) -> list[np.ndarray]:
    """:func:`decimals` of several columns, by one pass of arrow over them all (a column with an
    ``a/b`` cell goes its own way)."""
    arrays = []
    for c in columns:
        try:
            arrays.append(pc.utf8_trim_whitespace(pa.array(c, type=pa.string(), from_pandas=True)))
        except (pa.ArrowInvalid, pa.ArrowTypeError):
            arrays.append(None)
    ok = [a is not None and not (len(a) and pc.any(pc.match_substring(a, "/")).as_py()) for a in arrays]
    quick = [a for a, k in zip(arrays, ok, strict=True) if k]
    got = iter(np.split(_digits(pa.concat_arrays(quick)), np.cumsum([len(a) for a in quick])[:-1])
               if quick else [])
    return [next(got) if k else decimals(c) for c, k in zip(columns, ok, strict=True)]


def _digits(arr: pa.Array) -> np.ndarray:
    m = pc.extract_regex(arr, _NUMBER)
    d = pc.fill_null(pc.utf8_length(m.field("d")), 0).to_numpy(zero_copy_only=False).astype(np.int64)
    e_text = pc.fill_null(m.field("e"), "")
    e = pc.cast(pc.if_else(pc.equal(e_text, ""), "0", e_text), pa.int64()).to_numpy(zero_copy_only=False)
    return np.maximum(d - e, 0)


def fit(column: str, y: np.ndarray, y_decimals: np.ndarray, candidates: list[str], x: np.ndarray,
        x_decimals: np.ndarray) -> Fit | None:
    """Fit published ``y`` (teams) on ``x`` (teams × candidates) over the rows where all have a
    value; None when there are too few such rows (fewer than candidates + 3) or too many cells.

    >>> rng = np.random.default_rng(0)
    >>> x = np.round(rng.uniform(0, 100, (40, 3)), 1)
    >>> y = np.round(x[:, :2].mean(axis=1), 1)  # the third column is a diagnostic, not in the mean
    >>> f = fit("Score", y, np.ones(40), ["A", "B", "AX"], x, np.ones((40, 3)))
    >>> f.ok, f.weighed(), f.ignored(), f.equal
    (True, ['A', 'B'], ['AX'], True)
    """
    k = len(candidates)
    if not k or k > MAX_COLUMNS or x.size > MAX_CELLS:
        return None
    ok = np.isfinite(y) & np.isfinite(x).all(axis=1)
    n = int(ok.sum())
    if n < k + 3:
        return None
    a, b = x[ok], y[ok]
    scale = np.maximum(np.abs(a).max(axis=0), 1e-300)  # columns of different sizes, one condition
    w, *_ = np.linalg.lstsq(a / scale, b, rcond=None)
    w = w / scale
    resid = a @ w - b
    bound = half_units(y_decimals[ok]) + (np.abs(w) * half_units(x_decimals[ok])).sum(axis=1)
    sigma2 = float(resid @ resid) / max(n - k, 1)
    try:
        cov = sigma2 * np.linalg.pinv((a / scale).T @ (a / scale))
        se = np.sqrt(np.clip(np.diag(cov), 0, None)) / scale
    except np.linalg.LinAlgError:
        return None
    zero = (np.abs(w) <= 4 * se) | (np.abs(w) <= 1e-3 * np.abs(w).sum())
    within = bool(np.all(np.abs(resid) <= SLACK * bound + 1e-12))
    return Fit(column, tuple(candidates), w, zero, float(np.abs(resid).max()), float(bound.max()), n, within, se)
