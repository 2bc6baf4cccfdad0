"""Loading a Custom leaderboard: the results, the recipe, and the optional units and teams tables."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ..core.errors import InputError
from ..core.sources import source_name
from .data import Results, load_results
from .params import NONE, PARAMS
from .recipe import Recipe, read_recipe
from .tables import Units, load_teams, load_units


@dataclass
class Competition:
    """A loaded, validated results table with its recipe (and units, runtimes when given).

    ``sign`` (units): +1 where higher is better, −1 where the recipe lists the unit (or its
    metric) as lower-is-better; ``runtime`` (teams): NaN for a team without one, None without
    a teams table.
    """

    results: Results
    recipe: Recipe
    units: Units | None
    runtime: np.ndarray | None
    sign: np.ndarray
    report: list[str] = field(default_factory=list)
    #: the report's lines that only say what was read (printed as notes, not warnings)
    info: list[str] = field(default_factory=list)
    #: per unit, the recipe's missing-value policy replacing the stage's (None: the stage's)
    missing_by: list = field(default_factory=list)

    @property
    def submission_names(self) -> list[str]:
        return self.results.teams

    @property
    def unit_names(self) -> list[str]:
        return self.results.units

    @property
    def param_defaults(self) -> dict:
        """The recipe's stage choices: the command line's defaults (its options override them)."""
        return dict(self.recipe.stages)

    def context(self) -> dict[str, list[str]]:
        """The data's values for ``choices_from`` parameters."""
        groups = list(self.units.groups) if self.units else []
        numbers = list(self.units.numbers) if self.units else []
        items = list(self.results.units)
        for g in groups:
            items += [v for v in dict.fromkeys(self.units.groups[g]) if v not in items]
        return {"group_columns": [NONE, *groups], "numeric_columns": [NONE, *numbers], "items": items}

    def __repr__(self) -> str:
        return f"Competition({len(self.results.teams)} teams, {len(self.results.units)} units)"


def load_competition(*, results, recipe=None, units=None, teams=None,
                     progress: Callable[[int, int, str], None] | None = None) -> Competition:
    """Load and validate a Custom leaderboard; raise :class:`~scoring.core.errors.InputError`
    naming the file, the row and the problem on bad input. Sources are paths, bytes, uploads or
    DataFrames (``recipe``: a JSON/TOML file, a dict, or a :class:`Recipe`)."""
    rec = read_recipe(recipe, source_name(recipe, "recipe")) if recipe is not None else Recipe()
    if progress:
        progress(0, 1, "results")
    res = load_results(results, source_name(results, "results"), rec.results)
    report = list(res.report)
    known = set(res.units) | set(res.unit_of) | set(res.metric_of)
    for key in ("lower_is_better", "higher_is_better"):
        stray = [x for x in getattr(rec.results, key) if x not in known]
        if stray:
            report.append(f"recipe: {key} names {stray[0]!r}, which is no unit or metric of the results")
    sign = np.where(res.lower if res.lower is not None else np.zeros(len(res.units), dtype=bool), -1.0, 1.0)
    by = rec.results.missing_by
    stray = [x for x in by if x not in known]
    if stray:
        report.append(f"recipe: missing_by names {stray[0]!r}, which is no unit or metric of the results")
    missing_by = [by.get(u, by.get(uo, by.get(m))) for u, uo, m in zip(res.units, res.unit_of, res.metric_of,
                                                                        strict=True)]
    un = load_units(units, source_name(units, "units"), res) if units is not None else None
    rt = None
    if teams is not None:
        rt = load_teams(teams, source_name(teams, "teams"), res.teams, rec.teams, rec.results, report)
    comp = Competition(res, rec, un, rt, sign, report, missing_by=missing_by, info=list(res.info))
    if rec.stages:  # the stages that name the data's columns or items (group_by, weights), checked against them
        try:
            PARAMS.validate(dict(rec.stages), context=comp.context())
        except InputError as e:
            raise InputError(source_name(recipe, "recipe"), None, f"stages.{e.file}: {e.problem}") from None
    if progress:
        progress(1, 1, "")
    return comp
