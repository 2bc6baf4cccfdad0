"""Custom Leaderboard: the recipe's four stages side by side (score and rank, ▲/▼), the
recipe's choices in words, the published aggregate beside ours, downloads, and the item values."""

import streamlit as st

from lab.charts import custom as charts
from lab.charts.common import rank_chart
from lab.families import custom as cu
from lab.view import current, export_button, report_button, tables
from lab.view.draw import memo, vega_lite_chart
from lab.words.text import md
from scoring.custom import STAGES

FAM = cu.FAM
TITLE = "Leaderboard"

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
    first = [c for c in pub.columns if c.startswith("Published") and not c.endswith("rank")][0]
    moved = int((pub["Rank"] != pub[first + " · rank"]).sum())
    same_scale = p["across"] in ("mean", "winrate", "weighted") and p["efficiency"] == "none"
    gap = (pub["Final score"] - pub[first]).abs().max()
    st.caption((f"The largest difference between this recipe's final score and the published {md(first[10:])} is "
                f"{gap:.4g}: the published cells are rounded, so a recomputed aggregate matches only within that "
                "rounding. " if same_scale else
                f"This recipe's scores are on another scale than the published {md(first[10:])}: compare the ranks. ")
               + f"{moved} of {len(pub)} teams rank differently here.")
    st.dataframe(pub, hide_index=True, key="cu_lb_pub")

vega_lite_chart(memo(rank_chart, lb, STAGES, current.colors(FAM)), key="cu_lb_bump")
st.plotly_chart(memo(charts.item_heatmap, lb), key="cu_lb_items")
