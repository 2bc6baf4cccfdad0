"""Segments: one essay, one team — ground truth and predictions over the words, and the matches."""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path

import pandas as pd
import plotly.colors
import plotly.graph_objects as go
import streamlit as st

import scoring
import ui

ui.page_header(
    "Segments",
    "Pick an essay and a team to see how the metric looks at single segments: the essay's words "
    "with the ground-truth segments drawn above them and the team's predicted segments below, "
    "as submitted and after overlap removal, then every candidate match with its overlaps, "
    "IoU, effectiveness probability and fractional true positive — all with the sidebar's "
    "parameters.",
)

WORDS_PER_LINE = 16
LANE = 0.22  # height of one segment bar (data units); a word cell is 1 unit high
CELL = 0.78
GAP = 0.35
PX_PER_UNIT = 30


# --------------------------------------------------------------------------------------------
# Data helpers
# --------------------------------------------------------------------------------------------
def _data_folder() -> Path | None:
    """The folder of the active competition when it is a folder (the sample or LAB_DATA_DIR)."""
    return Path(ui.data_dir()) if ui.using_sample() else None


@st.cache_data(show_spinner=False, max_entries=4)
def _read_essays(path: str, mtime: float) -> dict[str, list[str]]:
    """essay id -> list of words, from an `essays.csv` with columns `id` and a text column."""
    with open(path, encoding="utf-8-sig", newline="") as fh:
        reader = csv.DictReader(fh)
        fields = reader.fieldnames or []
        text_col = next((c for c in ("text", "essay_text", "full_text") if c in fields), None)
        if "id" not in fields or text_col is None:
            return {}
        return {row["id"].strip(): (row[text_col] or "").split() for row in reader}


def essay_words(essay_id: str) -> list[str] | None:
    folder = _data_folder()
    if folder is None:
        return None
    path = folder / "essays.csv"
    if not path.is_file():
        return None
    return _read_essays(str(path), path.stat().st_mtime).get(essay_id)


def _team_profiles() -> dict[str, str]:
    """Team name -> one-sentence profile, from the folder's teams.json (the sample keeps its own)."""
    folder = _data_folder()
    if folder is None:
        return {}
    candidates = [folder / "teams.json"]
    import sample_data

    if folder.resolve() == Path(sample_data.SAMPLE_DIR).resolve():
        candidates.append(Path(sample_data.TEAMS_PATH))
    for path in candidates:
        if path.is_file():
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                return {}
            return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}
    return {}


def _submission(comp, name: str) -> pd.DataFrame:
    """The canonical submission frame, memoised per session for the active competition."""
    memo = st.session_state.setdefault("seg_memo", {})
    key = (id(comp), name)
    if key not in memo:
        if len(memo) >= 4:
            memo.clear()
        memo[key] = comp.read_submission(name)
    return memo[key]


def _words(predictionstring: str) -> list[int]:
    return sorted({int(t) for t in str(predictionstring).split()})


def _span(words) -> str:
    if not words:
        return "—"
    words = sorted(words)
    runs, start, prev = [], words[0], words[0]
    for i in words[1:]:
        if i != prev + 1:
            runs.append((start, prev))
            start = i
        prev = i
    runs.append((start, prev))
    return ", ".join(f"{a}–{b}" if a != b else f"{a}" for a, b in runs)


def class_colours(classes) -> dict[str, str]:
    palette = plotly.colors.qualitative.Safe + plotly.colors.qualitative.Bold
    return {c: palette[i % len(palette)] for i, c in enumerate(sorted(classes))}


# --------------------------------------------------------------------------------------------
# The word chart
# --------------------------------------------------------------------------------------------
def _lanes(segments: list[dict]) -> list[int]:
    """A lane per segment so that segments sharing a word never share a lane."""
    lanes: list[set[int]] = []
    out = []
    for seg in segments:
        words = set(seg["words"])
        for k, used in enumerate(lanes):
            if not used & words:
                used |= words
                out.append(k)
                break
        else:
            lanes.append(set(words))
            out.append(len(lanes) - 1)
    return out


def _runs_on_lines(words: list[int]):
    """Yield (line, first column, last column) for each run of consecutive words within a line."""
    if not words:
        return
    start = prev = words[0]
    for i in [*words[1:], None]:
        if i is not None and i == prev + 1 and i // WORDS_PER_LINE == prev // WORDS_PER_LINE:
            prev = i
            continue
        yield start // WORDS_PER_LINE, start % WORDS_PER_LINE, prev % WORDS_PER_LINE
        if i is not None:
            start = prev = i


