"""The Shovel-Ready unified metric (SPEC.md; docs/metric.md): FP1, overlap removal, fractional
TP, softmin bias aggregation and the efficiency boost."""

from .aggregate import alpha_sweep, check_alpha, softmin, softmin_matrix, softmin_weights
from .competition import Competition, load_competition
from .efficiency import efficiency_boost, eligibility_threshold, what_if
from .explain import explain_essay, fp1_score, fractional_tp, load_ground_truth, remove_overlaps
from .family import FAMILY, leaderboard_document
from .params import DEFAULTS, LEADERBOARD_COLUMNS, PARAMS, QUALITIES, QUALITY_LABELS, STAGES
from .scorer import GroupScores, Scorer, stage_scores

__all__ = [
    "DEFAULTS", "FAMILY", "LEADERBOARD_COLUMNS", "PARAMS", "QUALITIES", "QUALITY_LABELS", "STAGES",
    "Competition", "GroupScores", "Scorer", "alpha_sweep", "check_alpha", "efficiency_boost",
    "eligibility_threshold", "explain_essay", "fp1_score", "fractional_tp", "leaderboard_document",
    "load_competition", "load_ground_truth", "remove_overlaps", "softmin", "softmin_matrix",
    "softmin_weights", "stage_scores", "what_if",
]
