"""Writing an exported scoring program: the spec of the view, the engine's module closure
renamed to the program's package, and each platform's files (:mod:`scoring.export.targets`)."""

from __future__ import annotations

import datetime as _dt
import importlib.metadata
import importlib.util
import io
import json
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.errors import InputError
from ..core.family import Family
from .closure import PACKAGE, ROOT, Closure, closure, rewrite
from .shapes import FIELD_FOLDER, SHAPES, DataFile, read_sources

#: the package name of the engine inside an exported program
PROGRAM = "lbmetric"
TARGETS = ("codabench", "kaggle", "python")
#: import name -> the distribution pinned in requirements.txt
DISTRIBUTIONS = {"numpy": "numpy", "pandas": "pandas", "pyarrow": "pyarrow", "scipy": "scipy",
                 "sklearn": "scikit-learn"}


@dataclass
class View:
    """What an export writes: the family, its reference files and field, the spec the program
    reads, and the header facts."""

    family: Family
    reference: list[DataFile]
    field: list[DataFile]
    spec: dict[str, Any]
    closure: Closure
    requirements: list[str]
    header: dict[str, Any] = field(default_factory=dict)
    #: what the export found that may keep the platform from the dashboard's numbers
    warnings: list[str] = field(default_factory=list)


def roots(fam: Family) -> list[str]:
    """The modules an exported program imports first: the family's declaration, its loader and
    scorer, and the program's own entry points."""
    mods = [f"{fam.load.package}.family", f"{PACKAGE}.export.runtime", f"{PACKAGE}.export.program"]
    for lazy in (fam.load, fam.scorer):
        mods.append(importlib.util.resolve_name(lazy.module, lazy.package))
    return mods


def project_commit() -> str:
    """The engine's git commit (``+changes`` when ``scoring/`` differs from it), or ``unknown``."""
    try:
        head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True,
                              timeout=10, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(ROOT), "diff", "--quiet", "HEAD", "--", PACKAGE],
                               capture_output=True, timeout=10).returncode != 0
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return head + ("+changes" if dirty else "")


def requirements(c: Closure, *, extra: tuple[str, ...] = ()) -> list[str]:
    """``name==version`` of every third-party package the closure imports at load time (plus
    ``extra``), as installed here: the versions the dashboard's numbers came from."""
    names = sorted({n for n, at_load in c.third_party.items() if at_load} | set(extra))
    out = []
    for n in names:
        dist = DISTRIBUTIONS.get(n)
        if dist is None:
            raise ValueError(f"expected numpy, pandas, pyarrow, scipy or scikit-learn in the engine's closure, got {n!r}")
        out.append(f"{dist}=={importlib.metadata.version(dist)}")
    return out


def _team_column(ref: list[DataFile], recipe: DataFile | None) -> str:
    """The Custom results table's team column, as the loader finds it."""
    from ..custom.data import _team_column as detect
    from ..custom.reading import read_text_table
    from ..custom.recipe import Recipe, read_recipe

    res = next(f for f in ref if f.role == "results")
    rec = read_recipe(io.BytesIO(recipe.data), recipe.name) if recipe else Recipe()
    if recipe is not None and recipe.origin.lower().endswith(".toml"):
        named = io.BytesIO(recipe.data)
        named.name = "recipe.toml"
        rec = read_recipe(named, "recipe.toml")
    df = read_text_table(res.data, res.name)
    lower = {c.lower(): c for c in reversed(list(df.columns))}
    if {"team", "unit", "value"} <= set(lower) and rec.results.team_column is None:
        return lower["team"]
    return detect(df, rec.results, res.name)


