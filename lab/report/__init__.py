"""A report a stakeholder can open anywhere: one family's data, parameters and leaderboard as
ONE self-contained HTML file — no server, no network (Plotly's script inline, once).

:func:`build_report` is the one function behind both ``python -m lab.report <family>``
and the app's *Download report* button. It holds a header (product, family, the data's names
and SHA-256 digests, every parameter with its value and default, the command line and the
link that reproduce the view, the version and the date), the takeaway, the stage table with
▲▼ moves, the stage (bump) chart, the family's main charts (``lab.report.families``), the rank
intervals when computed, and optionally a second configuration beside the first with what
moved each team. Every user string is escaped (``lab.report.html.esc``).

This module and the ones it imports never import Streamlit.
"""

from __future__ import annotations

import hashlib
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from scoring.core.family import Family
from scoring.core.stability import compare

from ..charts import tables
from ..charts.colors import team_colors
from ..charts.common import bump_chart
from ..words.text import MD
from .families import Section, family_report
from .html import cell, esc, frame_table, markdown_text, page, table
from .html import figure as figure_html

PRODUCT = "Leaderboard Lab"
#: the app's address when started with ``streamlit run app.py`` (README)
DEFAULT_BASE = "http://localhost:8501"
_APP_ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class DataFile:
    """One input file: its role (the family's input), its name, size and SHA-256 digest."""

    role: str
    name: str
    size: int
    sha256: str


def _sha256(path: Path) -> str:
    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def shown_path(path: str | Path, roots: Sequence[str | Path] = ()) -> str:
    """How a report names a file: relative to the first of ``roots`` that holds it (the app's
    folder, the data's folder), else its name alone — never the folders of the machine that
    wrote the report (a report is made to leave it).

    >>> shown_path("/srv/app/sample_data/qa/x.csv", ["/srv/app"]), shown_path("/home/me/data/a.csv", ["/srv/app"])
    ('sample_data/qa/x.csv', 'a.csv')
    """
    p = Path(path)
    for root in roots:
        try:
            return p.relative_to(Path(root)).as_posix()
        except ValueError:
            continue
    return p.name


def file_digests(fam: Family, sources: Mapping[str, Any], *, roots: Sequence[str | Path] = ()) -> list[DataFile]:
    """Every file behind ``sources`` (``{role: path | [paths]}``, as the family's loader takes
    them; a folder stands for its files of the input's kind, sorted; a ``(name, path)`` pair
    for its path), digested, in the family's input order; each named by :func:`shown_path`
    (relative to the first of ``roots`` that holds it, else its name)."""
    out = []
    for inp in fam.inputs:
        given = sources.get(inp.role)
        if given is None:
            continue
        for item in given if isinstance(given, list) else [given]:
            path = Path(item[1] if isinstance(item, tuple) else item)  # a (submission name, path) pair
            files = sorted(path.glob(f"*{inp.suffix}")) if path.is_dir() else [path]
            for f in files:
                out.append(DataFile(inp.role, shown_path(f, roots), f.stat().st_size, _sha256(f)))
    return out


def bundle_digests(fam: Family, bundle: Mapping[str, Any]) -> list[DataFile]:
    """The files of an upload bundle (``{role: (name, bytes) | [(name, bytes), …]}``), digested."""
    out = []
    order = [i.role for i in fam.inputs] + sorted(r for r in bundle if r not in {i.role for i in fam.inputs})
    for role in order:
        item = bundle.get(role)
        for name, data in item if isinstance(item, list) else [item] if item else []:
            out.append(DataFile(role, str(name), len(data), hashlib.sha256(data).hexdigest()))
    return out


