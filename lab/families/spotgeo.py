"""What the spotGEO pages share: the repair of the parameters (ε kept within τ), the leaderboard
table, the one-sentence takeaways, the picked team / sequence / frame kept in the page's
address, the error breakdowns of one team, the Rules page's texts, and the family's
``UI = FamilyUI(...)``.

Sentences are the engine's (``scoring.claims.spotgeo``), written as markdown with every name
escaped (:data:`~lab.words.text.MD`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pandas as pd
import streamlit as st

from scoring.claims import spotgeo as claims
from scoring.spotgeo import FAMILY, LEADERBOARD_COLUMNS, Scorer, leaderboard_document, load_competition
from scoring.spotgeo import explain as ex
from scoring.spotgeo.rules import ruleset

from ..charts.tables import rank_arrow
from ..view import current, links, tables
from ..words.text import MD
from . import Control, FamilyUI, PageSpec, export_target

FAM = FAMILY
RULE_WORDS, RULE_GIVE = claims.RULE_WORDS, claims.RULE_GIVE
RULE_SHORT = {"seed": "published rules", "starter-kit": "starter-kit code"}
RULE_TAG = {"seed": "published", "starter-kit": "kit"}
HELP = {
    "TP": "True positives: predictions paired one-to-one with a true object at most τ pixels away.",
    "FP": "False positives: predictions left without an object (false alarms). Each adds τ² to the error.",
    "FN": "False negatives: true objects left without a prediction (misses). Each adds τ² to the error.",
    "MSE": "Mean squared error: the position error of the found objects plus τ² for every miss and false alarm, "
           "per detection. It only orders teams with the same F1.",
    "rules": "Published rules: the challenge's scoring page. Starter-kit code: what the official server ran. "
             "They disagree in four places (see the Rules page).",
    "F1": "F1: the balance of precision and recall over all frames; the ranking sorts by it first.",
}


num = claims.num  # a whole number as is (325), else two decimals (532.39)
other = claims.other


# ---- parameters and the leaderboard ---------------------------------------------------------
def _repair(p: dict[str, Any]) -> tuple[dict[str, Any], str | None]:
    """ε lowered to τ when the sliders put it above (the metric needs ε ≤ τ), and why."""
    if p["epsilon"] <= p["tau"]:
        return p, None
    note = (f"ε ({p['epsilon']:g} px) is larger than τ ({p['tau']:g} px); the metric needs ε ≤ τ, so "
            f"ε = {p['tau']:g} px is used. Lower ε or raise τ in the sidebar.")
    return {**p, "epsilon": p["tau"]}, note


def scorer():
    return current.scorer(FAM)


def table(lb: pd.DataFrame, rules: str) -> pd.DataFrame:
    """The leaderboard for display: rank, team, counts, precision, recall, F1, MSE, the rank
    under the other rule set and the change to it (▲ placed higher under the other rules than
    under the current ones — the Rules page's arrows: a rank's arrow is its move against the
    ranking it is compared with)."""
    delta = (lb["rank"] - lb["other_rules_rank"]).astype(int)
    moved = [f"▲{d}" if d > 0 else f"▼{-d}" if d < 0 else "=" for d in delta]
    return pd.DataFrame({
        "Rank": lb["rank"].astype(int).to_numpy(), "Team": lb["submission"].astype(str).to_numpy(),
        "TP": lb["tp"].astype(int).to_numpy(), "FP": lb["fp"].astype(int).to_numpy(),
        "FN": lb["fn"].astype(int).to_numpy(), "Precision": lb["precision"].to_numpy(float),
        "Recall": lb["recall"].to_numpy(float), "F1": lb["f1"].to_numpy(float), "MSE": lb["mse"].to_numpy(float),
        f"Rank ({RULE_TAG[other(rules)]})": lb["other_rules_rank"].astype(int).to_numpy(), "Change": moved,
    })


def column_config(rules: str) -> dict[str, Any]:
    cc = st.column_config
    o = RULE_SHORT[other(rules)]
    return {
        "Rank": cc.NumberColumn("Rank", width="small", pinned=True,
                                help="Highest F1 first; teams with the same F1 are ordered by MSE (smallest first)"),
        "Team": cc.TextColumn("Team", pinned=True),
        **{k: cc.NumberColumn(k, help=HELP[k], width="small") for k in ("TP", "FP", "FN")},
        "Precision": cc.NumberColumn(format="%.4f", help="TP / (TP + FP): the share of predictions that found "
                                                         "an object"),
        "Recall": cc.NumberColumn(format="%.4f", help="TP / (TP + FN): the share of objects found"),
        "F1": cc.NumberColumn(format="%.4f", help=HELP["F1"]),
        "MSE": cc.NumberColumn(format="%.2f", help=HELP["MSE"]),
        f"Rank ({RULE_TAG[other(rules)]})": cc.NumberColumn(
            width="small", help=f"The rank the same predictions get under the {o}. {HELP['rules']}"),
        "Change": cc.TextColumn(width="small", help=f"▲ places gained, ▼ places lost under the {o} "
                                                    f"compared with the {RULE_SHORT[rules]}"),
    }


def leaderboard_csv(lb: pd.DataFrame) -> bytes:
    return tables.csv_bytes(lb, LEADERBOARD_COLUMNS)


def leaderboard_json(lb: pd.DataFrame, p: dict[str, Any]) -> bytes:
    return tables.json_bytes(leaderboard_document(lb, p))


# ---- sentences ---------------------------------------------------------------------------------
def names_text(names: Sequence[str]) -> str:
    """``A``, ``A and B``, ``A, B and C`` (escaped)."""
    return claims.names_text(names, MD)


def moves_text(names: Sequence[str], before: Sequence[int], after: Sequence[int]) -> str | None:
    """How the ranking changes ("A and B swap places", "A 1→2, B 2→3 and C 3→1"), escaped."""
    return claims.moves(names, before, after, MD)


def takeaway_leaderboard(lb: pd.DataFrame, rules: str) -> str:
    """"sharp-eye leads under the published rules; under the starter-kit code near-enough and
    four-off swap places" (``scoring.claims.spotgeo.leaderboard``)."""
    return claims.leaderboard(lb, rules, style=MD)


