"""spotGEO Leaderboard: counts, precision, recall, F1, MSE and the rank under both rule sets."""

import streamlit as st

from lab.charts import spotgeo as charts
from lab.families import spotgeo as sg
from lab.view import current, export_button, report_button, tables
from lab.view.draw import memo
from lab.words.text import md

FAM = sg.FAM
view = current.begin(FAM, "spotGEO leaderboard")
p, lb = view.params, view.leaderboard
rules, other = p["rules"], sg.other(p["rules"])

current.header(
    FAM, "spotGEO leaderboard",
    "Each team's predictions are paired one-to-one with the true objects of every frame; a pair at most τ "
    "pixels apart is a true positive (TP), a prediction left over a false positive (FP), an object left over "
    "a false negative (FN). Teams are ranked by F1 over all frames; the MSE only orders teams with the same "
    "F1. The last two columns show the rank the same predictions get under the other rule set. Move τ, ε or "
    "the rule set in the sidebar and the table follows.",
    takeaway=sg.takeaway_leaderboard(lb, rules),
    words=("border radius τ",),
)

tie = sg.tie_note(lb)
if tie:
    st.caption(tie)
st.dataframe(sg.table(lb, rules), hide_index=True, column_config=sg.column_config(rules), key="sg_lb_table")

d1 = d2 = d3 = tables.download_row()  # one row that wraps: each button as wide as its label
d1.download_button("Download CSV", lambda: sg.leaderboard_csv(lb), file_name="spotgeo-leaderboard.csv", mime="text/csv",
                   key="sg_lb_csv", on_click="ignore", icon=":material/download:")
d2.download_button("Download JSON", lambda: sg.leaderboard_json(lb, p), file_name="spotgeo-leaderboard.json",
                   mime="application/json", key="sg_lb_json", on_click="ignore", icon=":material/download:")
report_button.download(FAM, key="sg_lb_report", page="spotgeo_leaderboard", params=p, where=d3)
export_button.show(FAM, key="sg_lb_export", page="spotgeo_leaderboard", params=p, where=d3)

by_seed = lb.assign(**{rules: lb["rank"], other: lb["other_rules_rank"]})
st.plotly_chart(memo(charts.rank_slope, by_seed, [("seed", "Published rules"), ("starter-kit", "Starter-kit code")],
                     current.colors(FAM), "Rank under each rule set"), key="sg_lb_slope")
st.caption(f"τ = {p['tau']:g} px, ε = {p['epsilon']:g} px. The table uses {md(sg.RULE_WORDS[rules])}; the "
           "Rules page takes the four differences between the rule sets one at a time.")
