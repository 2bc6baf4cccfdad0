"""Difficulty-weighted Splits: every model's score within each split (parallel coordinates) and
a sunburst per model — its splits inside, its right and wrong predictions outside."""

import numpy as np
import pandas as pd
import streamlit as st

from lab.charts import difficulty as charts
from lab.families import difficulty as dw
from lab.view import current, links
from lab.view.draw import memo
from lab.words import difficulty as words
from scoring.difficulty import split_columns, views

FAM = dw.FAM
TITLE = "Splits"

view = current.begin(FAM, TITLE)
p, lb = view.params, view.leaderboard
if p["split_mode"] == "continuous":
    current.header(FAM, TITLE, "With continuous weights there are no splits to compare: every sample has its own "
                               "weight.")
    dw.settings_strip(p, lb)
    st.info("Pick equally populated splits or thresholds in the sidebar to see each split.", icon=":material/tune:")
    st.stop()
table = views.split_table(view.scorer, p)

current.header(FAM, TITLE, takeaway=words.splits_takeaway(table, lb))
dw.settings_strip(p, lb)
st.caption(
    "Each split's score is the leaderboard's score computed within that split alone (from −100 to 100 with the "
    "default reward and penalty). The paper's observation on IMDb: models differ most on the easy splits and "
    "converge on the hard ones. Click a model in the legend to hide it, double-click to see it alone."
    + (" With WMProb every model has its own splits: split 1 holds its most confident samples." if p["metric"] ==
       "wmprob" else "")
)
splits = split_columns(lb)
full = [c for c in splits if np.isfinite(lb[c].to_numpy(float)).all()]
# plain lines first; the parallel coordinates (WebGL: the slowest figure of the app for a browser to draw,
# seconds without a graphics card) run only when their expander is opened
st.plotly_chart(memo(charts.split_lines, lb, full, current.colors(FAM)), key="df_sp_lines")
brush = st.expander("Filter the models by dragging along an axis (parallel coordinates)", key="df_sp_brush",
                    on_change="rerun")
if brush.open:
    with brush:
        st.plotly_chart(memo(charts.parallel, lb, full, current.colors(FAM)), key="df_sp_parcoords")
        st.caption("Drag along an axis to keep only the lines that pass there.")
if len(full) < len(splits):
    gone = [c.replace("split_", "") for c in splits if c not in full]
    which = f"Split {gone[0]} holds" if len(gone) == 1 else f"Splits {', '.join(gone[:-1])} and {gone[-1]} hold"
    st.caption(f"{which} no sample for some model at these thresholds (no score), so the plot leaves "
               f"{'it' if len(gone) == 1 else 'them'} out.")

# one sunburst at a time (ten of them took the browser about 2 s to draw); all of them side by side
# in an expander whose content runs only while it is open
order = lb["submission"].astype(str).tolist()
model = links.draw(
    st.columns([2, 3])[0].selectbox, "Sunburst of", dw.SP_MODEL, options=order, default=order[0],
    help="One model's sunburst; the first is the leaderboard's leader. Every model's, side by side, is in the "
         "expander below.")
st.plotly_chart(memo(charts.sunbursts, table, lb, models=(model,)), key="df_sp_one_sunburst")
st.caption("Inside: the splits, sized by their samples and coloured from light (split 1, the easiest) to dark (the "
           "hardest) as on the Samples page. Outside: the model's right (green) and wrong (red) predictions in each "
           "split. Hover a ring for the counts.")
every = st.expander(f"Every model's sunburst, side by side ({len(order)})", key="df_sp_all", on_change="rerun")
if every.open:
    with every:
        st.plotly_chart(memo(charts.sunbursts, table, lb), key="df_sp_sunbursts")

with st.expander("The numbers"):
    st.dataframe(pd.DataFrame({
        "Model": table["submission"].astype(str), "Split": table["split"].astype(int),
        "Samples": table["n"].astype(int), "Right": table["correct"].astype(int),
        "Wrong": table["incorrect"].astype(int), "Split score": table["score"].astype(float),
    }), hide_index=True, key="df_sp_table",
        column_config={"Split score": st.column_config.NumberColumn(format="%.1f", help=words.HELP["score"])})
