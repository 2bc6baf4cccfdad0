"""The engine modules an exported scoring program needs: found by walking the imports, never
listed by hand, and copied with their absolute imports renamed to the program's package.

Walking follows every ``import`` inside ``scoring`` (at module level and inside functions: a
function-level import may run at import time, as Shovel-Ready's ``boost`` command does), so the
closure is the least set of files that import without error. An import inside a ``try`` whose
``except`` catches ``ImportError`` is optional — the code has a fallback for it (spotGEO's
compiled loops, whose numpy twins do the same work) — and is left out, with what only it needs. A package's ``__init__.py`` runs
whenever one of its modules is imported; it is copied only when something imports a name from
the package itself — otherwise it is replaced by a one-line stub, so that the facade imports
that re-export a whole family are not dragged in.
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass, field
from pathlib import Path

#: the engine package and the folder that holds it
PACKAGE = "scoring"
ROOT = Path(__file__).resolve().parents[1]
#: what an exported program may never import (the UI)
FORBIDDEN = ("streamlit", "lab", "plotly", "altair")
STUB = '"""Part of an exported Leaderboard Lab scoring program (package stub)."""\n'


@dataclass
class Closure:
    """``modules``: dotted name -> file, every engine module the roots import (packages by their
    ``__init__``); ``stubs``: packages whose ``__init__`` is replaced by :data:`STUB`;
    ``third_party``: top-level names imported from outside the standard library and the engine,
    each with whether some import of it runs at module level (``True``) or only inside
    functions (``False``)."""

    modules: dict[str, Path] = field(default_factory=dict)
    stubs: set[str] = field(default_factory=set)
    third_party: dict[str, bool] = field(default_factory=dict)

    def files(self) -> dict[str, str]:
        """Relative path inside the package -> source text, imports renamed later by :func:`rewrite`."""
        out = {}
        for name, path in sorted(self.modules.items()):
            rel = path.relative_to(ROOT).as_posix()
            out[rel] = STUB if name in self.stubs else path.read_text(encoding="utf-8")
        return out


def module_path(name: str) -> Path | None:
    """The file of the engine module ``name`` (``scoring.core.family``), a package's ``__init__.py``, or None."""
    parts = name.split(".")
    if parts[0] != PACKAGE:
        return None
    base = ROOT.joinpath(*parts[1:])
    if base.with_suffix(".py").is_file():
        return base.with_suffix(".py")
    if (base / "__init__.py").is_file():
        return base / "__init__.py"
    return None


def _is_package(name: str) -> bool:
    path = module_path(name)
    return path is not None and path.name == "__init__.py"


def _resolve(module: str, node: ast.ImportFrom) -> str:
    """The absolute name of a ``from … import`` in ``module``."""
    if node.level == 0:
        return node.module or ""
    pkg = module if _is_package(module) else module.rpartition(".")[0]
    for _ in range(node.level - 1):
        pkg = pkg.rpartition(".")[0]
    return f"{pkg}.{node.module}" if node.module else pkg


def _imports(module: str, path: Path) -> tuple[list[str], list[str], dict[str, bool]]:
    """``(engine modules, engine packages whose __init__ is needed, third-party names)``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    top_level = {id(n) for n in tree.body}
    for n in tree.body:  # `if TYPE_CHECKING:` / `try:` blocks at module level run too
        for sub in ast.walk(n):
            if isinstance(sub, (ast.Import, ast.ImportFrom)) and not _in_function(n, sub):
                top_level.add(id(sub))
    optional = {id(sub) for n in ast.walk(tree) if isinstance(n, ast.Try) and _catches_import_error(n)
                for part in n.body for sub in ast.walk(part) if isinstance(sub, (ast.Import, ast.ImportFrom))}
    mods: list[str] = []
    inits: list[str] = []
    third: dict[str, bool] = {}

    def other(name: str, node) -> None:
        top = name.split(".")[0]
        if top and top != PACKAGE and top not in sys.stdlib_module_names:
            third[top] = third.get(top, False) or id(node) in top_level

    for node in ast.walk(tree):
        if id(node) in optional:
            continue  # the code runs without it (its fallback): the program leaves it out
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split(".")[0] == PACKAGE:
                    mods.append(a.name)
                else:
                    other(a.name, node)
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(module, node)
            if base.split(".")[0] != PACKAGE:
                other(base, node)
                continue
            for a in node.names:
                sub = f"{base}.{a.name}"
                if module_path(sub) is not None:
                    mods.append(sub)
                else:  # a name defined in (or re-exported by) the package or module itself
                    mods.append(base)
                    if _is_package(base):
                        inits.append(base)
    return mods, inits, third


def _catches_import_error(node: ast.Try) -> bool:
    """Whether a handler of the ``try`` catches ``ImportError`` (or ``ModuleNotFoundError``)."""
    for h in node.handlers:
        kinds = h.type.elts if isinstance(h.type, ast.Tuple) else [h.type]
        if any(isinstance(k, ast.Name) and k.id in ("ImportError", "ModuleNotFoundError") for k in kinds):
            return True
    return False


def _in_function(top: ast.AST, node: ast.AST) -> bool:
    for sub in ast.walk(top):
        if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) and any(
                n is node for n in ast.walk(sub)):
            return True
    return False


def closure(roots: list[str]) -> Closure:
    """Every engine module ``roots`` import, with their packages (see the module doc).

    Raises
    ------
    ValueError
        When a module of the closure imports the UI (:data:`FORBIDDEN`) or an engine module
        that does not exist.
    """
    out = Closure()
    needed_inits: set[str] = set()
    todo = list(roots)
    while todo:
        name = todo.pop()
        if name in out.modules:
            continue
        path = module_path(name)
        if path is None:
            raise ValueError(f"expected an engine module, got {name!r}")
        out.modules[name] = path
        parts = name.split(".")
        todo.extend(".".join(parts[:i]) for i in range(1, len(parts)))  # the packages run first
        if path.name == "__init__.py" and name not in needed_inits and name not in roots:
            continue  # walked only if some import needs its names (below)
        mods, inits, third = _imports(name, path)
        for top, at_load in third.items():
            if top in FORBIDDEN:
                raise ValueError(f"expected no UI import in the exported engine, got {top!r} in {name}")
            out.third_party[top] = out.third_party.get(top, False) or at_load
        for pkg in inits:
            if pkg not in needed_inits:
                needed_inits.add(pkg)
                out.modules.pop(pkg, None)  # walk it again, now with its imports
                todo.append(pkg)
        todo.extend(mods)
    out.stubs = {n for n, p in out.modules.items() if p.name == "__init__.py" and n not in needed_inits
                 and n not in roots}
    return out


def rewrite(source: str, package: str) -> str:
    """``source`` with every absolute import of the engine (``import scoring…``, ``from
    scoring… import``) renamed to ``package``; relative imports stay as they are. Only import
    statements change (found by the parser): text that merely mentions the name is kept."""
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").split(".")[0] == PACKAGE:
            names = [node.module]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names if a.name.split(".")[0] == PACKAGE]
        for name in names:
            i = node.lineno - 1
            lines[i] = lines[i].replace(name, package + name[len(PACKAGE):], 1)
    return "".join(lines)