# ---- reproducing the view ----------------------------------------------------------------------
def param_args(fam: Family, params: Mapping[str, Any]) -> list[str]:
    """The command-line options that set ``params`` (a switch only where it differs from the
    default; a parameter without an option is left out: see :func:`unsettable`)."""
    out: list[str] = []
    for p in fam.params:
        v = params.get(p.name, p.default)
        if p.flag is None or v is None:
            continue
        if p.kind == "bool":
            if bool(v) != bool(p.default):
                out.append(p.cli_negative if (p.cli_negative and not v) else p.flag)
            continue
        text = p.to_text(v)
        text = ",".join(text) if isinstance(text, list) else text
        if text:
            out += [p.flag, text]
    return out


def unsettable(fam: Family, params: Mapping[str, Any]) -> list[str]:
    """Parameters whose value no command-line option sets (set in the app, or taken from a file)."""
    return [p.name for p in fam.params if p.flag is None and params.get(p.name) is not None]


def command_line(fam: Family, sources: Mapping[str, Any], params: Mapping[str, Any], *, command: str = "leaderboard",
                 extra: Sequence[str] = (), roots: Sequence[str | Path] | None = None) -> str:
    """``python -m scoring <family> <command> --input PATH … --param VALUE …`` (shell-quoted);
    with ``roots`` each path as :func:`shown_path` names it (relative to the first root that
    holds it, else its name), without them as given."""
    words = ["python", "-m", "scoring", fam.name, command]
    for inp in fam.inputs:
        given = sources.get(inp.role)
        if given is None:
            continue
        words.append(inp.flag)
        items = given if isinstance(given, list) else [given]
        paths = [x[1] if isinstance(x, tuple) else x for x in items]
        words += [str(x) if roots is None else shown_path(x, roots) for x in paths]
    return shlex.join(words + param_args(fam, params) + list(extra))


#: the leaderboard page of each family (its address is the page file's stem: ``lab.families``)
PAGES = {"shovel-ready": "leaderboard"}


def leaderboard_page(fam: Family) -> str | None:
    """The address of the family's leaderboard page, when the app has one."""
    stem = PAGES.get(fam.name) or f"{fam.name.replace('-', '_')}_leaderboard"
    return stem if (_APP_ROOT / "pages" / f"{stem}.py").is_file() else None


def link(fam: Family, params: Mapping[str, Any], *, base: str = DEFAULT_BASE, page_path: str | None = None,
         data: str | None = None) -> str | None:
    """The app's link to the view: the leaderboard page with every parameter in the address
    (as the sidebar writes them), and ``data=<family key>-<digest>`` for an upload."""
    page_path = page_path or leaderboard_page(fam)
    if page_path is None:
        return None
    pairs: list[tuple[str, str]] = []
    for p in fam.params:
        v = params.get(p.name)
        if v is None:
            continue
        text = p.to_text(v)
        pairs += [(p.name, t) for t in (text if isinstance(text, list) else [text])]
    if data:
        pairs.append(("data", data))
    return f"{base.rstrip('/')}/{page_path}?{urlencode(pairs)}"


# ---- the report --------------------------------------------------------------------------------
def _version() -> str:
    import scoring

    return str(getattr(scoring, "__version__", "unknown"))


def _value_text(fam: Family, name: str, value: Any) -> str:
    p = fam.params[name]
    if value is None:
        return "none"
    text = p.to_text(value)
    text = ", ".join(t for t in text if t) if isinstance(text, list) else text
    if p.kind == "choice":
        label = p.choice_label(value)
        return text if label == text else f"{text} ({label})"
    return text or "none"


def params_table(fam: Family, params: Mapping[str, Any], other: Mapping[str, Any] | None = None,
                 labels: Sequence[str] = ("Value", "Value B")) -> str:
    """Every parameter: its name, value (and B's), default and command-line option; a row
    whose value is not the default is in bold."""
    heads = ["Parameter", "Name", labels[0], *([labels[1]] if other is not None else []), "Default", "Option"]
    rows = []
    for p in fam.params:
        v = _value_text(fam, p.name, params.get(p.name))
        d = _value_text(fam, p.name, p.default)
        vb = [_value_text(fam, p.name, other.get(p.name))] if other is not None else []
        cls = ' class="changed"' if v != d or (vb and vb[0] != d) else ""
        tds = "".join(f"<td>{esc(x)}</td>" for x in (p.title, p.name, v, *vb, d, p.flag or "—"))
        rows.append(f'<tr{cls} data-param="{esc(p.name)}">{tds}</tr>')
    return ('<table class="params"><thead><tr>' + "".join(f"<th>{esc(h)}</th>" for h in heads)
            + "</tr></thead><tbody>" + "".join(rows) + "</tbody></table>")


