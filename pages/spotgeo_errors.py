"""spotGEO Errors: one team's misses and false alarms by brightness and position, what its MSE is
made of, and the sequences that cost it the most."""

import streamlit as st

from lab.charts import spotgeo as charts
from lab.families import spotgeo as sg
from lab.view import current
from scoring.spotgeo import explain as ex

FAM = sg.FAM
view = current.begin(FAM, "Errors")
p, comp, lb = view.params, view.comp, view.leaderboard
teams, team = sg.linked_team(lb, sg.ERR_TEAM)

bins = sg.brightness_bins(team, p)
parts = sg.mse_parts(lb, p)
costs = ex.sequence_costs(view.scorer, team, p)

current.header(
    FAM, "Errors",
    "Where one team loses: which objects it misses (by brightness and by position in the frame), where its "
    "false alarms are, what its MSE is made of, and the sequences that add most to it. Every number follows "
    "the sidebar's τ, ε and rule set.",
    takeaway=sg.errors_takeaway(team, parts, bins, costs),
)
sg.pick(st.selectbox, "Team", sg.ERR_TEAM, teams, help="Teams in leaderboard order; the pick is kept in the page's "
                                                       "address.")

st.subheader("Misses by brightness")
if bins is None:
    st.info("The ground truth has no `object_brightness`, so misses cannot be split by brightness. Add one "
            "number per object to each entry (e.g. a signal-to-noise ratio) to see this chart.")
else:
    st.plotly_chart(charts.brightness_figure(bins, team), key="sg_err_brightness")
    st.caption("Brightness quartiles of all objects. A false alarm has no object, so it has no brightness; "
               "the map below shows where the false alarms are.")

st.subheader("Misses and false alarms by position")
cells = ex.errors_by_position(view.scorer, team, p, cell=80.0)
st.plotly_chart(charts.position_figure(cells, team, 80.0), key="sg_err_position")
st.caption("The 640 × 480 frame in 80-pixel squares, summed over every frame of every sequence.")

st.subheader("What the MSE is made of")
st.plotly_chart(charts.mse_parts_figure(parts, team), key="sg_err_parts")
st.caption("Position error: π(d) of the true positives at least ε off; false alarms and misses: τ² each — "
           + ("divided by all TP + FP + FN (published rules)." if p["rules"] == "seed" else
              "each sequence's part divided by its own TP + FP + FN, then summed over sequences (starter kit)."))

st.subheader("The sequences that cost the most")
st.plotly_chart(charts.sequence_cost_figure(costs, team), key="sg_err_costs")
st.dataframe(costs.head(10), hide_index=True, key="sg_err_cost_table", column_config={
    "sequence_id": st.column_config.NumberColumn("sequence", format="%d"),
    "sse": st.column_config.NumberColumn("SSE", format="%.1f"),
    "mse": st.column_config.NumberColumn("own MSE", format="%.2f", help="The sequence's SSE / (TP + FP + FN)"),
    "contribution": st.column_config.NumberColumn("adds to the MSE", format="%.3f",
                                                  help="What this sequence adds to the team's MSE; all sequences "
                                                       "together add up to it"),
})
worst = int(costs["sequence_id"].iloc[0])
st.page_link("pages/spotgeo_frames.py", label=f"Open sequence {worst} on the Frames page", icon=":material/open_in_new:",
             query_params={"team": team, "seq": str(worst), "frame": str(comp.frames_of(worst)[0])})
