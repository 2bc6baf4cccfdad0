"""Difficulty-weighted Leaderboard: the new ranking beside plain accuracy (rank moves marked),
the current settings in words, Table 1's reward/penalty cases, and the paper's multi-line chart."""

import streamlit as st

from lab.charts import difficulty as charts
from lab.charts.common import bump_chart
from lab.families import difficulty as dw
from lab.view import current, export_button, report_button, tables
from lab.view.draw import memo
from lab.words import difficulty as words
from lab.words.text import md
from scoring.difficulty import STAGES, csv_columns, leaderboard_document, split_columns

FAM = dw.FAM
TITLE = "Leaderboard"

view = current.begin(FAM, TITLE)
p, lb = view.params, view.leaderboard
metric = dw.metric_name(p)

current.header(FAM, TITLE, takeaway=words.leaderboard_takeaway(lb))
dw.settings_strip(p, lb)
st.caption(
    "Samples are sorted by their ease (easiest first) and cut into splits; a sample weighs its split's weight, a "
    "right prediction earns the reward d and a wrong one costs the penalty e, and the score is 100 × what the model "
    "earned ÷ what a perfect model would earn. Plain accuracy, where every sample counts the same, stands beside it: "
    "▲/▼ in the Rank column are places gained or lost against it. Change the metric, the splits and the weights in "
    "the sidebar."
)
if p["metric"] == "wmprob" and p["split_mode"] != "continuous":
    st.info(words.WMPROB_DIRECTION, icon=":material/swap_vert:")

left, right = st.columns([2, 3], vertical_alignment="bottom")
dw.case_picker(p, left)
right.markdown(f"Active: {dw.case_text(p)}.")

splits = split_columns(lb)
cc = st.column_config
st.dataframe(charts.leaderboard_table(lb, splits), hide_index=True, key="df_lb_table", column_config={
    "Rank": cc.TextColumn("Rank", pinned=True, width="small",
                          help="Rank on the difficulty-weighted score; ▲/▼: places gained/lost against plain accuracy"),
    "Model": cc.TextColumn("Model", pinned=True),
    "Score": cc.NumberColumn(metric, format="%.3f", pinned=True, help=words.HELP["score"]),
    "Accuracy": cc.NumberColumn(format="%.2f %%", help="The share of all samples the model gets right, every sample "
                                                       "counting the same"),
    "Accuracy rank": cc.NumberColumn(format="%d", width="small"),
    **{f"Split {i}": cc.NumberColumn(format="%.1f", help=f"The score within split {i} alone" + (
        " (the easiest)" if i == 1 else " (the hardest)" if i == len(splits) else "")) for i in range(1, len(splits) + 1)},
})
d1 = d2 = d3 = tables.download_row()  # one row that wraps: each button as wide as its label
d1.download_button("Download CSV", lambda: tables.csv_bytes(lb, csv_columns(lb)), file_name="difficulty-leaderboard.csv",
                   mime="text/csv", key="df_lb_csv", on_click="ignore", icon=":material/download:")
d2.download_button("Download JSON", lambda: tables.json_bytes(leaderboard_document(lb, p)),
                   file_name="difficulty-leaderboard.json", mime="application/json", key="df_lb_json", on_click="ignore",
                   icon=":material/download:")
report_button.download(FAM, key="df_lb_report", page="difficulty_leaderboard", params=p, where=d3)
export_button.show(FAM, key="df_lb_export", page="difficulty_leaderboard", params=p, where=d3)

colors = current.colors(FAM)
left, right = st.columns(2)
left.plotly_chart(memo(charts.multi_line, lb, colors, metric), key="df_lb_mlc")


def model_bump(lb, colors, metric):
    return (bump_chart(lb, STAGES, colors, title=f"Rank on accuracy and on {metric}").update_xaxes(title=None)
            .update_layout(legend_title_text="Model"))


right.plotly_chart(memo(model_bump, lb, colors, metric), key="df_lb_bump")

with st.expander("What the words mean"):
    st.markdown("\n".join(f"- {words.HELP[k]}" for k in ("ease", "splits", "wsbias", "wood", "wmprob", "continuous",
                                                       "linear", "square", "log", "reverse", "case")))
report = current.competition(FAM).report
if report:
    with st.expander(f"What the data says ({len(report)} note{'s' if len(report) != 1 else ''} from loading it)"):
        st.markdown("\n".join(f"- {md(line)}" for line in report))
