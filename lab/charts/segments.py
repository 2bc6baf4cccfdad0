"""The Segments page's figures: an essay's words in a grid with ground-truth and predicted
segments drawn over them, the memo's overlap-removal example, pairs of segments."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence

import plotly.graph_objects as go

from ..words.text import html


def word_indices(predictionstring: str) -> list[int]:
    """The sorted, distinct word indices of a predictionstring."""
    return sorted({int(t) for t in str(predictionstring).split()})


def span_text(words: Sequence[int]) -> str:
    """Word indices as runs: ``"4–9, 12"``; ``"—"`` when there are none."""
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


#: The essay's words flow like text: each word's box is as wide as the word, lines wrap at
#: LINE_WIDTH (about the page's width at 1440 px, in pixels of an 11-px font), so every word is
#: shown whole, however long.
LINE_WIDTH = 900.0
CHAR_PX = 6.6  # an 11-px Source Sans character, a little generously
WORD_PAD = 12.0
_LANE = 0.22  # height of one segment bar (data units); a word cell is 1 unit high
_CELL = 0.78
_GAP = 0.35
_PX_PER_UNIT = 30


def word_layout(words: Sequence[str], width: float = LINE_WIDTH) -> list[tuple[int, float, float]]:
    """``(line, x0, x1)`` of every word: boxes as wide as the words, wrapped at ``width``.

    >>> word_layout(["a", "bb", "c"], width=50.0)
    [(0, 0.0, 18.6), (0, 18.6, 43.8), (1, 0.0, 18.6)]
    """
    out, line, x = [], 0, 0.0
    for w in words:
        size = len(str(w)) * CHAR_PX + WORD_PAD
        if x > 0 and x + size > width:
            line, x = line + 1, 0.0
        out.append((line, round(x, 6), round(x + size, 6)))
        x += size
    return out


def segment_lanes(segments: list[dict]) -> list[int]:
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


def _box(xs: list, ys: list, a: float, b: float, y0: float, y1: float) -> tuple[float, float]:
    """Append the outline of a box over ``a``..``b`` (inset 1.5 px each side) and ``y0``..``y1``
    to the path ``xs``/``ys`` (``None`` ends it, so one trace draws many boxes); its ``x0, x1``."""
    x0, x1 = a + 1.5, b - 1.5
    xs += [x0, x1, x1, x0, x0, None]
    ys += [y0, y0, y1, y1, y0, None]
    return x0, x1


def _runs_on_lines(words: list[int], layout: Sequence[tuple[int, float, float]]) -> Iterator[tuple[int, float, float]]:
    """Yield (line, x0, x1) for each run of consecutive words within a line (words past the
    layout — indices beyond the text — are skipped)."""
    words = [w for w in words if w < len(layout)]
    if not words:
        return
    start = prev = words[0]
    for i in [*words[1:], None]:
        if i is not None and i == prev + 1 and layout[i][0] == layout[prev][0]:
            prev = i
            continue
        yield layout[start][0], layout[start][1], layout[prev][2]
        if i is not None:
            start = prev = i


def essay_figure(
    words: list[str], gt: list[dict], preds: list[dict], colours: dict[str, str], n_gt_lanes: int, n_pred_lanes: int
) -> go.Figure:
    """Words flowing in lines (:func:`word_layout`); ground-truth bars above each line of words,
    prediction bars below.

    ``gt`` / ``preds``: dicts with ``words`` (sorted word indices), ``cls``, ``lane`` (see
    :func:`segment_lanes`), ``hover``.
    """
    layout = word_layout(words)
    n_lines = max(1, layout[-1][0] + 1 if layout else 1)
    line_h = n_gt_lanes * _LANE + _CELL + n_pred_lanes * _LANE + _GAP

    def top(line: int) -> float:
        return -line * line_h

    fig = go.Figure()
    # word cells
    xs, ys = [], []
    tx, ty, tt, th = [], [], [], []
    for i, (word, (line, a, b)) in enumerate(zip(words, layout, strict=True)):
        y1 = top(line) - n_gt_lanes * _LANE - 0.04
        y0 = y1 - _CELL + 0.08
        _box(xs, ys, a, b, y0, y1)
        tx.append((a + b) / 2)
        ty.append((y0 + y1) / 2)
        tt.append(html(word))
        th.append(f"word {i}: {html(word)}")
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
            for line, a, b in _runs_on_lines(seg["words"], layout):
                if kind == "gt":
                    y1 = top(line) - seg["lane"] * _LANE - 0.02
                else:
                    y1 = top(line) - n_gt_lanes * _LANE - _CELL - seg["lane"] * _LANE - 0.02
                y0 = y1 - _LANE + 0.05
                x0, x1 = _box(bx, by, a, b, y0, y1)
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
                    name=html(cls),
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
    firsts = [next(i for i, (ln, _, _) in enumerate(layout) if ln == line) for line in range(n_lines)] if layout else [0]
    tickvals = [top(line) - n_gt_lanes * _LANE - _CELL / 2 for line in range(n_lines)]
    fig.update_layout(
        height=int(n_lines * line_h * _PX_PER_UNIT) + 90,
        margin=dict(l=10, r=10, t=40, b=10),
        plot_bgcolor="white",
        xaxis=dict(visible=False, range=[-2, LINE_WIDTH + 2], fixedrange=True),
        yaxis=dict(
            range=[top(n_lines - 1) - line_h + _GAP * 0.5, 0.1],
            tickvals=tickvals,
            ticktext=[f"word {i}" for i in firsts],
            showgrid=False,
            zeroline=False,
            fixedrange=True,
        ),
        legend=dict(orientation="h", y=1.0, yanchor="bottom", title_text="Discourse type: "),
        hoverlabel=dict(bgcolor="white"),
    )
    return fig


# --------------------------------------------------------------------------------------
# Worked examples: figures of the memo's examples
# --------------------------------------------------------------------------------------


def overlap_removal_figure(
    segments: Mapping[str, tuple[int, int]], after: Sequence[Iterable[int] | None]
) -> go.Figure:
    """Each segment's words as submitted and after overlap removal, in processing order.

    ``segments``: name -> (first word, last word), in the listing order; ``after``: the words
    each keeps (``scoring.remove_overlaps``, same order), ``None`` when discarded.
    """
    names = list(segments)
    fig = go.Figure()
    order = sorted(names, key=lambda n: segments[n][0])
    for label, colour, getter in (
        ("Submitted", "#f2c14e", lambda n, k: segments[n]),
        ("After removal", "#2a9d8f", lambda n, k: None if k is None else (min(k), max(k))),
    ):
        ys, bases, widths, texts = [], [], [], []
        for n, kept in zip(names, after, strict=True):
            span = getter(n, kept)
            if span is None:
                continue
            ys.append(n)
            bases.append(span[0] - 0.5)
            widths.append(span[1] - span[0] + 1)
            texts.append(f"{span[0]}–{span[1]}")
        fig.add_trace(
            go.Bar(
                y=ys,
                x=widths,
                base=bases,
                orientation="h",
                name=label,
                marker_color=colour,
                text=texts,
                textposition="inside",
                insidetextanchor="middle",
                textfont=dict(size=12),
                hovertemplate="Segment %{y}: words %{text}<extra>" + label + "</extra>",
            )
        )
    fig.update_layout(
        barmode="group",
        height=440,
        uniformtext=dict(minsize=11, mode="show"),  # never shrunk to fit a thin bar
        margin=dict(l=10, r=10, t=30, b=10),
        xaxis=dict(title="Word index", range=[0, 100]),
        yaxis=dict(title="Segment (in processing order)", categoryorder="array", categoryarray=order[::-1]),
        legend=dict(orientation="h", y=1.12),
    )
    return fig


def segment_pairs_figure(pairs: Sequence[tuple[str, Sequence[int], Sequence[int]]]) -> go.Figure:
    """One row per ground truth and one per prediction of each ``(label, gt words, pred words)``.

    The words of each segment are a contiguous run (a ``range``).
    """
    fig = go.Figure()
    for i, (ex, gt, pred) in enumerate(pairs):
        for words, colour, label in ((gt, "#57a773", "Ground truth"), (pred, "#f2c14e", "Prediction")):
            fig.add_trace(
                go.Bar(
                    y=[f"({ex}) {label}"],
                    x=[len(words)],
                    base=[min(words) - 0.5],
                    orientation="h",
                    marker_color=colour,
                    name=label,
                    showlegend=i == 0,
                    legendgroup=label,
                    hovertemplate=f"({ex}) {label}: words {min(words)}–{max(words)}<extra></extra>",
                )
            )
    fig.update_layout(
        barmode="overlay",
        height=360,
        margin=dict(l=10, r=10, t=30, b=10),
        xaxis=dict(title="Word index", dtick=1, range=[-0.5, 13.5]),
        yaxis=dict(autorange="reversed"),
        legend=dict(orientation="h", y=1.1),
    )
    return fig