def data_table(files: Sequence[DataFile]) -> str:
    rows = [(f.role, f.name, f.size, f.sha256) for f in files]
    return table(["Input", "File", "Bytes", "SHA-256"], rows, keys=["role", "name", "size", "sha256"], cls="data")


def stage_table(fam: Family, lb: pd.DataFrame) -> str:
    """The stage table as the app draws it (``lab.charts.tables.stage_table``: the final result first,
    ▲▼ moves), each score and rank cell naming its leaderboard column in ``data-key`` with the
    exact value in ``data-value`` (a rank cell shows ``"3 ▲2"``; its value is the rank)."""
    extras = family_report(fam).extras
    grouped = tables.stage_table(lb, fam.stages, {fam.final.id: extras} if extras else None)
    by_label = {s.label: s for s in fam.stages}
    keys: list[str | None] = []
    groups: list[tuple[str, int]] = []
    for group, col in grouped.columns:
        s = fam.final if group == tables.FINAL_GROUP else by_label.get(group)
        keys.append("submission" if col == "Team" else None if s is None else
                    {"Score": s.id, "Rank": s.rank}.get(col))
        if groups and groups[-1][0] == group:
            groups[-1] = (group, groups[-1][1] + 1)
        else:
            groups.append((group, 1))
    head = ("<tr>" + "".join(f'<th colspan="{n}" class="group">{esc(g)}</th>' for g, n in groups) + "</tr><tr>"
            + "".join(f"<th>{esc(c)}</th>" for _, c in grouped.columns) + "</tr>")
    body = []
    for (_, rec), row in zip(lb.iterrows(), grouped.itertuples(index=False, name=None), strict=True):
        tds = []
        for k, v in zip(keys, row, strict=True):
            if k is not None and k != "submission" and isinstance(v, str):  # a rank with its move
                tds.append(f'<td class="num" data-key="{esc(k)}" data-value="{int(rec[k])}">{esc(v)}</td>')
            else:
                tds.append(cell(v, key=k))
        body.append(f'<tr data-team="{esc(rec["submission"])}">{"".join(tds)}</tr>')
    return f'<table class="stages"><thead>{head}</thead><tbody>{"".join(body)}</tbody></table>'


#: one sentence per column of the rank-set table (the words of the Rank intervals page and --help)
INTERVAL_WORDS = {
    "score_low": "score_low–score_high: the team's score interval (what it is: \"score interval\" below).",
    "rank_low": "rank_low–rank_high: the ranks the data cannot rule out for this team (its marginal rank set).",
    "letters": "letters: two teams that share a letter are not told apart by the paired comparisons.",
    "could_win": "could_win: no other team is established better than this one.",
    "rank_low_all": "rank_low_all–rank_high_all: rank sets that hold for every team at once (simultaneous).",
}


