"""Efficiency: score against runtime, who gets a boost, and a competitor's what-if."""


import streamlit as st

import scoring
from lab.charts import efficiency as eff_charts
from lab.families import shovel_ready as sr
from lab.view import current, links
from lab.words import shovel_ready as words
from lab.words.story import count
from lab.words.text import MD, md
from scoring.claims.shovel_ready import band_news
from scoring.claims.shovel_ready import what_if as what_if_words

FAM = sr.FAM

view = current.begin(FAM, "Efficiency")
comp, p, lb = view.comp, view.params, view.leaderboard
runtimes = dict(comp.runtimes)
eff = eff_charts.efficiency_frame(lb, runtimes)
current.header(
    FAM, "Efficiency",
    "Teams whose bias-aware score is within the **eligibility band** of the best score can earn "
    "a boost for speed: the fastest eligible team gets the maximum boost, and the boost falls "
    "linearly to zero at the end of the **slowdown window**. Below, try your own numbers: "
    "what boost and rank would a score and runtime give, and how much faster must it run?",
    takeaway=words.efficiency_takeaway(eff, p),
)
colors = view.colors

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
    has_eligible = bool(eff["eligible"].any())
    zoom = links.draw(st.toggle, "Zoom to the eligible teams", sr.EFF_ZOOM, disabled=not has_eligible,
                      help="Only the teams within the eligibility band, with room around them; switch off (or "
                          "double-click the chart) to see every team.")
    st.plotly_chart(eff_charts.efficiency_figure(eff, colors, p["band"], p["window"], zoom=zoom and has_eligible),
                    key="eff_scatter")
    st.markdown(sr.boost_summary(lb, p))
    st.plotly_chart(eff_charts.boost_figure(eff, colors, p["max_boost"], p["window"]), key="eff_boosts")

st.dataframe(eff_charts.efficiency_table(eff), hide_index=True, key="eff_table", column_config={
    "Bias-aware score": st.column_config.NumberColumn("Bias-aware", format="%.4f", help="The bias-aware score"),
    "Final score": st.column_config.NumberColumn(format="%.4f"),
    "Boost": st.column_config.NumberColumn(format="%.2f %%"),
    "Runtime (s)": st.column_config.NumberColumn(format="localized", help="Seconds; empty when the runtime is unknown"),
    "Eligible": st.column_config.TextColumn(width="small", help="Eligible for the efficiency boost"),
    "Final rank": st.column_config.NumberColumn("Rank", width="small", help="The final rank"),
})

NEW = "A new submission"
NEW_LINK = "new"  # how the address says NEW


def _fill_from_team() -> None:
    """A team picked to start from: its score and runtime go into the inputs, all three into
    the address."""
    team = st.session_state.get("eff_team")
    row = eff.loc[eff["team"] == team]
    if not row.empty:
        st.session_state["eff_score"] = float(row.iloc[0]["score"])
        rt = row.iloc[0]["runtime"]
        if rt == rt:  # not NaN
            st.session_state["eff_runtime"] = float(rt)
    st.query_params[sr.EFF_TEAM.link] = NEW_LINK if team == NEW else str(team)
    links.keep(sr.EFF_SCORE)
    links.keep(sr.EFF_RUNTIME)


def _explain_runtimes(res: dict, runtime: float) -> None:
    said = what_if_words(res, runtime, style=MD)
    for line in said["lines"]:
        st.markdown(line)
    if said["why"]:
        st.caption(said["why"])


def _band_news(res: dict) -> None:
    """Say when the what-if's score is a new best that pushes rivals out of the band."""
    news = band_news(list(eff.loc[eff["eligible"].astype(bool), "team"]), res, style=MD)
    if news:
        st.warning(news, icon=":material/trending_up:")


@st.fragment
def what_if_panel() -> None:
    st.subheader("What if…")
    teams = eff["team"].tolist()
    options = [NEW] + teams
    team = links.value(sr.EFF_TEAM, options=options, default=NEW, parse=lambda raw: NEW if raw == NEW_LINK else raw)
    start = eff.loc[eff["team"] == team] if team != NEW else eff.iloc[:0]
    known = eff["runtime"].dropna()
    score_default = float(start.iloc[0]["score"]) if len(start) else float(eff["score"].max())
    rt_default = float(known.median()) if len(known) else 100.0
    if len(start) and start.iloc[0]["runtime"] == start.iloc[0]["runtime"]:
        rt_default = float(start.iloc[0]["runtime"])
    c1, c2, c3 = st.columns(3)
    c1.selectbox("Start from", options, index=options.index(team), key=sr.EFF_TEAM.key, on_change=_fill_from_team,
                 help="Pick a team to start from its score and runtime, then change them. The three inputs are "
                      "kept in the page's address, so a shared link shows the same what-if.")
    score = links.draw(c2.number_input, "Bias-aware score", sr.EFF_SCORE, default=score_default, step=0.001,
                       format="%.4f")
    runtime = links.draw(c3.number_input, "Runtime (seconds)", sr.EFF_RUNTIME, default=rt_default, step=1.0,
                         format="%.4g")
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
              delta=(f"{current_rank - res['rank']:+d} place{'' if abs(current_rank - res['rank']) == 1 else 's'}"
                     if current_rank and current_rank != res["rank"]
                     else None))
    _band_news(res)
    _explain_runtimes(res, runtime)
    if runtimes:
        # The chart draws the what-if's own result: its field, band and boost window.
        fig = eff_charts.efficiency_figure(eff, colors, p["band"], p["window"], zoom=True, what_if=res)
        st.plotly_chart(fig, key="eff_whatif_chart")
        st.caption(f"The field as the what-if leaves it ({count(int(res['table']['eligible'].sum()), 'team')} "
                   "eligible, the what-if among them when it is); the star is the what-if"
                   + (f", in place of {md(team)}" if team != NEW else "") + ".")


what_if_panel()