def essay_figure(
    words: list[str], gt: list[dict], preds: list[dict], colours: dict[str, str], n_gt_lanes: int, n_pred_lanes: int
) -> go.Figure:
    """Words in a grid; ground-truth bars above each line of words, prediction bars below.

    `gt` / `preds`: dicts with `words` (sorted word indices), `cls`, `lane`, `hover`.
    """
    n_lines = max(1, math.ceil(len(words) / WORDS_PER_LINE))
    line_h = n_gt_lanes * LANE + CELL + n_pred_lanes * LANE + GAP

    def top(line: int) -> float:
        return -line * line_h

    fig = go.Figure()
    # word cells
    xs, ys = [], []
    tx, ty, tt, th = [], [], [], []
    for i, word in enumerate(words):
        line, col = divmod(i, WORDS_PER_LINE)
        y1 = top(line) - n_gt_lanes * LANE - 0.04
        y0 = y1 - CELL + 0.08
        x0, x1 = col + 0.03, col + 0.97
        xs += [x0, x1, x1, x0, x0, None]
        ys += [y0, y0, y1, y1, y0, None]
        tx.append(col + 0.5)
        ty.append((y0 + y1) / 2)
        tt.append(word if len(word) <= 10 else word[:9] + "…")
        th.append(f"word {i}: {word}")
    fig.add_trace(
        go.Scatter(x=xs, y=ys, mode="lines", line=dict(color="#c9ced6", width=1), hoverinfo="skip", showlegend=False)
    )
    fig.add_trace(
        go.Scatter(
            x=tx,
            y=ty,
            mode="text",
            text=tt,
            hovertext=th,
            hoverinfo="text",
            textfont=dict(size=11, color="#1f2933"),
            showlegend=False,
        )
    )

    shown_in_legend: set[str] = set()
    hx, hy, ht = [], [], []
    for kind, segments in (("gt", gt), ("pred", preds)):
        by_class: dict[str, tuple[list, list]] = {}
        for seg in segments:
            bx, by = by_class.setdefault(seg["cls"], ([], []))
            for line, c0, c1 in _runs_on_lines(seg["words"]):
                if kind == "gt":
                    y1 = top(line) - seg["lane"] * LANE - 0.02
                else:
                    y1 = top(line) - n_gt_lanes * LANE - CELL - seg["lane"] * LANE - 0.02
                y0 = y1 - LANE + 0.05
                x0, x1 = c0 + 0.03, c1 + 0.97
                bx += [x0, x1, x1, x0, x0, None]
                by += [y0, y0, y1, y1, y0, None]
                hx.append((x0 + x1) / 2)
                hy.append((y0 + y1) / 2)
                ht.append(seg["hover"])
        for cls, (bx, by) in sorted(by_class.items()):
            fig.add_trace(
                go.Scatter(
                    x=bx,
                    y=by,
                    mode="lines",
                    fill="toself",
                    fillcolor=colours.get(cls, "#888888"),
                    line=dict(color=colours.get(cls, "#888888"), width=1),
                    opacity=1.0 if kind == "gt" else 0.75,
                    name=cls,
                    legendgroup=cls,
                    showlegend=cls not in shown_in_legend,
                    hoverinfo="skip",
                )
            )
            shown_in_legend.add(cls)
    fig.add_trace(
        go.Scatter(
            x=hx, y=hy, mode="markers", marker=dict(size=14, opacity=0), hovertext=ht, hoverinfo="text", showlegend=False
        )
    )
    tickvals = [top(line) - n_gt_lanes * LANE - CELL / 2 for line in range(n_lines)]
    fig.update_layout(
        height=int(n_lines * line_h * PX_PER_UNIT) + 90,
        margin=dict(l=10, r=10, t=40, b=10),
        plot_bgcolor="white",
        xaxis=dict(visible=False, range=[-0.1, WORDS_PER_LINE + 0.1], fixedrange=True),
        yaxis=dict(
            range=[top(n_lines - 1) - line_h + GAP * 0.5, 0.1],
            tickvals=tickvals,
            ticktext=[f"word {line * WORDS_PER_LINE}" for line in range(n_lines)],
            showgrid=False,
            zeroline=False,
            fixedrange=True,
        ),
        legend=dict(orientation="h", y=1.0, yanchor="bottom", title_text="Discourse type: "),
        hoverlabel=dict(bgcolor="white"),
    )
    return fig


# --------------------------------------------------------------------------------------------
# Page
# --------------------------------------------------------------------------------------------
comp = ui.current_competition()
params = ui.params()
if not comp.submission_names or not comp.essays:
    st.info("The active competition has no submissions or no essays — load some on the **Data** page.")
    st.stop()

