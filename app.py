"""Leaderboard Lab — entry point: navigation and the shared parameter sidebar.

Run with ``streamlit run app.py``. Set ``LAB_DATA_DIR`` to a folder laid out like
``sample_data/`` (ground_truth.csv, submissions/*.csv, demographics.csv, runtimes.csv)
to start on that competition instead of the sample.
"""

from pathlib import Path

import streamlit as st

import scoring
import ui

HERE = Path(__file__).resolve().parent

ui.ensure_app_entry()
ui.begin_run()  # the active data is resolved (at most) once per run
st.set_page_config(page_title="Leaderboard Lab", page_icon=":material/leaderboard:", layout="wide")

# Sections: each metric family gets its own group of pages; "Your data" is shared.
SECTIONS = {
    "Shovel-Ready metric": [
        ("pages/leaderboard.py", "Leaderboard", ":material/leaderboard:"),
        ("pages/demographics.py", "Demographics", ":material/groups:"),
        ("pages/efficiency.py", "Efficiency", ":material/speed:"),
        ("pages/segments.py", "Segments", ":material/segment:"),
        ("pages/worked_examples.py", "Worked examples", ":material/calculate:"),
    ],
    "Your data": [
        ("pages/data.py", "Data", ":material/upload_file:"),
    ],
}

pages = {
    section: [
        st.Page(path, title=title, icon=icon, default=(path == "pages/leaderboard.py"))
        for path, title, icon in entries
        if (HERE / path).is_file()
    ]
    for section, entries in SECTIONS.items()
}
navigation = st.navigation({s: p for s, p in pages.items() if p})

try:
    competition = ui.current_competition()
except (ui.InvalidDataDir, scoring.InputError) as err:
    st.error(f"The default data could not be loaded — {err}")
    st.info("Fix the folder (or unset LAB_DATA_DIR), or upload your own files on the Data page.")
    if navigation.url_path != "data":
        st.stop()
else:
    ui.sidebar(competition)
    source = "sample competition" if ui.using_sample() else "your uploaded data"
    st.sidebar.caption(
        f"Data: {source} — {len(competition.submission_names)} submissions, "
        f"{len(competition.essays)} essays."
    )

navigation.run()
