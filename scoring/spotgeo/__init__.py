"""The spotGEO detection metric (specs/spotgeo.md; docs/spotgeo.md): per-frame one-to-one
matching within τ, pooled precision/recall/F1, the regression error, and the two rule sets —
the challenge's published definition and the starter-kit code that ran on its server."""

from ..core.lazy import lazy_names
from .competition import MAX_TAU, Competition, GroundTruth, Submission, load_competition, load_ground_truth
from .data import InputError
from .matching import match_frame, match_submission
from .rules import DIFFERENCES, RULES, SEED, STARTER_KIT, RuleSet, frame_sse, penalty, prf

#: name -> the module it comes from (imported on first use: ``__getattr__`` below; a worker
#: process loading submissions needs none of them, nor pandas, which they import)
_LAZY = {
    **dict.fromkeys(("FAMILY", "leaderboard_document"), ".family"),
    **dict.fromkeys(("DEFAULTS", "EXTRA_COLUMNS", "LEADERBOARD_COLUMNS", "PARAMS", "STAGES"), ".params"),
    **dict.fromkeys(("Scorer", "final_ranks"), ".scorer"),
}

__all__ = [
    "DEFAULTS", "DIFFERENCES", "EXTRA_COLUMNS", "FAMILY", "LEADERBOARD_COLUMNS", "MAX_TAU", "PARAMS", "RULES",
    "SEED", "STAGES", "STARTER_KIT", "Competition", "GroundTruth", "InputError", "RuleSet", "Scorer",
    "Submission", "final_ranks", "frame_sse", "leaderboard_document", "load_competition", "load_ground_truth",
    "match_frame", "match_submission", "penalty", "prf",
]


__getattr__, __dir__ = lazy_names(__name__, _LAZY, globals())
