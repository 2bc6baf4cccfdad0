"""A package's names loaded on first use (PEP 562): importing the package alone stays light,
so a worker process that needs one of its modules starts without the rest (pandas, scipy).

    __getattr__, __dir__ = lazy_names(__name__, {"Scorer": ".scorer"}, globals())
"""

from __future__ import annotations

import importlib
from collections.abc import Callable


def lazy_names(package: str, names: dict[str, str], namespace: dict) -> tuple[Callable, Callable]:
    """The module-level ``__getattr__`` and ``__dir__`` of ``package``: a name of ``names`` is
    taken from its module (relative to the package) on first use and kept in ``namespace``;
    any other name that is a submodule not yet imported is imported, as eager imports once
    provided; anything else is an ``AttributeError``.

    >>> get, _ = lazy_names("scoring.core", {"rank": ".ranking"}, {})
    >>> get("rank").__module__, get("paramtext").__name__
    ('scoring.core.ranking', 'scoring.core.paramtext')
    """

    def __getattr__(name: str):
        module = names.get(name)
        if module is None:
            if name.startswith("__"):  # a probe (``__wrapped__``, ``__path__`` ...): not a module
                raise AttributeError(f"module {package!r} has no attribute {name!r}")
            try:
                return importlib.import_module(f".{name}", package)
            except ModuleNotFoundError as e:
                if e.name != f"{package}.{name}":
                    raise
                raise AttributeError(f"module {package!r} has no attribute {name!r}") from None
        value = getattr(importlib.import_module(module, package), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted(set(namespace) | set(names))

    return __getattr__, __dir__
