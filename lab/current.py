"""What a page needs of the family it belongs to: the active data, its scorer, the current
parameters and leaderboard, team colours, and the page header (a takeaway written from the
numbers, the notices about the data and the address, and the scorer's guardrail warnings).
Every function takes the family, so each family's pages read their own state."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from scoring import registry
from scoring.core.family import Family

from . import families, nav, state, store, story
from .colors import team_colors
from .progress import progress_bar
from .text import md

TAKEAWAY_ICON = ":material/lightbulb:"


def family(name: str) -> Family:
    return registry.get(name)


def entry(fam: Family) -> store.Entry:
    return store.active(fam)


def competition(fam: Family) -> Any:
    return store.active(fam).comp


def scorer(fam: Family) -> Any:
    return store.active(fam).scorer


def params(fam: Family) -> dict[str, Any]:
    """The current parameters, as the family's scorer takes them (repaired where the sliders
    broke a rule between parameters: see :func:`param_note`)."""
    return families.ui(fam).repair(state.values(fam))[0]


def param_note(fam: Family) -> str | None:
    """What the repair of the sidebar's values changed, in words (None: nothing)."""
    return families.ui(fam).repair(state.values(fam))[1]


#: a re-match over at least this many submissions shows a progress bar (fewer take well under
#: a second; a bar would only flicker)
REMATCH_BAR_MIN = 50


def leaderboard(fam: Family, p: dict[str, Any] | None = None) -> pd.DataFrame:
    """The leaderboard at the current (or the given) parameters; the scorer caches its costly
    levels, so this is cheap after a slider move. A family whose scorer re-matches file by file
    (``fam.parallel``: a threshold or quality change) shows a progress bar counting the files
    while it does."""
    kw = dict(params(fam) if p is None else p)
    if not fam.parallel:
        return scorer(fam).leaderboard(**kw)

    def label(done: int, total: int, name: str) -> str:
        return f"Re-matching: {md(name)} ({done}/{total})" if name else f"Re-matching {total} submissions…"

    with progress_bar(label, lazy=True, min_total=REMATCH_BAR_MIN) as progress:
        return scorer(fam).leaderboard(**kw, progress=progress)


def colors(fam: Family) -> dict[str, str]:
    return team_colors(competition(fam).submission_names)


def winner_takeaway(fam: Family, lb: pd.DataFrame | None = None, *, skip: tuple[str, ...] = ()) -> str:
    """The family's one-sentence takeaway on its leaderboard (``lab.story.winner_takeaway``);
    the stages of ``skip`` (ids) are left out of the story — e.g. a stage shown for reference
    that the current parameters do not apply."""
    stages = [s for s in fam.stages if s.id not in skip]
    return story.winner_takeaway(leaderboard(fam) if lb is None else lb, stages, families.ui(fam).stage_words)


def warnings(fam: Family, p: dict[str, Any] | None = None) -> list[str]:
    """The scorer's guardrail warnings at the current parameters (``scorer.warnings(**params)``,
    for a family whose scorer has it)."""
    sc = scorer(fam)
    check = getattr(sc, "warnings", None)
    return list(check(**(params(fam) if p is None else p))) if callable(check) else []


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


def guardrails(fam: Family) -> None:
    """The scorer's warnings where a conclusion is fragile (e.g. a tiny group deciding a score)."""
    for line in warnings(fam):
        st.warning(f"**Fragile result:** {md(line)}.", icon=":material/warning:")


def header(fam: Family, title: str, explanation: str, *, takeaway: str | None = None,
           about_data: bool = True) -> DeltaGenerator:
    """Page title, the takeaway (markdown, names escaped: ``lab.story``), the one-paragraph
    explanation (the app's words), the notices and the guardrail warnings; then what data is
    shown. A page that does not show the loaded data (``about_data=False``: the memo's worked
    examples) gets neither the guardrail warnings nor the data line. Returns the takeaway's
    slot, for a page that writes it once its picks are made
    (``slot.info(text, icon=current.TAKEAWAY_ICON)``)."""
    nav.ensure_app_entry()
    st.title(title)
    slot = st.empty()
    if takeaway:
        slot.info(takeaway, icon=TAKEAWAY_ICON)
    st.markdown(explanation)
    note = param_note(fam)  # the family's own words (FamilyUI.repair escapes any user string it quotes)
    if note:
        st.warning(note, icon=":material/warning:")
    notices(fam)
    if not about_data:
        return slot
    guardrails(fam)
    e = entry(fam)
    if not e.is_default:
        st.caption(f"Showing {md(e.label)} — switch back to the sample on the Data page. This page's address "
                   "opens these files for anyone who has it: the Data page has a link without them, and deletes "
                   "them.")
    return slot
