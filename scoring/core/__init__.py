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

import importlib

from .errors import InputError, parameter_error

#: name -> the module it comes from (imported on first use: ``__getattr__`` below)
_LAZY = {
    **dict.fromkeys(("Family", "InputSpec", "Stage", "UnitStats"), ".family"),
    **dict.fromkeys(("Param", "ParamSpec"), ".params"),
    **dict.fromkeys(("TIE", "rank", "rank_rows"), ".ranking"),
}

__all__ = ["TIE", "Family", "InputError", "InputSpec", "Param", "ParamSpec", "Stage", "UnitStats",
           "parameter_error", "rank", "rank_rows"]


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
