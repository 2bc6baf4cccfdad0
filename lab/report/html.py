"""The HTML pieces of the stakeholder report (``lab.report``): escaping, the app's markdown
sentences turned into safe HTML, tables, Plotly figures without their script, and the page
around them (its stylesheet, a print stylesheet with a page break before every section).

Every string that reaches the page goes through :func:`esc` (``html.escape``) or is built
here from escaped parts; nothing here needs Streamlit or the network.
"""

from __future__ import annotations

import html as _html
import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import plotly.io as pio

#: Plotly's figure options in the report: no logo link, charts follow the page's width.
PLOTLY_CONFIG = {"displaylogo": False, "responsive": True}


def esc(text: object) -> str:
    """``text`` as HTML text (quotes too, so it is safe inside an attribute).

    >>> esc('<script>alert("x")</script>')
    '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;'
    """
    return _html.escape(str(text), quote=True)


def markdown_text(md: str) -> str:
    """A sentence written for Streamlit's markdown (``lab.words.story``: names escaped with ``md``,
    bold as ``**…**``) as safe HTML: a backslash escape becomes its character, ``**`` toggles
    ``<strong>``, a backtick pair ``<code>``; the word joiners ``md`` puts into URL patterns go;
    everything else is escaped text. Any markup a name carried stays text.

    >>> markdown_text(r"**\\[x\\]\\(http\\:⁠\\/\\/e\\)** wins")
    '<strong>[x](http://e)</strong> wins'
    >>> markdown_text(r"**\\<script\\>** 1 < 2")
    '<strong>&lt;script&gt;</strong> 1 &lt; 2'
    """
    out: list[str] = []
    open_tags: list[str] = []
    i, n = 0, len(md)
    while i < n:
        c = md[i]
        if c == "\\" and i + 1 < n:
            out.append(esc(md[i + 1]))
            i += 2
            continue
        if md.startswith("**", i):
            tag = "strong"
            i += 2
        elif c == "`":
            tag = "code"
            i += 1
        else:
            if c != "\u2060":
                out.append(esc(c))
            i += 1
            continue
        if open_tags and open_tags[-1] == tag:
            open_tags.pop()
            out.append(f"</{tag}>")
        else:
            open_tags.append(tag)
            out.append(f"<{tag}>")
    out.extend(f"</{t}>" for t in reversed(open_tags))
    return "".join(out)


def number(x: Any, digits: int = 4) -> str:
    """A number for a table cell: whole numbers as they are, others to ``digits`` decimals;
    NaN as an en dash, ∞ as ∞."""
    if isinstance(x, (bool, np.bool_)):
        return "yes" if x else "no"
    if isinstance(x, (int, np.integer)):
        return f"{int(x):,}"
    x = float(x)
    if math.isnan(x):
        return "–"
    if math.isinf(x):
        return "∞" if x > 0 else "−∞"
    return f"{x:.{digits}f}"


def cell(value: Any, *, key: str | None = None, digits: int = 4) -> str:
    """One ``<td>``: a number shown rounded, its exact value kept in ``data-value`` (so a reader
    or a test can compare it with the command line's JSON); anything else as escaped text, a
    list or set as its items joined by commas."""
    attrs = f' data-key="{esc(key)}"' if key is not None else ""
    if isinstance(value, (float, int, np.floating, np.integer)) and not isinstance(value, (bool, np.bool_)):
        exact = repr(float(value)) if isinstance(value, (float, np.floating)) else str(int(value))
        return f'<td class="num"{attrs} data-value="{esc(exact)}">{esc(number(value, digits))}</td>'
    if isinstance(value, (list, tuple, set, frozenset, np.ndarray)):
        items = sorted(map(str, value)) if isinstance(value, (set, frozenset)) else [str(v) for v in value]
        return f"<td{attrs}>{esc(', '.join(items))}</td>"
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return f"<td{attrs}>–</td>"
    return f"<td{attrs}>{esc(value)}</td>"


def table(columns: Sequence[str], rows: Iterable[Sequence[Any]], *, keys: Sequence[str | None] | None = None,
          groups: Sequence[tuple[str, int]] | None = None, row_keys: Sequence[str] | None = None,
          cls: str = "", digits: int = 4) -> str:
    """An HTML table: ``groups`` ((label, span) pairs) above the ``columns``, one ``<tr>`` per
    row (``data-team`` = its ``row_keys`` entry), ``keys`` naming each column's source column
    in ``data-key``."""
    head = ""
    if groups:
        head += "<tr>" + "".join(f'<th colspan="{span}" class="group">{esc(g)}</th>' for g, span in groups) + "</tr>"
    head += "<tr>" + "".join(f"<th>{esc(c)}</th>" for c in columns) + "</tr>"
    body = []
    for i, row in enumerate(rows):
        team = f' data-team="{esc(row_keys[i])}"' if row_keys is not None else ""
        tds = "".join(cell(v, key=keys[j] if keys else None, digits=digits) for j, v in enumerate(row))
        body.append(f"<tr{team}>{tds}</tr>")
    return (f'<table class="{esc(cls)}"><thead>{head}</thead><tbody>{"".join(body)}</tbody></table>')