def tie_note(lb: pd.DataFrame) -> str | None:
    """Teams with the same 1 − F1 (so the MSE orders them), as a sentence."""
    return claims.ties(lb, style=MD)


# ---- the picked team / sequence / frame, kept in the address ---------------------------------
#: the pages' own controls (lab.families.Control); the picks are read before the page's header (its
#: takeaway names them) and their widgets drawn below it, started at the same value
FR_TEAM = Control("sg_team", "team")  # one of the teams, in leaderboard order; default the first
FR_SEQ = Control("sg_seq", "seq")  # one of the ground truth's sequences; default the first
FR_FRAME = Control("sg_frame", "frame")  # one of the sequence's frames; default the first
FR_ZOOM = Control("sg_zoom", "zoom")  # the whole frame or one of its objects
ERR_TEAM = Control("sg_err_team", "team")
RULES_TEAM = Control("sg_rules_team", "team")  # default: the team the starter kit helps most


def linked(ctl: Control, options: Sequence, default, parse: Callable[[str], Any] = str):
    """The pick of control ``ctl`` (``lab.view.links.value``: the address's value when it is one of
    ``options``, else ``default``), written back into the address so that a shared link
    reproduces the view. Draw its widget with :func:`pick`."""
    value = links.value(ctl, options=options, default=default, follow_default=True, parse=parse)
    links.keep(ctl)
    return value


def pick(widget: Callable[..., Any], label: str, ctl: Control, options: Sequence, **kwargs: Any) -> Any:
    """The widget of a pick made by :func:`linked`, started at its value, writing the link on change."""
    v = st.session_state.get(ctl.key)
    opts = list(options)
    start = dict(default=v) if getattr(widget, "__name__", "") == "segmented_control" else dict(
        index=opts.index(v) if v in opts else 0)
    return widget(label, opts, key=ctl.key, on_change=links.keep, args=(ctl,), **start, **kwargs)


