"""The difficulty-weighted leaderboards as a family of the registry (spec §5)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from ..core.export import json_parameters, json_value
from ..core.family import Family, InputSpec, Lazy
from .params import LEADING_COLUMNS, PARAMS, STAGES, resolve

SAMPLE_ROOT = Path(__file__).resolve().parents[2] / "sample_data" / "difficulty"
#: The shipped datasets (folder name -> title); the first shows on first start.
SAMPLE_DATASETS = {"sst-2": "SST-2 dev set (short expert movie reviews; in-distribution)",
                   "imdb": "IMDb dev set (full-length lay movie reviews; out-of-distribution)"}
_SPLIT = re.compile(r"split_(\d+)")


def sample_datasets() -> dict[str, Path]:
    """The shipped datasets: name -> folder holding ``samples.csv`` and ``predictions.csv``."""
    return {name: SAMPLE_ROOT / name for name in SAMPLE_DATASETS}


def split_columns(lb: pd.DataFrame) -> list[str]:
    """The split-wise score columns of a leaderboard, ``split_1 … split_n`` in order."""
    found = [(int(m.group(1)), c) for c in lb.columns if (m := _SPLIT.fullmatch(str(c)))]
    return [c for _, c in sorted(found)]


def csv_columns(lb: pd.DataFrame) -> list[str]:
    """The CSV contract: ``submission, accuracy, accuracy_rank, score, rank, split_1 … split_n``."""
    return [*LEADING_COLUMNS, *split_columns(lb)]


def leaderboard_document(lb: pd.DataFrame, params: Mapping[str, Any]) -> dict[str, Any]:
    """``{"family": "difficulty", "parameters": {...}, "leaderboard": [{"submission", "accuracy",
    "accuracy_rank", "score", "rank", "splits": [{"n", "correct", "score"}, ...]}]}`` in rank
    order (spec §5). ``parameters`` are the effective ones (splits, thresholds and weights as
    used; ``null`` where not used)."""
    effective = lb.attrs.get("parameters")
    if effective is None:
        effective = resolve(PARAMS.validate(dict(params))).parameters()
    rows = []
    splits = split_columns(lb)
    for rec in lb.to_dict("records"):
        row = {c: json_value(rec[c]) for c in LEADING_COLUMNS}
        row["splits"] = [{"n": json_value(rec[f"{c}_n"]), "correct": json_value(rec[f"{c}_correct"]),
                          "score": json_value(rec[c])} for c in splits]
        rows.append(row)
    return {"family": "difficulty", "parameters": json_parameters(effective), "leaderboard": rows}


FAMILY = Family(
    name="difficulty",
    key="df",
    title="Difficulty-weighted leaderboards",
    summary="difficulty-weighted scores (WSBias, WOOD, WMProb; Mishra & Arunkumar, AAAI 2021): samples split "
            "by ease, harder splits weigh more, rewards and penalties per Table 1",
    unit="sample",
    inputs=(
        InputSpec("samples", "Samples", "samples: sample_id, label, optional text, numeric ease columns "
                  "(e.g. bias_algo1)", path="samples.csv"),
        InputSpec("predictions", "Predictions", "predictions, one row per model and sample: model, sample_id, "
                  "predicted, p<label> for each label", path="predictions.csv"),
        InputSpec("train", "Training texts", "training texts for WOOD, one per line (UTF-8): E = mean top-k "
                  "percent TF-IDF cosine similarity", kind="text", required=False, path="train.txt"),
    ),
    params=PARAMS,
    stages=STAGES,
    columns=LEADING_COLUMNS,
    load=Lazy(".data", "load_competition", __package__),
    scorer=Lazy(".scorer", "Scorer", __package__),
    validate=Lazy(".validate", "validate", __package__),
    document=leaderboard_document,
    context=lambda comp: {"ease_columns": comp.ease_columns},
    sample_dir=SAMPLE_ROOT / "sst-2",
    csv_columns=csv_columns,
    stability=(("splits", "weights"), ("reward", "penalty")),
)
