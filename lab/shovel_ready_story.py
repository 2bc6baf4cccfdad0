"""The Shovel-Ready pages' sentences, written from the current numbers (markdown, names
escaped): the stage words of the takeaways, the boost summary under the leaderboard, and the
takeaway of the Demographics, Efficiency and Segments pages."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from scoring.claims.board import SHOVEL_READY_WORDS
from scoring.shovel_ready import eligibility_threshold, softmin_weights

from .story import count, margin, names, ordinal
from .text import md

#: stage id -> (short name, what moves a team into it): the engine's (``scoring.claims.board``)
STAGE_WORDS = SHOVEL_READY_WORDS


def pct(x: float) -> str:
    """A share as a percentage: ``5 %``, ``2.5 %``, ``99.8 %``."""
    return f"{x * 100:.3g} %"


def boost_summary(lb: pd.DataFrame, p: Mapping[str, Any], has_runtimes: bool = True) -> str:
    """Who the efficiency stage concerns at these parameters, in one line (so that a move of
    the band, the maximum boost or the window visibly changes the page)."""
    if lb.empty:
        return ""
    if not has_runtimes:
        return ("**Efficiency boost:** no runtimes are loaded, so no team is eligible and the final score is the "
                "bias-aware score.")
    best = float(lb["bias_score"].max())
    elig = lb[lb["eligible"].astype(bool)]
    boosted = lb[lb["boost"].astype(float) > 0].sort_values("boost", ascending=False)
    head = (f"**Efficiency boost:** {len(elig)} of {count(len(lb), 'team')} "
            f"{'is' if len(elig) == 1 else 'are'} eligible (a runtime and a bias-aware score within "
            f"{pct(p['band'])} of the best, at least {eligibility_threshold(best, p['band']):.4f})")
    if boosted.empty:
        return head + "; no team gets a boost."
    got = ", ".join(f"**{md(r['submission'])}** +{float(r['boost']) * 100:.2f} %" for r in boosted.to_dict("records")[:4])
    more = f" and {count(len(boosted) - 4, 'other')}" if len(boosted) > 4 else ""
    return (head + f"; {count(len(boosted), 'gets', 'get')} a boost (at most {pct(p['max_boost'])}, none beyond "
            f"{pct(p['window'])} slower than the fastest eligible): {got}{more}.")


def demographics_takeaway(lb: pd.DataFrame, gs: Any, p: Mapping[str, Any]) -> str:
    """Who the bias stage moves most at this α, and which group carries its weight."""
    alpha = p["alpha"]
    a = "∞" if math.isinf(alpha) else f"{alpha:g}"
    attrs = ", ".join(p["attributes"])
    recs = lb.to_dict("records")
    drops = sorted(recs, key=lambda r: (int(r["segment_score_rank"]) - int(r["bias_score_rank"]),
                                        -float(r["segment_score"]) + float(r["bias_score"])))
    worst = drops[0]
    moved = int(worst["bias_score_rank"]) - int(worst["segment_score_rank"])
    team = str(worst["submission"])
    betas = softmin_weights(gs.scores.loc[[team], gs.labels], gs.sizes.reindex(gs.labels), alpha).iloc[0]
    heavy = str(betas.idxmax())
    where = (f"its weakest group, {md(heavy)} ({float(gs.scores.loc[team, heavy]):.3f}, "
             f"{count(int(gs.sizes[heavy]), 'essay')}), carries {betas.max() * 100:.0f} % of its weight")
    if moved > 0:
        return (f"At α = {a} on {md(attrs)}, {names([team])} falls furthest: {ordinal(int(worst['segment_score_rank']))} "
                f"on the segment score, {ordinal(int(worst['bias_score_rank']))} after the bias aggregation — {where}.")
    lost = float(worst["segment_score"]) - float(worst["bias_score"])
    return (f"At α = {a} on {md(attrs)} the bias aggregation moves no team's rank; {names([team])} loses the most "
            f"score ({margin(lost)}): {where}.")


def efficiency_takeaway(eff: pd.DataFrame, p: Mapping[str, Any]) -> str:
    """Who gets the boost and what it does to the ranking."""
    if eff["runtime"].isna().all():
        return "No runtimes are loaded, so nobody is eligible for the boost: the final ranking is the bias-aware one."
    elig = eff[eff["eligible"].astype(bool)].sort_values("runtime")
    if elig.empty:
        return "No team with a runtime is within the eligibility band: the final ranking is the bias-aware one."
    fastest = elig.iloc[0]
    out = (f"{count(len(elig), 'team')} {'is' if len(elig) == 1 else 'are'} within {pct(p['band'])} of the best "
           f"bias-aware score; {names([str(fastest['team'])])}, the fastest of them ({float(fastest['runtime']):,.4g} s), "
           f"gets {'the full ' + pct(p['max_boost']) if float(fastest['boost']) > 0 else 'no'} boost")
    before = dict(zip(eff["team"], eff["score"].rank(ascending=False, method="min").astype(int), strict=True))
    t = str(fastest["team"])
    if int(fastest["rank"]) < before[t]:
        out += f" and climbs from {ordinal(before[t])} to {ordinal(int(fastest['rank']))}"
    else:
        out += f" and finishes {ordinal(int(fastest['rank']))}"
    return out + "."


def segments_takeaway(team: str, essay: str, n_gt: int, n_pred: int, n_matched: int, n_trimmed: int,
                      n_discarded: int, removal: bool) -> str:
    """What one team did on one essay."""
    out = (f"On essay {md(essay)}, {names([team])} matched {n_matched} of {count(n_gt, 'ground-truth segment')} "
           f"with {count(n_pred, 'prediction')}")
    if n_trimmed or n_discarded:
        out += (f"; overlap removal trimmed {n_trimmed} and discarded {n_discarded}"
                + ("" if removal else " (switched off: the scoring uses them as submitted)"))
    return out + "."


def worked_takeaway(checks: Sequence[bool]) -> str:
    ok = int(np.sum(checks))
    if ok == len(checks):
        return f"The engine agrees with all {len(checks)} of the memo's worked examples checked on this page."
    return f"The engine disagrees with the memo on {len(checks) - ok} of {len(checks)} examples: see the ✗ rows."


def alpha_range(lo: float, hi: float, picked: bool) -> str:
    """The brushed range of α, rounded: ``α from 49.5 to 124.9``.

    >>> alpha_range(49.4736842, 124.9127, True), alpha_range(0, 200, False)
    ('α from 49.5 to 124.9', 'α from 0.0 to 200.0 (the whole sweep; drag to narrow it)')
    """
    return f"α from {lo:.1f} to {hi:.1f}" + ("" if picked else " (the whole sweep; drag to narrow it)")
