"""The Custom family (docs/custom.md): a leaderboard composed from a recipe over any results table."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from ..core.export import json_parameters, json_value
from ..core.family import Family, InputSpec, Lazy
from .params import COLUMNS, PARAMS, STAGES

SAMPLE_DIR = Path(__file__).resolve().parents[2] / "sample_data" / "custom"
#: the file endings a table input takes: CSV, or tab-separated text (its first line decides)
TABLES = ("csv", "tsv", "txt")


def csv_columns(lb: pd.DataFrame) -> list[str]:
    """The fixed columns, then ``item:<name>`` per item and ``published:<column>`` per published aggregate."""
    return list(COLUMNS) + [c for c in lb.columns if str(c).startswith(("item:", "published:"))]


def leaderboard_document(lb: pd.DataFrame, params: Mapping[str, Any]) -> dict[str, Any]:
    """``{"family": "custom", "parameters", "notes": [the recipe's choices in words], "recipe": {inputs,
    stages as used}, "published": [each published aggregate beside this recipe, with its sentence], "leaderboard":
    [{fixed columns…, "items": {item: value}, "published": {column: value}}]}`` in rank order."""
    rows = []
    for rec in lb.to_dict("records"):
        row = {c: json_value(rec[c]) for c in COLUMNS}
        row["items"] = {k[5:]: json_value(v) for k, v in rec.items() if str(k).startswith("item:")}
        pub = {k[10:]: json_value(v) for k, v in rec.items() if str(k).startswith("published:")}
        if pub:
            row["published"] = pub
        rows.append(row)
    ordered = {p.name: params.get(p.name, p.default) for p in PARAMS}
    doc = {"family": "custom", "parameters": json_parameters(ordered), "notes": list(lb.attrs.get("notes", []))}
    if "recipe" in lb.attrs:
        doc["recipe"] = lb.attrs["recipe"]
    if lb.attrs.get("published"):  # each published aggregate beside this recipe, with its sentence
        doc["published"] = [pb.document() for pb in lb.attrs["published"]]
    doc["leaderboard"] = rows
    return doc


def _recipe_defaults(comp) -> dict[str, Any]:
    return dict(comp.recipe.stages)


FAMILY = Family(
    name="custom",
    key="cu",
    title="Custom: your own leaderboard",
    summary="a leaderboard composed from a recipe over any team x unit results table: normalise, group, "
            "combine (mean, win rate, softmin, Borda, Copeland, Kemeny-Young) and an efficiency stage",
    unit="unit",
    inputs=(
        InputSpec("results", "Results", "results: long (team, unit, value[, metric]) or wide (one row per team, "
                  "one column per unit: a published table as it is); CSV or tab-separated", path="results.tsv",
                  types=TABLES),
        InputSpec("recipe", "Recipe", "the recipe (JSON, or TOML by a .toml name): how to read the inputs and "
                  "every stage's choice; the stage options below override it", kind="json", required=False,
                  path="recipe.json", types=("json", "toml")),
        InputSpec("units", "Units", "units table: unit plus group columns and numeric (weight, difficulty) "
                  "columns", required=False, path="units.csv", types=TABLES),
        InputSpec("teams", "Teams", "teams table: team plus a runtime (or cost) column, or a second results "
                  "table read as runtimes (recipe inputs.teams.read_as = results)", required=False,
                  path="teams.tsv", types=TABLES),
    ),
    params=PARAMS,
    stages=STAGES,
    columns=COLUMNS,
    load=Lazy(".competition", "load_competition", __package__),
    scorer=Lazy(".scorer", "Scorer", __package__),
    document=leaderboard_document,
    context=lambda comp: comp.context(),
    sample_dir=SAMPLE_DIR,
    csv_columns=csv_columns,
    stability=(("alpha", "band"),),
    validate=Lazy(".validate", "validate", __package__),
)
