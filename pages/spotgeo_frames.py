"""spotGEO Frames: one team's predictions on one 640 × 480 frame, matched to the true objects."""

import streamlit as st

from lab.charts import spotgeo as charts
from lab.families import spotgeo as sg
from lab.view import current, links
from scoring.spotgeo import explain as ex

FAM = sg.FAM
view = current.begin(FAM, "Frames")
p, comp, lb = view.params, view.comp, view.leaderboard
teams, team = sg.linked_team(lb, sg.FR_TEAM)
seq = sg.linked(sg.FR_SEQ, comp.sequences, comp.sequences[0], int)
frames = comp.frames_of(seq)
frame = sg.linked(sg.FR_FRAME, frames, frames[0], int)
shown = ex.explain_frame(view.scorer, team, seq, frame, p)

current.header(
    FAM, "Frames",
    "One frame as the telescope saw it, to scale (y points down, as in an image). Circles (○) are the true "
    "objects, crosses (×) the team's predictions; green is a true positive, red a missed object (FN), orange a "
    "false alarm (FP). The solid ring around each object has radius τ, the dotted one ε; a line joins each "
    "matched pair. Hover a point for its numbers. The team, sequence and frame are in the page's address.",
    takeaway=sg.frame_takeaway(shown),
)

c1, c2, c3 = st.columns([2, 1, 2])
sg.pick(c1.selectbox, "Team", sg.FR_TEAM, teams, help="Teams in leaderboard order.")
sg.pick(c2.selectbox, "Sequence", sg.FR_SEQ, comp.sequences, help="The sequence id of the ground truth (5 frames each).")
sg.pick(c3.segmented_control, "Frame", sg.FR_FRAME, frames, required=True,
        help="Step through the sequence's frames (or use the buttons below).")
prev, nxt = sg.step(comp, seq, frame, -1), sg.step(comp, seq, frame, 1)
b1, b2, _ = st.columns([1, 1, 3])
b1.button("◀ Previous frame", key="sg_prev", on_click=sg.go_to, args=prev or (seq, frame), disabled=prev is None,
          width="stretch")
b2.button("Next frame ▶", key="sg_next", on_click=sg.go_to, args=nxt or (seq, frame), disabled=nxt is None,
          width="stretch")

s = shown["summary"]
m = st.columns(4)
m[0].metric("True positives (TP)", s["tp"], help=sg.HELP["TP"])
m[1].metric("False positives (FP)", s["fp"], help=sg.HELP["FP"])
m[2].metric("False negatives (FN)", s["fn"], help=sg.HELP["FN"])
m[3].metric("SSE of this frame", sg.num(s["sse"]),
            help="The frame's squared error: π(d) for every true positive (0 below ε) plus τ² for every FP and FN. "
                 "The MSE divides the sum over all frames by the number of TP, FP and FN.")
st.markdown(sg.sse_text(shown) + f" (τ = {p['tau']:g} px, ε = {p['epsilon']:g} px, {sg.RULE_WORDS[p['rules']]}).")

objects, preds = shown["objects"], shown["predictions"]
zooms = ["The whole frame"] + [f"Object {int(o.object)} ({o.label})" for o in objects.itertuples()]
zoom = links.draw(st.selectbox, "Zoom", sg.FR_ZOOM, options=zooms, default=zooms[0],
                  help="Close in on one object: its τ and ε rings, the nearby predictions and the match line are "
                       "easier to see.")
centre = None
if zoom != zooms[0]:
    o = objects.iloc[zooms.index(zoom) - 1]
    centre = (float(o["x"]), float(o["y"]), max(3.0 * p["tau"], 20.0))
title = f"{team} — sequence {seq}, frame {frame}"
st.plotly_chart(charts.frame_figure(objects, preds, shown["candidates"], tau=p["tau"], epsilon=p["epsilon"],
                                    title=title, zoom=centre, height=860, legend_below=True), key="sg_frame_chart")

config = {
    "x": st.column_config.NumberColumn(format="%.2f"), "y": st.column_config.NumberColumn(format="%.2f"),
    "d (px)": st.column_config.TextColumn(help="Distance between the matched object and prediction"),
    "π(d)": st.column_config.TextColumn(help="What the true positive adds to the SSE: 0 below ε, else d² "
                                             "(published rules) or d (starter-kit code)"),
}
st.markdown("**True objects**")
st.dataframe(sg.objects_table(objects), hide_index=True, key="sg_objects", column_config=config)
st.markdown("**Predictions**")
st.dataframe(sg.predictions_table(preds), hide_index=True, key="sg_predictions", column_config=config)
