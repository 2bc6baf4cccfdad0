"""Compare settings: pin the current parameters as A, change anything, and see A and B side by
side — both rankings, the places each team moved, and the stage where it moved."""

import streamlit as st

from lab import robustness as rb
from lab.charts.robustness import slope_figure
from lab.families import CMP_NOISE
from lab.view import current, links, report_button, state, tables
from lab.view.draw import memo
from lab.words.text import MD, md
from scoring.claims import intervals as claims
from scoring.core.stability import compare

fam = rb.begin(
    "rob_cmp_family", "Compare settings",
    "Pin the current settings as **A**, then change anything in the sidebar (that is **B**): both rankings side "
    "by side, how many places each team moved, and the first stage at which its rank changed. The page's address "
    "holds both settings, so a link shows the same comparison.",
)
a = rb.pinned(fam)
bad_pin = st.session_state.pop(f"_{fam.key}_pin_bad", None)
if bad_pin:
    st.warning(f"The link's pinned settings (pin=…) could not be used — {md(bad_pin)}. Pin the current settings "
               "again.")
c1 = c2 = c3 = tables.download_row()  # one row that wraps: each button as wide as its label (columns cut them)
c1.button("Pin the current settings as A", key="rob_cmp_pin", on_click=rb.pin, args=(fam,), type="primary")
if a is None:
    st.info("Nothing is pinned yet: pin the current settings as A, then move any control in the sidebar.")
    st.stop()
c2.button("Unpin A", key="rob_cmp_unpin", on_click=rb.unpin, args=(fam,))
ctx = fam.context(current.competition(fam))
c3.button("Back to A in the sidebar", key="rob_cmp_back", on_click=state.apply,
          args=(fam, fam.params.to_json(a), ctx))
b = current.params(fam)
changed = rb.differences(fam, a, b)
lb_a = current.scorer(fam).leaderboard(**a)
lb_b = current.leaderboard(fam)
diff = compare(fam, lb_a, lb_b)
moved = diff[diff["delta"] != 0]
if not changed:
    st.markdown("**A and B are the same settings** — change something in the sidebar.")
else:
    st.markdown("**B differs from A in:** " + md("; ".join(changed)) + ".")
    st.markdown(claims.compare(diff, style=MD))
if changed and links.draw(st.toggle, "Is it beyond the sampling noise?", CMP_NOISE,
                          help=f"Paired comparisons of the teams over {rb.DEFAULT_B:,} resamples of the "
                              f"{fam.unit}s under A and under B, at 95 % confidence (as on the Rank intervals page)."):
    with st.spinner(f"Resampling the {fam.unit}s under A and B…"):
        iv_a, iv_b = rb.intervals(fam, params=a), rb.intervals(fam)
    could_a = [str(t) for t in iv_a.index[iv_a["could_win"].to_numpy(dtype=bool)]]
    could_b = [str(t) for t in iv_b.index[iv_b["could_win"].to_numpy(dtype=bool)]]
    st.markdown(claims.compare_could(could_a, could_b, 0.95, style=MD))
    winner_a, winner_b = str(diff.loc[diff["rank_a"].idxmin(), "submission"]), str(diff.iloc[0]["submission"])
    if winner_a != winner_b:
        notes = [rb.noise_note(fam, iv, winner_a, winner_b, where=w) for iv, w in ((iv_a, "under A"), (iv_b, "under B"))]
        st.markdown(md("; ".join(n for n in notes if n)) + ".")
table = diff.rename(columns={"submission": "Team", "rank_a": "Rank under A", "rank_b": "Rank under B",
                             "delta": "Places gained", "score_a": "Score under A", "score_b": "Score under B",
                             "moved_at": "First stage that moved"})
first = ["Team", "Places gained", "First stage that moved", "Rank under A", "Rank under B"]  # in view at 1024 px
table = table[first + [c for c in table.columns if c not in first]]
st.dataframe(table, hide_index=True, key="rob_cmp_table",
             column_config={"Team": tables.team_column(),
                            **tables.number_columns(["Score under A", "Score under B"], "%.4f")})
st.plotly_chart(memo(slope_figure, diff, current.colors(fam)), key="rob_cmp_slope")
report_button.download(fam, key="rob_cmp_report", page="robustness_compare", params=a, params_b=b,
                       labels=("A (pinned)", "B (current)"))
