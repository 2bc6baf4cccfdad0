"""The metric families, as data. The command line, the app's navigation and sidebar, and the
docs are built from this list; adding a family is one line in :data:`MODULES` (see
docs/architecture.md).

Each module named here exposes ``FAMILY`` (a :class:`scoring.core.Family`). Families are
imported on first use, so ``import scoring`` stays light.
"""

from __future__ import annotations

from importlib import import_module

from .core.family import Family

#: Family modules, in the order of the app's navigation and of ``python -m scoring --help``.
MODULES = (
    "scoring.shovel_ready",
    "scoring.spotgeo",
    "scoring.qa",
    "scoring.difficulty",
    "scoring.custom",
)

_cache: dict[str, Family] = {}


def families() -> list[Family]:
    """Every registered family, in order."""
    if not _cache:
        for mod in MODULES:
            fam = import_module(mod).FAMILY
            _cache[fam.name] = fam
    return list(_cache.values())


def get(name: str) -> Family:
    """The family called ``name`` (``KeyError`` naming the known ones)."""
    by_name = {f.name: f for f in families()}
    if name not in by_name:
        raise KeyError(f"unknown family {name!r} (known: {', '.join(by_name)})")
    return by_name[name]
