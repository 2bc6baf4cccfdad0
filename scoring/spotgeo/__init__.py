"""The spotGEO detection metric (specs/spotgeo.md; docs/spotgeo.md): per-frame one-to-one
matching within τ, pooled precision/recall/F1, the regression error, and the two rule sets —
the challenge's published definition and the starter-kit code that ran on its server."""

from .competition import MAX_TAU, Competition, GroundTruth, Submission, load_competition, load_ground_truth
from .data import InputError
from .family import FAMILY, leaderboard_document
from .matching import match_frame, match_submission
from .params import DEFAULTS, EXTRA_COLUMNS, LEADERBOARD_COLUMNS, PARAMS, STAGES
from .rules import DIFFERENCES, RULES, SEED, STARTER_KIT, RuleSet, frame_sse, penalty, prf
from .scorer import Scorer, final_ranks

__all__ = [
    "DEFAULTS", "DIFFERENCES", "EXTRA_COLUMNS", "FAMILY", "LEADERBOARD_COLUMNS", "MAX_TAU", "PARAMS", "RULES",
    "SEED", "STAGES", "STARTER_KIT", "Competition", "GroundTruth", "InputError", "RuleSet", "Scorer",
    "Submission", "final_ranks", "frame_sse", "leaderboard_document", "load_competition", "load_ground_truth",
    "match_frame", "match_submission", "penalty", "prf",
]
