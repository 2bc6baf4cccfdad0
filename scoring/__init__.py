"""Leaderboard Lab's scoring engine: a small shared core (``scoring.core``) and one subpackage
per metric family (``scoring.registry`` lists them). Pure numpy/pandas; never imports
Streamlit. The public API is listed in ``docs/api.md``.

The names at this level are the Shovel-Ready family's (SPEC.md §8): ``load_competition``,
``Scorer`` and friends keep working as they always did.
"""

#: The product's version (shown in the HTML report's header).
__version__ = "0.26.0"

import importlib

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