c1, c2, c3 = st.columns([2, 2, 1.3], vertical_alignment="bottom")
with c1:
    team = st.selectbox("Team (submission)", comp.submission_names, key="seg_team")
sub = _submission(comp, team)
with c3:
    only_changed = st.checkbox(
        "Only essays removal changes",
        key="seg_only_changed",
        help="List only the essays in which overlap removal trims or discards some of this team's predictions.",
    )


def _changed_essays(sub: pd.DataFrame) -> set[str]:
    changed = set()
    for essay_id, group in sub.sort_values("row").groupby("id", sort=False):
        strings = [_words(s) for s in group["predictionstring"]]
        after = scoring.remove_overlaps(strings)
        if any(a is None or list(a) != s for a, s in zip(after, strings, strict=True)):
            changed.add(essay_id)
    return changed


essay_options = list(comp.essays)
if only_changed:
    memo = st.session_state.setdefault("seg_changed_memo", {})
    key = (id(comp), team)
    if key not in memo:
        memo.clear()
        memo[key] = _changed_essays(sub)
    essay_options = [e for e in essay_options if e in memo[key]]
    if not essay_options:
        st.info(f"Overlap removal changes none of {team}'s predictions — every essay is scored as submitted.")
        st.stop()
with c2:
    essay = st.selectbox("Essay", essay_options, key="seg_essay")

profile = _team_profiles().get(team)
if profile:
    st.caption(f"**{team}** — {profile}")

# ground truth and predictions of this essay
gt_df = comp.ground_truth[comp.ground_truth["id"] == essay].sort_values("row")
pred_df = sub[sub["id"] == essay].sort_values("row")
pred_words = [_words(s) for s in pred_df["predictionstring"]]
after = scoring.remove_overlaps(pred_words) if pred_words else []

explained = scoring.explain_essay(
    comp,
    team,
    essay,
    w=params["w"],
    quality=params["quality"],
    threshold=params["threshold"],
    overlap_removal=params["overlap_removal"],
)
matches = explained["matches"]

# words of the essay (text for the sample; numbered boxes otherwise)
max_index = max([w for s in [*pred_words, *(_words(s) for s in gt_df["predictionstring"])] for w in s] or [0])
text = essay_words(essay)
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
    ws = _words(r.predictionstring)
    match = matched_gt.get(int(r.row))
    note = f"matched by prediction row {match[0]} (TP {match[1]:.3f})" if match else "not matched (a false negative)"
    gt_segments.append(
        {
            "words": ws,
            "cls": r.discourse_type,
            "hover": f"Ground truth row {r.row} · {r.discourse_type} · {r.discourse_effectiveness}<br>"
            f"words {_span(ws)}<br>{note}",
        }
    )
gt_lane = _lanes(gt_segments)
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
            fate = f"trimmed by overlap removal to {_span(kept)}"
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
                "hover": f"Prediction row {row} · {cls}<br>words {_span(shown)}<br>{fate}",
            }
        )
    lanes = _lanes(out)
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

if not pred_words:
    st.info(f"{team} predicted no segment in this essay: every ground-truth segment is a false negative.")

used = "after overlap removal" if params["overlap_removal"] else "as submitted (overlap removal is off)"
st.caption(
    "Bars above each line of words: ground truth; bars below: the team's predictions; colour = discourse type. "
    f"The scoring currently uses the predictions {used}. Hover a bar for its row, words and match."
)
tab_before, tab_after = st.tabs(["As submitted", "After overlap removal"])
with tab_before:
    st.plotly_chart(
        essay_figure(words, gt_segments, before_segments, colours, n_gt_lanes, n_pred_lanes),
        key="seg_chart_before",
    )
with tab_after:
    st.plotly_chart(
        essay_figure(words, gt_segments, after_segments, colours, n_gt_lanes, n_pred_lanes),
        key="seg_chart_after",
    )

st.subheader("Matches")
quality_name = {"binary": "binary (1)", "max": "max-overlap", "iou": "IoU"}.get(params["quality"], params["quality"])
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
            c: st.column_config.NumberColumn(c, format="%.3f")
            for c in ("o_P", "o_G", "IoU", "Overlap quality", "Effectiveness probability d[E]", "Fractional TP")
            if c in table.columns
        },
    )

scored = after_segments if params["overlap_removal"] else before_segments
unmatched_preds = [s for s in scored if s["row"] not in matched_pred]
unmatched_gt = [r for r in gt_df["row"] if int(r) not in matched_gt]
st.caption(
    f"Unmatched predictions (false positives): {len(unmatched_preds)} · "
    f"unmatched ground-truth segments (false negatives): {len(unmatched_gt)}."
)