def linked_team(ranked: pd.DataFrame, ctl: Control, default: str | None = None) -> tuple[list[str], str]:
    """The teams of a ranked table (its ``submission`` column, in order) and the one picked: the
    address's ``team`` when it is one of them, else ``default`` (else the first); see :func:`linked`."""
    teams = ranked["submission"].astype(str).tolist()
    return teams, linked(ctl, teams, teams[0] if default is None else default)


def frame_keys(comp) -> list[tuple[int, int]]:
    fr = comp.gt.frames
    return list(zip(fr.seq.tolist(), fr.frame.tolist(), strict=True))


def step(comp, seq: int, frame: int, by: int) -> tuple[int, int] | None:
    """The frame ``by`` steps from (seq, frame) in (sequence, frame) order; None past an end."""
    keys = frame_keys(comp)
    i = keys.index((seq, frame)) + by
    return keys[i] if 0 <= i < len(keys) else None


def go_to(seq: int, frame: int) -> None:
    """Button callback: show (seq, frame)."""
    st.query_params[FR_SEQ.link], st.query_params[FR_FRAME.link] = str(seq), str(frame)


def frame_takeaway(view: dict) -> str:
    return claims.frame(view, style=MD)


def sse_text(view: dict) -> str:
    """"SSE = Σ π(d) + τ² · (FN + FP) = 25 + 100 · (1 + 2) = **325**"."""
    return claims.sse(view)


def _maybe(values, fmt: str) -> list[str]:
    return ["—" if v is pd.NA or v != v else format(v, fmt) for v in values]


def objects_table(objects: pd.DataFrame) -> pd.DataFrame:
    """A frame's true objects for display (— where there is no match)."""
    out = objects[["object", "x", "y"] + (["brightness"] if "brightness" in objects else [])].copy()
    out["outcome"] = objects["label"].map({"TP": "TP (found)", "FN": "FN (missed)"})
    out["matched prediction"] = _maybe(objects["prediction"], "d")
    out["d (px)"] = _maybe(objects["d"], ".2f")
    return out


def predictions_table(preds: pd.DataFrame) -> pd.DataFrame:
    out = preds[["prediction", "x", "y"]].copy()
    out["outcome"] = preds["label"].map({"TP": "TP (matched)", "FP": "FP (false alarm)"})
    out["matched object"] = _maybe(preds["object"], "d")
    out["d (px)"] = _maybe(preds["d"], ".2f")
    out["π(d)"] = _maybe(preds["penalty"], ".2f")
    return out


# ---- one team's errors -------------------------------------------------------------------------
def brightness_bins(team: str, p: dict[str, Any]) -> pd.DataFrame | None:
    """Objects, TP, FN and recall per brightness quartile (of all objects), with a label
    "0.6–2.8"; None without brightness in the ground truth."""
    comp = current.competition(FAM)
    if not comp.has_brightness or comp.gt.n_points == 0:
        return None
    edges = np.unique(np.quantile(comp.gt.brightness, [0, 0.25, 0.5, 0.75, 1]))
    if len(edges) < 2:
        edges = np.array([edges[0] - 0.5, edges[0] + 0.5])
    out = ex.fn_by_brightness(scorer(), team, p, bins=edges)
    out["label"] = [f"{a:.1f}–{b:.1f}" for a, b in zip(edges[:-1], edges[1:], strict=True)]
    return out


def mse_parts(lb: pd.DataFrame, p: dict[str, Any]) -> pd.DataFrame:
    """Per team (leaderboard order): the MSE split into ``tp`` (position error of the true
    positives), ``fp`` and ``fn`` (τ² each), added up the way the rule set adds the MSE
    (pooled, or summed over sequences); the three add up to the leaderboard's MSE."""
    sc, rs, t2 = scorer(), ruleset(p["rules"]), p["tau"] ** 2
    rows = []
    for team in lb["submission"]:
        t = sc.sequence_table(sc.names.index(team), tau=p["tau"], epsilon=p["epsilon"], rules=rs)
        parts = np.stack([t["sse"] - t2 * (t["fp"] + t["fn"]), t2 * t["fp"], t2 * t["fn"]])
        den = (t["tp"] + t["fp"] + t["fn"]).astype(float)
        if rs.pooled:
            v = parts.sum(axis=1) / den.sum() if den.sum() > 0 else np.zeros(3)
        else:
            v = np.divide(parts, den, out=np.zeros_like(parts), where=den > 0).sum(axis=1)
        rows.append([str(team), *v])
    return pd.DataFrame(rows, columns=["team", "tp", "fp", "fn"])


