"""What the QA pages share: the family and its current parameters (with the theme weights'
starting point and shares, and why parameters cannot be scored, in words), the engine's views
the pages show, the link keys of the page's own picks (``lab.view.links``), one-sentence takeaways
computed from the current numbers, the paragraph texts of the data shown, and the app's
declaration of the family (``UI``).

**Theme weights in the sidebar.** The shared sidebar draws one slider per theme
(``qa_weights.<theme>``) over the parameter's slider range (0–1). They start at the data's
weights — the weights file's, else equal weights (``FamilyUI.data_defaults``), which the
reset button and a preset without weights return to. A weights file with a weight above 1
cannot be shown on the sliders as given; the sliders then start at the file's **shares**
(each weight ÷ their sum): ranks, shares and the hidden-weight results are those of the
file, final scores are the file's ÷ that sum, and the Leaderboard page says so.
"""

from __future__ import annotations

import csv
import io
import math
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd
import streamlit as st

from scoring.claims import qa as claims
from scoring.core.errors import InputError
from scoring.core.family import InputSpec
from scoring.qa import FAMILY, csv_columns, explain_question, leaderboard_document

from ..charts.colors import class_colours
from ..charts.qa import METRIC_LABELS
from ..view import current, state, tables
from ..words.text import MD, md
from . import Control, FamilyUI, PageSpec, export_target

FAM = FAMILY
WEIGHTS = FAM.params["weights"]
STEP_MS = 10.0
#: the page picks kept in the link (cleared by the reset button)
LINK_QUESTION, LINK_THEMES = "question", "themes"
#: the pages' own controls (lab.families.Control)
QUESTION = Control("qa_question", LINK_QUESTION)  # one of the questions; default the first
MAP_THEMES = Control("qa_map_themes", LINK_THEMES, "many")  # 2-3 themes; default where the teams differ most

AIT_HELP = ("Average inference time: the team's mean time per question on this theme, in milliseconds. "
            "Above the time threshold T the theme's score is scaled down.")
MULT_HELP = ("Speed multiplier: 1 when the theme's average time (AIT) is at or under the threshold T, "
             "else T ÷ AIT — e.g. 0.5 for a team twice as slow as allowed. The theme's score is "
             "(answer F1 + paragraph accuracy) × multiplier.")
P_FIRST_HELP = ("p_first: in how many of the random weightings (weights drawn uniformly, every split of "
                "the themes equally likely) the team ranks first. Teams tied for first each count it.")


# ---- theme weights: the sliders' starting point ---------------------------------------------
def weight_key(theme: str) -> str:
    return f"{state.key(FAM, 'weights')}.{theme}"


def start_weights(comp) -> tuple[dict[str, float], float]:
    """``(weights, divisor)``: the weights the sliders start from — the file's, else equal —
    and what they were divided by to fit the sliders (1, or the sum of a file's weights when
    one of them is above the slider's top)."""
    w = {t: float(v) for t, v in comp.default_weights.items()}
    top = max(w.values(), default=0.0)
    if top > WEIGHTS.slider[1] + 1e-12:
        # shares through the largest weight first, so that weights near the largest float keep
        # their shares (their plain sum overflows to inf, and every share to 0); the divisor
        # itself may still be inf, said so in words (divisor_text)
        scaled = {t: v / top for t, v in w.items()}
        total = sum(scaled.values())
        return {t: v / total for t, v in scaled.items()}, top * total
    return w, 1.0


def divisor_text(divisor: float) -> str:
    """The sum of a weights file's weights in words: ``2.5``, or beyond the largest float.

    >>> divisor_text(2.5), divisor_text(float("inf"))
    ('2.5', 'more than 1.8e+308')
    """
    return f"{divisor:g}" if math.isfinite(divisor) else f"more than {sys.float_info.max:.2g}"


def _weights_note(group: str, comp) -> str | None:
    """Under the sidebar's Score group: the weights are used as given, and their shares now."""
    if group != WEIGHTS.group:
        return None
    w = {t: float(st.session_state.get(weight_key(t), 0.0)) for t in comp.themes}
    total = sum(w.values())
    if total <= 0:
        return "Weights are used as given. Every weight is 0 now: move one above 0."
    shares = ", ".join(f"{t} {100 * v / total:.0f} %" for t, v in sorted(w.items(), key=lambda kv: (-kv[1], kv[0])))
    return f"Weights are used as given, not normalised. Their shares now: {shares}."


