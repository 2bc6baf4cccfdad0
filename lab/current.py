"""What a page needs of the family it belongs to: the active data, its scorer, the current
parameters and leaderboard, team colours, and the page header (with the notices about the
data shown). Every function takes the family, so each family's pages read their own state."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from scoring import registry
from scoring.core.family import Family

from . import families, nav, state, store
from .colors import team_colors
from .text import md


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


def leaderboard(fam: Family, p: dict[str, Any] | None = None) -> pd.DataFrame:
    """The leaderboard at the current (or the given) parameters; the scorer caches its costly
    levels, so this is cheap after a slider move."""
    return scorer(fam).leaderboard(**(params(fam) if p is None else p))


def colors(fam: Family) -> dict[str, str]:
    return team_colors(competition(fam).submission_names)


def header(fam: Family, title: str, explanation: str) -> None:
    """Page title and its one-paragraph explanation (the app's words), then what data is
    shown: a notice when a link named data this server does not have, and a note on an
    upload."""
    nav.ensure_app_entry()
    st.title(title)
    st.markdown(explanation)
    note = param_note(fam)  # the family's own words (FamilyUI.repair escapes any user string it quotes)
    if note:
        st.warning(note, icon=":material/warning:")
    missing = store.missing_link(fam)
    if missing:
        st.warning("The link you opened names uploaded data that this server does not have (uploads are "
                   "kept for a limited time, and only on the server they were uploaded to). You are seeing "
                   "the sample instead; upload the files again on the Data page.", icon=":material/link_off:")
    e = entry(fam)
    if not e.is_default:
        st.caption(f"Showing {md(e.label)} — switch back to the sample on the Data page.")
