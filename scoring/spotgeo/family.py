"""The spotGEO detection metric as a family of the registry (specs/spotgeo.md)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from ..core.export import rows_document
from ..core.family import Family, InputSpec, Lazy, submissions_input
from .params import LEADERBOARD_COLUMNS, PARAMS, STAGES

SAMPLE_DIR = Path(__file__).resolve().parents[2] / "sample_data" / "spotgeo"
JSON_ORDER = ("tau", "epsilon", "rules")


def leaderboard_document(lb: pd.DataFrame, params: Mapping[str, Any]) -> dict[str, Any]:
    """``{"family": "spotgeo", "parameters": {"tau", "epsilon", "rules"}, "leaderboard":
    [{submission, tp, fp, fn, precision, recall, f1, score, mse, rank}, ...]}`` (spec §6)."""
    ordered = {k: params[k] for k in JSON_ORDER if k in params}
    return rows_document(lb, LEADERBOARD_COLUMNS, ordered, family="spotgeo")


FAMILY = Family(
    name="spotgeo",
    key="sg",
    title="spotGEO detection",
    summary="the spotGEO challenge's detection score: one-to-one matching within tau, 1 - F1 ranked first, "
            "MSE as tie-breaker; the published definition or the official starter-kit code",
    unit="sequence",
    inputs=(
        InputSpec("ground_truth", "Ground truth", "ground truth JSON: an array of {sequence_id, frame, num_objects, "
                  "object_coords}", kind="json", path="ground_truth.json"),
        submissions_input("json"),
    ),
    params=PARAMS,
    stages=STAGES,
    columns=LEADERBOARD_COLUMNS,
    load=Lazy(".competition", "load_competition", __package__),
    validate=Lazy(".validate", "validate", __package__),
    scorer=Lazy(".scorer", "Scorer", __package__),
    document=leaderboard_document,
    sample_dir=SAMPLE_DIR,
    stability=(("tau", "epsilon"),),
)
