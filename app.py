"""Leaderboard Lab — entry point: navigation (one section per metric family) and the sidebar
of the family being shown.

Run with ``streamlit run app.py``. ``LAB_DATA_DIR`` (a folder laid out like
``sample_data/competition/``) starts the Shovel-Ready pages on that competition instead of
the sample; ``LAB_DATA_DIR_<FAMILY>`` does the same for another family.
"""

import streamlit as st

from lab import families, robustness
from lab.data import store
from lab.view import current, guard, nav, sidebar, state
from lab.words.text import md
from scoring import InputError


def warm(fam, entry: store.Entry) -> None:
    """Data loaded from a folder (a family's default): its default view computed once per server,
    before the first visitor's page is drawn — the leaderboard and the guardrail warnings at the
    app's default parameters, what the family's UI asks for (``FamilyUI.warm``) — and, in the
    background, the robustness pages' first answers (``lab.robustness.warm``)."""
    if not entry.is_default or entry.warmed:
        return
    with entry.warm_lock:  # one warm-up per server, however many visitors arrive at once
        if entry.warmed:
            return
        p = state.defaults(fam, fam.context(entry.comp), entry.comp)
        with st.spinner("Preparing the default view…"):
            entry.scorer.leaderboard(**p)
            check = getattr(entry.scorer, "warnings", None)
            if callable(check):
                check(**p)
            families.ui(fam).warm(entry, p)
        robustness.warm(fam, entry, p)  # in the background: the Rank intervals page's default answer
        entry.warmed = True


store.begin_run()  # the data is resolved (at most) once per run
st.set_page_config(page_title="Leaderboard Lab", page_icon=str(nav.ROOT / "lab" / "favicon.png"), layout="wide")

navigation, owner = nav.build()
nav.welcome(navigation)  # the landing page says what the product is
nav.note_page(navigation)
family = nav.current_family(navigation, owner)
try:
    families.ui(family).follow_link()  # a dataset the link names, before the sidebar reads the link
    entry = store.active(family)
    warm(family, entry)
except (store.InvalidDataDir, InputError) as err:
    st.error(f"The default data could not be loaded — {md(err)}")
    st.info("Fix the folder (or unset its LAB_DATA_DIR variable), or upload your own files on the Data page.")
    if navigation.url_path != "data":
        st.stop()
else:
    sidebar.draw(family, entry.comp, entry.digest)
    view = current.build(family)  # this run's one view: the parameters validated once, the leaderboard on first use
    st.sidebar.caption(f"Data: {md(entry.label)} — {md(view.ui.describe(entry.comp))}.")

guard.run_page(navigation, family)  # bad input or parameters: the page's own message, never a traceback
