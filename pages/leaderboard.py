"""Leaderboard: the five stages side by side, how ranks move, and one team's waterfall."""

import streamlit as st

from lab import current
from lab import shovel_ready as sr
from lab.charts import shovel_ready as charts
from lab.charts.common import bump_chart
from lab.text import md
from scoring.shovel_ready import STAGES

FAM = sr.FAM

current.header(
    FAM, "Leaderboard",
    "Every submission scored at each of the five stages of the unified metric — the original "
    "FP1, FP1 after overlap removal, the unified segment score, the bias-aware score and the "
    "final score with the efficiency boost. ▲ and ▼ show places gained or lost against the "
    "previous stage. Move any control in the sidebar and the table follows.",
)

lb = sr.leaderboard()
colors = current.colors(FAM)
p = sr.params()

first_fp1 = lb.sort_values(["fp1_rank", "submission"]).iloc[0]["submission"]
winner = lb.iloc[0]["submission"]
rank_cols = [s.rank for s in STAGES]
moved = int((lb[rank_cols].nunique(axis=1) > 1).sum())
c1, c2, c3 = st.columns(3)
c1.metric("Leader on FP1", str(first_fp1))
c2.metric("Leader after all stages", str(winner),
          help="Same team as on FP1." if winner == first_fp1 else "A different team than on FP1.")
c3.metric("Teams whose rank moves at some stage", f"{moved} of {len(lb)}")

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
table = sr.stage_table(lb)
st.dataframe(table, hide_index=True, column_config=sr.stage_column_config(), key="lb_table")

d1, d2, _ = st.columns([1, 1, 3])
d1.download_button("Download CSV", sr.leaderboard_csv(lb), file_name="leaderboard.csv",
                   mime="text/csv", key="lb_csv", icon=":material/download:")
d2.download_button("Download JSON", sr.leaderboard_json(lb, p), file_name="leaderboard.json",
                   mime="application/json", key="lb_json", icon=":material/download:")

st.plotly_chart(bump_chart(lb, STAGES, colors), key="lb_bump")


def _pick_team() -> None:
    """An explicit pick goes into the URL (``team=``), so a shared link shows the same team."""
    st.query_params["team"] = st.session_state["lb_team"]


@st.fragment
def team_waterfall() -> None:
    st.subheader("One team, stage by stage")
    teams = [str(t) for t in lb["submission"]]
    # The team in the URL when it is one of ours; otherwise the current leader, on every run
    # (an unknown name in the URL is dropped silently).
    linked = st.query_params.get("team")
    if linked is not None and linked not in teams:
        del st.query_params["team"]
        linked = None
    st.session_state["lb_team"] = linked if linked is not None else teams[0]
    team = st.selectbox("Team", teams, key="lb_team", on_change=_pick_team,
                        help="Defaults to the current leader; a team you pick is kept in the "
                             "page's address, so a shared link shows it.")
    profile = sr.team_profiles().get(team)
    if profile:
        st.caption(profile)
    st.plotly_chart(charts.waterfall(lb, team, overlap_removal=sr.params()["overlap_removal"]), key="lb_waterfall")
    row = lb.loc[lb["submission"] == team].iloc[0]
    st.caption(
        f"Rank {int(row['fp1_rank'])} on FP1 → rank {int(row['rank'])} in the end. "
        "Green bars are stages that gave score, red bars stages that took it."
    )


team_waterfall()
