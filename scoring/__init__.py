"""Leaderboard Lab's scoring engine: the Shovel-Ready unified metric (see SPEC.md, docs/metric.md).

Pure numpy/pandas; never imports Streamlit. The public API is listed in ``docs/api.md``.
"""

from .aggregate import efficiency_boost, rank_scores, softmin, softmin_matrix
from .competition import Competition, load_competition
from .errors import InputError
from .explain import explain_essay, fp1_score, fractional_tp, load_ground_truth, remove_overlaps
from .export import json_value, leaderboard_document
from .scorer import DEFAULTS, LEADERBOARD_COLUMNS, GroupScores, Scorer

__all__ = [
    "DEFAULTS", "LEADERBOARD_COLUMNS", "Competition", "GroupScores", "InputError", "Scorer",
    "efficiency_boost", "explain_essay", "fp1_score", "fractional_tp", "json_value", "leaderboard_document",
    "load_competition", "load_ground_truth",
    "rank_scores", "remove_overlaps", "softmin", "softmin_matrix",
]
