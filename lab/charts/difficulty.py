"""The difficulty-weighted pages' figures and tables, pure functions of the engine's frames
(``scoring.difficulty.views``): the paper's multi-line chart (accuracy against the new score,
rank changes marked), the parallel coordinates of split-wise scores, a sunburst per model, the
beeswarm of samples, each split's weight and share, and Table 1's cases side by side.

Every model name, label, sample text and prediction goes through :func:`lab.words.text.html`
(Plotly renders a few HTML tags in labels and hover text); figure data are plain lists."""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
import plotly.colors
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ..words.text import html
from .common import LAYOUT
from .tables import rank_arrow

RIGHT, WRONG = "#9BD6A4", "#F2A6A6"  # the paper's light green / light red
SAME, MOVED = "#E8B923", "#D62728"  # its yellow and red dots
OUT = "#B0B0B0"  # samples left out of the metric (no E)


def split_colors(n: int) -> list[str]:
    """A colour per split, 1 (easiest, light) to n (hardest, dark)."""
    stops = np.linspace(0.45, 1.0, n).tolist() if n > 1 else [0.65]
    return plotly.colors.sample_colorscale("Blues", stops, colortype="rgb")


def split_name(x: int, n: int) -> str:
    return f"split {x}" + (" (easiest)" if x == 1 and n > 1 else " (hardest)" if x == n and n > 1 else "")


# ---- tables ------------------------------------------------------------------------------------
def leaderboard_table(lb: pd.DataFrame, splits: Sequence[str]) -> pd.DataFrame:
    """The leaderboard for display: rank with ▲/▼ against accuracy, model, score, accuracy,
    its rank, the split-wise scores."""
    out = pd.DataFrame({
        "Rank": [rank_arrow(a, r) for a, r in zip(lb["accuracy_rank"], lb["rank"], strict=True)],
        "Model": lb["submission"].astype(str).to_numpy(),
        "Score": lb["score"].to_numpy(float),
        "Accuracy": lb["accuracy"].to_numpy(float) * 100.0,
        "Accuracy rank": lb["accuracy_rank"].to_numpy(int),
    })
    for i, c in enumerate(splits, start=1):
        out[f"Split {i}"] = lb[c].to_numpy(float)
    return out


def presets_table(presets: pd.DataFrame, order: Sequence[str]) -> pd.DataFrame:
    """One row per model (``order``), a score and a rank column per case of Table 1."""
    out = pd.DataFrame({"Model": list(order)})
    for case, part in presets.groupby("case", sort=False):
        part = part.set_index("submission").reindex(order)
        head = "Accuracy" if case == "accuracy" else f"Case {case}"
        out[head] = part["score"].to_numpy(float)
        out[f"{head} · rank"] = part["rank"].to_numpy(int)
    return out


def hardest_table(hard: pd.DataFrame, models: Sequence[str], *, split: bool) -> pd.DataFrame:
    """``views.hardest_samples`` for display: id, label, how many models miss it, ease (and
    split, when the samples share one order), text, every model's prediction."""
    return pd.DataFrame({
        "Sample": hard["sample_id"].astype(str), "Label": hard["label"].astype(str),
        "Missed by": [f"{int(k)} of {len(models)}" for k in hard["missed_by"]], "Ease": hard["ease"].astype(float),
        **({"Split": hard["split"].astype(int)} if split else {}), "Text": hard["text"].astype(str),
        **{m: hard[m].astype(str) for m in models},
    })


def one_sample_table(points: pd.DataFrame, confidence: np.ndarray, models: Sequence[str], order: Sequence[str], *,
                     ease: bool, split: bool) -> pd.DataFrame:
    """One sample's row per model (``order``): prediction, right or not, confidence (its
    largest probability; ``confidence`` in ``models`` order), ease and split (when asked)."""
    one = points.set_index("submission").reindex(list(order))
    return pd.DataFrame({
        "Model": list(order), "Prediction": one["predicted"].astype(str).to_numpy(),
        "Right": np.where(one["correct"].to_numpy(bool), "yes", "no"),
        "Confidence": [float(confidence[list(models).index(m)]) for m in order],
        **({"Ease": one["ease"].to_numpy(float)} if ease else {}),
        **({"Split": one["split"].to_numpy(int)} if split else {}),
    })


