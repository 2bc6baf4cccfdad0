"""spotGEO Rules: the four differences between the published definition and the starter-kit
code, each with a live example and its effect on the ranking."""

import streamlit as st

from lab.charts import spotgeo as charts
from lab.families import spotgeo as sg
from lab.view import current
from scoring.spotgeo import explain as ex

FAM = sg.FAM
view = current.begin(FAM, "Rules")
p = view.params
tau, eps = p["tau"], p["epsilon"]
base = ex.rules_differences(view.scorer, tau=tau, epsilon=eps)
teams, team = sg.linked_team(base["ranks"], sg.RULES_TEAM, sg.example_team(base["ranks"]))
shown = base if team == base["team"] else ex.rules_differences(view.scorer, tau=tau, epsilon=eps, team=team)
ranks, diffs = shown["ranks"], shown["differences"]

current.header(
    FAM, "Rules",
    "The challenge published one definition of its score, but the official server ran the starter kit's code, "
    "and the two disagree in four places. Below, each difference with what each side does, an example from "
    "the data shown, and how the ranking moves when only that difference is switched to the starter kit's "
    "side. This page always compares both rule sets at the sidebar's τ and ε (the rule-set choice there only "
    "changes the other pages).",
    takeaway=sg.rules_takeaway(ranks, diffs, tau),
)

st.subheader("The ranking under each variant")
cc = st.column_config
st.dataframe(sg.ranks_table(ranks, diffs), hide_index=True, key="sg_rules_ranks", column_config={
    "Team": cc.TextColumn(pinned=True),
    "Published": cc.NumberColumn("Published rules", help="The rank under the published rules"),
    **{f"Only no. {n}": cc.TextColumn(help=f"The published rules with only difference {n} ({d['title']}) switched "
                                           "to the starter kit's side; ▲/▼ against the published rules")
       for n, d in enumerate(diffs, start=1)},
    "Starter kit": cc.TextColumn("Starter-kit code", help="All four differences switched: what the official server "
                                                          "ran; ▲/▼ against the published rules"),
})
st.plotly_chart(charts.rank_slope(ranks, [("seed", "Published rules"),
                                          *((d["key"], f"only no. {n}") for n, d in enumerate(diffs, start=1)),
                                          ("starter-kit", "Starter-kit code")],
                                  view.colors, "Rank with each difference switched alone"),
                key="sg_rules_slope")

sg.pick(st.selectbox, "Example team", sg.RULES_TEAM, teams,
        help="Whose numbers the examples of differences 1 and 2 use (default: the team the starter kit "
             "helps most).")
for n, d in enumerate(diffs, start=1):
    st.subheader(f"{n}. {d['title']}")
    c1, c2 = st.columns(2)
    c1.markdown(f"**Published rules:** {d['seed']}")
    c2.markdown(f"**Starter-kit code:** {d['starter_kit']}")
    st.markdown(sg.example_text(d, team, tau, eps))
    moves = sg.moves_text(ranks["submission"].tolist(), ranks["seed"], ranks[d["key"]])
    st.markdown("**Effect on the ranking:** " + ("none — every team keeps its place." if moves is None else
                                                 f"switched alone, {moves}."))
    if d["key"] == "constant":
        built = sg.built_frames()
        for name in ("seed", "starter-kit"):
            b = built[name]
            st.plotly_chart(charts.frame_figure(
                b["objects"], b["predictions"], b["candidates"], tau=49.5, epsilon=0.0, height=460,
                title=f"The built frame under the {sg.RULE_SHORT[name]}: {b['summary']['tp']} true positives",
                zoom=(312.0, 150.0, 300.0), aspect=0.3, legend_below=True), key=f"sg_rules_built_{name}")
        first = d["example"]["first"]
        if first:
            st.page_link("pages/spotgeo_frames.py", label="Open the first differing frame of the data (pick the "
                         "starter-kit code in the sidebar to see its matching)", icon=":material/open_in_new:",
                         query_params={"team": first["team"], "seq": str(first["sequence_id"]),
                                       "frame": str(first["frame"])})
