"""Navigation: at the top of the page, one section per family (from ``lab.families``), then the
shared pages; the sidebar is left to the active family's parameters (issue 23: they are the
product, so they are on the first screen).

Page files are flat, ``pages/<family>_<page>.py`` (the Shovel-Ready pages keep their first
names, ``pages/leaderboard.py`` …), and a page's address is its file stem. The default page
answers at ``/`` and at its own address (``/leaderboard``, a hidden alias), so every page has one.

Deep links and the ``pages/`` folder: Streamlit treats an app with a folder named ``pages/``
the legacy way until some session runs ``st.navigation`` — documented: "As soon as any session
of your app executes the st.navigation command, your app will ignore the pages/ directory
(across all sessions)". So only a freshly started server's first visitors can meet the legacy
mode, in two forms:

* at ``/`` it runs ``app.py`` as its main page: ``app.py`` calls ``st.navigation`` (legacy
  mode off from then on) and runs the page — one run, nothing to do;
* at a page's address it runs that page file *alone*, without ``app.py``, its sidebar and
  parameters. A page's first call into the app's state calls :func:`ensure_app_entry`
  (``lab.view.current.build``, ``lab.view.current.header``, the families' ``begin``, :func:`pick_family`;
  the Data and Questions pages call it themselves): when this session has not been through the
  app's navigation yet, it runs ``app.py`` in place — its ``st.navigation`` finds the page the
  address names and runs it — and stops the page that ran alone, which has drawn nothing yet.
  One script run, the page's body once, only public API (``tests/app/test_runs_per_rerun.py``
  counts them at every address; ``tests/app/test_browser_addresses.py`` on a fresh server).
  Anything a page does before that first call runs twice on that one request: keep it to reading.
"""

from __future__ import annotations

import re
import runpy
import urllib.parse
from pathlib import Path

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from scoring import registry
from scoring.core.family import Family

from ..families import ROBUSTNESS_PAGES, SHARED_PAGES, PageSpec, ui

ROOT = Path(__file__).resolve().parents[2]
_FAMILY = "lab_family"  # the family of the last family page visited (the Data page follows it)
#: the query parameter naming the family of a shared page (robustness pages, Data)
LINK_FAMILY = "family"
#: the navigation's section of the pages that work on any family (the Data page, in no
#: section, is a link of its own: Streamlit puts it first)
ROBUSTNESS_SECTION = "Robustness"


#: per family, the page that takes its numbers apart step by step: the sidebar's "About these
#: numbers" link (``lab.view.sidebar``)
ABOUT = {"shovel-ready": "worked_examples", "spotgeo": "spotgeo_rules", "qa": "qa_questions",
         "difficulty": "difficulty_weights", "custom": "custom_recipe"}

#: set once this session has run the app's ``st.navigation`` (so, per Streamlit's docs, the
#: legacy ``pages/`` mode is off for every session from then on)
_NAVIGATED = "lab_navigated"


def ensure_app_entry() -> None:
    """Make sure this run goes through ``app.py`` (see the module doc): on the first run of a
    fresh server's session that opened a page's address, run ``app.py`` here and stop."""
    if st.session_state.get(_NAVIGATED) or not _app_is_running():
        return
    runpy.run_path(str(ROOT / "app.py"), run_name="__main__")
    st.stop()


def _app_is_running() -> bool:
    """Whether the script Streamlit runs is this app's ``app.py`` (not, say, a test's own script)."""
    ctx = get_script_run_ctx()
    return ctx is not None and Path(ctx.main_script_path).resolve() == ROOT / "app.py"


def section_label(fam: Family) -> str:
    """A family's section in the top navigation, short enough for every section to fit beside
    the sidebar at 1024 px: its UI's ``menu``, else its title up to the first space or colon.

    >>> from types import SimpleNamespace as F
    >>> [section_label(F(title=t, name="?")) for t in ("QA: retrieval, answers and speed", "spotGEO detection")]
    ['QA', 'spotGEO']
    """
    menu = ui(fam).menu if isinstance(fam, Family) else ""
    return menu or re.split(r"[\s:]", fam.title.strip(), maxsplit=1)[0]


def default_path() -> str:
    """The default page's own address (it answers at ``/`` too): the first family's first page."""
    return next(p.url_path for fam in registry.families() for p in ui(fam).pages)


def about_page(fam: Family) -> PageSpec | None:
    """The page behind the family's "About these numbers" link (None: the family has none, or
    the app's navigation, which a link needs, has not run: a script other than ``app.py``)."""
    if not st.session_state.get(_NAVIGATED):
        return None
    return next((p for p in ui(fam).pages if p.url_path == ABOUT.get(fam.name)), None)


def welcome(navigation) -> None:
    """On the landing page (the default page, at ``/`` or its own address): what the product is
    and does, in two sentences, above the page."""
    if navigation.url_path not in ("", default_path()):
        return
    fams = [section_label(fam) for fam in registry.families() if ui(fam).pages]
    named = ", ".join(f"**{n}**" for n in fams[:-1]) + f" and **{fams[-1]}**" if len(fams) > 1 else f"**{fams[0]}**"
    st.markdown(
        "**Leaderboard Lab** shows how each parameter of a composite leaderboard metric moves a competition's "
        f"ranking, and how sure that ranking is. {count_words(len(fams)).capitalize()} metric families — {named} — "
        f"each a menu at the top; this is {fams[0]}'s leaderboard: move any control in the sidebar."
    )
    start = next((p for p in SHARED_PAGES if p.url_path == "start"), None)
    if start is not None and (ROOT / start.path).is_file():
        st.page_link(start.path, label="New here? Start here: each family in a sentence, what each page answers, "
                                       "where to begin", icon=":material/explore:")


