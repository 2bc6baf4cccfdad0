"""How each family's data splits into *reference* and *submission* when it is scored one
submission at a time on a platform, and the reference files read from the view's sources."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.errors import InputError
from ..core.family import Family
from ..core.sources import expand_submissions, source_bytes


@dataclass(frozen=True)
class Shape:
    """``role``: the input a submission is (or is rows of); ``field``: the other submissions
    are reference data (a team's score depends on them: Shovel-Ready's boost; Custom's every
    recipe, by ``merge``: rows of one table, keyed by the team column); ``solution``: the role
    Kaggle's solution table stands for; ``joined``: a per-essay table Kaggle's solution carries
    as extra columns (Shovel-Ready's demographics, joined by ``id``)."""

    role: str
    suffix: str
    field: bool
    solution: str
    merge: bool = False
    joined: str | None = None


SHAPES = {
    "shovel-ready": Shape("submissions", ".csv", True, "ground_truth", joined="demographics"),
    "spotgeo": Shape("submissions", ".json", True, "ground_truth"),
    "qa": Shape("submissions", ".csv", True, "ground_truth"),
    "difficulty": Shape("predictions", ".csv", True, "samples", merge=True),
    "custom": Shape("results", ".csv", True, "results", merge=True),
}

#: where each reference file goes in the reference folder (the family's data-folder layout)
FIELD_FOLDER = "submissions"


@dataclass
class DataFile:
    """One file of the view: its role, its name in the reference data, its bytes."""

    role: str
    name: str
    data: bytes
    origin: str

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.data).hexdigest()


def reference_name(fam: Family, role: str, origin: str) -> str:
    """The reference folder's name for an input: the family's data-folder name (its suffix kept
    from the file it came from where the loader reads both, Custom's CSV or TSV)."""
    path = fam.input(role).path or f"{role}{fam.input(role).suffix}"
    suffix = Path(origin).suffix.lower()
    if fam.name == "custom" and suffix in (".csv", ".tsv", ".txt"):
        return Path(path).stem + suffix
    return path


def read_sources(fam: Family, sources: Mapping[str, Any]) -> tuple[list[DataFile], list[DataFile]]:
    """``(reference files, submissions)`` of the view: ``sources`` maps a role to a path, a
    ``(name, bytes)`` pair (an upload), or for many-file inputs a list of those (folders expand
    to their files, sorted). The recipe of a Custom view is a reference file too."""
    ref: list[DataFile] = []
    subs: list[DataFile] = []
    for inp in fam.inputs:
        given = sources.get(inp.role)
        if given is None:
            continue
        if inp.many:
            items = given if isinstance(given, list) else [given]
            named = [(n, (n + inp.suffix, s)) if isinstance(s, (bytes, bytearray)) else (n, s) for n, s in
                     ((i[0], i[1]) for i in items if isinstance(i, tuple))]
            paths = [i for i in items if not isinstance(i, tuple)]
            for name, src, disp in expand_submissions(paths, inp.suffix) + [(n, s, n) for n, s in named]:
                if isinstance(src, tuple):
                    data, origin = bytes(src[1]), src[0]
                else:
                    data, origin = source_bytes(src, disp), str(src)
                subs.append(DataFile(inp.role, name, data, origin))
            continue
        if isinstance(given, tuple):
            origin, data = str(given[0]), bytes(given[1])
        else:
            origin, data = str(given), source_bytes(given, Path(str(given)).name)
        ref.append(DataFile(inp.role, reference_name(fam, inp.role, origin), data, origin))
    if not ref:
        raise InputError("export", None, "expected the view's reference data, got none")
    return ref, subs
