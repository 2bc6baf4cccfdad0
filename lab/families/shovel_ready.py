"""What the Shovel-Ready pages share: the family, its stage table with the boost columns,
group scores and the α sweep of the current parameters, downloads, essay text and team
profiles of the data shown, and one submission re-read per session."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import streamlit as st

import scoring
from scoring.core.family import InputSpec
from scoring.core.params import Params
from scoring.core.robustness import stage_intervals
from scoring.shovel_ready import FAMILY, LEADERBOARD_COLUMNS, STAGES, leaderboard_document

from ..charts import tables as frames
from ..charts.efficiency import efficiency_frame  # noqa: F401  (re-exported for the pages)
from ..view import current, state, tables
from ..words import glossary
from ..words.shovel_ready import STAGE_WORDS, boost_summary  # noqa: F401  (boost_summary: for the pages)
from . import Control, FamilyUI, PageSpec, export_target, stage_table_toggle

FAM = FAMILY
SWEEP_ALPHAS = tuple(float(a) for a in range(0, 201, 2))
_GS_KEYS = ("w", "quality", "threshold", "attributes", "overlap_removal", "exclude_missing")

#: The boost and eligibility go with the final result (the boost is the step into it).
EXTRAS = {"final_score": lambda lb: {"Boost": lb["boost"].astype(float).to_numpy() * 100.0,
                                     "Eligible": np.where(lb["eligible"].astype(bool), "yes", "no")}}
EXTRA_CONFIG = {
    (frames.FINAL_GROUP, "Boost"): st.column_config.NumberColumn(
        "Boost", format="%.2f %%", width=tables.SCORE_WIDTH,
        help="The efficiency boost: the fastest team within the eligibility band of the best bias-aware score "
             "gets the maximum boost, slower ones less, down to none at the end of the slowdown window"),
    (frames.FINAL_GROUP, "Eligible"): st.column_config.TextColumn(
        "Eligible", width=tables.RANK_WIDTH, help="Within the eligibility band of the best bias-aware score, with a runtime: "
                                        "only eligible teams can earn a boost"),
}


def stage_table(lb: pd.DataFrame) -> pd.DataFrame:
    """The five stages grouped, the final result (rank, score, boost, eligible) first."""
    return frames.stage_table(lb, STAGES, EXTRAS)


def show_stage_table(lb: pd.DataFrame, key: str = "lb_table") -> pd.DataFrame:
    return tables.show_stage_table(lb, STAGES, key=key, extras=EXTRAS, extra_config=EXTRA_CONFIG)


def group_scores(p: Mapping[str, Any] | None = None) -> scoring.GroupScores:
    """Segment scores per group for the current (or the given) parameters (only those they
    depend on)."""
    p = current.params(FAM) if p is None else p
    sc = current.scorer(FAM)
    return sc.group_scores(p) if isinstance(p, Params) else sc.group_scores(**{k: p[k] for k in _GS_KEYS})


#: Replicates behind the Demographics heatmap's per-group intervals (hover).
GROUP_INTERVAL_B = 500


@st.cache_data(show_spinner=False, max_entries=32)
def _group_intervals(digest: str, key: tuple, b: int, _scorer: Any, _p: dict) -> tuple[pd.DataFrame, pd.DataFrame]:
    us = _scorer.unit_stats(_p)  # checked parameters (Params) are not checked again
    low, high = stage_intervals(us, "groups", b=b, seed=0)
    gs = _scorer.group_scores(_p) if isinstance(_p, Params) else _scorer.group_scores(**_p)
    frame = lambda a: pd.DataFrame(a[:, :len(gs.labels)], index=gs.scores.index, columns=gs.labels)  # noqa: E731
    return frame(low), frame(high)


def group_intervals(p: Mapping[str, Any] | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """95 % bootstrap intervals (low, high) of every team's score on every group: each group's
    essays resampled within the group, :data:`GROUP_INTERVAL_B` replicates, seed 0."""
    p = current.params(FAM) if p is None else p
    sub = {k: p[k] for k in _GS_KEYS}  # the intervals depend on these alone: the cache's key
    return _group_intervals(current.entry(FAM).digest, tuple(sub.items()), GROUP_INTERVAL_B, current.scorer(FAM),
                            p if isinstance(p, Params) else sub)


@st.cache_data(show_spinner="Sweeping α from 0 to 200…", max_entries=64)
def _alpha_sweep(digest: str, key: tuple, _gs: Any) -> pd.DataFrame:
    return scoring.alpha_sweep(_gs.scores[_gs.labels], _gs.sizes.reindex(_gs.labels), SWEEP_ALPHAS)


def alpha_sweep(p: Mapping[str, Any] | None = None) -> pd.DataFrame:
    """The α sweep (0–200) for the current group scores; moving α itself does not redo it."""
    p = current.params(FAM) if p is None else p
    key = tuple((k, p[k]) for k in _GS_KEYS)
    return _alpha_sweep(current.entry(FAM).digest, key, group_scores(p))


def leaderboard_csv(lb: pd.DataFrame) -> bytes:
    """The leaderboard as formula-safe CSV: the CLI's columns, then one column per group score."""
    return tables.csv_bytes(lb, LEADERBOARD_COLUMNS + [c for c in lb.columns if c not in LEADERBOARD_COLUMNS])


