"""The frames of the tables the app and the HTML report show (no Streamlit): a leaderboard's
stages side by side, grouped by stage with rank moves and the final result first; each team's
rank path; team × group tables with many groups in rows. Drawing them (column config, toggles,
downloads) is :mod:`lab.view.tables`."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pandas as pd

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


