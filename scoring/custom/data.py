"""The Custom family's results table, read and validated (long or wide; the units and teams tables: ``scoring.custom.tables``).

**Results, long**: columns ``team, unit, value`` and optionally ``metric`` (several metrics per
unit); one item per (unit, metric). **Results, wide**: one row per team, one column per unit —
the published tables as they are. The team column is the recipe's ``team_column``, else the
first column named ``team``, ``model``, ``model/adapter``, ``model_name``, ``submission`` or
``name`` (in that order), else the first column of text. Published aggregates (``Mean win
rate``, ``Average``, ``Score``, ``average_score``, ``Rank``, …) are recognised by name and left
out of the units (kept to compare with); so are unnamed columns and columns of text (a marker,
a URL, a date), which the load report names. A missing mark (``-``, empty) is a missing cell;
an ``a/b`` cell is refused or split as the recipe says; any other text in a number column is an
error naming the file, the row, the column and the cell.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..core import limits
from ..core.errors import InputError
from ..core.records import header_of
from ..core.sources import check_name, source_bytes
from ..core.tables import first_duplicate, first_empty, require_columns, row_of
from .columns import Column, classify, direction, metric_of
from .fit import Fit
from .reading import ROW_NAMES, digits_shown, is_tab_separated, parse_column, read_text_table
from .recipe import ResultsOptions

#: teams × units of one results table, checked from the line count before the text is read
#: (:func:`check_lines`), and again before the matrix is built: 8 M cells read and score under
#: 1.6 GiB (a long table of 8 M rows, 1.5 GiB; a wide one of 8 M cells, 1.2 GiB:
#: ``python -m benchmarks hostile``); LAB_MAX_RESULT_CELLS raises it
MAX_CELLS = int(os.environ["LAB_MAX_RESULT_CELLS"]) if os.environ.get("LAB_MAX_RESULT_CELLS", "").isdigit() \
    else 8_000_000


def check_size(n_teams: int, n_units: int, name: str) -> None:
    """Refuse a table whose units exceed the column limit or whose team × unit matrix exceeds
    :data:`MAX_CELLS`, before the matrix is built."""
    if n_units > limits.MAX_COLUMNS:
        raise InputError(name, None, f"the results name {n_units:,} units, over the limit of {limits.MAX_COLUMNS:,} "
                                     "(LAB_MAX_COLUMNS raises it)")
    if n_teams * n_units > MAX_CELLS:
        raise InputError(name, None, f"the results hold {n_teams:,} teams x {n_units:,} units = "
                                     f"{n_teams * n_units:,} cells, over the limit of {MAX_CELLS:,} "
                                     "(LAB_MAX_RESULT_CELLS raises it)")


def check_lines(data: bytes, name: str, opts: ResultsOptions) -> None:
    """:func:`check_size` from the bytes, before the parser reads them: the lines (less the
    header) bound the rows; a long table (``team, unit, value``) holds a cell per row, a wide one
    rows × columns (as :func:`check_size` counts them). A quoted line break or a blank line only makes the bound larger."""
    body = data.removeprefix(b"\xef\xbb\xbf")
    sep = b"\t" if is_tab_separated(body) else b","
    header = header_of(body, name, sep)
    lines = body.count(b"\n") + (0 if body.endswith(b"\n") else 1) - 1
    long = {"team", "unit", "value"} <= {h.strip().lower() for h in header} and opts.team_column is None
    cells = lines if long else lines * len(header)  # as check_size counts a wide table: every column
    if cells > MAX_CELLS:
        shape = f"{lines:,} rows" if long else f"{lines:,} rows x {len(header):,} columns"
        raise InputError(name, None, f"the results hold up to {shape} = {cells:,} cells, over the limit of "
                                     f"{MAX_CELLS:,} (LAB_MAX_RESULT_CELLS raises it); refused before reading them")


TEAM_NAMES = ("team", "model", "models", "model/adapter", "model_name", "model name", "submission", "name",
              ROW_NAMES.lower())


@dataclass
class Results:
    """A validated results table: ``values`` (teams × units), NaN where missing."""

    name: str
    teams: list[str]
    units: list[str]  # one per column of ``values`` (a long table's "unit: metric" when it has metrics)
    unit_of: list[str]  # the unit each column belongs to (what the units table names)
    metric_of: list[str]
    values: np.ndarray
    published: dict[str, np.ndarray] = field(default_factory=dict)  # aggregate column -> value per team
    report: list[str] = field(default_factory=list)
    #: the lines of ``report`` that only say what was read (each column's role, the fit): the
    #: command line prints them as notes, the rest as warnings
    info: list[str] = field(default_factory=list)
    #: the decimals each cell shows (teams × units; −1 where missing), and each published value's
    digits: np.ndarray | None = None
    published_digits: dict[str, np.ndarray] = field(default_factory=dict)
    #: per published column: "score" (higher is better) or "rank" (1 is best)
    published_kind: dict[str, str] = field(default_factory=dict)
    #: per unit: lower is better (the recipe's lists, else the header's arrow or the metric's name)
    lower: np.ndarray | None = None
    #: what each column of a wide table was read as, with why (``scoring.custom.columns``)
    columns: list[Column] = field(default_factory=list)
    #: a published aggregate found linear in the columns (``scoring.custom.fit``), or None
    fit: Fit | None = None


def _team_column(df, opts: ResultsOptions, name: str) -> str:
    cols = list(df.columns)
    if opts.team_column is not None:
        if opts.team_column not in cols:
            require_columns(df, [opts.team_column], name)
        return opts.team_column
    lower = {c.lower(): c for c in reversed(cols)}
    for cand in TEAM_NAMES:
        if cand in lower:
            return lower[cand]
    for c in cols:
        cells = df[c].tolist()
        if c and cells and all(x and not _numberish(x) for x in cells):
            return c
    raise InputError(name, 1, "no team column found (none is named team or model, and no column holds only text); "
                              "name it in the recipe: inputs.results.team_column")


def _numberish(x: str) -> bool:
    try:
        float(x)
        return True
    except ValueError:
        return False


def _team_names(df, col: str, opts: ResultsOptions, name: str, report: list[str]) -> tuple[list[str], np.ndarray]:
    """The teams (checked names) and the rows kept (``duplicates`` decides about repeats)."""
    first_empty(df, col, name, "team")
    names = [check_name(t, f"{name}, row {row_of(df, i)}") for i, t in enumerate(df[col].tolist())]
    keep = np.ones(len(names), dtype=bool)
    seen: dict[str, int] = {}
    taken = set(names)  # a number never takes the name of a team of the table (a real "alpha (2)")
    out = []
    for i, t in enumerate(names):
        if t not in seen:
            seen[t] = 1
            out.append(t)
            continue
        if opts.duplicates == "refuse":
            first_duplicate(df.assign(**{col: names}), col, name, "team")
        seen[t] += 1
        if opts.duplicates == "first":
            keep[i] = False
            continue
        new = f"{t} ({seen[t]})"
        while new in taken:
            seen[t] += 1
            new = f"{t} ({seen[t]})"
        taken.add(new)
        out.append(new)
    n_dup = int(len(names) - len(set(names)))
    if n_dup:
        how = "kept the first row" if opts.duplicates == "first" else "numbered the later rows ' (2)', ' (3)'"
        report.append(f"{name}: {n_dup} repeated team name(s) ({how}, as the recipe says)")
    return out, keep


def _shown(names: list[str], k: int = 5) -> str:
    return ", ".join(repr(n) for n in names[:k]) + (f", … ({len(names)} in all)" if len(names) > k else "")


@dataclass
class _Table:
    """A results table on its way to :class:`Results` (what :func:`_empties` may thin out)."""

    teams: list[str]
    units: list[str]
    unit_of: list[str]
    metric_of: list[str]
    values: np.ndarray
    rows: np.ndarray
    published: dict[str, np.ndarray]
    #: the decimals each cell shows (as ``values``), and each published value's
    digits: np.ndarray | None = None
    published_digits: dict[str, np.ndarray] = field(default_factory=dict)


def _empties(t: _Table, name: str, opts: ResultsOptions, report: list[str], *, empty_teams: bool = False,
             empty_units: bool = False, where: str = "inputs.results") -> _Table:
    """Units and teams without any value: left out (``drop_empty``, said in the report; in a
    runtime table, ``empty_units``/``empty_teams``), else an error naming the first."""
    empty = np.isnan(t.values).all(axis=0)
    if empty.any():
        gone = [t.units[j] for j in np.flatnonzero(empty)]
        if not (opts.drop_empty or empty_units):
            raise InputError(name, None, f"the unit {gone[0]!r} has no value for any team (every cell is missing); "
                                         f"leave such columns out with the recipe's {where}.drop_empty (or list it "
                                         f"in {where}.ignore_columns)", column=gone[0])
        report.append(f"{name}: {len(gone)} unit column(s) without any value left out ("
                      f"{'drop_empty' if opts.drop_empty else 'a runtime table'}): {_shown(gone)}")
        keep = ~empty
        t = _Table(t.teams, [u for u, k in zip(t.units, keep, strict=True) if k],
                   [u for u, k in zip(t.unit_of, keep, strict=True) if k],
                   [m for m, k in zip(t.metric_of, keep, strict=True) if k], t.values[:, keep], t.rows, t.published,
                   None if t.digits is None else t.digits[:, keep], t.published_digits)
    none = np.isnan(t.values).all(axis=1) if t.values.shape[1] else np.ones(len(t.teams), dtype=bool)
    if none.any() and not empty_teams:
        if not opts.drop_empty:
            i = int(np.flatnonzero(none)[0])
            raise InputError(name, int(t.rows[i]), f"the team {t.teams[i]!r} has no value on any unit (every cell "
                                                   f"is missing); leave such teams out with the recipe's "
                                                   f"{where}.drop_empty")
        gone = [t.teams[i] for i in np.flatnonzero(none)]
        report.append(f"{name}: {len(gone)} team(s) without any value left out (drop_empty): {_shown(gone)}")
        keep = ~none
        t = _Table([x for x, k in zip(t.teams, keep, strict=True) if k], t.units, t.unit_of, t.metric_of,
                   t.values[keep], t.rows[keep], {c: v[keep] for c, v in t.published.items()},
                   None if t.digits is None else t.digits[keep], {c: v[keep] for c, v in t.published_digits.items()})
    if not t.teams:
        raise InputError(name, None, "no team has a value on any unit")
    return t


def load_results(src, name: str, opts: ResultsOptions | None = None, *, empty_teams: bool = False,
                 empty_units: bool = False, detect: bool = True, where: str = "inputs.results") -> Results:
    """Read and validate a results table, long or wide (module doc); ``empty_teams`` /
    ``empty_units``: a team / unit with no value at all is kept / left out (a runtime table's),
    else it is an error unless the recipe's ``drop_empty`` leaves it out; ``detect``: guess
    metadata columns (``scoring.custom.columns``; not in a runtime table); ``where``: the
    recipe's key the messages name."""
    opts = opts or ResultsOptions()
    if not isinstance(src, pd.DataFrame):
        src = source_bytes(src, name)
        check_lines(src, name, opts)  # the cell limit, from the line count, before the text is parsed
    df = read_text_table(src, name, extra_field=opts.extra_field)
    if len(df) == 0:
        raise InputError(name, None, "the results table has no rows")
    lower = {c.lower() for c in df.columns}
    kw = {"empty_teams": empty_teams, "empty_units": empty_units, "where": where}
    if {"team", "unit", "value"} <= lower and opts.team_column is None:
        return _load_long(df, name, opts, **kw)
    return _load_wide(df, name, opts, detect=detect, **kw)


def read_columns(df, name: str, opts: ResultsOptions, *, detect: bool = True
                 ) -> tuple[str, list[Column], Fit | None]:
    """The team column, what every other column of a wide table is, and the published
    aggregate's fit (``scoring.custom.columns``, ``scoring.custom.fit``)."""
    team_col = _team_column(df, opts, name)
    for c in (*opts.ignore_columns, *opts.aggregate_columns, *opts.unit_columns, *opts.rank_columns,
              *opts.metadata_columns):
        if c not in df.columns:
            require_columns(df, [c], name)
    missing = frozenset(m.lower() for m in opts.missing_marks)
    return (team_col, *classify(df, opts, team_col, missing, detect=detect))


def _load_wide(df, name: str, opts: ResultsOptions, *, empty_teams: bool = False, empty_units: bool = False,
               detect: bool = True, where: str = "inputs.results") -> Results:
    report: list[str] = []
    team_col, cols, explained = read_columns(df, name, opts, detect=detect)
    check_size(len(df), len(df.columns), name)
    teams, keep = _team_names(df, team_col, opts, name, report)
    rows = np.asarray(df.attrs["rows"])[keep]
    missing = frozenset(m.lower() for m in opts.missing_marks)
    units, metrics, columns, published, kinds, lower, digits, published_digits = [], [], [], {}, {}, [], [], {}
    all_rows = np.asarray(df.attrs["rows"])
    for col in cols:
        c = col.name
        if col.role in ("aggregate", "rank"):
            try:
                published[c] = parse_column(df[c], missing, "first", name, c, all_rows)[0][keep]
                published_digits[c] = digits_shown(df[c])[keep]
                kinds[c] = "rank" if col.role == "rank" else "score"
            except InputError:
                pass
            continue
        if col.role not in ("unit", "empty"):
            continue
        first, second, n_text = parse_column(df[c], missing, opts.split, name, c, all_rows)
        if n_text and not np.isfinite(first).any():
            raise InputError(name, None, f"the unit column {c!r} holds no number", column=c)
        if second is None:
            units.append(c)
            metrics.append(metric_of(c))
            columns.append(first[keep])
            digits.append(digits_shown(df[c], opts.split)[keep])
            lower.append(col.lower)
        else:
            for k, v in ((1, first), (2, second)):
                units.append(f"{c} [{k}]")
                metrics.append(f"{metric_of(c)} [{k}]")
                columns.append(v[keep])
                digits.append(digits_shown(df[c], "first" if k == 1 else "second")[keep])
                lower.append(col.lower)
    n_before = len(report)
    _report_columns(cols, name, report)
    if explained is not None:
        report.append(f"{name}: {explained.sentence()}")
    info = list(report[n_before:])
    if not units:
        raise InputError(name, 1, "no unit column: every column besides the team column is text, a published "
                                  "aggregate, metadata or left out")
    t = _empties(_Table(teams, units, list(units), metrics, np.column_stack(columns), rows, published,
                        np.column_stack(digits), published_digits), name, opts,
                 report, empty_teams=empty_teams, empty_units=empty_units, where=where)
    kept = set(t.units)  # once: a set per unit would cost units² on a wide table
    low = np.array([lw for u, lw in zip(units, lower, strict=True) if u in kept], dtype=bool)
    return Results(name, t.teams, t.units, t.unit_of, t.metric_of, t.values, published=t.published, report=report,
                   digits=t.digits, published_digits=t.published_digits, published_kind=kinds, lower=low,
                   columns=cols, fit=explained, info=info)


def _report_columns(cols: list[Column], name: str, report: list[str]) -> None:
    """The load report's lines on the columns: each role with its columns and why."""
    units = [c for c in cols if c.role == "unit"]
    if units:
        report.append(f"{name}: {len(units)} unit column(s): {_shown([c.name for c in units], 8)}")
    for role, what in (("aggregate", "published aggregate(s) kept beside the leaderboard"),
                       ("rank", "published rank(s) kept beside the leaderboard"),
                       ("metadata", "metadata left out of the units"), ("ignored", "left out")):
        these = [c for c in cols if c.role == role]
        if these:
            report.append(f"{name}: {what}: " + "; ".join(f"{c.name!r} ({c.reason})" for c in these[:8])
                          + (f"; … ({len(these)} in all)" if len(these) > 8 else ""))
    low = [c for c in units if c.lower]
    if low:
        report.append(f"{name}: lower is better for " + "; ".join(f"{c.name!r} ({c.lower_reason})" for c in low[:8])
                      + (f"; … ({len(low)} in all)" if len(low) > 8 else ""))


def _load_long(df, name: str, opts: ResultsOptions, *, empty_teams: bool = False, empty_units: bool = False,
               where: str = "inputs.results") -> Results:
    """A long table, a column at a time (codes, not a Python object per row: a million rows cost
    tens of bytes each, and no dictionary of every (team, unit, metric))."""
    report: list[str] = []
    ren = {c: c.lower() for c in df.columns if c.lower() in ("team", "unit", "value", "metric")}
    df = df.rename(columns=ren)
    for c in ("team", "unit"):
        first_empty(df, c, name)
    has_metric = "metric" in df.columns
    if has_metric:
        first_empty(df, "metric", name)
    rows = np.asarray(df.attrs["rows"])
    t_code, team_names = pd.factorize(df["team"], sort=False)
    first_at = np.full(len(team_names), len(df), dtype=np.int64)
    np.minimum.at(first_at, t_code, np.arange(len(df)))  # each team's first row
    teams = [check_name(t, f"{name}, row {rows[first_at[i]]}") for i, t in enumerate(team_names.tolist())]
    missing = frozenset(m.lower() for m in opts.missing_marks)
    vals, second, n_text = parse_column(df["value"], missing, opts.split, name, "value", rows)
    if second is not None:
        raise InputError(name, None, "a long table's value cell holds two numbers (a/b): give each its own metric row")
    if n_text:
        raise InputError(name, None, "the value column holds no number")
    u_code, unit_names = pd.factorize(df["unit"], sort=False)
    if has_metric:
        m_code, metric_names = pd.factorize(df["metric"], sort=False)
    else:
        m_code, metric_names = np.zeros(len(df), dtype=np.int64), pd.Index([""])
    k_code, key_pairs = pd.factorize(u_code.astype(np.int64) * len(metric_names) + m_code, sort=False)
    units_of = unit_names.tolist()
    metrics_of = metric_names.tolist()
    keys = [(units_of[int(x) // len(metrics_of)], metrics_of[int(x) % len(metrics_of)]) for x in key_pairs]
    check_size(len(teams), len(keys), name)
    cell = t_code.astype(np.int64) * len(keys) + k_code
    dup = pd.Series(cell).duplicated().to_numpy()
    if dup.any():
        i = int(np.flatnonzero(dup)[0])
        first = int(np.flatnonzero(cell == cell[i])[0])
        u, m = keys[int(k_code[i])]
        what = f"team {teams[int(t_code[i])]!r}, unit {u!r}" + (f", metric {m!r}" if has_metric else "")
        raise InputError(name, int(rows[i]), f"duplicate row for {what} (first on row {int(rows[first])})")
    values = np.full((len(teams), len(keys)), np.nan)
    values[t_code, k_code] = vals
    digits = np.full(values.shape, -1, dtype=np.int64)
    digits[t_code, k_code] = np.where(np.isfinite(vals), digits_shown(df["value"], opts.split), -1)
    labels = [f"{u}: {m}" if has_metric else u for u, m in keys]
    t = _empties(_Table(teams, labels, [u for u, _ in keys], [m if has_metric else u for u, m in keys], values,
                        rows[first_at], {}, digits), name, opts, report, empty_teams=empty_teams, empty_units=empty_units,
                 where=where)
    low = np.array([direction(lb, opts, m, unit=u)[0] for lb, u, m in zip(t.units, t.unit_of, t.metric_of, strict=True)],
                   dtype=bool)
    return Results(name, t.teams, t.units, t.unit_of, t.metric_of, t.values, report=report, digits=t.digits,
                   lower=low)

