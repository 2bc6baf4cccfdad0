"""Difficulty-weighted leaderboards (Mishra & Arunkumar, AAAI 2021; docs/difficulty.md): WSBias,
WOOD and WMProb — samples ordered by ease and split, harder splits weighing more, rewards and
penalties per Table 1, accuracy beside it."""

from . import views
from .data import Competition, load_competition
from .family import FAMILY, SAMPLE_DATASETS, csv_columns, leaderboard_document, sample_datasets, split_columns
from .metric import difficulty_factor, eq4, equal_bounds, segment_sums, threshold_bounds, weighted_sums
from .params import (
    DELTA,
    LEADING_COLUMNS,
    METRICS,
    PARAMS,
    PRESET_LABELS,
    PRESETS,
    SPLIT_MODES,
    STAGES,
    WEIGHT_SCHEMES,
    Setting,
    resolve,
    scheme_weights,
)
from .scorer import Ordered, Scorer, Sums

__all__ = [
    "DELTA", "FAMILY", "LEADING_COLUMNS", "METRICS", "PARAMS", "PRESETS", "PRESET_LABELS", "SAMPLE_DATASETS",
    "SPLIT_MODES", "STAGES", "WEIGHT_SCHEMES", "Competition", "Ordered", "Scorer", "Setting", "Sums", "csv_columns",
    "difficulty_factor", "eq4", "equal_bounds", "leaderboard_document", "load_competition", "resolve",
    "sample_datasets", "scheme_weights", "segment_sums", "split_columns", "threshold_bounds", "views",
    "weighted_sums",
]
