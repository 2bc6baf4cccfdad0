"""Rank intervals: how sure is the ranking? Bootstrap intervals of every team's score and rank,
tiers of statistically tied teams, the warnings where a conclusion is fragile, and who moves
when one team is absent."""

import streamlit as st

from lab import current, tables
from lab import robustness as rb
from lab.charts.robustness import interval_figure
from lab.text import md

fam = rb.begin(
    "rob_iv_family", "Rank intervals",
    lambda fam: f"Would the winner still win with another sample of {fam.unit}s? Each of B replicates draws the "
    f"{fam.unit}s again with replacement (within each group, theme or split, so every one keeps its size) and "
    "scores every team on them. A team's interval holds the central share of its replicate scores and ranks; its "
    "**tier** is 1 + the number of teams whose score interval lies wholly above its own, so teams that share a "
    "tier are statistically tied.",
)
c1, c2, c3 = st.columns(3)
b = c1.select_slider("Replicates B", [200, 500, 1000, 2000, 5000], value=rb.DEFAULT_B, key="rob_b",
                     help="More replicates give steadier interval ends; 1,000 is the usual choice.")
confidence = c2.select_slider("Confidence", [0.8, 0.9, 0.95, 0.99], value=0.95, key="rob_confidence",
                              format_func=lambda c: f"{c:.0%}", help="The central share of the replicates.")
seed = c3.number_input("Seed", min_value=0, value=0, step=1, key="rob_seed",
                       help="The same seed gives the same intervals, run after run.")

with st.spinner(f"Resampling the {fam.unit}s {b:,} times…"):
    iv = rb.intervals(fam, b=b, seed=int(seed), confidence=confidence)
lb = current.leaderboard(fam)
first = iv[iv["tier"] == 1].sort_values(["rank", "score"], ascending=[True, not fam.final.higher_is_better])
names = ", ".join(str(t) for t in first.index)
st.markdown(f"**Tier 1 holds {len(first)} team{'s' if len(first) != 1 else ''}:** {md(names)} — "
            + ("statistically tied for first at this confidence." if len(first) > 1
               else "first with confidence: no other team's interval reaches its own."))
rb.show_warnings(rb.fragile(fam, lb, iv))

table = iv.rename_axis("Team").reset_index()[["Team", "rank", "score", "score_low", "score_high", "rank_low",
                                              "rank_high", "tier"]]
table.columns = ["Team", "Rank", fam.final.label, "Low", "High", "Best rank", "Worst rank", "Tier"]
st.dataframe(table.sort_values(["Rank", "Team"]), hide_index=True, key="rob_iv_table",
             column_config={**tables.number_columns([fam.final.label, "Low", "High"], "%.4f"),
                            "Tier": st.column_config.NumberColumn(help="1 + the teams whose interval lies wholly better")})
st.plotly_chart(interval_figure(iv, current.colors(fam), score_label=fam.final.label, confidence=confidence),
                key="rob_iv_chart")

st.subheader("If one team were absent")
loo = rb.leave_one_team_out(fam)
if loo.empty:
    st.caption("No team's absence reorders the others beyond the place it frees: the ranking of the rest does "
               "not depend on who else took part.")
else:
    st.markdown("A team's absence can move others beyond the place it frees when scores are relative to the "
                "field (the efficiency boost's eligibility band is relative to the best score).")
    shown = loo.rename(columns={"absent": "If absent", "team": "Team", "rank": "Rank", "rank_without": "Rank without",
                                "moved": "Places gained"})
    st.dataframe(shown, hide_index=True, key="rob_loo_table")
