"""QA Leaderboard: the final score under the current weights, every theme's numbers, what
each theme adds, and how the weights move the ranks against equal weights."""

import streamlit as st

from lab.charts import qa as charts
from lab.charts.common import bump_chart
from lab.families import qa
from lab.view import current, export_button, report_button, tables
from lab.view.draw import memo
from scoring.core.family import Stage

FAM = qa.FAM
TITLE = "Leaderboard"

view = current.begin(FAM, TITLE)
p, lb = view.params, view.leaderboard
changes = qa.rank_changes(p)
label = qa.weights_label(p)

current.header(
    FAM, TITLE,
    "Per theme, a team scores paragraph accuracy plus answer F1 (0 to 2), scaled down by T ÷ AIT when its "
    "average inference time AIT is over the threshold T; the final score is the weighted sum over themes, "
    "with the weights used as given. Move the threshold or a theme's weight in the sidebar: ▲/▼ in the "
    "Rank column are places gained or lost against equal weights.",
    takeaway=qa.leaderboard_takeaway(lb, changes, label),
)
start, divisor = qa.start_weights(view.comp)
if divisor != 1.0:
    total = qa.divisor_text(divisor)
    st.info(f"The weights file's weights add up to {total}, and some are above the sliders' range (0–1), so the "
            f"sliders started at their shares (each weight ÷ their sum). Ranks, shares and the hidden-weight "
            f"results are the file's; final scores are the file's ÷ {total}.", icon=":material/tune:")

themes = lb.attrs["themes"]
st.dataframe(charts.leaderboard_table(lb, changes), hide_index=True, key="qa_lb_table",
             column_config=qa.leaderboard_columns(themes))
d1 = d2 = d3 = tables.download_row()  # one row that wraps: each button as wide as its label
d1.download_button("Download CSV", lambda: qa.leaderboard_csv(lb), file_name="qa-leaderboard.csv", mime="text/csv",
                   key="qa_lb_csv", on_click="ignore", icon=":material/download:")
d2.download_button("Download JSON", lambda: qa.leaderboard_json(lb, p), file_name="qa-leaderboard.json",
                   mime="application/json", key="qa_lb_json", on_click="ignore", icon=":material/download:")
report_button.download(FAM, key="qa_lb_report", page="qa_leaderboard", params=p, where=d3)
export_button.show(FAM, key="qa_lb_export", page="qa_leaderboard", params=p, where=d3)

order = lb["submission"].astype(str).tolist()
left, right = st.columns(2)
left.plotly_chart(memo(charts.contributions, qa.theme_table(p), order, qa.theme_colors()), key="qa_lb_contrib")
stages = (Stage("equal_final_score", "Equal weights", "equal_rank"),
          Stage("final_score", label[0].upper() + label[1:], "rank"))


def half_width_bump(changes, stages, colors):
    bump = bump_chart(changes, stages, colors, title="Rank with equal weights and now")
    # half a page wide: the legend goes below, so the two columns of points have room for their names
    bump.update_layout(legend=dict(orientation="h", yanchor="top", y=-0.22), height=bump.layout.height + 120,
                       margin=dict(b=120))
    return bump.update_xaxes(title=None)


right.plotly_chart(memo(half_width_bump, changes, stages, current.colors(FAM)), key="qa_lb_bump")

st.subheader("Theme weights")
left, right = st.columns([3, 2])
left.dataframe(charts.weights_table(p["weights"], current.competition(FAM).theme_weights), hide_index=True, key="qa_lb_weights", column_config={
    "Weight": st.column_config.NumberColumn(format="%.4g", help="As used: not normalised"),
    "Share": st.column_config.NumberColumn(format="%.1f %%", help="The weight ÷ the sum of the weights"),
})
right.caption("The weights are used as given, not normalised. Doubling every weight doubles every final score and "
              "changes no rank: only the shares matter for the ranking. Set them with the sliders in the sidebar.")
