"""What the stakeholder report (``lab.report``) shows of each family beyond the shared parts:
the takeaway sentence, the stage table's extra columns, and the family's main charts —
Shovel-Ready: the group heat map with intervals, the softmin weights, the efficiency chart;
spotGEO: both rule sets; QA: the hidden-weight shares; difficulty: the split chart. The
figures are the app's own (``lab.charts``); a family without an entry here gets the shared
parts only.

Nothing here imports Streamlit: the numbers come straight from the scorer.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from scoring.claims import board
from scoring.core.family import Family
from scoring.core.robustness import stage_intervals

from ..words.text import MD
from .html import esc, frame_table, markdown_text, number

#: A section's content, in order: HTML (already escaped) or a Plotly figure.
Part = str | go.Figure


@dataclass
class Section:
    title: str
    parts: list[Part] = field(default_factory=list)


def _p(text: str) -> str:
    return f'<p class="muted">{text}</p>'


# ---- Shovel-Ready ------------------------------------------------------------------------------
#: the parameters the group scores depend on (as ``lab.families.shovel_ready``)
_GS_KEYS = ("w", "quality", "threshold", "attributes", "overlap_removal", "exclude_missing")
#: replicates behind the heat map's per-group intervals (as the Demographics page)
GROUP_INTERVAL_B = 500


def _sr_extras(lb: pd.DataFrame) -> dict[str, Any]:
    return {"Boost (%)": lb["boost"].astype(float).to_numpy() * 100.0,
            "Eligible": np.where(lb["eligible"].astype(bool), "yes", "no")}


def _sr_sections(fam: Family, scorer: Any, comp: Any, p: Mapping[str, Any], lb: pd.DataFrame,
                 colors: Mapping[str, str]) -> list[Section]:
    import scoring
    from scoring.shovel_ready import softmin_weights

    from ..charts.efficiency import efficiency_figure, efficiency_frame
    from ..charts.shovel_ready import group_heatmap
    from ..words.shovel_ready import boost_summary

    order = [str(t) for t in lb["submission"]]
    groups = Section("Demographic groups")
    if not p.get("attributes") or not getattr(comp, "attributes", None):
        groups.parts.append(_p("No demographic attribute is chosen (or no demographics are loaded): the bias-aware "
                               "score equals the segment score, and there are no groups to show."))
    else:
        sub = {k: p[k] for k in _GS_KEYS}
        gs = scorer.group_scores(**sub)
        low, high = stage_intervals(scorer.unit_stats(**sub), "groups", b=GROUP_INTERVAL_B, seed=0)
        frame = lambda a: pd.DataFrame(a[:, :len(gs.labels)], index=gs.scores.index, columns=gs.labels)  # noqa: E731
        groups.parts.append(group_heatmap(gs, order, intervals=(frame(low), frame(high))))
        groups.parts.append(_p(f"Hover a cell for its 95 % interval: the group's essays resampled "
                               f"{GROUP_INTERVAL_B} times within the group (seed 0)."))
        alpha = float(p["alpha"])
        betas = softmin_weights(gs.scores.loc[order, gs.labels], gs.sizes.reindex(gs.labels), alpha) * 100.0
        a = "∞ (hard minimum)" if math.isinf(alpha) else f"{alpha:g}"
        beta_gs = scoring.GroupScores(scores=betas, sizes=gs.sizes, labels=list(gs.labels))
        groups.parts.append(group_heatmap(beta_gs, order, title=f"Softmin weights β at α = {a}: share of each "
                                          "team's score", value="β (%)", fmt=".1f", colorscale="Blues"))
        groups.parts.append(_p("Each team's β add up to 100 %: the share of its bias-aware score that each group "
                               "contributes. Weight moves to the team's weakest groups as α grows."))
    eff = Section("Efficiency boost")
    runtimes = dict(getattr(comp, "runtimes", {}) or {})
    eff.parts.append(f"<p>{markdown_text(boost_summary(lb, p, has_runtimes=bool(runtimes)))}</p>")
    if runtimes:
        frame_ = efficiency_frame(lb, runtimes)
        eff.parts.append(efficiency_figure(frame_, colors, p["band"], p["window"]))
    return [groups, eff]


# ---- spotGEO -----------------------------------------------------------------------------------
_RULES = {"seed": "Published rules", "starter-kit": "Starter-kit code"}


def _sg_sections(fam: Family, scorer: Any, comp: Any, p: Mapping[str, Any], lb: pd.DataFrame,
                 colors: Mapping[str, str]) -> list[Section]:
    from ..charts.spotgeo import rank_slope

    rules = p["rules"]
    other = "starter-kit" if rules == "seed" else "seed"
    lb_other = scorer.leaderboard(**{**p, "rules": other}).set_index("submission").reindex(lb["submission"])
    both = {rules: lb.set_index("submission"), other: lb_other}
    rows = pd.DataFrame({"submission": lb["submission"].astype(str)})
    for r in ("seed", "starter-kit"):
        t = both[r]
        rows[f"{_RULES[r]}: rank"] = t["rank"].astype(int).to_numpy()
        rows[f"{_RULES[r]}: F1"] = t["f1"].astype(float).to_numpy()
        rows[f"{_RULES[r]}: MSE"] = t["mse"].astype(float).to_numpy()
    sec = Section("Both rule sets")
    sec.parts.append(_p(f"The same predictions scored under the challenge's published rules and under the code "
                        f"its server ran (they differ in four places); τ = {p['tau']:g} px, ε = {p['epsilon']:g} "
                        f"px. The stage table above uses the {esc(_RULES[rules].lower())}."))
    sec.parts.append(frame_table(rows, labels={"submission": "Team"}, team="submission", cls="rules"))
    ranks = pd.DataFrame({"submission": lb["submission"].astype(str), "seed": both["seed"]["rank"].to_numpy(),
                          "starter-kit": both["starter-kit"]["rank"].to_numpy()})
    sec.parts.append(rank_slope(ranks, [("seed", _RULES["seed"]), ("starter-kit", _RULES["starter-kit"])], colors,
                                "Rank under each rule set"))
    return [sec]


# ---- QA ----------------------------------------------------------------------------------------
def _qa_sections(fam: Family, scorer: Any, comp: Any, p: Mapping[str, Any], lb: pd.DataFrame,
                 colors: Mapping[str, str]) -> list[Section]:
    from scoring.core.family import Stage

    from ..charts.common import bump_chart
    from ..charts.qa import chance_first, rank_range

    moves = Section("Weights against equal weights")
    moves.parts.append(_p("▲/▼: places gained or lost under the weights used against equal weights."))
    stages = (Stage("equal_final_score", "Equal weights", "equal_rank"), Stage("final_score", "Weights used", "rank"))
    moves.parts.append(bump_chart(scorer.rank_changes(**p), stages, colors, title="Rank with equal weights and with "
                                  "the weights used").update_xaxes(title=None))
    draws = p.get("weight_draws")
    sec = Section("Hidden weights")
    sec.parts.append(_p(f"The organisers keep the theme weights secret: the teams are ranked under "
                        f"{number(int(draws)) if draws is not None else 'many'} weight vectors drawn uniformly at "
                        f"random (seed {esc(p.get('seed'))}) — how often each is first, and its best, median and "
                        "worst rank."))
    sec.parts.append(chance_first(lb, colors))
    sec.parts.append(rank_range(lb, colors))
    shares = pd.DataFrame({"submission": lb["submission"].astype(str),
                           "first_in_pct": lb["p_first"].astype(float).to_numpy() * 100.0,
                           "best_rank": lb["best_rank"].astype(int).to_numpy(),
                           "median_rank": lb["median_rank"].astype(float).to_numpy(),
                           "worst_rank": lb["worst_rank"].astype(int).to_numpy(),
                           "rank": lb["rank"].astype(int).to_numpy()})
    sec.parts.append(frame_table(shares, team="submission", cls="hidden", digits=1, labels={
        "submission": "Team", "first_in_pct": "First in (%)", "rank": "Rank under the weights used"}))
    weights = dict(lb.attrs.get("weights") or {})
    if weights:
        total = sum(weights.values()) or 1.0
        w = pd.DataFrame({"theme": list(weights), "weight": [float(v) for v in weights.values()],
                          "share_pct": [100.0 * float(v) / total for v in weights.values()]})
        sec.parts.append("<h3>Theme weights used</h3>")
        sec.parts.append(frame_table(w, labels={"theme": "Theme", "weight": "Weight", "share_pct": "Share (%)"}))
    return [moves, sec]


# ---- difficulty --------------------------------------------------------------------------------
def _df_takeaway(fam: Family, lb: pd.DataFrame, p: Mapping[str, Any]) -> str:
    from ..words.difficulty import leaderboard_takeaway

    return leaderboard_takeaway(lb)


def _df_sections(fam: Family, scorer: Any, comp: Any, p: Mapping[str, Any], lb: pd.DataFrame,
                 colors: Mapping[str, str]) -> list[Section]:
    from scoring.difficulty import split_columns

    from ..charts.difficulty import multi_line, parallel

    metric = fam.params["metric"].choice_label(p["metric"])
    sec = Section("Splits")
    sec.parts.append(multi_line(lb, colors, metric))
    splits = split_columns(lb)
    full = [c for c in splits if np.isfinite(lb[c].to_numpy(float)).all()]
    if p.get("split_mode") == "continuous" or not full:
        sec.parts.append(_p("With continuous weights (or no split that every model has samples in) there are no "
                            "splits to compare."))
        return [sec]
    sec.parts.append(parallel(lb, full, colors))
    table = lb[["submission", *splits]].rename(columns={c: c.replace("split_", "Split ") for c in splits})
    sec.parts.append(_p("Each split's score is the leaderboard's score computed within that split alone (split 1: "
                        "the easiest)."))
    sec.parts.append(frame_table(table, labels={"submission": "Model"}, team="submission", digits=1))
    return [sec]


@dataclass(frozen=True)
class FamilyReport:
    #: (family, leaderboard, parameters) -> the takeaway, as markdown (``scoring.claims``)
    takeaway: Callable[[Family, pd.DataFrame, Mapping[str, Any]], str] = (
        lambda fam, lb, p: board.family_winner(fam, lb, p, style=MD))
    #: columns added to the final result's group of the stage table
    extras: Callable[[pd.DataFrame], Mapping[str, Any]] | None = None
    #: (family, scorer, competition, parameters, leaderboard, colours) -> the family's sections
    sections: Callable[..., list[Section]] = lambda *a: []


FAMILIES: dict[str, FamilyReport] = {
    "shovel-ready": FamilyReport(extras=_sr_extras, sections=_sr_sections),
    "spotgeo": FamilyReport(sections=_sg_sections),
    "qa": FamilyReport(sections=_qa_sections),
    "difficulty": FamilyReport(takeaway=_df_takeaway, sections=_df_sections),
}


def family_report(fam: Family) -> FamilyReport:
    return FAMILIES.get(fam.name, FamilyReport())
