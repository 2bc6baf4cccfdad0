"""Leaderboard: the five stages side by side, how ranks move, and one team's waterfall."""

import streamlit as st

from lab.charts import shovel_ready as charts
from lab.charts.common import rank_chart
from lab.families import shovel_ready as sr
from lab.view import current, export_button, links, report_button, tables
from lab.view.draw import memo, vega_lite_chart
from lab.words import glossary
from lab.words.text import md
from scoring.shovel_ready import STAGES

FAM = sr.FAM

view = current.begin(FAM, "Leaderboard")
p, lb = view.params, view.leaderboard
current.header(
    FAM, "Leaderboard",
    "Every submission scored at each of the five stages of the unified metric — the original "
    f"FP1 ({glossary.FP1_IN_WORDS}), FP1 after overlap removal, the unified segment score, the "
    f"bias-aware score ({glossary.SOFTMIN_IN_WORDS}) and the final score with the efficiency boost. "
    "The final result comes first; ▲ and ▼ show places gained or lost against the previous stage. "
    "Move any control in the sidebar and the table follows.",
    # with overlap removal off, the "after overlap removal" column is for reference only: the
    # story of who passed whom leaves it out
    takeaway=current.winner_takeaway(FAM, lb, skip=() if p["overlap_removal"] else ("overlap_removed",)),
    words=("softmin", "α", "attribute", "memo"),
)
colors = view.colors

table = sr.show_stage_table(lb)
st.caption(sr.boost_summary(lb, p, has_runtimes=bool(view.comp.runtimes)))
if not p["overlap_removal"]:
    st.caption(
        "Overlap removal is **off**: the unified segment, bias-aware and final scores count "
        "overlapping predictions as submitted. The “After overlap removal” column still "
        "applies it — that stage is FP1 after removal by definition."
    )
ties = {k: v for k, v in current.competition(FAM).row_order_ties.items() if v}
if ties:
    st.caption(
        "Row order decides which overlapping duplicate survives overlap removal (the earlier row wins) for "
        + md(", ".join(f"{k} ({v} prediction{'s' if v != 1 else ''})" for k, v in sorted(ties.items())))
        + ": reordering those rows can change their score."
    )

d1 = d2 = d3 = tables.download_row()  # one row that wraps: each button as wide as its label
d1.download_button("Download CSV", lambda: sr.leaderboard_csv(lb), file_name="leaderboard.csv",
                   mime="text/csv", key="lb_csv", on_click="ignore", icon=":material/download:")
d2.download_button("Download JSON", lambda: sr.leaderboard_json(lb, p), file_name="leaderboard.json",
                   mime="application/json", key="lb_json", on_click="ignore", icon=":material/download:")
report_button.download(FAM, key="lb_report", page="leaderboard", params=p, where=d3)
export_button.show(FAM, key="lb_export", page="leaderboard", params=p, where=d3)

vega_lite_chart(memo(rank_chart, lb, STAGES, colors), key="lb_bump")
st.caption("Each line is a team (the legend lists them in final order); the biggest move into each stage is "
           "named on the chart.")


@st.fragment
def team_waterfall() -> None:
    st.subheader("One team, stage by stage")
    teams = [str(t) for t in lb["submission"]]
    # the team in the link when it is one of ours; otherwise the current leader, on every run
    team = links.draw(st.selectbox, "Team", sr.LB_TEAM, options=teams, default=teams[0], follow_default=True,
                      help="Defaults to the current leader; a team you pick is kept in the page's address, so a "
                           "shared link shows it.")
    profile = sr.team_profiles().get(team)
    if profile:
        st.caption(profile)
    vega_lite_chart(memo(charts.waterfall, lb, team, overlap_removal=p["overlap_removal"]), key="lb_waterfall")
    row = lb.loc[lb["submission"] == team].iloc[0]
    st.caption(
        f"Rank {int(row['fp1_rank'])} on FP1 → rank {int(row['rank'])} in the end. Green bars are stages that "
        "gave score, red bars stages that took it; the axis is scaled to the steps, so it need not start at 0."
    )


team_waterfall()
