"""The QA family (spec: ``/work/shared/specs/qa.md``; docs/qa.md) as a family of the registry."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from ..core.export import json_parameters, json_value
from ..core.family import Family, InputSpec, Lazy, submissions_input
from .params import FIXED_COLUMNS, METRICS, PARAMS, STAGES

SAMPLE_DIR = Path(__file__).resolve().parents[2] / "sample_data" / "qa"


def _themes(lb: pd.DataFrame) -> list[str]:
    themes = lb.attrs.get("themes")
    if themes is not None:
        return list(themes)
    seen: list[str] = []
    for c in lb.columns:
        t, sep, m = str(c).rpartition(":")
        if sep and m in METRICS and t not in seen:
            seen.append(t)
    return sorted(seen)


def csv_columns(lb: pd.DataFrame) -> list[str]:
    """The CSV contract (spec §6): the fixed columns, then per theme (sorted)
    ``<theme>:accuracy, <theme>:f1, <theme>:ait_ms, <theme>:multiplier, <theme>:score``."""
    return list(FIXED_COLUMNS) + [f"{t}:{m}" for t in _themes(lb) for m in METRICS]


def leaderboard_document(lb: pd.DataFrame, params: Mapping[str, Any]) -> dict[str, Any]:
    """``{"family": "qa", "parameters": …, "leaderboard": [{fixed columns…, "themes": {theme:
    {"accuracy", "f1", "ait_ms", "multiplier", "score"}}}]}`` in row (rank) order.

    ``parameters`` are the given ones, with ``weights`` as used (``lb.attrs["weights"]``: the
    given weights, else the weights file's, else equal weights; in sorted theme order)."""
    themes = _themes(lb)
    weights = lb.attrs.get("weights")
    # pandas deep-copies ``attrs`` (the theme list, the weights) into every column it hands
    # out: a frame without them is read instead, so the work is proportional to the output
    bare = lb.copy(deep=False)
    bare.attrs = {}
    fixed = {c: bare[c].tolist() for c in FIXED_COLUMNS}
    block = bare[[f"{t}:{m}" for t in themes for m in METRICS]].to_numpy(dtype=float)
    block = block.reshape(len(bare), len(themes), len(METRICS)).tolist()
    rows = []
    for i, per_theme in enumerate(block):
        row = {c: json_value(fixed[c][i]) for c in FIXED_COLUMNS}
        row["themes"] = {t: dict(zip(METRICS, map(json_value, vals), strict=True))
                         for t, vals in zip(themes, per_theme, strict=True)}
        rows.append(row)
    ordered = {p.name: params.get(p.name, p.default) for p in PARAMS}
    if "weights" in lb.attrs:  # as used: the file's or the equal default when none were given
        ordered["weights"] = weights
    return {"family": "qa", "parameters": json_parameters(ordered), "leaderboard": rows}


FAMILY = Family(
    name="qa",
    key="qa",
    title="QA: retrieval, answers and speed",
    summary="the QA metric: paragraph accuracy plus answer token F1 per theme, an inference-time penalty, "
            "weighted themes, and the rank under unknown weights",
    unit="question",
    inputs=(
        InputSpec("ground_truth", "Ground truth", "ground truth: question_id, theme, paragraph_ids (JSON list), "
                  "answers (JSON list)", path="ground_truth.csv"),
        submissions_input(columns="question_id, paragraph_id, answer, inference_ms"),
        InputSpec("theme_weights", "Theme weights", "theme, weight (every theme once; used as given); "
                  "without: 1 / (number of themes) each", required=False, path="theme_weights.csv"),
    ),
    params=PARAMS,
    stages=STAGES,
    columns=FIXED_COLUMNS,
    load=Lazy(".competition", "load_competition", __package__),
    validate=Lazy(".validate", "validate", __package__),
    scorer=Lazy(".scorer", "Scorer", __package__),
    document=leaderboard_document,
    context=lambda comp: {"themes": list(comp.themes)},
    sample_dir=SAMPLE_DIR,
    csv_columns=csv_columns,
    stability=(("time_threshold", "weights"),),
)
