"""Segments: one essay, one team — ground truth and predictions over the words, and the matches."""

from __future__ import annotations

import streamlit as st

import scoring
from lab.charts import segments as seg_charts
from lab.charts.colors import class_colours
from lab.families import shovel_ready as sr
from lab.view import current, links, tables
from lab.words import glossary
from lab.words import shovel_ready as words_
from lab.words.text import html, md
from scoring.shovel_ready import QUALITY_LABELS

FAM = sr.FAM

view = current.begin(FAM, "Segments")
takeaway_slot = current.header(
    FAM, "Segments",
    "Pick an essay and a team to see how the metric looks at single segments: the essay's words "
    "with the ground-truth segments drawn above them and the team's predicted segments below, "
    "as submitted and after overlap removal, then every candidate match with its overlaps, "
    "IoU, effectiveness probability and fractional true positive — all with the sidebar's "
    "parameters.",
)

comp, params = view.comp, view.params
if not comp.submission_names or not comp.essays:
    st.info("The active competition has no submissions or no essays — load some on the **Data** page.")
    st.stop()

c1, c2, c3 = st.columns([2, 2, 1.3], vertical_alignment="bottom")
with c1:
    team = links.draw(st.selectbox, "Team (submission)", sr.SEG_TEAM, options=comp.submission_names,
                      default=comp.submission_names[0], help="Kept in the page's address, with the essay: a shared "
                                                             "link shows the same essay and team.")
sub = sr.submission(team)
with c3:
    only_changed = links.draw(
        st.checkbox, "Only essays removal changes", sr.SEG_CHANGED,
        help="List only the essays in which overlap removal trims or discards some of this team's predictions.",
    )

essay_options = list(comp.essays)
if only_changed:
    changed = set(comp.removal_changed_essays(team))
    essay_options = [e for e in essay_options if e in changed]
    if not essay_options:
        st.info(f"Overlap removal changes none of {md(team)}'s predictions — every essay is scored as submitted.")
        st.stop()
with c2:
    essay = links.draw(st.selectbox, "Essay", sr.SEG_ESSAY, options=essay_options, default=essay_options[0])

profile = sr.team_profiles().get(team)
if profile:
    st.caption(f"**{md(team)}** — {md(profile)}")

# ground truth, predictions (as submitted and after overlap removal) and matches of this essay
explained = scoring.explain_essay(
    comp,
    team,
    essay,
    w=params["w"],
    quality=params["quality"],
    threshold=params["threshold"],
    overlap_removal=params["overlap_removal"],
    submission=sub,
)
gt_df = explained["ground_truth"].sort_values("row")
pred_df = explained["predictions"].sort_values("row")
matches = explained["matches"]
pred_words = [seg_charts.word_indices(s) for s in pred_df["predictionstring"]]
after = [seg_charts.word_indices(s) if s else None for s in pred_df["after_removal"]]

# words of the essay (text for the sample; numbered boxes otherwise)
max_index = max([w for s in [*pred_words, *(seg_charts.word_indices(s) for s in gt_df["predictionstring"])] for w in s] or [0])
text = sr.essay_words(essay)
if text is None:
    words = [str(i) for i in range(max_index + 1)]
    st.caption("No essay text for this data: the words are shown as numbered boxes (word indices).")
else:
    words = list(text) + ["·"] * max(0, max_index + 1 - len(text))

# matched pairs for hover text
matched_pred = {}
matched_gt = {}
if len(matches):
    for m in matches.itertuples(index=False):
        matched_pred[int(m.pred_row)] = (int(m.gt_row), float(m.tp))
        matched_gt[int(m.gt_row)] = (int(m.pred_row), float(m.tp))

gt_segments = []
for r in gt_df.itertuples(index=False):
    ws = seg_charts.word_indices(r.predictionstring)
    match = matched_gt.get(int(r.row))
    note = f"matched by prediction row {match[0]} (TP {match[1]:.3f})" if match else "not matched (a false negative)"
    gt_segments.append(
        {
            "words": ws,
            "cls": r.discourse_type,
            "hover": f"Ground truth row {r.row} · {html(r.discourse_type)} · {html(r.discourse_effectiveness)}<br>"
            f"words {seg_charts.span_text(ws)}<br>{note}",
        }
    )
gt_lane = seg_charts.segment_lanes(gt_segments)
for seg, lane in zip(gt_segments, gt_lane, strict=True):
    seg["lane"] = lane