def errors_takeaway(team: str, parts: pd.DataFrame, bins: pd.DataFrame | None, costs: pd.DataFrame) -> str:
    return claims.errors(team, parts, bins, costs, style=MD)


# ---- the Rules page ------------------------------------------------------------------------------
def example_team(diffs_ranks: pd.DataFrame) -> str:
    """The team the starter kit helps most (the seed leader when it helps nobody)."""
    gain = diffs_ranks["seed"] - diffs_ranks["starter-kit"]
    if gain.max() > 0:
        return str(diffs_ranks.loc[gain.idxmax(), "submission"])
    return str(diffs_ranks["submission"].iloc[0])


def ranks_table(ranks: pd.DataFrame, diffs: list[dict]) -> pd.DataFrame:
    """Team; rank under the published rules; under it with each single difference switched
    (▲/▼ against the published rules); under the starter-kit code."""
    out = pd.DataFrame({"Team": ranks["submission"].astype(str), "Published": ranks["seed"].astype(int)})
    for n, d in enumerate(diffs, start=1):
        out[f"Only no. {n}"] = [rank_arrow(s, r) for s, r in zip(ranks["seed"], ranks[d["key"]], strict=True)]
    out["Starter kit"] = [rank_arrow(s, r) for s, r in zip(ranks["seed"], ranks["starter-kit"], strict=True)]
    return out


def example_text(d: dict, team: str, tau: float, eps: float) -> str:
    """The live example of one difference, in words (numbers from the data)."""
    return claims.example(d, team, tau, eps, style=MD)


def rules_takeaway(ranks: pd.DataFrame, diffs: list[dict], tau: float) -> str:
    return claims.rules(ranks, diffs, tau, style=MD)


@st.cache_resource(show_spinner=False)
def built_frames(tau: float = 49.5) -> dict[str, dict]:
    """The kit-constant frame (``kit_constant_example``) as a one-frame competition, explained
    under each rule set exactly as the Frames page explains a frame of the data."""
    pred, obj = ex.kit_constant_example(tau)

    def entry(pts):
        return [{"sequence_id": 1, "frame": 1, "num_objects": len(pts), "object_coords": pts.tolist()}]

    sc = Scorer(load_competition(ground_truth=entry(obj), submissions={"built": entry(pred)}))
    return {r: ex.explain_frame(sc, "built", 1, 1, tau=tau, epsilon=0.0, rules=r) for r in ("seed", "starter-kit")}


# ---- the app's declaration of the family -------------------------------------------------------
UI = FamilyUI(
    pages=(
        PageSpec("pages/spotgeo_leaderboard.py", "Leaderboard", ":material/leaderboard:",
                 "Who wins under the challenge's published rules and under the code its server ran.",
                 (export_target("sg_lb_export"),)),
        PageSpec("pages/spotgeo_frames.py", "Frames", ":material/center_focus_strong:",
                 "One frame as the telescope saw it, each prediction matched (or not) to a true object.",
                 (FR_TEAM, FR_SEQ, FR_FRAME, FR_ZOOM)),
        PageSpec("pages/spotgeo_errors.py", "Errors", ":material/troubleshoot:",
                 "Where one team loses: the objects it misses, its false alarms, what its error is made of.",
                 (ERR_TEAM,)),
        PageSpec("pages/spotgeo_rules.py", "Rules", ":material/rule:",
                 "The four differences between the rules and the code, each with its effect on the ranking.",
                 (RULES_TEAM,)),
    ),
    about="Satellite detections in telescope frames: each prediction matched one-to-one to a true object "
          "within a radius τ, teams ranked by 1 − F1 with the mean squared error as tie-breaker.",
    link_keys=("team", "seq", "frame"),
    describe=lambda comp: (f"{len(comp.submission_names)} submissions, {len(comp.sequences):,} sequences, "
                           f"{comp.gt.n_points:,} objects"),
    repair=_repair,
)
