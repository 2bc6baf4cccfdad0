"""Leaderboard Lab's scoring engine: a small shared core (``scoring.core``) and one subpackage
per metric family (``scoring.registry`` lists them). Pure numpy/pandas; never imports
Streamlit. The public API is listed in ``docs/api.md``.

The names at this level are the Shovel-Ready family's (SPEC.md §8): ``load_competition``,
``Scorer`` and friends keep working as they always did.
"""

#: The product's version (shown in the HTML report's header).
__version__ = "0.26.0"

from .core.lazy import lazy_names

#: name -> the module it comes from (imported on first use: ``__getattr__`` below)
_LAZY = {
    "InputError": ".core.errors", "json_value": ".core.export", "rank": ".core.ranking",
    "families": ".registry", "get": ".registry",
    **dict.fromkeys((
        "DEFAULTS", "LEADERBOARD_COLUMNS", "Competition", "GroupScores", "Scorer", "alpha_sweep",
        "efficiency_boost", "eligibility_threshold", "explain_essay", "fp1_score", "fractional_tp",
        "leaderboard_document", "load_competition", "load_ground_truth", "remove_overlaps", "softmin",
        "softmin_matrix", "softmin_weights", "what_if"), ".shovel_ready"),
}

__all__ = [
    "DEFAULTS", "LEADERBOARD_COLUMNS", "Competition", "GroupScores", "InputError", "Scorer", "alpha_sweep",
    "efficiency_boost", "eligibility_threshold", "explain_essay", "families", "fp1_score", "fractional_tp", "get", "json_value",
    "leaderboard_document", "load_competition", "load_ground_truth", "rank", "remove_overlaps", "softmin",
    "softmin_matrix", "softmin_weights", "what_if",
]


__getattr__, __dir__ = lazy_names(__name__, _LAZY, globals())