def _pred_segments(use_after: bool) -> list[dict]:
    out = []
    rows = zip(pred_df["row"], pred_df["class"], pred_words, after, strict=True)
    for row, cls, ws, kept in rows:
        if use_after and kept is None:
            continue
        shown = list(kept) if use_after else ws
        if kept is None:
            fate = "discarded by overlap removal"
        elif list(kept) != ws:
            fate = f"trimmed by overlap removal to {seg_charts.span_text(kept)}"
        else:
            fate = "untouched by overlap removal"
        if use_after == params["overlap_removal"] and (kept is not None or not use_after):
            match = matched_pred.get(int(row))
            fate += f"<br>matched to ground truth row {match[0]} (TP {match[1]:.3f})" if match else "<br>not matched"
        out.append(
            {
                "words": shown,
                "cls": cls,
                "row": int(row),
                "hover": f"Prediction row {row} · {html(cls)}<br>words {seg_charts.span_text(shown)}<br>{fate}",
            }
        )
    lanes = seg_charts.segment_lanes(out)
    for seg, lane in zip(out, lanes, strict=True):
        seg["lane"] = lane
    return out


before_segments = _pred_segments(False)
after_segments = _pred_segments(True)
n_pred_lanes = max([s["lane"] + 1 for s in before_segments] or [1])
n_gt_lanes = max([s["lane"] + 1 for s in gt_segments] or [1])
colours = class_colours(comp.classes)

n_trimmed = sum(1 for ws, kept in zip(pred_words, after, strict=True) if kept is not None and list(kept) != ws)
n_discarded = sum(1 for kept in after if kept is None)
m1, m2, m3, m4, m5 = st.columns(5)
m1.metric("Ground-truth segments", len(gt_segments))
m2.metric("Predictions", len(pred_words))
m3.metric("Trimmed by removal", n_trimmed)
m4.metric("Discarded by removal", n_discarded)
m5.metric("Matched pairs", len(matches))

takeaway_slot.info(words_.segments_takeaway(team, essay, len(gt_segments), len(pred_words), len(matches), n_trimmed,
                                           n_discarded, params["overlap_removal"]), icon=current.TAKEAWAY_ICON)
if not pred_words:
    st.info(f"{md(team)} predicted no segment in this essay: every ground-truth segment is a false negative.")

used = "after overlap removal" if params["overlap_removal"] else "as submitted (overlap removal is off)"
st.caption(
    "Bars above each line of words: ground truth; bars below: the team's predictions; colour = discourse type. "
    f"The scoring currently uses the predictions {used}. Hover a bar for its row, words and match."
)
tab_before, tab_after = st.tabs(["As submitted", "After overlap removal"])
with tab_before:
    st.plotly_chart(
        seg_charts.essay_figure(words, gt_segments, before_segments, colours, n_gt_lanes, n_pred_lanes),
        key="seg_chart_before",
    )
with tab_after:
    st.plotly_chart(
        seg_charts.essay_figure(words, gt_segments, after_segments, colours, n_gt_lanes, n_pred_lanes),
        key="seg_chart_after",
    )

st.subheader("Matches")
quality_name = QUALITY_LABELS[params["quality"]]
st.markdown(
    f"Each matched prediction/ground-truth pair of one discourse type, with `w = {params['w']:g}`, "
    f"overlap quality **{quality_name}** and threshold **{params['threshold']:g}**: "
    "`o_P` is the share of the prediction inside the ground truth, `o_G` the share of the ground truth "
    "covered, `d[E]` the probability the prediction gives the true effectiveness label, and the "
    "fractional TP is `w × quality + (1 − w) × d[E]`."
)
if len(matches) == 0:
    st.info("No prediction matches a ground-truth segment in this essay with these parameters.")
else:
    table = matches.rename(
        columns={
            "class": "Discourse type",
            "gt_row": "Ground-truth row",
            "pred_row": "Prediction row",
            "o_p": "o_P",
            "o_g": "o_G",
            "iou": "IoU",
            "quality": "Overlap quality",
            "d": "Effectiveness probability d[E]",
            "tp": "Fractional TP",
        }
    )
    st.dataframe(
        table,
        hide_index=True,
        width="stretch",
        key="seg_matches",
        column_config={
            # wide enough for "Concluding Statement"
            "Discourse type": st.column_config.TextColumn("Discourse type", width=170),
            **tables.number_columns(
                c
                for c in ("o_P", "o_G", "IoU", "Overlap quality", "Effectiveness probability d[E]", "Fractional TP")
                if c in table.columns
            ),
            **{c: st.column_config.NumberColumn(c, format="%.3f", help=h) for c, h in (
                ("o_P", glossary.O_P), ("o_G", glossary.O_G), ("IoU", glossary.IOU),
                ("Overlap quality", glossary.QUALITY), ("Effectiveness probability d[E]", glossary.D_E),
                ("Fractional TP", glossary.TP)) if c in table.columns},
        },
    )

scored = after_segments if params["overlap_removal"] else before_segments
unmatched_preds = [s for s in scored if s["row"] not in matched_pred]
unmatched_gt = [r for r in gt_df["row"] if int(r) not in matched_gt]
st.caption(
    f"Unmatched predictions (false positives): {len(unmatched_preds)} · "
    f"unmatched ground-truth segments (false negatives): {len(unmatched_gt)}."
)