def frame_table(df: pd.DataFrame, *, labels: Mapping[str, str] | None = None, team: str | None = None,
                cls: str = "", digits: int = 4) -> str:
    """Any frame as a table: every column, headed by ``labels[column]`` (else the column's
    name with ``_`` as spaces); ``team`` names the column that keys the rows."""
    labels = labels or {}
    cols = [str(c) for c in df.columns]
    heads = [labels.get(c, c.replace("_", " ")) for c in cols]
    rows = [list(r) for r in df.itertuples(index=False, name=None)]
    keys = [str(v) for v in df[team]] if team is not None else None
    return table(heads, rows, keys=cols, row_keys=keys, cls=cls, digits=digits)


def fit_labels(fig: go.Figure) -> go.Figure:
    """``fig`` sized for its labels (a copy): every axis makes room for its tick labels and its
    title (Plotly's ``automargin``; the app's charts get it from Streamlit's theme, a report from
    here), and the axis title set apart from the labels."""
    fig = go.Figure(fig)
    fig.update_xaxes(automargin=True, title_standoff=8)
    fig.update_yaxes(automargin=True, title_standoff=8)
    return fig


def figure(fig: go.Figure, div_id: str) -> str:
    """A Plotly figure as a ``<div>`` and its drawing call, without Plotly's script (the page
    carries it once, inline: :func:`page`), sized for its labels (:func:`fit_labels`)."""
    fig = fit_labels(fig)
    return pio.to_html(fig, full_html=False, include_plotlyjs=False, include_mathjax=False,
                       config=PLOTLY_CONFIG, div_id=div_id, validate=False)


CSS = """
:root { color-scheme: light; }
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; color: #1f2328;
       margin: 0 auto; max-width: 1100px; padding: 24px 28px 60px; line-height: 1.45; }
h1 { font-size: 1.7rem; margin: 0 0 4px; } h2 { font-size: 1.3rem; margin: 0 0 10px; border-bottom: 1px solid #d0d7de;
     padding-bottom: 4px; } h3 { font-size: 1.05rem; margin: 18px 0 6px; }
section { margin: 28px 0; } .muted { color: #59636e; font-size: 0.9rem; }
.takeaway { background: #eef6ff; border-left: 4px solid #4c78a8; padding: 10px 14px; font-size: 1.05rem; }
table { border-collapse: collapse; margin: 8px 0 12px; font-size: 0.88rem; display: block; overflow-x: auto;
        max-width: 100%; }
th, td { border: 1px solid #d0d7de; padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: #f6f8fa; } th.group { text-align: center; } td.num { text-align: right;
     font-variant-numeric: tabular-nums; white-space: nowrap; }
tr.changed td { font-weight: 600; } code, .mono { font-family: ui-monospace, Menlo, Consolas, monospace;
     font-size: 0.85rem; word-break: break-all; }
.cmd { background: #f6f8fa; border: 1px solid #d0d7de; padding: 8px 10px; white-space: pre-wrap;
       word-break: break-all; }
.side { display: flex; gap: 16px; flex-wrap: wrap; } .side > div { flex: 1 1 480px; min-width: 0; }
.chart { margin: 6px 0 14px; }
table.data td:last-child { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 0.8rem;
       word-break: break-all; min-width: 24ch; }
@media print {
  body { max-width: none; padding: 0; font-size: 10pt; }
  table { display: table; font-size: 7pt; } th, td { padding: 1px 3px; } .cmd, .mono { font-size: 7pt; }
  section { break-before: page; page-break-before: always; margin: 0; }
  section.first { break-before: auto; page-break-before: auto; }
  .chart, table, .takeaway { break-inside: avoid; page-break-inside: avoid; }
  .modebar-container { display: none !important; }
  a { color: inherit; text-decoration: none; }
}
"""


#: the charts follow the page's width when it changes for printing (a chart keeps the width it was
#: drawn at otherwise, wider than the paper: its labels cut at the edge)
PRINT_FIT = ("<script>(function () { function fit() { document.querySelectorAll('.js-plotly-plot').forEach("
             "function (el) { Plotly.Plots.resize(el); }); } window.addEventListener('beforeprint', fit); "
             "window.addEventListener('afterprint', fit); if (window.matchMedia) { "
             "window.matchMedia('print').addEventListener('change', fit); } })();</script>")


def page(title: str, body: str, plotly_js: str | None) -> str:
    """The whole document: ``body`` under ``title``, the stylesheet, and Plotly's script inline
    once in the head (``plotly_js``; None when the report draws no chart), with the charts
    redrawn at the paper's width for printing (:data:`PRINT_FIT`)."""
    script = f'<script type="text/javascript">{plotly_js}</script>' if plotly_js else ""
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{esc(title)}</title><style>{CSS}</style>{script}</head>"
            f"<body>{body}{PRINT_FIT if plotly_js else ''}</body></html>\n")
