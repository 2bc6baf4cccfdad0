"""A recipe: how to read the inputs and every stage's choice, as one JSON (or TOML) document.

::

    {"title": "HELM mean win rate",
     "inputs": {"results": {"team_column": "Model", "lower_is_better": [], "split": "refuse",
                            "missing_by": {"BLEU-4": "worst"}, ...},
                "teams": {"read_as": "results"}},
     "stages": {"normalise": "none", "across": "winrate", "efficiency": "none", ...}}

``inputs.results`` says how to read the results table (:class:`ResultsOptions`),
``inputs.teams`` how to read the teams table (:class:`TeamsOptions`), and ``stages`` holds
parameter values of :data:`~scoring.custom.params.PARAMS` (any subset; the others keep their
defaults). A recipe's stages are the starting values: on the command line an option overrides
its stage, in the app the sidebar starts from them. Never evaluated: ``json.loads`` or
``tomllib.loads`` only.
"""

from __future__ import annotations

import json
import math
import tomllib
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from ..core import limits
from ..core.errors import InputError
from ..core.jsonsafe import check_bounds, check_tree, loads_bounded
from ..core.sources import source_bytes
from .params import PARAMS
from .reading import SPLITS

DUPLICATES = ("refuse", "number", "first")
EXTRA_FIELD = ("refuse", "first", "last")
READ_AS = ("table", "results")


@dataclass(frozen=True)
class ResultsOptions:
    """How to read the results table."""

    #: the team column of a wide table (None: detected — see ``scoring.custom.data``)
    team_column: str | None = None
    #: columns to leave out of the units besides the recognised published aggregates
    ignore_columns: tuple[str, ...] = ()
    #: published aggregate columns (kept beside the leaderboard, never a unit); added to the recognised names
    aggregate_columns: tuple[str, ...] = ()
    #: the unit columns, when only some are wanted (empty: every numeric column)
    unit_columns: tuple[str, ...] = ()
    #: cells meaning "missing" (compared without case)
    missing_marks: tuple[str, ...] = ("", "-")
    #: an ``a/b`` cell: refuse, first, second, mean, or both (two units)
    split: str = "refuse"
    #: a team named twice: refuse, number (the later ones get " (2)", " (3)"), or first (keep the first row)
    duplicates: str = "refuse"
    #: units or metrics (the part after " - " of a HELM column, or a long table's metric) where lower is better
    lower_is_better: tuple[str, ...] = ()
    #: units or metrics where higher is better, whatever their names suggest (an "error rate" that is not one)
    higher_is_better: tuple[str, ...] = ()
    #: per unit or metric, a missing-value policy that replaces the stage's: skip, worst, zero or a number
    missing_by: Mapping[str, Any] = field(default_factory=dict)
    #: published rank columns (1 = best: kept beside the leaderboard, never a unit); added to the recognised names
    rank_columns: tuple[str, ...] = ()
    #: columns describing the teams, not scoring them (a size, a date, a URL): left out of the units
    metadata_columns: tuple[str, ...] = ()
    #: leave out the teams and the unit columns without any value (else each is an error naming it)
    drop_empty: bool = False
    #: every row one field longer than the header: refuse; first (the header lacks the first column's
    #: name: row names, as pandas writes an index); last (a separator after the last field)
    extra_field: str = "refuse"


@dataclass(frozen=True)
class TeamsOptions:
    """How to read the teams table: ``table`` (``team`` plus a runtime or cost column) or
    ``results`` (a second results table — HELM's efficiency table — whose mean over each team's
    units is its runtime)."""

    read_as: str = "table"
    #: the runtime (or cost) column of a ``table`` (None: ``runtime``, else the only numeric column)
    runtime_column: str | None = None
    #: a ``results`` table's team column (None: detected)
    team_column: str | None = None
    #: a ``results`` table's columns to leave out of the runtime mean
    ignore_columns: tuple[str, ...] = ()