# ---- parameters and the engine's views -------------------------------------------------------
def _problem(err: InputError) -> str:
    """``FamilyUI.problem``: why the parameters cannot be scored, in words."""
    if err.file == "weights" and "at least one weight > 0" in err.problem:
        return ("every theme weight is 0, so there is nothing to score. Move at least one weight slider in the "
                "sidebar above 0.")
    return f"{md(err.file)}: {md(err.problem)}."


def _scorer():
    return current.scorer(FAM)


def leaderboard(p: Mapping[str, Any]) -> pd.DataFrame:
    return _scorer().leaderboard(p)


def theme_table(p: Mapping[str, Any]) -> pd.DataFrame:
    return _scorer().theme_table(p)


def rank_changes(p: Mapping[str, Any]) -> pd.DataFrame:
    return _scorer().rank_changes(p)


def speed_table(p: Mapping[str, Any]) -> pd.DataFrame:
    return _scorer().speed_table(p, step_ms=STEP_MS)


def winner_regions(p: Mapping[str, Any], themes: Sequence[str]) -> dict:
    return _scorer().winner_regions(p, themes=list(themes))


def theme_colors() -> dict[str, str]:
    return class_colours(current.competition(FAM).themes)


def weights_label(p: Mapping[str, Any]) -> str:
    """How to name the current weights in a sentence."""
    comp = current.competition(FAM)
    w = p["weights"]
    start = start_weights(comp)[0]
    if all(abs(w[t] - start[t]) <= 1e-9 for t in w) and comp.theme_weights is not None:
        return "the file's weights"
    vals = list(w.values())
    return "equal weights" if max(vals) - min(vals) <= 1e-12 else "the current weights"


def leaderboard_csv(lb: pd.DataFrame) -> bytes:
    return tables.csv_bytes(lb, csv_columns(lb))


def leaderboard_json(lb: pd.DataFrame, p: Mapping[str, Any]) -> bytes:
    return tables.json_bytes(leaderboard_document(lb, p))


# ---- the leaderboard table's column settings ---------------------------------------------------
def leaderboard_columns(themes: Sequence[str]) -> dict[str, Any]:
    cc = st.column_config
    cfg: dict[str, Any] = {
        "Team": cc.TextColumn("Team", pinned=True),
        "Rank": cc.TextColumn("Rank", pinned=True, width="small",
                              help="Rank under the current weights; ▲/▼: places gained/lost against equal weights"),
        "Final score": cc.NumberColumn("Final score", format="%.4f", pinned=True,
                                       help="Σ over themes of weight × theme score"),
        "Rank with equal weights": cc.NumberColumn("Rank, equal weights", format="%d",
                                                   help="The rank if every theme weighed the same"),
    }
    helps = {"accuracy": "Share of the theme's questions whose paragraph is right",
             "F1": "Mean answer token F1 (after normalisation) over the theme's questions",
             "AIT (ms)": AIT_HELP, "multiplier": MULT_HELP, "score": "(F1 + accuracy) × multiplier"}
    fmts = {"accuracy": "%.3f", "F1": "%.3f", "AIT (ms)": "%.1f", "multiplier": "%.3f", "score": "%.4f"}
    for t in themes:
        for _, label in METRIC_LABELS:
            cfg[f"{t} · {label}"] = cc.NumberColumn(f"{t} · {label}", format=fmts[label], help=helps[label])
    return cfg


def default_map_themes(lb: pd.DataFrame, k: int = 3) -> list[str]:
    """The themes on which the teams that can be first (p_first > 0; all teams when fewer
    than two can) differ most — largest spread of theme scores; ties by name; in theme order."""
    themes = list(lb.attrs["themes"])
    rows = lb[lb["p_first"] > 0]
    rows = rows if len(rows) >= 2 else lb
    spread = {t: float(rows[f"{t}:score"].max() - rows[f"{t}:score"].min()) for t in themes}
    top = sorted(themes, key=lambda t: (-spread[t], t))[:k]
    return [t for t in themes if t in top]


# ---- takeaways: the engine's sentences (``scoring.claims.qa``), as markdown ------------------------
literal_match = claims.literal_match


def leaderboard_takeaway(lb: pd.DataFrame, changes: pd.DataFrame, label: str) -> str:
    return claims.leaderboard(lb, changes, label, style=MD)


