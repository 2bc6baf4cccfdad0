"""Export the tuned metric as the scoring program of a competition platform (docs/export.md).

``export(fam, sources, params, target=, out=)`` writes a self-contained program computing the
view's scores with its parameters: the family's own engine modules (found by walking the
imports, :mod:`scoring.export.closure`), copied under the program's package, with only numpy,
pandas (and pyarrow, scipy where the family imports them) pinned in ``requirements.txt``.
"""

from __future__ import annotations

import shutil
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.family import Family
from .build import PROGRAM, TARGETS, View, view
from .targets import WRITERS, zip_folder


@dataclass
class Exported:
    """Where an export went: its folder, its zips, and the view it was written from."""

    folder: Path
    zips: list[Path]
    view: View


def export(fam: Family, sources: Mapping[str, Any], params: Mapping[str, Any], *, target: str, out: str | Path,
           link: str = "", commit: str | None = None) -> Exported:
    """Write the scoring program of the view (``sources`` as the family's loader takes them, or
    ``(name, bytes)`` uploads; ``params`` checked) for ``target`` into the folder ``out``
    (emptied first when it holds an earlier export: a ``.lbexport`` marker)."""
    if target not in TARGETS:
        raise ValueError(f"expected a target in {', '.join(TARGETS)}, got {target!r}")
    out = Path(out)
    if out.exists() and any(out.iterdir()):
        if not (out / ".lbexport").is_file():
            raise FileExistsError(f"{out}: expected an empty folder (or an earlier export), got other files")
        shutil.rmtree(out)
    out.mkdir(parents=True, exist_ok=True)
    v = view(fam, sources, params, link=link, commit=commit)
    zips = WRITERS[target](v, out)
    (out / ".lbexport").write_text(f"{fam.name} {target}\n", encoding="utf-8")
    return Exported(out, zips, v)


def export_zip(fam: Family, sources: Mapping[str, Any], params: Mapping[str, Any], *, target: str, folder: Path,
               link: str = "") -> bytes:
    """The export as one zip's bytes (the dashboard's download), built in ``folder``."""
    done = export(fam, sources, params, target=target, out=folder / "export", link=link)
    z = zip_folder(done.folder, folder / "export.zip")
    return z.read_bytes()


__all__ = ["PROGRAM", "TARGETS", "Exported", "export", "export_zip"]