# ---- Leaderboard ----------------------------------------------------------------------------
def multi_line(lb: pd.DataFrame, colors: Mapping[str, str], metric: str) -> go.Figure:
    """The paper's multi-line chart: each model's accuracy (%) joined to its new score; on the
    score's side a yellow dot when its rank is that of accuracy, a red one when it moved."""
    fig = go.Figure()
    moved_seen = same_seen = False
    for rec in lb.to_dict("records"):
        name, c = str(rec["submission"]), colors.get(str(rec["submission"]))
        acc, score = 100.0 * float(rec["accuracy"]), float(rec["score"])
        arrow = rank_arrow(int(rec["accuracy_rank"]), int(rec["rank"]))
        fig.add_trace(go.Scatter(
            x=["Accuracy", metric], y=[acc, score], mode="lines+markers", name=html(name), legendgroup=html(name),
            line=dict(color=c, width=3), marker=dict(size=9, color=c),
            hovertemplate=(f"<b>{html(name)}</b><br>accuracy {acc:.2f} % (rank {int(rec['accuracy_rank'])})<br>"
                           f"{html(metric)} {score:.3f} (rank {arrow})<extra></extra>")))
    for rec in lb.to_dict("records"):
        moved = int(rec["rank"]) != int(rec["accuracy_rank"])
        show = not (moved_seen if moved else same_seen)
        moved_seen, same_seen = moved_seen or moved, same_seen or not moved
        fig.add_trace(go.Scatter(
            x=[metric], y=[float(rec["score"])], mode="markers", legendgroup="dots", showlegend=show,
            name="rank changed" if moved else "same rank as accuracy", hoverinfo="skip",
            marker=dict(size=15, color=MOVED if moved else SAME, line=dict(color="white", width=2))))
    fig.update_layout(title=f"Accuracy and {html(metric)}: red dots changed rank", height=max(380, 30 * len(lb) + 160),
                      **{**LAYOUT, "legend_title_text": "Model"})
    fig.update_yaxes(title="Score (accuracy in %)")
    fig.update_xaxes(title=None)
    return fig


# ---- Splits ---------------------------------------------------------------------------------
def parallel(lb: pd.DataFrame, splits: Sequence[str], colors: Mapping[str, str]) -> go.Figure:
    """Parallel coordinates: a line per model across its split-wise scores (``splits``: the
    leaderboard's ``split_x`` columns; one range for every split axis), from a model axis to the
    overall score."""
    names = lb["submission"].astype(str).tolist()
    m = len(names)
    scale = ([[0.0, colors.get(names[0])], [1.0, colors.get(names[0])]] if m == 1 else
             [[i / (m - 1), colors.get(n)] for i, n in enumerate(names)])
    values = lb[list(splits)].to_numpy(float)
    lo, hi = np.floor(np.nanmin(values) / 10) * 10, np.ceil(np.nanmax(values) / 10) * 10
    dims = [dict(label="Model", values=list(range(m)), tickvals=list(range(m)), ticktext=[html(n) for n in names],
                 range=[m - 0.5, -0.5])]
    # explicit ticks: plotly otherwise labels a range's ends beside its own ticks (100 over 100)
    step = max(10.0, float(np.ceil((hi - lo) / 5 / 10) * 10)) if hi > lo else 10.0
    ticks = np.arange(lo, hi + step / 2, step).tolist()
    dims += [dict(label=str(c).replace("split_", "Split "), values=values[:, i].tolist(), range=[float(lo), float(hi)],
                  tickvals=ticks, ticktext=[f"{t:g}" for t in ticks]) for i, c in enumerate(splits)]
    dims.append(dict(label="Score", values=lb["score"].astype(float).tolist(), tickformat=".1f"))
    fig = go.Figure(go.Parcoords(line=dict(color=list(range(m)), colorscale=scale, cmin=0, cmax=max(m - 1, 1)),
                                 dimensions=dims, labelangle=0, labelside="top"))
    fig.update_layout(title="Split-wise scores (split 1 = easiest)", height=460,
                      margin=dict(l=150, r=60, t=100, b=30))
    return fig


