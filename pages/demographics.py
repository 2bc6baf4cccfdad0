"""Demographics: per-group scores, softmin weights, and how α moves the bias-aware ranking."""

import math

import altair as alt
import pandas as pd
import streamlit as st

import scoring
from lab.charts import shovel_ready as charts
from lab.charts.tables import groups_as_rows
from lab.families import shovel_ready as sr
from lab.view import current, tables
from lab.words import glossary
from lab.words import shovel_ready as words
from lab.words.story import count
from lab.words.text import md

FAM = sr.FAM
TITLE = "Demographics"
EXPLANATION = (
    "The bias-aware score of a team is a *softmin* over its scores on demographic groups: "
    "with temperature α = 0 it is the plain average over all essays; the larger α, the more "
    "the team's weakest group counts (α = ∞ is the worst group alone). Here you see every "
    f"team's score per group, the weight β each group gets ({glossary.BETA_IN_WORDS}), and how the "
    "ranking moves as α sweeps from 0 to 200."
)

view = current.begin(FAM, TITLE)
comp, p = view.comp, view.params

if not comp.attributes or not p["attributes"]:
    current.header(FAM, TITLE, EXPLANATION)
    if not comp.attributes:
        st.info(
            "**No demographics loaded.** Without a demographics file every essay is in one group, "
            "so the bias-aware score equals the unified segment score. Upload a demographics CSV "
            "(`id` plus one column per attribute) on the **Data** page to see this page."
        )
    else:
        st.info(
            "**No demographic attribute chosen.** Pick one or more attributes in the sidebar "
            f"(available: {md(', '.join(comp.attributes))}); groups are the cross product of your choice."
        )
    st.stop()

lb = view.leaderboard
gs = sr.group_scores(p)
current.header(FAM, TITLE, EXPLANATION, takeaway=words.demographics_takeaway(lb, gs, p),
               words=("attribute", "softmin", "α", "β"))
colors = view.colors
order = [str(t) for t in lb["submission"]]
alpha = p["alpha"]
alpha_words = "∞ (hard minimum)" if math.isinf(alpha) else f"{alpha:g}"
left_out = len(comp.essays) - int(gs.sizes.sum())
if left_out:
    st.caption(f"{count(left_out, 'essay')} without demographics for {md(', '.join(p['attributes']))} "
               f"{'is' if left_out == 1 else 'are'} left out of the groups (they still count in the segment score).")

st.plotly_chart(charts.group_heatmap(gs, order, intervals=sr.group_intervals(p)), key="demo_heatmap")
st.caption(f"Hover a cell for its 95 % interval: the group's essays resampled {sr.GROUP_INTERVAL_B} times "
           "within the group (a small group has a wide one).")

many = groups_as_rows(len(gs.labels), len(order))
betas = scoring.softmin_weights(gs.scores.loc[order, gs.labels], gs.sizes.reindex(gs.labels), alpha) * 100.0
beta_table, beta_config = tables.team_group_table(betas, "%.1f %%", help=glossary.BETA)
total = int(gs.sizes.sum())
sizes = pd.DataFrame({
    "Group": list(gs.labels),
    "Essays": [int(gs.sizes[g]) for g in gs.labels],
    "Share": [100.0 * int(gs.sizes[g]) / total if total else 0.0 for g in gs.labels],
})
beta_caption = ("Each team's β add up to 100 % " + ("down its column" if many else "along its row")
                + ": the share of the team's bias-aware score that each group contributes. Weight moves to the "
                  "team's weakest groups as α grows.")