def leaderboard_json(lb: pd.DataFrame, p: Mapping[str, Any] | None = None) -> bytes:
    """The engine's JSON document (``scoring.leaderboard_document``), formula-safe."""
    return tables.json_bytes(leaderboard_document(lb, current.params(FAM) if p is None else p))


# ---- text and profiles of the data shown ------------------------------------------------------
def _essays_from_text(text: str) -> dict[str, list[str]]:
    reader = csv.DictReader(io.StringIO(text, newline=""))
    fields = reader.fieldnames or []
    col = next((c for c in ("text", "essay_text", "full_text") if c in fields), None)
    if "id" not in fields or col is None:
        return {}
    return {(row["id"] or "").strip(): (row[col] or "").split() for row in reader}


@st.cache_resource(show_spinner=False, max_entries=4)
def _essays_file(path: str, mtime_ns: int) -> dict[str, list[str]]:
    # shared by every session that shows this folder; mtime_ns keys the cache only
    return _essays_from_text(Path(path).read_text(encoding="utf-8-sig"))


@st.cache_resource(show_spinner=False, max_entries=8)
def _essays_upload(digest: str, _data: bytes) -> dict[str, list[str]]:
    # keyed by the upload's content digest: only sessions holding the digest reach it
    try:
        return _essays_from_text(_data.decode("utf-8-sig"))
    except (UnicodeDecodeError, csv.Error):
        return {}


def essay_words(essay_id: str) -> list[str] | None:
    """The words of one essay — from the data folder's ``essays.csv`` or an uploaded one;
    ``None`` when there is no text for it."""
    e = current.entry(FAM)
    if e.folder is not None:
        path = Path(e.folder) / "essays.csv"
        if not path.is_file():
            return None
        return _essays_file(str(path), path.stat().st_mtime_ns).get(essay_id)
    item = e.extras.get("essays")
    return _essays_upload(e.digest, item[1]).get(essay_id) if item else None


@st.cache_resource(show_spinner=False, max_entries=8)
def _profiles(path: str, mtime_ns: int) -> dict[str, str]:
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): str(v) for k, v in doc.items()} if isinstance(doc, dict) else {}


def team_profiles() -> dict[str, str]:
    """Team name -> one-sentence profile from the data folder's ``teams.json`` (or the
    sample's, beside its folder); never from an upload."""
    e = current.entry(FAM)
    if e.folder is None:
        return {}
    candidates = [Path(e.folder) / "teams.json"]
    import sample_data

    if Path(e.folder).resolve() == Path(sample_data.SAMPLE_DIR).resolve():
        candidates.append(Path(sample_data.TEAMS_PATH))
    for path in candidates:
        if path.is_file():
            return _profiles(str(path), path.stat().st_mtime_ns)
    return {}


@st.cache_data(show_spinner=False, max_entries=16)
def _submission(digest: str, name: str, _comp: Any) -> pd.DataFrame:
    # keyed by the data's content digest: only sessions holding the digest reach it
    return _comp.read_submission(name)


def submission(name: str) -> pd.DataFrame:
    """Submission ``name`` re-read as its canonical frame, kept by content for every session
    that shows the same data."""
    e = current.entry(FAM)
    return _submission(e.digest, name, e.comp)


# ---- the app's declaration of the family ------------------------------------------------------
#: Why the overlap quality is off at w = 0 (SPEC: a match earns TP_P = w·q + (1 − w)·d[E])
QUALITY_UNUSED = "not used at w = 0: a match then earns only (1 − w)·d[E], whatever its overlap"