def count_words(n: int) -> str:
    """A small count in words.

    >>> count_words(4), count_words(12)
    ('four', '12')
    """
    return ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")[n] if 0 <= n < 10 else str(n)


def build():
    """``(navigation, {url_path: family})``: the app's ``st.navigation`` (at the top of the page),
    and which family each page belongs to (shared pages are absent; the default page is there
    under ``""`` and under its own address)."""
    sections: dict[str, list] = {}
    owner: dict[str, Family] = {}
    first = True
    for fam in registry.families():
        pages = [p for p in ui(fam).pages if (ROOT / p.path).is_file()]
        if not pages:
            continue
        made = [st.Page(p.path, title=p.title, icon=p.icon, url_path=p.url_path) for p in pages]
        if first:  # the default page: "/", and its own address as a hidden alias
            p = pages[0]
            made[0] = st.Page(p.path, title=p.title, icon=p.icon, url_path="", default=True)
            made.append(st.Page(p.path, title=p.title, icon=p.icon, url_path=p.url_path, visibility="hidden"))
        sections[section_label(fam)] = made
        first = False
        owner.update({page.url_path: fam for page in made})
    for title, specs in ((ROBUSTNESS_SECTION, ROBUSTNESS_PAGES), ("", SHARED_PAGES)):
        sections[title] = [st.Page(p.path, title=p.title, icon=p.icon, url_path=p.url_path) for p in specs
                           if (ROOT / p.path).is_file()]
    navigation = st.navigation(sections, position="top")
    st.session_state[_NAVIGATED] = True
    return navigation, owner


_UNKNOWN, _TITLE, _PAGE = "lab_unknown_page", "lab_page_title", "lab_page_path"
#: the family whose parameters the address held when this session opened it (its first run): only
#: that family reads them (``lab.view.state.init``) — another family's first visit starts from its
#: own defaults, never from values a link set for a different family
_LINK_OWNER = "lab_link_family"


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
    exist (Streamlit then runs the default page): :func:`unknown_page` tells the header.

    Only a run of the default page at ``/`` can be such a fallback. Any other page was named by
    the address — and ``st.context.url`` cannot tell its address apart from another page's that
    ends the same way: Streamlit trims the first page address the URL *ends with*, so
    ``/qa_leaderboard`` would read as ``qa_`` beside the default page's alias ``leaderboard``."""
    url = None
    if navigation.url_path == "":
        try:
            url = st.context.url
        except Exception:  # pragma: no cover - no browser context (bare mode)
            url = None
    st.session_state[_UNKNOWN] = unknown_path(url, known_paths(), str(st.get_option("server.baseUrlPath") or ""))
    st.session_state[_TITLE] = navigation.title
    st.session_state[_PAGE] = navigation.url_path or default_path()


def unknown_page() -> str | None:
    """The path the address named when it is no page of the app (this run only)."""
    return st.session_state.get(_UNKNOWN)


def page_title() -> str:
    return str(st.session_state.get(_TITLE) or "")


def page_path() -> str:
    """The registered address of the page this run shows (the default page's own, not ``""``)."""
    return str(st.session_state.get(_PAGE) or "")


def link_owner() -> str | None:
    """The family the address's parameters belonged to when this session opened it."""
    return st.session_state.get(_LINK_OWNER)


def current_family(navigation, owner: dict[str, Family]) -> Family:
    """The family of the page being shown; on a shared page, the family last visited (or
    the one chosen on the Data page)."""
    fam = owner.get(navigation.url_path)
    if fam is not None:
        st.session_state[_FAMILY] = fam.name
        st.session_state.setdefault(_LINK_OWNER, fam.name)
        return fam
    fams = registry.families()
    linked = st.query_params.get(LINK_FAMILY)
    if any(f.name == linked for f in fams):  # a shared page's link names its family
        st.session_state[_FAMILY] = linked
    name = st.session_state.get(_FAMILY)
    fam = next((f for f in fams if f.name == name), fams[0])
    st.session_state.setdefault(_LINK_OWNER, fam.name)
    if linked != fam.name:  # the address says which family, so a copied link opens the same one
        st.query_params[LINK_FAMILY] = fam.name
    return fam


def choose_family(name: str) -> None:
    """Make ``name`` the family the shared pages work on (and the one their address names). The
    page's controls that belong to the family shown (a team, a map's axes, the pinned settings:
    ``Control.scope == "family"``) start again from their defaults: no value crosses families."""
    ss, qp = st.session_state, st.query_params
    if ss.get(_FAMILY) != name:
        spec = next((p for p in (*ROBUSTNESS_PAGES, *SHARED_PAGES) if p.url_path == page_path()), None)
        for c in spec.controls if spec is not None else ():
            if c.scope == "family" and c.kind != "derived":
                ss.pop(c.key, None)
                if c.link and c.link in qp:
                    del qp[c.link]
    ss[_FAMILY] = name
    qp[LINK_FAMILY] = name


def current_family_for_data(fams: list[Family]) -> Family:
    """The family the Data page works on: the last visited (or chosen) one among ``fams``."""
    name = st.session_state.get(_FAMILY)
    return next((f for f in fams if f.name == name), fams[0])


def pick_family(key: str, *, label: str = "Metric family") -> Family:
    """On a shared page: a choice of family (the last one visited first); choosing another
    switches the sidebar to it."""
    ensure_app_entry()  # before the widget: a page that ran alone draws it again inside app.py
    fams = [f for f in registry.families() if ui(f).pages]
    fam = current_family_for_data(fams)
    names = [f.name for f in fams]
    picked = st.selectbox(label, names, index=names.index(fam.name), format_func=lambda n: registry.get(n).title,
                          key=key, help="Which family's leaderboard this page examines; the sidebar follows.")
    if picked != fam.name:
        choose_family(picked)
        st.rerun()
    return fam
