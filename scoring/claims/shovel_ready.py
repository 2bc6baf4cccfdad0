"""Shovel-Ready's sentences: the boost summary under the leaderboard, the takeaways of the
Demographics, Efficiency, Segments and Worked-examples pages, the what-if's explanations, and
the guardrail warnings (small groups carrying a team's weight; letters shared by a team whose
score rests on a small group) — each from the frame or findings whose numbers it states."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from .registry import claim
from .words import PLAIN, Style, alpha, count, margin, names, ordinal, pct, plural, upper_bound

LEADERBOARD = ("page: Shovel-Ready Leaderboard", "page: Efficiency", "report: Efficiency boost")


@claim("shovel_ready.boost", states="the leaderboard frame (bias_score, eligible, boost) and the parameters",
       shown=LEADERBOARD)
def boost(lb: pd.DataFrame, p: Mapping[str, Any], *, has_runtimes: bool = True, style: Style = PLAIN,
          bold: bool = False) -> str:
    """Who the efficiency stage concerns at these parameters, in one line (so that a move of
    the band, the maximum boost or the window visibly changes the page)."""
    from scoring.shovel_ready.efficiency import eligibility_threshold

    lead = "**Efficiency boost:**" if bold else "Efficiency boost:"
    if lb.empty:
        return ""
    if not has_runtimes:
        return f"{lead} no runtimes are loaded, so no team is eligible and the final score is the bias-aware score."
    best = float(lb["bias_score"].max())
    elig = lb[lb["eligible"].astype(bool)]
    boosted = lb[lb["boost"].astype(float) > 0].sort_values("boost", ascending=False)
    head = (f"{lead} {len(elig)} of {count(len(lb), 'team')} {plural(len(elig), 'is', 'are')} eligible (a runtime "
            f"and a bias-aware score within {pct(p['band'])} of the best, at least "
            f"{_at_least(eligibility_threshold(best, p['band']))})")
    if boosted.empty:
        return head + "; no team gets a boost."
    got = ", ".join(f"{style.name(str(r['submission']))} +{float(r['boost']) * 100:.2f} %"
                    for r in boosted.to_dict("records")[:4])
    more = f" and {count(len(boosted) - 4, 'other')}" if len(boosted) > 4 else ""
    return (head + f"; {count(len(boosted), 'gets', 'get')} a boost (at most {pct(p['max_boost'])}, none beyond "
            f"{pct(p['window'])} slower than the fastest eligible): {got}{more}.")


def _at_least(x: float) -> str:
    """A lower bound to four decimals, rounded up so that "at least" stays true."""
    return f"{math.ceil(x * 10_000 - 1e-9) / 10_000:.4f}"


@claim("shovel_ready.demographics", states="the leaderboard frame (segment and bias-aware ranks and scores), the "
       "group scores and the parameters", shown=("page: Demographics",))
def demographics(lb: pd.DataFrame, gs: Any, p: Mapping[str, Any], *, style: Style = PLAIN) -> str:
    """Who the bias stage moves most at this α, and which group carries its weight."""
    from scoring.shovel_ready.aggregate import softmin_weights

    a = alpha(p["alpha"])
    attrs = ", ".join(p["attributes"])
    recs = lb.to_dict("records")
    drops = sorted(recs, key=lambda r: (int(r["segment_score_rank"]) - int(r["bias_score_rank"]),
                                        -float(r["segment_score"]) + float(r["bias_score"])))
    worst = drops[0]
    moved = int(worst["bias_score_rank"]) - int(worst["segment_score_rank"])
    team = str(worst["submission"])
    betas = softmin_weights(gs.scores.loc[[team], gs.labels], gs.sizes.reindex(gs.labels), p["alpha"]).iloc[0]
    heavy = str(betas.idxmax())
    where = (f"its weakest group, {style.text(heavy)} ({float(gs.scores.loc[team, heavy]):.3f}, "
             f"{count(int(gs.sizes[heavy]), 'essay')}), carries {betas.max() * 100:.0f} % of its weight")
    if moved > 0:
        return (f"At α = {a} on {style.text(attrs)}, {names([team], style)} falls furthest: "
                f"{ordinal(int(worst['segment_score_rank']))} on the segment score, "
                f"{ordinal(int(worst['bias_score_rank']))} after the bias aggregation — {where}.")
    lost = float(worst["segment_score"]) - float(worst["bias_score"])
    if lost > 0:
        return (f"At α = {a} on {style.text(attrs)} the bias aggregation moves no team's rank; {names([team], style)} "
                f"loses the most score ({margin(lost)}): {where}.")
    return (f"At α = {a} on {style.text(attrs)} the bias aggregation moves no team's rank and lowers no team's score; "
            f"for {names([team], style)}, {where}.")


@claim("shovel_ready.efficiency", states="the efficiency frame (team, score, runtime, eligible, boost, rank) and the "
       "parameters", shown=("page: Efficiency",))
def efficiency(eff: pd.DataFrame, p: Mapping[str, Any], *, style: Style = PLAIN) -> str:
    """Who gets the boost and what it does to the ranking."""
    if eff["runtime"].isna().all():
        return "No runtimes are loaded, so nobody is eligible for the boost: the final ranking is the bias-aware one."
    elig = eff[eff["eligible"].astype(bool)].sort_values("runtime")
    if elig.empty:
        return "No team with a runtime is within the eligibility band: the final ranking is the bias-aware one."
    fastest = elig.iloc[0]
    out = (f"{count(len(elig), 'team')} {plural(len(elig), 'is', 'are')} within {pct(p['band'])} of the best "
           f"bias-aware score; {names([str(fastest['team'])], style)}, the fastest of them "
           f"({float(fastest['runtime']):,.4g} s), gets "
           f"{'the full ' + pct(p['max_boost']) if float(fastest['boost']) > 0 else 'no'} boost")
    before = dict(zip(eff["team"], eff["score"].rank(ascending=False, method="min").astype(int), strict=True))
    t = str(fastest["team"])
    if int(fastest["rank"]) < before[t]:
        out += f" and climbs from {ordinal(before[t])} to {ordinal(int(fastest['rank']))}"
    else:
        out += f" and finishes {ordinal(int(fastest['rank']))}"
    return out + "."


@claim("shovel_ready.segments", states="one team's matches on one essay (counts of ground truth, predictions, "
       "matches, trimmed, discarded)", shown=("page: Segments",))
def segments(team: str, essay: str, n_gt: int, n_pred: int, n_matched: int, n_trimmed: int, n_discarded: int,
             removal: bool, *, style: Style = PLAIN) -> str:
    """What one team did on one essay."""
    out = (f"On essay {style.text(essay)}, {names([team], style)} matched {n_matched} of "
           f"{count(n_gt, 'ground-truth segment')} with {count(n_pred, 'prediction')}")
    if n_trimmed or n_discarded:
        out += (f"; overlap removal trimmed {n_trimmed} and discarded {n_discarded}"
                + ("" if removal else " (switched off: the scoring uses them as submitted)"))
    return out + "."


@claim("shovel_ready.worked", states="the worked examples' checks (one bool each)", shown=("page: Worked examples",))
def worked(checks: Sequence[bool]) -> str:
    ok = int(np.sum(checks))
    if ok == len(checks):
        return f"The engine agrees with all {len(checks)} of the memo's worked examples checked on this page."
    return f"The engine disagrees with the memo on {len(checks) - ok} of {len(checks)} examples: see the ✗ rows."


def _faster(bound: float, runtime: float) -> str:
    """How much faster than ``runtime`` a run must be to get under ``bound``, in percent rounded
    up (so that running that much faster is enough)."""
    return f"{math.ceil((1 - bound / runtime) * 1000 - 1e-9) / 10:.1f} %"


@claim("shovel_ready.what_if", states="scoring.shovel_ready.what_if()'s result and the runtime typed",
       shown=("page: Efficiency, What if…",))
def what_if(res: Mapping[str, Any], runtime: float, *, style: Style = PLAIN) -> dict[str, Any]:
    """The what-if in words: ``{"lines": [...], "why": str | None}`` — eligibility, the runtime
    for the full boost, the runtime to overtake the team directly above (bounds rounded so they
    stay true), and why the two runtimes differ."""
    b = (lambda s: f"**{s}**") if style is not PLAIN else (lambda s: s)
    need, r = res["full_boost_runtime"], res["overtake_runtime"]
    lines: list[str] = []
    if not res["eligible"]:
        return {"lines": [f"Not eligible: the score must be at least {b(_at_least(res['threshold_score']))} "
                          f"(the best score {res['best']:.4f} divided by 1 + band). Speed alone cannot help."],
                "why": None}
    if need is not None and runtime <= need + 1e-12:
        lines.append(f"{b('Full boost')}: no eligible rival is faster.")
    elif need is not None:
        lines.append(f"{b('Full boost')} needs a runtime of at most {b(upper_bound(need) + ' s')} — "
                     f"{_faster(need, runtime)} faster than {runtime:,.6g} s.")
    if res["above"] is None:
        lines.append(f"{b('Top of the leaderboard')} — nobody to overtake.")
        return {"lines": lines, "why": None}
    above = style.name(str(res["above"])) if style is not PLAIN else str(res["above"])
    if r is None:
        lines.append(f"{above} (directly above) cannot be overtaken by speed alone with these parameters: a better "
                     "score is needed.")
        return {"lines": lines, "why": None}
    lines.append(f"To {b('overtake ' + style.text(str(res['above'])))} (directly above), run in under "
                 f"{b(upper_bound(r) + ' s')} — "
                 f"{_faster(r, runtime)} faster.")
    why = None
    if need is not None and abs(r - need) > 1e-9 * need:
        who = style.text(str(res["above"]))
        if r > need:
            why = (f"Overtaking needs less than the full boost — only enough to pass {who}'s final score — so a run "
                   f"slower than the fastest eligible rival ({upper_bound(need)} s) already does it.")
        else:
            why = (f"Overtaking needs more than being the fastest: {who} has a boost of its own, which only shrinks "
                   f"as you run faster than {upper_bound(need)} s (the fastest eligible runtime sets every boost).")
        why = f"Why two runtimes? The full boost needs the fastest eligible runtime. {why}"
    return {"lines": lines, "why": why}


@claim("shovel_ready.band_news", states="the field's eligibility before the what-if and what_if()'s table, best and "
       "threshold", shown=("page: Efficiency, What if…",))
def band_news(eligible_before: Sequence[str], res: Mapping[str, Any], *, style: Style = PLAIN) -> str | None:
    """When the what-if's score is a new best that pushes rivals out of the band: who, and where
    the band now starts (rounded up: a score below it is out). None when nobody drops out."""
    table = res["table"].set_index("submission")
    dropped = sorted(t for t in eligible_before if t in table.index and not bool(table.loc[t, "eligible"]))
    if not dropped:
        return None
    n = len(dropped)
    return (f"This score is a new best ({res['best']:.4f}): the band now starts at {_at_least(res['threshold_score'])}, "
            f"so {names(dropped, style, limit=None)} {plural(n, 'falls', 'fall')} out of it and "
            f"{plural(n, 'loses its', 'lose their')} eligibility.")


# ---- the guardrails --------------------------------------------------------------------------------
#: what a softmin over small groups does to the score (measured: docs/robustness.md)
SMALL_GROUP_BIAS = ("; a softmin over groups this small is biased low (in a simulation with a 20- or 25-essay "
                    "group: about 0.55 standard deviations low), which the score intervals (Rank intervals) allow for")
#: the score intervals with a small group, as measured (docs/robustness.md, "Score intervals"; the slow test
#: tests/simulation/test_simulation.py holds these figures to the simulation): (essays in the smallest group,
#: essays in all, the lowest share of a type of team whose interval held its true score, the lowest of one team)
MEASURED = ((20, 500, 0.92, 0.75), (25, 500, 0.93, 0.81), (20, 1500, 0.92, 0.92))


@claim("shovel_ready.interval_note", states="the smallest group's essays and all the essays, against MEASURED",
       shown=("page: Rank intervals", "CLI: leaderboard --bootstrap (stderr, JSON score_interval_note)"))
def interval_note(smallest: int, total: int, *, min_group: int = 30) -> str:
    """What the simulation measured for the score intervals when the smallest group has fewer than
    ``min_group`` essays (``smallest`` of ``total``); "" otherwise. The measured design nearest in
    total essays, then in the group's size.

    >>> interval_note(40, 500)
    ''
    >>> interval_note(22, 520)[:58]
    'the smallest group has 22 essays: in a simulation with a 2'
    """
    if smallest >= min_group or total <= 0:
        return ""
    g, n, low, least = min(MEASURED, key=lambda m: (abs(math.log(m[1] / total)), abs(m[0] - smallest)))
    fewer = "; groups under 20 essays were not simulated" if smallest < 20 else ""
    weakest = (f", but for the weakest teams (a handful of matched segments in that group) as little as {least:.0%} of "
               "the time" if least < low else "")
    return (f"the smallest group has {count(smallest, 'essay')}: in a simulation with a {g}-essay "
            f"group in {n:,} essays, the score intervals held the true score for {low:.0%} or more of the teams of "
            f"each kind{weakest}{fewer}")


@claim("shovel_ready.group_warnings", states="guardrails.group_findings(): the groups, their sizes and the softmin "
       "weights they carry", shown=("page: every Shovel-Ready page's header", "CLI: leaderboard (stderr)"))
def group_warnings(findings: Sequence[Mapping[str, Any]]) -> list[str]:
    """One warning per finding: ``{"kind": "many", attributes, groups, small, min_group}`` or
    ``{"kind": "heavy", group, size, weight, alpha, teams, missing}``."""
    out = []
    for f in findings:
        if f["kind"] == "many":
            out.append(f"{', '.join(f['attributes'])} makes {f['groups']} groups, {f['small']} of them with fewer "
                       f"than {f['min_group']} essays: the bias-aware score rests on very few essays per group")
            continue
        teams = list(f["teams"])
        out.append(f"the group {f['group']} has only {count(f['size'], 'essay')} yet carries up to "
                   f"{f['weight']:.0%} of the softmin weight at α = {alpha(f['alpha'])} for {', '.join(teams[:5])}"
                   f"{' and others' if len(teams) > 5 else ''}: it decides {plural(len(teams), 'its', 'their')} "
                   "bias-aware score"
                   + (" (essays without demographics can be left out of the groups)" if f["missing"] else "")
                   + SMALL_GROUP_BIAS)
    return out


@claim("shovel_ready.letter_warnings", states="guardrails.letter_findings(): the flagged pairs (t in paired SEs "
       "on the segment score) and the threshold T_POOLED",
       shown=("page: Rank intervals", "CLI: leaderboard --bootstrap (stderr, JSON letter_warnings)"))
def letter_warnings(findings: Sequence[Mapping[str, Any]], *, most: int = 6) -> list[str]:
    """One warning for the flagged pairs: ``{pairs: [(team, other team, t)] largest t first,
    t_pooled}``."""
    out = []
    for f in findings:
        pairs = ", ".join(f"{a} over {b} ({t:.1f} SE)" for a, b, t in f["pairs"][:most])
        more = f" and {len(f['pairs']) - most} more" if len(f["pairs"]) > most else ""
        out.append(f"these pairs share a letter on the bias-aware score although the first is {f['t_pooled']:g} or "
                   f"more paired standard errors ahead on the segment score (every essay pooled, no softmin): "
                   f"{pairs}{more}; the bias-aware score is a softmin over the groups, noisier than the segment score "
                   "(most where a group is small), so a real gap on it can hide behind a shared letter: they may "
                   "differ more than the letters show")
    return out


def alpha_range(lo: float, hi: float, picked: bool) -> str:
    """The brushed range of α, rounded: ``α from 49.5 to 124.9`` (a label of a chart, not a
    claim about the data).

    >>> alpha_range(49.4736842, 124.9127, True), alpha_range(0, 200, False)
    ('α from 49.5 to 124.9', 'α from 0.0 to 200.0 (the whole sweep; drag to narrow it)')
    """
    return f"α from {lo:.1f} to {hi:.1f}" + ("" if picked else " (the whole sweep; drag to narrow it)")
