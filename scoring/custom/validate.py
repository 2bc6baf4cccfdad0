"""Every problem of a Custom bundle at once (the Data page's report), not only the first.

The recipe is read first (its reading options say how to read the tables; a bad recipe is its
only problem). Then each table is read once (CSV or tab-separated) and checked as the loader
checks it, again and again without the row each problem names
(:func:`scoring.core.validate.table_errors`), so that every bad row is named with its row.
"""

from __future__ import annotations

import pandas as pd

from ..core.errors import InputError
from ..core.sources import source_bytes, source_name
from ..core.validate import MAX_ERRORS, read_rows, stopped, table_errors
from .data import load_results
from .reading import is_tab_separated, read_text_table
from .recipe import Recipe, read_recipe
from .tables import load_teams, load_units


def _errors(check, src, name: str, limit: int):
    """A table read once (a record with the wrong number of fields named and left out), then
    checked row by row."""
    try:
        data = src if isinstance(src, pd.DataFrame) else source_bytes(src, name)
    except InputError as e:
        return stopped([e]), None
    tab = isinstance(data, bytes) and is_tab_separated(data.removeprefix(b"\xef\xbb\xbf"))
    df, errors = read_rows(lambda s: read_text_table(s, name), data, name, limit=limit, quoting=not tab,
                           delimiter="\t" if tab else ",")
    if df is None:
        return errors, None
    found, result = table_errors(check, df, name, limit=max(1, limit - len(errors)))
    return sorted(errors + found, key=lambda e: e.row or 0), result


def validate(*, results, recipe=None, units=None, teams=None, limit: int = MAX_ERRORS,
             progress=None) -> list[InputError]:
    """Up to ``limit`` problems of the bundle, file by file (none: it loads); ``progress(done,
    total, name)`` counts the one results table (the other inputs are small)."""
    try:
        rec = read_recipe(recipe, source_name(recipe, "recipe")) if recipe is not None else Recipe()
    except InputError as e:
        return stopped([e])
    name = source_name(results, "results")
    if progress is not None:
        progress(0, 1, name)
    found, res = _errors(lambda df: load_results(df, name, rec.results), results, name, limit)
    if res is not None and units is not None:
        uname = source_name(units, "units")
        found += _errors(lambda df: load_units(df, uname, res), units, uname, limit)[0]
    if res is not None and teams is not None:
        tname = source_name(teams, "teams")
        found += _errors(lambda df: load_teams(df, tname, res.teams, rec.teams, rec.results, []), teams, tname,
                         limit)[0]
    if progress is not None:
        progress(1, 1, "")
    return found[:limit]