def _shovel_ready_disabled(values, comp) -> dict[str, str]:
    off = {"quality": QUALITY_UNUSED} if float(values.get("w", 1.0)) == 0.0 else {}
    if not comp.attributes:
        why = "No demographics loaded: nothing to aggregate."
    elif not values.get("attributes"):
        why = "No attribute chosen: nothing to aggregate."
    else:
        return off
    return {**off, "alpha": why, "exclude_missing": why}


def _shovel_ready_note(group: str, comp) -> str | None:
    if group == "Bias aggregation" and not comp.attributes:
        return "No demographics loaded: the bias score equals the segment score."
    if group == "Segment scoring" and float(state.values(FAM).get("w", 1.0)) == 0.0:
        return ("At w = 0 the overlap quality has no effect: a match earns only (1 − w)·d[E]. Raise w to grade "
                "overlaps.")
    return None


def _warm(entry, p: Mapping[str, Any]) -> None:
    """Once per server on the default data: the Demographics page's group scores and α sweep."""
    if p.get("attributes"):
        gs = entry.scorer.group_scores(**{k: p[k] for k in _GS_KEYS})
        _alpha_sweep(entry.digest, tuple((k, p[k]) for k in _GS_KEYS), gs)


#: the pages' own controls (lab.families.Control: widget key, link key, default, range)
LB_TEAM = Control("lb_team", "team")  # one of the teams; default the leader, followed until one is picked
EFF_TEAM = Control("eff_team", "whatif")  # "A new submission" or a team (the link says "new" for the first)
EFF_ZOOM = Control("eff_zoom", "zoom", "bool", True)
EFF_SCORE = Control("eff_score", "score", "number", low=0.0, high=1.0)  # default: the start's score
EFF_RUNTIME = Control("eff_runtime", "runtime", "number", low=1e-6)  # default: the start's runtime
SEG_TEAM = Control("seg_team", "team")
SEG_ESSAY = Control("seg_essay", "essay")
SEG_CHANGED = Control("seg_only_changed", "changed", "bool", False)
EX_W = Control("ex_w", "ex_w", "number", 0.5, low=0.0, high=1.0, step=0.05)
EX_ALPHA = Control("ex_alpha", "ex_alpha", "number", 50.0, low=0.0, high=200.0, step=1.0)

UI = FamilyUI(
    pages=(
        PageSpec("pages/leaderboard.py", "Leaderboard", ":material/leaderboard:",
                 "Who wins, stage by stage, and which step lifts each team.",
                 (LB_TEAM, stage_table_toggle("lb_table"), export_target("lb_export"))),
        PageSpec("pages/demographics.py", "Demographics", ":material/groups:",
                 "How each team scores on each group of essays, and how much the worst group weighs."),
        PageSpec("pages/efficiency.py", "Efficiency", ":material/speed:",
                 "Who gets the efficiency boost, and what a faster or better run would earn.",
                 (EFF_ZOOM, EFF_TEAM, EFF_SCORE, EFF_RUNTIME)),
        PageSpec("pages/segments.py", "Segments", ":material/segment:",
                 "One essay's words with every predicted and true segment, and what overlap removal drops.",
                 (SEG_TEAM, SEG_ESSAY, SEG_CHANGED)),
        PageSpec("pages/worked_examples.py", "Worked examples", ":material/calculate:",
                 "The memo's numbers, computed live: the best place to learn the metric.",
                 (EX_W, EX_ALPHA)),
    ),
    about="Segment predictions over student essays scored against ground truth, with a fractional true "
          "positive, a bias penalty over demographic groups and a boost for fast submissions.",
    defaults={"attributes": ("ell_status",)},
    link_keys=("team", "essay", "whatif", "score", "runtime"),
    reset_label="Reset to memo defaults",
    reset_help="Every parameter back to the defaults of the memo — " + glossary.TERMS["memo"],
    disabled=_shovel_ready_disabled,
    group_note=_shovel_ready_note,
    describe=lambda comp: f"{len(comp.submission_names)} submissions, {len(comp.essays)} essays",
    warm=_warm,
    extra_inputs=(InputSpec("essays", "Essay texts", "id plus a text column (text, essay_text or full_text): "
                            "the Segments page then shows the words instead of numbered boxes", required=False,
                            path="essays.csv"),),
)
