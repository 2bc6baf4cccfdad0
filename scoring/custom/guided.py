"""The guided import's proposal: everything the Data page shows as understood about a results
table before it is loaded, and the recipe options that load it so.

:func:`propose` reads the table once (a row one field longer than the header is read as the
header's shape says: ``extra_field``), finds the team column, each column's role and direction
(``scoring.custom.columns``, with the published aggregate's fit), the missing marks the table
uses beyond ``-`` and empty (``N/A``, ``—``), ``a/b`` cells (read as their mean unless the recipe
says otherwise), repeated team names (numbered) and rows or columns without any value (left
out: ``drop_empty``). :meth:`Proposal.options` turns it — with the user's changes — into
explicit recipe options: every column named in its role, every unit's direction, so that the
link and the command line read the table exactly as the page showed it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core.errors import InputError
from .columns import MISSING_WORDS, ROLES, Column, missing_found
from .data import TEAM_NAMES, read_columns
from .fit import Fit
from .reading import extra_field_guess, read_text_table
from .recipe import Recipe, ResultsOptions, TeamsOptions

#: the recipe list each role's columns go to
ROLE_KEYS = {"unit": "unit_columns", "aggregate": "aggregate_columns", "rank": "rank_columns",
             "metadata": "metadata_columns", "ignored": "ignore_columns", "empty": "ignore_columns"}


@dataclass(frozen=True)
class Proposal:
    """What was understood of a results table (module doc); ``problem``: why it cannot be read
    even so (then the rest is as far as reading went)."""

    name: str
    rows: int = 0
    long: bool = False
    team_column: str | None = None
    text_columns: tuple[str, ...] = ()
    columns: tuple[Column, ...] = ()
    fit: Fit | None = None
    extra_field: str = "refuse"
    missing_marks: tuple[str, ...] = ("", "-")
    #: usual missing marks found in the table (the ones in units proposed, the others offered)
    found_marks: tuple[str, ...] = ()
    split: str = "refuse"
    pairs: int = 0
    duplicates: str = "refuse"
    repeated: int = 0
    empty_teams: tuple[str, ...] = ()
    drop_empty: bool = False
    base: ResultsOptions = field(default_factory=ResultsOptions)
    problem: InputError | None = None

    @property
    def empty_units(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.columns if c.role == "empty")

    @property
    def asked(self) -> tuple[Column, ...]:
        """The columns whose role or direction is a guess to check."""
        return tuple(c for c in self.columns if c.asked)

    def options(self, *, team_column: str | None = None, roles: Mapping[str, str] | None = None,
                lower: Mapping[str, bool] | None = None, **given: Any) -> ResultsOptions:
        """Explicit recipe options for this table: the proposal, with ``team_column``, each
        column's role (:data:`~scoring.custom.columns.ROLES`), each unit's direction
        (``lower``: name -> lower is better) and any other option (``split=``, ``missing_marks=``,
        ``duplicates=``, ``drop_empty=``, ``extra_field=``, ``missing_by=``) as changed.

        >>> p = Proposal("r.tsv", team_column="Model", columns=(Column("A", "unit", "numbers"),
        ...              Column("Avg", "aggregate", "its name")))
        >>> o = p.options(roles={"Avg": "unit"}, lower={"A": True})
        >>> o.unit_columns, o.aggregate_columns, o.lower_is_better, o.higher_is_better
        (('A', 'Avg'), (), ('A',), ('Avg',))
        """
        if self.long:
            return ResultsOptions(**{**_plain(self.base), "missing_marks": self.missing_marks,
                                     "drop_empty": self.drop_empty, **given})
        roles = {c.name: (roles or {}).get(c.name, c.role) for c in self.columns}
        bad = [r for r in roles.values() if r not in ROLES]
        if bad:
            raise ValueError(f"expected a role among {', '.join(ROLES)}, got {bad[0]!r}")
        lists: dict[str, list[str]] = {k: [] for k in set(ROLE_KEYS.values())}
        for c, r in roles.items():
            lists[ROLE_KEYS[r]].append(c)
        is_lower = {c.name: bool((lower or {}).get(c.name, c.lower)) for c in self.columns}
        units = lists["unit_columns"]
        out = {**_plain(self.base), "team_column": team_column or self.team_column,
               **{k: tuple(v) for k, v in lists.items()},
               "lower_is_better": tuple(c for c in units if is_lower[c]),
               "higher_is_better": tuple(c for c in units if not is_lower[c]),
               "missing_marks": self.missing_marks, "split": self.split, "duplicates": self.duplicates,
               "drop_empty": self.drop_empty, "extra_field": self.extra_field}
        out.update(given)
        return ResultsOptions(**out)


def _plain(o: ResultsOptions) -> dict[str, Any]:
    return {k: getattr(o, k) for k in ResultsOptions.__dataclass_fields__}


def propose(data: bytes, name: str, base: ResultsOptions | None = None) -> Proposal:
    """Read ``data`` (a results table's bytes) and propose how to load it (module doc); the
    options of ``base`` (an uploaded recipe's) are kept where they say something."""
    base = base or ResultsOptions()
    extra = base.extra_field if base.extra_field != "refuse" else (extra_field_guess(data) or "refuse")
    try:
        df = read_text_table(data, name, extra_field=extra)
    except InputError as e:
        return Proposal(name, extra_field=extra, base=base, problem=e)
    if len(df) == 0:
        return Proposal(name, extra_field=extra, base=base, problem=InputError(name, None, "the table has no rows"))
    lower_cols = {c.lower() for c in df.columns}
    texts = tuple(c for c in df.columns if c and len(df) and not _numbers(df[c].tolist()))
    if {"team", "unit", "value"} <= lower_cols and base.team_column is None:
        return _long(df, name, base, extra)
    try:
        opts = ResultsOptions(**{**_plain(base), "extra_field": extra})
        team, cols, _ = read_columns(df, name, opts)
        known = {x.lower() for x in base.missing_marks}
        found = tuple(m for m in missing_found(cols) if m.lower() not in known)  # proposed
        offered = tuple(m for m in missing_found(cols, (*ROLES,)) if m.lower() not in known)  # offered
        marks = tuple(dict.fromkeys((*base.missing_marks, *found)))
        opts = ResultsOptions(**{**_plain(opts), "missing_marks": marks})
        team, cols, explained = read_columns(df, name, opts)
    except InputError as e:
        return Proposal(name, len(df), team_column=_first_text(df, texts), text_columns=texts, extra_field=extra,
                        base=base, problem=e)
    pairs = sum(c.pairs for c in cols if c.role == "unit")
    names = df[team].tolist()
    repeated = len(names) - len(set(names))
    units = [c.name for c in cols if c.role == "unit"]
    missing = frozenset(m.lower() for m in marks)
    if units:
        present = np.column_stack([~df[u].str.lower().isin(missing).to_numpy() for u in units]).any(axis=1)
    else:
        present = np.ones(len(df), dtype=bool)
    empty_teams = tuple(str(names[i]) for i in np.flatnonzero(~present))
    empties = bool(empty_teams) or any(c.role == "empty" for c in cols)
    return Proposal(
        name, len(df), False, team, texts, tuple(cols), explained, extra, marks, tuple(dict.fromkeys(found + offered)),
        split=base.split if base.split != "refuse" or not pairs else "mean", pairs=pairs,
        duplicates=base.duplicates if base.duplicates != "refuse" or not repeated else "number", repeated=repeated,
        empty_teams=empty_teams, drop_empty=base.drop_empty or empties, base=base)


def _long(df, name: str, base: ResultsOptions, extra: str) -> Proposal:
    col = next(c for c in df.columns if c.lower() == "value")
    cells = df[col].tolist()
    found = tuple(dict.fromkeys(c for c in cells if c.strip().lower() in MISSING_WORDS and
                                c.lower() not in {m.lower() for m in base.missing_marks}))
    return Proposal(name, len(df), True, "team", extra_field=extra,
                    missing_marks=tuple(dict.fromkeys((*base.missing_marks, *found))), found_marks=found,
                    drop_empty=base.drop_empty, base=base)


def _numbers(cells: list[str]) -> bool:
    for c in cells:
        try:
            float(c)
            return True
        except ValueError:
            continue
    return False


def _first_text(df, texts: tuple[str, ...]) -> str | None:
    lower = {c.lower(): c for c in reversed(list(df.columns))}
    return next((lower[n] for n in TEAM_NAMES if n in lower), texts[0] if texts else None)


def teams_options(data: bytes, name: str, base: TeamsOptions | None = None) -> tuple[TeamsOptions, list[str]]:
    """A teams table's options (kept from ``base`` where it says something) and its columns: read
    as a ``table`` when it has a ``team`` column, else as a second ``results`` table (HELM's
    efficiency table: a runtime per scenario)."""
    base = base or TeamsOptions()
    df = read_text_table(data, name)
    cols = list(df.columns)
    read_as = base.read_as
    if read_as == "table" and "team" not in cols:
        read_as = "results"
    return TeamsOptions(read_as, base.runtime_column, base.team_column, base.ignore_columns), cols


def recipe_document(recipe: Recipe, results: ResultsOptions, teams: TeamsOptions | None = None) -> dict[str, Any]:
    """The recipe (its title, description and stages kept) with these reading options."""
    return Recipe(recipe.title, recipe.description, results, teams or recipe.teams, recipe.stages).document()


