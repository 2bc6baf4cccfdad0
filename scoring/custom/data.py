"""The Custom family's inputs, read and validated: results (long or wide), units, teams.

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
from .reading import digits_shown, is_tab_separated, parse_cells, parse_column, read_text_table
from .recipe import ResultsOptions, TeamsOptions

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


TEAM_NAMES = ("team", "model", "model/adapter", "model_name", "submission", "name")
AGGREGATE_NAMES = ("mean win rate", "average", "avg", "score", "average_score", "overall", "mean", "rank", "#")


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
    #: the decimals each cell shows (teams × units; −1 where missing), and each published value's
    digits: np.ndarray | None = None
    published_digits: dict[str, np.ndarray] = field(default_factory=dict)


def _metric(header: str) -> str:
    """The metric of a HELM-style column ``Scenario - Metric`` (else the column itself)."""
    head, sep, tail = header.rpartition(" - ")
    return tail.strip() if sep and head.strip() else header


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


def _check_units(values: np.ndarray, units: list[str], teams: list[str], name: str, rows,
                 empty_teams: bool = False) -> None:
    empty = np.isnan(values).all(axis=0)
    if empty.any():
        u = units[int(np.flatnonzero(empty)[0])]
        raise InputError(name, None, f"the unit {u!r} has no value for any team (every cell is missing); "
                                     "leave it out with the recipe's inputs.results.ignore_columns", column=u)
    none = np.isnan(values).all(axis=1) if values.shape[1] else np.ones(len(teams), dtype=bool)
    if none.any() and not empty_teams:
        i = int(np.flatnonzero(none)[0])
        raise InputError(name, int(rows[i]), f"the team {teams[i]!r} has no value on any unit (every cell is missing)")


def load_results(src, name: str, opts: ResultsOptions | None = None, *, empty_teams: bool = False) -> Results:
    """Read and validate a results table, long or wide (module doc); ``empty_teams``: a team
    with no value at all is kept (a runtime table's), else it is an error."""
    opts = opts or ResultsOptions()
    if not isinstance(src, pd.DataFrame):
        src = source_bytes(src, name)
        check_lines(src, name, opts)  # the cell limit, from the line count, before the text is parsed
    df = read_text_table(src, name)
    if len(df) == 0:
        raise InputError(name, None, "the results table has no rows")
    lower = {c.lower() for c in df.columns}
    if {"team", "unit", "value"} <= lower and opts.team_column is None:
        return _load_long(df, name, opts, empty_teams)
    return _load_wide(df, name, opts, empty_teams)


def _load_wide(df, name: str, opts: ResultsOptions, empty_teams: bool = False) -> Results:
    report: list[str] = []
    team_col = _team_column(df, opts, name)
    for c in (*opts.ignore_columns, *opts.aggregate_columns, *opts.unit_columns):
        if c not in df.columns:
            require_columns(df, [c], name)
    check_size(len(df), len(df.columns), name)
    teams, keep = _team_names(df, team_col, opts, name, report)
    rows = np.asarray(df.attrs["rows"])[keep]
    missing = frozenset(m.lower() for m in opts.missing_marks)
    aggregates = {a.lower() for a in AGGREGATE_NAMES} | {a.lower() for a in opts.aggregate_columns}
    units, metrics, columns, published, skipped, digits, published_digits = [], [], [], {}, [], [], {}
    candidates = opts.unit_columns or [c for c in df.columns if c != team_col and c not in opts.ignore_columns]
    all_rows = np.asarray(df.attrs["rows"])
    for c in candidates:
        if not c.strip() or c.lower().startswith("unnamed:"):
            skipped.append(repr(c))
            continue
        if c.lower() in aggregates and c not in opts.unit_columns:
            try:
                published[c] = parse_column(df[c], missing, "first", name, c, all_rows)[0][keep]
                published_digits[c] = digits_shown(df[c])[keep]
            except InputError:
                pass
            continue
        first, second, n_text = parse_column(df[c], missing, opts.split, name, c, all_rows)
        if n_text and not np.isfinite(first).any():
            if c in opts.unit_columns:
                raise InputError(name, None, f"the unit column {c!r} holds no number", column=c)
            skipped.append(repr(c))
            continue
        if second is None:
            units.append(c)
            metrics.append(_metric(c))
            columns.append(first[keep])
            digits.append(digits_shown(df[c], opts.split)[keep])
        else:
            for k, v in ((1, first), (2, second)):
                units.append(f"{c} [{k}]")
                metrics.append(f"{_metric(c)} [{k}]")
                columns.append(v[keep])
                digits.append(digits_shown(df[c], "first" if k == 1 else "second")[keep])
    if published:
        report.append(f"{name}: published aggregate column(s) {', '.join(map(repr, published))} left out of the units")
    if skipped:
        report.append(f"{name}: column(s) {', '.join(skipped)} left out (no numbers, or no name)")
    if not units:
        raise InputError(name, 1, "no unit column: every column besides the team column is text, a published "
                                  "aggregate or ignored")
    values = np.column_stack(columns)
    _check_units(values, units, teams, name, rows, empty_teams)
    return Results(name, teams, units, list(units), metrics, values, published, report,
                   np.column_stack(digits), published_digits)


def _load_long(df, name: str, opts: ResultsOptions, empty_teams: bool = False) -> Results:
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
    _check_units(values, labels, teams, name, rows[first_at], empty_teams)
    return Results(name, teams, labels, [u for u, _ in keys], [m if has_metric else u for u, m in keys], values,
                   {}, report, digits)


# ---- units and teams ------------------------------------------------------------------------

@dataclass
class Units:
    """The units table: group columns (text) and numeric columns, one value per results unit."""

    groups: dict[str, list[str]]  # column -> group of each unit of the results (``(missing)`` without a row)
    numbers: dict[str, np.ndarray]  # column -> value per unit (NaN without a row)


def load_units(src, name: str, results: Results) -> Units:
    """Read ``unit`` plus group and numeric columns; every row's unit must be a unit of the
    results, each once. Units of the results without a row are in group ``(missing)``."""
    df = read_text_table(src, name)
    require_columns(df, ["unit"], name)
    first_empty(df, "unit", name)
    first_duplicate(df, "unit", name, "unit")
    known = {u: i for i, u in enumerate(dict.fromkeys(results.unit_of))}
    rows = np.asarray(df.attrs["rows"])
    at = []
    for i, u in enumerate(df["unit"].tolist()):
        if u not in known:
            shown = ", ".join(list(known)[:8]) + (", …" if len(known) > 8 else "")
            raise InputError(name, int(rows[i]), f"unit {u!r} is not a unit of the results (units: {shown})",
                             column="unit", value=u)
        at.append(known[u])
    col_of_unit = [known[u] for u in results.unit_of]
    groups, numbers = {}, {}
    for c in df.columns:
        if c == "unit" or not c.strip():
            continue
        first_val, second, n_text = parse_cells(df[c].tolist(), frozenset({""}), "refuse", name, c, rows) \
            if _mostly_numbers(df[c].tolist()) else (None, None, 1)
        if first_val is not None and not n_text:
            per = np.full(len(known), np.nan)
            per[at] = first_val
            numbers[c] = per[col_of_unit]
        else:
            per_g = ["(missing)"] * len(known)
            for j, g in zip(at, df[c].tolist(), strict=True):
                per_g[j] = g or "(missing)"
            groups[c] = [per_g[k] for k in col_of_unit]
    return Units(groups, numbers)


def _mostly_numbers(cells: list[str]) -> bool:
    present = [c for c in cells if c]
    return bool(present) and sum(_numberish(c) for c in present) * 2 > len(present)


def load_teams(src, name: str, teams: list[str], opts: TeamsOptions, results_opts: ResultsOptions,
               report: list[str]) -> np.ndarray:
    """Each team's runtime (NaN: none), from a teams table or a second results table (its mean
    over the team's units). Rows of unknown teams are ignored, with a report line."""
    if opts.read_as == "results":
        r = load_results(src, name, ResultsOptions(team_column=opts.team_column, split="refuse",
                                                   duplicates=results_opts.duplicates,
                                                   missing_marks=results_opts.missing_marks), empty_teams=True)
        bad = (r.values <= 0) & np.isfinite(r.values)
        if bad.any():
            i, j = (int(x[0]) for x in np.nonzero(bad))
            raise InputError(name, None, f"the runtime of team {r.teams[i]!r} on {r.units[j]!r} is "
                                         f"{r.values[i, j]:g}, not > 0")
        with np.errstate(invalid="ignore"):
            counts = np.isfinite(r.values).sum(axis=1)
            means = np.where(counts > 0, np.nansum(r.values, axis=1) / np.maximum(counts, 1), np.nan)
        given = dict(zip(r.teams, means, strict=True))
        report.append(f"{name}: each team's runtime is the mean of its {len(r.units)} unit runtimes (missing skipped)")
    else:
        df = read_text_table(src, name)
        require_columns(df, ["team"], name)
        first_empty(df, "team", name)
        first_duplicate(df, "team", name, "team")
        col = opts.runtime_column
        if col is None:
            numeric = [c for c in df.columns if c != "team" and _mostly_numbers(df[c].tolist())]
            col = "runtime" if "runtime" in df.columns else (numeric[0] if len(numeric) == 1 else None)
            if col is None:
                raise InputError(name, 1, "no runtime column: name one 'runtime' or set the recipe's "
                                          "inputs.teams.runtime_column")
        require_columns(df, [col], name)
        rows = np.asarray(df.attrs["rows"])
        vals = parse_cells(df[col].tolist(), frozenset({""}), "refuse", name, col, rows, text_ok=False)[0]
        bad = np.isfinite(vals) & (vals <= 0)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise InputError(name, int(rows[i]), f"{col} must be > 0, got {df[col].iloc[i]!r}", column=col,
                             value=df[col].iloc[i])
        given = dict(zip(df["team"].tolist(), vals, strict=True))
    unknown = [t for t in given if t not in set(teams)]
    if unknown:
        report.append(f"{name}: {len(unknown)} team(s) not in the results ignored (first: {unknown[0]!r})")
    out = np.array([given.get(t, np.nan) for t in teams], dtype=float)
    if np.isnan(out).any():
        report.append(f"{name}: {int(np.isnan(out).sum())} team(s) of the results have no runtime (no boost, "
                      "no penalty)")
    return out