def intervals_section(lb: pd.DataFrame, iv: pd.DataFrame, info: Mapping[str, Any] | None) -> Section:
    """The rank confidence sets of ``scoring.core.robustness.bootstrap``: who could have won
    (and the top ``k`` when ``info["top_k"]`` is given) first, then the columns asked for
    (``info["columns"]``, default every one) in the leaderboard's order, each explained."""
    from scoring.claims import intervals as claims
    from scoring.core.robustness import top_set

    sec = Section("Rank confidence sets")
    info = dict(info or {})
    conf = info.get("confidence")
    unit = str(info.get("unit", "unit"))
    if info:
        sec.parts.append('<p class="muted">' + esc(
            f"Bootstrap over the {info.get('unit', 'unit')}s: {info.get('replicates')} resamples, seed "
            f"{info.get('seed')}, confidence {conf}; paired comparisons of every two teams "
            "(docs/robustness.md).") + "</p>")
    if "rank_low_all" in iv and conf is not None:  # the page's sentences (scoring.claims.intervals)
        sec.parts.append(f"<p><strong>Who could have won?</strong> "
                         f"{markdown_text(claims.could_win(top_set(iv, 1), float(conf), unit, style=MD))}</p>")
        k = info.get("top_k")
        if k:
            sec.parts.append(f"<p>{markdown_text(claims.top_k(top_set(iv, int(k)), int(k), float(conf), style=MD))}"
                             "</p>")
    order = [t for t in lb["submission"].astype(str) if t in set(map(str, iv.index))]
    keep = [c for c in info.get("columns") or iv.columns if c in iv.columns]
    frame = iv[["score", "rank", *[c for c in keep if c not in ("score", "rank")]]] \
        if {"score", "rank"} <= set(iv.columns) else iv[keep]
    frame = frame.copy()
    frame.index = frame.index.map(str)
    frame = frame.reindex(order + [t for t in frame.index if t not in order]).rename_axis("submission").reset_index()
    sec.parts.append(frame_table(frame, labels={"submission": "Team"}, team="submission", cls="intervals"))
    words = [w for c, w in INTERVAL_WORDS.items() if c in frame.columns]
    if words:
        sec.parts.append("<ul>" + "".join(f"<li>{esc(w)}</li>" for w in words) + "</ul>")
    for k, v in (iv.attrs or {}).items():
        if isinstance(v, (str, int, float, list, tuple, set, frozenset, np.ndarray)):
            items = sorted(map(str, v)) if isinstance(v, (set, frozenset)) else (
                [str(x) for x in v] if isinstance(v, (list, tuple, np.ndarray)) else [str(v)])
            sec.parts.append(f'<p data-attr="{esc(k)}"><strong>{esc(str(k).replace("_", " "))}:</strong> '
                             f"{esc(', '.join(items))}</p>")
    return sec


def differences(fam: Family, a: Mapping[str, Any], b: Mapping[str, Any]) -> list[str]:
    """The parameters that differ between A and B, in words: ``w: 0.5 → 0.7``."""
    out = []
    for p in fam.params:
        va, vb = _value_text(fam, p.name, a.get(p.name)), _value_text(fam, p.name, b.get(p.name))
        if va != vb:
            out.append(f"{p.title}: {va} → {vb}")
    return out


def compare_section(fam: Family, lb_a: pd.DataFrame, lb_b: pd.DataFrame, a: Mapping[str, Any],
                    b: Mapping[str, Any], labels: Sequence[str], colors: Mapping[str, str]) -> Section:
    """Configuration B beside A: what differs, every team's rank and score under both, the
    places it moved and the first stage at which its rank changed; B's stage table."""
    from ..charts.robustness import slope_figure

    la, lb_ = labels
    sec = Section(f"Two configurations: {la} and {lb_}")
    changed = differences(fam, a, b)
    sec.parts.append("<p>" + (esc(f"{lb_} differs from {la} in: " + "; ".join(changed) + ".") if changed else
                              esc(f"{la} and {lb_} are the same settings.")) + "</p>")
    diff = compare(fam, lb_a, lb_b)
    sec.parts.append(frame_table(diff, team="submission", cls="compare", labels={
        "submission": "Team", "rank_a": f"Rank under {la}", "rank_b": f"Rank under {lb_}",
        "delta": f"Places gained under {lb_}", "score_a": f"Score under {la}", "score_b": f"Score under {lb_}",
        "moved_at": "First stage that moved"}))
    sec.parts.append(slope_figure(diff, colors, list(labels)))
    sec.parts.append(f"<h3>{esc(lb_)}: {markdown_text(family_report(fam).takeaway(fam, lb_b, b))}</h3>")
    sec.parts.append(stage_table(fam, lb_b))
    return sec


