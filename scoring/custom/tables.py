"""The Custom family's units table (groups and numbers per unit) and teams table (runtimes),
read and validated against the results (``scoring.custom.data``)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core.errors import InputError
from ..core.tables import first_duplicate, first_empty, require_columns
from .data import Results, _numberish, load_results
from .reading import parse_cells, read_text_table
from .recipe import ResultsOptions, TeamsOptions


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
            role = next((c for c in results.columns if c.name == u), None)  # a column the loader left out
            why = "" if role is None else (f"; the results file {results.name} has the column, read as {role.role}: "
                                           f"{role.reason} — name it in the recipe's inputs.results.unit_columns "
                                           "to score it")
            raise InputError(name, int(rows[i]), f"unit {u!r} is not a unit of the results (units: {shown}){why}",
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
                                                   ignore_columns=opts.ignore_columns,
                                                   duplicates=results_opts.duplicates,
                                                   missing_marks=results_opts.missing_marks),
                         empty_teams=True, empty_units=True, detect=False, where="inputs.teams")
        report.extend(r.report)
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
