"""The *Download report* button of the leaderboard pages and of Compare settings: the same
report as ``python -m lab.report <family>`` (``lab.report.build_report``), built only when
the button is clicked (``st.download_button`` with a callable: a rerun does not build it)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import streamlit as st

from scoring.core.family import Family

from ..data import store, uploads
from . import current, links

_ROOT = Path(__file__).resolve().parents[2]


def _link(page: str) -> str:
    """The address of this view: the app's base, the page's registered address, and every query
    value the app keeps (the parameters, the pinned ``pin=``, the page's own picks) — never
    ``data=``, the key to an upload: a report is made to be passed around, and whoever holds
    that key can open the files."""
    from ..report import DEFAULT_BASE

    pairs = [(k, v) for k in st.query_params if k != "data" for v in st.query_params.get_all(k)]
    return links.page_link(links.browser_url(), page, pairs, base_path=str(st.get_option("server.baseUrlPath") or ""),
                           fallback=DEFAULT_BASE)


def builder(fam: Family, page: str, *, params: Mapping[str, Any] | None = None,
            params_b: Mapping[str, Any] | None = None, labels: Sequence[str] = ("A", "B")) -> Callable[[], str]:
    """A no-argument function writing the report of this session's view. What needs the session
    (data, parameters, link) is read now; the report itself (file digests, figures) is built
    when the function is called — on a click, in Streamlit's download thread."""
    from .. import report

    e = current.entry(fam)
    comp, scorer = e.comp, e.scorer
    p = dict(current.params(fam) if params is None else params)
    pb = None if params_b is None else dict(params_b)
    link = _link(page)
    folder, digest, label = e.folder, e.digest, e.label

    def build() -> str:
        if folder is not None:
            sources = store.folder_sources(fam, Path(folder))
            roots = [_ROOT, Path(folder).resolve()]  # the app's folder (the samples), else the data's own
            sources = {r: [Path(x).resolve() for x in v] if isinstance(v, list) else Path(v).resolve()
                       for r, v in sources.items()}
            data = report.file_digests(fam, sources, roots=roots)
            shown = {r: [report.shown_path(x, roots) for x in v] if isinstance(v, list) else report.shown_path(v, roots)
                     for r, v in sources.items()}
            inside = Path(folder).resolve().is_relative_to(_ROOT)
            where = "in the app's folder" if inside else "in the data's folder"
        else:
            where = ""
            bundle = uploads.load(fam.name, digest) or {}
            data = report.bundle_digests(fam, bundle)
            shown = {r: [n for n, _ in v] if isinstance(v, list) else v[0] for r, v in bundle.items() if v}
        return report.build_report(fam, comp, scorer, p, data=data, data_label=label,
                                   command=report.command_line(fam, shown, p), command_where=where, link=link, params_b=pb,
                                   labels=labels)

    return build


def download(fam: Family, *, key: str, page: str, params: Mapping[str, Any] | None = None,
             params_b: Mapping[str, Any] | None = None, labels: Sequence[str] = ("A", "B"), where: Any = None) -> None:
    """Draw the *Download report* button (in ``where``, a column or container; else the page)."""
    (where or st).download_button(
        "Download report", builder(fam, page, params=params, params_b=params_b, labels=labels),
        file_name=f"{fam.name}-report.html", mime="text/html", key=key, on_click="ignore",
        icon=":material/description:",
        help="The data (with SHA-256 digests), the parameters, the leaderboard and the charts as one HTML file "
             "that opens in any browser without a server or a network.")
