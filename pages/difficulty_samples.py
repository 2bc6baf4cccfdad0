"""Difficulty-weighted Samples: a beeswarm of every model's samples (ease up, colour = split,
size = right or wrong; hover for the text and every model's prediction), the samples most
models miss, and one sample in full."""

import numpy as np
import streamlit as st

from lab.charts import difficulty as charts
from lab.families import difficulty as dw
from lab.view import current, links
from lab.view.draw import memo
from lab.words import difficulty as words
from lab.words.text import md
from scoring.difficulty import views

FAM = dw.FAM
TITLE = "Samples"

view = current.begin(FAM, TITLE)
p, lb = view.params, view.leaderboard
scorer, comp = view.scorer, view.comp
order = lb["submission"].astype(str).tolist()
models = list(scorer.names)
n_splits = lb.attrs["parameters"]["splits"]
table = views.sample_table(scorer, p)
points = views.sample_points(scorer, p)  # every sample: the takeaway counts them all

current.header(FAM, TITLE, takeaway=words.samples_takeaway(table, points, len(models), n_splits))
dw.settings_strip(p, lb)
ease = ("each model's confidence (its largest probability)" if p["metric"] == "wmprob" else
        f"column {md(lb.attrs['parameters']['ease_column'])}" if lb.attrs["parameters"]["ease_column"] else
        "similarity to the training texts")
st.caption(
    f"One column per model (leaderboard order), one dot per sample: higher up is easier (ease = {ease}), the colour "
    "is the sample's split, a large dot a right prediction and a small one a wrong one. Hover a dot for the "
    "sample's text and every model's prediction."
)


def _hover(_digest: str, shown, models: list[str]) -> dict[int, str]:
    # keyed (by memo) on the data's digest, the shown samples and the models: the texts are the data's
    return dict(zip(shown.tolist(), charts.sample_hover(table.iloc[shown], models), strict=True))


@st.fragment
def swarm() -> None:
    """The number of dots reruns this part alone (the scores, tables and the sample below stay as drawn)."""
    budget = links.draw(
        st.columns([2, 3])[0].select_slider, "Dots on the chart", dw.SM_POINTS, format_func=lambda v: f"{v:,}",
        help="For a quick chart the dots are an even random share of the samples (the same samples for every model). "
             "The scores always use every sample.")
    shown = views.display_samples(comp.n_samples, len(models), max_points=budget)
    pts = points[points["sample"].isin(shown)]
    label = "confidence" if p["metric"] == "wmprob" else (lb.attrs["parameters"]["ease_column"] or "similarity")
    # built once for every session that draws the same dots (a reward or penalty move does not move one);
    # the hover texts (every shown sample's text and predictions, escaped) once per set of shown samples
    hover = memo(_hover, current.entry(FAM).digest, shown, models)
    st.plotly_chart(memo(charts.beeswarm, pts, hover, order, n_splits or 0, label), key="df_sm_swarm")
    left_out = int(np.isnan(table["ease"].to_numpy(float)).sum()) if p["metric"] != "wmprob" else 0
    st.caption(
        f"Showing {len(shown):,} of {comp.n_samples:,} samples for each of the {len(models)} models ({len(pts):,} dots), "
        "chosen evenly at random for display only: every score on these pages uses all the samples."
        + (f" {left_out} samples have no ease value; they are left out of the metric (not of accuracy) and not drawn."
           if left_out else "")
    )


swarm()


st.subheader("The samples most models miss")
top = links.draw(st.columns([2, 3])[0].select_slider, "How many", dw.SM_TOP)
hard = views.hardest_samples(scorer, p, top=top)
shared = p["metric"] != "wmprob"
st.dataframe(charts.hardest_table(hard, models, split=shared and bool(n_splits)), hide_index=True,
             key="df_sm_hardest", column_config={
    "Ease": st.column_config.NumberColumn(format="%.3f", help=words.HELP["ease"] + (
        " With WMProb: the mean confidence over the models." if not shared else "")),
    "Missed by": st.column_config.TextColumn(help="How many models get it wrong"),
    "Text": st.column_config.TextColumn(width="large"),
})

st.subheader("One sample")
ids = [str(s) for s in table["sample_id"]]
texts = dict(zip(ids, table["text"].astype(str), strict=True))


def _label(s: str) -> str:
    t = texts[s]
    return f"{s} · {t[:80] + '…' if len(t) > 80 else t}"


pick = links.draw(st.selectbox, "Sample", dw.SAMPLE, options=ids, default=str(hard["sample_id"].iloc[0]),
                  follow_default=True, format_func=_label,
                  help="Type to search by id or words; the first pick is the sample most models miss. Your pick "
                       "is kept in the page's address.")
i = ids.index(pick)
st.markdown(f"**Label {md(table['label'].iloc[i])}** — {md(texts[pick]) if texts[pick] else '(no text)'}")
st.dataframe(charts.one_sample_table(points[points["sample"] == i], comp.predictions.confidence[:, i], models, order,
                                     ease=p["metric"] != "wmprob", split=bool(n_splits)), hide_index=True, key="df_sm_one", column_config={
    "Confidence": st.column_config.NumberColumn(format="%.3f", help="The model's largest probability"),
    "Ease": st.column_config.NumberColumn(format="%.3f", help=words.HELP["ease"]),
    "Split": st.column_config.NumberColumn(help="1 = the easiest; 0 = left out of the metric (no ease value)"),
})
