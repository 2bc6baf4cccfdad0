"""Tables for display and download: a leaderboard's stages side by side, grouped by stage with
rank moves and the final result first, number formats, and formula-safe CSV / JSON downloads (``scoring.core.export``).

Streamlit is imported inside the few functions that draw or configure widgets, so the pure
helpers (:func:`stage_table`, :func:`rank_arrow`, ...) serve the HTML report (``lab.report``)
without it."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import pandas as pd

from scoring.core.export import escape_document, to_csv
from scoring.core.family import Stage


def rank_arrow(previous: int, current: int) -> str:
    """``"3 ▲2"``: the rank, and the places gained (▲) or lost (▼) against ``previous``."""
    delta = int(previous) - int(current)
    if delta > 0:
        return f"{int(current)} ▲{delta}"
    if delta < 0:
        return f"{int(current)} ▼{-delta}"
    return f"{int(current)}"


#: The header group of the final result (rank, score and the final stage's extras), shown first.
FINAL_GROUP = "Final result"


def stage_table(lb: pd.DataFrame, stages: Sequence[Stage],
                extras: Mapping[str, Callable[[pd.DataFrame], Mapping[str, Any]]] | None = None) -> pd.DataFrame:
    """The stages side by side for display, grouped by stage under a two-level header
    (``(group, column)``): the team; then the **final result** (its rank, its score and the
    final stage's extras) so the answer is the first thing read; then every earlier stage, in
    order, as its score and its rank. A rank carries an arrow on every change against the
    previous stage (``"3 ▲2"``). ``extras[stage id](lb)`` adds columns to that stage's group
    (Shovel-Ready: the boost and eligibility with the final result)."""
    extras = extras or {}
    final = stages[-1]
    names = lb["submission"].astype(str).to_numpy()
    ranks, prev = {}, None
    for s in stages:
        r = lb[s.rank].astype(int).to_numpy()
        ranks[s.id] = [str(x) for x in r] if prev is None else [rank_arrow(a, b) for a, b in zip(prev, r, strict=True)]
        prev = r
    cols: dict[tuple[str, str], Any] = {("", "Team"): names,
                                        (FINAL_GROUP, "Rank"): ranks[final.id],
                                        (FINAL_GROUP, "Score"): lb[final.id].astype(float).to_numpy()}
    for col, values in extras.get(final.id, lambda _: {})(lb).items():
        cols[(FINAL_GROUP, col)] = values
    for s in stages[:-1]:
        cols[(s.label, "Score")] = lb[s.id].astype(float).to_numpy()
        cols[(s.label, "Rank")] = ranks[s.id]
        for col, values in extras.get(s.id, lambda _: {})(lb).items():
            cols[(s.label, col)] = values
    out = pd.DataFrame(cols)
    out.columns = pd.MultiIndex.from_tuples(list(cols))
    return out


#: Column widths (pixels) of the stage table's ranks and scores.
RANK_WIDTH, SCORE_WIDTH = 56, 68
#: The compact table's one column for the earlier stages: every stage's rank in order.
PATH = ("Stage by stage", "Rank at each stage")


def rank_path(lb: pd.DataFrame, stages: Sequence[Stage]) -> list[str]:
    """Each team's rank at every stage, in order: ``"4 → 3 → 2 → 2 → 1"`` — the compact table's
    column (with the final result beside it, it fits a 1024-pixel window without scrolling).

    >>> from scoring.core.family import Stage
    >>> st_ = [Stage("a", "A", "a_rank"), Stage("b", "B", "b_rank")]
    >>> rank_path(pd.DataFrame({"a_rank": [2, 1], "b_rank": [1, 2]}), st_)
    ['2 → 1', '1 → 2']
    """
    ranks = [lb[s.rank].astype(int).to_numpy() for s in stages]
    return [" → ".join(str(int(r[i])) for r in ranks) for i in range(len(lb))]


def stage_column_config(table: pd.DataFrame, stages: Sequence[Stage],
                        extra: Mapping[tuple[str, str], Any] | None = None, *,
                        every_score: bool = True) -> dict[int, Any]:
    """``st.dataframe`` column config for :func:`stage_table`, by position (sub-headers repeat
    across groups, so names cannot key it; position 0 is the hidden index): scores to four
    decimals, ranks narrow, every header's help in plain words, the team pinned. The final
    result is not pinned: pinned columns are drawn faded, and the answer is drawn in full.
    ``extra`` configures the extras by ``(group, column)``. ``every_score=False`` hides the
    earlier stages' scores (their ranks stay): the compact table that fits a narrow window."""
    import streamlit as st

    by_label = {s.label: (i, s) for i, s in enumerate(stages)}
    final = stages[-1]
    cfg: dict[int, Any] = {}
    for pos, (group, col) in enumerate(table.columns, start=1):
        if (group, col) in (extra or {}):
            cfg[pos] = extra[(group, col)]
            continue
        i, s = (len(stages) - 1, final) if group == FINAL_GROUP else by_label.get(group, (None, None))
        against = f"; ▲/▼: places gained/lost against “{stages[i - 1].label}”" if s is not None and i else ""
        if col == "Team":
            cfg[pos] = st.column_config.TextColumn("Team", pinned=True)
        elif s is not None and col in ("Score", "Rank") and group != FINAL_GROUP and not every_score:
            cfg[pos] = None  # hidden in the compact table: the path column says the ranks
        elif (group, col) == PATH:
            cfg[pos] = None if every_score else st.column_config.TextColumn(
                col, help="The team's rank at each stage, in order: " + " → ".join(f"“{x.label}”" for x in stages))
        elif s is not None and col == "Score":
            cfg[pos] = st.column_config.NumberColumn("Score", format="%.4f", width=SCORE_WIDTH, help=(
                f"{s.label}: " + (s.help or "")) if group == FINAL_GROUP else (s.help or None))
        elif s is not None and col == "Rank":
            cfg[pos] = st.column_config.TextColumn("Rank", width=RANK_WIDTH, help=f"Rank on “{s.label}”{against}")
    return cfg


def show_stage_table(lb: pd.DataFrame, stages: Sequence[Stage], *, key: str,
                     extras: Mapping[str, Callable[[pd.DataFrame], Mapping[str, Any]]] | None = None,
                     extra_config: Mapping[tuple[str, str], Any] | None = None) -> pd.DataFrame:
    """Draw a family's leaderboard as :func:`stage_table` with its column config — compact (the
    final result and the rank at each stage in one column, :func:`rank_path`) unless the toggle
    above it asks for every stage's score and rank; returns :func:`stage_table` (the hidden
    columns are only not drawn)."""
    import streamlit as st

    table = stage_table(lb, stages, extras)
    shown = table.copy()
    at = 3 + len(extras.get(stages[-1].id, lambda _: {})(lb)) if extras else 3  # after the final result
    shown.insert(at, PATH, rank_path(lb, stages))
    every = st.toggle("Every stage's score and rank", key=f"{key}_every_score", help=(
        "Each earlier stage's score and rank in columns of their own (a wider table: on a narrow window it "
        "scrolls sideways). The CSV download holds every score."))
    st.dataframe(shown, hide_index=True, key=key,
                 column_config=stage_column_config(shown, stages, extra_config, every_score=every))
    return table


def download_row():
    """A row for a page's download buttons: a horizontal container that wraps, so that each
    button is as wide as its label at any window width (columns cut them to "Downl…")."""
    import streamlit as st

    return st.container(horizontal=True, gap="small")


def flat_columns(table: pd.DataFrame) -> pd.DataFrame:
    """A grouped :func:`stage_table` with one-level names: ``"FP1 (original)"`` (a stage's
    score), ``"FP1 (original) · rank"``, ``"Final result · Boost"``, ``"Team"`` (for tests
    and exports)."""
    names = []
    for group, col in table.columns:
        names.append(col if not group else group if col == "Score" else f"{group} · {col.lower() if col == 'Rank' else col}")
    out = table.copy()
    out.columns = names
    return out


#: Above this many groups (or more groups than teams) a team × group table puts the groups in rows.
MAX_GROUP_COLUMNS = 10


def groups_as_rows(n_groups: int, n_teams: int) -> bool:
    """Whether a team × group table (or heatmap) reads better with a row per group."""
    return n_groups > MAX_GROUP_COLUMNS or n_groups > n_teams


def short_group_labels(labels: Sequence[str]) -> tuple[list[str], list[str]]:
    """``("ell_status=No & gender=F", …)`` -> (``["No · F", …]``, ``["ell_status", "gender"]``).

    The attribute names go once into the axis title; labels that do not all follow the same
    ``attr=value & attr=value`` pattern come back unchanged (with no attribute names).
    """
    split = [[part.partition("=") for part in str(g).split(" & ")] for g in labels]
    keys = [[k for k, _, _ in parts] for parts in split]
    if not split or any(not all(eq for _, eq, _ in parts) for parts in split) or any(k != keys[0] for k in keys):
        return [str(g) for g in labels], []
    short = [" · ".join(v for _, _, v in parts) for parts in split]
    if len(set(short)) != len(short):
        return [str(g) for g in labels], []
    return short, keys[0]


def team_group_table(values: pd.DataFrame, fmt: str, help: str | None = None) -> tuple[pd.DataFrame, dict[str, Any]]:
    """A team × group table (``values``: teams as the index, groups as columns) for display,
    with its column config: a row per team and a column per group — or, with many groups
    (:func:`groups_as_rows`), a row per group (``F · White``, the attributes named once in the
    header) and a column per team, so that every column is readable at any number of groups."""
    import streamlit as st

    groups, teams = [str(g) for g in values.columns], [str(t) for t in values.index]
    if groups_as_rows(len(groups), len(teams)):
        short, attrs = short_group_labels(groups)
        head = f"Group ({' · '.join(attrs)})" if attrs else "Group"
        out = pd.DataFrame({head: short})
        for t in values.index:
            out[str(t)] = values.loc[t].to_numpy(dtype=float)
        cfg = {head: st.column_config.TextColumn(head, pinned=True)}
        cfg.update({t: st.column_config.NumberColumn(t, format=fmt, help=help) for t in teams})
        return out, cfg
    out = values.copy()
    out.columns = groups
    out.insert(0, "Team", teams)
    cfg = {"Team": st.column_config.TextColumn("Team", pinned=True)}
    cfg.update({g: st.column_config.NumberColumn(g, format=fmt, help=help) for g in groups})
    return out.reset_index(drop=True), cfg


def number_columns(columns: Iterable[str], fmt: str = "%.3f") -> dict[str, Any]:
    """``st.dataframe`` column config showing each of ``columns`` as a number in ``fmt``."""
    import streamlit as st

    return {c: st.column_config.NumberColumn(c, format=fmt) for c in columns}


def csv_bytes(df: pd.DataFrame, columns: Sequence[str] | None = None) -> bytes:
    """A table as formula-safe CSV (a cell starting with = + - @ gets a leading ')."""
    return to_csv(df, columns, float_format=None).encode("utf-8")


def json_bytes(doc: Mapping[str, Any], *, escape: bool = True) -> bytes:
    """A document as strict JSON, every text value formula-safe unless ``escape=False``."""
    return json.dumps(escape_document(doc) if escape else doc, indent=2, allow_nan=False,
                      ensure_ascii=False).encode("utf-8")
