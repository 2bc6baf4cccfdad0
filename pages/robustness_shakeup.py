"""Shake-up: how much the final (private) board will differ from the public one, how big the
public split must be, and how much choosing by the public board overstates a submission."""

import streamlit as st

from lab.charts.shakeup import advice_figure, rank_heatmap, selection_figure, sweep_figure
from lab.families import (
    SHK_ADVICE,
    SHK_KEEP,
    SHK_PROB,
    SHK_PUBLIC,
    SHK_SEED,
    SHK_SEP,
    SHK_SPLITS,
    SHK_SWEEP,
    SHK_TARGET,
    SHK_TAU,
    SHK_TEAM,
)
from lab.robustness import shakeup as sk
from lab.view import current, links, tables
from lab.view.draw import memo
from lab.words import glossary
from lab.words.text import md
from scoring.claims.shakeup import sweep_best
from scoring.core.shakeup_selection import selection_sentence

fam, slot = sk.begin(
    "rob_shk_family", "Shake-up",
    lambda fam: f"During a competition the public board scores a share of the {fam.unit}s; the final board scores "
    f"the rest. Each random split sends that share of the {fam.unit}s to the public board (within each group, "
    "theme or split, so each keeps its share) and scores both parts with the current settings — every score is "
    "recomputed on its part, the efficiency boost or the time penalty included. **Kendall's τ** compares the two "
    "orders: 1 when they agree, lower as teams swap.",
    words=("public and private boards", "Kendall τ", "P(winner holds)", "P(same rank)", "Expected |move|", "P(first)",
           "nested splits"),
)
c1, c2, c3 = st.columns(3)
percent = links.draw(c1.slider, "Public fraction (%)", SHK_PUBLIC, step=5,
                     help=f"The share of the {fam.unit}s on the public board.")
splits = links.draw(c2.select_slider, "Random splits", SHK_SPLITS,
                    help="More splits give steadier probabilities; 1,000 is the usual choice.")
seed = int(links.draw(c3.number_input, "Seed", SHK_SEED, step=1,
                      help="The same seed gives the same splits, run after run."))
fraction = percent / 100
sh = sk.simulate(fam, fraction, splits, seed)
slot.info(md(sh.sentence()), icon=current.TAKEAWAY_ICON)

s = sh.summary()
m1, m2, m3, m4 = st.columns(4)
m1.metric("Public leader wins", f"{s['p_winner_holds']:.0%}", help=glossary.TERMS["P(winner holds)"])
m2.metric("Median τ", f"{s['tau_median']:.2f}", help=f"Kendall's τ between the two boards, the median over the "
          f"splits — {glossary.TERMS['Kendall τ']} 5–95 % of splits: {s['tau_q05']:.2f} to {s['tau_q95']:.2f}.")
top3 = s["p_top_k_equal"].get("3")
m3.metric("Same top 3", "—" if top3 is None else f"{top3:.0%}", help="The teams ranked 1–3 publicly are those "
          "ranked 1–3 privately (in any order).")
m4.metric("Mean |rank move|", f"{s['mean_move']:.2f}", help="Over every team and split.")
if s["p_top_k_equal"]:
    st.caption("The same teams in the top k on both boards: " + "; ".join(
        f"top {k}: {p:.0%}" for k, p in s["p_top_k_equal"].items()) + ".")

table = sk.team_table(sh)
st.dataframe(table, hide_index=True, key="rob_shk_table",
             column_config={"Team": tables.team_column(),
                            **tables.number_columns(["Mean public rank", "Mean private rank"], "%.2f"),
                            "Expected |move|": st.column_config.NumberColumn(
                                format="%.2f", help=glossary.TERMS["Expected |move|"]),
                            "P(same rank)": st.column_config.NumberColumn(format="%.3f",
                                                                          help=glossary.TERMS["P(same rank)"]),
                            **{c: st.column_config.NumberColumn(format="%.3f", help=glossary.TERMS["P(first)"])
                               for c in ("P(first, public)", "P(first, private)")}})

names = list(sh.names)
ordered = table["Team"].tolist()
team = links.draw(st.selectbox, "Team", SHK_TEAM, options=ordered, default=ordered[0],
                  help="Its public rank (down) against its private rank (across), over the splits.")
st.plotly_chart(memo(rank_heatmap, sh.joint(names.index(team)), team), key="rob_shk_heatmap")

st.subheader("Across public fractions")
tau_at = links.draw(st.select_slider, "τ that counts as the same order", SHK_TAU)
if links.draw(st.toggle, f"Sweep the public fraction from 5 % to 95 % ({len(sk.FRACTIONS)} fractions × "
              f"{sk.SWEEP_SPLITS} splits)", SHK_SWEEP):
    sw = sk.fraction_sweep(fam, seed, tau_at)
    st.markdown(md(sweep_best(sw)), help=glossary.TERMS["nested splits"])
    st.plotly_chart(memo(sweep_figure, sw, current=fraction, tau_at=tau_at), key="rob_shk_sweep_chart")

st.subheader("How big must the public split be?")
a1, a2 = st.columns(2)
target = links.draw(a1.radio, "Target", SHK_TARGET, horizontal=True,
                    format_func=lambda t: "the public leader wins the final board" if t == "winner"
                    else f"Kendall's τ ≥ {tau_at:g}")
prob = links.draw(a2.select_slider, "With probability at least", SHK_PROB, format_func=lambda p: f"{p:.0%}")
if links.draw(st.toggle, f"Try test sizes of 25–100 % of the {fam.unit}s and public fractions 10–90 %", SHK_ADVICE):
    grid, rec = sk.split_advice(fam, target, prob, tau_at, seed)
    st.markdown(md(rec["sentence"]))
    st.plotly_chart(memo(advice_figure, grid, p=prob, unit=fam.unit), key="rob_shk_advice_chart")

st.subheader("Choosing by the public board")
b1, b2 = st.columns(2)
sep = links.draw(b1.text_input, "Team = submission name up to", SHK_SEP,
                 help="E.g. _ makes alice_v1 and alice_v2 one team, alice. Empty: every submission is its own team.")
keep = links.draw(b2.radio, "Each team keeps", SHK_KEEP, horizontal=True,
                  format_func=lambda k: f"its best {'submission' if k == 1 else '2 submissions'} (public)")
teams = sk.membership(names, sep)
if sep and teams is None:
    st.caption(f"No two submission names share a part before “{md(sep)}”: every submission is its own team.")
chosen = sk.choose(sh, teams, keep, seed)
st.markdown(md(selection_sentence(chosen, known=teams is not None, score=fam.final.label, splits_exact=sh.exact,
                                  seed=seed)))
if len(chosen) > 1:
    st.plotly_chart(memo(selection_figure, chosen, score_label=fam.final.label), key="rob_shk_selection_chart")
