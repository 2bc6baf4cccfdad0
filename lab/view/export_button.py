"""The *Export the metric* button of the leaderboard pages: this view's metric as a competition
platform's scoring program (``scoring.export``; docs/export.md), the same files as ``python -m
scoring <family> export``, built only when the download is clicked."""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import streamlit as st

from lab.data import store, uploads
from scoring.core.family import Family
from scoring.export import export_zip

from ..families import export_target
from . import current, links, report_button

TARGETS = {"codabench": "Codabench / CodaLab (scoring program, reference data, competition.yaml)",
           "kaggle": "Kaggle (metric.py for a metric notebook, solution.csv)",
           "python": "Plain Python (module and command line; EvalAI's evaluate)"}


def builder(fam: Family, page: str, target: str, params: Mapping[str, Any]) -> Callable[[], bytes]:
    """A no-argument function writing the export of this session's view as zip bytes. What
    needs the session (data, parameters, link) is read now; the files are written on the click."""
    e = current.entry(fam)
    p = dict(params)
    link = report_button._link(page)
    folder, digest = e.folder, e.digest

    def build() -> bytes:
        sources = store.folder_sources(fam, Path(folder)) if folder is not None else (uploads.load(fam.name, digest) or {})
        with tempfile.TemporaryDirectory(prefix="lbexport-") as tmp:
            return export_zip(fam, sources, p, target=target, folder=Path(tmp), link=link)

    return build


def show(fam: Family, *, key: str, page: str, params: Mapping[str, Any], where: Any = None) -> None:
    """Draw *Export the metric* (in ``where``, a column or container; else the page)."""
    box = (where or st).popover("Export the metric", icon=":material/deployed_code:",
                                help="This view's scores with these parameters as the scoring program of the "
                                     "platform that runs your competition: the engine's own code, bit for bit.")
    target = links.draw(box.radio, "Platform", export_target(key), format_func=TARGETS.get)
    box.download_button("Download the program (zip)", builder(fam, page, target, params),
                        file_name=f"{fam.name}-{target}-metric.zip", mime="application/zip", key=f"{key}_zip",
                        on_click="ignore", icon=":material/download:")
    box.caption("See docs/export.md for how to upload it. The zip holds the reference data (this view's "
                "files, the other submissions included): keep it private.")
