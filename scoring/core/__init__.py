"""The shared core of the engine: what every metric family stands on.

* :mod:`.errors` — :class:`InputError` (file, row, problem) and parameter errors;
* :mod:`.params` — one declarative spec per parameter (validation, CLI, widgets, URL, presets);
* :mod:`.ranking` — direction-aware, lexicographic, tie-tolerant ranks ("1224");
* :mod:`.family` — a family declared as data (inputs, parameters, stages, loader, scorer)
  and its additive per-unit statistics;
* :mod:`.tables` — reading CSV files with every cell as text, and size limits;
* :mod:`.export` — strict JSON values, documents and formula-safe CSV;
* :mod:`.cache` — the engine's one small thread-safe LRU.
"""

from .errors import InputError, parameter_error
from .lazy import lazy_names

#: name -> the module it comes from (imported on first use: ``__getattr__`` below)
_LAZY = {
    **dict.fromkeys(("Family", "InputSpec", "Stage", "UnitStats"), ".family"),
    **dict.fromkeys(("Param", "ParamSpec"), ".params"),
    **dict.fromkeys(("TIE", "rank", "rank_rows"), ".ranking"),
}

__all__ = ["TIE", "Family", "InputError", "InputSpec", "Param", "ParamSpec", "Stage", "UnitStats",
           "parameter_error", "rank", "rank_rows"]


__getattr__, __dir__ = lazy_names(__name__, _LAZY, globals())
