"""What a page needs of the family it belongs to: the active data, its scorer, the current
parameters and leaderboard, team colours, and the page header (a takeaway written from the
numbers, the notices about the data and the address, and the scorer's guardrail warnings).
Every function takes the family, so each family's pages read their own state."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import pandas as pd
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from scoring import InputError, registry
from scoring.claims import board
from scoring.core.family import Family
from scoring.core.params import Params

from .. import families
from ..charts.colors import team_colors
from ..data import store
from ..data.progress import progress_bar
from ..words import glossary
from ..words.text import MD, md
from . import nav, state

TAKEAWAY_ICON = ":material/lightbulb:"
#: where this run's views live (``store.begin_run`` clears every ``_run_`` key at a run's start)
_VIEWS = "_run_views"

#: a re-match over at least this many submissions shows a progress bar (fewer take well under
#: a second; a bar would only flicker)
REMATCH_BAR_MIN = 50


@dataclass(eq=False)
class View:
    """What one run shows of one family: its settings, the data, the sidebar's parameters
    validated once (or why they cannot be scored), and — computed on first use — the
    leaderboard and the guardrail warnings at them. ``app.py`` builds it once per run
    (:func:`build`); the pages get it from :func:`view` (or :func:`begin`)."""

    #: the family shown
    family: Family
    #: the app's settings for it (``lab.families.FamilyUI``), looked up once
    ui: families.FamilyUI
    #: the data shown (``lab.data.store.Entry``: competition, scorer, digest, label)
    entry: store.Entry
    #: the sidebar's values as the widgets hold them
    values: dict[str, Any]
    #: what the family's repair changed in them, in words (None: nothing)
    note: str | None
    #: the parameters the engine takes, checked once against the data (None: see ``error``)
    checked: Params | None
    #: why the parameters cannot be scored (None: they can)
    error: InputError | None = None
    _extra: dict = field(default_factory=dict, repr=False)

    @property
    def params(self) -> Params:
        """The checked parameters (raises the ``InputError`` when they cannot be scored)."""
        if self.error is not None:
            raise self.error
        return self.checked

    @property
    def comp(self) -> Any:
        return self.entry.comp

    @property
    def scorer(self) -> Any:
        return self.entry.scorer

    @cached_property
    def leaderboard(self) -> pd.DataFrame:
        """The leaderboard at :attr:`params` (computed once per run, on first use)."""
        return _leaderboard(self.family, self.scorer, self.params)

    @cached_property
    def warnings(self) -> list[str]:
        """The scorer's guardrail warnings at :attr:`params` (for a scorer that has them)."""
        check = getattr(self.scorer, "warnings", None)
        return list(check(self.params)) if callable(check) else []

    @cached_property
    def colors(self) -> dict[str, str]:
        return team_colors(self.comp.submission_names)


def build(fam: Family) -> View:
    """This run's view of ``fam`` (the sidebar's state in place): validated once, kept for the
    rest of the run — built again only if the data or the sidebar's values changed since (data
    switched on the Data page; a script that does not start with ``app.py``)."""
    nav.ensure_app_entry()  # a page that ran alone (a fresh server's first deep link) goes through app.py
    views = st.session_state.setdefault(_VIEWS, {})
    v = views.get(fam.name)
    e, values = store.active(fam), state.values(fam)
    if v is None or v.entry is not e or v.values != values:
        fui = families.ui(fam)
        repaired, note = fui.repair(values)
        try:
            checked, error = fui.check(e.scorer, repaired), None
        except InputError as err:
            checked, error = None, err
        v = views[fam.name] = View(fam, fui, e, values, note, checked, error)
    return v


def view(fam: Family | None = None) -> View:
    """The view ``app.py`` built for this run (of ``fam``: built now when the run has none)."""
    views = st.session_state.get(_VIEWS) or {}
    if fam is None:
        if len(views) != 1:
            raise RuntimeError("no view of this run: app.py builds it (lab.view.current.build)")
        return next(iter(views.values()))
    return build(fam)


def begin(fam: Family, title: str) -> View:
    """A family page's first call: through the app's entry, the family's own sidebar extra
    (e.g. a dataset choice), then this run's view; when its parameters cannot be scored the
    page shows its title and why, and stops."""
    nav.ensure_app_entry()
    v = view(fam)
    v.ui.sidebar_extra()
    if v.error is not None:
        header(fam, title, "")
        err = v.error
        field = fam.params[err.file].title if isinstance(err, InputError) and err.file in fam.params else None
        st.error(f"These settings cannot be scored — {v.ui.problem(err)}"
                 + (f" Change **{md(field)}** in the sidebar." if field else ""), icon=":material/error:")
        st.stop()
    return v


def family(name: str) -> Family:
    return registry.get(name)


def entry(fam: Family) -> store.Entry:
    return view(fam).entry


def competition(fam: Family) -> Any:
    return view(fam).entry.comp


def scorer(fam: Family) -> Any:
    return view(fam).entry.scorer


def params(fam: Family) -> Params:
    """This run's parameters, as the family's scorer takes them (repaired where the sliders
    broke a rule between parameters: see :func:`param_note`), checked once; raises the
    ``InputError`` when they cannot be scored."""
    return view(fam).params


def param_note(fam: Family) -> str | None:
    """What the repair of the sidebar's values changed, in words (None: nothing)."""
    return view(fam).note