def hidden_takeaway(lb: pd.DataFrame, draws: int) -> str:
    return claims.hidden(lb, draws, style=MD)


def speed_takeaway(sp: pd.DataFrame, order: Sequence[str], threshold: float, n_themes: int) -> str:
    return claims.speed(sp, order, threshold, n_themes, STEP_MS, style=MD)


def question_takeaway(ex: Mapping[str, Any]) -> str:
    return md(claims.question(ex))


# ---- one question ------------------------------------------------------------------------------
def explain(question_id: str) -> dict:
    return explain_question(current.competition(FAM), question_id)


def question_label(comp) -> Any:
    """``question id -> "ast-1-1 · astronomy · Who founded …"`` for the question picker."""
    gt = comp.gt
    index = {q: i for i, q in enumerate(gt.questions)}

    def label(q: str) -> str:
        i = index[q]
        text = gt.text[i] if gt.text is not None else ""
        text = text if len(text) <= 90 else text[:87] + "…"
        return " · ".join(x for x in (q, gt.themes[int(gt.theme[i])], text) if x)
    return label


# ---- paragraph texts of the data shown ---------------------------------------------------------
def _paragraphs_from_text(text: str) -> dict[str, str]:
    reader = csv.DictReader(io.StringIO(text, newline=""))
    fields = reader.fieldnames or []
    key = next((c for c in ("paragraph_id", "id") if c in fields), None)
    if key is None or "text" not in fields:
        return {}
    return {(row[key] or "").strip(): row["text"] or "" for row in reader}


@st.cache_resource(show_spinner=False, max_entries=4)
def _paragraphs_file(path: str, mtime_ns: int) -> dict[str, str]:
    # shared by every session that shows this folder; mtime_ns keys the cache only
    return _paragraphs_from_text(Path(path).read_text(encoding="utf-8-sig"))


@st.cache_resource(show_spinner=False, max_entries=8)
def _paragraphs_upload(digest: str, _data: bytes) -> dict[str, str]:
    # keyed by the upload's content digest: only sessions holding the digest reach it
    try:
        return _paragraphs_from_text(_data.decode("utf-8-sig"))
    except (UnicodeDecodeError, csv.Error):
        return {}


def paragraphs() -> dict[str, str]:
    """Paragraph id -> text, from the data folder's ``paragraphs.csv`` or an uploaded one
    (empty when there is none)."""
    e = current.entry(FAM)
    if e.folder is not None:
        path = Path(e.folder) / "paragraphs.csv"
        if not path.is_file():
            return {}
        try:
            return _paragraphs_file(str(path), path.stat().st_mtime_ns)
        except (OSError, UnicodeDecodeError, csv.Error):
            return {}
    item = e.extras.get("paragraphs")
    return _paragraphs_upload(e.digest, item[1]) if item else {}


# ---- the app's declaration of the family --------------------------------------------------------
UI = FamilyUI(
    pages=(
        PageSpec("pages/qa_leaderboard.py", "Leaderboard", ":material/leaderboard:",
                 "Who wins with the theme weights used, and how the ranking looks with equal weights.",
                 (export_target("qa_lb_export"),)),
        PageSpec("pages/qa_hidden_weights.py", "Hidden weights", ":material/casino:",
                 "Each team's chance of each rank when the organisers' theme weights are unknown.",
                 (MAP_THEMES,)),
        PageSpec("pages/qa_speed.py", "Speed penalty", ":material/timer:",
                 "What the inference-time penalty costs each team, and where the threshold bites."),
        PageSpec("pages/qa_questions.py", "Questions", ":material/quiz:",
                 "One question: the paragraphs and answers each team gave, and how they scored.",
                 (QUESTION,)),
    ),
    about="Question answering scored per theme — the right paragraph found, the answer's token F1 — with a "
          "penalty for slow inference and theme weights the organisers keep hidden.",
    link_keys=(LINK_QUESTION, LINK_THEMES),
    data_defaults=lambda comp: {"weights": start_weights(comp)[0]},
    group_note=_weights_note,
    problem=_problem,
    describe=lambda comp: (f"{len(comp.submission_names)} submissions, {len(comp.questions)} questions, "
                           f"{len(comp.themes)} themes"),
    extra_inputs=(InputSpec("paragraphs", "Paragraph texts", "paragraph_id, text (other columns ignored): the "
                            "Questions page then shows the text of a question's paragraphs", required=False,
                            path="paragraphs.csv"),),
)
