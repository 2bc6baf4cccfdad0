"""Rank intervals: how sure is the ranking? Who could have won, each team's set of possible
ranks from paired comparisons of the teams, letters of indistinguishable teams, score
intervals, the warnings where a conclusion is fragile, and who moves when one team is absent."""

import streamlit as st

from lab import robustness as rb
from lab.charts.robustness import interval_figure
from lab.families import IV_ALL, IV_B, IV_CONFIDENCE, IV_SEED, IV_TOP_K
from lab.view import current, links, tables
from lab.view.draw import memo
from lab.words.text import MD, md
from scoring.claims.intervals import could_win, top_k
from scoring.core.ranksets import max_letters
from scoring.core.robustness import top_set

MAX_DRAWN = 60  # teams in the figure (the table holds every team)

fam = rb.begin(
    "rob_iv_family", "Rank intervals",
    lambda fam: f"Would the winner still win with another sample of {fam.unit}s? Each of B replicates draws the "
    f"{fam.unit}s again with replacement (within each group, theme or split, so every one keeps its size) and "
    "scores every team on them. Because every team is scored on the same draws, each two teams are compared on "
    "the difference of their scores, replicate by replicate (paired, studentised, corrected for the many "
    "comparisons: max-t). A team is **established better** than another when that difference is clear at the "
    "chosen confidence; everything below follows from these comparisons.",
    words=("bootstrap replicate", "paired", "studentised", "max-t", "established better", "letters", "possible ranks",
           "standard error (SE)"),
)
c1, c2, c3, c4 = st.columns(4)
b = links.draw(c1.select_slider, "Replicates B", IV_B,
               help="How many times the units are drawn again; more give steadier answers, 1,000 is the usual choice.")
confidence = links.draw(c2.select_slider, "Confidence", IV_CONFIDENCE, format_func=lambda c: f"{c:.0%}",
                        help="How sure the sets and letters are; also the central share of the score interval.")
seed = links.draw(c3.number_input, "Seed", IV_SEED, step=1,
                  help="The same seed gives the same answer, run after run.")
lb = current.leaderboard(fam)
n_teams = max(1, len(lb))
k = links.draw(c4.number_input, "Top k", IV_TOP_K, default=min(3, n_teams), high=n_teams, step=1,
               help="Which teams could be among the best k?")

with st.spinner(f"Resampling the {fam.unit}s {b:,} times…"):
    iv = rb.intervals(fam, b=b, seed=int(seed), confidence=confidence)
winners = top_set(iv, 1)
pct = f"{confidence:.0%}"
st.subheader("Who could have won?")
st.markdown(could_win(winners, confidence, fam.unit, style=MD))
st.markdown(top_k(top_set(iv, int(k)), int(k), confidence, style=MD))
rb.show_warnings(rb.fragile(fam, lb, iv))


@st.fragment
def sets_table_and_figure() -> None:
    """The toggle reruns this part alone: the bootstrap above and the leave-one-out below stay as drawn."""
    simultaneous = links.draw(st.toggle, "Sets for all teams at once", IV_ALL,
                              help="Off: each team's set is built to hold its own true rank with the confidence. On: all "
                                  "the sets together with the confidence (they are wider).")
    how = iv.attrs.get("score_interval", "the team's score interval")  # the engine's words for its method
    table = iv.rename_axis("Team").reset_index()
    lo, hi = ("rank_low_all", "rank_high_all") if simultaneous else ("rank_low", "rank_high")
    # the answers first (in view at 1024 pixels): who could have won, the letters, the possible ranks
    table = table[["Team", "rank", "could_win", "letters", lo, hi, "score", "score_low", "score_high"]]
    table.columns = ["Team", "Rank", "Could have won", "Letters", "Best possible rank", "Worst possible rank",
                     fam.final.label, "Low", "High"]
    st.dataframe(table.sort_values(["Rank", "Team"]), hide_index=True, key="rob_iv_table", column_config={
        "Team": tables.team_column(),
        **tables.number_columns([fam.final.label, "Low", "High"], "%.4f"),
        "Low": st.column_config.NumberColumn(format="%.4f", help=f"The score interval: {how}."),
        "High": st.column_config.NumberColumn(format="%.4f", help=f"The score interval: {how}."),
        "Letters": st.column_config.TextColumn(help="Two teams that share a letter cannot be told apart at this "
                                                    "confidence."),
    })
    rb.show_warnings([iv.attrs["score_interval_note"]] if iv.attrs.get("score_interval_note") else [])
    st.markdown(
        f"- **Low, High**: {md(how)}.\n"
        f"- **Best and worst possible rank**: the ranks the team could hold at {pct} confidence: "
        + ("all the teams' sets are built to hold their true ranks together with that probability.\n" if simultaneous else
           "the set is built to hold the team's true rank with that probability (one team at a time; the toggle widens the "
           "sets so that all hold together).\n")
        + "- **Letters**: two teams that share a letter are not distinguishable at this confidence; two with no letter "
        "in common are (all pairs at once)."
        + (" A shared letter can hide a real gap where the score is a softmin over small groups: the warnings "
           "above name the pairs far apart on the segment score that share one." if hasattr(current.entry(fam).scorer, "letter_warnings") else "") + "\n"
        "- **Could have won**: no team is established better than this one.\n"
        "- Tied teams share the better rank (1, 2, 2, 4); a team tied with others in truth has the true rank 1 + the "
        "number of teams truly better, and its set, when it holds, also holds every place the tie spans.")
    if not iv["letters"].astype(bool).any():
        st.caption(f"No letters: these {len(iv)} teams would need more than {max_letters(len(iv)):,} of them (close "
                   "teams' comparisons overlap in too many ways to draw); the possible ranks say who can be told apart.")
    drawn = iv.sort_values(["rank", "score"], ascending=[True, not fam.final.higher_is_better]).head(MAX_DRAWN)
    if len(iv) > MAX_DRAWN:
        st.caption(f"The figure draws the first {MAX_DRAWN} of {len(iv)} teams; the table holds them all.")
    st.plotly_chart(memo(interval_figure, drawn, current.colors(fam), score_label=fam.final.label,
                         confidence=confidence, simultaneous=simultaneous), key="rob_iv_chart")
    st.caption("Each row: the score interval (left); the possible ranks (right), the dot at the team's rank, its letters "
               "at the right; shaded rows could have won.")


sets_table_and_figure()

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