def _leaderboard(fam: Family, sc: Any, p: Any) -> pd.DataFrame:
    if not fam.parallel:
        return sc.leaderboard(p)

    def label(done: int, total: int, name: str) -> str:
        return f"Re-matching: {md(name)} ({done}/{total})" if name else f"Re-matching {total} submissions…"

    with progress_bar(label, lazy=True, min_total=REMATCH_BAR_MIN) as progress:
        return sc.leaderboard(p, progress=progress)


def leaderboard(fam: Family, p: dict[str, Any] | None = None) -> pd.DataFrame:
    """The leaderboard at the current (or the given) parameters: the current one once per run;
    the scorer caches its costly levels, so this is cheap after a slider move. A family whose
    scorer re-matches file by file (``fam.parallel``: a threshold or quality change) shows a
    progress bar counting the files while it does."""
    v = view(fam)
    if p is None or p is v.checked:
        return v.leaderboard
    return _leaderboard(fam, v.scorer, p)


def colors(fam: Family) -> dict[str, str]:
    return view(fam).colors


def winner_takeaway(fam: Family, lb: pd.DataFrame | None = None, *, skip: tuple[str, ...] = ()) -> str:
    """The family's one-sentence takeaway on its leaderboard (``scoring.claims.board.family_winner``:
    the family's stages, words and points at the current parameters); the stages of ``skip``
    (ids) are left out of the story — e.g. a stage shown for reference that the current
    parameters do not apply."""
    v = view(fam)
    return board.family_winner(fam, v.leaderboard if lb is None else lb, v.params, skip=skip, style=MD)


def warnings(fam: Family, p: dict[str, Any] | None = None) -> list[str]:
    """The scorer's guardrail warnings at the current parameters (``scorer.warnings(**params)``,
    for a family whose scorer has it)."""
    v = view(fam)
    if p is None or p is v.checked:
        return v.warnings
    check = getattr(v.scorer, "warnings", None)
    return list(check(p)) if callable(check) else []


def notices(fam: Family) -> None:
    """What the visitor must know about what is shown: a link that named data this server
    does not have, an address that named no page, the upload being shown."""
    missing = store.missing_link(fam)
    if missing == "deleted":
        st.warning("**The uploaded data you were shown, or the link you opened names, has been deleted** by "
                   "someone who had it open, so you are seeing the sample instead. Its files are gone from this "
                   "server: to score them again, upload them again on the Data page.", icon=":material/delete:")
    elif missing:
        st.warning("**The link you opened names data this server does not have**, so you are seeing the "
                   "sample instead. Uploads are kept for a limited time, and only on the server they were "
                   "uploaded to: upload the files again on the Data page.", icon=":material/link_off:")
    unknown = nav.unknown_page()
    if unknown is not None:
        st.warning(f"**There is no page “{md(unknown)}”** — you are on the {md(nav.page_title())} page. "
                   "Every page is listed in the menus at the top.", icon=":material/explore_off:")


def terms(*names: str) -> None:
    """A line naming the glossary terms the page uses, their plain words in its tooltip (every term
    is on the Start page too)."""
    st.caption("Terms used here: " + ", ".join(names) + " — hover the ? for plain words; the Start page lists "
               "every term.", help=glossary.tooltip(*names))


def fragile(lines: list[str]) -> None:
    """The scorer's guardrail warnings, once and compact: one collapsed box naming the first, each
    in full inside (with the terms it uses explained)."""
    first = lines[0].split(":")[0].strip()
    short = first if len(first) <= 90 else first[:88].rsplit(" ", 1)[0] + " …"
    more = f" (and {len(lines) - 1} more)" if len(lines) > 1 else ""
    with st.expander(f"**Fragile result**: {md(short)}{more}", icon=":material/warning:"):
        for line in lines:  # where a conclusion is fragile (e.g. a tiny group deciding a score)
            st.warning(f"**Fragile result:** {md(line)}.", icon=":material/warning:")
        st.caption("What makes a result fragile, and the words these warnings use.",
                   help=glossary.tooltip("fragile result", "attribute", "bootstrap replicate"))


def header(fam: Family, title: str, explanation: str = "", *, takeaway: str | None = None,
           about_data: bool = True, words: tuple[str, ...] = ()) -> DeltaGenerator:
    """The one page header of every family: the title, the takeaway in a callout (markdown,
    names escaped: ``lab.words.story``), the one-paragraph explanation (the app's words), the note on
    repaired parameters, the notices and the guardrail warnings (:func:`fragile`); then what data is shown;
    ``words``: the glossary terms the page uses (:func:`terms`). A
    page that does not show the loaded data (``about_data=False``: the memo's worked examples)
    gets neither the guardrail warnings nor the data line. Returns the takeaway's slot, for a
    page that writes it once its picks are made (``slot.info(text, icon=current.TAKEAWAY_ICON)``)."""
    nav.ensure_app_entry()
    v = view(fam)
    st.title(title)
    slot = st.empty()
    if takeaway:
        slot.info(takeaway, icon=TAKEAWAY_ICON)
    if explanation:
        st.markdown(explanation)
    if words:
        terms(*words)
    if v.note:  # the family's own words (FamilyUI.repair escapes any user string it quotes)
        st.warning(v.note, icon=":material/warning:")
    notices(fam)
    if not about_data:
        return slot
    if v.error is None and v.warnings:
        fragile(v.warnings)
    if not v.entry.is_default:
        st.caption(f"Showing {md(v.entry.label)} — switch back to the sample on the Data page. This page's address "
                   "opens these files for anyone who has it: the Data page has a link without them, and deletes "
                   "them.")
    return slot
