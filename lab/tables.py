"""Tables for display and download: a leaderboard's stages side by side with rank moves,
number formats, and formula-safe CSV / JSON downloads (``scoring.core.export``)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import pandas as pd
import streamlit as st

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


def stage_table(lb: pd.DataFrame, stages: Sequence[Stage],
                extras: Mapping[str, Callable[[pd.DataFrame], Mapping[str, Any]]] | None = None) -> pd.DataFrame:
    """The stages side by side for display: a score and a rank column per stage (an arrow on
    every rank change against the previous stage); ``extras[stage id](lb)`` adds columns
    after that stage. The final rank and score come first, next to the team's name."""
    out = pd.DataFrame({"Team": lb["submission"].astype(str).to_numpy()})
    prev = None
    for s in stages:
        out[s.label] = lb[s.id].astype(float).to_numpy()
        ranks = lb[s.rank].astype(int).to_numpy()
        out[f"{s.label} · rank"] = ([str(r) for r in ranks] if prev is None
                                    else [rank_arrow(p, r) for p, r in zip(prev, ranks, strict=True)])
        for col, values in (extras or {}).get(s.id, lambda _: {})(lb).items():
            out[col] = values
        prev = ranks
    final = stages[-1].label
    head = ["Team", f"{final} · rank", final]
    return out[head + [c for c in out.columns if c not in head]]


def stage_column_config(stages: Sequence[Stage], extra: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """``st.dataframe`` column config for :func:`stage_table`: team, final rank and final
    score pinned; every stage's help in plain words."""
    cfg: dict[str, Any] = {"Team": st.column_config.TextColumn("Team", pinned=True)}
    for i, s in enumerate(stages):
        cfg[s.label] = st.column_config.NumberColumn(s.label, format="%.4f", help=s.help or None)
        against = f"; ▲/▼: places gained/lost against “{stages[i - 1].label}”" if i else ""
        cfg[f"{s.label} · rank"] = st.column_config.TextColumn("Rank", width="small", help=f"Rank on “{s.label}”{against}")
    final = stages[-1]
    cfg[final.label] = st.column_config.NumberColumn(final.label, format="%.4f", pinned=True, help=final.help or None)
    cfg[f"{final.label} · rank"] = st.column_config.TextColumn(
        "Final rank", width="small", pinned=True,
        help=f"Rank on “{final.label}”" + (f"; ▲/▼: places gained/lost against “{stages[-2].label}”"
                                           if len(stages) > 1 else ""))
    cfg.update(extra or {})
    return cfg


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
