"""QA Speed penalty: every team's average inference time per theme against the threshold, and
what 10 ms saved per question would add to its final score."""

import pandas as pd
import streamlit as st

from lab.charts import qa as charts
from lab.families import qa
from lab.view import current

FAM = qa.FAM
TITLE = "Speed penalty"

view = current.begin(FAM, TITLE)
p, lb = view.params, view.leaderboard
sp = qa.speed_table(p)
order = lb["submission"].astype(str).tolist()
T = p["time_threshold"]

current.header(
    FAM, TITLE,
    f"A theme whose average inference time per question (AIT) is over the threshold T (now {T:g} ms, in the "
    "sidebar) has its score multiplied by T ÷ AIT; at or under T the multiplier is 1. The gain is what the final "
    f"score would add if the theme's AIT dropped by {qa.STEP_MS:g} ms (at the current weights) — nothing once "
    "the team is at or under T.",
    takeaway=qa.speed_takeaway(sp, order, T, len(lb.attrs["themes"])),
)
colors = qa.theme_colors()
st.plotly_chart(charts.ait_chart(sp, order, colors, T), key="qa_sp_ait")
st.plotly_chart(charts.gain_chart(sp, order, colors, qa.STEP_MS), key="qa_sp_gain")

rank = {t: i for i, t in enumerate(order)}
table = sp.assign(_r=sp["submission"].map(rank)).sort_values(["_r", "theme"], kind="stable")
st.dataframe(pd.DataFrame({
    "Team": table["submission"].astype(str), "Theme": table["theme"].astype(str),
    "AIT (ms)": table["ait_ms"].astype(float), "Over T by (ms)": table["over_ms"].astype(float),
    "Multiplier": table["multiplier"].astype(float), "Theme score": table["score"].astype(float),
    "Gain per 10 ms saved": table["gain"].astype(float), "Team's gain, every theme": table["gain_all"].astype(float),
}), hide_index=True, key="qa_sp_table", column_config={
    "AIT (ms)": st.column_config.NumberColumn(format="%.1f", help=qa.AIT_HELP),
    "Over T by (ms)": st.column_config.NumberColumn(format="%.1f"),
    "Multiplier": st.column_config.NumberColumn(format="%.3f", help=qa.MULT_HELP),
    "Theme score": st.column_config.NumberColumn(format="%.4f"),
    "Gain per 10 ms saved": st.column_config.NumberColumn(
        format="%.5f", help=f"Final score added if this theme's AIT dropped by {qa.STEP_MS:g} ms"),
    "Team's gain, every theme": st.column_config.NumberColumn(
        format="%.5f", help=f"Final score added if every theme's AIT dropped by {qa.STEP_MS:g} ms"),
})
