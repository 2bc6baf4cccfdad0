"""Efficiency: score against runtime, who gets a boost, and a competitor's what-if."""

import streamlit as st

import scoring
from lab import current
from lab import shovel_ready as sr
from lab.charts import efficiency as eff_charts
from lab.text import md

FAM = sr.FAM

current.header(
    FAM, "Efficiency",
    "Teams whose bias-aware score is within the **eligibility band** of the best score can earn "
    "a boost for speed: the fastest eligible team gets the maximum boost, and the boost falls "
    "linearly to zero at the end of the **slowdown window**. Below, try your own numbers: "
    "what boost and rank would a score and runtime give, and how much faster must it run?",
)

comp = current.competition(FAM)
p = sr.params()
lb = sr.leaderboard()
colors = current.colors(FAM)
runtimes = dict(comp.runtimes)
eff = eff_charts.efficiency_frame(lb, runtimes)

if not runtimes:
    st.info(
        "**No runtimes loaded**, so no team is eligible for the boost and the final score equals "
        "the bias-aware score. Upload a runtimes CSV (`submission`, `runtime` in seconds) on the "
        "**Data** page — the what-if below still works with a runtime you type in."
    )
else:
    missing = eff.loc[eff["runtime"].isna(), "team"].tolist()
    if missing:
        st.caption("No runtime (never eligible): " + md(", ".join(missing)))
    st.plotly_chart(eff_charts.efficiency_figure(eff, colors, p["band"], p["window"]), key="eff_scatter")
    boosted = eff[eff["boost"] > 0]
    st.markdown(
        f"**{int(eff['eligible'].sum())}** team(s) are eligible (score ≥ "
        f"{scoring.eligibility_threshold(eff['score'].max(), p['band']):.4f}); **{len(boosted)}** get a boost."
    )

table = eff_charts.efficiency_table(eff)
if runtimes:
    st.plotly_chart(eff_charts.boost_figure(eff, colors), key="eff_boosts")
st.dataframe(table, hide_index=True, key="eff_table", column_config={
    "Bias-aware score": st.column_config.NumberColumn(format="%.4f"),
    "Final score": st.column_config.NumberColumn(format="%.4f"),
    "Boost": st.column_config.NumberColumn(format="%.2f %%"),
    "Runtime (s)": st.column_config.TextColumn(help="Seconds; — when the runtime is unknown"),
    "Eligible": st.column_config.TextColumn(width="small", help="Eligible for the efficiency boost"),
})

NEW = "A new submission"


def _fill_from_team() -> None:
    team = st.session_state.get("eff_team")
    row = eff.loc[eff["team"] == team]
    if not row.empty:
        st.session_state["eff_score"] = float(row.iloc[0]["score"])
        rt = row.iloc[0]["runtime"]
        if rt == rt:  # not NaN
            st.session_state["eff_runtime"] = float(rt)


@st.fragment
def what_if_panel() -> None:
    st.subheader("What if…")
    options = [NEW] + eff["team"].tolist()
    if st.session_state.get("eff_team") not in options:
        st.session_state["eff_team"] = NEW
    if "eff_score" not in st.session_state:
        st.session_state["eff_score"] = float(eff["score"].max())
    if "eff_runtime" not in st.session_state:
        known = eff["runtime"].dropna()
        st.session_state["eff_runtime"] = float(known.median()) if len(known) else 100.0
    c1, c2, c3 = st.columns(3)
    c1.selectbox("Start from", options, key="eff_team", on_change=_fill_from_team,
                 help="Pick a team to start from its score and runtime, then change them.")
    score = c2.number_input("Bias-aware score", min_value=0.0, max_value=1.0, step=0.001,
                            format="%.4f", key="eff_score")
    runtime = c3.number_input("Runtime (seconds)", min_value=1e-6, step=1.0, format="%.4g",
                              key="eff_runtime")
    team = st.session_state["eff_team"]
    name = team if team != NEW else "Your submission"
    scores = dict(zip(eff["team"], eff["score"], strict=True))
    if team == NEW:
        while name in scores:
            name += "*"
    res = scoring.what_if(scores, runtimes, name, score, runtime, band=p["band"], max_boost=p["max_boost"],
                          window=p["window"])
    current_rank = int(eff.loc[eff["team"] == team, "rank"].iloc[0]) if team != NEW else None
    m1, m2, m3, m4 = st.columns(4)
    m1.metric("Eligible", "yes" if res["eligible"] else "no")
    m2.metric("Boost", f"{res['boost'] * 100:.2f} %")
    m3.metric("Final score", f"{res['final_score']:.4f}")
    m4.metric("Rank", f"{res['rank']} of {len(res['table'])}",
              delta=(f"{current_rank - res['rank']:+d} places" if current_rank and current_rank != res["rank"]
                     else None))
    if not res["eligible"]:
        st.markdown(
            f"Not eligible: the score must be at least **{res['threshold_score']:.4f}** "
            f"(the best score {res['best']:.4f} divided by 1 + band). Speed alone cannot help."
        )
    else:
        need = res["full_boost_runtime"]
        if need is not None and runtime <= need + 1e-12:
            st.markdown("**Full boost**: no eligible rival is faster.")
        elif need is not None:
            st.markdown(
                f"**Full boost** needs a runtime of at most **{need:.4g} s** — "
                f"{(1 - need / runtime) * 100:.1f} % faster than {runtime:.4g} s."
            )
    if res["above"] is None:
        st.markdown("**Top of the leaderboard** — nobody to overtake.")
    elif res["overtake_runtime"] is not None:
        r = res["overtake_runtime"]
        st.markdown(
            f"To **overtake {md(res['above'])}** (directly above), run in under **{r:.4g} s** — "
            f"{(1 - r / runtime) * 100:.1f} % faster."
        )
    else:
        st.markdown(f"**{md(res['above'])}** (directly above) cannot be overtaken by speed alone "
                    "with these parameters: a better score is needed.")
    if runtimes:
        fig = eff_charts.efficiency_figure(eff, colors, p["band"], p["window"],
                                   highlight={"score": score, "runtime": runtime})
        st.plotly_chart(fig, key="eff_whatif_chart")


what_if_panel()
