"""The spotGEO detection metric (specs/spotgeo.md; docs/spotgeo.md): per-frame one-to-one
matching within τ, pooled precision/recall/F1, the regression error, and the two rule sets —
the challenge's published definition and the starter-kit code that ran on its server."""

import importlib

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


def __getattr__(name: str):
    """The names above, imported on first use (PEP 562): importing this package alone stays
    light, so a worker process that needs one module of it starts without the rest."""
    module = _LAZY.get(name)
    if module is None:
        if name.startswith("__"):  # a probe (``__wrapped__``, ``__path__`` ...): not a module
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        try:  # a submodule that nothing has imported yet, as the eager imports once provided
            return importlib.import_module(f".{name}", __name__)
        except ModuleNotFoundError as e:
            if e.name != f"{__name__}.{name}":
                raise
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
