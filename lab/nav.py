"""Navigation: one section per family (from ``lab.families``), then the shared pages.

Page files are flat, ``pages/<family>_<page>.py`` (the Shovel-Ready pages keep their first
names, ``pages/leaderboard.py`` …), and a page's address is its file stem, so that a deep link
resolves to the same file in both of Streamlit's modes.

Deep links and the ``pages/`` folder: until the first ``st.navigation`` call of a freshly
started server, Streamlit treats an app with a folder named ``pages/`` the legacy way and
runs a deep-linked page (``/demographics?alpha=80``) *alone* — without ``app.py``, its
sidebar and parameters. The product keeps the ``pages/`` folder, and Streamlit has no
supported switch for this, so :func:`ensure_app_entry` — the one place that touches
Streamlit's internals — turns the legacy mode off and reruns through ``app.py``
(``tests/app/test_browser.py::test_deep_link_on_a_fresh_server_goes_through_the_app``
fails without it). Every page calls it first (``lab.current.header``), since in the legacy
mode the page file runs alone; the rerun keeps the page, whose address is its file stem.
"""

from __future__ import annotations

import urllib.parse
from pathlib import Path

import streamlit as st

from scoring import registry
from scoring.core.family import Family

from .families import ROBUSTNESS_PAGES, SHARED_PAGES, ui

ROOT = Path(__file__).resolve().parents[1]
_FAMILY = "lab_family"  # the family of the last family page visited (the Data page follows it)
#: the query parameter naming the family of a shared page (robustness pages, Data)
LINK_FAMILY = "family"


def ensure_app_entry() -> None:
    """Make sure this run goes through ``app.py`` (see the module doc)."""
    try:
        from streamlit.runtime.pages_manager import PagesManager
    except ImportError:  # pragma: no cover - a Streamlit without the legacy mode
        return
    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        st.rerun()


def build():
    """``(navigation, {url_path: family})``: the app's ``st.navigation``, and which family
    each page belongs to (shared pages are absent)."""
    sections: dict[str, list] = {}
    owner: dict[str, Family] = {}
    first = True
    for fam in registry.families():
        pages = [p for p in ui(fam).pages if (ROOT / p.path).is_file()]
        if not pages:
            continue
        made = [st.Page(p.path, title=p.title, icon=p.icon, url_path=p.url_path, default=first and i == 0)
                for i, p in enumerate(pages)]
        sections[fam.title] = made
        first = False
        # the default page answers to "" as well as to its own address
        owner.update({page.url_path: fam for page in made})
        owner.update({p.url_path: fam for p in pages})
    for title, specs in (("How sure is the ranking?", ROBUSTNESS_PAGES), ("Your data", SHARED_PAGES)):
        sections[title] = [st.Page(p.path, title=p.title, icon=p.icon, url_path=p.url_path) for p in specs
                           if (ROOT / p.path).is_file()]
    # expanded: every page listed (folded, the navigation hides all but the first ten behind "View more")
    return st.navigation(sections, expanded=True), owner


_UNKNOWN, _TITLE = "lab_unknown_page", "lab_page_title"


def unknown_path(url: str | None, known: set[str], base: str = "") -> str | None:
    """The page path of ``url`` when it names no page of ``known`` (url paths; the default
    page is ``""``), else None. ``base``: the server's ``baseUrlPath``.

    >>> unknown_path("http://h:8501/efficiency", {"", "efficiency"}), unknown_path("http://h/x", {""})
    (None, 'x')
    >>> unknown_path("http://h/lab/", {""}, base="/lab/"), unknown_path(None, {""})
    (None, None)
    """
    if not url:
        return None
    parts = [p for p in urllib.parse.urlsplit(url).path.split("/") if p]
    prefix = [p for p in base.split("/") if p]
    if parts[:len(prefix)] == prefix:
        parts = parts[len(prefix):]
    path = urllib.parse.unquote("/".join(parts))
    return None if path in known else path


def known_paths() -> set[str]:
    """Every page's address (``""`` is the default page)."""
    return {""} | {p.url_path for fam in registry.families() for p in ui(fam).pages} | \
        {p.url_path for p in (*ROBUSTNESS_PAGES, *SHARED_PAGES)}


def note_page(navigation) -> None:
    """Remember, for this run, the page shown and whether the address named a page that does not
    exist (Streamlit then runs the default page): :func:`unknown_page` tells the header."""
    known = known_paths()
    try:
        url = st.context.url
    except Exception:  # pragma: no cover - no browser context (bare mode)
        url = None
    st.session_state[_UNKNOWN] = unknown_path(url, known, str(st.get_option("server.baseUrlPath") or ""))
    st.session_state[_TITLE] = navigation.title


def unknown_page() -> str | None:
    """The path the address named when it is no page of the app (this run only)."""
    return st.session_state.get(_UNKNOWN)


def page_title() -> str:
    return str(st.session_state.get(_TITLE) or "")


def current_family(navigation, owner: dict[str, Family]) -> Family:
    """The family of the page being shown; on a shared page, the family last visited (or
    the one chosen on the Data page)."""
    fam = owner.get(navigation.url_path)
    if fam is not None:
        st.session_state[_FAMILY] = fam.name
        return fam
    fams = registry.families()
    linked = st.query_params.get(LINK_FAMILY)
    if any(f.name == linked for f in fams):  # a shared page's link names its family
        st.session_state[_FAMILY] = linked
    name = st.session_state.get(_FAMILY)
    fam = next((f for f in fams if f.name == name), fams[0])
    if linked != fam.name:  # the address says which family, so a copied link opens the same one
        st.query_params[LINK_FAMILY] = fam.name
    return fam


def choose_family(name: str) -> None:
    """Make ``name`` the family the shared pages work on (and the one their address names)."""
    st.session_state[_FAMILY] = name
    st.query_params[LINK_FAMILY] = name


def current_family_for_data(fams: list[Family]) -> Family:
    """The family the Data page works on: the last visited (or chosen) one among ``fams``."""
    name = st.session_state.get(_FAMILY)
    return next((f for f in fams if f.name == name), fams[0])


def pick_family(key: str, *, label: str = "Metric family") -> Family:
    """On a shared page: a choice of family (the last one visited first); choosing another
    switches the sidebar to it."""
    fams = [f for f in registry.families() if ui(f).pages]
    fam = current_family_for_data(fams)
    names = [f.name for f in fams]
    picked = st.selectbox(label, names, index=names.index(fam.name), format_func=lambda n: registry.get(n).title,
                          key=key, help="Which family's leaderboard this page examines; the sidebar follows.")
    if picked != fam.name:
        choose_family(picked)
        st.rerun()
    return fam
