"""Leaderboard Lab — entry point: navigation (one section per metric family) and the sidebar
of the family being shown.

Run with ``streamlit run app.py``. ``LAB_DATA_DIR`` (a folder laid out like
``sample_data/competition/``) starts the Shovel-Ready pages on that competition instead of
the sample; ``LAB_DATA_DIR_<FAMILY>`` does the same for another family.
"""

import streamlit as st

from lab.data import store
from lab.view import current, guard, nav, sidebar
from lab.words.text import md
from scoring import InputError

store.begin_run()  # the data is resolved (at most) once per run
st.set_page_config(page_title="Leaderboard Lab", page_icon=str(nav.ROOT / "lab" / "favicon.png"), layout="wide")

navigation, owner = nav.build()
nav.welcome(navigation)  # the landing page says what the product is
nav.note_page(navigation)
family = nav.current_family(navigation, owner)
try:
    entry = store.active(family)
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
