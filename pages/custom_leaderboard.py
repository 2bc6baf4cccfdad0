"""Custom Leaderboard: the recipe's four stages side by side (score and rank, ▲/▼), the
recipe's choices in words, the published aggregate beside ours, downloads, and the item values."""

import streamlit as st

from lab.charts import custom as charts
from lab.charts.common import rank_chart
from lab.families import custom as cu
from lab.view import current, export_button, report_button, tables
from lab.view.draw import memo, vega_lite_chart
from lab.words.text import md
from scoring.claims import custom as claims
from scoring.custom import STAGES

FAM = cu.FAM
TITLE = "Leaderboard"
#: teams the rank chart draws (the top of the final ranking): every line costs the browser
BUMP_TEAMS = 20

view = current.begin(FAM, TITLE)
p, lb = view.params, view.leaderboard
comp = view.comp
title = comp.recipe.title

current.header(FAM, TITLE, (f"Recipe **{md(title)}**. " if title else "") +
               "Each stage of the recipe is a column group with its score and rank; ▲/▼ are places gained or lost "
               "against the stage before. Change any stage in the sidebar; save or load a recipe on the Recipe page.",
               takeaway=current.winner_takeaway(FAM, lb))
with st.expander("What this recipe does, stated", expanded=True):
    st.markdown("\n".join(f"- {md(line)}" for line in lb.attrs["notes"]))
    for line in comp.report:
        st.caption(md(line))

extras = {"aggregate": lambda t: {"Runtime": t["runtime"], "Efficiency ×": t["efficiency_factor"]}} \
    if comp.runtime is not None else None
tables.show_stage_table(lb, STAGES, key="cu_lb_table", extras=extras)
d1 = d2 = d3 = tables.download_row()  # one row that wraps: each button as wide as its label
d1.download_button("Download CSV", lambda: cu.leaderboard_csv(lb), file_name="custom-leaderboard.csv", mime="text/csv",
                   key="cu_lb_csv", on_click="ignore", icon=":material/download:")
d2.download_button("Download JSON", lambda: cu.leaderboard_json(lb, p), file_name="custom-leaderboard.json",
                   mime="application/json", key="cu_lb_json", on_click="ignore", icon=":material/download:")
report_button.download(FAM, key="cu_lb_report", page="custom_leaderboard", params=p, where=d3)
export_button.show(FAM, key="cu_lb_export", page="custom_leaderboard", params=p, where=d3)

pub = cu.published_comparison(lb)
if pub is not None:
    st.subheader("Beside the published aggregate")
    for comparison in lb.attrs["published"]:
        st.caption(md(claims.published(comparison)))
    st.dataframe(pub, hide_index=True, key="cu_lb_pub", column_config={"Team": tables.team_column()})

vega_lite_chart(memo(rank_chart, lb, STAGES, current.colors(FAM), most=BUMP_TEAMS), key="cu_lb_bump")
if len(lb) > BUMP_TEAMS:
    st.caption(f"The chart draws the top {BUMP_TEAMS} of the {len(lb)} teams (a line each); the table above has "
               "every team's rank at every stage.")
vega_lite_chart(memo(charts.item_heatmap_spec, lb), key="cu_lb_items")
