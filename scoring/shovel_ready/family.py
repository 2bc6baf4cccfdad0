"""The Shovel-Ready unified metric as a family of the registry (SPEC.md)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from ..core.export import json_parameters, json_value
from ..core.family import Command, Family, InputSpec, Lazy, submissions_input
from .params import JSON_ORDER, LEADERBOARD_COLUMNS, PARAMS, STAGES

SAMPLE_DIR = Path(__file__).resolve().parents[2] / "sample_data" / "competition"


def leaderboard_document(lb: pd.DataFrame, params: Mapping[str, Any],
                         text: Callable[[Any], Any] = lambda v: v) -> dict[str, Any]:
    """``{"parameters": …, "leaderboard": [{the SPEC §8 columns…, "groups": {label: score}}]}``.

    ``text`` is applied to every value and group label (the dashboard passes its
    spreadsheet-formula escaping).
    """
    groups = [c for c in lb.columns if c not in LEADERBOARD_COLUMNS]
    rows = []
    for rec in lb.to_dict("records"):
        row = {c: text(json_value(rec[c])) for c in LEADERBOARD_COLUMNS}
        row["groups"] = {text(g): json_value(rec[g]) for g in groups}
        rows.append(row)
    ordered = {k: params[k] for k in JSON_ORDER if k in params}
    ordered.update({k: v for k, v in params.items() if k not in ordered})
    return {"parameters": json_parameters(ordered), "leaderboard": rows}


def _boost_command() -> Command:
    # Lazy: declaring the family imports no command-line code (an exported scoring program,
    # scoring.export, copies only what scoring needs)
    return Command("estimate efficiency boosts from scores and runtimes (the competitor's boost estimator)",
                   Lazy(".cli", "configure_boost", __package__), Lazy(".cli", "run_boost", __package__))


FAMILY = Family(
    name="shovel-ready",
    key="sr",
    title="Shovel-Ready metric",
    summary="the Shovel-Ready unified metric: overlap removal, fractional TP, softmin bias aggregation, "
            "efficiency boost",
    unit="essay",
    inputs=(
        InputSpec("ground_truth", "Ground truth", "ground truth: id, discourse_type, predictionstring, "
                  "discourse_effectiveness", path="ground_truth.csv"),
        submissions_input(),
        InputSpec("demographics", "Demographics", "id plus categorical attribute columns", required=False,
                  path="demographics.csv"),
        InputSpec("runtimes", "Runtimes", "submission, runtime in seconds (without: nobody is eligible)",
                  required=False, path="runtimes.csv"),
    ),
    params=PARAMS,
    stages=STAGES,
    columns=tuple(LEADERBOARD_COLUMNS),
    load=Lazy(".competition", "load_competition", __package__),
    scorer=Lazy(".scorer", "Scorer", __package__),
    document=leaderboard_document,
    context=lambda comp: {"attributes": list(comp.attributes)},
    sample_dir=SAMPLE_DIR,
    commands={"boost": _boost_command()},
    stability=(("alpha", "w"), ("band", "max_boost"), ("threshold", "w")),
    validate=Lazy(".validate", "validate", __package__),
    parallel=True,
)
