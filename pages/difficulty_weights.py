"""Difficulty-weighted Weights: each split's weight and share of the score, every model's points
per split, and Table 1's cases (and the weight schemes) side by side for every model."""

import numpy as np
import pandas as pd
import streamlit as st

from lab.charts import difficulty as charts
from lab.families import difficulty as dw
from lab.view import current
from lab.words import difficulty as words
from scoring.difficulty import WEIGHT_SCHEMES, scheme_weights, views

FAM = dw.FAM
TITLE = "Weights"

view = current.begin(FAM, TITLE)
p, lb = view.params, view.leaderboard
scorer = view.scorer
order = lb["submission"].astype(str).tolist()
continuous = p["split_mode"] == "continuous"
table = views.split_table(scorer, p)
presets = views.preset_table(scorer, p)

current.header(FAM, TITLE, takeaway=words.weights_takeaway(table, presets, continuous, order[0]))
dw.settings_strip(p, lb)
st.caption(
    "A split's weight is how much each of its samples counts. Its share of the attainable score is the part of a "
    "perfect model's score that comes from it: weight × samples (× the difficulty, when scaled), over the sum of all "
    "splits. The bars below split each model's score into what each split added or took away."
)
if p["metric"] == "wmprob" and not continuous:
    st.caption(words.WMPROB_DIRECTION)
if continuous:
    st.info("Continuous weights: every sample weighs " + ("its model's confidence E" if p["metric"] == "wmprob" else
            "1/max(E, 0.01)") + ", so there are no split weights to show.", icon=":material/tune:")
else:
    n = int(table["split"].max())
    g = table.groupby("split")
    low, high = g["weight_share"].min().to_numpy(float), g["weight_share"].max().to_numpy(float)
    same = bool(np.allclose(low, high, equal_nan=True))
    splits_table = pd.DataFrame({
        "Split": [charts.split_name(x, n) for x in range(1, n + 1)],
        "Samples": [f"{a:,}" if a == b else f"{a:,}–{b:,}" for a, b in zip(g["n"].min(), g["n"].max(), strict=True)],
        "Weight": g["weight"].first().to_numpy(float),
        "Share of the attainable score": [f"{a:.1%}" if same else f"{a:.1%}–{b:.1%}" for a, b in
                                          zip(low, high, strict=True)],
    })
    st.dataframe(splits_table, hide_index=True, key="df_wt_splits", column_config={
        "Samples": st.column_config.TextColumn(help="With WMProb every model has its own splits: a range when their "
                                                    "sizes differ"),
        "Weight": st.column_config.NumberColumn(format="%.3g", help=words.HELP.get(str(p["weights"]), "As given")),
        "Share of the attainable score": st.column_config.TextColumn(
            help="Of a perfect model's score, the part this split gives: weight × samples (× the difficulty, when "
                 "scaled) over the sum over all splits; a range when it differs between models"),
    })
    st.plotly_chart(charts.contributions(table, order), key="df_wt_contrib")

    st.subheader("The weight schemes")
    schemes = {s: scheme_weights(s, n) for s in WEIGHT_SCHEMES}
    ranks = {s: scorer.leaderboard(**{**p, "weights": s}).set_index("submission")["rank"] for s in WEIGHT_SCHEMES}
    left, right = st.columns([2, 3])
    left.dataframe(pd.DataFrame({"Split": list(range(1, n + 1)), **{s: list(b) for s, b in schemes.items()}}),
                   hide_index=True, key="df_wt_schemes",
                   column_config={s: st.column_config.NumberColumn(format="%.3g", help=words.HELP[s])
                                  for s in WEIGHT_SCHEMES})
    right.dataframe(pd.DataFrame({"Model": order, **{f"Rank, {s}": [int(ranks[s][m]) for m in order]
                                                     for s in WEIGHT_SCHEMES}}),
                    hide_index=True, key="df_wt_scheme_ranks")

st.subheader("Table 1's cases side by side")
st.caption("Every case on the current metric and splits (cases 6/7 with continuous weights, 8/9 scaled by the "
           "difficulty; both with reward 1 and penalty −1), and plain accuracy as a reference. "
           + words.HELP["case"].split(". ", 1)[1])
labels = {"accuracy": "Accuracy", "6/7": "6/7 continuous", "8/9": "8/9 scaled",
          **{str(c): f"{c} · {dw.case_name(str(c))}" for c in range(1, 6)}}
st.plotly_chart(charts.presets_heatmap(presets, order, labels), key="df_wt_presets")
side = charts.presets_table(presets, order)
st.dataframe(side, hide_index=True, key="df_wt_presets_table", column_config={
    c: st.column_config.NumberColumn(format="%.2f") for c in side.columns if "rank" not in c and c != "Model"})