def view(fam: Family, sources: Mapping[str, Any], params: Mapping[str, Any], *, link: str = "",
         commit: str | None = None, now: _dt.datetime | None = None) -> View:
    """The export of a view: ``sources`` as the family's loader takes them (paths, or
    ``(name, bytes)`` uploads), ``params`` the view's checked parameters."""
    shape = SHAPES[fam.name]
    ref, subs = read_sources(fam, sources)
    recipe = next((f for f in ref if f.role == "recipe"), None)
    ref = [f for f in ref if f.role != "recipe"]
    spec: dict[str, Any] = {
        "family": fam.name, "module": fam.load.package.rpartition(".")[2],
        "parameters": fam.params.to_json(dict(params)),
        "reference": {f.role: f.name for f in ref},
        "required": [i.role for i in fam.inputs if i.required and not i.many and i.role != shape.role],
        "submission_role": shape.role, "suffix": shape.suffix,
        "field": FIELD_FOLDER if shape.field and not shape.merge else None,
        "columns": [fam.final.id] + [s.id for s in fam.stages if s.id != fam.final.id],
        "kaggle": {"solution_role": shape.solution},
    }
    spec["params"] = spec.pop("parameters")
    if shape.merge:
        spec["merge_key"] = "model" if fam.name == "difficulty" else _team_column(ref, recipe)
        spec["required"] = [*spec["required"], shape.role]
        spec["suffix"] = Path(next(f.name for f in ref if f.role == shape.role)).suffix.lower()
    if recipe is not None:
        spec["recipe"] = {"name": "recipe.toml" if recipe.origin.lower().endswith(".toml") else "recipe.json",
                          "text": recipe.data.decode("utf-8")}
    tuned = list(ref)  # every file of the view, for the header's digests
    if shape.role != "submissions" and not shape.merge:  # one file of every team's rows: not reference data
        spec["reference"].pop(shape.role, None)
        ref = [f for f in ref if f.role != shape.role]
    if shape.joined and any(f.role == shape.joined for f in ref):
        demo = next(f for f in ref if f.role == shape.joined)
        from ..core.records import header_of

        cols = [c for c in header_of(demo.data, demo.name) if c != "id"]
        spec["kaggle"]["joined"] = {"role": shape.joined, "key": "id", "columns": cols}
    sol = next((f for f in ref if f.role == shape.solution), None)
    if sol is not None and sol.name.endswith(".csv"):
        from ..core.records import header_of

        spec["kaggle"]["solution_columns"] = header_of(sol.data, sol.name)
    field_files = [DataFile(f.role, f"{FIELD_FOLDER}/{f.name}{shape.suffix}", f.data, f.origin)
                   for f in subs] if spec["field"] else []
    extra = ("sklearn",) if fam.name == "difficulty" and any(f.role == "train" for f in ref) else ()
    c = closure(roots(fam))
    header = {
        "family": fam.name, "title": fam.title, "parameters": spec["params"], "link": link,
        "data": [{"role": f.role, "file": f.name, "bytes": len(f.data), "sha256": f.sha256}
                 for f in tuned + ([recipe] if recipe else [])]
        + [{"role": f.role, "file": f"{f.name}{shape.suffix}", "bytes": len(f.data), "sha256": f.sha256,
            "in_reference": bool(spec["field"])} for f in subs],
        "commit": commit if commit is not None else project_commit(),
        "exported": (now or _dt.datetime.now(_dt.UTC)).strftime("%Y-%m-%dT%H:%M:%SZ"),
    }
    return View(fam, ref, field_files, spec, c, requirements(c, extra=extra), header)


def package_files(v: View) -> dict[str, str]:
    """``{path inside the program: source}``: the closure under :data:`PROGRAM`, imports renamed."""
    return {f"{PROGRAM}/{rel}": rewrite(src, PROGRAM) for rel, src in v.closure.files().items()}


def check_params(fam: Family, spec: dict) -> None:
    """The exported parameters read back to the same values (strict JSON, no loss)."""
    if json.loads(json.dumps(spec["params"])) != spec["params"]:
        raise InputError("export", None, "expected parameters that JSON keeps exactly")
