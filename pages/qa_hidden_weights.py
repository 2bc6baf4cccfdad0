"""QA Hidden weights: each team's chance of being first and its rank range when the theme
weights are unknown, and a map of the winner over the weights of two or three themes."""

import pandas as pd
import streamlit as st

from lab.charts import qa as charts
from lab.families import qa
from lab.view import current, links
from lab.words.text import md

FAM = qa.FAM
TITLE = "Hidden weights"

view = current.begin(FAM, TITLE)
p, lb = view.params, view.leaderboard
colors = view.colors

current.header(
    FAM, TITLE,
    f"The organisers keep the theme weights secret. So the app draws {p['weight_draws']:,} weight vectors "
    f"uniformly at random (seed {p['seed']}; both in the sidebar) and ranks the teams under each: how often "
    "a team is first, and its best, median and worst rank. This does not depend on the weights in the "
    "sidebar; the diamonds mark the ranks under them.",
    takeaway=qa.hidden_takeaway(lb, p["weight_draws"]),
)
left, right = st.columns(2)
left.plotly_chart(charts.chance_first(lb, colors), key="qa_hw_first")
right.plotly_chart(charts.rank_range(lb, colors), key="qa_hw_range")
st.dataframe(pd.DataFrame({
    "Team": lb["submission"].astype(str), "First in": lb["p_first"].astype(float) * 100.0,
    "Best rank": lb["best_rank"].astype(int), "Median rank": lb["median_rank"].astype(float),
    "Worst rank": lb["worst_rank"].astype(int), "Rank under the current weights": lb["rank"].astype(int),
}), hide_index=True, key="qa_hw_table", column_config={
    "First in": st.column_config.NumberColumn("First in (p_first)", format="%.1f %%", help=qa.P_FIRST_HELP),
    "Median rank": st.column_config.NumberColumn(format="%g", help="Can be a half: the median of the ranks"),
})

st.subheader("Where each team is first")
themes = list(lb.attrs["themes"])
if len(themes) < 2:
    st.info("With one theme its weight changes nothing: there is no map to draw.")
    st.stop()
if len(themes) == 2:
    chosen = themes
else:
    def _valid(v):
        return 1 <= len(v) <= 3 and len(set(v)) == len(v) and all(t in themes for t in v)

    chosen = links.draw(
        st.multiselect, "Themes on the map", qa.MAP_THEMES, options=themes, default=qa.default_map_themes(lb),
        valid=_valid, follow_default=True, max_selections=3,
        help="Three themes give a triangle, two a line. The chosen themes share the weight they have together "
             "now; the other themes keep theirs. The first pick: the themes on which the teams that can be "
             "first differ most (clearing the box brings it back). Your pick is kept in the page's address.")
    chosen = [t for t in themes if t in chosen]
    if len(chosen) < 2:
        st.info("Pick two or three themes to see where each team is first.")
        st.stop()
res = qa.winner_regions(p, chosen)
mass = sum(p["weights"][t] for t in chosen)
st.plotly_chart(charts.winner_map(res, colors, mass=mass), key="qa_hw_map")
others = [t for t in themes if t not in chosen]
kept = ", ".join(f"{md(t)} {p['weights'][t]:.4g}" for t in others)
st.caption(
    f"Each point is a split of the weight the chosen themes have together now ({mass:.4g}) among them"
    + (f"; the other themes keep their weights ({kept})" if others else "")
    + ". The star marks the current weights. A region's share is the chance of being first when that split is "
    "drawn at random, which equals p_first only when the map shows every theme."
    if res["current"] is not None else
    "The chosen themes have no weight together now, so there is no current point to mark."
)
regions = pd.DataFrame(sorted(((r["submission"], r["share"] * 100.0) for r in res["regions"] if r["share"] > 0),
                              key=lambda x: (-x[1], x[0])), columns=["Team", "Share of the map where first"])
st.dataframe(regions, hide_index=True, key="qa_hw_regions",
             column_config={"Share of the map where first": st.column_config.NumberColumn(format="%.1f %%")})