def split_lines(lb: pd.DataFrame, splits: Sequence[str], colors: Mapping[str, str]) -> go.Figure:
    """The parallel coordinates' lines drawn as plain lines (SVG: quick to draw, where the
    parallel coordinates need WebGL): a line per model across its split-wise scores (``splits``),
    ending at its overall score; hover a point for the model and the score, click a legend entry
    to hide a model (double-click: it alone)."""
    labels = [str(c).replace("split_", "Split ") for c in splits] + ["Score"]
    fig = go.Figure()
    for rec in lb.to_dict("records"):
        name = str(rec["submission"])
        ys = [float(rec[c]) for c in splits] + [float(rec["score"])]
        fig.add_trace(go.Scatter(
            x=labels, y=ys, mode="lines+markers", name=html(name), line=dict(color=colors.get(name), width=2),
            marker=dict(size=7, color=colors.get(name)),
            hovertemplate=f"<b>{html(name)}</b><br>%{{x}}: %{{y:.1f}}<extra></extra>"))
    fig.update_layout(title="Split-wise scores (split 1 = easiest) and the overall score", height=460,
                      **{**LAYOUT, "legend_title_text": "Model"})
    fig.update_yaxes(title="Score")
    fig.update_xaxes(title=None, type="category")
    return fig


def sunbursts(table: pd.DataFrame, lb: pd.DataFrame, cols: int = 5, models: Sequence[str] | None = None) -> go.Figure:
    """A sunburst per model (leaderboard order; only ``models`` when given): its splits inside
    (size = samples), right (green) and wrong (red) predictions outside."""
    order = lb["submission"].astype(str).tolist()
    score = dict(zip(order, lb["score"].astype(float), strict=True))
    if models is not None:
        order = [n for n in order if n in set(models)]
    cols = max(1, min(cols, len(order)))
    rows = -(-len(order) // cols)
    fig = make_subplots(rows=rows, cols=cols, specs=[[{"type": "domain"}] * cols] * rows,
                        subplot_titles=[f"{html(n)} · {score[n]:.1f}" for n in order],
                        vertical_spacing=0.12 / rows, horizontal_spacing=0.02)
    n = int(table["split"].max())
    palette = split_colors(n)
    for i, name in enumerate(order):
        part = table[table["submission"] == name].sort_values("split")
        ids, labels, parents, values, colors, texts, hover = [], [], [], [], [], [], []
        for rec in part.to_dict("records"):
            x = int(rec["split"])
            sid = f"s{x}"
            right, wrong = int(rec["correct"]), int(rec["incorrect"])
            ids += [sid, f"{sid}/r", f"{sid}/w"]
            labels += [split_name(x, n), "right", "wrong"]
            parents += ["", sid, sid]
            values += [right + wrong, right, wrong]
            colors += [palette[x - 1], RIGHT, WRONG]
            texts += [str(x), "", ""]
            share = f"{right / (right + wrong):.0%}" if right + wrong else "no samples"
            hover += [f"{html(name)}, {split_name(x, n)}: {right + wrong} samples, {share} right",
                      f"{html(name)}, {split_name(x, n)}: {right} right", f"{html(name)}, {split_name(x, n)}: {wrong} wrong"]
        fig.add_trace(go.Sunburst(ids=ids, labels=labels, parents=parents, values=values, branchvalues="total",
                                  marker=dict(colors=colors, line=dict(color="white", width=1)), text=texts,
                                  texttemplate="%{text}", hovertext=hover, hoverinfo="text", sort=False,
                                  insidetextorientation="horizontal", name=html(name)),
                      row=i // cols + 1, col=i % cols + 1)
    one = len(order) == 1
    fig.update_layout(height=270 * rows + 70 + (80 if one else 0), margin=dict(l=10, r=10, t=70, b=10),
                      title=("Its splits (inside) and its right / wrong predictions (outside)" if one else
                             "Each model's splits (inside) and its right / wrong predictions (outside)"))
    return fig


# ---- Samples --------------------------------------------------------------------------------
def swarm_offsets(y: np.ndarray, lo: float, hi: float, *, bins: int = 70, step: float = 0.03,
                  width: float = 0.42) -> np.ndarray:
    """Horizontal offsets that lay the values ``y`` out as a beeswarm: values in the same band
    of height sit side by side, alternating right and left of the centre ``step`` apart; a
    band with more values than fit in ``±width`` spreads them evenly over it."""
    y = np.asarray(y, dtype=float)
    out = np.zeros(len(y))
    if len(y) == 0:
        return out
    span = hi - lo if hi > lo else 1.0
    band = np.clip(((y - lo) / span * bins).astype(int), 0, bins - 1)
    order = np.lexsort((y, band))
    b_sorted = band[order]
    starts = np.flatnonzero(np.r_[True, b_sorted[1:] != b_sorted[:-1]])
    ends = np.r_[starts[1:], len(order)]
    for a, b in zip(starts, ends, strict=True):
        k = b - a
        slot = np.arange(k)
        sign = np.where(slot % 2 == 1, 1.0, -1.0)
        pos = sign * ((slot + 1) // 2) * step
        if k > 1 and (k // 2) * step > width:
            pos = np.sort(pos) / np.abs(pos).max() * width
        out[order[a:b]] = pos
    return out


def _wrap(text: str, width: int = 75) -> str:
    """``text`` in lines of at most ``width`` characters (at blanks), each escaped for Plotly."""
    lines = textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False)
    return "<br>".join(html(line) for line in lines)


def predictions_text(preds: Mapping[str, str], gold: str) -> str:
    """Every model's prediction in a few words: the wrong ones named with what they said, the
    right ones counted (or the other way round when most are wrong)."""
    wrong = {m: v for m, v in preds.items() if v != gold}
    right = [m for m in preds if m not in wrong]
    said = set(wrong.values())
    if not wrong:
        return f"All {len(preds)} models are right."
    listed = ", ".join(f"{m} (said {v})" for m, v in wrong.items())
    if not right:
        return f"All {len(preds)} models are wrong" + (f", all saying {next(iter(said))}." if len(said) == 1 else
                                                      f": {listed}.")
    if len(wrong) <= len(right):
        return f"Wrong: {listed}; " + ("the other model is right." if len(right) == 1 else
                                       f"the other {len(right)} are right.")
    tail = f", all saying {next(iter(said))}" if len(said) == 1 else f": {listed}"
    return f"Right: {', '.join(right)}; " + ("the other model is wrong" if len(wrong) == 1 else
                                            f"the other {len(wrong)} are wrong") + f"{tail}."


def sample_hover(table: pd.DataFrame, models: Sequence[str], *, chars: int = 200) -> list[str]:
    """Hover text per sample (rows of ``views.sample_table``): id, gold label, the text
    (wrapped, cut at ``chars``) and every model's prediction."""
    out = []
    for rec in table.to_dict("records"):
        text = str(rec["text"] or "")
        cut = text if len(text) <= chars else text[:chars - 1] + "…"
        gold = str(rec["label"])
        preds = predictions_text({str(m): str(rec[m]) for m in models}, gold)
        out.append(f"sample {html(rec['sample_id'])} · label {html(gold)}<br>{_wrap(cut) or '(no text)'}<br>"
                   f"<i>{_wrap(preds)}</i>")
    return out


def beeswarm(points: pd.DataFrame, hover: Mapping[int, str], order: Sequence[str], n_splits: int,
             ease_label: str) -> go.Figure:
    """Models across, ease up; colour = split, size = right (large) or wrong (small); a hover
    per point (``hover[sample index]``). ``points``: ``views.sample_points`` rows."""
    pts = points[np.isfinite(points["ease"].to_numpy(float))]
    x_of = {m: i for i, m in enumerate(order)}
    ease = pts["ease"].to_numpy(float)
    lo, hi = (float(ease.min()), float(ease.max())) if len(ease) else (0.0, 1.0)
    x = pts["submission"].map(x_of).to_numpy(float)
    for m in order:
        mask = (pts["submission"] == m).to_numpy()
        x[mask] += swarm_offsets(ease[mask], lo, hi)
    palette = split_colors(n_splits) if n_splits else [split_colors(1)[0]]
    fig = go.Figure()
    split = pts["split"].to_numpy(int)
    right = pts["correct"].to_numpy(bool)
    for s in sorted(set(split.tolist())):
        mask = split == s
        sub = pts[mask]
        name = split_name(s, n_splits) if n_splits else "all samples (continuous weights)"
        fig.add_trace(go.Scatter(
            x=x[mask].round(4).tolist(), y=ease[mask].tolist(), mode="markers", name=name,
            marker=dict(color=palette[s - 1] if n_splits else palette[0], size=np.where(right[mask], 8, 4).tolist(),
                        line=dict(width=0)),
            hovertext=[f"<b>{html(r.submission)}</b>: {'right' if r.correct else 'wrong'} · ease {r.ease:.3f} · "
                       f"{name}<br>{hover.get(int(r.sample), '')}" for r in sub.itertuples()],
            hoverinfo="text"))
    for label, size in (("right (large)", 8), ("wrong (small)", 4)):
        fig.add_trace(go.Scatter(x=[None], y=[None], mode="markers", name=label, legendgroup="size",
                                 marker=dict(color="#777777", size=size)))
    fig.update_xaxes(tickvals=list(range(len(order))), ticktext=[html(m) for m in order], range=[-0.6, len(order) - 0.4],
                     title=None, showgrid=False)
    fig.update_yaxes(title=f"Ease ({html(ease_label)}; higher = easier)")
    fig.update_layout(title="Every sample of every model: easy at the top, hard at the bottom", height=620,
                      hoverlabel=dict(align="left"), **{**LAYOUT, "legend_title_text": "Split"})
    return fig


# ---- Weights --------------------------------------------------------------------------------
def contributions(table: pd.DataFrame, order: Sequence[str]) -> go.Figure:
    """Per model (leaderboard order, first at the top), each split's points in its score
    (100 · Σ K·W of the split ÷ the whole denominator): the bar adds up to the score."""
    n = int(table["split"].max())
    palette = split_colors(n)
    fig = go.Figure()
    y = [html(m) for m in order]
    for x in range(1, n + 1):
        part = table[table["split"] == x].set_index("submission").reindex(list(order))
        fig.add_trace(go.Bar(
            y=y, x=part["contribution"].astype(float).tolist(), orientation="h", name=split_name(x, n),
            marker_color=palette[x - 1], customdata=np.column_stack([part["weight"], part["score"]]).tolist(),
            hovertemplate=(f"%{{y}}, {split_name(x, n)} (weight %{{customdata[0]:.3g}}): %{{x:.2f}} points "
                           "(split score %{customdata[1]:.1f})<extra></extra>")))
    fig.update_layout(barmode="relative", title="Each split's points in the score (a bar adds up to the score)",
                      height=max(320, 34 * len(order) + 150), **{**LAYOUT, "legend_title_text": "Split"})
    fig.update_yaxes(autorange="reversed", automargin=True, title=None)
    fig.update_xaxes(title="Points of the score")
    return fig


def presets_heatmap(presets: pd.DataFrame, order: Sequence[str], labels: Mapping[str, str]) -> go.Figure:
    """Rank of every model (rows, leaderboard order) under each case of Table 1 (columns) and
    accuracy; the cell's text is the score."""
    cases = list(dict.fromkeys(presets["case"]))
    rank = presets.pivot(index="submission", columns="case", values="rank").reindex(index=order, columns=cases)
    score = presets.pivot(index="submission", columns="case", values="score").reindex(index=order, columns=cases)
    cols = [labels.get(c, c) for c in cases]
    fig = go.Figure(go.Heatmap(
        z=rank.to_numpy(float).tolist(), x=cols, y=[html(m) for m in order], colorscale="Oranges", reversescale=True,
        text=[[f"{v:.1f}" for v in row] for row in score.to_numpy(float)], texttemplate="%{text}",
        colorbar=dict(title="Rank"), hovertemplate="%{y} · %{x}: rank %{z}, score %{text}<extra></extra>"))
    fig.update_yaxes(autorange="reversed", automargin=True)
    fig.update_layout(title="Rank under each case of Table 1 (cell text: the score)",
                      height=max(320, 34 * len(order) + 160), margin=dict(l=10, r=10, t=60, b=10))
    return fig