def build_report(fam: Family, comp: Any, scorer: Any, params: Mapping[str, Any], *,
                 data: Sequence[DataFile] = (), data_label: str = "", command: str = "",
                 link: str | None = None, command_where: str = "", params_b: Mapping[str, Any] | None = None,
                 labels: Sequence[str] = ("A", "B"), intervals: pd.DataFrame | None = None,
                 interval_info: Mapping[str, Any] | None = None, lb: pd.DataFrame | None = None,
                 now: datetime | None = None) -> str:
    """The report as one HTML string (see the module doc). ``params``: the scorer's keyword
    arguments; ``data``: the input files (:func:`file_digests`, :func:`bundle_digests`);
    ``command``/``link``: what reproduces the view (``command_where``: where to run the command,
    e.g. "in the data's folder", when its paths are relative to another folder than the app's); ``params_b``: a second configuration
    (``labels`` name the two); ``intervals``: ``scoring.core.robustness.bootstrap``'s frame."""
    lb = scorer.leaderboard(**params) if lb is None else lb
    colors = team_colors(comp.submission_names)
    fr = family_report(fam)
    when = (now or datetime.now(UTC)).strftime("%Y-%m-%d %H:%M UTC")
    head = [f"<h1>{esc(PRODUCT)} report: {esc(fam.title)}</h1>",
            f'<p class="muted">{esc(PRODUCT)} {esc(_version())} · family <code>{esc(fam.name)}</code> · '
            f"{esc(len(lb))} teams · generated {esc(when)}" + (f" · {esc(data_label)}" if data_label else "") + "</p>",
            f'<p class="takeaway">{markdown_text(fr.takeaway(fam, lb, params))}</p>',
            "<h3>Data</h3>", data_table(data) if data else '<p class="muted">No file named.</p>',
            "<h3>Parameters</h3>",
            params_table(fam, params, params_b, (labels[0], labels[1]) if params_b is not None else ("Value", "")),
            "<h3>Reproduce this view</h3>"]
    if command:
        where = f" ({command_where})" if command_where else ""
        head.append(f'<p>Command line{esc(where)}:</p><div class="cmd mono">{esc(command)}</div>')
    off = unsettable(fam, params)
    if off:
        head.append(f'<p class="muted">Not set by a command-line option: {esc(", ".join(off))} (the command takes '
                    "them from the data or its defaults; the link carries them).</p>")
    if link:
        head.append(f'<p>Link (open it where the same data is loaded — the files and digests above; it never holds '
                    f'the key to an upload): <a class="mono" href="{esc(link)}">{esc(link)}</a></p>')
    board = Section("Leaderboard", [stage_table(fam, lb)])
    if len(fam.stages) > 1:
        board.parts.append(bump_chart(lb, fam.stages, colors))
    sections = [board]
    sections += fr.sections(fam, scorer, comp, params, lb, colors)
    if intervals is not None:
        sections.append(intervals_section(lb, intervals, interval_info))
    if params_b is not None:
        sections.append(compare_section(fam, lb, scorer.leaderboard(**params_b), params, params_b, labels, colors))
    body = ['<section class="first">' + "".join(head) + "</section>"]
    n = 0
    for sec in sections:
        parts = []
        for part in sec.parts:
            if isinstance(part, go.Figure):
                n += 1
                parts.append(f'<div class="chart">{figure_html(part, f"fig-{n}")}</div>')
            else:
                parts.append(part)
        body.append(f"<section><h2>{esc(sec.title)}</h2>{''.join(parts)}</section>")
    return page(f"{PRODUCT} report: {fam.title}", "".join(body), _plotly_js() if n else None)


def _plotly_js() -> str:
    from plotly.offline import get_plotlyjs

    return get_plotlyjs()
