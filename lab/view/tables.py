"""The tables a page draws with Streamlit: the stage table with its column config (compact or
every stage), a team × group table, number columns, the row of download buttons and the bytes
they download (formula-safe CSV, strict JSON: ``scoring.core.export``). The frames themselves are
built without Streamlit in :mod:`lab.charts.tables` (the HTML report uses them too)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import pandas as pd
import streamlit as st

from scoring.core.export import escape_document, to_csv
from scoring.core.family import Stage

from ..charts.tables import FINAL_GROUP, PATH, groups_as_rows, rank_path, short_group_labels, stage_table
from ..families import stage_table_toggle
from . import links

#: Column widths (pixels) of the stage table's ranks and scores.
RANK_WIDTH, SCORE_WIDTH = 56, 68


def stage_column_config(table: pd.DataFrame, stages: Sequence[Stage],
                        extra: Mapping[tuple[str, str], Any] | None = None, *,
                        every_score: bool = True) -> dict[int, Any]:
    """``st.dataframe`` column config for :func:`stage_table`, by position (sub-headers repeat
    across groups, so names cannot key it; position 0 is the hidden index): scores to four
    decimals, ranks narrow, every header's help in plain words, the team pinned. The final
    result is not pinned: pinned columns are drawn faded, and the answer is drawn in full.
    ``extra`` configures the extras by ``(group, column)``. ``every_score=False`` hides the
    earlier stages' scores (their ranks stay): the compact table that fits a narrow window."""
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
    table = stage_table(lb, stages, extras)
    shown = table.copy()
    at = 3 + len(extras.get(stages[-1].id, lambda _: {})(lb)) if extras else 3  # after the final result
    shown.insert(at, PATH, rank_path(lb, stages))
    every = links.draw(st.toggle, "Every stage's score and rank", stage_table_toggle(key), help=(
        "Each earlier stage's score and rank in columns of their own (a wider table: on a narrow window it "
        "scrolls sideways). The CSV download holds every score."))
    st.dataframe(shown, hide_index=True, key=key,
                 column_config=stage_column_config(shown, stages, extra_config, every_score=every))
    return table


def download_row():
    """A row for a page's download buttons: a horizontal container that wraps, so that each
    button is as wide as its label at any window width (columns cut them to "Downl…")."""
    return st.container(horizontal=True, gap="small")


def team_group_table(values: pd.DataFrame, fmt: str, help: str | None = None) -> tuple[pd.DataFrame, dict[str, Any]]:
    """A team × group table (``values``: teams as the index, groups as columns) for display,
    with its column config: a row per team and a column per group — or, with many groups
    (:func:`groups_as_rows`), a row per group (``F · White``, the attributes named once in the
    header) and a column per team, so that every column is readable at any number of groups."""
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


def team_column(label: str = "Team") -> Any:
    """The team column of a page's table, pinned: it stays in view while a narrow window scrolls the
    other columns sideways (the key columns come right after it)."""
    return st.column_config.TextColumn(label, pinned=True)


def number_columns(columns: Iterable[str], fmt: str = "%.3f") -> dict[str, Any]:
    """``st.dataframe`` column config showing each of ``columns`` as a number in ``fmt``."""
    return {c: st.column_config.NumberColumn(c, format=fmt) for c in columns}


def csv_bytes(df: pd.DataFrame, columns: Sequence[str] | None = None) -> bytes:
    """A table as formula-safe CSV (a cell starting with = + - @ gets a leading ')."""
    return to_csv(df, columns, float_format=None).encode("utf-8")


def json_bytes(doc: Mapping[str, Any], *, escape: bool = True) -> bytes:
    """A document as strict JSON, every text value formula-safe unless ``escape=False``."""
    return json.dumps(escape_document(doc) if escape else doc, indent=2, allow_nan=False,
                      ensure_ascii=False).encode("utf-8")