def _betas() -> None:
    st.subheader(f"Softmin weights β at α = {alpha_words}", help=glossary.BETA + " " + glossary.SOFTMIN)
    if many:  # a table as wide as the teams would not fit: the same numbers as a heatmap, the table below
        beta_gs = scoring.GroupScores(scores=betas, sizes=gs.sizes, labels=list(gs.labels))
        st.plotly_chart(charts.group_heatmap(beta_gs, order, title="Share of each team's score (β)",
                                             value="β (%)", fmt=".1f", colorscale="Blues"), key="demo_beta_heat")
        with st.expander("β as a table"):
            st.dataframe(beta_table, hide_index=True, key="demo_betas", column_config=beta_config, height="content")
    else:
        st.dataframe(beta_table, hide_index=True, key="demo_betas", column_config=beta_config, height="content")
    st.caption(beta_caption)


def _sizes() -> None:
    st.subheader("Group sizes", help=glossary.GROUP_SIZE)
    st.dataframe(sizes, hide_index=True, key="demo_sizes", height="content", column_config={
        "Group": st.column_config.TextColumn("Group"),
        "Essays": st.column_config.NumberColumn("Essays", help=glossary.GROUP_SIZE),
        "Share": st.column_config.NumberColumn("Share", format="%.1f %%", help="Share of the essays in the groups")})
    small = sizes[sizes["Essays"] < 30]
    if len(small):
        st.caption(f"{count(len(small), 'group')} under 30 essays: at large α a small group can decide a team's "
                   "score on few essays (a warning at the top names it when it does).")


if many:  # the β table is as wide as the teams: the sizes go below it, in full
    _betas()
    _sizes()
else:
    left, right = st.columns([3, 2])
    with left:
        _betas()
    with right:
        _sizes()

st.subheader("Sweeping α", help=glossary.ALPHA)
sweep = sr.alpha_sweep(p)
st.plotly_chart(charts.sweep_figure(sweep, colors, alpha, order), key="demo_sweep")


@st.fragment
def brush_view() -> None:
    st.markdown("**Rank as α sweeps — pick a range of α** by dragging across the chart: the table lists each "
                "team's best and worst rank in that range.")
    brush = alt.selection_interval(name="alpha_range", encodings=["x"])
    domain = [t for t in order if t in colors]  # legend by final rank, as in every chart
    n_teams = max(1, len(order))
    chart = (
        alt.Chart(sweep)
        .mark_line(interpolate="step-after")
        .encode(
            x=alt.X("alpha:Q", title="Softmin temperature α"),
            y=alt.Y("rank:Q", title="Rank",
                    scale=alt.Scale(domain=[0.5, n_teams + 0.5], reverse=True, nice=False, zero=False),
                    axis=alt.Axis(tickMinStep=1, values=list(range(1, n_teams + 1)))),
            color=alt.Color("team:N", title="Team", sort=domain,
                            scale=alt.Scale(domain=domain, range=[colors[t] for t in domain])),
            tooltip=[alt.Tooltip("team:N", title="Team"), alt.Tooltip("alpha:Q", title="α"),
                     alt.Tooltip("rank:Q", title="Rank"),
                     alt.Tooltip("score:Q", title="Score", format=".4f")],
        )
        .add_params(brush)
        .properties(height=300)
    )
    event = st.altair_chart(chart, on_select="rerun", key="demo_brush")
    picked = (event.selection.get("alpha_range") or {}).get("alpha") if event else None
    lo, hi = (min(picked), max(picked)) if picked else (0.0, 200.0)
    part = sweep[(sweep["alpha"] >= lo) & (sweep["alpha"] <= hi)]
    if part.empty:
        st.info("No sweep point in that range — drag a wider range.")
        return
    summary = (
        part.groupby("team")
        .agg(best=("rank", "min"), worst=("rank", "max"), low=("score", "min"), high=("score", "max"))
        .reindex(order)
        .reset_index()
    )
    summary.columns = ["Team", "Best rank", "Worst rank", "Lowest score", "Highest score"]
    st.caption(words.alpha_range(lo, hi, bool(picked)))
    st.dataframe(summary, hide_index=True, key="demo_range_table",
                 column_config=tables.number_columns(("Lowest score", "Highest score"), "%.4f"))


brush_view()