@dataclass(frozen=True)
class Recipe:
    """A parsed, checked recipe (module doc)."""

    title: str = ""
    description: str = ""
    results: ResultsOptions = ResultsOptions()
    teams: TeamsOptions = TeamsOptions()
    #: stage choices as given (validated, not completed: the scorer fills the defaults)
    stages: Mapping[str, Any] = field(default_factory=dict)

    def document(self, params: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The recipe as a JSON-ready dict; with ``params``, the stages as they are now."""
        inputs = {"results": _plain(asdict(self.results)), "teams": _plain(asdict(self.teams))}
        stages = PARAMS.to_json(dict(params if params is not None else self.stages))
        return {"title": self.title, "description": self.description, "inputs": inputs, "stages": stages}


def _plain(d: dict) -> dict:
    return {k: list(v) if isinstance(v, tuple) else v for k, v in d.items()}


def _fields(cls, given: Mapping, where: str, name: str) -> dict:
    known = list(cls.__dataclass_fields__)
    out = {}
    for key, value in given.items():
        if key not in known:
            raise InputError(name, None, f"unknown key {where}.{key} (known: {', '.join(known)})")
        default = cls.__dataclass_fields__[key].default
        if key == "missing_by":
            value = _missing_by(value, f"{where}.{key}", name)
        elif isinstance(default, bool):
            if not isinstance(value, bool):
                raise InputError(name, None, f"{where}.{key}: expected true or false, got {value!r}")
        elif isinstance(default, tuple):
            items = [value] if isinstance(value, str) else value
            if not isinstance(items, list) or not all(isinstance(x, str) for x in items):
                raise InputError(name, None, f"{where}.{key}: expected a list of names, got {value!r}")
            value = tuple(items)
        elif value is not None and not isinstance(value, str):
            raise InputError(name, None, f"{where}.{key}: expected a name, got {value!r}")
        out[key] = value
    return out


def _missing_by(value: Any, where: str, name: str) -> dict[str, Any]:
    if not isinstance(value, Mapping):
        raise InputError(name, None, f"{where}: expected an object of unit or metric: policy, got {value!r}")
    out = {}
    for k, v in value.items():
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            try:
                v = float(v)
            except OverflowError:  # an integer past the largest float (a TOML hex of 300 digits)
                v = math.inf
        if not (v in ("skip", "worst", "zero") or (isinstance(v, float) and math.isfinite(v))):
            shown = v if not isinstance(v, float) else "a number beyond ±1.8e308" if math.isinf(v) else v
            raise InputError(name, None, f"{where}.{k}: expected skip, worst, zero or a number, got {shown!r}")
        out[str(k)] = v
    return out


def _choice(value: str, allowed: tuple[str, ...], what: str, name: str) -> None:
    if value not in allowed:
        raise InputError(name, None, f"{what}: expected one of {', '.join(allowed)}, got {value!r}")


def parse_recipe(doc: Any, name: str = "recipe") -> Recipe:
    """A :class:`Recipe` from a parsed document (a dict), every key and value checked.

    >>> r = parse_recipe({"title": "t", "stages": {"across": "winrate"}})
    >>> r.stages["across"], r.results.split
    ('winrate', 'refuse')
    >>> parse_recipe({"stages": {"alpha": -1}})
    Traceback (most recent call last):
    ...
    scoring.core.errors.InputError: recipe: stages.alpha: expected a number in [0, ∞) or 'inf', got -1
    """
    if not isinstance(doc, Mapping):
        raise InputError(name, None, f"expected a JSON object at the top, got {type(doc).__name__}")
    unknown = [k for k in doc if k not in ("title", "description", "inputs", "stages")]
    if unknown:
        raise InputError(name, None, f"unknown key {unknown[0]!r} (known: title, description, inputs, stages)")
    inputs = doc.get("inputs") or {}
    if not isinstance(inputs, Mapping):
        raise InputError(name, None, "inputs: expected an object with results and/or teams")
    unknown = [k for k in inputs if k not in ("results", "teams")]
    if unknown:  # a units table is read as it is (unit, group and numeric columns): it has no options
        raise InputError(name, None, f"unknown key inputs.{unknown[0]} (known: results, teams; a units table "
                                     "has no reading options)")
    for role in ("results", "teams"):
        if not isinstance(inputs.get(role) or {}, Mapping):
            raise InputError(name, None, f"inputs.{role}: expected an object")
    results = ResultsOptions(**_fields(ResultsOptions, inputs.get("results") or {}, "inputs.results", name))
    teams = TeamsOptions(**_fields(TeamsOptions, inputs.get("teams") or {}, "inputs.teams", name))
    _choice(results.split, SPLITS, "inputs.results.split", name)
    _choice(results.duplicates, DUPLICATES, "inputs.results.duplicates", name)
    _choice(results.extra_field, EXTRA_FIELD, "inputs.results.extra_field", name)
    _choice(teams.read_as, READ_AS, "inputs.teams.read_as", name)
    stages = doc.get("stages") or {}
    if not isinstance(stages, Mapping):
        raise InputError(name, None, "stages: expected an object of stage choices")
    try:
        PARAMS.validate(dict(stages))
    except InputError as e:
        raise InputError(name, None, f"stages.{e.file}: {e.problem}") from None
    clean = {k: PARAMS[k].coerce(v) for k, v in stages.items()}
    for key in ("title", "description"):
        if not isinstance(doc.get(key, ""), str):
            raise InputError(name, None, f"{key}: expected text")
    return Recipe(doc.get("title", ""), doc.get("description", ""), results, teams, clean)


def read_recipe(src, name: str = "recipe") -> Recipe:
    """A recipe from a JSON (or TOML, by a ``.toml`` name) file, bytes, upload or dict."""
    if isinstance(src, Recipe):
        return src
    if isinstance(src, Mapping):
        return parse_recipe(src, name)
    data = source_bytes(src, name)
    if len(data) > limits.MAX_RECIPE_BYTES:
        raise InputError(name, None, f"a recipe of {limits.human(len(data))}, over the limit of "
                                     f"{limits.human(limits.MAX_RECIPE_BYTES)} (LAB_MAX_RECIPE_BYTES raises it)")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputError(name, None, "not a UTF-8 text file") from None
    if name.lower().endswith(".toml"):
        check_bounds(text, what=name)  # TOML's arrays and tables nest like JSON's: the same depth limit
        try:
            doc = tomllib.loads(text)
        except (tomllib.TOMLDecodeError, RecursionError, ValueError) as e:  # ValueError: an integer of 4,300+ digits
            raise InputError(name, None, f"not a TOML document ({str(e)[:200]})") from None
        check_tree(doc, what=name)  # dotted keys (a.b.c = 1) nest without brackets: the depth of what was read
    else:
        doc = loads_bounded(text, what=name)  # bounded depth and numbers; InputError naming the file
    return parse_recipe(doc, name)


def recipe_json(recipe: Recipe, params: Mapping[str, Any] | None = None) -> str:
    """The recipe as JSON text (with ``params``: the stages as they are now)."""
    return json.dumps(recipe.document(params), indent=2, ensure_ascii=False) + "\n"
